package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"unicode/utf8"
)

// FuzzBatchDecode feeds arbitrary bodies to POST /v1/batch. Properties: no
// panic, never a 5xx, the answer is valid JSON, and the strict scanner
// accepts only what encoding/json also considers valid JSON.
func FuzzBatchDecode(f *testing.F) {
	for _, seed := range []string{
		`{"conversions":[{"value":"12.5","from":"ft","to":"m"}]}`,
		`{"conversions":[{"value":1e3,"from":"km","to":"m","precision":3}],"precision":10}`,
		`{"conversions":[{"value":"-300","from":"degC","to":"K"},{"value":"x","from":"gallon","to":"L"},7,null]}`,
		`{"conversions":[{"value":"1","from":"m\u0000","to":"\ud800ft"}]}`,
		`{"conversions":[],"x":1}`,
		`{"conversions":[{"value":[[[[{}]]]]}]}`,
		`{"a":"\u00e9","conversions":{"b":true}} `,
		"\xff{}",
		`[`,
	} {
		f.Add([]byte(seed))
	}
	set, ks := testKeys(f)
	s := New(Config{Keys: fakeKeys{set}, Env: "test"})
	s.ApplyGraph(testGraph(f))
	h := s.Handler()
	auth := "Bearer " + ks["good"]
	f.Fuzz(func(t *testing.T, body []byte) {
		req := httptest.NewRequest(http.MethodPost, "/v1/batch", bytes.NewReader(body))
		req.Header.Set("Authorization", auth)
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("status %d for %q: %s", rec.Code, body, rec.Body)
		}
		if !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("answer is not JSON: %s", rec.Body)
		}
		req2, apiErr := decodeBatch(body, nil)
		_ = req2
		accepted := apiErr == nil || apiErr.Code != codeInvalidRequest || !bytes.HasPrefix([]byte(apiErr.Message), []byte("malformed JSON"))
		if accepted && !(json.Valid(body) && utf8.Valid(body)) && len(body) <= DefaultMaxBody {
			t.Fatalf("scanner accepted invalid JSON %q", body)
		}
	})
}
