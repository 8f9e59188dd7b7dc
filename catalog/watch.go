package catalog

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/internal/filewatch"
)

// Default timings of a Watcher.
const (
	DefaultDebounce = 100 * time.Millisecond
	DefaultPoll     = 5 * time.Second
	// DefaultTimeout bounds one load. The shipped catalog compiles in well
	// under a second; the limits on files and exact numbers keep hostile
	// input fast to refuse, and the timeout is the backstop.
	DefaultTimeout = 30 * time.Second
)

// A Watcher recompiles a catalog directory whenever it changes and hands
// each outcome to OnReload: a graph when the whole catalog compiled, the
// errors otherwise. A failed reload publishes nothing, so whoever serves
// the last good graph keeps serving it.
//
// Three triggers lead to the same reload (see package filewatch):
// file-system events on the directory's *.yaml files, debounced so a burst
// of events compiles once; Reload, for SIGHUP; and a periodic poll that
// stats the files (it reads nothing unless a name, size, mode or mtime
// changed) and catches events the watcher missed.
type Watcher struct {
	Dir string
	// OnReload receives every reload outcome: exactly one of g and errs is
	// non-nil. It is called from one goroutine at a time.
	OnReload func(g *engine.Graph, errs []error)
	// OnReloadStart, if set, is told when a reload starts, before it
	// reads anything.
	OnReloadStart func(at time.Time)
	Logger        *slog.Logger
	Debounce      time.Duration // default DefaultDebounce
	Poll          time.Duration // default DefaultPoll; negative disables polling
	Timeout       time.Duration // default DefaultTimeout

	once sync.Once
	fw   *filewatch.Watcher

	mu       sync.Mutex // guards the outcome of the last reload
	lastG    *engine.Graph
	lastErrs []error

	cache decodeCache // decoded files, so a reload decodes only what changed
	busy  loadSlot    // a load that outlived its timeout still holds it
	// served is set once a load succeeded: from then on a failed reload
	// leaves the last good graph serving.
	served bool
}

func (w *Watcher) init() {
	w.once.Do(func() {
		debounce := w.Debounce
		if debounce <= 0 {
			debounce = DefaultDebounce
		}
		poll := w.Poll
		if poll == 0 {
			poll = DefaultPoll
		}
		w.fw = &filewatch.Watcher{
			Dir:      w.Dir,
			Match:    func(base string) bool { return filepath.Ext(base) == ".yaml" },
			Stamp:    func() (string, error) { return statStamp(os.DirFS(w.Dir)) },
			Load:     func(reason string) { w.reload(reason) },
			Logger:   w.logger().With("dir", w.Dir),
			Debounce: debounce,
			Poll:     poll,
		}
		// A change refused while a load ran is loaded when it ends.
		w.busy.retry = w.fw.Reload
	})
}

// Reload asks the running watcher to recompile now.
func (w *Watcher) Reload() {
	w.init()
	w.fw.Reload()
}

// LoadNow compiles the directory once, synchronously, and reports the
// outcome to OnReload. It returns the graph, or nil and the errors. Call it
// before Run.
func (w *Watcher) LoadNow() (*engine.Graph, []error) {
	w.init()
	w.fw.LoadNow("initial load")
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.lastG, w.lastErrs
}

// Run watches the directory until ctx is done.
func (w *Watcher) Run(ctx context.Context) error {
	w.init()
	return w.fw.Run(ctx)
}

func (w *Watcher) logger() *slog.Logger {
	if w.Logger != nil {
		return w.Logger
	}
	return slog.Default()
}

// reload is the one function every trigger goes through: compile the whole
// directory and report the outcome.
func (w *Watcher) reload(reason string) {
	start := time.Now()
	if w.OnReloadStart != nil {
		w.OnReloadStart(start)
	}
	timeout := w.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	g, errs := w.busy.run(timeout, func(ctx context.Context) (*engine.Graph, []error) {
		g, errs, _ := load(ctx, os.DirFS(w.Dir), &w.cache)
		return g, errs
	})
	log := w.logger().With("dir", w.Dir, "reason", reason, "duration_ms", float64(time.Since(start).Microseconds())/1000)
	if len(errs) > 0 && !w.served {
		// Nothing has loaded yet, so nothing keeps serving: the caller of
		// LoadNow reports the problems, once.
		g = nil
	} else if len(errs) > 0 {
		for _, err := range errs {
			log.Error("catalog reload failed; the last good catalog keeps serving", "err", err.Error())
		}
		g = nil
	} else {
		log.Info("catalog loaded", "version", g.Version(), "categories", len(g.Categories()), "units", len(g.Units()))
	}
	w.mu.Lock()
	w.lastG, w.lastErrs = g, errs
	w.mu.Unlock()
	if g != nil {
		w.served = true
	}
	if w.OnReload != nil {
		w.OnReload(g, errs)
	}
}

// statStamp fingerprints the catalog files in fsys from their metadata
// alone: names, sizes, modes and modification times. Reading nothing, it
// is cheap enough for a frequent poll.
func statStamp(fsys fs.FS) (string, error) {
	names, err := fs.Glob(fsys, "*.yaml")
	if err != nil {
		return "", fmt.Errorf("listing catalog files: %w", err)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, name := range names {
		fi, err := fs.Stat(fsys, name)
		if err != nil {
			return "", fmt.Errorf("%s: %w", name, err)
		}
		fmt.Fprintf(h, "%s\x00%d\x00%d\x00%v\x00", name, fi.Size(), fi.ModTime().UnixNano(), fi.Mode())
	}
	return hex.EncodeToString(h.Sum(nil)), nil
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
