package server

import (
	"net"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/server/errcode"
	"github.com/unitd/unitd/server/ratelimit"
	"github.com/unitd/unitd/web"
)

// The pages for people (package web) are served beside the API. Their
// conversions go through POST /web/convert: the handler of POST
// /v1/convert, reached without a key but only from a same-origin page and
// within a per-address budget. It is page machinery, not part of the API
// for programs, so /openapi.json does not describe it: programs use
// /v1/convert with a key, and the page route may change with the pages.

// DefaultPageRate is the budget of POST /web/convert per client address
// when Config.PageLimiter is nil.
var DefaultPageRate = ratelimit.Rate{N: 60, Per: time.Minute}

const pageConvertPath = "/web/convert"

// codeCrossOrigin refuses a page-route request that does not come from one
// of this server's own pages.
const codeCrossOrigin = errcode.CrossOrigin

// pageRoutes are the API handlers the pages call; they are not in the
// route table, whose routes the OpenAPI document describes.
func (s *Server) pageRoutes() []route {
	return []route{
		{http.MethodPost, pageConvertPath, false, s.convertPOST, opDoc{}},
	}
}

// mountPages registers the pages and the page routes on r.
func (s *Server) mountPages(r interface {
	Handler(method, path string, h http.Handler)
}) {
	pages := web.New(web.Config{Graph: s.graph, Version: s.cfg.Version, AccountPage: s.cfg.Account != nil,
		PublicURL: s.cfg.PublicURL, Charge: s.chargePublic, OpenAPI: s.openAPIDocument})
	for _, p := range web.Routes {
		var h http.Handler = pages
		if p == docsPath && s.cfg.PublicURL == "" {
			h = listenHost(h)
		}
		h = s.routed(p, h)
		r.Handler(http.MethodGet, p, h)
		r.Handler(http.MethodHead, p, h)
	}
	for _, rt := range s.pageRoutes() {
		r.Handler(rt.method, rt.path, s.pageGuard(s.wrap(rt)))
	}
}

// docsPath is the API reference page, whose curl examples name the
// server's address.
const docsPath = "/docs"

// listenHost serves the pages of h as if the request had named the
// address it reached the server at (the listener's own, a local address
// of the server) rather than its Host header: without --public-url the
// examples of /docs name the listen address, as the flag's help says,
// and never what a client put in Host (an attacker's host in a page that
// tells people where to send their keys), and a Host per request cannot
// fill the page cache with copies.
func listenHost(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r2 := *r
		r2.Host = "localhost"
		if a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
			r2.Host = a.String()
		}
		h.ServeHTTP(w, &r2)
	})
}

// graph is the catalog being served now, for the pages.
func (s *Server) graph() *engine.Graph {
	if sn := s.snap.Load(); sn != nil {
		return sn.graph
	}
	return nil
}

// routed names the route in the access log and, like every route that
// needs no key, counts the request against the client address's public
// budget (Config.PublicLimiter).
func (s *Server) routed(pattern string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rw := asRespWriter(w)
		rw.route = pattern
		if s.cfg.PublicLimiter != nil {
			if e := s.limitPublic(rw, r); e != nil {
				s.writeError(rw, r, e)
				return
			}
		}
		if s.snap.Load() == nil {
			s.writeError(rw, r, internalError(errNoGraph))
			return
		}
		h.ServeHTTP(rw, r)
	})
}

// chargePublic spends n more tokens of the client's public budget for a
// page that cost more than an ordinary request (see web.Config.Charge),
// when the public limiter can: a page that did not come from the cache is
// paid for by its cost, so no address can spend more of the server than
// its budget buys.
func (s *Server) chargePublic(r *http.Request, n int) {
	if c, ok := s.cfg.PublicLimiter.(ratelimit.Charger); ok {
		c.Charge(clientAddr(r), n)
	}
}

// crossOrigin is the standard library's CSRF check (Sec-Fetch-Site, then
// Origin against Host).
var crossOrigin = http.NewCrossOriginProtection()

// pageGuard admits only requests from this server's own pages, within the
// per-address budget. Checks run in the contract's order: route, then the
// stand-in for authentication (same origin), then the rate limit; body
// checks follow in the handler.
func (s *Server) pageGuard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rw := asRespWriter(w)
		rw.route = pageConvertPath
		if !sameOrigin(r) {
			s.writeError(rw, r, newError(codeCrossOrigin,
				"this route serves the pages of this server and accepts only their same-origin requests; programs use /v1/convert with an API key"))
			return
		}
		d := s.pageLimiter.Take(clientAddr(r))
		h := rw.Header()
		h["Ratelimit-Limit"] = []string{strconv.Itoa(d.Limit)}
		h["Ratelimit-Remaining"] = []string{strconv.Itoa(d.Remaining)}
		h["Ratelimit-Reset"] = []string{strconv.FormatInt(d.ResetSeconds(), 10)}
		if !d.Allowed {
			h["Retry-After"] = []string{strconv.FormatInt(max(d.RetryAfterSeconds(), 1), 10)}
			s.writeError(rw, r, newError(codeRateLimitExceeded,
				"too many conversions from this address ("+strconv.Itoa(d.Limit)+" at most in a row); retry after "+h["Retry-After"][0]+" s"))
			return
		}
		next.ServeHTTP(rw, r)
	})
}

// sameOrigin reports whether r comes from a page of this origin. A browser
// says so with Sec-Fetch-Site: same-origin or, where that header is
// missing, with an Origin naming this host. A request with neither (curl,
// a program) is refused too: without a key, this route is for pages only.
func sameOrigin(r *http.Request) bool {
	if crossOrigin.Check(r) != nil {
		return false
	}
	switch r.Header.Get("Sec-Fetch-Site") {
	case "same-origin":
		return true
	case "":
	default:
		return false
	}
	o := r.Header.Get("Origin")
	if o == "" || o == "null" {
		return false
	}
	u, err := url.Parse(o)
	return err == nil && u.Host != "" && u.Host == r.Host
}
