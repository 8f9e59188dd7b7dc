package filewatch

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
)

// harness drives a Watcher's loop with synthetic events, a poll ticker and
// a debounce timer the test fires itself: no test here waits on the clock.
type harness struct {
	w      *Watcher
	events chan fsnotify.Event
	tick   chan time.Time
	afters chan chan time.Time // one per debounce timer the loop started
	loads  chan string         // reasons, in order

	mu    sync.Mutex
	stamp string
}

func newHarness(t *testing.T) *harness {
	h := &harness{
		events: make(chan fsnotify.Event),
		tick:   make(chan time.Time),
		afters: make(chan chan time.Time, 100),
		loads:  make(chan string, 100),
		stamp:  "v1",
	}
	h.w = &Watcher{
		Dir:      t.TempDir(),
		Match:    func(base string) bool { return filepath.Ext(base) == ".yaml" },
		Stamp:    func() (string, error) { h.mu.Lock(); defer h.mu.Unlock(); return h.stamp, nil },
		Load:     func(reason string) { h.loads <- reason },
		Debounce: time.Hour, // never fires by itself: the fake timer replaces it
		tick:     h.tick,
		after: func(time.Duration) <-chan time.Time {
			c := make(chan time.Time, 1)
			h.afters <- c
			return c
		},
	}
	return h
}

func (h *harness) setStamp(s string) { h.mu.Lock(); h.stamp = s; h.mu.Unlock() }

// start runs the loop until the test ends and waits until it is ready.
func (h *harness) start(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- h.w.loop(ctx, h.events, nil) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("loop: %v", err)
		}
	})
	<-h.w.Ready()
}

// sync makes the loop finish what it was sent: a reload request is served
// after everything before it, so the next load reported must be this one.
func (h *harness) sync(t *testing.T) {
	t.Helper()
	h.w.Reload()
	if got := <-h.loads; got != ReasonRequested {
		t.Fatalf("load %q before the requested one", got)
	}
}

func TestDebounceLoadsOncePerBurst(t *testing.T) {
	h := newHarness(t)
	h.w.LoadNow("initial")
	<-h.loads
	h.start(t)
	var last chan time.Time
	for range 50 {
		h.events <- fsnotify.Event{Name: filepath.Join(h.w.Dir, "length.yaml"), Op: fsnotify.Write}
		last = <-h.afters
	}
	last <- time.Now()
	if got := <-h.loads; got != ReasonEvent {
		t.Fatalf("load reason %q, want %q", got, ReasonEvent)
	}
	h.sync(t) // no second load for the burst
}

func TestEventsThatCannotMatterAreIgnored(t *testing.T) {
	h := newHarness(t)
	h.w.LoadNow("initial")
	<-h.loads
	h.start(t)
	for _, ev := range []fsnotify.Event{
		{Name: filepath.Join(h.w.Dir, "notes.txt"), Op: fsnotify.Write},
		{Name: filepath.Join(h.w.Dir, ".length.yaml.swp"), Op: fsnotify.Create},
		{Name: filepath.Join(h.w.Dir, "length.yaml"), Op: fsnotify.Chmod},
		{Name: "", Op: fsnotify.Write},
	} {
		h.events <- ev
	}
	// A relevant event after them: its timer must be the first one.
	h.events <- fsnotify.Event{Name: filepath.Join(h.w.Dir, "length.yaml"), Op: fsnotify.Remove}
	<-h.afters
	if n := len(h.afters); n != 0 {
		t.Fatalf("%d debounce timers started for events that cannot matter", n)
	}
}

func TestPollLoadsOnlyWhenTheStampChanges(t *testing.T) {
	h := newHarness(t)
	h.w.LoadNow("initial")
	<-h.loads
	h.start(t)

	h.tick <- time.Now()
	h.sync(t) // unchanged stamp: the tick loaded nothing

	h.setStamp("v2")
	h.tick <- time.Now()
	if got := <-h.loads; got != ReasonPoll {
		t.Fatalf("load reason %q, want %q", got, ReasonPoll)
	}
	h.tick <- time.Now()
	h.sync(t) // the poll recorded v2: no second load
}

func TestChangeBeforeTheWatchIsLoadedBeforeReady(t *testing.T) {
	h := newHarness(t)
	h.w.LoadNow("initial")
	<-h.loads
	h.setStamp("edited before Run")
	h.start(t) // returns once Ready is closed
	select {
	case got := <-h.loads:
		if got != ReasonStart {
			t.Fatalf("load reason %q, want %q", got, ReasonStart)
		}
	default:
		t.Fatal("the change made before the watch was not loaded by the time the watcher was ready")
	}
}

func TestStampErrorIsAChange(t *testing.T) {
	h := newHarness(t)
	calls := 0
	h.w.Stamp = func() (string, error) {
		calls++
		if calls == 1 {
			return "v1", nil
		}
		return "", os.ErrPermission
	}
	h.w.LoadNow("initial")
	<-h.loads
	h.start(t)
	if got := <-h.loads; got != ReasonStart {
		t.Fatalf("load reason %q, want %q: a stamp that fails must reload so the owner reports the error", got, ReasonStart)
	}
}

// TestRunFollowsARealDirectory uses fsnotify itself: a file renamed into
// place (as the key store and many editors save) is loaded. The only wait
// is for the load to be reported, bounded so a lost event fails the test.
func TestRunFollowsARealDirectory(t *testing.T) {
	dir := t.TempDir()
	loads := make(chan string, 10)
	w := &Watcher{
		Dir:      dir,
		Match:    func(base string) bool { return base == "keys.json" },
		Stamp:    func() (string, error) { return "constant", nil }, // only events can trigger
		Load:     func(reason string) { loads <- reason },
		Debounce: time.Millisecond,
	}
	w.LoadNow("initial")
	<-loads
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- w.Run(ctx) }()
	defer func() { cancel(); <-done }()
	<-w.Ready()

	tmp := filepath.Join(dir, ".keys.json.tmp")
	if err := os.WriteFile(tmp, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, "keys.json")); err != nil {
		t.Fatal(err)
	}
	select {
	case got := <-loads:
		if got != ReasonEvent {
			t.Fatalf("load reason %q, want %q", got, ReasonEvent)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("rename into the directory not seen within 10s")
	}
}

func TestRunRefusesZeroDebounce(t *testing.T) {
	w := &Watcher{Dir: t.TempDir()}
	if err := w.Run(context.Background()); err == nil {
		t.Fatal("Run accepted a zero debounce")
	}
}
