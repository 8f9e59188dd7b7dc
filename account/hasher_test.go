package account

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/crypto/argon2"
)

// gatedKey is an Argon2id stand-in that holds its caller until open is
// closed, counting the calls that have started.
type gatedKey struct {
	open    chan struct{}
	started atomic.Int64
}

func (g *gatedKey) key(_ context.Context, pw, salt []byte, p Params) ([]byte, error) {
	g.started.Add(1)
	<-g.open
	return argon2.IDKey(pw, salt, 1, 8, 1, p.KeyLen), nil
}

// TestHasherBoundsMemory floods a Hasher with 60 sign-ins at once and
// checks, through its hook, that the memory held by running hashes never
// exceeds the budget; that a bounded number wait and the rest are refused
// at once with ErrBusy; and that the waiting ones run once room is made.
func TestHasherBoundsMemory(t *testing.T) {
	const mib = 1 << 20
	p := Params{Memory: 64 * 1024, Time: 2, Threads: 2, SaltLen: 16, KeyLen: 32}
	h, err := NewHasher(HasherConfig{Params: p, Memory: 200 * mib, Wait: time.Hour, MaxWaiting: 5})
	if err != nil {
		t.Fatal(err)
	}
	if h.Slots() != 3 {
		t.Fatalf("a 200 MiB budget runs %d hashes of 64 MiB at once, want 3", h.Slots())
	}
	g := &gatedKey{open: make(chan struct{})}
	h.key = g.key
	var mu sync.Mutex
	var peak int64
	h.held = func(kib int64) {
		mu.Lock()
		peak = max(peak, kib)
		mu.Unlock()
	}
	// Stored hashes carry the real parameters, as on a server.
	stored := hashWith(t, p, "correct horse battery")

	const n = 60
	results := make(chan error, n)
	for i := range n {
		go func() {
			var err error
			if i%2 == 0 {
				_, err = h.Verify(context.Background(), stored, "correct horse battery")
			} else {
				_, err = h.Hash(context.Background(), "a new password, long enough")
			}
			results <- err
		}()
	}
	// 3 run and hold the gate, 5 wait: the other 52 are refused at once.
	for range n - 3 - 5 {
		if err := <-results; !errors.Is(err, ErrBusy) {
			t.Fatalf("a sign-in beyond the budget and the queue: %v, want ErrBusy", err)
		}
	}
	for g.started.Load() < 3 { // the three holding the budget reach the hash
		time.Sleep(time.Millisecond)
	}
	if got := g.started.Load(); got != 3 {
		t.Errorf("%d hashes started with room for 3", got)
	}
	close(g.open)
	for range 8 {
		if err := <-results; err != nil {
			t.Errorf("a sign-in that ran or waited its turn: %v", err)
		}
	}
	if g.started.Load() != 8 {
		t.Errorf("%d hashes ran, want the 3 running and the 5 waiting", g.started.Load())
	}
	if peak > 200*1024 || peak < 3*64*1024 {
		t.Errorf("running hashes held up to %d KiB; want 3 × 64 MiB, within the budget of 200 MiB", peak)
	}
	if h.heldTotal.Load() != 0 {
		t.Errorf("%d KiB still held after every hash ended", h.heldTotal.Load())
	}
}

func hashWith(t *testing.T, p Params, pw string) string {
	t.Helper()
	// The real parameters would take 64 MiB here; the encoding is what
	// matters, so hash cheaply and write the real parameters in.
	h, err := hashPassword(context.Background(), pw, p, func(_ context.Context, pw, salt []byte, p Params) ([]byte, error) {
		return argon2.IDKey(pw, salt, 1, 8, 1, p.KeyLen), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestHasherWaitsThenGivesUp(t *testing.T) {
	h, err := NewHasher(HasherConfig{Params: testParams, Memory: 64 << 10, Wait: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	g := &gatedKey{open: make(chan struct{})}
	h.key = g.key
	done := make(chan error)
	go func() {
		_, err := h.Hash(context.Background(), "correct horse battery")
		done <- err
	}()
	for g.started.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	// The budget is held: a second hash waits its millisecond, then gives up.
	if _, err := h.Hash(context.Background(), "correct horse battery"); !errors.Is(err, ErrBusy) {
		t.Errorf("second hash while the budget is held: %v, want ErrBusy", err)
	}
	// A caller that goes away while waiting gets its own error, not ErrBusy.
	h.wait = time.Hour
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := h.Hash(ctx, "correct horse battery"); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled caller: %v, want context.Canceled", err)
	}
	close(g.open)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, err := h.Hash(context.Background(), "correct horse battery"); err != nil {
		t.Errorf("hash after the budget was freed: %v", err)
	}
}

func TestHasherRefusesHashesBeyondTheBudget(t *testing.T) {
	if _, err := NewHasher(HasherConfig{Params: DefaultParams, Memory: 32 << 20}); !errors.Is(err, ErrInvalid) {
		t.Errorf("a budget smaller than one hash: %v, want ErrInvalid", err)
	}
	h, err := NewHasher(HasherConfig{Params: testParams, Memory: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	// A stored hash asking for 64 MiB is not run within a 1 MiB budget.
	big := hashWith(t, DefaultParams, "correct horse battery")
	if ok, err := h.Verify(context.Background(), big, "correct horse battery"); ok || err == nil || errors.Is(err, ErrBusy) {
		t.Errorf("hash beyond the budget: %v, %v; want an error other than ErrBusy", ok, err)
	}
	// Within the budget, the real thing.
	small, err := h.Hash(context.Background(), "correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := h.Verify(context.Background(), small, "correct horse battery"); !ok || err != nil {
		t.Errorf("verify: %v, %v", ok, err)
	}
	if ok, err := h.Verify(context.Background(), small, "correct horse batterz"); ok || err != nil {
		t.Errorf("verify a wrong password: %v, %v", ok, err)
	}
}
