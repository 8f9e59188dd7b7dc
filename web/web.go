package web

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"html/template"
	"io/fs"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/internal/forwarded"
)

// ContentSecurityPolicy is sent with every page and static file: nothing
// inline, no eval, nothing from another origin.
const ContentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; " +
	"object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"

// docsContentSecurityPolicy is the policy of /docs: Swagger UI's style sheet
// draws its icons from data: URIs, so images may come from data: as well.
const docsContentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"

// Routes are the paths Pages serves, in httprouter syntax, for GET and
// HEAD.
var Routes = []string{
	"/",
	"/catalog",
	"/catalog/*rest",
	"/docs",
	"/favicon.ico",
	"/static/*file",
	"/web/units",
	"/web/substances",
}

// Config configures Pages.
type Config struct {
	// Graph returns the catalog being served now; it is called once per
	// request.
	Graph func() *engine.Graph
	// Version is the server's version, shown in the footer.
	Version string
	// AccountPage adds a link to /account (served elsewhere) to the
	// navigation.
	AccountPage bool
	// PublicURL is the address people reach the server at, for the curl
	// examples of /docs; "" means the scheme and host of each request.
	PublicURL string
	// OpenAPI returns the OpenAPI document of a catalog, from which /docs
	// renders the API reference; nil leaves /docs with the examples and
	// the interactive explorer only.
	OpenAPI func(g *engine.Graph) []byte
	// Charge, when set, is told that the answer to r cost n tokens of the
	// client's budget beyond the one every request spends: a page that was
	// not in the cache, by the units it searched and the bytes it rendered.
	Charge func(r *http.Request, n int)
}

// Pages serves the pages. It is safe for concurrent use.
type Pages struct {
	cfg   Config
	views views
}

//go:embed templates
var templateFiles embed.FS

//go:embed static
var staticFiles embed.FS

// New returns Pages for cfg. The templates and the static files, shared
// by every Pages of the process, are parsed and indexed in the background
// from the first call on, so that a server need not wait for them before
// it listens; a page asked for sooner waits for them.
func New(cfg Config) *Pages {
	go embedded()
	return &Pages{cfg: cfg}
}

// embedded parses the templates and indexes the static files once per
// process: they are part of the binary and never change. It panics if a
// template does not parse, which every test would show.
var embedded = sync.OnceValue(func() (e struct {
	static *assets
	pages  map[string]*template.Template
	chrome Chrome
}) {
	sub, err := fs.Sub(staticFiles, "static")
	if err != nil {
		panic("web: " + err.Error())
	}
	e.static = newAssets(sub)
	e.pages = map[string]*template.Template{}
	funcs := template.FuncMap{
		"asset":     e.static.url,
		"unitURL":   unitURL,
		"joinComma": func(s []string) string { return strings.Join(s, ", ") },
		"lower":     strings.ToLower,
		"inc":       func(i int) int { return i + 1 },
	}
	for _, name := range []string{"converter", "catalog", "category", "unit", "substances", "docs", "notfound"} {
		t := template.New("layout.html").Funcs(funcs)
		e.pages[name] = template.Must(t.ParseFS(templateFiles, "templates/layout.html", "templates/header.html", "templates/"+name+".html"))
	}
	header := template.Must(template.New("header.html").ParseFS(templateFiles, "templates/header.html"))
	var b bytes.Buffer
	if err := header.ExecuteTemplate(&b, "header", layoutData{Nav: "account", Account: true}); err != nil {
		panic("web: " + err.Error())
	}
	e.chrome = Chrome{Header: template.HTML(b.String()), Stylesheet: e.static.url("app.css"), Icon: e.static.url("favicon.ico")}
	return e
})

// Chrome is what a page served by another package (the account page)
// needs to look like the site and share its navigation: the site's header,
// with the account entry current, and the addresses of its style sheet and
// icon, which the server's pages serve.
type Chrome struct {
	Header     template.HTML
	Stylesheet string
	Icon       string
}

// SiteChrome returns the site's Chrome.
func SiteChrome() Chrome { return embedded().chrome }

// ServeHTTP serves one of Routes.
func (p *Pages) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	setSecurityHeaders(w.Header())
	seg := segments(r.URL)
	switch {
	case len(seg) == 0:
		p.converter(w, r)
	case seg[0] == "static":
		embedded().static.serve(w, r, strings.Join(seg[1:], "/"))
	case seg[0] == "catalog" && len(seg) == 1:
		p.catalogIndex(w, r)
	case seg[0] == "catalog" && len(seg) == 2 && seg[1] == "substances":
		p.substancesPage(w, r)
	case seg[0] == "catalog" && len(seg) == 2:
		p.categoryPage(w, r, seg[1])
	case seg[0] == "catalog" && len(seg) == 3 && seg[1] == "units":
		p.unitPage(w, r, seg[2])
	case seg[0] == "docs" && len(seg) == 1:
		p.docs(w, r)
	case seg[0] == "favicon.ico" && len(seg) == 1:
		embedded().static.serve(w, r, "favicon.ico")
	case seg[0] == "web" && len(seg) == 2 && seg[1] == "units":
		p.searchUnits(w, r)
	case seg[0] == "web" && len(seg) == 2 && seg[1] == "substances":
		p.searchSubstances(w, r)
	default:
		p.notFound(w, r, "There is no page at this address.", nil)
	}
}

func setSecurityHeaders(h http.Header) {
	h.Set("Content-Security-Policy", ContentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
}

// segments splits the request path into its percent-decoded segments, so
// that /catalog/units/km%2Fh names the unit km/h. The server may already
// have replaced Path by its escaped form (RawPath); either way the escaped
// form decides where the segments end.
func segments(u *url.URL) []string {
	raw := u.RawPath
	var out []string
	if raw == "" {
		for s := range strings.SplitSeq(strings.Trim(u.Path, "/"), "/") {
			if s != "" {
				out = append(out, s)
			}
		}
		return out
	}
	for s := range strings.SplitSeq(strings.Trim(raw, "/"), "/") {
		if s == "" {
			continue
		}
		d, err := url.PathUnescape(s)
		if err != nil {
			d = s
		}
		out = append(out, d)
	}
	return out
}

// unitURL is the stable address of a unit's page.
func unitURL(symbol string) string { return "/catalog/units/" + url.PathEscape(symbol) }

// layoutData is what every page's layout needs besides the page's own data.
type layoutData struct {
	Title   string
	Nav     string // which navigation entry is current
	Version string
	Catalog string // catalog version
	Account bool   // link to the account page
	Page    any
}

// renderPage executes page for the view's catalog: HTML with an ETag of
// its bytes when status is 200.
func (p *Pages) renderPage(g *engine.Graph, status int, page, title, nav string, data any) *cachedPage {
	var buf bytes.Buffer
	ld := layoutData{Title: title, Nav: nav, Version: p.cfg.Version, Account: p.cfg.AccountPage, Page: data}
	if g != nil {
		ld.Catalog = g.Version()
	}
	if err := embedded().pages[page].Execute(&buf, ld); err != nil {
		return &cachedPage{status: http.StatusInternalServerError, ctype: "text/plain; charset=utf-8",
			body: []byte("the page could not be rendered\n")}
	}
	cp := &cachedPage{status: status, ctype: "text/html; charset=utf-8", body: buf.Bytes()}
	if status == http.StatusOK {
		sum := sha256.Sum256(cp.body)
		cp.etag = `"` + hex.EncodeToString(sum[:16]) + `"`
	}
	return cp
}

// render renders page and writes it, uncached.
func (p *Pages) render(w http.ResponseWriter, r *http.Request, status int, page, title, nav string, g *engine.Graph, data any) {
	cp := p.renderPage(g, status, page, title, nav, data)
	p.charge(r, cp, 0)
	writePage(w, r, cp)
}

// The cost of an answer in tokens of the client's public budget: one for
// the request, which the server takes before the page runs, and more for
// the work of an answer that was not in the cache: a token for every
// unitsPerToken units searched and every bytesPerToken bytes rendered. A
// token is about what an ordinary request costs the server (tens of
// microseconds); rendering a page with html/template costs about that
// much for every 2 KiB (BenchmarkPages measures both). Answers from the
// cache cost the one token.
const (
	unitsPerToken = 200
	bytesPerToken = 2 << 10
)

// cost is the tokens an answer rendered afresh costs.
func cost(cp *cachedPage, scanned int) int {
	return 1 + scanned/unitsPerToken + len(cp.body)/bytesPerToken
}

// charge spends the cost of a fresh answer beyond its first token.
func (p *Pages) charge(r *http.Request, cp *cachedPage, scanned int) {
	if n := cost(cp, scanned) - 1; n > 0 && p.cfg.Charge != nil {
		p.cfg.Charge(r, n)
	}
}

// cached answers r with the page that key names in v's cache, or builds it
// (charging its cost) and keeps it. build returns the answer and the number
// of units it searched.
func (p *Pages) cached(w http.ResponseWriter, r *http.Request, v *view, key string, build func() (*cachedPage, int)) {
	if cp, ok := v.cache.get(key); ok {
		writePage(w, r, cp)
		return
	}
	cp, scanned := build()
	cp.key = key
	if cp.status < 500 {
		v.cache.put(cp)
	}
	p.charge(r, cp, scanned)
	writePage(w, r, cp)
}

// writePage writes an answer, answering a matching If-None-Match with 304.
func writePage(w http.ResponseWriter, r *http.Request, cp *cachedPage) {
	h := w.Header()
	h.Set("Content-Type", cp.ctype)
	h.Set("Cache-Control", "no-cache")
	h.Set("Vary", "Accept-Language") // unit names follow the reader's language
	if cp.etag != "" {
		h.Set("ETag", cp.etag)
		if etagMatch(r.Header.Get("If-None-Match"), cp.etag) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	w.WriteHeader(cp.status)
	if r.Method != http.MethodHead {
		w.Write(cp.body)
	}
}

// etagMatch reports whether an If-None-Match header matches etag (weak
// comparison, RFC 9110).
func etagMatch(header, etag string) bool {
	for part := range strings.SplitSeq(header, ",") {
		part = strings.TrimPrefix(strings.TrimSpace(part), "W/")
		if part == "*" || part == etag {
			return true
		}
	}
	return false
}

type notFoundPage struct {
	Message     string
	Suggestions []string
}

func (p *Pages) notFound(w http.ResponseWriter, r *http.Request, msg string, suggestions []string) {
	p.render(w, r, http.StatusNotFound, "notfound", "Not found", "", p.cfg.Graph(), notFoundPage{msg, suggestions})
}

func (p *Pages) converter(w http.ResponseWriter, r *http.Request) {
	v := p.view()
	p.cached(w, r, v, "converter", func() (*cachedPage, int) {
		return p.renderPage(v.g, http.StatusOK, "converter", "Convert units", "convert", nil), 0
	})
}

// view is the view of the catalog being served now.
func (p *Pages) view() *view { return p.views.of(p.cfg.Graph()) }

type docsPage struct {
	Base string     // scheme and host for the curl examples
	Ref  *reference // the reference, from the OpenAPI document
	// RefError says why there is no reference.
	RefError string
}

func (p *Pages) docs(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Security-Policy", docsContentSecurityPolicy)
	base := strings.TrimSuffix(p.cfg.PublicURL, "/")
	if base == "" {
		base = "http://" + r.Host
		if forwarded.HTTPS(r) {
			base = "https://" + r.Host
		}
	}
	v := p.view()
	p.cached(w, r, v, "docs\x00"+base, func() (*cachedPage, int) {
		page := docsPage{Base: base}
		if p.cfg.OpenAPI != nil {
			// The document is the server's own, so an error is a bug a
			// test shows; the page says it and keeps its explorer.
			ref, err := newReference(p.cfg.OpenAPI(v.g))
			if err != nil {
				page.RefError = err.Error()
			}
			page.Ref = ref
		}
		return p.renderPage(v.g, http.StatusOK, "docs", "API reference", "docs", page), 0
	})
}
