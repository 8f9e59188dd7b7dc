package ratelimit

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// clock is a fake clock; its zero value starts at a fixed instant.
type clock struct {
	ns atomic.Int64
}

var base = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func (c *clock) Now() time.Time          { return base.Add(time.Duration(c.ns.Load())) }
func (c *clock) Advance(d time.Duration) { c.ns.Add(int64(d)) }

func newLimiter(t *testing.T, rate string, opts ...Option) (*Memory, *clock) {
	t.Helper()
	r, err := ParseRate(rate)
	if err != nil {
		t.Fatal(err)
	}
	c := &clock{}
	return NewMemory(r, append([]Option{WithClock(c.Now)}, opts...)...), c
}

func TestBurstThenRefuse(t *testing.T) {
	l, _ := newLimiter(t, "3/s")
	want := []Decision{
		{Allowed: true, Limit: 3, Remaining: 2, Reset: time.Second / 3},
		{Allowed: true, Limit: 3, Remaining: 1, Reset: 2 * (time.Second / 3)},
		{Allowed: true, Limit: 3, Remaining: 0, Reset: 3 * (time.Second / 3), RetryAfter: time.Second / 3},
		{Allowed: false, Limit: 3, Remaining: 0, Reset: 3 * (time.Second / 3), RetryAfter: time.Second / 3},
		{Allowed: false, Limit: 3, Remaining: 0, Reset: 3 * (time.Second / 3), RetryAfter: time.Second / 3},
	}
	for i, w := range want {
		if got := l.Take("k"); got != w {
			t.Errorf("take %d = %+v, want %+v", i+1, got, w)
		}
	}
}

func TestRefill(t *testing.T) {
	l, c := newLimiter(t, "600/m") // a token every 100ms
	for range 600 {
		if !l.Take("k").Allowed {
			t.Fatal("burst of 600 refused")
		}
	}
	d := l.Take("k")
	if d.Allowed || d.RetryAfter != 100*time.Millisecond {
		t.Fatalf("after burst: %+v, want refused with RetryAfter 100ms", d)
	}
	c.Advance(d.RetryAfter - time.Nanosecond)
	if l.Take("k").Allowed {
		t.Fatal("allowed before RetryAfter")
	}
	c.Advance(time.Nanosecond)
	if d := l.Take("k"); !d.Allowed || d.Remaining != 0 {
		t.Fatalf("at RetryAfter: %+v, want allowed with 0 remaining", d)
	}
	// Half a period refills half the bucket.
	c.Advance(30 * time.Second)
	if d := l.Take("k"); !d.Allowed || d.Remaining != 299 || d.Reset != 30*time.Second+100*time.Millisecond {
		t.Fatalf("after 30s: %+v, want 299 remaining, reset 30.1s", d)
	}
	// A long pause never overfills.
	c.Advance(time.Hour)
	if d := l.Take("k"); d.Remaining != 599 {
		t.Fatalf("after an hour: %+v, want 599 remaining", d)
	}
}

func TestHeaderSeconds(t *testing.T) {
	tests := []struct {
		rate      string
		takes     int
		advance   time.Duration
		allowed   bool
		remaining int
		reset     int64
		retry     int64
	}{
		{"600/m", 1, 0, true, 599, 1, 0},              // 100ms to full → 1s
		{"600/m", 601, 0, false, 0, 60, 1},            // 100ms to a token → 1s
		{"2/m", 2, 0, true, 0, 60, 30},                // last token: next in 30s
		{"2/m", 3, 0, false, 0, 60, 30},               //
		{"2/m", 3, 29 * time.Second, false, 0, 31, 1}, // 1s left (exact)
		{"2/m", 3, 29*time.Second + time.Millisecond, false, 0, 31, 1},
		{"1/h", 2, 0, false, 0, 3600, 3600},
		{"10/s", 11, 0, false, 0, 1, 1},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s×%d+%v", tt.rate, tt.takes, tt.advance), func(t *testing.T) {
			l, c := newLimiter(t, tt.rate)
			for range tt.takes - 1 {
				l.Take("k")
			}
			c.Advance(tt.advance)
			d := l.Take("k")
			if d.Allowed != tt.allowed || d.Remaining != tt.remaining ||
				d.ResetSeconds() != tt.reset || d.RetryAfterSeconds() != tt.retry {
				t.Errorf("got allowed=%v remaining=%d reset=%ds retry=%ds (%+v); want %v %d %ds %ds",
					d.Allowed, d.Remaining, d.ResetSeconds(), d.RetryAfterSeconds(), d,
					tt.allowed, tt.remaining, tt.reset, tt.retry)
			}
		})
	}
}

// TestNeverExceedsRate checks the defining property over a long irregular
// run: in any run of length L, at most N + L·N/Per requests are allowed.
func TestNeverExceedsRate(t *testing.T) {
	l, c := newLimiter(t, "7/s") // interval does not divide a second
	allowed := 0
	const steps = 20000
	for i := range steps {
		if l.Take("k").Allowed {
			allowed++
		}
		c.Advance(time.Duration(i%13) * time.Millisecond)
	}
	elapsed := time.Duration(c.ns.Load())
	limit := 7 + int(int64(elapsed)*7/int64(time.Second))
	if allowed > limit {
		t.Errorf("allowed %d in %v, limit %d", allowed, elapsed, limit)
	}
	if allowed < limit-8 {
		t.Errorf("allowed only %d in %v, want about %d", allowed, elapsed, limit)
	}
}

func TestKeysAreIndependent(t *testing.T) {
	l, _ := newLimiter(t, "1/m")
	if !l.Take("a").Allowed || l.Take("a").Allowed {
		t.Fatal("a: want one allowed, then refused")
	}
	if !l.Take("b").Allowed {
		t.Fatal("b refused because of a")
	}
}

func TestEvictionKeepsMemoryBounded(t *testing.T) {
	l, c := newLimiter(t, "10/m", WithMaxKeys(100))
	for i := range 10_000 {
		if !l.Take(fmt.Sprintf("k%d", i)).Allowed {
			t.Fatalf("first request of key %d refused", i)
		}
		if n := l.Len(); n > 100 {
			t.Fatalf("%d buckets after %d keys, bound is 100", n, i+1)
		}
	}
	// Once every bucket has refilled, a sweep drops them all.
	c.Advance(time.Minute)
	if n := l.Sweep(); n == 0 || l.Len() != 0 {
		t.Errorf("Sweep dropped %d, left %d; want all dropped", n, l.Len())
	}
}

func TestSweepKeepsPartialBuckets(t *testing.T) {
	l, c := newLimiter(t, "2/m")
	l.Take("drained")
	l.Take("drained")
	l.Take("light")
	c.Advance(30 * time.Second) // "light" is full again, "drained" is not
	if n := l.Sweep(); n != 1 {
		t.Fatalf("Sweep dropped %d buckets, want 1", n)
	}
	if d := l.Take("drained"); !d.Allowed || d.Remaining != 0 {
		t.Errorf("drained key after 30s: %+v, want exactly one token back", d)
	}
}

func TestTakeSweepsAmortised(t *testing.T) {
	l, c := newLimiter(t, "5/s", WithMaxKeys(1)) // one shard
	l.Take("a")
	c.Advance(2 * time.Second)
	l.Take("b") // sweeps "a" on the way: the shard is due
	if n := l.Len(); n != 1 {
		t.Errorf("%d buckets, want 1", n)
	}
}

func TestConcurrentTake(t *testing.T) {
	l, _ := newLimiter(t, "1000/h")
	var allowed [4]atomic.Int64
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 1000 {
				k := (g + i) % len(allowed)
				if l.Take(fmt.Sprint(k)).Allowed {
					allowed[k].Add(1)
				}
				if i%100 == 0 {
					l.Sweep()
					l.Len()
				}
			}
		})
	}
	wg.Wait()
	for k := range allowed {
		if got := allowed[k].Load(); got != 1000 {
			t.Errorf("key %d: %d allowed, want exactly the burst of 1000", k, got)
		}
	}
}

func TestNewMemoryPanicsOnBadRate(t *testing.T) {
	for _, r := range []Rate{{0, time.Second}, {1, 0}, {-1, time.Second}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("NewMemory(%v) did not panic", r)
				}
			}()
			NewMemory(r)
		}()
	}
}

func TestCeilSeconds(t *testing.T) {
	for _, tt := range []struct {
		d    time.Duration
		want int64
	}{{-time.Second, 0}, {0, 0}, {1, 1}, {time.Second, 1}, {time.Second + 1, 2}, {90 * time.Second, 90}} {
		if got := CeilSeconds(tt.d); got != tt.want {
			t.Errorf("CeilSeconds(%v) = %d, want %d", tt.d, got, tt.want)
		}
	}
}

func TestMemoryCharge(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	m := NewMemory(Rate{N: 10, Per: 10 * time.Second}, WithClock(clock)) // one token a second
	if d := m.Take("a"); !d.Allowed || d.Remaining != 9 {
		t.Fatalf("first take: %+v", d)
	}
	m.Charge("a", 4) // the request cost 5 in all
	if d := m.Take("a"); !d.Allowed || d.Remaining != 4 {
		t.Errorf("after a charge of 4: %+v, want 4 remaining", d)
	}
	m.Charge("a", 30) // into debt, at most one burst beyond empty
	d := m.Take("a")
	if d.Allowed || d.RetryAfter != 11*time.Second {
		t.Errorf("in debt: %+v, want refused for 11 s (the debt of one burst, then a token)", d)
	}
	now = now.Add(11 * time.Second)
	if d := m.Take("a"); !d.Allowed {
		t.Errorf("after the debt is paid back: %+v", d)
	}
	if d := m.Take("b"); !d.Allowed || d.Remaining != 9 {
		t.Errorf("another key: %+v", d)
	}
	m.Charge("c", 0)
	m.Charge("c", -3)
	if m.Len() != 2 {
		t.Errorf("a charge of nothing made a bucket: %d buckets", m.Len())
	}
}
