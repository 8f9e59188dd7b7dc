package testlog

import (
	"strings"
	"sync"
	"testing"
)

// TestBufferConcurrent: writes from many goroutines all arrive whole (run
// with -race, which also checks that reading while writing is safe).
func TestBufferConcurrent(t *testing.T) {
	var b Buffer
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				b.Write([]byte("line\n"))
				_ = b.String()
			}
		})
	}
	wg.Wait()
	if got := strings.Count(b.String(), "line\n"); got != 800 || len(b.String()) != 800*len("line\n") {
		t.Errorf("%d whole lines in %d bytes, want 800", got, len(b.String()))
	}
}
