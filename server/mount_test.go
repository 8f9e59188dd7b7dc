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
	page := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("account " + r.Method + " " + r.URL.Path))
	})
	f := newFixture(t, func(c *Config) { c.Account = page })
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
	if logs := f.logs.String(); !strings.Contains(logs, `"route":"/account"`) {
		t.Errorf("account requests missing from the access log:\n%s", logs)
	}
}
