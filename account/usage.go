package account

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// FlushInterval is how often a UsageCounter writes its counts to the store.
const FlushInterval = 5 * time.Second

// UsageWriter is the part of a Store that a UsageCounter writes to.
type UsageWriter interface {
	AddUsage(ctx context.Context, counts []UsageCount) error
}

type usageBucket struct {
	keyID  string
	minute int64 // Unix seconds of the minute's start
}

type usageTally struct {
	count int64
	last  time.Time
}

// UsageCounter counts authenticated requests per key and minute in memory
// and adds them to the store in one transaction every FlushInterval and on
// Close, so that counting costs a request one map update under a mutex and
// never a database round trip. Counts that cannot be written are kept for
// the next flush.
type UsageCounter struct {
	store  UsageWriter
	logger *slog.Logger

	mu      sync.Mutex
	pending map[usageBucket]usageTally

	flushMu sync.Mutex // one flush at a time, so counts are never written twice
}

// NewUsageCounter returns a counter that flushes to store. A nil logger
// discards messages.
func NewUsageCounter(store UsageWriter, logger *slog.Logger) *UsageCounter {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &UsageCounter{store: store, logger: logger, pending: map[usageBucket]usageTally{}}
}

// Count records one request by keyID at t.
func (u *UsageCounter) Count(keyID string, t time.Time) {
	b := usageBucket{keyID: keyID, minute: t.Unix() - t.Unix()%60}
	if t.Unix() < 0 {
		b.minute = t.Truncate(time.Minute).Unix()
	}
	u.mu.Lock()
	tl := u.pending[b]
	tl.count++
	if t.After(tl.last) {
		tl.last = t
	}
	u.pending[b] = tl
	u.mu.Unlock()
}

// Flush writes the counts gathered so far. On failure they are put back,
// to be written by the next Flush.
func (u *UsageCounter) Flush(ctx context.Context) error {
	u.flushMu.Lock()
	defer u.flushMu.Unlock()
	u.mu.Lock()
	taken := u.pending
	u.pending = make(map[usageBucket]usageTally, len(taken))
	u.mu.Unlock()
	if len(taken) == 0 {
		return nil
	}
	counts := make([]UsageCount, 0, len(taken))
	for b, tl := range taken {
		counts = append(counts, UsageCount{
			KeyID: b.keyID, Minute: time.Unix(b.minute, 0).UTC(), Count: tl.count, Last: tl.last.UTC(),
		})
	}
	if err := u.store.AddUsage(ctx, counts); err != nil {
		u.mu.Lock()
		for b, tl := range taken {
			cur := u.pending[b]
			cur.count += tl.count
			if tl.last.After(cur.last) {
				cur.last = tl.last
			}
			u.pending[b] = cur
		}
		u.mu.Unlock()
		return fmt.Errorf("write usage counts: %w", err)
	}
	return nil
}

// Run flushes every FlushInterval until ctx is done, then flushes once
// more (with a fresh deadline) so that nothing counted is lost.
func (u *UsageCounter) Run(ctx context.Context) {
	t := time.NewTicker(FlushInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			u.Close()
			return
		case <-t.C:
			if err := u.Flush(ctx); err != nil {
				u.logger.Warn("usage counts kept for the next flush", "error", err)
			}
		}
	}
}

// Close flushes what is left, allowing it up to 10 s.
func (u *UsageCounter) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := u.Flush(ctx)
	if err != nil {
		u.logger.Error("usage counts lost at shutdown", "error", err)
	}
	return err
}
