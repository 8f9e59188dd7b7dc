package server

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestParseAccessLog(t *testing.T) {
	for _, s := range []string{"all", "errors", "sample:100", "off"} {
		a, err := ParseAccessLog(s)
		if err != nil || a.String() != s {
			t.Errorf("%q: %v, %v", s, a, err)
		}
	}
	for _, s := range []string{"", "some", "sample:", "sample:1", "sample:0", "sample:-5", "sample:x", "sample:10000000", "ALL"} {
		if _, err := ParseAccessLog(s); err == nil {
			t.Errorf("%q accepted", s)
		}
	}
}

// TestAccessLogModes: each mode logs what it says, and server errors and
// slow requests are logged whatever the mode.
func TestAccessLogModes(t *testing.T) {
	failing := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusInternalServerError) })
	for _, tt := range []struct {
		mode       string
		slow       time.Duration
		lines      int
		slowMarked bool
	}{
		{"all", time.Hour, 13, false},
		{"errors", time.Hour, 3, false},
		{"sample:5", time.Hour, 3, false}, // the 5th and 10th of the 12 below 500, and the 500
		{"off", time.Hour, 1, false},
		{"off", time.Nanosecond, 13, true},
	} {
		t.Run(tt.mode+"/"+tt.slow.String(), func(t *testing.T) {
			al, err := ParseAccessLog(tt.mode)
			if err != nil {
				t.Fatal(err)
			}
			al.Slow = tt.slow
			f := newFixture(t, func(c *Config) { c.AccessLog = al; c.Account = failing })
			for range 10 {
				f.do(t, f.request(t, "GET", "/v1/health", "", "", ""))
			}
			for range 2 {
				f.do(t, f.request(t, "GET", "/v1/units/nonesuch", "", "", ""))
			}
			f.do(t, f.request(t, "GET", "/account/boom", "", "", ""))
			lines := strings.Count(f.logs.String(), `"msg":"request"`)
			if lines != tt.lines {
				t.Errorf("%d request lines, want %d:\n%s", lines, tt.lines, f.logs.String())
			}
			if got := strings.Count(f.logs.String(), `"slow":true`); (got == lines) != tt.slowMarked {
				t.Errorf("%d of %d lines marked slow", got, lines)
			}
			if !strings.Contains(f.logs.String(), `"level":"WARN","msg":"request"`) {
				t.Error("the server error was not logged at WARN")
			}
		})
	}
}
