package server

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/server/ratelimit"
	"github.com/unitd/unitd/web"
)

// pageRequest is a POST /web/convert with the given browser headers.
func (f *fixture) pageRequest(t *testing.T, body string, headers map[string]string) *http.Request {
	t.Helper()
	req := f.request(t, http.MethodPost, "/web/convert", "", "application/json", body)
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	return req
}

func TestPageConvertSameOriginOnly(t *testing.T) {
	f := newFixture(t, nil)
	host := strings.TrimPrefix(f.ts.URL, "http://")
	const body = `{"value":"12.5","from":"ft","to":"m"}`
	for _, tt := range []struct {
		name    string
		headers map[string]string
		status  int
	}{
		{"fetch from a page of this server", map[string]string{"Sec-Fetch-Site": "same-origin", "Origin": f.ts.URL}, 200},
		{"Sec-Fetch-Site alone", map[string]string{"Sec-Fetch-Site": "same-origin"}, 200},
		{"older browser: Origin of this host", map[string]string{"Origin": "http://" + host}, 200},
		{"another site", map[string]string{"Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"}, 403},
		{"same site, other origin", map[string]string{"Sec-Fetch-Site": "same-site", "Origin": "http://localhost:1"}, 403},
		{"typed into the address bar", map[string]string{"Sec-Fetch-Site": "none"}, 403},
		{"older browser: another origin", map[string]string{"Origin": "https://evil.example"}, 403},
		{"opaque origin", map[string]string{"Origin": "null"}, 403},
		{"no browser headers (curl)", nil, 403},
		{"a key does not open the page route", map[string]string{"Authorization": "Bearer " + "x"}, 403},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, got := f.do(t, f.pageRequest(t, body, tt.headers))
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tt.status, got)
			}
			if tt.status == 403 && !strings.Contains(string(got), `"code":"CROSS_ORIGIN_REQUEST"`) {
				t.Errorf("body %s", got)
			}
		})
	}
	if n := len(f.lim.taken); n != 0 {
		t.Errorf("the per-key limiter was used %d times by the page route", n)
	}
}

// TestPageConvertIsV1Convert checks that the page route answers exactly as
// POST /v1/convert does, errors included: one code path.
func TestPageConvertIsV1Convert(t *testing.T) {
	f := newFixture(t, nil)
	for _, body := range []string{
		`{"value":"12.5","from":"ft","to":"m"}`,
		`{"value":"1","from":"m","to":"ft","precision":5}`,
		`{"value":100,"from":"°C","to":"K"}`,
		`{"value":"1","from":"gallon","to":"L"}`,
		`{"value":"1","from":"fet","to":"m"}`,
		`{"value":"1","from":"m","to":"K"}`,
		`{"value":"abc","from":"m","to":"ft"}`,
		`{"value":"1","from":"m","to":"ft","bogus":1}`,
		`[1]`,
	} {
		keyed := f.request(t, http.MethodPost, "/v1/convert", f.keys["good"], "application/json", body)
		keyed.Header.Set("X-Request-Id", "same")
		want, wantBody := f.do(t, keyed)
		page := f.pageRequest(t, body, map[string]string{"Sec-Fetch-Site": "same-origin", "X-Request-Id": "same"})
		got, gotBody := f.do(t, page)
		if got.StatusCode != want.StatusCode || string(gotBody) != string(wantBody) {
			t.Errorf("%s:\n page %d %s\n v1   %d %s", body, got.StatusCode, gotBody, want.StatusCode, wantBody)
		}
	}
	// Body checks still apply, after the origin and limit checks.
	resp, body := f.do(t, f.request(t, http.MethodPost, "/web/convert", "", "text/plain", `{}`))
	if resp.StatusCode != 403 {
		t.Errorf("cross-origin text/plain: %d %s", resp.StatusCode, body)
	}
	req := f.pageRequest(t, `{"value":"1","from":"m","to":"ft"}`, map[string]string{"Sec-Fetch-Site": "same-origin"})
	req.Header.Set("Content-Type", "text/plain")
	if resp, body := f.do(t, req); resp.StatusCode != 415 {
		t.Errorf("same-origin text/plain: %d %s", resp.StatusCode, body)
	}
	if resp, _ := f.do(t, f.request(t, http.MethodGet, "/web/convert", "", "", "")); resp.StatusCode != 405 {
		t.Errorf("GET /web/convert: %d, want 405", resp.StatusCode)
	}
}

func TestPageConvertLimitedPerAddress(t *testing.T) {
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	lim := ratelimit.NewMemory(ratelimit.Rate{N: 2, Per: time.Minute}, ratelimit.WithClock(func() time.Time { return now }))
	f := newFixture(t, func(c *Config) { c.PageLimiter = lim })
	same := map[string]string{"Sec-Fetch-Site": "same-origin"}
	const body = `{"value":"1","from":"m","to":"ft"}`
	// Refused cross-origin requests do not spend the budget.
	for range 5 {
		if resp, _ := f.do(t, f.pageRequest(t, body, map[string]string{"Sec-Fetch-Site": "cross-site"})); resp.StatusCode != 403 {
			t.Fatalf("cross-site: %d", resp.StatusCode)
		}
	}
	for i := range 2 {
		resp, got := f.do(t, f.pageRequest(t, body, same))
		if resp.StatusCode != 200 {
			t.Fatalf("request %d: %d %s", i+1, resp.StatusCode, got)
		}
		if resp.Header.Get("RateLimit-Limit") != "2" {
			t.Errorf("RateLimit-Limit %q", resp.Header.Get("RateLimit-Limit"))
		}
	}
	resp, got := f.do(t, f.pageRequest(t, body, same))
	if resp.StatusCode != 429 || !strings.Contains(string(got), `"code":"RATE_LIMIT_EXCEEDED"`) {
		t.Fatalf("past the limit: %d %s", resp.StatusCode, got)
	}
	if ra := resp.Header.Get("Retry-After"); ra != "30" {
		t.Errorf("Retry-After %q, want 30 (one token of 2/m)", ra)
	}
	// The keyed API has its own budget, untouched.
	if resp, _ := f.do(t, f.request(t, http.MethodPost, "/v1/convert", f.keys["good"], "application/json", body)); resp.StatusCode != 200 {
		t.Errorf("/v1/convert after the page limit: %d", resp.StatusCode)
	}
}

func TestPagesHeaders(t *testing.T) {
	f := newFixture(t, nil)
	noInline := regexp.MustCompile(`unsafe-inline|unsafe-eval`)
	for _, path := range []string{"/", "/catalog", "/catalog/length", "/catalog/units/km%2Fh", "/docs", "/static/app.css", "/web/units?q=ft"} {
		t.Run(path, func(t *testing.T) {
			resp, body := f.do(t, f.request(t, http.MethodGet, path, "", "", ""))
			if resp.StatusCode != 200 {
				t.Fatalf("status %d: %s", resp.StatusCode, body)
			}
			csp := resp.Header.Get("Content-Security-Policy")
			for _, d := range []string{"default-src 'self'", "script-src 'self'", "style-src 'self'", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "form-action 'self'"} {
				if !strings.Contains(csp, d) {
					t.Errorf("CSP %q lacks %q", csp, d)
				}
			}
			if noInline.MatchString(csp) {
				t.Errorf("CSP %q allows inline code", csp)
			}
			if resp.Header.Get("X-Content-Type-Options") != "nosniff" || resp.Header.Get("Referrer-Policy") == "" {
				t.Errorf("headers %v", resp.Header)
			}
			if resp.Header.Get("X-Request-Id") == "" {
				t.Error("no X-Request-Id")
			}
			if regexp.MustCompile(`uc_(live|test)_`).Match(body) && path != "/docs" {
				t.Errorf("a key prefix in %s", path)
			}
		})
	}
	// Unknown routes stay JSON errors; HEAD is served for pages.
	resp, body := f.do(t, f.request(t, http.MethodGet, "/nope", "", "", ""))
	if resp.StatusCode != 404 || !strings.Contains(string(body), `"NOT_FOUND"`) {
		t.Errorf("/nope: %d %s", resp.StatusCode, body)
	}
	resp, body = f.do(t, f.request(t, http.MethodHead, "/catalog", "", "", ""))
	if resp.StatusCode != 200 || len(body) != 0 || resp.Header.Get("ETag") == "" {
		t.Errorf("HEAD /catalog: %d, %d bytes, ETag %q", resp.StatusCode, len(body), resp.Header.Get("ETag"))
	}
}

func TestPagesETag(t *testing.T) {
	f := newFixture(t, nil)
	for _, path := range []string{"/", "/catalog/speed", "/static/converter.js"} {
		resp, _ := f.do(t, f.request(t, http.MethodGet, path, "", "", ""))
		etag := resp.Header.Get("ETag")
		if etag == "" || resp.Header.Get("Cache-Control") == "" {
			t.Fatalf("%s: ETag %q, Cache-Control %q", path, etag, resp.Header.Get("Cache-Control"))
		}
		req := f.request(t, http.MethodGet, path, "", "", "")
		req.Header.Set("If-None-Match", etag)
		if resp, body := f.do(t, req); resp.StatusCode != 304 || len(body) != 0 {
			t.Errorf("%s with If-None-Match: %d, %d bytes", path, resp.StatusCode, len(body))
		}
		req.Header.Set("If-None-Match", `"other"`)
		if resp, _ := f.do(t, req); resp.StatusCode != 200 {
			t.Errorf("%s with another ETag: %d", path, resp.StatusCode)
		}
	}
}

// TestPagesFollowTheRunningCatalog: a new graph shows on the next page load.
func TestPagesFollowTheRunningCatalog(t *testing.T) {
	f := newFixture(t, nil)
	get := func(path string) (int, string) {
		resp, body := f.do(t, f.request(t, http.MethodGet, path, "", "", ""))
		return resp.StatusCode, string(body)
	}
	if st, body := get("/catalog"); st != 200 || strings.Contains(body, "Angle") {
		t.Fatalf("before: %d", st)
	}
	if st, _ := get("/catalog/units/rev"); st != 404 {
		t.Fatalf("rev before: %d", st)
	}
	g, errs := engine.Build(engine.Spec{Version: "test-2", Categories: []engine.CategorySpec{{
		ID: "angle", Name: "Angle", Dimension: map[string]int{"A": 1}, Base: "rad",
		Units: []engine.UnitSpec{
			{Symbol: "rad", Name: "radian", Plural: "radians", System: "SI", Exact: true, Source: "test"},
			{Symbol: "rev", Name: "revolution", Plural: "revolutions", System: "other", Exact: false, Source: "test",
				Definition: engine.DefinitionSpec{Factor: "6.283185307179586", Unit: "rad"}},
		},
	}}})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	f.srv.ApplyGraph(g)
	if st, body := get("/catalog"); st != 200 || !strings.Contains(body, `data-category="angle"`) || strings.Contains(body, `data-category="length"`) {
		t.Errorf("after: %d, angle listed %v", st, strings.Contains(body, "angle"))
	}
	if st, body := get("/catalog/units/rev"); st != 200 || !strings.Contains(body, "1 rev = 6.283185307179586 rad") {
		t.Errorf("rev after: %d", st)
	}
	var ans struct {
		Data []struct{ Symbol string } `json:"data"`
	}
	_, body := get("/web/units?q=revolution")
	if err := json.Unmarshal([]byte(body), &ans); err != nil || len(ans.Data) != 1 || ans.Data[0].Symbol != "rev" {
		t.Errorf("search after: %s", body)
	}
}

func TestPageRoutesAreMounted(t *testing.T) {
	f := newFixture(t, nil)
	for _, p := range web.Routes {
		path := strings.NewReplacer("*rest", "length", "*file", "app.css").Replace(p)
		resp, _ := f.do(t, f.request(t, http.MethodGet, path, "", "", ""))
		if resp.StatusCode != 200 {
			t.Errorf("GET %s: %d", path, resp.StatusCode)
		}
	}
}

func TestPagesLinkTheAccountPage(t *testing.T) {
	for _, withAccount := range []bool{false, true} {
		f := newFixture(t, func(c *Config) {
			if withAccount {
				c.Account = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("account")) })
			}
		})
		_, body := f.do(t, f.request(t, http.MethodGet, "/", "", "", ""))
		if got := strings.Contains(string(body), `href="/account"`); got != withAccount {
			t.Errorf("account page served %v: link shown %v", withAccount, got)
		}
	}
}

// TestPagesCountAgainstThePublicBudget: pages need no key, so like
// discovery they spend the address's public budget; the page conversion
// route spends both its own and the public one.
func TestPagesCountAgainstThePublicBudget(t *testing.T) {
	public := &fakeLimiter{decide: func(_ string, n int) ratelimit.Decision {
		if n > 3 {
			return ratelimit.Decision{Limit: 3, RetryAfter: 7 * time.Second}
		}
		return ratelimit.Decision{Allowed: true, Limit: 3, Remaining: 3 - n}
	}}
	f := newFixture(t, func(c *Config) { c.PublicLimiter = public })
	for _, path := range []string{"/", "/static/app.css", "/web/units?q=m"} {
		if resp, body := f.do(t, f.request(t, http.MethodGet, path, "", "", "")); resp.StatusCode != 200 {
			t.Fatalf("%s: %d %s", path, resp.StatusCode, body)
		}
	}
	resp, body := f.do(t, f.request(t, http.MethodGet, "/catalog", "", "", ""))
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "7" || !strings.Contains(string(body), "RATE_LIMIT_EXCEEDED") {
		t.Errorf("past the public budget: %d, Retry-After %q, %s", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
	resp, body = f.do(t, f.pageRequest(t, `{"value":"1","from":"m","to":"ft"}`, map[string]string{"Sec-Fetch-Site": "same-origin"}))
	if resp.StatusCode != 429 {
		t.Errorf("page conversion past the public budget: %d %s", resp.StatusCode, body)
	}
	if len(public.taken) != 5 {
		t.Errorf("public budget taken %d times, want 5", len(public.taken))
	}
}

// TestDocsNeverReflectHost: without a public URL, the curl examples of
// /docs name the address the server listens at, whatever Host the request
// gave (an attacker's host would tell readers to send their keys there);
// with one, they name it.
func TestDocsNeverReflectHost(t *testing.T) {
	for _, publicURL := range []string{"", "https://unitd.example.com"} {
		f := newFixture(t, func(c *Config) { c.PublicURL = publicURL })
		want := publicURL
		if want == "" {
			want = "http://" + f.ts.Listener.Addr().String()
		}
		for _, host := range []string{"evil.example:666", "unitd.example.org", "127.0.0.1:1"} {
			req := f.request(t, http.MethodGet, "/docs", "", "", "")
			req.Host = host
			resp, body := f.do(t, req)
			if resp.StatusCode != 200 || strings.Contains(string(body), host) || !strings.Contains(string(body), want+"/v1/convert") {
				t.Errorf("public URL %q, Host %s: %d, the examples do not name %s only:\n%s", publicURL, host, resp.StatusCode, want, body)
			}
		}
	}
}

// TestDocsRendersTheReference: /docs is the API reference as the server
// sends it, with no script run: every operation of /openapi.json under its
// method and path, with each of its parameters, and the explorer only on
// demand (no script of Swagger UI in the page).
func TestDocsRendersTheReference(t *testing.T) {
	f := newFixture(t, nil)
	_, doc := f.do(t, f.request(t, http.MethodGet, "/openapi.json", "", "", ""))
	var d struct {
		Paths map[string]map[string]struct {
			Parameters []struct {
				Name string
				Ref  string `json:"$ref"`
			}
		}
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatal(err)
	}
	resp, page := f.do(t, f.request(t, http.MethodGet, "/docs", "", "", ""))
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("/docs: %d", resp.StatusCode)
	}
	body := string(page)
	ops := 0
	for path, methods := range d.Paths {
		for method, op := range methods {
			ops++
			head := `<span class="method method-` + strings.ToUpper(method) + `">` + strings.ToUpper(method) + `</span> <code>` + path + `</code></h3>`
			i := strings.Index(body, head)
			if i < 0 {
				t.Errorf("/docs lacks %s %s", strings.ToUpper(method), path)
				continue
			}
			article := body[i:]
			article = article[:max(strings.Index(article, "</article>"), 0)]
			for _, p := range op.Parameters {
				if p.Name != "" && !strings.Contains(article, "<code>"+p.Name+"</code>") {
					t.Errorf("/docs: %s %s lacks its parameter %s", strings.ToUpper(method), path, p.Name)
				}
			}
		}
	}
	if ops < 10 {
		t.Errorf("only %d operations in /openapi.json", ops)
	}
	if strings.Contains(body, "swagger-ui-bundle.js\"></script>") || strings.Contains(body, "swagger-ui.css\">") {
		t.Error("/docs loads Swagger UI before it is asked for")
	}
	if !strings.Contains(body, `id="explorer-open"`) {
		t.Error("/docs has no button for the explorer")
	}
}
