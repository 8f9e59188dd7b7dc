// Package testlog collects, for a test, what the code under test writes
// from several goroutines (a logger's output, say), and reads it back.
package testlog

import (
	"strings"
	"sync"
)

// Buffer is an io.Writer that is safe for concurrent use. The zero value
// is ready to use.
type Buffer struct {
	mu sync.Mutex // guards b
	b  strings.Builder
}

// Write appends p.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

// String returns everything written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
