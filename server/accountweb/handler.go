// Package accountweb serves the account page: /account and the routes
// under it, where the users of an API consumer sign in and manage their
// account's keys (create, rotate with a grace period, revoke), watch each
// key's traffic and read the audit log, and manage the units the account
// defines for itself (the Units tab, units.go).
//
// Pages are server-rendered with html/template from html/*.html, under the
// site's header and style sheet (web.SiteChrome); the page's own style
// sheet and the one small script (the copy button) are embedded from
// assets/. An error page's status comes from the code of its error through
// the API's table (server/errcode). The Content-Security-Policy allows nothing but same-origin
// resources: no inline script or style.
//
// Security: sessions are server-side (the cookie holds a random token, the
// store its SHA-256) with HttpOnly, SameSite=Strict, Path=/account and
// Secure whenever the page is public over HTTPS (Config.HTTPS) or the
// request came over HTTPS. Every state change passes net/http's
// CrossOriginProtection and, once signed in, must carry the session's CSRF
// token. Sign-in is limited per client address and, with OWASP's device
// cookies, per user for unknown browsers and per browser that has signed in
// as the user before (see signIn); it answers unknown users, disabled users
// and wrong passwords alike, and verifies a password hash in every case, so
// that the time taken does not tell them apart. Every key lookup is scoped
// to the session's account: another account's key id is "not found".
package accountweb

import (
	"context"
	"embed"
	"errors"
	"html/template"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/unitd/unitd/account"
	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/internal/forwarded"
	"github.com/unitd/unitd/server/errcode"
	"github.com/unitd/unitd/server/ratelimit"
	"github.com/unitd/unitd/web"
)

//go:embed html/*.html
var htmlFS embed.FS

//go:embed assets/*
var assetFS embed.FS

// Default sign-in limits.
var (
	DefaultSignInPerAddr = ratelimit.Rate{N: 30, Per: time.Hour}
	DefaultSignInPerUser = ratelimit.Rate{N: 10, Per: time.Hour}
)

// contentSecurityPolicy allows same-origin resources only.
const contentSecurityPolicy = "default-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'; object-src 'none'"

// Store is what the account page needs from the account store.
type Store interface {
	account.Credentials
	account.Sessions
	account.KeyManager
	account.UsageReader
	account.AuditLog
}

// Config configures the account page.
type Config struct {
	Store Store
	// Env is the environment of keys created on the page ("test" or
	// "live"): the one the server accepts.
	Env string
	// Params are the Argon2id parameters for new password hashes
	// (account.DefaultParams if zero), when Hasher is nil.
	Params account.Params
	// Hasher hashes and checks passwords within a memory budget; nil
	// means one with Params and account.DefaultHashMemory. A sign-in or
	// set-up that finds it busy gets 503 with Retry-After.
	Hasher *account.Hasher
	// SignInPerAddr limits sign-in attempts per client address;
	// SignInPerUser limits failed sign-ins per user from unknown devices,
	// and per device that has signed in as the user before (defaults
	// above). Both count within a sliding window of their period.
	SignInPerAddr, SignInPerUser ratelimit.Rate
	// HTTPS says the page is reached over HTTPS (the server's public
	// address is https://, behind a proxy that ends TLS, say): cookies are
	// then Secure whatever the request's own scheme.
	HTTPS bool
	// FlushUsage, if set, is called before usage is shown, so that the page
	// includes this process's latest counts.
	FlushUsage func(context.Context) error
	// Units, when set with Graph, serves the Units tab: the units the
	// account defines for itself (units.go). Graph returns the catalog
	// the server serves now.
	Units Units
	Graph func() *engine.Graph
	// Dir, if set, is a directory with html/ and assets/ read at every
	// request instead of the embedded copies (for editing the pages).
	Dir    string
	Logger *slog.Logger
	// Now returns the current time; nil means time.Now.
	Now func() time.Time
}

// Handler serves /account and everything under it.
type Handler struct {
	cfg       Config
	logger    *slog.Logger
	handler   http.Handler
	pages     map[string]*template.Template // nil in Dir mode
	assets    http.Handler
	dummyHash string // verified for unknown users, so they take as long
	// addrLog counts every sign-in attempt per client address; failLog
	// counts failed ones per user (unknown devices) and per known device.
	addrLog, failLog *attemptLog
	hasher           *account.Hasher
	// verify checks a password and hash hashes a new one: the hasher's,
	// which tests replace to count calls or to be busy.
	verify func(ctx context.Context, hash, pw string) (bool, error)
	hash   func(ctx context.Context, pw string) (string, error)
}

// New returns the account page's handler.
func New(cfg Config) (*Handler, error) {
	if cfg.Store == nil {
		return nil, errors.New("account page: no store")
	}
	if cfg.Params == (account.Params{}) {
		cfg.Params = account.DefaultParams
	}
	if cfg.SignInPerAddr.N == 0 {
		cfg.SignInPerAddr = DefaultSignInPerAddr
	}
	if cfg.SignInPerUser.N == 0 {
		cfg.SignInPerUser = DefaultSignInPerUser
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	h := &Handler{cfg: cfg, logger: cfg.Logger, hasher: cfg.Hasher}
	if h.hasher == nil {
		var err error
		if h.hasher, err = account.NewHasher(account.HasherConfig{Params: cfg.Params}); err != nil {
			return nil, err
		}
	}
	h.verify, h.hash = h.hasher.Verify, h.hasher.Hash
	if h.logger == nil {
		h.logger = slog.New(slog.DiscardHandler)
	}
	h.addrLog = newAttemptLog(cfg.SignInPerAddr.N, cfg.SignInPerAddr.Per, 50_000)
	h.failLog = newAttemptLog(cfg.SignInPerUser.N, cfg.SignInPerUser.Per, 50_000)
	// A decoy with the hasher's parameters: checking it costs what
	// checking a real hash does, and making it costs no Argon2id work,
	// so that the server does not wait at start for a hash.
	dummy, err := account.DecoyHash(h.hasher.Params())
	if err != nil {
		return nil, err
	}
	h.dummyHash = dummy

	var assets fs.FS
	if cfg.Dir == "" {
		if h.pages, err = parsePages(htmlFS); err != nil {
			return nil, err
		}
		assets, _ = fs.Sub(assetFS, "assets")
	} else {
		if _, err := parsePages(os.DirFS(cfg.Dir)); err != nil {
			return nil, err
		}
		assets = os.DirFS(cfg.Dir + "/assets")
	}
	h.assets = http.StripPrefix("/account/assets/", http.FileServerFS(assets))

	mux := http.NewServeMux()
	mux.HandleFunc("GET /account", h.home)
	mux.HandleFunc("POST /account/signin", h.signIn)
	mux.HandleFunc("POST /account/signout", h.withSession(h.signOut))
	mux.HandleFunc("GET /account/setup", h.setupForm)
	mux.HandleFunc("POST /account/setup", h.setup)
	mux.HandleFunc("POST /account/keys", h.withSession(h.createKey))
	mux.HandleFunc("GET /account/keys/{id}", h.withSession(h.keyPage))
	mux.HandleFunc("POST /account/keys/{id}/rotate", h.withSession(h.rotateKey))
	mux.HandleFunc("POST /account/keys/{id}/revoke", h.withSession(h.revokeKey))
	mux.HandleFunc("GET /account/units", h.withSession(h.unitsPage))
	mux.HandleFunc("POST /account/units", h.withSession(h.saveUnit))
	mux.HandleFunc("POST /account/units/check", h.withSession(h.checkUnit))
	mux.HandleFunc("GET /account/units/{symbol}", h.withSession(h.unitPage))
	mux.HandleFunc("POST /account/units/{symbol}/delete", h.withSession(h.deleteUnit))
	mux.HandleFunc("GET /account/assets/{file}", h.asset)
	mux.HandleFunc("GET /account/", h.notFound)

	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.errorPage(w, r, errcode.CrossOrigin, "This request came from another site and was refused.")
	}))
	h.handler = cop.Handler(mux)
	return h, nil
}

// ServeHTTP sets the security headers and serves the request.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	hd.Set("Content-Security-Policy", contentSecurityPolicy)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("X-Frame-Options", "DENY")
	hd.Set("Referrer-Policy", "no-referrer")
	if !strings.HasPrefix(r.URL.Path, "/account/assets/") {
		hd.Set("Cache-Control", "no-store")
	}
	r.Body = http.MaxBytesReader(w, r.Body, 16<<10)
	h.handler.ServeHTTP(w, r)
}

func (h *Handler) asset(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "public, max-age=300")
	h.assets.ServeHTTP(w, r)
}

func (h *Handler) notFound(w http.ResponseWriter, r *http.Request) {
	h.errorPage(w, r, account.CodeNotFound, "There is no such page.")
}

// parsePages parses one template set per page: the layout plus the page.
func parsePages(fsys fs.FS) (map[string]*template.Template, error) {
	names, err := fs.Glob(fsys, "html/*.html")
	if err != nil {
		return nil, err
	}
	pages := map[string]*template.Template{}
	for _, n := range names {
		base := strings.TrimSuffix(n[len("html/"):], ".html")
		if base == "layout" {
			continue
		}
		t, err := template.New("layout.html").Funcs(funcs).ParseFS(fsys, "html/layout.html", n)
		if err != nil {
			return nil, err
		}
		pages[base] = t
	}
	return pages, nil
}

var funcs = template.FuncMap{
	"when": func(t any) string {
		switch v := t.(type) {
		case time.Time:
			return v.UTC().Format("2006-01-02 15:04 UTC")
		case *time.Time:
			if v == nil {
				return "never"
			}
			return v.UTC().Format("2006-01-02 15:04 UTC")
		}
		return ""
	},
	"iso": func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
	// site is the site's header, style sheet and icon, so that the
	// account page looks like the other pages and shares their navigation.
	"site": web.SiteChrome,
}

// render writes page with data and status.
func (h *Handler) render(w http.ResponseWriter, r *http.Request, status int, page string, data map[string]any) {
	pages := h.pages
	if pages == nil {
		var err error
		if pages, err = parsePages(os.DirFS(h.cfg.Dir)); err != nil {
			h.logger.Error("account page templates", "error", err)
			http.Error(w, "template error", http.StatusInternalServerError)
			return
		}
	}
	t, ok := pages[page]
	if !ok {
		h.logger.Error("account page: no template", "page", page)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	if data == nil {
		data = map[string]any{}
	}
	var buf strings.Builder
	if err := t.Execute(&buf, data); err != nil {
		h.logger.Error("account page: render", "page", page, "error", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write([]byte(buf.String()))
}

// errorPage shows msg with the status of code, from the table the API
// uses too (server/errcode).
func (h *Handler) errorPage(w http.ResponseWriter, r *http.Request, code, msg string) {
	status := errcode.Status(code)
	h.render(w, r, status, "error", map[string]any{"Title": http.StatusText(status), "Message": msg, "Status": status})
}

// fail shows the page for a store error: the message that msgs gives for
// its code, or, for any other error (the store did not answer), the page
// that says the store is unavailable.
func (h *Handler) fail(w http.ResponseWriter, r *http.Request, err error, msgs map[string]string) {
	code := account.ErrorCode(err)
	if msg, ok := msgs[code]; ok {
		h.errorPage(w, r, code, msg)
		return
	}
	h.storeDown(w, r, err)
}

// busyRetry is the Retry-After of a sign-in or set-up refused because the
// password hashes running at once fill their memory budget.
const busyRetry = "2"

// busy answers 503 with Retry-After: too many passwords are being checked
// at once. Nothing was checked, so the attempt counts for nothing.
func (h *Handler) busy(w http.ResponseWriter, r *http.Request, page string, data map[string]any) {
	w.Header().Set("Retry-After", busyRetry)
	data["Error"] = "Too many people are signing in at this moment. Please try again in a few seconds."
	h.render(w, r, errcode.Status(errcode.Unavailable), page, data)
}

// internalError logs err and shows a page that says nothing of it.
func (h *Handler) internalError(w http.ResponseWriter, r *http.Request, err error) {
	h.logger.Error("account page", "path", r.URL.Path, "error", err)
	h.errorPage(w, r, account.CodeInternal, "Something went wrong on our side. Please try again.")
}

// secure reports whether cookies set in answer to r must be Secure: the
// page is public over HTTPS, or r came over HTTPS (over TLS, or through a
// trusted proxy that says so; see package forwarded).
func (h *Handler) secure(r *http.Request) bool { return h.cfg.HTTPS || forwarded.HTTPS(r) }

// storeDown answers a request the store could not serve: 503 with a page
// that says so. A session cookie stays as it is: the session may well be
// valid once the store answers again.
func (h *Handler) storeDown(w http.ResponseWriter, r *http.Request, err error) {
	h.logger.Error("account page: the store failed", "path", r.URL.Path, "error", err)
	w.Header().Set("Retry-After", "10")
	msg := "The account store is unavailable at the moment, so nothing could be shown or changed. Please try again in a minute."
	if c, err := r.Cookie(cookieName); err == nil && c.Value != "" {
		msg += " You are still signed in."
	}
	h.errorPage(w, r, errcode.Unavailable, msg)
}

// clientAddr is the host of the request's RemoteAddr: the connection's
// peer, or the client behind a trusted proxy when the server mounting the
// page has resolved it (see package forwarded); the page itself believes
// no forwarding header.
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
