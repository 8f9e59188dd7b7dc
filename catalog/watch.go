package catalog

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/unitd/unitd/engine"
)

// Default timings of a Watcher.
const (
	DefaultDebounce = 100 * time.Millisecond
	DefaultPoll     = 5 * time.Second
)

// A Watcher recompiles a catalog directory whenever it changes and hands
// each outcome to OnReload: a graph when the whole catalog compiled, the
// errors otherwise. A failed reload publishes nothing, so whoever serves
// the last good graph keeps serving it.
//
// Three triggers lead to the same reload: file-system events on the
// directory (watched as a directory, so editors that save by renaming are
// seen, and so are new and deleted files), debounced so a burst of events
// compiles once; Reload, for SIGHUP; and a periodic checksum poll that
// catches events the watcher missed.
type Watcher struct {
	Dir string
	// OnReload receives every reload outcome: exactly one of g and errs is
	// non-nil. It is called from one goroutine at a time.
	OnReload func(g *engine.Graph, errs []error)
	Logger   *slog.Logger
	Debounce time.Duration // default DefaultDebounce
	Poll     time.Duration // default DefaultPoll; negative disables polling

	trigger chan struct{}
	once    sync.Once

	mu      sync.Mutex
	lastSum string // checksum of the sources last compiled, good or bad

	cache decodeCache // decoded files, so a reload decodes only what changed
}

func (w *Watcher) init() {
	w.once.Do(func() { w.trigger = make(chan struct{}, 1) })
}

// Reload asks the running watcher to recompile now.
func (w *Watcher) Reload() {
	w.init()
	select {
	case w.trigger <- struct{}{}:
	default: // a reload is already pending
	}
}

// LoadNow compiles the directory once, synchronously, and reports the
// outcome to OnReload. It returns the graph, or nil and the errors.
func (w *Watcher) LoadNow() (*engine.Graph, []error) {
	return w.reload("initial load")
}

// Run watches the directory until ctx is done.
func (w *Watcher) Run(ctx context.Context) error {
	w.init()
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watching catalog: %w", err)
	}
	defer fw.Close()
	if err := fw.Add(w.Dir); err != nil {
		return fmt.Errorf("watching catalog %s: %w", w.Dir, err)
	}
	// An edit made between the last load and the watch starting sent no
	// event: compare checksums once now rather than wait for the poll.
	if sum, err := w.checksum(); err == nil && sum != w.last() {
		w.reload("changed before the watch started")
	}
	debounce := w.Debounce
	if debounce <= 0 {
		debounce = DefaultDebounce
	}
	poll := w.Poll
	if poll == 0 {
		poll = DefaultPoll
	}
	var pollC <-chan time.Time
	if poll > 0 {
		t := time.NewTicker(poll)
		defer t.Stop()
		pollC = t.C
	}
	// The debounce timer is reset by each event and fires once things
	// have been quiet for the debounce interval.
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-fw.Events:
			if !ok {
				return errors.New("catalog watcher closed")
			}
			if !relevant(ev) {
				continue
			}
			timer.Reset(debounce)
		case err, ok := <-fw.Errors:
			if !ok {
				return errors.New("catalog watcher closed")
			}
			w.logger().Warn("catalog watch error; the checksum poll still runs", "err", err)
		case <-timer.C:
			w.reload("file change")
		case <-w.trigger:
			w.reload("reload requested")
		case <-pollC:
			if sum, err := w.checksum(); err == nil && sum != w.last() {
				w.reload("checksum poll")
			}
		}
	}
}

// relevant drops events that cannot change a catalog: chmod, and files
// other than *.yaml (editor swap and backup files).
func relevant(ev fsnotify.Event) bool {
	if ev.Name == "" || ev.Op == fsnotify.Chmod {
		return false
	}
	return strings.HasSuffix(ev.Name, ".yaml")
}

func (w *Watcher) logger() *slog.Logger {
	if w.Logger != nil {
		return w.Logger
	}
	return slog.Default()
}

func (w *Watcher) last() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.lastSum
}

// checksum hashes the catalog sources the way Load versions them.
func (w *Watcher) checksum() (string, error) {
	return Checksum(os.DirFS(w.Dir))
}

// reload is the one function every trigger goes through: compile the whole
// directory and report the outcome.
func (w *Watcher) reload(reason string) (*engine.Graph, []error) {
	start := time.Now()
	g, errs, sum := load(os.DirFS(w.Dir), &w.cache)
	w.mu.Lock()
	w.lastSum = sum
	w.mu.Unlock()
	log := w.logger().With("dir", w.Dir, "reason", reason, "duration", time.Since(start))
	if len(errs) > 0 {
		for _, err := range errs {
			log.Error("catalog reload failed; the last good catalog keeps serving", "err", err.Error())
		}
		g = nil
	} else {
		log.Info("catalog loaded", "version", g.Version(), "categories", len(g.Categories()), "units", len(g.Units()))
	}
	if w.OnReload != nil {
		w.OnReload(g, errs)
	}
	return g, errs
}

// Checksum is the version Load gives the catalog in fsys, computed without
// compiling it.
func Checksum(fsys fs.FS) (string, error) {
	files, errs := readSources(fsys)
	if len(errs) > 0 {
		return "", errs[0]
	}
	return version(files), nil
}
