package keys

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fsnotify/fsnotify"
)

// pollInterval is how often the Watcher stats the file, in case fsnotify
// misses a change or cannot watch the directory.
const pollInterval = 250 * time.Millisecond

// Status describes the Watcher's last loads, for health reporting.
type Status struct {
	LoadedAt  time.Time // last successful load; zero if none
	CheckedAt time.Time // last load attempt
	Keys      int       // records in the current Set
	Err       error     // error of the last attempt; nil if it succeeded
}

// Watcher keeps the current Set of a key file and reloads it when the file
// changes. Its methods are safe for concurrent use.
type Watcher struct {
	path   string
	logger *slog.Logger
	poll   time.Duration
	set    atomic.Pointer[Set]

	mu     sync.Mutex // serialises loads and guards the fields below
	stamp  stamp      // file identity seen by the last load attempt
	status Status
}

// stamp identifies a version of the file cheaply. The store replaces the
// file by rename, so every change gives a new inode.
type stamp struct {
	exists bool
	mtime  int64 // Unix nanoseconds
	size   int64
	inode  uint64
}

// NewWatcher loads the key file at path and returns a Watcher serving it.
// A missing file is an empty set; a file that cannot be read or parsed is an
// error, since there is no earlier good set to fall back on. A nil logger
// discards messages. Call Run to follow changes.
func NewWatcher(path string, logger *slog.Logger) (*Watcher, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	w := &Watcher{path: path, logger: logger, poll: pollInterval}
	if err := w.load(true); err != nil {
		return nil, err
	}
	return w, nil
}

// Current returns the current Set. It never returns nil.
func (w *Watcher) Current() *Set { return w.set.Load() }

// Status reports the last load attempt.
func (w *Watcher) Status() Status {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.status
}

// Reload rereads the file now (for SIGHUP, say). On failure the current Set
// stays in place and the error is returned and recorded in Status.
func (w *Watcher) Reload() error { return w.load(true) }

// Run follows changes to the file until ctx is cancelled, then returns nil.
// It watches the parent directory with fsnotify, since the store replaces
// the file by rename, and also polls the file's mtime, size and inode.
func (w *Watcher) Run(ctx context.Context) error {
	var events <-chan fsnotify.Event
	var errs <-chan error
	if fsw, err := fsnotify.NewWatcher(); err != nil {
		w.logger.Warn("key file: cannot start fsnotify, polling only", "error", err)
	} else {
		defer fsw.Close()
		if err := fsw.Add(filepath.Dir(w.path)); err != nil {
			w.logger.Warn("key file: cannot watch directory, polling only", "path", w.path, "error", err)
		} else {
			events, errs = fsw.Events, fsw.Errors
		}
	}
	ticker := time.NewTicker(w.poll)
	defer ticker.Stop()
	base := filepath.Base(w.path)
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-ticker.C:
			w.load(false)
		case ev, ok := <-events:
			if !ok {
				events = nil
				continue
			}
			if filepath.Base(ev.Name) == base && !ev.Has(fsnotify.Chmod) {
				w.load(true)
			}
		case err, ok := <-errs:
			if !ok {
				errs = nil
				continue
			}
			w.logger.Warn("key file: fsnotify error", "path", w.path, "error", err)
		}
	}
}

// load reads the file and publishes a new Set if it parses. Unless force is
// set, it does nothing when the file looks unchanged since the last attempt.
func (w *Watcher) load(force bool) error {
	w.mu.Lock()
	defer w.mu.Unlock()

	// Stat before reading: if the file changes in between, the next poll
	// sees a new stamp and loads again.
	st, statErr := statFile(w.path)
	if !force && statErr == nil && st == w.stamp {
		return nil
	}
	w.stamp = st
	now := time.Now()
	w.status.CheckedAt = now

	err := statErr
	var recs []Record
	if err == nil {
		recs, err = readFile(w.path)
	}
	if err != nil {
		if w.status.Err == nil || w.status.Err.Error() != err.Error() {
			w.logger.Error("key file: keeping previous keys", "path", w.path, "error", err)
		}
		w.status.Err = err
		return err
	}
	set := NewSet(recs)
	w.set.Store(set)
	w.logger.Info("key file loaded", "path", w.path, "keys", set.Len(), "exists", st.exists)
	w.status = Status{LoadedAt: now, CheckedAt: now, Keys: set.Len()}
	return nil
}

func statFile(path string) (stamp, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return stamp{}, nil
	}
	if err != nil {
		return stamp{}, fmt.Errorf("stat key file: %w", err)
	}
	return stamp{exists: true, mtime: fi.ModTime().UnixNano(), size: fi.Size(), inode: inode(fi)}, nil
}
