// Package filewatch tells its owner when files in one directory change.
//
// It is the one mechanism behind unitd's catalog and key-file watchers. It
// watches the directory (not the files), so editors and writers that save
// by renaming a temporary file are seen, and so are created and deleted
// files. Three triggers lead to the same Load call, made from one goroutine:
//
//   - file-system events on matching names, debounced so that a burst of
//     events loads once;
//   - Reload, for SIGHUP;
//   - a periodic poll of a cheap fingerprint (Stamp), which catches changes
//     that sent no event, and a check of that fingerprint right after the
//     watch is in place, which catches changes made before it was.
//
// The fingerprint is taken before each Load, so a change made while Load
// reads gives a new fingerprint at the next poll and loads again.
package filewatch

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Reasons given to Load.
const (
	ReasonEvent     = "file change"
	ReasonRequested = "reload requested"
	ReasonPoll      = "poll found a change"
	ReasonStart     = "changed before the watch started"
)

// A Watcher follows one directory. Set the fields, then call Run.
type Watcher struct {
	Dir string
	// Match says whether an event on the file with this base name matters.
	Match func(base string) bool
	// Stamp fingerprints what Load would read, cheaply (stat, not read): a
	// different stamp means Load must run. An error is part of the stamp.
	Stamp func() (string, error)
	// Load rereads the files. It is called from one goroutine at a time.
	Load func(reason string)
	// Logger receives watch errors; nil discards them.
	Logger   *slog.Logger
	Debounce time.Duration // quiet time after the last event before loading; must be > 0
	Poll     time.Duration // stamp poll interval; ≤ 0 disables polling

	// Hooks for tests: the poll ticker's channel, and the timer used for
	// debouncing. Nil means the real clock.
	tick  <-chan time.Time
	after func(time.Duration) <-chan time.Time

	once    sync.Once
	trigger chan struct{}
	ready   chan struct{}

	mu   sync.Mutex // serialises loads and guards last
	last string     // stamp taken before the last Load
}

func (w *Watcher) init() {
	w.once.Do(func() {
		w.trigger = make(chan struct{}, 1)
		w.ready = make(chan struct{})
	})
}

// Ready is closed once Run has its watch in place and has checked for
// changes made before it: from then on no change goes unseen.
func (w *Watcher) Ready() <-chan struct{} {
	w.init()
	return w.ready
}

// Reload asks Run to load now. It does not wait; requests made while one
// is pending merge into it.
func (w *Watcher) Reload() {
	w.init()
	select {
	case w.trigger <- struct{}{}:
	default:
	}
}

// LoadNow takes the stamp and calls Load at once, on the caller's
// goroutine (for the initial load, before Run).
func (w *Watcher) LoadNow(reason string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.last = w.stamp()
	w.Load(reason)
}

// check loads if the stamp differs from the one of the last load.
func (w *Watcher) check(reason string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	s := w.stamp()
	if s == w.last {
		return
	}
	w.last = s
	w.Load(reason)
}

func (w *Watcher) stamp() string {
	s, err := w.Stamp()
	if err != nil {
		return "error: " + err.Error()
	}
	return s
}

// Run follows the directory until ctx is done. Without fsnotify (or when
// the directory cannot be watched) it logs why and relies on the poll.
func (w *Watcher) Run(ctx context.Context) error {
	w.init()
	if w.Debounce <= 0 {
		return fmt.Errorf("watching %s: debounce must be positive", w.Dir)
	}
	var events <-chan fsnotify.Event
	var errs <-chan error
	if fsw, err := fsnotify.NewWatcher(); err != nil {
		w.logger().Warn("cannot start fsnotify, polling only", "dir", w.Dir, "err", err)
	} else {
		defer fsw.Close()
		if err := fsw.Add(w.Dir); err != nil {
			w.logger().Warn("cannot watch directory, polling only", "dir", w.Dir, "err", err)
		} else {
			events, errs = fsw.Events, fsw.Errors
		}
	}
	return w.loop(ctx, events, errs)
}

// loop is Run once the watch is set up: events and errs may be nil.
func (w *Watcher) loop(ctx context.Context, events <-chan fsnotify.Event, errs <-chan error) error {
	w.init()
	// Whatever changed between the last load and now sent no event we
	// will see: compare stamps now that the watch is in place.
	w.check(ReasonStart)
	close(w.ready)

	tick := w.tick
	if tick == nil && w.Poll > 0 {
		t := time.NewTicker(w.Poll)
		defer t.Stop()
		tick = t.C
	}
	after := w.after
	if after == nil {
		after = time.After
	}
	var quiet <-chan time.Time // fires once events have stopped for Debounce
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-events:
			if !ok {
				events = nil
				continue
			}
			if ev.Name == "" || ev.Op == fsnotify.Chmod || !w.Match(filepath.Base(ev.Name)) {
				continue
			}
			quiet = after(w.Debounce)
		case err, ok := <-errs:
			if !ok {
				errs = nil
				continue
			}
			w.logger().Warn("watch error; the poll still runs", "dir", w.Dir, "err", err)
		case <-quiet:
			quiet = nil
			w.mu.Lock()
			w.last = w.stamp()
			w.Load(ReasonEvent)
			w.mu.Unlock()
		case <-w.trigger:
			w.LoadNow(ReasonRequested)
		case <-tick:
			w.check(ReasonPoll)
		}
	}
}

func (w *Watcher) logger() *slog.Logger {
	if w.Logger != nil {
		return w.Logger
	}
	return slog.New(slog.DiscardHandler)
}
