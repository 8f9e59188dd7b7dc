package server

import (
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/julienschmidt/httprouter"
	"github.com/unitd/unitd/apikey"
)

// route is one entry of the route table: the method and httprouter path,
// whether it needs an API key, the handler, and what the OpenAPI document
// says about it.
type route struct {
	method string
	path   string
	auth   bool
	fn     apiFunc
	doc    opDoc
}

// routeTable lists every route of the API, in one place. The OpenAPI
// document is generated from it, and a test checks the two agree.
func (s *Server) routeTable() []route {
	return []route{
		{http.MethodGet, "/v1/convert", true, s.convertGET, docConvertGET},
		{http.MethodPost, "/v1/convert", true, s.convertPOST, docConvertPOST},
		{http.MethodPost, "/v1/batch", true, s.batch, docBatch},
		{http.MethodPost, "/v1/batch/stream", true, s.batchStreamOnly, docBatchStream},
		{http.MethodGet, "/v1/categories", false, s.categories, docCategories},
		{http.MethodGet, "/v1/categories/:category", false, s.category, docCategory},
		{http.MethodGet, "/v1/units", false, s.units, docUnits},
		{http.MethodGet, "/v1/units/:unit", false, s.unit, docUnit},
		{http.MethodGet, "/v1/substances", false, s.substances, docSubstances},
		{http.MethodGet, "/v1/substances/:id", false, s.substance, docSubstance},
		{http.MethodGet, "/v1/preferences", false, s.preferences, docPreferences},
		{http.MethodGet, "/v1/account/units", true, s.accountUnits, docAccountUnits},
		{http.MethodGet, "/v1/account/units/:symbol", true, s.accountUnit, docAccountUnit},
		{http.MethodPut, "/v1/account/units/:symbol", true, s.putAccountUnit, docPutAccountUnit},
		{http.MethodDelete, "/v1/account/units/:symbol", true, s.deleteAccountUnit, docDeleteAccountUnit},
		{http.MethodGet, "/v1/health", false, s.health, docHealth},
		{http.MethodGet, "/openapi.json", false, s.openapi, docOpenAPI},
	}
}

// batchStreamOnly serves POST /v1/batch/stream: the NDJSON stream that
// POST /v1/batch also answers (stream.go), on a route of its own so that
// the OpenAPI document describes each with one media type (docBatchStream
// says why).
func (s *Server) batchStreamOnly(c *call) reply {
	if !isNDJSON(c.r.Header["Content-Type"]) {
		return errReply(newError(codeUnsupportedMediaType, `send the body as "Content-Type: `+ndjsonContentType+`", one item per line; POST /v1/batch takes a JSON batch`))
	}
	return s.batchStream(c)
}

// newHandler builds the router once. Redirects are off so that every
// answer is JSON (and a POST is never redirected); OPTIONS is not served,
// so it gets 405 with Allow like any other unsupported method.
func (s *Server) newHandler() http.Handler {
	r := httprouter.New()
	r.RedirectTrailingSlash = false
	r.RedirectFixedPath = false
	r.HandleMethodNotAllowed = true
	r.HandleOPTIONS = false
	r.NotFound = http.HandlerFunc(s.notFound)
	r.MethodNotAllowed = http.HandlerFunc(s.methodNotAllowed)
	r.PanicHandler = s.panicked
	for _, rt := range s.routes {
		r.Handler(rt.method, rt.path, s.wrap(rt))
	}
	s.mountPages(r) // the pages for people and their keyless routes (pages.go)
	var h http.Handler = r
	if s.cfg.Account != nil {
		h = s.mountAccount(r)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) { s.serve(h, w, req) })
}

// accountPrefix is the path of the account page; everything under it is
// served by Config.Account.
const accountPrefix = "/account"

// mountAccount sends /account and /account/… to Config.Account and every
// other path to the API router.
func (s *Server) mountAccount(api http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		if p == accountPrefix || strings.HasPrefix(p, accountPrefix+"/") {
			s.cfg.Account.ServeHTTP(w, r)
			if rw, ok := w.(*respWriter); ok {
				rw.route = accountRoute(r.Pattern)
			}
			return
		}
		api.ServeHTTP(w, r)
	})
}

// accountRoute names an account-page request in the access log and the
// metrics: the pattern its ServeMux matched (r.Pattern, such as "POST
// /account/keys/{id}/rotate"), without the method, so that the key id in
// the path never becomes a label; "/account" when no pattern matched.
func accountRoute(pattern string) string {
	if _, path, ok := strings.Cut(pattern, " "); ok {
		pattern = path
	}
	if !strings.HasPrefix(pattern, accountPrefix) {
		return accountPrefix
	}
	return pattern
}

// param returns the path parameter name, percent-decoded: a request whose
// path has escapes that matter (km%2Fh) is routed on its escaped form.
func param(r *http.Request, name string) (string, bool) {
	v := httprouter.ParamsFromContext(r.Context()).ByName(name)
	if r.URL.RawPath == "" {
		return v, true
	}
	u, err := url.PathUnescape(v)
	return u, err == nil
}

// call is one request on its way through a handler.
type call struct {
	w    *respWriter
	r    *http.Request
	snap *snapshot
	// key is the request's API key, once authenticated (its account and
	// scopes); zero on a route that needs none.
	key apikey.Record
}

// reply is a handler's answer: a JSON body with a status, or an error.
type reply struct {
	status int
	body   []byte
	etag   string // strong ETag for conditional GET; "" for none
	err    *apiError
	done   bool // the handler has written the answer itself (a stream)
}

// apiFunc is the one shape of every handler.
type apiFunc func(c *call) reply

func errReply(e *apiError) reply { return reply{err: e} }

// wrap adapts an apiFunc to http.Handler: it loads the catalog snapshot once,
// runs authentication and rate limiting for routes that need a key, and
// writes the reply.
func (s *Server) wrap(rt route) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rw := w.(*respWriter)
		rw.route = rt.path
		if !rt.auth && s.cfg.PublicLimiter != nil {
			if e := s.limitPublic(rw, r); e != nil {
				s.writeError(rw, r, e)
				return
			}
		}
		c := call{w: rw, r: r, snap: s.snap.Load()}
		if c.snap == nil {
			s.writeError(rw, r, internalError(errNoGraph))
			return
		}
		if rt.auth {
			rec, e := s.authorize(rw, r)
			if e != nil {
				s.writeError(rw, r, e)
				return
			}
			c.key = rec
		}
		if _, e := acceptLanguage(r); e != nil {
			s.writeError(rw, r, e)
			return
		}
		rep := rt.fn(&c)
		if rep.done {
			return
		}
		if rep.err != nil {
			s.writeError(rw, r, rep.err)
			return
		}
		h := rw.Header()
		h["Content-Type"] = []string{jsonContentType}
		h["X-Content-Type-Options"] = []string{nosniff}
		if rep.etag != "" {
			h["Etag"] = []string{rep.etag}
			h["Cache-Control"] = []string{noCache}
			if etagMatch(r.Header.Get("If-None-Match"), rep.etag) {
				rw.WriteHeader(http.StatusNotModified)
				return
			}
		}
		rw.WriteHeader(rep.status)
		rw.Write(rep.body)
	})
}

var errNoGraph = errors.New("server: no catalog applied; call ApplyGraph before serving")

// Header values; each response gets its own slice of them, since a
// caller may modify the header map it is given.
const (
	jsonContentType = "application/json"
	noCache         = "no-cache"
)

func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	msg := "no route for " + truncate(r.URL.Path, 200)
	// /v1/units/km/h: a symbol with a slash that was not percent-encoded.
	for _, prefix := range []string{"/v1/units/", "/v1/categories/"} {
		if rest, ok := strings.CutPrefix(r.URL.Path, prefix); ok && strings.Contains(rest, "/") {
			msg += "; percent-encode a / inside a name: " + prefix + truncate(url.PathEscape(rest), 200)
		}
	}
	s.writeError(asRespWriter(w), r, newError(codeNotFound, msg))
}

func (s *Server) methodNotAllowed(w http.ResponseWriter, r *http.Request) {
	rw := asRespWriter(w)
	// httprouter lists OPTIONS, which this API does not serve.
	var allow []string
	for m := range strings.SplitSeq(rw.Header().Get("Allow"), ", ") {
		if m != http.MethodOptions && m != "" {
			allow = append(allow, m)
		}
	}
	rw.Header().Set("Allow", strings.Join(allow, ", "))
	s.writeError(rw, r, newError(codeMethodNotAllowed,
		"method "+truncate(r.Method, 20)+" is not allowed here; allowed: "+rw.Header().Get("Allow")))
}

func (s *Server) panicked(w http.ResponseWriter, r *http.Request, v any) {
	rw := asRespWriter(w)
	s.logger.Error("panic serving request", "request_id", rw.reqID, "route", rw.route, "panic", v, "stack", string(stack()))
	if rw.status != 0 {
		return // too late to change the answer
	}
	s.writeError(rw, r, internalError(nil))
}

// writeError writes e as the JSON error body with its status. Internal
// causes are logged, never sent.
func (s *Server) writeError(rw *respWriter, r *http.Request, e *apiError) {
	status := e.status()
	if status >= 500 {
		s.logger.Error("internal error", "request_id", rw.reqID, "route", rw.route, "code", e.Code, "error", e.cause)
	}
	b := rw.buf[:0]
	b = append(b, `{"error":`...)
	b = appendErrorObject(b, e, rw.reqID)
	b = append(b, "}\n"...)
	rw.buf = b
	h := rw.Header()
	h["Content-Type"] = []string{jsonContentType}
	h["X-Content-Type-Options"] = []string{nosniff}
	delete(h, "Etag")
	rw.WriteHeader(status)
	rw.Write(b)
}

const nosniff = "nosniff"
