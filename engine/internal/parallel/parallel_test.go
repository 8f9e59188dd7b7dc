package parallel

import (
	"context"
	"runtime"
	"sync/atomic"
	"testing"
)

// TestFor calls every index once, and stops taking work when the
// context is done, saying how many of the first indices it did.
func TestFor(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	for _, n := range []int{0, 1, Chunk - 1, Chunk, 5*Chunk + 3} {
		calls := make([]atomic.Int32, n)
		if done := For(context.Background(), n, func(i int) { calls[i].Add(1) }); done != n {
			t.Errorf("n = %d: done %d", n, done)
		}
		for i := range calls {
			if c := calls[i].Load(); c != 1 {
				t.Errorf("n = %d: index %d called %d times", n, i, c)
			}
		}
	}
	// Cancelled before: nothing is done.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var calls atomic.Int32
	if done := For(ctx, 10*Chunk, func(int) { calls.Add(1) }); done != 0 || calls.Load() != 0 {
		t.Errorf("cancelled before: done %d, %d calls", done, calls.Load())
	}
	// Cancelled during, on one goroutine: the Chunk under way is finished
	// and no other is taken.
	runtime.GOMAXPROCS(1)
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	calls.Store(0)
	done := For(ctx, 100*Chunk, func(i int) {
		if i == 3*Chunk {
			cancel()
		}
		calls.Add(1)
	})
	if done != 4*Chunk || calls.Load() != 4*Chunk {
		t.Errorf("cancelled at index %d: done %d, %d calls; want %d and %d", 3*Chunk, done, calls.Load(), 4*Chunk, 4*Chunk)
	}
}
