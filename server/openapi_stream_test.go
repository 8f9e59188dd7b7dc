package server

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/unitd/unitd/server/ratelimit"
)

// TestBatchStreamRoute: POST /v1/batch/stream answers an NDJSON body as
// POST /v1/batch does, refuses any other media type, and every line of its
// answer matches BatchStreamLine, the item schema the document gives it.
func TestBatchStreamRoute(t *testing.T) {
	// A stream that finds its key's budget empty waits for it (on a real
	// timer here) up to StreamRateWait in all: 100 ms, not the default
	// 10 s, is two waits of 40 ms before the rate limit ends it.
	f := newFixture(t, func(c *Config) { c.StreamRateWait = 100 * time.Millisecond })
	v := newValidator(t, f)
	line := v.doc.Components.Schemas["BatchStreamLine"].Value
	if line == nil {
		t.Fatal("no BatchStreamLine schema")
	}
	body := ndjsonLines(130) + `{"value":"1","from":"ft","to":"m","precision":"x"}` + "\n" + "not json\n"
	for _, tc := range []struct {
		name, query string
		allowed     int    // requests the key may make; 0: no limit
		wantLast    string // the line before the meta line holds this
	}{
		{"items", "?precision=6", 0, `"code":"INVALID_ITEM"`},
		{"explained", "?explain=true&precision=input", 0, `"code":"INVALID_ITEM"`},
		{"ended by the rate limit", "", 1, `"code":"RATE_LIMIT_EXCEEDED"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Each request has the same budget.
			budget := func() {
				taken := 0
				f.lim.decide = func(key string, n int) ratelimit.Decision {
					if taken++; tc.allowed == 0 || taken <= tc.allowed {
						return allowAll(key, n)
					}
					return ratelimit.Decision{Allowed: false, Limit: 600, Reset: time.Minute, RetryAfter: 40 * time.Millisecond}
				}
			}
			t.Cleanup(func() { f.lim.decide = allowAll })
			budget()
			req := f.request(t, "POST", "/v1/batch/stream"+tc.query, f.keys["good"], ndjson, body)
			resp, b := f.do(t, req)
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != ndjson {
				t.Fatalf("%d %s: %s", resp.StatusCode, resp.Header.Get("Content-Type"), b)
			}
			got := splitLines(b)
			budget()
			_, want := f.postStream(t, tc.query, strings.NewReader(body))
			// The same lines, but for the request id of an error line.
			reqID := regexp.MustCompile(`"request_id":"[^"]*"`)
			if g, w := reqID.ReplaceAllString(string(b), "…"), reqID.ReplaceAllString(strings.Join(want, "\n")+"\n", "…"); g != w {
				t.Errorf("POST /v1/batch/stream and POST /v1/batch answer differently:\n%s\n---\n%s", b, strings.Join(want, "\n"))
			}
			if len(got) < 2 || !strings.Contains(got[len(got)-2], tc.wantLast) || !strings.HasPrefix(got[len(got)-1], `{"meta":`) {
				t.Fatalf("answer:\n%s", b)
			}
			// The workload repeats every len(streamPairs) rows: its first
			// rows and the last lines (bad items, the stream's end) hold
			// every shape; validating a line takes milliseconds.
			for i, l := range got {
				if i > len(streamPairs) && i < len(got)-4 {
					continue
				}
				var data any
				if err := json.Unmarshal([]byte(l), &data); err != nil {
					t.Fatalf("line %d: %v", i, err)
				}
				if err := line.VisitJSON(data, openapi3.EnableJSONSchema2020()); err != nil {
					t.Errorf("line %d does not match BatchStreamLine: %v\n%s", i, err, l)
				}
			}
		})
	}

	for _, tc := range []contractCase{
		{name: "JSON body", method: "POST", target: "/v1/batch/stream", key: "good", contentType: "application/json",
			body: `{"conversions":[{"value":"1","from":"ft","to":"m"}]}`, status: 415, code: codeUnsupportedMediaType, contains: []string{"application/x-ndjson", "POST /v1/batch takes a JSON batch"}},
		{name: "no content type", method: "POST", target: "/v1/batch/stream", key: "good", body: `{"value":"1","from":"ft","to":"m"}`, status: 415, code: codeUnsupportedMediaType},
		{name: "no key", method: "POST", target: "/v1/batch/stream", contentType: ndjson, body: `{"value":"1","from":"ft","to":"m"}`, status: 401, code: codeUnauthorized},
		{name: "bad query", method: "POST", target: "/v1/batch/stream?precision=0", key: "good", contentType: ndjson, body: `{"value":"1","from":"ft","to":"m"}`, status: 400, code: codeInvalidRequest},
		{name: "GET", method: "GET", target: "/v1/batch/stream", key: "good", status: 405, code: codeMethodNotAllowed, wantHeader: map[string]string{"Allow": "POST"}},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, f, v) })
	}
}
