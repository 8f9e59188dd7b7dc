// Package redislimit is a ratelimit.Limiter whose buckets live in Redis, so
// that every replica of unitd spends one budget per key.
//
// Each Take is one round trip: an EVALSHA of a Lua script that runs the
// same bucket arithmetic as ratelimit.Memory (a generic cell rate
// algorithm: one stored "full at" time per key) atomically inside Redis, on
// Redis's own clock, so the replicas' clocks do not matter.
//
// When Redis cannot answer within the timeout, the limiter falls back to a
// local ratelimit.Memory of the same rate, logs the change once, and reports
// it through Status; a background probe returns it to Redis by itself once
// Redis answers again.
//
// It speaks to Redis through redigo, a pool of connections that sends
// commands as they are written: the limiter sends three (EVALSHA, EVAL
// and PING), and a client with a method for each of Redis's hundreds of
// commands made a quarter of the unitd binary.
package redislimit

import (
	"context"
	_ "embed"
	"fmt"
	"log/slog"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gomodule/redigo/redis"
	"github.com/unitd/unitd/server/ratelimit"
)

//go:embed gcra.lua
var script string

// gcra and charge each take one key; redigo sends EVALSHA, and EVAL once
// when Redis has not cached the script yet.
var gcra = redis.NewScript(1, script)

//go:embed charge.lua
var chargeScript string

var charge = redis.NewScript(1, chargeScript)

// DefaultTimeout bounds one round trip to Redis; past it the request is
// decided by the local limiter.
const DefaultTimeout = 100 * time.Millisecond

// DefaultProbe is how often a limiter that fell back tries Redis again.
const DefaultProbe = time.Second

// Options configure New.
type Options struct {
	// Prefix is put before every key name in Redis (default "unitd:rl:").
	Prefix string
	// Timeout bounds each round trip (default DefaultTimeout).
	Timeout time.Duration
	// Probe is the interval of the recovery probe (default DefaultProbe).
	Probe time.Duration
	// Logger receives one line when Redis is lost and one when it is back.
	Logger *slog.Logger
	// OnChange, when set, is called with the new state on every change
	// (for metrics).
	OnChange func(up bool)
}

// Limiter is a ratelimit.Limiter backed by Redis, with a local fallback. It
// is safe for concurrent use.
type Limiter struct {
	pool     *redis.Pool
	rate     ratelimit.Rate
	interval int64 // µs to refill one token
	window   int64 // µs: N * interval
	local    *ratelimit.Memory
	opts     Options

	down      atomic.Bool
	mu        sync.Mutex // guards since, lastError and the probe goroutine
	since     time.Time
	lastError string
	probing   bool
	stop      chan struct{}
	closeOnce sync.Once
}

var _ ratelimit.Limiter = (*Limiter)(nil)

// Status says which limiter decides requests now.
type Status struct {
	Backend string    // "redis" or "local"
	Up      bool      // Redis answers
	Since   time.Time // of the last change (zero: never changed)
	Error   string    // why Redis is not used, when it is not
}

// New returns a Limiter of rate on the Redis at url: redis:// or
// rediss:// (host, port, user and password, database as the path), or
// unix:// (the socket's path; the database as ?db=N). It does not contact
// Redis; the first Take does.
func New(url string, rate ratelimit.Rate, opts Options) (*Limiter, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	dial, err := dialer(url, opts.Timeout)
	if err != nil {
		return nil, fmt.Errorf("redis URL: %w", err)
	}
	interval := rate.Per.Microseconds() / int64(rate.N)
	if rate.N <= 0 || interval < 1 {
		return nil, fmt.Errorf("rate %v: the Redis limiter needs at least a microsecond per request", rate)
	}
	if opts.Prefix == "" {
		opts.Prefix = "unitd:rl:"
	}
	if opts.Probe <= 0 {
		opts.Probe = DefaultProbe
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	// At most ten connections a processor, as go-redis kept: a request
	// past them waits for one within the timeout, then is decided
	// locally. A connection that failed is closed, not kept (redigo), and
	// none is retried: a retry would be a second round trip.
	conns := 10 * runtime.GOMAXPROCS(0)
	pool := &redis.Pool{DialContext: dial, MaxActive: conns, MaxIdle: conns, Wait: true, IdleTimeout: 5 * time.Minute}
	return &Limiter{
		pool:     pool,
		rate:     rate,
		interval: interval,
		window:   interval * int64(rate.N),
		local:    ratelimit.NewMemory(rate),
		opts:     opts,
		stop:     make(chan struct{}),
	}, nil
}

// Take spends one token of key's bucket in Redis, or in the local
// fallback while Redis is unreachable.
func (l *Limiter) Take(key string) ratelimit.Decision {
	if l.down.Load() {
		return l.local.Take(key)
	}
	d, err := l.takeRedis(key)
	if err != nil {
		l.fellBack(err)
		return l.local.Take(key)
	}
	return d
}

// Charge spends n more tokens of key's bucket in Redis, or in the local
// fallback while Redis is unreachable (ratelimit.Charger).
func (l *Limiter) Charge(key string, n int) {
	if n <= 0 {
		return
	}
	if l.down.Load() {
		l.local.Charge(key, n)
		return
	}
	if _, err := l.do(charge, l.opts.Prefix+key, l.interval, l.window, n); err != nil {
		l.fellBack(err)
		l.local.Charge(key, n)
	}
}

// do runs a script on a connection of the pool within the timeout.
func (l *Limiter) do(s *redis.Script, keyAndArgs ...any) (any, error) {
	ctx, cancel := context.WithTimeout(context.Background(), l.opts.Timeout)
	defer cancel()
	c, err := l.pool.GetContext(ctx)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	return s.DoContext(ctx, c, keyAndArgs...)
}

var _ ratelimit.Charger = (*Limiter)(nil)

func (l *Limiter) takeRedis(key string) (ratelimit.Decision, error) {
	res, err := redis.Int64s(l.do(gcra, l.opts.Prefix+key, l.interval, l.window))
	if err != nil {
		return ratelimit.Decision{}, err
	}
	if len(res) != 4 {
		return ratelimit.Decision{}, fmt.Errorf("rate-limit script returned %d values, want 4", len(res))
	}
	us := func(v int64) time.Duration { return time.Duration(v) * time.Microsecond }
	return ratelimit.Decision{
		Allowed:    res[0] == 1,
		Limit:      l.rate.N,
		Remaining:  int(res[1]),
		Reset:      us(res[2]),
		RetryAfter: us(res[3]),
	}, nil
}

// fellBack switches to the local limiter, logs it once and starts the
// probe that brings Redis back.
func (l *Limiter) fellBack(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lastError = err.Error()
	if l.down.Load() {
		return
	}
	l.down.Store(true)
	l.since = time.Now()
	l.opts.Logger.Warn("rate limits: Redis unreachable, each replica now limits on its own", "error", err.Error())
	if l.opts.OnChange != nil {
		l.opts.OnChange(false)
	}
	if !l.probing {
		l.probing = true
		go l.probe()
	}
}

// probe pings Redis every Probe interval until it answers, then returns
// the limiter to it.
func (l *Limiter) probe() {
	t := time.NewTicker(l.opts.Probe)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-t.C:
		}
		if l.Ping() == nil {
			l.recovered()
			return
		}
	}
}

// Ping checks that Redis answers within the timeout.
func (l *Limiter) Ping() error {
	ctx, cancel := context.WithTimeout(context.Background(), l.opts.Timeout)
	defer cancel()
	c, err := l.pool.GetContext(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	_, err = redis.DoContext(c, ctx, "PING")
	return err
}

func (l *Limiter) recovered() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.probing = false
	l.down.Store(false)
	l.since = time.Now()
	l.lastError = ""
	l.opts.Logger.Info("rate limits: Redis reachable again, limits are shared by all replicas")
	if l.opts.OnChange != nil {
		l.opts.OnChange(true)
	}
}

// Status reports which limiter decides requests now.
func (l *Limiter) Status() Status {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.down.Load() {
		return Status{Backend: "local", Up: false, Since: l.since, Error: l.lastError}
	}
	return Status{Backend: "redis", Up: true, Since: l.since}
}

// Close stops the probe and closes the pool's connections.
func (l *Limiter) Close() error {
	l.closeOnce.Do(func() { close(l.stop) })
	return l.pool.Close()
}

// dialer returns what dials the Redis at rawURL, each wait (connecting,
// writing, reading) bounded by timeout, or why rawURL is no Redis URL.
func dialer(rawURL string, timeout time.Duration) (func(context.Context) (redis.Conn, error), error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	opts := []redis.DialOption{
		redis.DialConnectTimeout(timeout), redis.DialReadTimeout(timeout), redis.DialWriteTimeout(timeout),
	}
	switch u.Scheme {
	case "redis", "rediss":
		if db := strings.TrimPrefix(u.Path, "/"); db != "" {
			if n, err := strconv.Atoi(db); err != nil || n < 0 {
				return nil, fmt.Errorf("%q: database %q is not a number", rawURL, db)
			}
		}
		return func(ctx context.Context) (redis.Conn, error) {
			return redis.DialURLContext(ctx, rawURL, opts...)
		}, nil
	case "unix":
	default:
		return nil, fmt.Errorf("%q: the scheme is not redis, rediss or unix", rawURL)
	}
	if u.Path == "" {
		return nil, fmt.Errorf("%q names no socket", rawURL)
	}
	if db := u.Query().Get("db"); db != "" {
		n, err := strconv.Atoi(db)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("%q: database %q is not a number", rawURL, db)
		}
		opts = append(opts, redis.DialDatabase(n))
	}
	if u.User != nil {
		if password, ok := u.User.Password(); ok {
			opts = append(opts, redis.DialUsername(u.User.Username()), redis.DialPassword(password))
		} else {
			opts = append(opts, redis.DialPassword(u.User.Username()))
		}
	}
	return func(ctx context.Context) (redis.Conn, error) {
		return redis.DialContext(ctx, "unix", u.Path, opts...)
	}, nil
}

// String describes the limiter for logs.
func (l *Limiter) String() string {
	return "redis " + strconv.Itoa(l.rate.N) + " per " + l.rate.Per.String()
}
