package server

import (
	"context"
	"crypto/tls"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/unitd/unitd/apikey"
	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/internal/forwarded"
	"github.com/unitd/unitd/server/ratelimit"
)

// DefaultMaxBody is the default limit on a request body.
const DefaultMaxBody = 64 << 10

// Config configures a Server. Only Keys is needed to serve conversions;
// every other field has a usable zero value.
type Config struct {
	// Keys supplies the current set of API keys (an account.KeySource, say).
	// Nil refuses every key.
	Keys interface{ Current() *apikey.Set }
	// Env is the environment whose keys are accepted: "live" or "test".
	Env string
	// Limiter limits authenticated requests per key id. Nil: no limit and
	// no RateLimit-* headers.
	Limiter ratelimit.Limiter
	// AuthFailLimiter, when set, counts refused API keys per client address
	// (the host of RemoteAddr). Once an address's bucket is empty, its
	// conversion requests without a valid key get 429 RATE_LIMIT_EXCEEDED
	// until the bucket has a token again; a valid key still gets through.
	AuthFailLimiter ratelimit.Limiter
	// PublicLimiter, when set, limits requests to the routes that need no
	// key (discovery, health, the OpenAPI document, the web pages and
	// their static files and routes) per client address
	// (the host of RemoteAddr): past it they get 429 RATE_LIMIT_EXCEEDED
	// with Retry-After.
	PublicLimiter ratelimit.Limiter
	// PageLimiter limits the conversions of the web pages (POST
	// /web/convert, no key) per client address. Nil: DefaultPageRate in
	// memory.
	PageLimiter ratelimit.Limiter
	// MaxBody limits request bodies, in bytes (DefaultMaxBody if 0).
	MaxBody int64
	// MaxStreamBody limits the body of an NDJSON batch, in bytes
	// (DefaultMaxStreamBody if 0).
	MaxStreamBody int64
	// MaxStreamLines limits the items of an NDJSON batch
	// (DefaultMaxStreamLines if 0).
	MaxStreamLines int
	// MaxStreamLine limits each line of an NDJSON batch, in bytes
	// (DefaultMaxStreamLine if 0): a longer line is a failed INVALID_ITEM
	// and the stream goes on. A stream's line buffer never grows past it,
	// whatever MaxBody is.
	MaxStreamLine int
	// StreamRateWait is how long an NDJSON batch waits in all for its
	// key's rate limit before it ends (DefaultStreamRateWait if 0;
	// negative: it ends at once).
	StreamRateWait time.Duration
	// StreamMinRate is the least rate, in bytes a second, of the body of
	// an NDJSON batch once StreamGrace has passed (DefaultStreamMinRate
	// if 0; negative: none): its deadline is StreamGrace after its start,
	// and one second later per StreamMinRate bytes read.
	StreamMinRate int64
	// StreamGrace is how long the body of an NDJSON batch may take before
	// StreamMinRate applies (DefaultStreamGrace if 0).
	StreamGrace time.Duration
	// MaxStreamsPerKey bounds the NDJSON batches one key has open at once
	// (DefaultMaxStreamsPerKey if 0).
	MaxStreamsPerKey int
	// MaxStreams bounds the NDJSON batches open at once in all (0: half of
	// MaxConns, and no bound when MaxConns is 0 too).
	MaxStreams int
	// Logger receives access logs and internal errors; nil discards them.
	Logger *slog.Logger
	// AccessLog chooses which requests Logger records at INFO (the zero
	// value: every one). Server errors and slow requests always are.
	AccessLog AccessLog
	// Version is the server's version, shown by /v1/health.
	Version string
	// Now returns the current time; nil means time.Now.
	Now func() time.Time
	// KeyStatus, when set, adds the key store's status to /v1/health.
	KeyStatus func() apikey.Status
	// Usage, when set, is told of every authenticated request (after the
	// rate limit let it through). It must not block: the account store's
	// counter adds to an in-memory tally.
	Usage interface {
		Count(keyID string, at time.Time)
	}
	// Units, when set, serves the units of accounts: the graph of a
	// request with a key has its account's units, and /v1/account/units
	// reads and changes them (myunits.go).
	Units AccountUnits
	// Define, when set, compiles the units a request defines for itself
	// ("define"); without it such a request is refused.
	Define Define
	// Account, when set, serves GET and POST /account and everything under
	// /account/ (the account page). Its requests get the request id and the
	// access log like every other.
	Account http.Handler
	// Metrics, when set, records requests, conversions and reloads (see
	// NewMetrics); the admin listener serves them.
	Metrics *Metrics
	// Ready, when set, must return nil for /readyz to answer 200 (the key
	// store is loaded, say); a catalog must be applied as well.
	Ready func() error
	// Limits, when set, adds the rate limiter's state to /v1/health: which
	// backend decides (redis or local) and why.
	Limits func() LimitsStatus

	// Proxies are the reverse proxies whose X-Forwarded-For and
	// X-Forwarded-Proto are believed (see package forwarded): behind them,
	// every limit, log line and audit event sees the client's address, and
	// a request the client sent over HTTPS counts as HTTPS. The zero value
	// believes no one.
	Proxies forwarded.Proxies
	// PublicURL is the address people reach the server at, such as
	// https://unitd.example.com ("": the address each request names). When
	// it is https://, every answer carries Strict-Transport-Security (as
	// does every answer to a request that came over HTTPS).
	PublicURL string
	// TLS, when set, makes Serve speak HTTPS itself with this
	// configuration (its certificates, or GetCertificate).
	TLS *tls.Config

	// MaxConnsPerAddr bounds the connections one client address holds
	// open at once (trusted proxies excepted); past it, new ones are
	// closed at once. 0: no bound.
	MaxConnsPerAddr int
	// MaxConns bounds the connections open at once. Past three quarters
	// of it, idle keep-alive connections are closed, the longest idle
	// first, down to half; at it, with none idle, new connections are
	// closed at once. 0: no bound. unitd serve sizes it from the file
	// descriptor limit.
	MaxConns int

	// Timeouts of Serve; zero values take the defaults below.
	ReadHeaderTimeout time.Duration // 5s
	ReadTimeout       time.Duration // 15s: a whole request, body included
	WriteTimeout      time.Duration // 30s
	IdleTimeout       time.Duration // 120s
	ShutdownTimeout   time.Duration // 15s: in-flight requests get this long
	MaxHeaderBytes    int           // 16 KiB

	// itemSeam, when set, is called with each unit name a conversion or a
	// unit lookup is about to resolve. Tests make it panic, so that the
	// isolation of one item's failure (isolate.go) is proved whatever
	// the engine's bugs of the day are.
	itemSeam func(unit string)
	// streamSleep, when set, is how a stream waits d for its rate limit,
	// or until wake is closed (false): tests move a clock instead.
	streamSleep func(d time.Duration, wake <-chan struct{}) bool
}

// Server serves the unitd HTTP API over the current catalog snapshot.
// ApplyGraph must be called before the handler serves its first request.
type Server struct {
	cfg     Config
	logger  *slog.Logger
	snap    atomic.Pointer[snapshot]
	handler http.Handler
	routes  []route
	fails   *authFailures
	// pageLimiter is Config.PageLimiter or its default.
	pageLimiter ratelimit.Limiter
	// ready is true once a catalog is applied; draining is set when a
	// graceful shutdown begins. /readyz on the admin listener reads both.
	ready, draining atomic.Bool

	inflight atomic.Int64 // requests being served, for the shutdown log
	// httpsPublic is true when PublicURL is https://: every answer
	// carries HSTS.
	httpsPublic bool
	// slow is AccessLog.Slow or its default; sampled counts requests for
	// AccessLogSample.
	slow    time.Duration
	sampled atomic.Uint64
	// conns guards the listener of Serve, once it runs.
	conns atomic.Pointer[connGuard]

	// streams are the NDJSON batches open now (streamset.go).
	streams streamSet

	// streamsEnd is cancelled (endStreams) when the NDJSON streams in
	// flight must end: half of the shutdown timeout into a shutdown.
	streamsEnd context.Context
	endStreams context.CancelFunc

	mu         sync.Mutex // guards lastReload and reloading
	lastReload *reloadStatus
	reloading  time.Time // start of the reload now running; zero if none
}

type reloadStatus struct {
	At  time.Time
	Err error
}

// New returns a Server for cfg.
func New(cfg Config) *Server {
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = DefaultMaxBody
	}
	if cfg.MaxStreamBody <= 0 {
		cfg.MaxStreamBody = DefaultMaxStreamBody
	}
	if cfg.MaxStreamLines <= 0 {
		cfg.MaxStreamLines = DefaultMaxStreamLines
	}
	if cfg.MaxStreamLine <= 0 {
		cfg.MaxStreamLine = DefaultMaxStreamLine
	}
	switch {
	case cfg.StreamRateWait == 0:
		cfg.StreamRateWait = DefaultStreamRateWait
	case cfg.StreamRateWait < 0:
		cfg.StreamRateWait = 0
	}
	switch {
	case cfg.StreamMinRate == 0:
		cfg.StreamMinRate = DefaultStreamMinRate
	case cfg.StreamMinRate < 0:
		cfg.StreamMinRate = 0
	}
	if cfg.StreamGrace <= 0 {
		cfg.StreamGrace = DefaultStreamGrace
	}
	if cfg.MaxStreamsPerKey <= 0 {
		cfg.MaxStreamsPerKey = DefaultMaxStreamsPerKey
	}
	if cfg.MaxStreams <= 0 && cfg.MaxConns > 0 {
		cfg.MaxStreams = max(cfg.MaxConns/2, 1)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Version == "" {
		cfg.Version = "dev"
	}
	s := &Server{cfg: cfg, logger: cfg.Logger, httpsPublic: strings.HasPrefix(cfg.PublicURL, "https://"), slow: cfg.AccessLog.Slow}
	if s.slow <= 0 {
		s.slow = DefaultSlowRequest
	}
	s.streamsEnd, s.endStreams = context.WithCancel(context.Background())
	if s.logger == nil {
		s.logger = slog.New(slog.DiscardHandler)
	}
	if cfg.AuthFailLimiter != nil {
		s.fails = newAuthFailures(cfg.AuthFailLimiter)
	}
	s.pageLimiter = cfg.PageLimiter
	if s.pageLimiter == nil {
		s.pageLimiter = ratelimit.NewMemory(DefaultPageRate)
	}
	s.routes = s.routeTable()
	s.handler = s.newHandler()
	return s
}

// Handler returns the HTTP handler of the API.
func (s *Server) Handler() http.Handler { return s.handler }

// ApplyGraph makes g the catalog of every request that starts from now on;
// requests already running finish on the snapshot they started with. The
// discovery documents and the OpenAPI description of g are rendered in the
// background, starting now, so that a server starts listening without
// waiting for them; a request that needs one before it is ready waits for
// it (snapshot.docs).
func (s *Server) ApplyGraph(g *engine.Graph) {
	now := s.cfg.Now()
	sn := s.newSnapshot(g, now)
	s.snap.Store(sn)
	s.cfg.Metrics.applied(now)
	s.ready.Store(true)
	go sn.docs()
}

// ReportReload records the outcome of a catalog reload attempt for
// /v1/health. A failed reload leaves the current graph serving and the
// status "ok".
func (s *Server) ReportReload(at time.Time, err error) {
	s.cfg.Metrics.reload(err == nil)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lastReload = &reloadStatus{At: at, Err: err}
	s.reloading = time.Time{}
}

// ReportReloadStart records that a catalog reload started at at; health
// shows it as in progress until ReportReload.
func (s *Server) ReportReloadStart(at time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reloading = at
}

func (s *Server) reloadingSince() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reloading
}

func (s *Server) reloadStatus() *reloadStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastReload
}
