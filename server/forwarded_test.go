package server

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/unitd/unitd/internal/forwarded"
	"github.com/unitd/unitd/server/ratelimit"
)

func proxies(t *testing.T, list string) forwarded.Proxies {
	t.Helper()
	p, err := forwarded.ParseProxies(list)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestTrustedProxies: behind a trusted proxy, limits count per client
// (X-Forwarded-For), and X-Forwarded-Proto: https brings HSTS; from any
// other peer the headers change nothing.
func TestTrustedProxies(t *testing.T) {
	for _, tt := range []struct {
		name    string
		trusted string // the fixture's peer is 127.0.0.1
		perXFF  bool   // each X-Forwarded-For gets its own budget
	}{
		{"behind a trusted proxy", "127.0.0.0/8", true},
		{"from an untrusted peer", "10.0.0.0/8", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, func(c *Config) {
				c.Proxies = proxies(t, tt.trusted)
				c.PublicLimiter = ratelimit.NewMemory(ratelimit.Rate{N: 1, Per: time.Hour})
			})
			get := func(client, proto string) *http.Response {
				req := f.request(t, "GET", "/v1/health", "", "", "")
				req.Header.Set("X-Forwarded-For", client)
				if proto != "" {
					req.Header.Set("X-Forwarded-Proto", proto)
				}
				resp, _ := f.do(t, req)
				return resp
			}
			first := get("198.51.100.1", "https")
			if first.StatusCode != 200 {
				t.Fatalf("first request: %d", first.StatusCode)
			}
			if got := first.Header.Get("Strict-Transport-Security") != ""; got != tt.perXFF {
				t.Errorf("HSTS after X-Forwarded-Proto: https: %v, want %v", got, tt.perXFF)
			}
			if code := get("198.51.100.2", "").StatusCode; (code == 200) != tt.perXFF {
				t.Errorf("another client's first request: %d; own budget %v", code, tt.perXFF)
			}
			if code := get("198.51.100.1", "").StatusCode; code != 429 {
				t.Errorf("the first client again: %d, want 429", code)
			}
		})
	}
}

func TestHSTSWithAnHTTPSPublicURL(t *testing.T) {
	for _, public := range []string{"https://unitd.example.com", "http://unitd.example.com", ""} {
		f := newFixture(t, func(c *Config) { c.PublicURL = public })
		for _, path := range []string{"/v1/health", "/v1/units/nonesuch", "/"} {
			resp, _ := f.do(t, f.request(t, "GET", path, "", "", ""))
			if got, want := resp.Header.Get("Strict-Transport-Security"), strings.HasPrefix(public, "https:"); (got == "max-age=31536000") != want {
				t.Errorf("public URL %q, GET %s: Strict-Transport-Security %q", public, path, got)
			}
		}
		if public == "" {
			continue
		}
		// The API reference's curl examples use the public address.
		if _, body := f.do(t, f.request(t, "GET", "/docs", "", "", "")); !strings.Contains(string(body), public+"/v1/convert") {
			t.Errorf("/docs with public URL %q does not use it", public)
		}
	}
}

// TestPublicBudgetChargedByCost: a page rendered afresh spends its cost of
// the client's public budget; the same page again, from the cache, spends
// the one token of an ordinary request.
func TestPublicBudgetChargedByCost(t *testing.T) {
	served := func(distinct bool) int {
		f := newFixture(t, func(c *Config) {
			c.PublicLimiter = ratelimit.NewMemory(ratelimit.Rate{N: 40, Per: time.Hour})
		})
		for i := range 40 {
			target := "/catalog?system=SI"
			if distinct {
				target = "/catalog?system=SI&q=" + strings.Repeat("e", i%3) + string(rune('a'+i%26)) + strings.Repeat("%20", i/26)
			}
			if resp, _ := f.do(t, f.request(t, "GET", target, "", "", "")); resp.StatusCode == 429 {
				return i
			}
		}
		return 40
	}
	if n := served(false); n < 35 {
		t.Errorf("the same page 40 times within a budget of 40: %d answered before 429", n)
	}
	if n := served(true); n > 20 {
		t.Errorf("40 fresh searches within a budget of 40: %d answered before 429, want the cost of each charged", n)
	}
}
