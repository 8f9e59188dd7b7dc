package server

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestParseQuery checks the one query reader of the API on what every
// route shares: decoding, order-free known names, and the refusals.
func TestParseQuery(t *testing.T) {
	names := []string{"value", "from", "to"}
	for _, tt := range []struct {
		raw   string
		want  [3]string
		given [3]bool
		err   string
	}{
		{raw: "value=12.5&from=ft&to=m", want: [3]string{"12.5", "ft", "m"}, given: [3]bool{true, true, true}},
		{raw: "to=km%2Fh&&from=m%2Fs", want: [3]string{"", "m/s", "km/h"}, given: [3]bool{false, true, true}},
		{raw: "value=1e3&from=%C2%B5m", want: [3]string{"1e3", "µm", ""}, given: [3]bool{true, true, false}},
		{raw: "value=a%3Db", want: [3]string{"a=b", "", ""}, given: [3]bool{true, false, false}},
		{raw: "value=", want: [3]string{"", "", ""}, given: [3]bool{true, false, false}},
		{raw: "value=1&value=2", err: `query parameter "value" is given more than once`},
		{raw: "value=1&VALUE=2", err: `unknown query parameter "VALUE" (expected value, from, to)`},
		{raw: "from=%zz", err: `query parameter "from" is not valid percent-encoded UTF-8`},
		{raw: "from=%ff", err: `query parameter "from" is not valid percent-encoded UTF-8`},
	} {
		q, e := parseQuery(tt.raw, names...)
		if tt.err != "" {
			if e == nil || e.Code != codeInvalidRequest || !strings.Contains(e.Message, tt.err) {
				t.Errorf("parseQuery(%q) error %v, want INVALID_REQUEST %q", tt.raw, e, tt.err)
			}
			continue
		}
		if e != nil {
			t.Errorf("parseQuery(%q): %v", tt.raw, e)
			continue
		}
		for i := range names {
			if v, ok := q.get(i); v != tt.want[i] || ok != tt.given[i] {
				t.Errorf("parseQuery(%q) %s = %q (given %v), want %q (%v)", tt.raw, names[i], v, ok, tt.want[i], tt.given[i])
			}
		}
	}
}

// TestResponseHeadersNotShared checks that no response gets a header
// slice another response also holds: a handler or middleware that edits
// its response's headers must not change the next response's.
func TestResponseHeadersNotShared(t *testing.T) {
	f := newFixture(t, nil)
	h := f.srv.Handler()
	var first http.Header
	for i, path := range []string{"/v1/health", "/v1/health", "/v1/categories", "/v1/categories"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if i%2 == 0 {
			first = rec.Header()
			for _, v := range first {
				v[0] = "changed by a caller"
			}
			continue
		}
		for k, v := range rec.Header() {
			if v[0] == "changed by a caller" {
				t.Errorf("%s: header %s shares its slice with the previous response", path, k)
			}
		}
	}
}
