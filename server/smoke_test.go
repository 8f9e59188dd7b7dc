package server

import "testing"

func TestSmoke(t *testing.T) {
	f := newFixture(t, nil)
	for _, tc := range []struct{ method, target, body string }{
		{"GET", "/v1/convert?value=12.5&from=ft&to=m", ""},
		{"POST", "/v1/convert", `{"value":12.5,"from":"ft","to":"m"}`},
		{"POST", "/v1/batch", `{"conversions":[{"value":"1","from":"degC","to":"K"},{"value":"abc","from":"ft","to":"m"},5,{"value":"1","from":"gallon","to":"L"}],"precision":5}`},
		{"GET", "/v1/categories", ""},
		{"GET", "/v1/units/km%2Fh", ""},
		{"GET", "/v1/units?q=met", ""},
		{"GET", "/v1/health", ""},
		{"GET", "/nope", ""},
		{"DELETE", "/v1/convert", ""},
	} {
		resp, body := f.do(t, f.request(t, tc.method, tc.target, f.keys["good"], "application/json", tc.body))
		t.Logf("%s %s → %d %v\n%s", tc.method, tc.target, resp.StatusCode, resp.Header, body)
	}
}
