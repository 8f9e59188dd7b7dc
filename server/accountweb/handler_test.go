package accountweb

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/unitd/unitd/account"
	"github.com/unitd/unitd/apikey"
	"github.com/unitd/unitd/internal/forwarded"
	"github.com/unitd/unitd/internal/testlog"
	"github.com/unitd/unitd/server/ratelimit"
	"github.com/unitd/unitd/store"
	"github.com/unitd/unitd/store/sqlite"
	"github.com/unitd/unitd/web"
)

// testParams make password hashing cheap in tests.
var testParams = account.Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}

const password = "correct horse battery staple"

type fixture struct {
	t     *testing.T
	db    *store.DB
	h     *Handler
	ts    *httptest.Server
	acctA account.Account
	acctB account.Account
}

func newFixture(t *testing.T, tlsServer bool, edit func(*Config)) *fixture {
	t.Helper()
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "unitd.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	cfg := Config{Store: db, Env: apikey.EnvTest, Params: testParams,
		SignInPerAddr: ratelimit.Rate{N: 1000, Per: time.Minute}, SignInPerUser: ratelimit.Rate{N: 1000, Per: time.Minute}}
	if edit != nil {
		edit(&cfg)
	}
	h, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, db: db, h: h}
	if tlsServer {
		f.ts = httptest.NewTLSServer(h)
	} else {
		f.ts = httptest.NewServer(h)
	}
	t.Cleanup(f.ts.Close)
	ctx := context.Background()
	if f.acctA, err = db.CreateAccount(ctx, "Acme"); err != nil {
		t.Fatal(err)
	}
	if f.acctB, err = db.CreateAccount(ctx, "Beta"); err != nil {
		t.Fatal(err)
	}
	return f
}

// user creates a user of acct with a password, set through the set-up link.
func (f *fixture) user(acct account.Account, email string) {
	f.t.Helper()
	ctx := context.Background()
	if _, err := f.db.CreateUser(ctx, acct.ID, email); err != nil {
		f.t.Fatal(err)
	}
	tok, _ := account.NewToken()
	if _, err := f.db.CreateSetupToken(ctx, email, account.HashToken(tok), time.Now().Add(time.Hour)); err != nil {
		f.t.Fatal(err)
	}
	c := f.client()
	resp, _ := c.postForm("/account/setup", url.Values{"token": {tok}, "password": {password}, "password2": {password}})
	if resp.StatusCode != http.StatusSeeOther {
		f.t.Fatalf("set-up: %d", resp.StatusCode)
	}
}

// client is a browser: a cookie jar and no redirects followed.
type client struct {
	f *fixture
	c *http.Client
	// header is added to every request.
	header http.Header
}

func (f *fixture) client() *client {
	jar, _ := cookiejar.New(nil)
	hc := f.ts.Client()
	c := &http.Client{Transport: hc.Transport, Jar: jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return &client{f: f, c: c, header: http.Header{}}
}

func (c *client) do(req *http.Request) (*http.Response, string) {
	c.f.t.Helper()
	for k, v := range c.header {
		req.Header[k] = v
	}
	resp, err := c.c.Do(req)
	if err != nil {
		c.f.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func (c *client) get(path string) (*http.Response, string) {
	req, _ := http.NewRequest("GET", c.f.ts.URL+path, nil)
	return c.do(req)
}

func (c *client) postForm(path string, v url.Values) (*http.Response, string) {
	req, _ := http.NewRequest("POST", c.f.ts.URL+path, strings.NewReader(v.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return c.do(req)
}

func (c *client) signIn(email, pw string) (*http.Response, string) {
	return c.postForm("/account/signin", url.Values{"email": {email}, "password": {pw}})
}

// signedIn returns a client signed in as email, and its CSRF token.
func (f *fixture) signedIn(email string) (*client, string) {
	f.t.Helper()
	c := f.client()
	if resp, body := c.signIn(email, password); resp.StatusCode != http.StatusSeeOther {
		f.t.Fatalf("sign in as %s: %d %s", email, resp.StatusCode, body)
	}
	_, body := c.get("/account")
	return c, csrfOf(f.t, body)
}

var csrfRe = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

func csrfOf(t *testing.T, body string) string {
	t.Helper()
	m := csrfRe.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no CSRF token in page:\n%s", body)
	}
	return m[1]
}

var newKeyRe = regexp.MustCompile(`<code id="new-key">(uc_test_[A-Za-z0-9_-]{43})</code>`)
var newKeyIDRe = regexp.MustCompile(`<code id="new-key-id">(key_[a-z0-9]+)</code>`)

// createKey creates a key on the page and returns it and its id.
func (c *client) createKey(csrf, name string) (string, string) {
	c.f.t.Helper()
	resp, body := c.postForm("/account/keys", url.Values{"csrf": {csrf}, "name": {name}})
	k, id := newKeyRe.FindStringSubmatch(body), newKeyIDRe.FindStringSubmatch(body)
	if resp.StatusCode != 200 || k == nil || id == nil {
		c.f.t.Fatalf("create key: %d\n%s", resp.StatusCode, body)
	}
	return k[1], id[1]
}

func TestSetupAndSignIn(t *testing.T) {
	f := newFixture(t, false, nil)
	ctx := context.Background()
	if _, err := f.db.CreateUser(ctx, f.acctA.ID, "ada@example.com"); err != nil {
		t.Fatal(err)
	}
	tok, _ := account.NewToken()
	if _, err := f.db.CreateSetupToken(ctx, "ada@example.com", account.HashToken(tok), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	c := f.client()
	if resp, body := c.get("/account/setup?token=" + tok); resp.StatusCode != 200 || !strings.Contains(body, "ada@example.com") {
		t.Fatalf("set-up page: %d\n%s", resp.StatusCode, body)
	}
	if resp, _ := c.get("/account/setup?token=wrong"); resp.StatusCode != 404 {
		t.Errorf("set-up page with a wrong token: %d", resp.StatusCode)
	}
	for _, bad := range []url.Values{
		{"token": {tok}, "password": {"short"}, "password2": {"short"}},
		{"token": {tok}, "password": {password}, "password2": {password + "!"}},
	} {
		if resp, _ := c.postForm("/account/setup", bad); resp.StatusCode != 400 {
			t.Errorf("set-up with %v: %d, want 400", bad, resp.StatusCode)
		}
	}
	resp, _ := c.postForm("/account/setup", url.Values{"token": {tok}, "password": {password}, "password2": {password}})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/account?ready=1" {
		t.Fatalf("set-up: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	if resp, _ := c.postForm("/account/setup", url.Values{"token": {tok}, "password": {password}, "password2": {password}}); resp.StatusCode != 404 {
		t.Errorf("second use of the link: %d, want 404", resp.StatusCode)
	}
	// The sign-in form the set-up page leads to has the address filled
	// in, in this browser only.
	if resp, body := c.get("/account?ready=1"); resp.StatusCode != 200 || !strings.Contains(body, `value="ada@example.com"`) || !strings.Contains(body, "Your password is set") {
		t.Errorf("sign-in form after the set-up: %d, want the address filled in:\n%s", resp.StatusCode, body)
	}
	if _, body := f.client().get("/account?ready=1"); strings.Contains(body, "ada@example.com") {
		t.Errorf("another browser's sign-in form has the address:\n%s", body)
	}
	_, hash, err := f.db.PasswordHash(ctx, "ada@example.com")
	if err != nil {
		t.Fatal(err)
	}
	if p, err := account.ParamsOf(hash); err != nil || p != testParams || !strings.HasPrefix(hash, "$argon2id$") {
		t.Errorf("stored hash %q: params %+v, %v", hash, p, err)
	}

	// Wrong password and unknown user get the same answer.
	resp1, body1 := c.signIn("ada@example.com", "wrong password!!")
	resp2, body2 := c.signIn("nobody@example.com", password)
	if resp1.StatusCode != 401 || resp2.StatusCode != 401 {
		t.Errorf("failed sign-ins: %d and %d, want 401", resp1.StatusCode, resp2.StatusCode)
	}
	norm := func(s string) string {
		return strings.ReplaceAll(strings.ReplaceAll(s, "ada@example.com", "E"), "nobody@example.com", "E")
	}
	if norm(body1) != norm(body2) || !strings.Contains(body1, errSignIn) {
		t.Errorf("unknown user and wrong password answered differently:\n%s\n---\n%s", body1, body2)
	}
	if len(resp1.Cookies()) != 0 {
		t.Error("a failed sign-in set a cookie")
	}

	resp, _ = c.signIn("ADA@example.com", password)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign-in: %d", resp.StatusCode)
	}
	ck := []*http.Cookie{cookieNamed(resp, cookieName)}
	if ck[0] == nil || !ck[0].HttpOnly || ck[0].SameSite != http.SameSiteStrictMode || ck[0].Path != "/account" || ck[0].Secure {
		t.Fatalf("session cookie over plain HTTP = %+v; want HttpOnly, SameSite=Strict, Path=/account, not Secure", resp.Cookies())
	}
	if dc := cookieNamed(resp, deviceCookieName); dc == nil || !dc.HttpOnly || dc.SameSite != http.SameSiteStrictMode || dc.Path != "/account/signin" || dc.Secure {
		t.Errorf("device cookie over plain HTTP = %+v; want HttpOnly, SameSite=Strict, Path=/account/signin, not Secure", dc)
	}
	_, body := c.get("/account")
	if !strings.Contains(body, "Signed in as <strong>ada@example.com</strong>") {
		t.Fatalf("page after sign-in:\n%s", body)
	}
	// The session token is stored only as a hash.
	var n int
	if err := f.db.SQL().QueryRow(`SELECT COUNT(*) FROM sessions WHERE token_hash = ?`, account.HashToken(ck[0].Value)).Scan(&n); err != nil || n != 1 {
		t.Errorf("session by hash: %d, %v", n, err)
	}
	if err := f.db.SQL().QueryRow(`SELECT COUNT(*) FROM sessions WHERE token_hash = ?`, ck[0].Value).Scan(&n); err != nil || n != 0 {
		t.Errorf("session stored in clear: %d, %v", n, err)
	}

	// Sign out ends the session on the server, not just the cookie.
	old := ck[0].Value
	resp, _ = c.postForm("/account/signout", url.Values{"csrf": {csrfOf(t, body)}})
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign out: %d", resp.StatusCode)
	}
	req, _ := http.NewRequest("GET", f.ts.URL+"/account/keys/key_x", nil)
	req.AddCookie(&http.Cookie{Name: cookieName, Value: old})
	if resp, body := f.client().do(req); resp.StatusCode != 401 || !strings.Contains(body, `action="/account/signin"`) {
		t.Errorf("old session cookie after sign-out: %d", resp.StatusCode)
	}
}

func TestSecureCookieOverTLS(t *testing.T) {
	f := newFixture(t, true, nil)
	f.user(f.acctA, "ada@example.com")
	resp, _ := f.client().signIn("ada@example.com", password)
	for _, name := range []string{cookieName, deviceCookieName} {
		ck := cookieNamed(resp, name)
		if resp.StatusCode != http.StatusSeeOther || ck == nil || !ck.Secure || !ck.HttpOnly || ck.SameSite != http.SameSiteStrictMode {
			t.Errorf("%s cookie over TLS = %+v, want Secure, HttpOnly, SameSite=Strict", name, ck)
		}
	}
}

// TestSecureCookieBehindHTTPS: over plain HTTP from a proxy that ends TLS,
// the cookies are Secure when the page's public address is https://, or
// when a trusted proxy says the client came over HTTPS.
func TestSecureCookieBehindHTTPS(t *testing.T) {
	trusted, err := forwarded.ParseProxies("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name   string
		https  bool   // Config.HTTPS: the public URL is https://
		proto  string // X-Forwarded-Proto from the trusted proxy
		secure bool
	}{
		{"public URL https", true, "", true},
		{"trusted proxy says https", false, "https", true},
		{"trusted proxy says http", false, "http", false},
		{"neither", false, "", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, false, func(c *Config) { c.HTTPS = tt.https })
			f.ts.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				f.h.ServeHTTP(w, trusted.Resolve(r)) // as the server mounts the page
			})
			f.user(f.acctA, "ada@example.com")
			c := f.client()
			if tt.proto != "" {
				c.header.Set("X-Forwarded-Proto", tt.proto)
			}
			resp, _ := c.signIn("ada@example.com", password)
			for _, name := range []string{cookieName, deviceCookieName} {
				if ck := cookieNamed(resp, name); ck == nil || ck.Secure != tt.secure {
					t.Errorf("%s cookie %+v, want Secure %v", name, ck, tt.secure)
				}
			}
		})
	}
}

// cookieNamed returns the cookie name that resp sets, or nil.
func cookieNamed(resp *http.Response, name string) *http.Cookie {
	for _, c := range resp.Cookies() {
		if c.Name == name {
			return c
		}
	}
	return nil
}

func TestPagesHaveStrictCSP(t *testing.T) {
	f := newFixture(t, false, nil)
	f.user(f.acctA, "ada@example.com")
	c, csrf := f.signedIn("ada@example.com")
	_, id := c.createKey(csrf, "ci")
	inline := regexp.MustCompile(`(?i)<script(?:\s[^>]*)?>\s*[^<\s]|\sstyle=|\son[a-z]+=|<style|javascript:`)
	for _, path := range []string{"/account", "/account/keys/" + id, "/account/nope", "the revoke confirmation"} {
		var resp *http.Response
		var body string
		if strings.HasPrefix(path, "/") {
			resp, body = c.get(path)
		} else { // the answer to a POST
			resp, body = c.postForm("/account/keys/"+id+"/revoke", url.Values{"csrf": {csrf}})
			if !strings.Contains(body, "Yes, revoke") {
				t.Fatalf("%s:\n%s", path, body)
			}
		}
		if got := resp.Header.Get("Content-Security-Policy"); !strings.HasPrefix(got, "default-src 'self';") || strings.Contains(got, "unsafe") {
			t.Errorf("%s: CSP %q", path, got)
		}
		if resp.Header.Get("Cache-Control") != "no-store" || resp.Header.Get("X-Frame-Options") != "DENY" {
			t.Errorf("%s: headers %v", path, resp.Header)
		}
		if m := inline.FindString(body); m != "" {
			t.Errorf("%s: inline code or style %q needs 'unsafe-inline'", path, m)
		}
	}
	for _, a := range []string{"/account/assets/account.js", "/account/assets/account.css"} {
		if resp, body := c.get(a); resp.StatusCode != 200 || len(body) < 100 {
			t.Errorf("%s: %d", a, resp.StatusCode)
		}
	}
}

func TestCSRF(t *testing.T) {
	f := newFixture(t, false, nil)
	f.user(f.acctA, "ada@example.com")
	c, csrf := f.signedIn("ada@example.com")
	_, id := c.createKey(csrf, "ci")
	for _, tt := range []struct {
		name  string
		path  string
		form  url.Values
		site  string // Sec-Fetch-Site
		allow bool
	}{
		{"no token", "/account/keys", url.Values{"name": {"x"}}, "", false},
		{"wrong token", "/account/keys", url.Values{"name": {"x"}, "csrf": {"nope"}}, "", false},
		{"cross-site with the right token", "/account/keys", url.Values{"name": {"x"}, "csrf": {csrf}}, "cross-site", false},
		{"revoke without token", "/account/keys/" + id + "/revoke", url.Values{}, "", false},
		{"rotate without token", "/account/keys/" + id + "/rotate", url.Values{"grace_hours": {"0"}}, "", false},
		{"sign out without token", "/account/signout", url.Values{}, "", false},
		{"cross-site sign-in", "/account/signin", url.Values{"email": {"ada@example.com"}, "password": {password}}, "cross-site", false},
		{"same origin with the token", "/account/keys", url.Values{"name": {"x"}, "csrf": {csrf}}, "same-origin", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c.header = http.Header{}
			if tt.site != "" {
				c.header.Set("Sec-Fetch-Site", tt.site)
			}
			resp, _ := c.postForm(tt.path, tt.form)
			if allowed := resp.StatusCode != http.StatusForbidden; allowed != tt.allow {
				t.Errorf("status %d; allowed %v, want %v", resp.StatusCode, allowed, tt.allow)
			}
		})
	}
	c.header = http.Header{}
	if k, err := f.db.Key(context.Background(), f.acctA.ID, id); err != nil || k.RevokedAt != nil || k.ReplacedBy != "" {
		t.Errorf("key changed by a refused request: %+v %v", k, err)
	}
}

func TestAnotherAccountsKeyIsNotFound(t *testing.T) {
	f := newFixture(t, false, nil)
	f.user(f.acctA, "ada@example.com")
	f.user(f.acctB, "bob@example.com")
	ca, csrfA := f.signedIn("ada@example.com")
	_, idA := ca.createKey(csrfA, "ada's key")
	cb, csrfB := f.signedIn("bob@example.com")
	cb.createKey(csrfB, "bob's key")

	if _, body := cb.get("/account"); strings.Contains(body, idA) || strings.Contains(body, "ada&#39;s key") {
		t.Errorf("bob's page shows ada's key")
	}
	for _, tt := range []struct{ method, path string }{
		{"GET", "/account/keys/" + idA},
		{"POST", "/account/keys/" + idA + "/rotate"},
		{"POST", "/account/keys/" + idA + "/revoke"},
	} {
		var resp *http.Response
		var body string
		if tt.method == "GET" {
			resp, body = cb.get(tt.path)
		} else {
			resp, body = cb.postForm(tt.path, url.Values{"csrf": {csrfB}, "grace_hours": {"0"}, "confirm": {"yes"}})
		}
		if resp.StatusCode != 404 || strings.Contains(body, idA+"</code>") {
			t.Errorf("%s %s as bob: %d, want 404", tt.method, tt.path, resp.StatusCode)
		}
	}
	// The same request for a key that does not exist gets the same answer.
	resp, _ := cb.get("/account/keys/key_doesnotexist")
	if resp.StatusCode != 404 {
		t.Errorf("unknown key: %d", resp.StatusCode)
	}
	k, err := f.db.Key(context.Background(), f.acctA.ID, idA)
	if err != nil || k.RevokedAt != nil || k.ReplacedBy != "" {
		t.Errorf("ada's key after bob's attempts: %+v, %v", k, err)
	}
	if ev, _ := f.db.Audit(context.Background(), f.acctA.ID, 100); len(ev) == 0 || strings.Contains(ev[0].Actor, "bob") {
		t.Errorf("ada's audit log: %+v", ev)
	}
}

func TestRotateRevokeAndTraffic(t *testing.T) {
	f := newFixture(t, false, nil)
	f.user(f.acctA, "ada@example.com")
	c, csrf := f.signedIn("ada@example.com")
	key1, id1 := c.createKey(csrf, "billing")
	ctx := context.Background()
	now := time.Now().UTC()
	if err := f.db.AddUsage(ctx, []account.UsageCount{{KeyID: id1, Minute: now.Truncate(time.Minute), Count: 42, Last: now}}); err != nil {
		t.Fatal(err)
	}
	_, body := c.get("/account")
	if !regexp.MustCompile(`data-key-id="` + id1 + `"[\s\S]*?<td class="num">42</td>[\s\S]*?active</td>`).MatchString(body) {
		t.Errorf("key list does not show 42 requests and active:\n%s", body)
	}
	_, body = c.get("/account/keys/" + id1)
	if !strings.Contains(body, "Requests in the last 24 hours, per 15 minutes: 42 in all") || !strings.Contains(body, "42 requests</title>") {
		t.Errorf("traffic chart missing the 42 requests:\n%s", body)
	}

	// 2251799813685272 hours overflow a time.Duration into 1.5 hours.
	for _, bad := range []string{"-1", "169", "soon", "", "2251799813685272", "99999999999999999999"} {
		resp, body := c.postForm("/account/keys/"+id1+"/rotate", url.Values{"csrf": {csrf}, "grace_hours": {bad}})
		if resp.StatusCode != 400 || !strings.Contains(body, "from 0 to 168") {
			t.Errorf("grace %q: %d, want 400 saying the bounds", bad, resp.StatusCode)
		}
	}
	if k, _ := f.db.Key(ctx, f.acctA.ID, id1); k.ReplacedBy != "" || k.ExpiresAt != nil {
		t.Fatalf("a refused grace period rotated the key: %+v", k)
	}
	resp, body := c.postForm("/account/keys/"+id1+"/rotate", url.Values{"csrf": {csrf}, "grace_hours": {"24"}})
	m, mid := newKeyRe.FindStringSubmatch(body), newKeyIDRe.FindStringSubmatch(body)
	if resp.StatusCode != 200 || m == nil || mid == nil || m[1] == key1 || !strings.Contains(body, "keeps working until") {
		t.Fatalf("rotate: %d\n%s", resp.StatusCode, body)
	}
	id2 := mid[1]
	old, _ := f.db.Key(ctx, f.acctA.ID, id1)
	if old.ExpiresAt == nil || time.Until(*old.ExpiresAt) < 23*time.Hour || time.Until(*old.ExpiresAt) > 24*time.Hour {
		t.Errorf("old key expires at %v, want in 24 h", old.ExpiresAt)
	}
	if _, body = c.get("/account"); !strings.Contains(body, "expiring at") {
		t.Error("list does not show the old key as expiring")
	}
	resp, body = c.postForm("/account/keys/"+id2+"/rotate", url.Values{"csrf": {csrf}, "grace_hours": {"0"}})
	if resp.StatusCode != 200 || !strings.Contains(body, "is revoked now") {
		t.Fatalf("rotate with no grace: %d\n%s", resp.StatusCode, body)
	}
	if k, _ := f.db.Key(ctx, f.acctA.ID, id2); k.State(time.Now()) != "revoked" {
		t.Errorf("key rotated with no grace is %s", k.State(time.Now()))
	}
	if resp, _ := c.postForm("/account/keys/"+id2+"/rotate", url.Values{"csrf": {csrf}, "grace_hours": {"0"}}); resp.StatusCode != 409 {
		t.Errorf("rotating a revoked key: %d, want 409", resp.StatusCode)
	}
	// "Revoke now" asks first: one click revokes nothing.
	resp, body = c.postForm("/account/keys/"+id1+"/revoke", url.Values{"csrf": {csrf}})
	if resp.StatusCode != 200 || !strings.Contains(body, "Yes, revoke this key") || !strings.Contains(body, id1) ||
		!strings.Contains(body, `name="confirm" value="yes"`) {
		t.Fatalf("revoke without confirmation: %d, want the question\n%s", resp.StatusCode, body)
	}
	if k, _ := f.db.Key(ctx, f.acctA.ID, id1); k.RevokedAt != nil {
		t.Fatal("one click on Revoke now revoked the key")
	}
	resp, _ = c.postForm("/account/keys/"+id1+"/revoke", url.Values{"csrf": {csrf}, "confirm": {"yes"}})
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("revoke: %d", resp.StatusCode)
	}
	if k, _ := f.db.Key(ctx, f.acctA.ID, id1); k.RevokedAt == nil {
		t.Error("revoke did not revoke")
	}
	_, body = c.get("/account")
	for _, want := range []string{"key.create", "key.rotate", "key.revoke", "user.signin", "127.0.0.1"} {
		if !strings.Contains(body, want) {
			t.Errorf("audit log on the page lacks %q", want)
		}
	}
	if strings.Contains(body, key1) || strings.Contains(body, m[1]) {
		t.Error("the key list shows a whole key")
	}
}

// countingVerify counts password verifications and the hashes used.
type countingVerify struct {
	mu     sync.Mutex
	hashes []string
}

func (c *countingVerify) verify(_ context.Context, hash, pw string) (bool, error) {
	c.mu.Lock()
	c.hashes = append(c.hashes, hash)
	c.mu.Unlock()
	return account.VerifyPassword(hash, pw)
}

func TestEverySignInVerifiesAHash(t *testing.T) {
	f := newFixture(t, false, nil)
	f.user(f.acctA, "ada@example.com")
	if _, err := f.db.CreateUser(context.Background(), f.acctA.ID, "nopass@example.com"); err != nil {
		t.Fatal(err)
	}
	f.user(f.acctA, "gone@example.com")
	if err := f.db.DisableUser(context.Background(), "gone@example.com"); err != nil {
		t.Fatal(err)
	}
	cv := &countingVerify{}
	f.h.verify = cv.verify
	c := f.client()
	for _, tt := range []struct{ email, pw string }{
		{"ada@example.com", "wrong password!"},
		{"nobody@example.com", password},
		{"nopass@example.com", password},
		{"gone@example.com", password},
		{"not an address", password},
	} {
		cv.mu.Lock()
		cv.hashes = nil
		cv.mu.Unlock()
		resp, body := c.signIn(tt.email, tt.pw)
		if resp.StatusCode != 401 || !strings.Contains(body, errSignIn) {
			t.Errorf("%s: %d", tt.email, resp.StatusCode)
		}
		cv.mu.Lock()
		if len(cv.hashes) != 1 {
			t.Errorf("%s: %d password verifications, want exactly 1 so that timing tells nothing", tt.email, len(cv.hashes))
		} else if p, err := account.ParamsOf(cv.hashes[0]); err != nil || p != testParams {
			t.Errorf("%s: verified against a hash with params %+v, want the real ones %+v", tt.email, p, testParams)
		}
		cv.mu.Unlock()
	}
}

func TestSignInRateLimits(t *testing.T) {
	t.Run("per user", func(t *testing.T) {
		f := newFixture(t, false, func(c *Config) { c.SignInPerUser = ratelimit.Rate{N: 3, Per: time.Hour} })
		f.user(f.acctA, "ada@example.com")
		c := f.client()
		for range 3 {
			if resp, _ := c.signIn("ada@example.com", "wrong password!"); resp.StatusCode != 401 {
				t.Fatalf("attempt within the limit: %d", resp.StatusCode)
			}
		}
		resp, _ := c.signIn("ada@example.com", password)
		if resp.StatusCode != 429 || resp.Header.Get("Retry-After") == "" {
			t.Errorf("4th attempt, right password: %d, want 429 with Retry-After", resp.StatusCode)
		}
		// An unknown user is limited the same way, so a 429 tells nothing.
		for range 3 {
			c.signIn("nobody@example.com", password)
		}
		if resp, _ := c.signIn("nobody@example.com", password); resp.StatusCode != 429 {
			t.Errorf("unknown user's 4th attempt: %d, want 429", resp.StatusCode)
		}
		// Other users are not locked out.
		f.user(f.acctA, "bob@example.com")
		if resp, _ := c.signIn("bob@example.com", password); resp.StatusCode != http.StatusSeeOther {
			t.Errorf("another user: %d", resp.StatusCode)
		}
	})
	t.Run("per address", func(t *testing.T) {
		f := newFixture(t, false, func(c *Config) { c.SignInPerAddr = ratelimit.Rate{N: 3, Per: time.Hour} })
		f.user(f.acctA, "ada@example.com")
		c := f.client()
		for i := range 3 {
			c.signIn("user"+string(rune('a'+i))+"@example.com", password)
		}
		if resp, _ := c.signIn("ada@example.com", password); resp.StatusCode != 429 {
			t.Errorf("4th attempt from one address: %d, want 429", resp.StatusCode)
		}
	})
}

func TestUnknownPathsAndMethods(t *testing.T) {
	f := newFixture(t, false, nil)
	c := f.client()
	if resp, _ := c.get("/account/nope"); resp.StatusCode != 404 {
		t.Errorf("/account/nope: %d", resp.StatusCode)
	}
	if resp, _ := c.postForm("/account/keys/x", nil); resp.StatusCode != 405 {
		t.Errorf("POST /account/keys/x: %d, want 405", resp.StatusCode)
	}
	if resp, _ := c.get("/account/keys/x"); resp.StatusCode != 401 {
		t.Errorf("signed-out key page: %d, want 401 with the sign-in form", resp.StatusCode)
	}
}

func TestKeysAndPasswordsNeverLogged(t *testing.T) {
	var logs testlog.Buffer
	f := newFixture(t, false, func(c *Config) {
		c.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	})
	f.user(f.acctA, "ada@example.com")
	device := cookieNamed(f.signInFrom("192.0.2.1", "ada@example.com", password), deviceCookieName)
	if device == nil {
		t.Fatal("no device cookie")
	}
	c, csrf := f.signedIn("ada@example.com")
	c.signIn("ada@example.com", "a wrong password")
	key, id := c.createKey(csrf, "ci")
	_, body := c.postForm("/account/keys/"+id+"/rotate", url.Values{"csrf": {csrf}, "grace_hours": {"0"}})
	key2 := newKeyRe.FindStringSubmatch(body)
	if key2 == nil {
		t.Fatal("rotation showed no key")
	}
	k, err := f.db.Key(context.Background(), f.acctA.ID, id)
	if err != nil {
		t.Fatal(err)
	}
	// Force the error paths that log, too.
	f.db.Close()
	c.get("/account")
	for _, secret := range []string{key, key2[1], k.Hash, password, "a wrong password", csrf, device.Value} {
		if strings.Contains(logs.String(), secret) {
			t.Errorf("a secret is in the log:\n%s", logs.String())
		}
	}
	if !strings.Contains(logs.String(), "account page") {
		t.Errorf("the store failure was not logged at all:\n%s", logs.String())
	}
}

// TestSharesTheSiteHeader: signed in or not, the account page shows the
// site's header and navigation (Account current) with the site's style
// sheet and icon, as the converter and the catalog do.
func TestSharesTheSiteHeader(t *testing.T) {
	f := newFixture(t, false, nil)
	f.user(f.acctA, "ada@example.com")
	chrome := web.SiteChrome()
	signedOut := f.client()
	_, outBody := signedOut.get("/account")
	c, _ := f.signedIn("ada@example.com")
	_, inBody := c.get("/account")
	for name, body := range map[string]string{"signed out": outBody, "signed in": inBody} {
		for _, want := range []string{
			string(chrome.Header),
			`<a href="/catalog">Catalog</a>`,
			`<a href="/account" aria-current="page">Account</a>`,
			`<link rel="stylesheet" href="` + chrome.Stylesheet + `">`,
			`<link rel="icon" href="` + chrome.Icon + `">`,
		} {
			if !strings.Contains(body, want) {
				t.Errorf("%s: the page lacks %q", name, want)
			}
		}
	}
	if !strings.Contains(inBody, "Signed in as <strong>ada@example.com</strong>") || strings.Contains(outBody, "Signed in as") {
		t.Error("the account bar does not follow the session")
	}
}

// TestBusyHasherAnswers503 checks what a sign-in or set-up gets when the
// password hashes running at once fill their memory budget (the Hasher's
// own tests check the bound): 503 with Retry-After and a page that says so.
func TestBusyHasherAnswers503(t *testing.T) {
	f := newFixture(t, false, nil)
	f.user(f.acctA, "ada@example.com")
	ctx := context.Background()
	if _, err := f.db.CreateUser(ctx, f.acctA.ID, "bob@example.com"); err != nil {
		t.Fatal(err)
	}
	tok, _ := account.NewToken()
	if _, err := f.db.CreateSetupToken(ctx, "bob@example.com", account.HashToken(tok), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	f.h.verify = func(context.Context, string, string) (bool, error) { return false, account.ErrBusy }
	f.h.hash = func(context.Context, string) (string, error) { return "", account.ErrBusy }
	c := f.client()
	for _, try := range []func() (*http.Response, string){
		func() (*http.Response, string) { return c.signIn("ada@example.com", password) },
		func() (*http.Response, string) {
			return c.postForm("/account/setup", url.Values{"token": {tok}, "password": {password}, "password2": {password}})
		},
	} {
		resp, body := try()
		if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" ||
			!strings.Contains(body, "Too many people are signing in") || len(resp.Cookies()) != 0 {
			t.Errorf("%s while the hashes are busy: %d, Retry-After %q\n%s", resp.Request.URL.Path, resp.StatusCode, resp.Header.Get("Retry-After"), body)
		}
	}
	// The set-up link was not spent by the refused attempt.
	if _, err := f.db.SetupUser(ctx, account.HashToken(tok), time.Now()); err != nil {
		t.Errorf("set-up link after a busy answer: %v", err)
	}
}

// signInFrom posts a sign-in straight to the handler from addr, with the
// cookies given, and returns the answer.
func (f *fixture) signInFrom(addr, email, pw string, cookies ...*http.Cookie) *http.Response {
	req := httptest.NewRequest("POST", "/account/signin", strings.NewReader(url.Values{"email": {email}, "password": {pw}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.RemoteAddr = addr + ":40000"
	for _, c := range cookies {
		if c != nil {
			req.AddCookie(&http.Cookie{Name: c.Name, Value: c.Value})
		}
	}
	rec := httptest.NewRecorder()
	f.h.ServeHTTP(rec, req)
	return rec.Result()
}

// TestDeviceCookiesKeepTheirAllowance checks OWASP's device-cookie design:
// wrong passwords from anywhere lock out only the unknown devices; a
// browser that signed in as the user before keeps its own allowance, and
// loses it only by its own failures.
func TestDeviceCookiesKeepTheirAllowance(t *testing.T) {
	f := newFixture(t, false, func(c *Config) { c.SignInPerUser = ratelimit.Rate{N: 3, Per: time.Hour} })
	f.user(f.acctA, "ada@example.com")
	f.user(f.acctB, "bob@example.com")
	resp := f.signInFrom("192.0.2.1", "ada@example.com", password)
	laptop := cookieNamed(resp, deviceCookieName)
	if resp.StatusCode != http.StatusSeeOther || laptop == nil {
		t.Fatalf("first sign-in: %d, device cookie %v", resp.StatusCode, laptop)
	}
	phone := cookieNamed(f.signInFrom("192.0.2.2", "ada@example.com", password), deviceCookieName)
	bobs := cookieNamed(f.signInFrom("192.0.2.3", "bob@example.com", password), deviceCookieName)

	// Someone guesses from three addresses until the unknown devices are
	// locked out.
	for i, addr := range []string{"198.51.100.1", "198.51.100.2", "198.51.100.3"} {
		if resp := f.signInFrom(addr, "ada@example.com", "guess number "+strconv.Itoa(i)); resp.StatusCode != 401 {
			t.Fatalf("guess %d: %d", i, resp.StatusCode)
		}
	}
	if resp := f.signInFrom("203.0.113.9", "ada@example.com", password); resp.StatusCode != 429 || resp.Header.Get("Retry-After") == "" {
		t.Errorf("the right password from an unknown device once the guesses are spent: %d, want 429 with Retry-After", resp.StatusCode)
	}
	// Forged, altered or another user's device cookies are unknown devices.
	for name, c := range map[string]*http.Cookie{
		"bob's cookie":      bobs,
		"altered signature": {Name: deviceCookieName, Value: laptop.Value[:len(laptop.Value)-2] + "AA"},
		"another nonce":     {Name: deviceCookieName, Value: strings.Replace(laptop.Value, ".", ".x", 1)},
	} {
		if resp := f.signInFrom("203.0.113.9", "ada@example.com", password, c); resp.StatusCode != 429 {
			t.Errorf("%s: %d, want 429 like any unknown device", name, resp.StatusCode)
		}
	}
	// Ada's laptop signs in from a fresh address all the same, and gets a
	// fresh device cookie.
	resp = f.signInFrom("203.0.113.10", "ada@example.com", password, laptop)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("the right password from a known device: %d, want 303", resp.StatusCode)
	}
	if c := cookieNamed(resp, deviceCookieName); c == nil || c.Value == laptop.Value {
		t.Error("a successful sign-in did not renew the device cookie")
	}
	// A known device that fails three times is locked out, alone.
	for range 3 {
		if resp := f.signInFrom("203.0.113.10", "ada@example.com", "a wrong password", laptop); resp.StatusCode != 401 {
			t.Fatalf("the laptop's wrong password: %d", resp.StatusCode)
		}
	}
	if resp := f.signInFrom("203.0.113.10", "ada@example.com", password, laptop); resp.StatusCode != 429 {
		t.Errorf("the laptop after its own three failures: %d, want 429", resp.StatusCode)
	}
	if resp := f.signInFrom("203.0.113.11", "ada@example.com", password, phone); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("the phone while the laptop is locked out: %d, want 303", resp.StatusCode)
	}
	// A new password (a reset) makes every device cookie unknown.
	ctx := context.Background()
	tok, _ := account.NewToken()
	if _, err := f.db.CreateSetupToken(ctx, "ada@example.com", account.HashToken(tok), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.SetPassword(ctx, account.HashToken(tok), hashWith(t, password), time.Now(), account.Operator); err != nil {
		t.Fatal(err)
	}
	if resp := f.signInFrom("203.0.113.11", "ada@example.com", password, phone); resp.StatusCode != 429 {
		t.Errorf("the phone's cookie after a password reset: %d, want 429 like an unknown device", resp.StatusCode)
	}
}

func hashWith(t *testing.T, pw string) string {
	t.Helper()
	h, err := account.HashPassword(pw, testParams)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestGuessesFromManyAddressesAreBounded: however many addresses guess at
// once, no more passwords are checked than the per-user limit allows.
func TestGuessesFromManyAddressesAreBounded(t *testing.T) {
	f := newFixture(t, false, func(c *Config) { c.SignInPerUser = ratelimit.Rate{N: 5, Per: time.Hour} })
	f.user(f.acctA, "ada@example.com")
	cv := &countingVerify{}
	f.h.verify = cv.verify
	var wg sync.WaitGroup
	codes := make(chan int, 60)
	for i := range 60 {
		wg.Go(func() {
			codes <- f.signInFrom("198.51.100."+strconv.Itoa(i+1), "ada@example.com", "guess "+strconv.Itoa(i)).StatusCode
		})
	}
	wg.Wait()
	close(codes)
	n := map[int]int{}
	for c := range codes {
		n[c]++
	}
	if n[401] != 5 || n[429] != 55 || len(cv.hashes) != 5 {
		t.Errorf("60 guesses at once from 60 addresses: answers %v, %d passwords checked; want 5 checked (401) and 55 refused (429)", n, len(cv.hashes))
	}
}

// failingStore fails, while down is set, the reads and writes a signed-in
// page and a sign-in start with, as a store that does not answer would.
type failingStore struct {
	*store.DB
	down atomic.Bool
}

var errRefused = errors.New("dial tcp 127.0.0.1:5432: connect: connection refused")

func (s *failingStore) PasswordHash(ctx context.Context, email string) (account.User, string, error) {
	if s.down.Load() {
		return account.User{}, "", errRefused
	}
	return s.DB.PasswordHash(ctx, email)
}

func (s *failingStore) Session(ctx context.Context, tokenHash string, now time.Time) (account.Session, error) {
	if s.down.Load() {
		return account.Session{}, errRefused
	}
	return s.DB.Session(ctx, tokenHash, now)
}

func (s *failingStore) Keys(ctx context.Context, accountID string) ([]account.Key, error) {
	if s.down.Load() {
		return nil, errRefused
	}
	return s.DB.Keys(ctx, accountID)
}

// TestStoreOutageKeepsTheSession: while the store does not answer, a
// signed-in user gets 503 and a page that says the store is unavailable,
// not the sign-in form or "your session has ended"; the cookie is left
// alone, and once the store answers the session goes on.
func TestStoreOutageKeepsTheSession(t *testing.T) {
	var fs *failingStore
	f := newFixture(t, false, func(c *Config) {
		fs = &failingStore{DB: c.Store.(*store.DB)}
		c.Store = fs
	})
	f.user(f.acctA, "ada@example.com")
	c, csrf := f.signedIn("ada@example.com")
	fs.down.Store(true)
	for _, try := range []struct {
		name string
		do   func() (*http.Response, string)
	}{
		{"GET /account", func() (*http.Response, string) { return c.get("/account") }},
		{"GET a key's page", func() (*http.Response, string) { return c.get("/account/keys/key_x") }},
		{"POST /account/keys", func() (*http.Response, string) {
			return c.postForm("/account/keys", url.Values{"csrf": {csrf}, "name": {"ci"}})
		}},
		{"sign-in", func() (*http.Response, string) { return c.signIn("ada@example.com", password) }},
	} {
		resp, body := try.do()
		if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body, "The account store is unavailable") ||
			resp.Header.Get("Retry-After") == "" || strings.Contains(body, `action="/account/signin"`) {
			t.Errorf("%s with the store down: %d\n%s", try.name, resp.StatusCode, body)
		}
		if try.name != "sign-in" && !strings.Contains(body, "You are still signed in") {
			t.Errorf("%s with the store down does not say the session is kept", try.name)
		}
		if ck := cookieNamed(resp, cookieName); ck != nil {
			t.Errorf("%s with the store down touched the session cookie: %+v", try.name, ck)
		}
	}
	fs.down.Store(false)
	if _, body := c.get("/account"); !strings.Contains(body, "Signed in as <strong>ada@example.com</strong>") {
		t.Errorf("the session after the store came back:\n%s", body)
	}
}

// TestServerErrorsAreNotFailures: attempts the server could not check
// (the store down, the hashes busy, the password worker gone) count for
// no limit.
func TestServerErrorsAreNotFailures(t *testing.T) {
	var fs *failingStore
	f := newFixture(t, false, func(c *Config) {
		fs = &failingStore{DB: c.Store.(*store.DB)}
		c.Store = fs
		c.SignInPerUser = ratelimit.Rate{N: 2, Per: time.Hour}
		c.SignInPerAddr = ratelimit.Rate{N: 2, Per: time.Hour}
	})
	f.user(f.acctA, "ada@example.com")
	fs.down.Store(true)
	for range 5 {
		if resp := f.signInFrom("192.0.2.1", "ada@example.com", password); resp.StatusCode != http.StatusServiceUnavailable {
			t.Fatalf("sign-in with the store down: %d, want 503", resp.StatusCode)
		}
	}
	fs.down.Store(false)
	f.h.verify = func(context.Context, string, string) (bool, error) { return false, account.ErrBusy }
	for range 5 {
		if resp := f.signInFrom("192.0.2.1", "ada@example.com", password); resp.StatusCode != http.StatusServiceUnavailable {
			t.Fatalf("sign-in with the hashes busy: %d, want 503", resp.StatusCode)
		}
	}
	f.h.verify = func(context.Context, string, string) (bool, error) {
		return false, errors.New("the password worker exited")
	}
	for range 5 {
		if resp := f.signInFrom("192.0.2.1", "ada@example.com", password); resp.StatusCode != http.StatusInternalServerError {
			t.Fatalf("sign-in with the password worker gone: %d, want 500", resp.StatusCode)
		}
	}
	f.h.verify = f.h.hasher.Verify
	if resp := f.signInFrom("192.0.2.1", "ada@example.com", password); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("the right password after 15 server errors at a limit of 2: %d, want 303", resp.StatusCode)
	}
}
