package ratelimit

import (
	"fmt"
	"hash/maphash"
	"sync"
	"time"
)

// Limiter decides whether the holder of key may make one more request.
// Implementations must be safe for concurrent use.
type Limiter interface {
	Take(key string) Decision
}

// Charger is a Limiter that can also spend tokens after the fact, for a
// request that turned out to cost more than the one token Take spent.
type Charger interface {
	Limiter
	// Charge spends n more tokens of key's bucket, going into debt if
	// need be: Take refuses key until the debt is paid back at the rate.
	// The debt is bounded by one more burst.
	Charge(key string, n int)
}

// Decision is the outcome of one Take.
type Decision struct {
	Allowed   bool
	Limit     int           // burst size, N of the Rate
	Remaining int           // whole tokens left after this request
	Reset     time.Duration // until the bucket is full again
	// RetryAfter is how long until a Take could succeed: zero when one
	// would succeed now.
	RetryAfter time.Duration
}

// ResetSeconds is RateLimit-Reset: Reset rounded up to whole seconds.
func (d Decision) ResetSeconds() int64 { return CeilSeconds(d.Reset) }

// RetryAfterSeconds is Retry-After: RetryAfter rounded up to whole seconds,
// so a client that waits that long will find a token.
func (d Decision) RetryAfterSeconds() int64 { return CeilSeconds(d.RetryAfter) }

// CeilSeconds is d in whole seconds, rounded up; 0 for d ≤ 0. A
// Retry-After header, which must be at least 1, takes max(…, 1).
func CeilSeconds(d time.Duration) int64 {
	if d <= 0 {
		return 0
	}
	return int64((d + time.Second - 1) / time.Second)
}

// DefaultMaxKeys is the default bound on the buckets a Memory keeps.
const DefaultMaxKeys = 100_000

const maxShards = 32

// Option configures NewMemory.
type Option func(*Memory)

// WithClock makes the limiter read time from now instead of time.Now.
func WithClock(now func() time.Time) Option { return func(m *Memory) { m.now = now } }

// WithMaxKeys bounds the number of buckets kept at once (default
// DefaultMaxKeys; values below 1 mean 1). When the bound is reached, full
// buckets are dropped first; if none is full, the bucket closest to full is
// dropped, which lets that key start over with a full bucket, the least
// generous choice available without refusing keys outright.
func WithMaxKeys(n int) Option { return func(m *Memory) { m.maxKeys = max(n, 1) } }

// Memory is an in-process Limiter with one token bucket per key. It is safe
// for concurrent use.
type Memory struct {
	rate     Rate
	interval int64 // ns to refill one token: Per/N
	window   int64 // N*interval: how far ahead of now a bucket's full time may be
	now      func() time.Time
	epoch    time.Time
	maxKeys  int
	seed     maphash.Seed
	shards   []shard
}

var _ Limiter = (*Memory)(nil)

type shard struct {
	mu        sync.Mutex       // guards the fields below
	full      map[string]int64 // key → ns since epoch at which its bucket is full
	max       int              // bound on len(full)
	nextSweep int64            // ns since epoch of the next amortised sweep
}

// NewMemory returns a Memory limiter for rate. It panics if rate is not
// positive; use ParseRate to check user input.
func NewMemory(rate Rate, opts ...Option) *Memory {
	if err := rate.validate(); err != nil {
		panic(fmt.Sprintf("ratelimit: invalid rate %v: %v", rate, err))
	}
	m := &Memory{
		rate:    rate,
		now:     time.Now,
		maxKeys: DefaultMaxKeys,
		seed:    maphash.MakeSeed(),
	}
	for _, o := range opts {
		o(m)
	}
	m.interval = int64(rate.Per / time.Duration(rate.N))
	m.window = m.interval * int64(rate.N)
	m.epoch = m.now()
	// Split maxKeys exactly over the shards so that the total bound holds.
	m.shards = make([]shard, min(maxShards, m.maxKeys))
	for i := range m.shards {
		sh := &m.shards[i]
		sh.max = m.maxKeys / len(m.shards)
		if i < m.maxKeys%len(m.shards) {
			sh.max++
		}
		sh.full = make(map[string]int64)
	}
	return m
}

// Rate returns the limiter's rate.
func (m *Memory) Rate() Rate { return m.rate }

func (m *Memory) elapsed() int64 { return int64(m.now().Sub(m.epoch)) }

func (m *Memory) shard(key string) *shard {
	return &m.shards[maphash.String(m.seed, key)%uint64(len(m.shards))]
}

// Take spends one token of key's bucket if there is one.
func (m *Memory) Take(key string) Decision {
	now := m.elapsed()
	sh := m.shard(key)
	sh.mu.Lock()
	defer sh.mu.Unlock()

	if now >= sh.nextSweep {
		// Amortised: a full pass at most once per period per shard.
		sh.sweep(now)
		sh.nextSweep = now + int64(m.rate.Per)
	}

	full, ok := sh.full[key]
	if !ok || full < now {
		full = now // a full bucket
	}
	next := full + m.interval
	if next-now > m.window {
		return Decision{
			Limit:      m.rate.N,
			Reset:      time.Duration(full - now),
			RetryAfter: time.Duration(next - m.window - now),
		}
	}
	if !ok && len(sh.full) >= sh.max {
		if sh.sweep(now) == 0 {
			sh.evictFullest()
		}
	}
	sh.full[key] = next
	remaining := (m.window - (next - now)) / m.interval
	return Decision{
		Allowed:    true,
		Limit:      m.rate.N,
		Remaining:  int(remaining),
		Reset:      time.Duration(next - now),
		RetryAfter: time.Duration(max(0, next+m.interval-m.window-now)),
	}
}

// Charge spends n more tokens of key's bucket, into a debt of at most one
// burst (N tokens) beyond an empty bucket.
func (m *Memory) Charge(key string, n int) {
	if n <= 0 {
		return
	}
	now := m.elapsed()
	sh := m.shard(key)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	full, ok := sh.full[key]
	if !ok || full < now {
		full = now
	}
	full = min(full+int64(n)*m.interval, now+2*m.window)
	if !ok && len(sh.full) >= sh.max {
		if sh.sweep(now) == 0 {
			sh.evictFullest()
		}
	}
	sh.full[key] = full
}

var _ Charger = (*Memory)(nil)

// Sweep drops the buckets that are full again, which are the same as no
// bucket at all, and returns how many it dropped. Take sweeps each shard at
// most once per period on its own; a server may also call Sweep on a ticker.
func (m *Memory) Sweep() int {
	now := m.elapsed()
	n := 0
	for i := range m.shards {
		sh := &m.shards[i]
		sh.mu.Lock()
		n += sh.sweep(now)
		sh.mu.Unlock()
	}
	return n
}

// Len returns the number of buckets held.
func (m *Memory) Len() int {
	n := 0
	for i := range m.shards {
		sh := &m.shards[i]
		sh.mu.Lock()
		n += len(sh.full)
		sh.mu.Unlock()
	}
	return n
}

// sweep drops full buckets. The caller holds sh.mu.
func (sh *shard) sweep(now int64) int {
	n := 0
	for k, full := range sh.full {
		if full <= now {
			delete(sh.full, k)
			n++
		}
	}
	return n
}

// evictFullest drops the bucket closest to full. The caller holds sh.mu.
func (sh *shard) evictFullest() {
	var victim string
	var earliest int64
	first := true
	for k, full := range sh.full {
		if first || full < earliest {
			victim, earliest, first = k, full, false
		}
	}
	if !first {
		delete(sh.full, victim)
	}
}
