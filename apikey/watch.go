package apikey

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

	"github.com/unitd/unitd/internal/filewatch"
)

// Timings of a Watcher: the stat poll is cheap, so it runs often, in case
// fsnotify misses a change or cannot watch the directory.
const (
	pollInterval = 250 * time.Millisecond
	debounce     = 20 * time.Millisecond
)

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
	fw     *filewatch.Watcher
	set    atomic.Pointer[Set]

	mu      sync.Mutex // serialises loads and guards the fields below
	status  Status
	hadFile bool         // the last good set came from an existing file
	loaded  func(Status) // test hook: told of every load attempt
}

// NewWatcher loads the key file at path and returns a Watcher serving it.
// A missing file is an empty set; a file that cannot be read or parsed is an
// error, since there is no earlier good set to fall back on. A nil logger
// discards messages. Call Run to follow changes.
func NewWatcher(path string, logger *slog.Logger) (*Watcher, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	w := &Watcher{path: path, logger: logger}
	w.fw = &filewatch.Watcher{
		Dir:      filepath.Dir(path),
		Match:    func(base string) bool { return base == filepath.Base(path) },
		Stamp:    func() (string, error) { return statStamp(path) },
		Load:     func(string) { w.load() },
		Logger:   logger.With("key_file", path),
		Debounce: debounce,
		Poll:     pollInterval,
	}
	removeOrphans(path, logger)
	w.fw.LoadNow("initial load")
	if err := w.Status().Err; err != nil {
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
func (w *Watcher) Reload() error { return w.load() }

// Run follows changes to the file until ctx is cancelled, then returns nil.
// It watches the parent directory, since the store replaces the file by
// rename, and also polls the file's mtime, size and inode.
func (w *Watcher) Run(ctx context.Context) error { return w.fw.Run(ctx) }

// load reads the file and publishes a new Set if it parses.
func (w *Watcher) load() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	now := time.Now()
	w.status.CheckedAt = now
	_, statErr := os.Stat(w.path)
	missing := errors.Is(statErr, fs.ErrNotExist)
	var recs []Record
	var err error
	if missing && w.hadFile {
		// The file was there and is gone (deleted by mistake, or mid-way
		// through a restore): that is a broken store, not an empty one.
		err = errors.New("key file is missing; keeping the last good keys until it is back")
	} else {
		recs, err = readFile(w.path)
	}
	if err != nil {
		if w.status.Err == nil || w.status.Err.Error() != err.Error() {
			w.logger.Error("key file: keeping previous keys", "path", w.path, "error", err)
		}
		w.status.Err = err
	} else {
		set := NewSet(recs)
		w.set.Store(set)
		w.logger.Info("key file loaded", "path", w.path, "keys", set.Len())
		w.status = Status{LoadedAt: now, CheckedAt: now, Keys: set.Len()}
		w.hadFile = !missing
	}
	if w.loaded != nil {
		w.loaded(w.status)
	}
	return err
}

// statStamp identifies a version of the file cheaply. The store replaces
// the file by rename, so every change gives a new inode.
func statStamp(path string) (string, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "missing", nil
	}
	if err != nil {
		return "", fmt.Errorf("stat key file: %w", err)
	}
	return fmt.Sprintf("%d %d %d %v", fi.ModTime().UnixNano(), fi.Size(), inode(fi), fi.Mode()), nil
}

// orphanAge is how old a temporary file of the store must be to count as
// left behind by a crash rather than being written right now.
const orphanAge = time.Minute

// removeOrphans deletes the temporary files a store writer left next to
// the key file when it crashed before renaming them.
func removeOrphans(path string, logger *slog.Logger) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	matches, _ := filepath.Glob(filepath.Join(dir, "."+base+".tmp-*"))
	for _, m := range matches {
		fi, err := os.Lstat(m)
		if err != nil || !fi.Mode().IsRegular() || time.Since(fi.ModTime()) < orphanAge {
			continue
		}
		if err := os.Remove(m); err == nil {
			logger.Info("key file: removed a temporary file left by an interrupted write", "file", filepath.Base(m))
		}
	}
}
