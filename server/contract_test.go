package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/unitd/unitd/apikey"
	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/server/ratelimit"
)

// validator checks responses against the server's own /openapi.json.
type validator struct {
	doc    *openapi3.T
	router routers.Router
}

func newValidator(t testing.TB, f *fixture) *validator {
	t.Helper()
	resp, body := f.do(t, f.request(t, "GET", "/openapi.json", "", "", ""))
	if resp.StatusCode != 200 {
		t.Fatalf("GET /openapi.json: %d", resp.StatusCode)
	}
	doc := loadOpenAPI(t, body)
	doc.Servers = openapi3.Servers{{URL: f.ts.URL}}
	r, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	return &validator{doc: doc, router: r}
}

// check validates one response against the document. Answers for which no
// operation exists (unknown route, wrong method) are checked against the
// ErrorResponse schema.
func (v *validator) check(t testing.TB, req *http.Request, resp *http.Response, body []byte) {
	t.Helper()
	if resp.Header.Get("X-Request-Id") == "" {
		t.Errorf("%s %s: no X-Request-Id", req.Method, req.URL)
	}
	if resp.StatusCode >= 400 {
		var e struct {
			Error struct {
				RequestID string `json:"request_id"`
			} `json:"error"`
		}
		if err := json.Unmarshal(body, &e); err != nil || e.Error.RequestID != resp.Header.Get("X-Request-Id") {
			t.Errorf("%s %s: error request_id %q does not match X-Request-Id %q (%v)", req.Method, req.URL, e.Error.RequestID, resp.Header.Get("X-Request-Id"), err)
		}
	}
	vreq := req.Clone(context.Background())
	vreq.Body = nil
	route, params, err := v.router.FindRoute(vreq)
	if err != nil {
		if resp.StatusCode != 404 && resp.StatusCode != 405 {
			t.Errorf("%s %s: no documented operation (%v) for status %d", req.Method, req.URL, err, resp.StatusCode)
			return
		}
		var data any
		if err := json.Unmarshal(body, &data); err != nil {
			t.Errorf("%s %s: body is not JSON: %v", req.Method, req.URL, err)
			return
		}
		schema := v.doc.Components.Schemas["ErrorResponse"].Value
		if err := schema.VisitJSON(data, openapi3.EnableJSONSchema2020()); err != nil {
			t.Errorf("%s %s: error body does not match ErrorResponse: %v", req.Method, req.URL, err)
		}
		return
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: vreq, PathParams: params, Route: route},
		Status:                 resp.StatusCode,
		Header:                 resp.Header,
		Options:                &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	}
	in.SetBodyBytes(body)
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		t.Errorf("%s %s → %d does not match /openapi.json: %v\nbody: %s", req.Method, req.URL, resp.StatusCode, err, body)
	}
}

type contractCase struct {
	name        string
	method      string
	target      string
	key         string // name in fixture.keys, a literal Authorization value when it starts with "raw:", or ""
	contentType string
	body        string
	header      map[string]string // extra request headers
	status      int
	code        string            // error code, "" for success
	wantHeader  map[string]string // exact response headers
	wantBody    string            // exact body (without trailing newline), if set
	contains    []string          // substrings of the body
	absent      []string          // substrings the body must not hold
}

func (tc contractCase) run(t *testing.T, f *fixture, v *validator) {
	t.Helper()
	req := f.request(t, tc.method, tc.target, "", tc.contentType, tc.body)
	switch {
	case strings.HasPrefix(tc.key, "raw:"):
		req.Header.Set("Authorization", strings.TrimPrefix(tc.key, "raw:"))
	case tc.key != "":
		req.Header.Set("Authorization", "Bearer "+f.keys[tc.key])
	}
	for k, val := range tc.header {
		req.Header.Set(k, val)
	}
	resp, body := f.do(t, req)
	if resp.StatusCode != tc.status {
		t.Errorf("status = %d, want %d; body: %s", resp.StatusCode, tc.status, body)
	}
	if tc.code != "" {
		var e struct {
			Error struct{ Code string } `json:"error"`
		}
		if err := json.Unmarshal(body, &e); err != nil || e.Error.Code != tc.code {
			t.Errorf("code = %q, want %q; body: %s", e.Error.Code, tc.code, body)
		}
	}
	for k, want := range tc.wantHeader {
		if got := resp.Header.Get(k); got != want {
			t.Errorf("header %s = %q, want %q", k, got, want)
		}
	}
	if tc.wantBody != "" && strings.TrimSuffix(string(body), "\n") != tc.wantBody {
		t.Errorf("body:\n got: %s\nwant: %s", body, tc.wantBody)
	}
	for _, s := range tc.contains {
		if !strings.Contains(string(body), s) {
			t.Errorf("body does not contain %s: %s", s, body)
		}
	}
	for _, s := range tc.absent {
		if strings.Contains(string(body), s) {
			t.Errorf("body contains %s: %s", s, body)
		}
	}
	if strings.Contains(string(body), "goroutine") || strings.Contains(string(body), ".go:") {
		t.Errorf("body leaks internals: %s", body)
	}
	v.check(t, req, resp, body)
}

const js = "application/json"

var bigBody = `{"conversions":[` + strings.Repeat(`{"value":"1","from":"m","to":"ft"},`, 2000) + `{"value":"1","from":"m","to":"ft"}]}`

func batchOf(n int) string {
	items := make([]string, n)
	for i := range items {
		items[i] = `{"value":"1","from":"m","to":"ft"}`
	}
	return `{"conversions":[` + strings.Join(items, ",") + `]}`
}

func TestContract(t *testing.T) {
	f := newFixture(t, nil)
	v := newValidator(t, f)
	rl := map[string]string{"RateLimit-Limit": "600", "RateLimit-Remaining": "599", "RateLimit-Reset": "1"}
	cases := []contractCase{
		// Successes.
		{name: "GET convert", method: "GET", target: "/v1/convert?value=12.5&from=ft&to=m", key: "good", status: 200, wantHeader: rl,
			wantBody: `{"data":{"input":{"value":"12.5","unit":"ft"},"result":{"value":"3.81","unit":"m"},"category":"length","exact":true}}`},
		{name: "GET convert precision", method: "GET", target: "/v1/convert?value=1&from=ft&to=in&precision=3", key: "good", status: 200, contains: []string{`"value":"12"`}},
		{name: "GET convert escaped unit", method: "GET", target: "/v1/convert?value=36&from=km%2Fh&to=m%2Fs", key: "good", status: 200, contains: []string{`"result":{"value":"10","unit":"m/s"}`}},
		{name: "POST convert number literal", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"value":1.50e1,"from":"feet","to":"m"}`, status: 200,
			wantBody: `{"data":{"input":{"value":"1.50e1","unit":"feet"},"result":{"value":"4.572","unit":"m"},"category":"length","exact":true}}`},
		{name: "POST convert charset", method: "POST", target: "/v1/convert", key: "good", contentType: "application/json; charset=utf-8", body: `{"value":"-40","from":"°C","to":"K","precision":4}`, status: 200, contains: []string{`"value":"233.2"`, `"exact":false`}},
		{name: "POST convert formula", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"value":"5","from":"L/100km","to":"km/L"}`, status: 200, contains: []string{`"value":"20"`}},
		{name: "POST convert inexact", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"value":"1","from":"in","to":"ft","precision":5}`, status: 200, contains: []string{`"value":"0.083333"`, `"exact":false`}},
		{name: "batch mixed", method: "POST", target: "/v1/batch", key: "good", contentType: js, wantHeader: rl,
			body:   `{"conversions":[{"value":"12.5","from":"ft","to":"m"},{"value":"abc","from":"ft","to":"m"},"x",{"from":"ft","to":"m"},{"value":"1","from":"ft","to":"m","extra":1},{"value":"1","from":"ft","to":"K"},{"value":"1","from":"in","to":"ft","precision":2}],"precision":10}`,
			status: 200,
			contains: []string{
				`{"index":0,"status":"success","input":{"value":"12.5","unit":"ft"},"result":{"value":"3.81","unit":"m"},"category":"length","exact":true}`,
				`{"index":1,"status":"error","input":{"value":"abc","unit":"ft"},"error":{"code":"INVALID_VALUE"`,
				`{"index":2,"status":"error","input":{},"error":{"code":"INVALID_ITEM"`,
				`{"index":3,"status":"error","input":{"unit":"ft"},"error":{"code":"INVALID_ITEM","message":"missing field \"value\""}}`,
				`{"index":4,"status":"error","input":{"value":"1","unit":"ft"},"error":{"code":"INVALID_ITEM"`,
				`"index":5,"status":"error","input":{"value":"1","unit":"ft"},"error":{"code":"INCOMPATIBLE_UNITS"`,
				`"result":{"value":"0.083","unit":"ft"}`,
				`"meta":{"total":7,"succeeded":2,"failed":5}`,
			}},
		{name: "batch of 100", method: "POST", target: "/v1/batch", key: "good", contentType: js, body: batchOf(100), status: 200, contains: []string{`"meta":{"total":100,"succeeded":100,"failed":0}`}},

		// Item-level codes as single conversions.
		// Unit expressions and explain.
		{name: "GET expression", method: "GET", target: "/v1/convert?value=1&from=ft%2Fs&to=km%2Fh", key: "good", status: 200,
			contains: []string{`"result":{"value":"1.09728","unit":"km/h"},"category":"speed","exact":true`}},
		{name: "GET expression target", method: "GET", target: "/v1/convert?value=36&from=km%2Fh&to=m%C2%B7s%E2%81%BB%C2%B9", key: "good", status: 200,
			contains: []string{`"result":{"value":"10","unit":"m*s^-1"},"category":"speed","exact":true`}},
		{name: "POST expression power", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"value":"1","from":"ft^3","to":"L"}`, status: 200,
			contains: []string{`"result":{"value":"28.316846592","unit":"L"},"category":"volume","exact":true`}},
		{name: "expression of no category", method: "GET", target: "/v1/convert?value=1&from=m%5E2%2Fs&to=ft%5E2%2Fs", key: "good", status: 200,
			contains: []string{`"unit":"ft^2/s"},"category":"L^2 T^-1"`}},
		{name: "GET explain", method: "GET", target: "/v1/convert?value=1&from=in&to=m&explain=true", key: "good", status: 200,
			contains: []string{`"explain":{"catalog_version":"test-1","kind":"linear","factor":"0.0254","factor_exact":true,"steps":[{"unit":"in","definition":"1 in = 2.54 cm","exact":true,"source":"server test catalog"},{"unit":"cm","definition":"1 cm = 1/100 m"`}},
		{name: "GET explain false", method: "GET", target: "/v1/convert?value=1&from=in&to=m&explain=false", key: "good", status: 200, absent: []string{`"explain"`}},
		{name: "POST explain affine", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"value":"0","from":"degC","to":"K","explain":true}`, status: 200,
			contains: []string{`"kind":"affine","factor":"1","factor_exact":true,"offset":"273.15","offset_exact":true`}},
		{name: "POST explain rational", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"value":"1","from":"m/s","to":"km/h","explain":true}`, status: 200,
			contains: []string{`"factor":"3.6"`}},
		{name: "POST explain formula", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"value":"5","from":"L/100km","to":"km/L","explain":true}`, status: 200,
			contains: []string{`"kind":"formula","formulas":[{"unit":"L/100km","reference":"km/L","to":"100 / x","from":"100 / x"}]`}},
		{name: "batch explain", method: "POST", target: "/v1/batch", key: "good", contentType: js, body: `{"conversions":[{"value":"1","from":"ft","to":"m"},{"value":"1","from":"ft^2","to":"m*m"},{"value":"x","from":"ft","to":"m"}],"explain":true}`, status: 200,
			contains: []string{`"factor":"0.3048"`, `"factor":"0.09290304"`, `{"unit":"ft","exponent":2,`, `"meta":{"total":3,"succeeded":2,"failed":1}`}},
		{name: "explain not boolean", method: "GET", target: "/v1/convert?value=1&from=in&to=m&explain=yes", key: "good", status: 400, code: "INVALID_REQUEST"},
		{name: "explain wrong type", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"value":"1","from":"in","to":"m","explain":"true"}`, status: 400, code: "INVALID_REQUEST"},
		{name: "explain inside batch item", method: "POST", target: "/v1/batch", key: "good", contentType: js, body: `{"conversions":[{"value":"1","from":"ft","to":"m","explain":true}]}`, status: 200,
			contains: []string{`"code":"INVALID_ITEM"`}},
		{name: "INVALID_UNIT_EXPRESSION exponent", method: "GET", target: "/v1/convert?value=1&from=m%5E99&to=m", key: "good", status: 400, code: "INVALID_UNIT_EXPRESSION", contains: []string{"position 2"}},
		{name: "INVALID_UNIT_EXPRESSION operators", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"value":"1","from":"km*/h","to":"m/s"}`, status: 400, code: "INVALID_UNIT_EXPRESSION", contains: []string{"position 4"}},
		{name: "INVALID_UNIT_EXPRESSION formula", method: "GET", target: "/v1/convert?value=1&from=L%2F100km*km&to=L", key: "good", status: 400, code: "INVALID_UNIT_EXPRESSION", contains: []string{"defined by a formula"}},
		{name: "INVALID_UNIT_EXPRESSION parenthesis", method: "GET", target: "/v1/convert?value=1&from=(m&to=m", key: "good", status: 400, code: "INVALID_UNIT_EXPRESSION"},
		{name: "INVALID_UNIT_EXPRESSION 10000 operands", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"value":"1","from":"` + strings.Repeat("m*", 9999) + `m","to":"m"}`, status: 400, code: "INVALID_UNIT_EXPRESSION"},
		{name: "INVALID_UNIT_EXPRESSION operators only", method: "GET", target: "/v1/convert?value=1&from=*%2F%5E&to=m", key: "good", status: 400, code: "INVALID_UNIT_EXPRESSION"},
		{name: "batch INVALID_UNIT_EXPRESSION", method: "POST", target: "/v1/batch", key: "good", contentType: js, body: `{"conversions":[{"value":"1","from":"m**","to":"m"}]}`, status: 200, contains: []string{`"code":"INVALID_UNIT_EXPRESSION"`}},
		{name: "UNKNOWN_UNIT operand", method: "GET", target: "/v1/convert?value=1&from=fet%2Fs&to=m%2Fs", key: "good", status: 400, code: "UNKNOWN_UNIT", contains: []string{`"suggestions":["ft"`}},
		{name: "INCOMPATIBLE_UNITS details", method: "GET", target: "/v1/convert?value=1&from=m%2Fs&to=m%2Fs%5E2", key: "good", status: 422, code: "INCOMPATIBLE_UNITS",
			contains: []string{`"details":{"from_dimension":"L T^-1","to_dimension":"L T^-2"}`, "divide by a time"}},
		{name: "INVALID_VALUE", method: "GET", target: "/v1/convert?value=1%2C000&from=ft&to=m", key: "good", status: 400, code: "INVALID_VALUE"},
		{name: "INVALID_VALUE NaN", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"value":"NaN","from":"ft","to":"m"}`, status: 400, code: "INVALID_VALUE"},
		{name: "INVALID_VALUE huge exponent", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"value":1e999999999,"from":"ft","to":"m"}`, status: 400, code: "INVALID_VALUE"},
		{name: "INVALID_VALUE long", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"value":"` + strings.Repeat("9", 101) + `","from":"ft","to":"m"}`, status: 400, code: "INVALID_VALUE"},
		{name: "UNKNOWN_UNIT", method: "GET", target: "/v1/convert?value=1&from=fet&to=m", key: "good", status: 400, code: "UNKNOWN_UNIT", contains: []string{`"suggestions":["ft"`}},
		{name: "INCOMPATIBLE_UNITS", method: "GET", target: "/v1/convert?value=1&from=ft&to=K", key: "good", status: 422, code: "INCOMPATIBLE_UNITS", contains: []string{"ft", "K"}},
		{name: "AMBIGUOUS_UNIT", method: "GET", target: "/v1/convert?value=1&from=gallon&to=L", key: "good", status: 400, code: "AMBIGUOUS_UNIT", contains: []string{`"candidates":["gal","gal_imp"]`}},
		{name: "VALUE_OUT_OF_RANGE", method: "GET", target: "/v1/convert?value=-300&from=degC&to=K", key: "good", status: 422, code: "VALUE_OUT_OF_RANGE"},
		{name: "VALUE_OUT_OF_RANGE formula", method: "GET", target: "/v1/convert?value=0&from=L%2F100km&to=km%2FL", key: "good", status: 422, code: "VALUE_OUT_OF_RANGE"},

		// INVALID_REQUEST.
		{name: "malformed JSON", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"value":`, status: 400, code: "INVALID_REQUEST"},
		{name: "not an object", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `[1]`, status: 400, code: "INVALID_REQUEST"},
		{name: "empty body", method: "POST", target: "/v1/batch", key: "good", contentType: js, status: 400, code: "INVALID_REQUEST"},
		{name: "conversions missing", method: "POST", target: "/v1/batch", key: "good", contentType: js, body: `{}`, status: 400, code: "INVALID_REQUEST"},
		{name: "conversions not array", method: "POST", target: "/v1/batch", key: "good", contentType: js, body: `{"conversions":{}}`, status: 400, code: "INVALID_REQUEST"},
		{name: "conversions empty", method: "POST", target: "/v1/batch", key: "good", contentType: js, body: `{"conversions":[]}`, status: 400, code: "INVALID_REQUEST"},
		{name: "duplicate top-level field", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"value":"1","value":"2","from":"m","to":"ft"}`, status: 400, code: "INVALID_REQUEST"},
		{name: "duplicate batch field", method: "POST", target: "/v1/batch", key: "good", contentType: js, body: `{"conversions":[{"value":"1","from":"m","to":"ft"}],"conversions":[]}`, status: 400, code: "INVALID_REQUEST"},
		{name: "unknown top-level field", method: "POST", target: "/v1/batch", key: "good", contentType: js, body: `{"conversions":[{"value":"1","from":"m","to":"ft"}],"mode":"fast"}`, status: 400, code: "INVALID_REQUEST"},
		{name: "trailing data", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"value":"1","from":"m","to":"ft"} {}`, status: 400, code: "INVALID_REQUEST"},
		{name: "missing field single", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"value":"1","from":"m"}`, status: 400, code: "INVALID_REQUEST"},
		{name: "wrong type single", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"value":true,"from":"m","to":"ft"}`, status: 400, code: "INVALID_REQUEST"},
		{name: "unknown query parameter", method: "GET", target: "/v1/convert?value=1&from=m&to=ft&unit=x", key: "good", status: 400, code: "INVALID_REQUEST"},
		{name: "repeated query parameter", method: "GET", target: "/v1/convert?value=1&value=2&from=m&to=ft", key: "good", status: 400, code: "INVALID_REQUEST"},
		{name: "missing query parameter", method: "GET", target: "/v1/convert?value=1&from=m", key: "good", status: 400, code: "INVALID_REQUEST"},
		{name: "bad escape in query", method: "GET", target: "/v1/convert?value=1&from=%ZZ&to=ft", key: "good", status: 400, code: "INVALID_REQUEST"},
		{name: "invalid UTF-8 in query", method: "GET", target: "/v1/convert?value=1&from=%FF&to=ft", key: "good", status: 400, code: "INVALID_REQUEST"},
		{name: "precision 0", method: "GET", target: "/v1/convert?value=1&from=m&to=ft&precision=0", key: "good", status: 400, code: "INVALID_REQUEST"},
		{name: "precision 51", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"value":"1","from":"m","to":"ft","precision":51}`, status: 400, code: "INVALID_REQUEST"},
		{name: "precision fraction", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"value":"1","from":"m","to":"ft","precision":5.0}`, status: 400, code: "INVALID_REQUEST"},
		{name: "precision string", method: "POST", target: "/v1/batch", key: "good", contentType: js, body: `{"conversions":[{"value":"1","from":"m","to":"ft"}],"precision":"5"}`, status: 400, code: "INVALID_REQUEST"},
		{name: "invalid UTF-8 body", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: "{\"value\":\"1\",\"from\":\"m\xff\",\"to\":\"ft\"}", status: 400, code: "INVALID_REQUEST"},
		{name: "NUL byte raw", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: "{\"value\":\"1\",\"from\":\"m\x00\",\"to\":\"ft\"}", status: 400, code: "INVALID_REQUEST"},
		{name: "NUL byte escaped", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"value":"1","from":"m\u0000","to":"ft"}`, status: 400, code: "INVALID_REQUEST"},
		{name: "deep nesting", method: "POST", target: "/v1/batch", key: "good", contentType: js, body: `{"conversions":[{"value":` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + `}]}`, status: 400, code: "INVALID_REQUEST"},
		{name: "BATCH_LIMIT_EXCEEDED", method: "POST", target: "/v1/batch", key: "good", contentType: js, body: batchOf(101), status: 400, code: "BATCH_LIMIT_EXCEEDED"},
		{name: "malformed beats batch limit", method: "POST", target: "/v1/batch", key: "good", contentType: js, body: strings.TrimSuffix(batchOf(101), "}"), status: 400, code: "INVALID_REQUEST"},

		// Size and media type.
		{name: "PAYLOAD_TOO_LARGE", method: "POST", target: "/v1/batch", key: "good", contentType: js, body: bigBody, status: 413, code: "PAYLOAD_TOO_LARGE", wantHeader: rl},
		{name: "UNSUPPORTED_MEDIA_TYPE", method: "POST", target: "/v1/convert", key: "good", contentType: "text/plain", body: `{}`, status: 415, code: "UNSUPPORTED_MEDIA_TYPE", wantHeader: rl},
		{name: "no content type", method: "POST", target: "/v1/batch", key: "good", body: `{}`, status: 415, code: "UNSUPPORTED_MEDIA_TYPE"},
		{name: "json suffix type", method: "POST", target: "/v1/batch", key: "good", contentType: "application/problem+json", body: `{}`, status: 415, code: "UNSUPPORTED_MEDIA_TYPE"},
		{name: "charset other than utf-8", method: "POST", target: "/v1/convert", key: "good", contentType: "application/json; charset=utf-16", body: `{"value":"1","from":"m","to":"ft"}`, status: 415, code: "UNSUPPORTED_MEDIA_TYPE"},
		{name: "charset UTF-8 in capitals", method: "POST", target: "/v1/convert", key: "good", contentType: "application/json; charset=UTF-8", body: `{"value":"1","from":"m","to":"m"}`, status: 200},

		// Authentication.
		{name: "UNAUTHORIZED no header", method: "GET", target: "/v1/convert?value=1&from=m&to=ft", status: 401, code: "UNAUTHORIZED", wantHeader: map[string]string{"WWW-Authenticate": `Bearer realm="unitd"`, "RateLimit-Limit": ""}},
		{name: "UNAUTHORIZED basic", method: "GET", target: "/v1/convert?value=1&from=m&to=ft", key: "raw:Basic dXNlcjpwYXNz", status: 401, code: "UNAUTHORIZED", wantHeader: map[string]string{"WWW-Authenticate": `Bearer realm="unitd"`}},
		{name: "UNAUTHORIZED empty bearer", method: "POST", target: "/v1/batch", key: "raw:Bearer ", status: 401, code: "UNAUTHORIZED"},
		{name: "INVALID_API_KEY malformed", method: "GET", target: "/v1/convert?value=1&from=m&to=ft", key: "raw:Bearer hunter2", status: 401, code: "INVALID_API_KEY", wantHeader: map[string]string{"WWW-Authenticate": `Bearer error="invalid_token"`}},
		{name: "INVALID_API_KEY unknown", method: "GET", target: "/v1/convert?value=1&from=m&to=ft", key: "raw:Bearer uc_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", status: 401, code: "INVALID_API_KEY", wantHeader: map[string]string{"WWW-Authenticate": `Bearer error="invalid_token"`}},
		{name: "INVALID_API_KEY revoked", method: "POST", target: "/v1/convert", key: "revoked", contentType: js, body: `{}`, status: 401, code: "INVALID_API_KEY"},
		{name: "INVALID_API_KEY expired", method: "POST", target: "/v1/batch", key: "expired", contentType: js, body: `{}`, status: 401, code: "INVALID_API_KEY"},
		{name: "INVALID_API_KEY wrong env", method: "GET", target: "/v1/convert?value=1&from=m&to=ft", key: "live", status: 401, code: "INVALID_API_KEY", wantHeader: map[string]string{"RateLimit-Limit": ""}},
		{name: "lower-case scheme", method: "GET", target: "/v1/convert?value=1&from=m&to=ft", key: "raw:bearer " + f.keys["good"], status: 200},

		// Order of checks.
		{name: "order: method before auth", method: "PUT", target: "/v1/convert", status: 405, code: "METHOD_NOT_ALLOWED", wantHeader: map[string]string{"Allow": "GET, POST"}},
		{name: "order: auth before size", method: "POST", target: "/v1/batch", contentType: js, body: bigBody, status: 401, code: "UNAUTHORIZED"},
		{name: "order: auth before media type", method: "POST", target: "/v1/batch", contentType: "text/plain", body: "x", status: 401, code: "UNAUTHORIZED"},
		{name: "order: media type before JSON", method: "POST", target: "/v1/convert", key: "good", contentType: "text/plain", body: "{bad", status: 415, code: "UNSUPPORTED_MEDIA_TYPE"},
		{name: "order: media type before size", method: "POST", target: "/v1/batch", key: "good", contentType: "text/xml", body: bigBody, status: 415, code: "UNSUPPORTED_MEDIA_TYPE"},
		{name: "order: size before JSON", method: "POST", target: "/v1/batch", key: "good", contentType: js, body: "{" + bigBody, status: 413, code: "PAYLOAD_TOO_LARGE"},
		{name: "order: JSON before batch limit", method: "POST", target: "/v1/batch", key: "good", contentType: js, body: strings.Replace(batchOf(101), `{"conversions"`, `{"x":1,"conversions"`, 1), status: 400, code: "INVALID_REQUEST"},

		// Routes and methods.
		{name: "NOT_FOUND route", method: "GET", target: "/v2/convert", status: 404, code: "NOT_FOUND"},
		{name: "NOT_FOUND trailing slash", method: "GET", target: "/v1/categories/", status: 404, code: "NOT_FOUND"},
		{name: "NOT_FOUND category", method: "GET", target: "/v1/categories/nope", status: 404, code: "NOT_FOUND"},
		{name: "slash in a unit not encoded", method: "GET", target: "/v1/units/km/h", status: 404, code: "NOT_FOUND", contains: []string{`/v1/units/km%2Fh`}},
		{name: "NOT_FOUND unit", method: "GET", target: "/v1/units/fet", status: 404, code: "NOT_FOUND", contains: []string{`"suggestions":["ft"`}},
		{name: "NOT_FOUND units category", method: "GET", target: "/v1/units?category=nope", status: 404, code: "NOT_FOUND"},
		{name: "METHOD_NOT_ALLOWED batch", method: "GET", target: "/v1/batch", status: 405, code: "METHOD_NOT_ALLOWED", wantHeader: map[string]string{"Allow": "POST"}},
		{name: "METHOD_NOT_ALLOWED OPTIONS", method: "OPTIONS", target: "/v1/units", status: 405, code: "METHOD_NOT_ALLOWED", wantHeader: map[string]string{"Allow": "GET"}},

		// Discovery.
		{name: "categories", method: "GET", target: "/v1/categories", status: 200, contains: []string{`{"id":"length","name":"Length","description":"Distance.","base_unit":"m","dimension":"L","unit_count":5}`, `"meta":{"total":6}`}},
		{name: "category", method: "GET", target: "/v1/categories/temperature", status: 200, contains: []string{`"units":[{"symbol":"K"`, `"definition":{"kind":"affine","factor":"1","offset":"273.15","unit":"K"}`}},
		{name: "units", method: "GET", target: "/v1/units", status: 200, contains: []string{`"meta":{"total":16}`}},
		{name: "units filtered", method: "GET", target: "/v1/units?category=length&q=FEE", status: 200, contains: []string{`"symbol":"ft"`, `"meta":{"total":1}`}},
		{name: "units by dimension", method: "GET", target: "/v1/units?dimension=L%20T%5E-1", status: 200, contains: []string{`"symbol":"m/s"`, `"symbol":"km/h"`, `"meta":{"total":2}`}},
		{name: "units by dimension any order", method: "GET", target: "/v1/units?dimension=T%5E-1%20L&q=km", status: 200, contains: []string{`"symbol":"km/h"`, `"meta":{"total":1}`}},
		{name: "units bad dimension", method: "GET", target: "/v1/units?dimension=L%20X", status: 400, code: "INVALID_REQUEST"},
		{name: "unit expression", method: "GET", target: "/v1/units/ft%5E3%2Fh", status: 200,
			contains: []string{`{"data":{"symbol":"ft^3/h","category":"L^3 T^-1","dimension":"L^3 T^-1","definition":{"kind":"expression","factor":"0.00000786579072","factor_exact":true,"unit":"m^3*s^-1"}`}},
		{name: "unit expression bad", method: "GET", target: "/v1/units/m%5E99", status: 400, code: "INVALID_UNIT_EXPRESSION"},
		{name: "units unknown param", method: "GET", target: "/v1/units?kind=x", status: 400, code: "INVALID_REQUEST"},
		{name: "units repeated param", method: "GET", target: "/v1/units?q=a&q=b", status: 400, code: "INVALID_REQUEST"},
		{name: "categories query", method: "GET", target: "/v1/categories?x=1", status: 400, code: "INVALID_REQUEST"},
		{name: "unit by alias", method: "GET", target: "/v1/units/Celsius", status: 200, contains: []string{`"symbol":"degC"`, `"aliases":["°C","celsius"]`}},
		{name: "unit escaped slash", method: "GET", target: "/v1/units/L%2F100km", status: 200, contains: []string{`"definition":{"kind":"formula","unit":"km/L","to":"100 / x","from":"100 / x"}`}},
		{name: "unit unicode", method: "GET", target: "/v1/units/%C2%B0C", status: 200, contains: []string{`"symbol":"degC"`}},
		{name: "unit prefixed", method: "GET", target: "/v1/units/km", status: 200, contains: []string{`"prefixed_from":"m"`}},
		{name: "unit ambiguous", method: "GET", target: "/v1/units/gallon", status: 400, code: "AMBIGUOUS_UNIT", contains: []string{`"candidates":["gal","gal_imp"]`}},
		{name: "health", method: "GET", target: "/v1/health", status: 200, wantHeader: map[string]string{"Cache-Control": "no-store"},
			wantBody: `{"status":"ok","version":"1.2.3","catalog":{"version":"test-1","categories":6,"units":16,"loaded_at":"2025-06-01T12:00:00Z","last_reload":{"at":"2025-06-01T12:00:00Z","ok":true,"error":null}}}`},
		{name: "openapi", method: "GET", target: "/openapi.json", status: 200, contains: []string{`"openapi": "3.1.0"`}},

		// Request ids.
		{name: "request id echoed", method: "GET", target: "/v1/health", header: map[string]string{"X-Request-Id": "abc-123 xyz"}, status: 200, wantHeader: map[string]string{"X-Request-Id": "abc-123 xyz"}},
		{name: "request id echoed in error", method: "GET", target: "/nope", header: map[string]string{"X-Request-Id": "trace-1"}, status: 404, wantHeader: map[string]string{"X-Request-Id": "trace-1"}, contains: []string{`"request_id":"trace-1"`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, f, v) })
	}
}

func TestRequestIDReplaced(t *testing.T) {
	f := newFixture(t, nil)
	for name, id := range map[string]string{
		"too long":  strings.Repeat("a", 129),
		"non-ASCII": "idé",
		"tab":       "a\tb",
	} {
		t.Run(name, func(t *testing.T) {
			req := f.request(t, "GET", "/v1/health", "", "", "")
			req.Header.Set("X-Request-Id", id)
			resp, _ := f.do(t, req)
			got := resp.Header.Get("X-Request-Id")
			if got == id || len(got) != 32 {
				t.Errorf("X-Request-Id = %q, want a fresh 32-character id", got)
			}
		})
	}
}

func TestConditionalGET(t *testing.T) {
	f := newFixture(t, nil)
	v := newValidator(t, f)
	for _, target := range []string{"/v1/categories", "/v1/categories/length", "/v1/units", "/v1/units?q=met", "/v1/units/ft", "/openapi.json"} {
		t.Run(target, func(t *testing.T) {
			resp, body := f.do(t, f.request(t, "GET", target, "", "", ""))
			etag := resp.Header.Get("ETag")
			if resp.StatusCode != 200 || !strings.HasPrefix(etag, `"`) {
				t.Fatalf("status %d, ETag %q", resp.StatusCode, etag)
			}
			v.check(t, resp.Request, resp, body)
			for _, inm := range []string{etag, "W/" + etag, `"other", ` + etag, "*"} {
				req := f.request(t, "GET", target, "", "", "")
				req.Header.Set("If-None-Match", inm)
				resp, body := f.do(t, req)
				if resp.StatusCode != 304 || len(body) != 0 || resp.Header.Get("ETag") != etag || resp.Header.Get("X-Request-Id") == "" {
					t.Errorf("If-None-Match %s: status %d, ETag %q, body %q", inm, resp.StatusCode, resp.Header.Get("ETag"), body)
				}
			}
			req := f.request(t, "GET", target, "", "", "")
			req.Header.Set("If-None-Match", `"stale"`)
			if resp, _ := f.do(t, req); resp.StatusCode != 200 {
				t.Errorf("stale ETag: status %d, want 200", resp.StatusCode)
			}
		})
	}
	// A new catalog version changes the ETag.
	resp, _ := f.do(t, f.request(t, "GET", "/v1/units/ft", "", "", ""))
	before := resp.Header.Get("ETag")
	f.srv.ApplyGraph(otherVersion(t))
	resp, _ = f.do(t, f.request(t, "GET", "/v1/units/ft", "", "", ""))
	if after := resp.Header.Get("ETag"); after == before {
		t.Errorf("ETag %s did not change with the catalog version", after)
	}
}

func TestRateLimited(t *testing.T) {
	f := newFixture(t, nil)
	v := newValidator(t, f)
	f.lim.decide = func(key string, n int) ratelimit.Decision {
		return ratelimit.Decision{Allowed: false, Limit: 10, Remaining: 0, Reset: 5500 * time.Millisecond, RetryAfter: 1200 * time.Millisecond}
	}
	for _, tc := range []contractCase{
		{name: "GET", method: "GET", target: "/v1/convert?value=1&from=m&to=ft", key: "good", status: 429, code: "RATE_LIMIT_EXCEEDED",
			wantHeader: map[string]string{"Retry-After": "2", "RateLimit-Limit": "10", "RateLimit-Remaining": "0", "RateLimit-Reset": "6"}},
		{name: "before media type", method: "POST", target: "/v1/batch", key: "good", contentType: "text/plain", body: "x", status: 429, code: "RATE_LIMIT_EXCEEDED"},
		{name: "not for bad keys", method: "POST", target: "/v1/batch", key: "revoked", status: 401, code: "INVALID_API_KEY"},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, f, v) })
	}
	f.lim.mu.Lock()
	defer f.lim.mu.Unlock()
	for _, k := range f.lim.taken {
		if k != "key_good" {
			t.Errorf("limiter took from %q; want only the key id key_good", k)
		}
	}
}

func TestAuthFailureLimit(t *testing.T) {
	clock := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	fails := ratelimit.NewMemory(ratelimit.Rate{N: 3, Per: time.Minute}, ratelimit.WithClock(func() time.Time { return clock }))
	f := newFixture(t, func(c *Config) {
		c.AuthFailLimiter = fails
		c.Now = func() time.Time { return clock }
	})
	v := newValidator(t, f)
	bad := contractCase{method: "GET", target: "/v1/convert?value=1&from=m&to=ft", key: "revoked", status: 401, code: "INVALID_API_KEY"}
	good := contractCase{method: "GET", target: "/v1/convert?value=1&from=m&to=ft", key: "good", status: 200}
	noKey := contractCase{method: "GET", target: "/v1/convert?value=1&from=m&to=ft", status: 401, code: "UNAUTHORIZED"}
	steps := []struct {
		name string
		tc   contractCase
	}{
		{"missing key is not counted", noKey},
		{"good key", good},
		{"fail 1", bad}, {"fail 2", bad}, {"fail 3 empties the bucket", bad},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) { st.tc.run(t, f, v) })
	}
	blocked := bad
	blocked.status, blocked.code = 429, "RATE_LIMIT_EXCEEDED"
	blocked.wantHeader = map[string]string{"Retry-After": "20", "RateLimit-Limit": ""}
	t.Run("a bad key is refused while blocked", func(t *testing.T) { blocked.run(t, f, v) })
	blockedNoKey := noKey
	blockedNoKey.status, blockedNoKey.code = 429, "RATE_LIMIT_EXCEEDED"
	t.Run("so is a request without a key", func(t *testing.T) { blockedNoKey.run(t, f, v) })
	t.Run("a good key still gets through while blocked", func(t *testing.T) { good.run(t, f, v) })
	t.Run("discovery is not affected", func(t *testing.T) {
		contractCase{method: "GET", target: "/v1/units/ft", status: 200}.run(t, f, v)
	})
	clock = clock.Add(20 * time.Second)
	t.Run("unblocked when a token is back", func(t *testing.T) { good.run(t, f, v) })
}

func TestPanicIsInternalError(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.Keys = panicKeys{} })
	v := newValidator(t, f)
	contractCase{method: "GET", target: "/v1/convert?value=1&from=m&to=ft", key: "good", status: 500, code: "INTERNAL_ERROR"}.run(t, f, v)
	logs := f.logs.String()
	if !strings.Contains(logs, "secret detail") || !strings.Contains(logs, "panic serving request") {
		t.Errorf("panic not logged: %s", logs)
	}
}

type panicKeys struct{}

func (panicKeys) Current() *apikey.Set { panic("secret detail") }

func TestReloadReported(t *testing.T) {
	f := newFixture(t, nil)
	at := time.Date(2025, 6, 2, 8, 0, 0, 0, time.UTC)
	f.srv.ReportReload(at, fmt.Errorf("length.yaml:3:1: bad"))
	_, body := f.do(t, f.request(t, "GET", "/v1/health", "", "", ""))
	want := `"last_reload":{"at":"2025-06-02T08:00:00Z","ok":false,"error":"length.yaml:3:1: bad"}`
	if !strings.Contains(string(body), want) || !strings.Contains(string(body), `"status":"ok"`) {
		t.Errorf("health = %s, want %s and status ok", body, want)
	}
	f.srv.ReportReload(at.Add(time.Minute), nil)
	_, body = f.do(t, f.request(t, "GET", "/v1/health", "", "", ""))
	if want := `"last_reload":{"at":"2025-06-02T08:01:00Z","ok":true,"error":null}`; !strings.Contains(string(body), want) {
		t.Errorf("health = %s, want %s", body, want)
	}
}

func TestAccessLog(t *testing.T) {
	f := newFixture(t, nil)
	req := f.request(t, "GET", "/v1/convert?value=1&from=m&to=ft", f.keys["good"], "", "")
	req.Header.Set("X-Request-Id", "log-test-1")
	f.do(t, req)
	logs := f.logs.String()
	for _, want := range []string{`"request_id":"log-test-1"`, `"method":"GET"`, `"route":"/v1/convert"`, `"status":200`, `"duration_ms":`, `"bytes":`, `"key_id":"key_good"`} {
		if !strings.Contains(logs, want) {
			t.Errorf("access log lacks %s: %s", want, logs)
		}
	}
	if strings.Contains(logs, f.keys["good"]) || strings.Contains(logs, "Bearer") {
		t.Errorf("access log leaks the key: %s", logs)
	}
}

// otherVersion is the test graph under another catalog version.
func otherVersion(t testing.TB) *engine.Graph {
	t.Helper()
	g, errs := engine.Build(engine.Spec{Version: "test-2", Categories: []engine.CategorySpec{{
		ID: "length", Name: "Length", Base: "m",
		Units: []engine.UnitSpec{
			{Symbol: "m", Name: "metre", Plural: "metres", System: "SI", Exact: true, Source: "t"},
			{Symbol: "ft", Name: "foot", Plural: "feet", System: "international", Exact: true, Source: "t", Definition: engine.DefinitionSpec{Factor: "0.3048", Unit: "m"}},
		},
	}}})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return g
}

// TestPublicRouteLimit: the routes that need no key are limited per client
// address, with the contract's 429; conversions (limited per key) and
// other addresses are not affected.
func TestPublicRouteLimit(t *testing.T) {
	clock := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	// Three: the validator has fetched /openapi.json once already.
	public := ratelimit.NewMemory(ratelimit.Rate{N: 3, Per: time.Minute}, ratelimit.WithClock(func() time.Time { return clock }))
	f := newFixture(t, func(c *Config) {
		c.PublicLimiter = public
		c.Now = func() time.Time { return clock }
	})
	v := newValidator(t, f)
	limited := map[string]string{"Retry-After": "20"}
	for _, st := range []struct {
		name string
		tc   contractCase
	}{
		{"unit", contractCase{method: "GET", target: "/v1/units/fet", status: 404, code: "NOT_FOUND"}},
		{"health", contractCase{method: "GET", target: "/v1/health", status: 200}},
		{"openapi over the limit", contractCase{method: "GET", target: "/openapi.json", status: 429, code: "RATE_LIMIT_EXCEEDED", wantHeader: limited}},
		{"units over the limit", contractCase{method: "GET", target: "/v1/units", status: 429, code: "RATE_LIMIT_EXCEEDED", wantHeader: limited}},
		{"health over the limit", contractCase{method: "GET", target: "/v1/health", status: 429, code: "RATE_LIMIT_EXCEEDED", wantHeader: limited}},
		{"conversions are limited per key only", contractCase{method: "GET", target: "/v1/convert?value=1&from=m&to=ft", key: "good", status: 200}},
	} {
		t.Run(st.name, func(t *testing.T) { st.tc.run(t, f, v) })
	}
	t.Run("another address", func(t *testing.T) {
		req := httptest.NewRequest("GET", "/v1/categories", nil)
		req.RemoteAddr = "192.0.2.7:4711"
		rec := httptest.NewRecorder()
		f.srv.Handler().ServeHTTP(rec, req)
		if rec.Code != 200 {
			t.Errorf("status %d for another address, want 200", rec.Code)
		}
	})
	clock = clock.Add(20 * time.Second)
	t.Run("a token is back", func(t *testing.T) {
		contractCase{method: "GET", target: "/v1/categories", status: 200}.run(t, f, v)
	})
}

// TestHealthShowsReloadInProgress: a reload that has started and not
// finished is visible, and disappears once its outcome is reported.
func TestHealthShowsReloadInProgress(t *testing.T) {
	f := newFixture(t, nil)
	v := newValidator(t, f)
	at := time.Date(2025, 6, 2, 8, 0, 0, 0, time.UTC)
	f.srv.ReportReloadStart(at)
	contractCase{method: "GET", target: "/v1/health", status: 200,
		contains: []string{`"reload_in_progress_since":"2025-06-02T08:00:00Z"`}}.run(t, f, v)
	f.srv.ReportReload(at.Add(time.Second), nil)
	_, body := f.do(t, f.request(t, "GET", "/v1/health", "", "", ""))
	if strings.Contains(string(body), "reload_in_progress_since") {
		t.Errorf("finished reload still shown in progress: %s", body)
	}
}

// TestHealthKeyErrorNamesNoPath: an error loading the keys reaches the
// log, but the public health answer does not carry its text (which may name
// the store's absolute path).
func TestHealthKeyErrorNamesNoPath(t *testing.T) {
	secret := "/srv/private/unitd/unitd.db"
	f := newFixture(t, func(c *Config) {
		c.KeyStatus = func() apikey.Status {
			return apikey.Status{Keys: 1, Err: fmt.Errorf("load keys from the store: open %s: permission denied", secret)}
		}
	})
	_, body := f.do(t, f.request(t, "GET", "/v1/health", "", "", ""))
	if strings.Contains(string(body), secret) || strings.Contains(string(body), "permission denied") {
		t.Errorf("health shows the store error: %s", body)
	}
	if !strings.Contains(string(body), `"ok":false`) || !strings.Contains(string(body), "could not be loaded from the store") {
		t.Errorf("health hides that loading the keys failed: %s", body)
	}
}

// TestShutdownIsLogged: the end of serving says why, how many requests
// were in flight and drained, and how long it took.
func TestShutdownIsLogged(t *testing.T) {
	f := newFixture(t, nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	done := make(chan error, 1)
	go func() { done <- f.srv.Serve(ctx, ln) }()
	resp, err := http.Get("http://" + ln.Addr().String() + "/v1/health")
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	cancel(errors.New("signal: terminated"))
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	logs := f.logs.String()
	for _, want := range []string{`"msg":"shutting down","reason":"signal: terminated","in_flight":0`, `"msg":"shut down","drained":0,"abandoned":0,"duration_ms":`} {
		if !strings.Contains(logs, want) {
			t.Errorf("log lacks %s:\n%s", want, logs)
		}
	}
}

// TestResponseHeadersAreNotShared: a caller that modifies the header map
// of one response (middleware, a recorder) does not change the next one.
func TestResponseHeadersAreNotShared(t *testing.T) {
	f := newFixture(t, nil)
	h := f.srv.Handler()
	for _, target := range []string{"/v1/units/ft", "/v1/units/fet", "/v1/convert?value=1&from=m&to=ft"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", target, nil))
		for _, vs := range rec.Header() {
			for i := range vs {
				vs[i] = "changed"
			}
		}
		rec = httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", target, nil))
		for k, vs := range rec.Header() {
			for _, v := range vs {
				if v == "changed" {
					t.Errorf("%s: header %s of one response changed by editing another's", target, k)
				}
			}
		}
	}
}

// TestHTTPServerSettings: the http.Server that Serve runs (and that the
// load benchmark gives its bare handler) has the configured timeouts, or
// the defaults.
func TestHTTPServerSettings(t *testing.T) {
	srv := New(Config{ReadTimeout: 7 * time.Second}).HTTPServer(http.NotFoundHandler())
	if srv.ReadTimeout != 7*time.Second || srv.ReadHeaderTimeout != defaultReadHeaderTimeout ||
		srv.WriteTimeout != defaultWriteTimeout || srv.IdleTimeout != defaultIdleTimeout || srv.MaxHeaderBytes != defaultMaxHeaderBytes {
		t.Errorf("settings %+v", srv)
	}
}
