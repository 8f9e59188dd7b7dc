package redislimit_test

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/unitd/unitd/internal/redistest"
	"github.com/unitd/unitd/internal/testlog"
	"github.com/unitd/unitd/server/ratelimit"
	"github.com/unitd/unitd/server/ratelimit/redislimit"
)

// patient is the Redis timeout of tests that are not about timeouts: on a
// loaded machine a slow answer must not pass for an outage.
const patient = 10 * time.Second

// day is the period of the tests' rates: a bucket refills one token only
// after hours, so however slowly a loaded machine runs a test's requests,
// none of them is allowed by a refill (the buckets run on Redis's clock
// and the local limiter's, which a test cannot stop).
const day = 24 * time.Hour

// adminClient is the tests' own client of database db of the Redis at
// url (go-redis, as no limiter uses), closed when t ends.
func adminClient(t *testing.T, url string, db int) *redis.Client {
	t.Helper()
	opts, err := redis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	opts.DB = db
	c := redis.NewClient(opts)
	t.Cleanup(func() { c.Close() })
	return c
}

func newLimiter(t *testing.T, url string, rate ratelimit.Rate, opts redislimit.Options) *redislimit.Limiter {
	t.Helper()
	l, err := redislimit.New(url, rate, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// TestSharedBudget: three limiters (three replicas) on one Redis grant one
// budget between them: 10 per day, 30 requests, 10 allowed.
func TestSharedBudget(t *testing.T) {
	srv := redistest.Start(t)
	rate := ratelimit.Rate{N: 10, Per: day}
	refill := rate.Per / time.Duration(rate.N)
	var replicas []*redislimit.Limiter
	for range 3 {
		replicas = append(replicas, newLimiter(t, srv.URL(), rate, redislimit.Options{Timeout: patient}))
	}
	allowed := 0
	for i := range 30 {
		d := replicas[i%3].Take("key-1")
		if d.Limit != 10 {
			t.Fatalf("Limit = %d, want 10", d.Limit)
		}
		if d.Allowed {
			allowed++
			if want := 10 - allowed; d.Remaining != want {
				t.Errorf("request %d: Remaining = %d, want %d", i, d.Remaining, want)
			}
		} else {
			if d.RetryAfter <= 0 || d.RetryAfter > refill {
				t.Errorf("request %d refused with RetryAfter %v, want in (0, %v]", i, d.RetryAfter, refill)
			}
			if d.Reset <= 0 || d.Reset > rate.Per {
				t.Errorf("request %d: Reset %v, want in (0, %v]", i, d.Reset, rate.Per)
			}
		}
		if st := replicas[i%3].Status(); st.Backend != "redis" {
			t.Fatalf("status %+v, want the redis backend", st)
		}
	}
	if allowed != 10 {
		t.Errorf("%d of 30 requests allowed over three replicas, want 10", allowed)
	}
	// Another key has its own budget.
	if d := replicas[0].Take("key-2"); !d.Allowed || d.Remaining != 9 {
		t.Errorf("first request of another key: %+v", d)
	}
}

// TestFallbackAndRecovery: with Redis gone, requests are decided locally,
// the change is logged once and shown in Status; when Redis is back the
// probe returns the limiter to it (however long that takes: the probe
// polls, and go test's -timeout stops a limiter that never returns).
func TestFallbackAndRecovery(t *testing.T) {
	srv := redistest.Start(t)
	var logs testlog.Buffer
	changes := make(chan bool, 4)
	l := newLimiter(t, srv.URL(), ratelimit.Rate{N: 5, Per: day}, redislimit.Options{
		Timeout:  patient,
		Probe:    20 * time.Millisecond,
		Logger:   slog.New(slog.NewTextHandler(&logs, nil)),
		OnChange: func(up bool) { changes <- up },
	})
	if d := l.Take("k"); !d.Allowed || d.Remaining != 4 {
		t.Fatalf("first take on Redis: %+v", d)
	}
	srv.Stop()
	for i := range 20 {
		d := l.Take("k")
		// The local bucket starts full: five more are allowed, then none.
		if want := i < 5; d.Allowed != want {
			t.Fatalf("take %d during the outage: allowed %v, want %v", i, d.Allowed, want)
		}
	}
	if up := <-changes; up {
		t.Fatal("first change reported up, want down")
	}
	st := l.Status()
	if st.Backend != "local" || st.Up || st.Error == "" {
		t.Errorf("status during the outage: %+v", st)
	}
	if n := strings.Count(logs.String(), "Redis unreachable"); n != 1 {
		t.Errorf("outage logged %d times, want once:\n%s", n, logs.String())
	}
	srv.Restart()
	if up := <-changes; !up {
		t.Fatal("second change reported down, want up")
	}
	if st := l.Status(); st.Backend != "redis" || !st.Up {
		t.Errorf("status after recovery: %+v", st)
	}
	// Redis restarted empty: a fresh budget, decided by Redis again.
	if d := l.Take("k"); !d.Allowed || d.Remaining != 4 {
		t.Errorf("first take after recovery: %+v", d)
	}
	if n := strings.Count(logs.String(), "reachable again"); n != 1 {
		t.Errorf("recovery logged %d times, want once:\n%s", n, logs.String())
	}
}

// TestUnansweringRedis: a server that accepts connections and never
// answers costs one timeout, after which the local limiter decides.
func TestUnansweringRedis(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		var held []net.Conn
		for {
			c, err := ln.Accept()
			if err != nil {
				for _, c := range held {
					c.Close()
				}
				return
			}
			held = append(held, c) // read nothing, answer nothing
		}
	}()
	l := newLimiter(t, "redis://"+ln.Addr().String(), ratelimit.Rate{N: 3, Per: day},
		redislimit.Options{Timeout: 50 * time.Millisecond, Probe: time.Hour})
	d := l.Take("k")
	if !d.Allowed || d.Remaining != 2 {
		t.Errorf("take against a silent Redis: %+v, want the local decision", d)
	}
	if st := l.Status(); st.Backend != "local" {
		t.Errorf("status: %+v, want local", st)
	}
}

// TestRateTooFine: the script counts microseconds.
func TestRateTooFine(t *testing.T) {
	if _, err := redislimit.New("redis://127.0.0.1:1", ratelimit.Rate{N: 2_000_000, Per: time.Second}, redislimit.Options{}); err == nil {
		t.Error("a rate of more than one request per microsecond was accepted")
	}
	for _, url := range []string{"http://x", "unix://", "unix:///tmp/r.sock?db=two", "redis://127.0.0.1:6379/x", "rediss://h/-1"} {
		if _, err := redislimit.New(url, ratelimit.Rate{N: 1, Per: time.Second}, redislimit.Options{}); err == nil {
			t.Errorf("%q, no Redis URL, was accepted", url)
		}
	}
}

// TestDatabaseOfURL: the buckets live in the database the URL names, on
// a Unix socket (?db=N) as over TCP (the path).
func TestDatabaseOfURL(t *testing.T) {
	srv := redistest.Start(t)
	l := newLimiter(t, srv.URL()+"?db=3", ratelimit.Rate{N: 5, Per: day}, redislimit.Options{Timeout: patient})
	if d := l.Take("k"); !d.Allowed || d.Remaining != 4 {
		t.Fatalf("take: %+v", d)
	}
	for db, want := range map[int]int64{0: 0, 3: 1} {
		n, err := adminClient(t, srv.URL(), db).Exists(context.Background(), "unitd:rl:k").Result()
		if err != nil || n != want {
			t.Errorf("database %d holds the bucket %d times (%v), want %d", db, n, err, want)
		}
	}
}

// TestOneRoundTripPerTake: each Take is one command on Redis (EVALSHA, or
// EVAL the first time the script is not cached), counted by Redis itself.
func TestOneRoundTripPerTake(t *testing.T) {
	srv := redistest.Start(t)
	l := newLimiter(t, srv.URL(), ratelimit.Rate{N: 1000, Per: day}, redislimit.Options{Timeout: patient})
	admin := adminClient(t, srv.URL(), 0)
	ctx := context.Background()
	if err := admin.ConfigResetStat(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	const n = 50
	for i := range n {
		if d := l.Take(fmt.Sprintf("key-%d", i%7)); !d.Allowed {
			t.Fatalf("take %d refused", i)
		}
	}
	info, err := admin.Info(ctx, "commandstats").Result()
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	for _, line := range strings.Split(info, "\n") {
		if !strings.HasPrefix(line, "cmdstat_") || strings.HasPrefix(line, "cmdstat_config") || strings.HasPrefix(line, "cmdstat_info") {
			continue
		}
		name, rest, _ := strings.Cut(strings.TrimPrefix(line, "cmdstat_"), ":")
		var c int
		if _, err := fmt.Sscanf(rest, "calls=%d", &c); err != nil {
			t.Fatalf("parsing %q: %v", line, err)
		}
		switch name {
		case "evalsha", "eval":
			calls += c
		case "get", "set", "time":
			// Run by the script inside Redis, not sent by the client.
		case "hello", "client":
			// The handshake of the admin client's connection (go-redis).
		default:
			t.Errorf("unexpected command %s (%d calls)", name, c)
		}
	}
	// redigo runs EVALSHA and, on NOSCRIPT, EVAL once: at most one extra.
	if calls < n || calls > n+1 {
		t.Errorf("%d takes made %d script calls, want %d (one round trip each)", n, calls, n)
	}
}

// TestChargeSharedByReplicas: tokens charged through one replica after
// the fact are missing from the budget every replica sees, and a charge
// beyond the bucket is a debt that refuses the key until paid back.
func TestChargeSharedByReplicas(t *testing.T) {
	srv := redistest.Start(t)
	rate := ratelimit.Rate{N: 10, Per: day}
	a := newLimiter(t, srv.URL(), rate, redislimit.Options{Timeout: patient})
	b := newLimiter(t, srv.URL(), rate, redislimit.Options{Timeout: patient})
	if d := a.Take("k"); !d.Allowed || d.Remaining != 9 {
		t.Fatalf("first take: %+v", d)
	}
	b.Charge("k", 4)
	if d := a.Take("k"); !d.Allowed || d.Remaining != 4 {
		t.Errorf("after a charge of 4 through the other replica: %+v, want 4 remaining", d)
	}
	a.Charge("k", 25) // beyond the bucket: a debt
	if d := b.Take("k"); d.Allowed {
		t.Errorf("a key in debt was allowed: %+v", d)
	}
	b.Charge("other", 0)
	if d := b.Take("other"); !d.Allowed || d.Remaining != 9 {
		t.Errorf("a charge of nothing spent tokens: %+v", d)
	}
}

// TestConnectionsBounded: however many requests take at once, a limiter
// opens at most ten connections a processor to Redis, and every request
// is still decided by Redis: those past them wait for a connection. Redis
// is paused while they start, so that all of them are waiting at once.
func TestConnectionsBounded(t *testing.T) {
	srv := redistest.Start(t)
	const takers = 200
	l := newLimiter(t, srv.URL(), ratelimit.Rate{N: takers, Per: day}, redislimit.Options{Timeout: patient})
	admin := adminClient(t, srv.URL(), 0)
	ctx := context.Background()
	if err := admin.ClientPause(ctx, 300*time.Millisecond).Err(); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range takers {
		wg.Go(func() {
			if d := l.Take(fmt.Sprintf("key-%d", i%10)); !d.Allowed {
				t.Errorf("take %d refused: %+v", i, d)
			}
		})
	}
	wg.Wait()
	if st := l.Status(); st.Backend != "redis" {
		t.Fatalf("status %+v, want redis", st)
	}
	info, err := admin.Info(ctx, "stats").Result()
	if err != nil {
		t.Fatal(err)
	}
	accepted := -1
	for _, line := range strings.Split(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "total_connections_received:"); ok {
			accepted, _ = strconv.Atoi(v)
		}
	}
	// redistest's readiness probe and the admin client connect too.
	if limit := 10*runtime.GOMAXPROCS(0) + 3; accepted < 2 || accepted > limit {
		t.Errorf("Redis accepted %d connections for %d takes at once, want 2 to %d", accepted, takers, limit)
	}
}
