package catalog

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/unitd/unitd/engine"
)

const watchLength = `category:
  id: length
  name: Length
  dimension: {L: 1}
  base: m
units:
  - symbol: m
    name: metre
    plural: metres
    system: SI
    exact: true
    source: SI Brochure
  - symbol: ft
    name: foot
    plural: feet
    system: international
    definition: {factor: %s, unit: m}
    exact: true
    source: NIST SP 811
`

const watchTime = `category:
  id: time
  name: Time
  dimension: {T: 1}
  base: s
units:
  - symbol: s
    name: second
    plural: seconds
    system: SI
    exact: true
    source: SI Brochure
`

// outcome is one report of a Watcher.
type outcome struct {
	g    *engine.Graph
	errs []error
}

// startWatcher runs a Watcher on dir and returns its outcomes.
func startWatcher(t *testing.T, dir string, debounce time.Duration) (*Watcher, <-chan outcome, *atomic.Int64) {
	t.Helper()
	out := make(chan outcome, 100)
	var count atomic.Int64
	w := &Watcher{Dir: dir, Debounce: debounce, Poll: -1, OnReload: func(g *engine.Graph, errs []error) {
		count.Add(1)
		out <- outcome{g, errs}
	}}
	if _, errs := w.LoadNow(); errs != nil {
		t.Fatal(errs)
	}
	<-out
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := w.Run(ctx); err != nil {
			t.Error(err)
		}
	}()
	t.Cleanup(func() { cancel(); <-done })
	<-w.fw.Ready()
	return w, out, &count
}

// next waits for the watcher's next outcome (bounded, so a lost event
// fails the test instead of hanging it).
func next(t *testing.T, out <-chan outcome) outcome {
	t.Helper()
	select {
	case o := <-out:
		return o
	case <-time.After(10 * time.Second):
		t.Fatal("no reload within 10s")
		return outcome{}
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func convert(t *testing.T, g *engine.Graph, v, from, to string) string {
	t.Helper()
	r, err := g.Convert(engine.Request{Value: v, From: from, To: to})
	if err != nil {
		t.Fatal(err)
	}
	return r.Value
}

func TestWatcherReloadsEdits(t *testing.T) {
	dir := t.TempDir()
	length := filepath.Join(dir, "length.yaml")
	write(t, length, fmt.Sprintf(watchLength, "0.3048"))
	_, out, _ := startWatcher(t, dir, 20*time.Millisecond)

	t.Run("edit in place", func(t *testing.T) {
		write(t, length, fmt.Sprintf(watchLength, "0.5"))
		o := next(t, out)
		if o.g == nil || convert(t, o.g, "2", "ft", "m") != "1" {
			t.Fatalf("edit not applied: %v", o.errs)
		}
	})
	t.Run("rename over", func(t *testing.T) {
		tmp := filepath.Join(dir, ".length.yaml.swp")
		write(t, tmp, fmt.Sprintf(watchLength, "0.25"))
		if err := os.Rename(tmp, length); err != nil {
			t.Fatal(err)
		}
		o := next(t, out)
		if o.g == nil || convert(t, o.g, "4", "ft", "m") != "1" {
			t.Fatalf("rename not applied: %v", o.errs)
		}
	})
	t.Run("create", func(t *testing.T) {
		write(t, filepath.Join(dir, "time.yaml"), watchTime)
		o := next(t, out)
		if o.g == nil {
			t.Fatal(o.errs)
		}
		if _, ok := o.g.Category("time"); !ok {
			t.Fatal("new category not loaded")
		}
	})
	t.Run("delete", func(t *testing.T) {
		if err := os.Remove(filepath.Join(dir, "time.yaml")); err != nil {
			t.Fatal(err)
		}
		o := next(t, out)
		if o.g == nil {
			t.Fatal(o.errs)
		}
		if _, ok := o.g.Category("time"); ok {
			t.Fatal("deleted category still loaded")
		}
	})
	t.Run("broken then fixed", func(t *testing.T) {
		write(t, length, strings.Replace(fmt.Sprintf(watchLength, "0.3048"), "unit: m}", "unit: mtr}", 1))
		o := next(t, out)
		if o.g != nil || len(o.errs) != 1 {
			t.Fatalf("broken catalog: graph %v, errors %v", o.g, o.errs)
		}
		if got := o.errs[0].Error(); !strings.HasPrefix(got, "length.yaml:17:17: ") {
			t.Errorf("error %q does not name file and line", got)
		}
		write(t, length, fmt.Sprintf(watchLength, "0.3048"))
		o = next(t, out)
		if o.g == nil || convert(t, o.g, "1", "ft", "m") != "0.3048" {
			t.Fatalf("fix not applied: %v", o.errs)
		}
	})
}

// TestWatcherMatchesCatalogFilesOnly: events on other files (notes, editor
// swap and backup files) cannot start a reload.
func TestWatcherMatchesCatalogFilesOnly(t *testing.T) {
	w := &Watcher{Dir: t.TempDir()}
	w.init()
	for name, want := range map[string]bool{
		"length.yaml": true, "notes.txt": false, ".length.yaml.swp": false,
		"length.yaml~": false, "length.yml": false,
	} {
		if got := w.fw.Match(name); got != want {
			t.Errorf("Match(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestWatcherBurstEndsOnLastContent saves the same file 50 times in a
// row: whatever the debounce makes of the burst, the last reload holds the
// last content. (That a burst loads once is tested in package filewatch,
// where the test controls the debounce timer.)
func TestWatcherBurstEndsOnLastContent(t *testing.T) {
	dir := t.TempDir()
	length := filepath.Join(dir, "length.yaml")
	write(t, length, fmt.Sprintf(watchLength, "0.3048"))
	_, out, _ := startWatcher(t, dir, 20*time.Millisecond)
	for i := 1; i <= 50; i++ {
		write(t, length, fmt.Sprintf(watchLength, fmt.Sprintf("%d", i)))
	}
	var last outcome
	for last.g == nil || convert(t, last.g, "1", "ft", "m") != "50" {
		last = next(t, out)
	}
}

// TestChecksumIsTheGraphVersion: Checksum gives the version Load would
// give, without compiling, and changes with the content.
func TestChecksumIsTheGraphVersion(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "length.yaml"), fmt.Sprintf(watchLength, "0.3048"))
	a, err := Checksum(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	g, errs := Load(os.DirFS(dir))
	if errs != nil || g.Version() != a {
		t.Fatalf("Checksum %s != graph version %v (%v)", a, g, errs)
	}
	write(t, filepath.Join(dir, "length.yaml"), fmt.Sprintf(watchLength, "0.31"))
	if b, _ := Checksum(os.DirFS(dir)); b == a {
		t.Error("checksum unchanged after an edit")
	}
}

// statOnly is a file system whose files can be listed and stat'ed but not
// read: a poll that reads file contents fails on it.
type statOnly struct{ fstest.MapFS }

func (f statOnly) Open(name string) (fs.File, error) {
	if name == "." {
		return f.MapFS.Open(name)
	}
	return nil, fmt.Errorf("poll read %s", name)
}

// TestPollStampReadsNothing: the stamp the poll compares sees every kind
// of change to a catalog file from its metadata, and reads no file.
func TestPollStampReadsNothing(t *testing.T) {
	base := func() fstest.MapFS {
		return fstest.MapFS{
			"length.yaml": {Data: []byte("aaaa"), ModTime: time.Unix(100, 0), Mode: 0o644},
			"notes.txt":   {Data: []byte("x")},
		}
	}
	stamp := func(m fstest.MapFS) string {
		t.Helper()
		s, err := statStamp(statOnly{m})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	orig := stamp(base())
	if again := stamp(base()); again != orig {
		t.Fatal("stamp of identical metadata differs")
	}
	for name, edit := range map[string]func(fstest.MapFS){
		"same size, new mtime": func(m fstest.MapFS) { m["length.yaml"].ModTime = time.Unix(100, 1) },
		"new size":             func(m fstest.MapFS) { m["length.yaml"].Data = []byte("aaaaa") },
		"new mode":             func(m fstest.MapFS) { m["length.yaml"].Mode = 0o600 },
		"new file":             func(m fstest.MapFS) { m["time.yaml"] = &fstest.MapFile{} },
		"renamed":              func(m fstest.MapFS) { m["len.yaml"] = m["length.yaml"]; delete(m, "length.yaml") },
	} {
		m := base()
		edit(m)
		if stamp(m) == orig {
			t.Errorf("%s: stamp unchanged", name)
		}
	}
	m := base()
	m["notes.txt"].Data = []byte("not a catalog file")
	if stamp(m) != orig {
		t.Error("stamp changed for a file that is not a catalog file")
	}
}

// TestWatcherCatchesEditBeforeRun edits the catalog between the initial
// load and the start of the watch, when no event can be seen.
func TestWatcherCatchesEditBeforeRun(t *testing.T) {
	dir := t.TempDir()
	length := filepath.Join(dir, "length.yaml")
	write(t, length, fmt.Sprintf(watchLength, "0.3048"))
	out := make(chan outcome, 10)
	w := &Watcher{Dir: dir, Poll: -1, OnReload: func(g *engine.Graph, errs []error) { out <- outcome{g, errs} }}
	if _, errs := w.LoadNow(); errs != nil {
		t.Fatal(errs)
	}
	<-out
	write(t, length, fmt.Sprintf(watchLength, "0.5"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go w.Run(ctx)
	if o := next(t, out); o.g == nil || convert(t, o.g, "2", "ft", "m") != "1" {
		t.Fatalf("edit before the watch was not applied: %v", o.errs)
	}
}
