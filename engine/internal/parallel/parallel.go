// Package parallel spreads independent work over the processors. A few
// checks of a build look at one unit at a time and read only what
// is compiled by then (worked examples, claims on codes): each unit's
// check is independent of the others'. Build spreads such a check over
// the processors with For, keeps each unit's findings by its
// index, and reports them in the units' order afterwards, so that the
// errors and the graph are the same as one goroutine would make.
package parallel

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// Chunk is how many indices a goroutine takes at a time: enough to
// make taking them cheap, few enough to share out the slow ones.
const Chunk = 16

// For calls do(i) for each i in [0, n), on up to GOMAXPROCS
// goroutines, and returns how many of the first indices were all done:
// n, unless ctx was done first, and then do was called for those and
// perhaps a few more.
func For(ctx context.Context, n int, do func(i int)) (done int) {
	chunks := (n + Chunk - 1) / Chunk
	workers := min(runtime.GOMAXPROCS(0), chunks)
	finished := make([]bool, chunks)
	var next atomic.Int64
	work := func() {
		for ctx.Err() == nil {
			c := int(next.Add(1) - 1)
			if c >= chunks {
				return
			}
			for i := c * Chunk; i < min(n, (c+1)*Chunk); i++ {
				do(i)
			}
			finished[c] = true
		}
	}
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
	for c, ok := range finished {
		if !ok {
			return c * Chunk
		}
	}
	return n
}
