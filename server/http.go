package server

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/unitd/unitd/engine/answer"
	"github.com/unitd/unitd/internal/forwarded"
)

// respWriter records what was written, for the access log, and carries the
// per-request scratch space. It is pooled.
type respWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
	route  string // route pattern, "" when no route matched
	reqID  string
	keyID  string // id of the authenticated key, for the access log
	idHdr  [1]string
	hsts   [1]string // Strict-Transport-Security, when sent
	// rlHdr holds the three RateLimit header values: like idHdr, slices
	// of the pooled writer rather than new ones per request (net/http
	// copies the header map when the status is written).
	rlHdr [3][1]string
	buf   []byte        // response scratch
	body  []byte        // request body
	items []conversion  // batch scratch
	ans   answer.Answer // the answer of a conversion, its storage reused
	// stream is what an NDJSON batch reports for the access log and the
	// metrics; its end is "" for every other request.
	stream streamStats
}

func (w *respWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *respWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the connection.
func (w *respWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

var writerPool = sync.Pool{New: func() any { return new(respWriter) }}

// maxPooled is the largest scratch buffer kept for reuse.
const maxPooled = 256 << 10

// asRespWriter finds the respWriter serve put in place.
func asRespWriter(w http.ResponseWriter) *respWriter {
	if rw, ok := w.(*respWriter); ok {
		return rw
	}
	rw := &respWriter{ResponseWriter: w, reqID: newRequestID()}
	return rw
}

// serve is the outermost handler: request id, routing on the escaped path
// when escapes matter, and the access log.
func (s *Server) serve(router http.Handler, w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	s.inflight.Add(1)
	defer s.inflight.Add(-1)
	rw := writerPool.Get().(*respWriter)
	rw.ResponseWriter = w
	rw.reqID = requestID(r.Header["X-Request-Id"])
	rw.idHdr[0] = rw.reqID
	w.Header()["X-Request-Id"] = rw.idHdr[:]
	if !s.cfg.Proxies.Empty() {
		r = s.cfg.Proxies.Resolve(r) // the client's address and scheme
	}
	if s.httpsPublic || r.TLS != nil || (!s.cfg.Proxies.Empty() && forwarded.HTTPS(r)) {
		rw.hsts[0] = hsts
		w.Header()["Strict-Transport-Security"] = rw.hsts[:]
	}

	if r.URL.RawPath != "" {
		// Route /v1/units/km%2Fh as one segment; param unescapes it.
		r2 := *r
		u := *r.URL
		u.Path = u.RawPath
		r2.URL = &u
		r = &r2
	}
	router.ServeHTTP(rw, r)
	took := time.Since(start)
	stream := rw.stream.end != ""
	if stream {
		// A stream's duration says how long the client sent, not how
		// fast unitd answered: it stays out of the latency histogram,
		// and out of the slow requests.
		s.cfg.Metrics.streamEnded(rw.route, r.Method, rw.status, rw.stream.end)
	} else {
		s.cfg.Metrics.request(rw.route, r.Method, rw.status, took)
	}

	logTook := took
	if stream {
		logTook = 0
	}
	if log, slow := s.logged(rw.status, logTook); log {
		s.logRequest(r, rw, took, slow)
	}
	s.release(rw)
}

// logRequest writes the access log line of a request: at INFO, or WARN
// when it was slow or answered with a server error.
func (s *Server) logRequest(r *http.Request, rw *respWriter, took time.Duration, slow bool) {
	level := slog.LevelInfo
	if slow || rw.status >= 500 {
		level = slog.LevelWarn
	}
	if !s.logger.Enabled(r.Context(), level) {
		return
	}
	route := rw.route
	if route == "" {
		route = "unmatched"
	}
	attrs := [12]slog.Attr{
		slog.String("request_id", rw.reqID),
		slog.String("method", r.Method),
		slog.String("route", route),
		slog.Int("status", rw.status),
		slog.Float64("duration_ms", float64(took.Microseconds())/1000),
		slog.Int64("bytes", rw.bytes),
	}
	n := 6
	if slow {
		attrs[n] = slog.Bool("slow", true)
		n++
	}
	if rw.keyID != "" { // a key was authenticated
		attrs[n] = slog.String("key_id", rw.keyID)
		n++
	}
	if st := rw.stream; st.end != "" {
		// One line per stream, however many lines it had.
		attrs[n] = slog.Int("items", st.items)
		attrs[n+1] = slog.Int("succeeded", st.succeeded)
		attrs[n+2] = slog.Int("failed", st.items-st.succeeded)
		attrs[n+3] = slog.String("end", st.end)
		n += 4
	}
	s.logger.LogAttrs(r.Context(), level, "request", attrs[:n]...)
}

func (s *Server) release(rw *respWriter) {
	rw.ResponseWriter = nil
	rw.status, rw.bytes, rw.route, rw.reqID, rw.keyID, rw.idHdr[0] = 0, 0, "", "", "", ""
	rw.rlHdr = [3][1]string{}
	rw.stream = streamStats{}
	if cap(rw.buf) > maxPooled {
		rw.buf = nil
	}
	if cap(rw.body) > maxPooled {
		rw.body = nil
	}
	clear(rw.items)
	rw.items = rw.items[:0]
	// The answer lets go of the request's graph and body; its digits'
	// storage stays.
	rw.ans = answer.Answer{Digits: rw.ans.Digits[:0]}
	writerPool.Put(rw)
}

// hsts tells browsers to come back over HTTPS only, for a year.
const hsts = "max-age=31536000"

// maxRequestID is the longest X-Request-Id echoed.
const maxRequestID = 128

// requestID echoes the caller's X-Request-Id when it is one value of 1 to
// maxRequestID printable ASCII characters, and makes a fresh one otherwise.
func requestID(h []string) string {
	if len(h) == 1 && len(h[0]) >= 1 && len(h[0]) <= maxRequestID {
		v := h[0]
		ok := true
		for i := 0; i < len(v); i++ {
			if v[i] < 0x20 || v[i] > 0x7e {
				ok = false
				break
			}
		}
		if ok {
			return v
		}
	}
	return newRequestID()
}

// newRequestID returns 32 random hex digits. Request ids need to be unique,
// not secret, so the runtime's fast generator is enough.
func newRequestID() string {
	var b [32]byte
	a, c := rand.Uint64(), rand.Uint64()
	for i := 0; i < 16; i++ {
		b[i] = hexDigits[a&0xf]
		b[16+i] = hexDigits[c&0xf]
		a >>= 4
		c >>= 4
	}
	return string(b[:])
}

// etagMatch reports whether an If-None-Match header matches etag, by weak
// comparison as RFC 9110 prescribes for If-None-Match.
func etagMatch(header, etag string) bool {
	if header == "" {
		return false
	}
	for part := range strings.SplitSeq(header, ",") {
		part = strings.TrimSpace(part)
		if part == "*" {
			return true
		}
		part = strings.TrimPrefix(part, "W/")
		if part == etag {
			return true
		}
	}
	return false
}

func stack() []byte { return debug.Stack() }

// Serve timeouts and limits.
const (
	defaultReadHeaderTimeout = 5 * time.Second
	defaultReadTimeout       = 15 * time.Second
	defaultWriteTimeout      = 30 * time.Second
	defaultIdleTimeout       = 120 * time.Second
	defaultShutdownTimeout   = 15 * time.Second
	defaultMaxHeaderBytes    = 16 << 10
)

func orDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// HTTPServer returns an http.Server serving handler with this Server's
// timeouts, header limit and error log: what Serve runs, for anyone who
// must serve something else the same way (a benchmark's bare handler).
func (s *Server) HTTPServer(handler http.Handler) *http.Server {
	maxHeader := s.cfg.MaxHeaderBytes
	if maxHeader <= 0 {
		maxHeader = defaultMaxHeaderBytes
	}
	return &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: orDefault(s.cfg.ReadHeaderTimeout, defaultReadHeaderTimeout),
		ReadTimeout:       orDefault(s.cfg.ReadTimeout, defaultReadTimeout),
		WriteTimeout:      orDefault(s.cfg.WriteTimeout, defaultWriteTimeout),
		IdleTimeout:       orDefault(s.cfg.IdleTimeout, defaultIdleTimeout),
		MaxHeaderBytes:    maxHeader,
		ErrorLog:          slog.NewLogLogger(s.logger.Handler(), slog.LevelWarn),
	}
}

// Serve serves the API on ln until ctx is cancelled, then shuts down
// gracefully: it stops accepting, lets in-flight requests finish for up to
// ShutdownTimeout and then closes the remaining connections. It returns nil
// after a clean shutdown.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	srv := s.HTTPServer(s.Handler())
	srv.BaseContext = func(net.Listener) context.Context { return context.WithoutCancel(ctx) }
	guard := newConnGuard(ln, s.cfg.MaxConnsPerAddr, s.cfg.MaxConns, s.cfg.Proxies.Trusts, s.logger)
	guard.onRefuse = s.cfg.Metrics.connRefused
	s.conns.Store(guard)
	srv.ConnState = guard.connState
	errc := make(chan error, 1)
	if s.cfg.TLS != nil {
		// net/http must see the TLS connection itself (for r.TLS and
		// HTTP/2), so its few refusals before routing stay plain text.
		srv.TLSConfig = s.cfg.TLS.Clone()
		go func() { errc <- srv.ServeTLS(guard, "", "") }()
	} else {
		go func() { errc <- srv.Serve(earlyListener{Listener: guard, logger: s.logger}) }()
	}
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	// Draining: /readyz answers 503 from now on, so that a load balancer
	// stops sending new requests while in-flight ones finish.
	s.draining.Store(true)
	stop := time.Now()
	inflight := s.inflight.Load()
	s.logger.Info("shutting down", "reason", context.Cause(ctx).Error(), "in_flight", inflight)
	timeout := orDefault(s.cfg.ShutdownTimeout, defaultShutdownTimeout)
	sctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	// NDJSON streams in flight get half of the timeout to finish; then
	// each ends with an error line and its meta line (stream.go).
	endStreams := time.AfterFunc(timeout/2, s.endStreams)
	defer endStreams.Stop()
	err := srv.Shutdown(sctx)
	if err != nil {
		srv.Close()
	}
	if serr := <-errc; serr != nil && !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	attrs := []any{"drained", inflight - s.inflight.Load(), "abandoned", s.inflight.Load(),
		"duration_ms", float64(time.Since(stop).Microseconds()) / 1000}
	if err != nil {
		attrs = append(attrs, "err", err.Error())
	}
	s.logger.Info("shut down", attrs...)
	return err
}
