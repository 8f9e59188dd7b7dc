//go:build !unitd_lite

package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/unitd/unitd/account"
	"github.com/unitd/unitd/accountunits"
	"github.com/unitd/unitd/apikey"
	"github.com/unitd/unitd/catalog"
	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/internal/forwarded"
	"github.com/unitd/unitd/internal/hashworker"
	"github.com/unitd/unitd/internal/promtext"
	"github.com/unitd/unitd/locale"
	"github.com/unitd/unitd/server"
	"github.com/unitd/unitd/server/accountweb"
	"github.com/unitd/unitd/server/ratelimit"
	"github.com/unitd/unitd/server/ratelimit/redislimit"
	"github.com/unitd/unitd/store"
)

// serveConfig is what `unitd serve` runs with, from flags and UNITD_*
// environment variables.
type serveConfig struct {
	Addr          string
	Catalog       string // directory to watch; "" serves the embedded catalog
	Store         string // --store: SQLite file or postgres:// URL
	Keys          string // --keys: JSON key file to import, or the store
	Env           string
	RateLimit     ratelimit.Rate
	AuthFailLimit ratelimit.Rate
	PublicLimit   ratelimit.Rate // zero: public routes are not limited
	PageLimit     ratelimit.Rate
	MaxBody       int64
	DevKey        bool
	LogLevel      slog.Level
	AdminAddr     string // "off": no admin listener
	Redis         string // shared rate limits; "" limits in this process
	RedisTimeout  time.Duration
	// PasswordMemory is the memory budget of the Argon2id hashes of
	// sign-ins and set-ups running at once.
	PasswordMemory int64
	// PublicURL is the address people reach the server at ("" when it is
	// the listen address); https:// makes cookies Secure and adds HSTS.
	PublicURL string
	// Proxies are the reverse proxies whose forwarding headers are
	// believed (--trusted-proxies).
	Proxies forwarded.Proxies
	// TLSCert and TLSKey, when set, make the server speak HTTPS itself.
	TLSCert, TLSKey string
	// AccessLog chooses which requests are logged (--access-log,
	// --slow-request).
	AccessLog server.AccessLog
	// MaxConnsPerAddr and MaxConns bound the open connections per client
	// address and in all (0: sized from the file limit at start).
	MaxConnsPerAddr, MaxConns int
	// PasswordWorker computes the hashes in a helper process at the lowest
	// CPU priority (this binary, `unitd password-worker`); the command line
	// always does, tests that build a serveConfig hash in process.
	PasswordWorker bool

	// Limits of an NDJSON batch: its body, its lines, each line, how long
	// it waits for the rate limit, the least rate of its body (negative:
	// none), and how many are open at once per key and in all (0: half of
	// MaxConns).
	MaxStreamBody    int64
	MaxStreamLines   int
	MaxStreamLine    int
	StreamRateWait   time.Duration // negative: a stream never waits
	StreamMinRate    int64
	MaxStreamsPerKey int
	MaxStreams       int
}

// storeFlags are the --store and --keys serve was given: the server opens
// its store as every other command does (storeFlags.open), made if it is
// not there.
func (cfg serveConfig) storeFlags() storeFlags {
	return storeFlags{store: cfg.Store, keys: cfg.Keys}
}

var serveCommand = &command{
	name:     "serve",
	synopsis: "[flags]",
	summary:  "run the HTTP API",
	help:     "Serves the unitd HTTP API. Every flag also reads an environment variable.",
	store:    createStore,
	run:      runServe,
}

func runServe(c *call) error {
	stdout, stderr := c.stdout, c.stderr
	cfg, err := serveFlags(c)
	if err != nil {
		return badArgs(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	logger := slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: cfg.LogLevel}))
	if limit, ok := raiseFileLimit(); ok {
		if cfg.MaxConns == 0 {
			cfg.MaxConns = connBound(limit)
		}
		logger.Info("open-file limit", "limit", limit, "max_conns", cfg.MaxConns, "max_conns_per_addr", cfg.MaxConnsPerAddr)
	} else if cfg.MaxConns == 0 {
		cfg.MaxConns = connBound(0)
	}
	// The addresses are taken first, so that a port in use is reported
	// at once, naming its flag, before any start-up work.
	ln, err := listen("--addr", cfg.Addr)
	if err != nil {
		return err
	}
	var aln net.Listener
	if cfg.AdminAddr != "off" {
		if aln, err = listen("--admin-addr", cfg.AdminAddr); err != nil {
			ln.Close()
			return err
		}
	}
	closeListeners := func() {
		ln.Close()
		if aln != nil {
			aln.Close()
		}
	}
	// Start-up (the first catalog load above all) runs aside, so that
	// SIGINT and SIGTERM still end the process while it runs.
	type started struct {
		d   *daemon
		err error
	}
	startc := make(chan started, 1)
	go func() {
		d, err := newDaemon(cfg, logger, stdout)
		startc <- started{d, err}
	}()
	var d *daemon
	select {
	case <-ctx.Done():
		closeListeners()
		return errors.New("interrupted during start-up")
	case st := <-startc:
		if st.err != nil {
			closeListeners()
			return st.err
		}
		d = st.d
	}
	// Decode the CLDR data before the first request asks for a locale.
	go locale.Warm()
	if aln != nil {
		logger.Info("admin listening", "addr", "http://"+aln.Addr().String(), "paths", "/metrics /livez /readyz")
		go func() {
			if err := serveAdmin(ctx, aln, d.srv.AdminHandler(d.registry), logger); err != nil {
				logger.Error("admin listener stopped", "err", err)
			}
		}()
	}
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	go func() {
		for range hup {
			d.reload()
		}
	}()
	return d.run(ctx, ln)
}

// serveFlags defines the flags of unitd serve on c's flag set, parses them
// and returns the configuration they make.
func serveFlags(c *call) (serveConfig, error) {
	fs := c.flags
	addr := fs.String("addr", envDefault("UNITD_ADDR", "127.0.0.1:8080"), "listen `address` (env UNITD_ADDR)")
	dir := fs.String("catalog", envDefault("UNITD_CATALOG", ""), "catalog `directory` to serve and hot-reload; default: the embedded catalog (env UNITD_CATALOG)")
	env := fs.String("env", envDefault("UNITD_ENV", apikey.EnvTest), "environment whose keys are accepted: test or live (env UNITD_ENV)")
	rate := fs.String("rate-limit", envDefault("UNITD_RATE_LIMIT", "600/m"), "requests per key: `N/s`, N/m or N/h (env UNITD_RATE_LIMIT)")
	authFail := fs.String("auth-fail-limit", envDefault("UNITD_AUTH_FAIL_LIMIT", "30/m"), "refused keys per client address before 429: `N/s`, N/m or N/h (env UNITD_AUTH_FAIL_LIMIT)")
	public := fs.String("public-rate-limit", envDefault("UNITD_PUBLIC_RATE_LIMIT", "600/m"), "requests per client address to the routes that need no key (discovery, health, openapi.json): `N/s`, N/m or N/h (env UNITD_PUBLIC_RATE_LIMIT)")
	pageLimit := fs.String("page-rate-limit", envDefault("UNITD_PAGE_RATE_LIMIT", "60/m"), "conversions of the web pages per client address (no key): `N/s`, N/m or N/h (env UNITD_PAGE_RATE_LIMIT)")
	maxBody := fs.String("max-body", envDefault("UNITD_MAX_BODY", "64KiB"), "largest request `size` (an NDJSON batch has limits of its own, below): bytes, or with KiB, MiB, GiB, KB, MB, GB (env UNITD_MAX_BODY)")
	maxStreamBody := fs.String("max-stream-body", envDefault("UNITD_MAX_STREAM_BODY", sizeText(server.DefaultMaxStreamBody)), "largest body of an NDJSON batch (POST /v1/batch, application/x-ndjson): a `size` as for --max-body (env UNITD_MAX_STREAM_BODY)")
	maxStreamLines := fs.String("max-stream-lines", envDefault("UNITD_MAX_STREAM_LINES", strconv.Itoa(server.DefaultMaxStreamLines)), "most lines (items) of an NDJSON batch: a `count` (env UNITD_MAX_STREAM_LINES)")
	maxStreamLine := fs.String("max-stream-line", envDefault("UNITD_MAX_STREAM_LINE", sizeText(server.DefaultMaxStreamLine)), "longest line of an NDJSON batch, a `size` as for --max-body: a longer line is a failed INVALID_ITEM and the stream goes on; it bounds each stream's line buffer (env UNITD_MAX_STREAM_LINE)")
	streamRateWait := fs.String("stream-rate-wait", envDefault("UNITD_STREAM_RATE_WAIT", server.DefaultStreamRateWait.String()), "how long an NDJSON batch that meets its key's rate limit waits for it in all before it ends with RATE_LIMIT_EXCEEDED and resume_from: a `duration`; 0 ends it at once (env UNITD_STREAM_RATE_WAIT)")
	streamMinRate := fs.String("stream-min-rate", envDefault("UNITD_STREAM_MIN_RATE", strconv.Itoa(server.DefaultStreamMinRate)), "least rate of the body of an NDJSON batch after its first "+server.DefaultStreamGrace.String()+", a `size` per second as for --max-body: a slower one ends with REQUEST_TIMEOUT and resume_from; 0 for none (env UNITD_STREAM_MIN_RATE)")
	maxStreamsPerKey := fs.String("max-streams-per-key", envDefault("UNITD_MAX_STREAMS_PER_KEY", strconv.Itoa(server.DefaultMaxStreamsPerKey)), "NDJSON batches one key may have open at once; past it 429: a `count` (env UNITD_MAX_STREAMS_PER_KEY)")
	maxStreams := fs.String("max-streams", envDefault("UNITD_MAX_STREAMS", "0"), "NDJSON batches open at once in all; past it 429: a `count`; 0 for half of --max-conns, so that streams never take the connections everyone else needs (env UNITD_MAX_STREAMS)")
	devKey := fs.Bool("dev-key", envDefault("UNITD_DEV_KEY", "") == "true", "for make run: create the account \"dev\" and its user dev@localhost if missing, print a set-up link for them and a fresh test key (env UNITD_DEV_KEY=true)")
	logLevel := fs.String("log-level", envDefault("UNITD_LOG_LEVEL", "info"), "log `level`: debug, info, warn, error (env UNITD_LOG_LEVEL)")
	adminAddr := fs.String("admin-addr", envDefault("UNITD_ADMIN_ADDR", defaultAdminAddr), "`address` of the admin listener (/metrics, /livez, /readyz), never the public one; off to disable (env UNITD_ADMIN_ADDR)")
	redisURL := fs.String("redis", envDefault("UNITD_REDIS", ""), "Redis `URL` (redis://host:6379/0, unix:///path) that shares per-key rate limits among replicas (env UNITD_REDIS)")
	pwMemory := fs.String("password-memory", envDefault("UNITD_PASSWORD_MEMORY", "160MiB"), "memory `size` of password hashing: the helper process that hashes stays under it, 32 MiB its own and 64 MiB for each sign-in checked at once; more sign-ins wait briefly, then get 503 (env UNITD_PASSWORD_MEMORY)")
	publicURL := fs.String("public-url", envDefault("UNITD_PUBLIC_URL", ""), "`URL` people reach the server at, such as https://unitd.example.com behind a proxy that ends TLS: links and /docs use it, and https:// makes cookies Secure and adds Strict-Transport-Security; default: the listen address (env UNITD_PUBLIC_URL)")
	proxies := fs.String("trusted-proxies", envDefault("UNITD_TRUSTED_PROXIES", ""), "reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed: comma-separated `addresses or CIDR prefixes`; default none (env UNITD_TRUSTED_PROXIES)")
	tlsCert := fs.String("tls-cert", envDefault("UNITD_TLS_CERT", ""), "PEM certificate `FILE` (chain included) to serve HTTPS with, with --tls-key; reread on SIGHUP (env UNITD_TLS_CERT)")
	tlsKey := fs.String("tls-key", envDefault("UNITD_TLS_KEY", ""), "PEM private key `FILE` of --tls-cert (env UNITD_TLS_KEY)")
	accessLog := fs.String("access-log", envDefault("UNITD_ACCESS_LOG", "errors"), "which requests get a log line: all, errors (answers of 400 and above), sample:N (one in N) or off; server errors and slow requests always do (env UNITD_ACCESS_LOG)")
	slowRequest := fs.Duration("slow-request", durationDefault("UNITD_SLOW_REQUEST", server.DefaultSlowRequest), "a request that takes this long is logged whatever --access-log says (env UNITD_SLOW_REQUEST)")
	perAddr := fs.Int("max-conns-per-addr", intDefault("UNITD_MAX_CONNS_PER_ADDR", 256), "open connections one client address may hold (trusted proxies excepted); 0 for no bound (env UNITD_MAX_CONNS_PER_ADDR)")
	maxConns := fs.Int("max-conns", intDefault("UNITD_MAX_CONNS", 0), "open connections in all; past three quarters idle ones are closed; 0 sizes it from the open-file limit, raised at start (env UNITD_MAX_CONNS)")
	redisTimeout := fs.Duration("redis-timeout", durationDefault("UNITD_REDIS_TIMEOUT", 100*time.Millisecond), "longest wait for Redis on a request before this replica limits on its own (env UNITD_REDIS_TIMEOUT)")
	pos, err := c.parse()
	if err != nil {
		return serveConfig{}, err
	}
	if len(pos) > 0 {
		return serveConfig{}, fmt.Errorf("unexpected argument %q", pos[0])
	}
	cfg := serveConfig{Addr: *addr, Catalog: *dir, Store: c.store.store, Keys: c.store.keys, Env: *env, DevKey: *devKey, AdminAddr: *adminAddr, Redis: *redisURL, RedisTimeout: *redisTimeout, PasswordWorker: true}
	if err := checkAdminAddr(cfg.AdminAddr, cfg.Addr); err != nil {
		return cfg, err
	}
	if *publicURL != "" {
		if cfg.PublicURL, err = parsePublicURL(*publicURL); err != nil {
			return cfg, fmt.Errorf("--public-url: %w", err)
		}
	}
	if cfg.Proxies, err = forwarded.ParseProxies(*proxies); err != nil {
		return cfg, fmt.Errorf("--trusted-proxies: %w", err)
	}
	if err := checkTLSFlags(*tlsCert, *tlsKey); err != nil {
		return cfg, err
	}
	cfg.TLSCert, cfg.TLSKey = *tlsCert, *tlsKey
	if *perAddr < 0 || *maxConns < 0 {
		return cfg, errors.New("--max-conns-per-addr and --max-conns must not be negative")
	}
	cfg.MaxConnsPerAddr, cfg.MaxConns = *perAddr, *maxConns
	if !apikey.ValidEnv(cfg.Env) {
		return cfg, fmt.Errorf("--env must be test or live, not %q", cfg.Env)
	}
	if cfg.RateLimit, err = ratelimit.ParseRate(*rate); err != nil {
		return cfg, fmt.Errorf("--rate-limit: %w", err)
	}
	if cfg.AuthFailLimit, err = ratelimit.ParseRate(*authFail); err != nil {
		return cfg, fmt.Errorf("--auth-fail-limit: %w", err)
	}
	if cfg.PublicLimit, err = ratelimit.ParseRate(*public); err != nil {
		return cfg, fmt.Errorf("--public-rate-limit: %w", err)
	}
	if cfg.PageLimit, err = ratelimit.ParseRate(*pageLimit); err != nil {
		return cfg, fmt.Errorf("--page-rate-limit: %w", err)
	}
	if cfg.MaxBody, err = parseSize(*maxBody); err != nil {
		return cfg, fmt.Errorf("--max-body: %w", err)
	}
	if cfg.PasswordMemory, err = parseSize(*pwMemory); err != nil {
		return cfg, fmt.Errorf("--password-memory: %w", err)
	}
	if _, err := account.NewHasher(account.HasherConfig{Memory: hashBudget(cfg.PasswordMemory)}); err != nil {
		return cfg, fmt.Errorf("--password-memory %s is too small: the password worker needs %d MiB of its own and %d MiB for each hash, so at least %dMiB",
			*pwMemory, hashworker.Overhead>>20, account.DefaultParams.Memory>>10, (hashworker.Overhead+int64(account.DefaultParams.Memory)<<10)>>20)
	}
	if cfg.AccessLog, err = server.ParseAccessLog(*accessLog); err != nil {
		return cfg, fmt.Errorf("--access-log: %w", err)
	}
	if *slowRequest <= 0 {
		return cfg, errors.New("--slow-request must be positive")
	}
	cfg.AccessLog.Slow = *slowRequest
	if cfg.MaxStreamBody, err = parseSize(*maxStreamBody); err != nil {
		return cfg, fmt.Errorf("--max-stream-body: %w", err)
	}
	if cfg.MaxStreamLines, err = strconv.Atoi(*maxStreamLines); err != nil || cfg.MaxStreamLines < 1 {
		return cfg, fmt.Errorf("--max-stream-lines: %q is not a whole number of at least 1", *maxStreamLines)
	}
	line, err := parseSize(*maxStreamLine)
	if err != nil || line > 1<<30 {
		return cfg, fmt.Errorf("--max-stream-line: %q is not a size from 1 byte to 1GiB", *maxStreamLine)
	}
	cfg.MaxStreamLine = int(line)
	if cfg.StreamRateWait, err = time.ParseDuration(*streamRateWait); err != nil || cfg.StreamRateWait < 0 {
		return cfg, fmt.Errorf("--stream-rate-wait: %q is not a duration such as 10s, or 0", *streamRateWait)
	}
	if cfg.StreamRateWait == 0 {
		cfg.StreamRateWait = -1 // the server's zero is its default
	}
	if strings.TrimSpace(*streamMinRate) == "0" {
		cfg.StreamMinRate = -1
	} else if cfg.StreamMinRate, err = parseSize(*streamMinRate); err != nil {
		return cfg, fmt.Errorf("--stream-min-rate: %w, or 0", err)
	}
	if cfg.MaxStreamsPerKey, err = strconv.Atoi(*maxStreamsPerKey); err != nil || cfg.MaxStreamsPerKey < 1 {
		return cfg, fmt.Errorf("--max-streams-per-key: %q is not a whole number of at least 1", *maxStreamsPerKey)
	}
	if cfg.MaxStreams, err = strconv.Atoi(*maxStreams); err != nil || cfg.MaxStreams < 0 {
		return cfg, fmt.Errorf("--max-streams: %q is not a whole number, or 0", *maxStreams)
	}
	if err := cfg.LogLevel.UnmarshalText([]byte(*logLevel)); err != nil {
		return cfg, fmt.Errorf("--log-level: %w", err)
	}
	if cfg.DevKey && cfg.Env != apikey.EnvTest {
		return cfg, errors.New("--dev-key creates test keys; it needs --env test")
	}
	return cfg, nil
}

// parseSize reads "65536", "64KiB", "1MiB", "1GiB", "64KB", "1MB" or
// "1GB", up to 1 TiB.
func parseSize(s string) (int64, error) {
	units := []struct {
		suffix string
		mult   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1000}, {"MB", 1000 * 1000}, {"GB", 1000 * 1000 * 1000}, {"B", 1}}
	mult := int64(1)
	num := strings.TrimSpace(s)
	for _, u := range units {
		if strings.HasSuffix(num, u.suffix) {
			num, mult = strings.TrimSpace(strings.TrimSuffix(num, u.suffix)), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 || n > (1<<40)/mult {
		return 0, fmt.Errorf("%q is not a size such as 65536, 64KiB or 1MiB", s)
	}
	return n * mult, nil
}

// sizeText writes a size as parseSize reads it: 64KiB, 1GiB, or bytes.
func sizeText(n int64) string {
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.mult && n%u.mult == 0 {
			return strconv.FormatInt(n/u.mult, 10) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10)
}

// daemon is a running unitd serve: the HTTP server, the catalog it serves
// (watched when it comes from a directory), the store, the keys served from
// memory and the usage counter.
type daemon struct {
	cfg     serveConfig
	logger  *slog.Logger
	srv     *server.Server
	catalog *catalog.Watcher // nil for the embedded catalog
	db      *store.DB
	keys    *account.KeySource
	usage   *account.UsageCounter
	// unitWatch follows the accounts whose units changed, on any
	// replica; units compiles them (package accountunits).
	unitWatch *account.UnitWatcher
	units     *accountunits.Service

	hashWorker *hashworker.Worker // nil when passwords are hashed in process
	cert       *certificate       // nil without --tls-cert

	registry *promtext.Registry  // what the admin listener serves
	redis    *redislimit.Limiter // nil without --redis
}

// devAccount and devUser are what `make run` (--dev-key) signs in with.
const (
	devAccount = "dev"
	devUser    = "dev@localhost"
)

// newDaemon opens the store (importing a JSON key file once), loads the
// keys and the catalog; a catalog that does not compile at start-up is an
// error, since there is no last good one.
func newDaemon(cfg serveConfig, logger *slog.Logger, stdout io.Writer) (d *daemon, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	d = &daemon{cfg: cfg, logger: logger}
	// The embedded catalog is restored while the store opens: the two
	// are independent, and each is a good part of the start-up.
	type restored struct {
		g    *engine.Graph
		errs []error
	}
	var embedded chan restored
	if cfg.Catalog == "" {
		embedded = make(chan restored, 1)
		go func() {
			g, errs := catalog.LoadEmbedded()
			embedded <- restored{g, errs}
		}()
	}
	sf := cfg.storeFlags()
	location, _ := sf.resolve()
	if d.db, err = sf.open(ctx, logger, true); err != nil {
		return nil, err
	}
	db, started := d.db, d // d is nil when an error is returned
	defer func() {
		if err != nil {
			db.Close()
			if started.hashWorker != nil {
				started.hashWorker.Close()
			}
		}
	}()
	logger.Info("store open", "store", describeStore(location), "engine", d.db.Engine())
	if cfg.DevKey {
		if err := d.setUpDev(ctx, stdout); err != nil {
			return nil, fmt.Errorf("setting up the dev account: %w", err)
		}
	}
	if d.keys, err = account.NewKeySource(ctx, d.db, cfg.Env, logger); err != nil {
		return nil, err
	}
	// So that unitd keys can confirm this server took up a change.
	instance, err := account.NewID("srv_")
	if err != nil {
		return nil, err
	}
	host, _ := os.Hostname()
	d.keys.Announce(ctx, instance, fmt.Sprintf("%s pid %d, %s, env %s", host, os.Getpid(), cfg.Addr, cfg.Env))
	d.usage = account.NewUsageCounter(d.db, logger)
	if d.unitWatch, err = account.NewUnitWatcher(ctx, d.db, logger, nil); err != nil {
		return nil, err
	}
	d.units = accountunits.New(d.db, d.unitWatch, accountunits.Options{Logger: logger})
	hcfg := account.HasherConfig{Memory: hashBudget(cfg.PasswordMemory)}
	if cfg.PasswordWorker {
		if d.hashWorker, err = startHashWorker(hcfg.Memory, logger); err != nil {
			return nil, err
		}
		hcfg.Key = keyFunc(d.hashWorker)
	}
	hasher, err := account.NewHasher(hcfg)
	if err != nil {
		return nil, err
	}
	page, err := accountweb.New(accountweb.Config{
		Store: d.db, Env: cfg.Env, Logger: logger, FlushUsage: d.usage.Flush, Hasher: hasher,
		HTTPS: strings.HasPrefix(cfg.PublicURL, "https://"),
		Units: d.units, Graph: func() *engine.Graph { return d.srv.Catalog() },
	})
	if err != nil {
		return nil, err
	}
	var tlsConfig *tls.Config
	if cfg.TLSCert != "" {
		if d.cert, err = newCertificate(cfg.TLSCert, cfg.TLSKey); err != nil {
			return nil, err
		}
		tlsConfig = d.cert.config()
	}
	limiter, redis, limits, err := newLimiter(cfg.RateLimit, cfg.Redis, cfg.RedisTimeout, logger)
	if err != nil {
		return nil, err
	}
	d.redis = redis
	var metrics *server.Metrics
	d.registry, metrics = newRegistry(d.keys.Status, redis)
	var public ratelimit.Limiter
	if cfg.PublicLimit.N > 0 {
		public = ratelimit.NewMemory(cfg.PublicLimit)
	}
	d.srv = server.New(server.Config{
		PublicLimiter: public,
		Keys:          d.keys,
		KeyStatus:     d.keys.Status,
		Usage:         d.usage,
		Units:         d.units,
		Define:        accountunits.Define,
		Account:       page,
		Env:           cfg.Env,
		Limiter:       limiter,
		Limits:        limits,
		Metrics:       metrics,
		// Ready once the keys are loaded from the store; a later failed
		// refresh keeps the last good keys serving, so it stays ready.
		Ready: func() error {
			if d.keys.Status().LoadedAt.IsZero() {
				return errors.New("the key store is not loaded yet")
			}
			return nil
		},
		AuthFailLimiter:  ratelimit.NewMemory(cfg.AuthFailLimit),
		PageLimiter:      pageLimiter(cfg.PageLimit),
		MaxBody:          cfg.MaxBody,
		MaxStreamBody:    cfg.MaxStreamBody,
		MaxStreamLines:   cfg.MaxStreamLines,
		MaxStreamLine:    cfg.MaxStreamLine,
		StreamRateWait:   cfg.StreamRateWait,
		StreamMinRate:    cfg.StreamMinRate,
		MaxStreamsPerKey: cfg.MaxStreamsPerKey,
		MaxStreams:       cfg.MaxStreams, // 0: half of MaxConns
		Logger:           logger,
		Version:          version,
		Proxies:          cfg.Proxies,
		AccessLog:        cfg.AccessLog,
		MaxConnsPerAddr:  cfg.MaxConnsPerAddr,
		MaxConns:         cfg.MaxConns,
		PublicURL:        cfg.PublicURL,
		TLS:              tlsConfig,
	})
	registerConnGauges(d.registry, d.srv.Connections)
	if cfg.Catalog == "" {
		r := <-embedded
		g, errs := r.g, r.errs
		if len(errs) > 0 {
			return nil, fmt.Errorf("embedded catalog: %w", errors.Join(errs...))
		}
		d.srv.ApplyGraph(g)
		logger.Info("serving the embedded catalog", "version", g.Version(), "categories", len(g.Categories()), "units", len(g.Units()))
		// The parts the snapshot defers compile in the background, so
		// that the first request that needs one does not wait for it.
		go func() {
			for _, err := range g.Warm() {
				logger.Error("embedded catalog", "err", err)
			}
		}()
		return d, nil
	}
	if st, err := os.Stat(cfg.Catalog); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("--catalog %s is not a directory", cfg.Catalog)
	}
	d.catalog = &catalog.Watcher{Dir: cfg.Catalog, Logger: logger, OnReload: d.applyCatalog, OnReloadStart: d.srv.ReportReloadStart}
	if _, errs := d.catalog.LoadNow(); len(errs) > 0 {
		return nil, fmt.Errorf("catalog %s: %w", cfg.Catalog, errors.Join(errs...))
	}
	return d, nil
}

// setUpDev makes sure the dev account and user exist, replaces the dev
// test key (so restarts do not pile up keys) and prints both the key and a
// one-time set-up link for the user.
func (d *daemon) setUpDev(ctx context.Context, stdout io.Writer) error {
	acct, err := accountByName(ctx, d.db, devAccount, true)
	if err != nil {
		return err
	}
	if _, err := d.db.CreateUser(ctx, acct.ID, devUser); err != nil && !errors.Is(err, account.ErrConflict) {
		return err
	}
	base := publicBase(d.cfg.PublicURL, d.cfg.Addr, d.cfg.TLSCert != "")
	link, note, err := setupLink(ctx, d.db, base, devUser)
	if err != nil {
		return err
	}
	key, k, err := d.db.RenewDevKey(ctx, acct.ID)
	if err != nil {
		return err
	}
	printDevKey(stdout, base, key, k.ID, link, note)
	return nil
}

// pageLimiter limits the web pages' conversions per client address; a zero
// rate leaves the server's default.
func pageLimiter(r ratelimit.Rate) ratelimit.Limiter {
	if r.N <= 0 {
		return nil
	}
	return ratelimit.NewMemory(r)
}

// applyCatalog publishes a freshly compiled graph, or records why the
// reload failed while the last good graph keeps serving.
func (d *daemon) applyCatalog(g *engine.Graph, errs []error) {
	if g != nil {
		d.srv.ApplyGraph(g)
	}
	// The watcher has logged every problem in full; health, which anyone
	// may read, gets where and what kind, never file contents.
	var err error
	if len(errs) > 0 {
		err = errors.New(catalog.PublicProblem(errs))
	}
	d.srv.ReportReload(time.Now(), err)
}

// reload rereads the catalog, the keys and the TLS certificate (SIGHUP).
func (d *daemon) reload() {
	if d.cert != nil {
		if err := d.cert.load(); err != nil {
			d.logger.Error("TLS certificate reload failed; the last good one stays in use", "err", err)
		}
	}
	if d.catalog != nil {
		d.catalog.Reload()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := d.keys.Refresh(ctx); err != nil {
		d.logger.Error("key reload failed; the last good keys stay in use", "err", err)
	}
}

// run serves on ln until ctx is done, with the watchers alongside.
func (d *daemon) run(ctx context.Context, ln net.Listener) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if d.catalog != nil {
		go func() {
			if err := d.catalog.Run(ctx); err != nil {
				d.logger.Error("catalog watcher stopped; SIGHUP and restarts still reload", "err", err)
			}
		}()
	}
	go d.keys.Run(ctx)
	go d.unitWatch.Run(ctx)
	if d.redis != nil {
		defer d.redis.Close()
	}
	// The usage counter outlives the HTTP server: requests still running
	// while it drains are counted, then the last counts are flushed.
	usageCtx, stopUsage := context.WithCancel(context.Background())
	usageDone := make(chan struct{})
	go func() { d.usage.Run(usageCtx); close(usageDone) }()
	defer d.db.Close()
	if d.hashWorker != nil {
		defer d.hashWorker.Close()
	}
	listen := schemeOf(d.cert != nil) + "://" + ln.Addr().String()
	d.logger.Info("listening", "addr", listen, "env", d.cfg.Env, "account_page", publicBase(d.cfg.PublicURL, ln.Addr().String(), d.cert != nil)+"/account")
	err := d.srv.Serve(ctx, ln)
	stopUsage()
	<-usageDone
	wctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if werr := d.keys.Withdraw(wctx); werr != nil {
		d.logger.Warn("could not remove this server from the store's key readers", "error", werr)
	}
	return err
}

func printDevKey(w io.Writer, base, key, id, link, note string) {
	fmt.Fprintf(w, `
unitd test key (id %s), valid until the next start:

  %s

Try it:

  curl -s -H 'Authorization: Bearer %s' '%s/v1/convert?value=12.5&from=ft&to=m'

Account page %s/account, for the account %q (a new link at every start):

  %s

%s
In a browser: the converter %s/, the catalog %s/catalog and
the API reference %s/docs. Metrics, liveness and readiness are on the
admin listener (--admin-addr, default `+defaultAdminAddr+`).

`, id, key, key, base, base, devAccount, link, note, base, base, base)
}
