package server

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/unitd/unitd/server/ratelimit"
)

// countingUsage records Count calls.
type countingUsage struct {
	mu   sync.Mutex
	keys []string
}

func (c *countingUsage) Count(keyID string, _ time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.keys = append(c.keys, keyID)
}

func TestUsageCountsOnlyServedRequests(t *testing.T) {
	u := &countingUsage{}
	f := newFixture(t, func(c *Config) { c.Usage = u })
	for _, key := range []string{"good", "revoked", ""} {
		f.do(t, f.request(t, "GET", "/v1/convert?value=1&from=m&to=ft", f.keys[key], "", ""))
	}
	f.do(t, f.request(t, "GET", "/v1/units", "", "", "")) // public: no key, no count
	f.lim.decide = func(string, int) ratelimit.Decision { return ratelimit.Decision{Allowed: false, Limit: 1} }
	f.do(t, f.request(t, "GET", "/v1/convert?value=1&from=m&to=ft", f.keys["good"], "", ""))
	u.mu.Lock()
	defer u.mu.Unlock()
	if len(u.keys) != 1 || u.keys[0] != "key_good" {
		t.Errorf("usage counted %v, want [key_good] (refused and rate-limited requests are not usage)", u.keys)
	}
}

func TestAccountMount(t *testing.T) {
	// The account page routes with a ServeMux, like server/accountweb.
	mux := http.NewServeMux()
	page := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("account " + r.Method + " " + r.URL.Path))
	})
	for _, p := range []string{"GET /account", "POST /account/signin", "GET /account/keys/{id}"} {
		mux.Handle(p, page)
	}
	f := newFixture(t, func(c *Config) { c.Account = mux })
	for _, tt := range []struct {
		method, path string
		page         bool
	}{
		{"GET", "/account", true},
		{"POST", "/account/signin", true},
		{"GET", "/account/keys/key_x", true},
		{"GET", "/accounts", false},
		{"GET", "/v1/units", false},
	} {
		resp, body := f.do(t, f.request(t, tt.method, tt.path, "", "", ""))
		got := string(body) == "account "+tt.method+" "+tt.path
		if got != tt.page {
			t.Errorf("%s %s: served by the account page = %v, want %v (%d %s)", tt.method, tt.path, got, tt.page, resp.StatusCode, body)
		}
		if resp.Header.Get("X-Request-Id") == "" {
			t.Errorf("%s %s: no X-Request-Id", tt.method, tt.path)
		}
	}
	// Each under its own route, the key id left out.
	logs := f.logs.String()
	for _, route := range []string{`"route":"/account"`, `"route":"/account/signin"`, `"route":"/account/keys/{id}"`} {
		if !strings.Contains(logs, route) {
			t.Errorf("no access log line with %s:\n%s", route, logs)
		}
	}
	if strings.Contains(logs, "key_x") {
		t.Errorf("the key id of the path is in the access log's route:\n%s", logs)
	}
}

// TestJSONAnswersAreNosniff: every JSON answer of the API, success or
// error, tells browsers not to sniff another type into it.
func TestJSONAnswersAreNosniff(t *testing.T) {
	f := newFixture(t, nil)
	for _, tt := range []struct{ method, target, key, body string }{
		{"GET", "/v1/convert?value=1&from=m&to=ft", f.keys["good"], ""},
		{"POST", "/v1/convert", f.keys["good"], `{"value":"1","from":"m","to":"ft"}`},
		{"POST", "/v1/batch", f.keys["good"], `{"conversions":[{"value":"1","from":"m","to":"ft"}]}`},
		{"GET", "/v1/categories", "", ""},
		{"GET", "/v1/categories/length", "", ""},
		{"GET", "/v1/units", "", ""},
		{"GET", "/v1/units/m", "", ""},
		{"GET", "/v1/health", "", ""},
		{"GET", "/openapi.json", "", ""},
		{"GET", "/v1/units/nonesuch", "", ""},
		{"GET", "/v1/convert?value=1&from=m&to=ft", "", ""},
		{"DELETE", "/v1/units", "", ""},
	} {
		ct := ""
		if tt.body != "" {
			ct = "application/json"
		}
		resp, body := f.do(t, f.request(t, tt.method, tt.target, tt.key, ct, tt.body))
		if resp.Header.Get("Content-Type") != "application/json" || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s %s: %d, Content-Type %q, X-Content-Type-Options %q\n%s", tt.method, tt.target, resp.StatusCode,
				resp.Header.Get("Content-Type"), resp.Header.Get("X-Content-Type-Options"), body)
		}
	}
}
