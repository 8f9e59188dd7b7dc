package apikey

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// waitFor waits until a load attempt leaves the watcher in a state where
// cond holds. The bound is not a timing assumption: it only turns a lost
// change into a failure instead of a hung test.
func waitFor(t *testing.T, loads <-chan Status, what string, cond func() bool) {
	t.Helper()
	timeout := time.After(30 * time.Second)
	for !cond() {
		select {
		case <-loads:
		case <-timeout:
			t.Fatalf("%s: never loaded", what)
		}
	}
}

// syncBuffer is a bytes.Buffer safe for a logger and a test to share.
type syncBuffer struct {
	mu sync.Mutex // guards b
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// startWatcher runs a Watcher on path until the test ends, with one of its
// two triggers switched off: fsnotify (its debounce never ends) or the
// stat poll. It returns the statuses of the watcher's load attempts.
func startWatcher(t *testing.T, path string, trigger string) (*Watcher, *syncBuffer, <-chan Status) {
	t.Helper()
	var logs syncBuffer
	w, err := NewWatcher(path, slog.New(slog.NewTextHandler(&logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	switch trigger {
	case "fsnotify":
		w.fw.Poll = -1
	case "poll":
		w.fw.Debounce, w.fw.Poll = time.Hour, time.Millisecond
	default:
		t.Fatalf("unknown trigger %q", trigger)
	}
	loads := make(chan Status, 1000)
	w.loaded = func(st Status) { loads <- st }
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- w.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	return w, &logs, loads
}

func TestWatcher(t *testing.T) {
	for _, trigger := range []string{"fsnotify", "poll"} {
		t.Run(trigger, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "keys.json")
			store := &Store{Path: path}
			w, logs, loads := startWatcher(t, path, trigger)
			if n := w.Current().Len(); n != 0 {
				t.Fatalf("missing file gives %d keys, want 0", n)
			}
			if st := w.Status(); st.Err != nil || st.LoadedAt.IsZero() {
				t.Fatalf("missing file: status %+v, want loaded without error", st)
			}
			auth := func(key string) error {
				_, err := w.Current().Authenticate(key, EnvTest, time.Now())
				return err
			}

			key, rec, err := store.Create("ci", EnvTest)
			if err != nil {
				t.Fatal(err)
			}
			waitFor(t, loads, "created key", func() bool { return auth(key) == nil })

			if err := store.Revoke(rec.ID); err != nil {
				t.Fatal(err)
			}
			waitFor(t, loads, "revocation", func() bool { return errors.Is(auth(key), ErrUnknown) })

			// Expiry: rotate with a grace period; the old key carries its
			// expiry into the running set.
			key2, rec2, err := store.Create("billing", EnvTest)
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := store.Rotate(rec2.ID, time.Hour); err != nil {
				t.Fatal(err)
			}
			waitFor(t, loads, "rotation", func() bool { return w.Current().Len() == 3 })
			if err := auth(key2); err != nil {
				t.Errorf("old key during grace: %v", err)
			}
			if _, err := w.Current().Authenticate(key2, EnvTest, time.Now().Add(time.Hour)); !errors.Is(err, ErrUnknown) {
				t.Errorf("old key after grace: err = %v, want ErrUnknown", err)
			}

			// A malformed file keeps the last good set and is reported.
			if err := os.WriteFile(path, []byte(`{"version":1,"keys":[`), 0o600); err != nil {
				t.Fatal(err)
			}
			waitFor(t, loads, "load error", func() bool { return w.Status().Err != nil })
			if err := auth(key2); err != nil {
				t.Errorf("after a bad write the last good set should still serve: %v", err)
			}
			if !strings.Contains(logs.String(), "keeping previous keys") {
				t.Errorf("load error not logged; logs:\n%s", logs)
			}

			// Repairing the file clears the error.
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			key3, _, err := store.Create("fresh", EnvTest)
			if err != nil {
				t.Fatal(err)
			}
			waitFor(t, loads, "repair", func() bool { return auth(key3) == nil })
			if st := w.Status(); st.Err != nil || st.Keys != 1 {
				t.Errorf("status after repair: %+v", st)
			}
			if auth(key2) == nil {
				t.Error("key from the replaced file still accepted")
			}
			for _, k := range []string{key, key2, key3} {
				if strings.Contains(logs.String(), k[8:]) {
					t.Error("a key was logged")
				}
			}
		})
	}
}

func TestNewWatcherBadFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys.json")
	if err := os.WriteFile(path, []byte("not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := NewWatcher(path, nil); err == nil {
		t.Fatal("NewWatcher accepted a malformed file")
	}
}

func TestWatcherReload(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys.json")
	w, err := NewWatcher(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	key, _, err := (&Store{Path: path}).Create("ci", EnvTest)
	if err != nil {
		t.Fatal(err)
	}
	// Not running: nothing changes until Reload.
	if w.Current().Len() != 0 {
		t.Fatal("set changed without Run or Reload")
	}
	if err := w.Reload(); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Current().Authenticate(key, EnvTest, time.Now()); err != nil {
		t.Errorf("after Reload: %v", err)
	}
	if err := os.WriteFile(path, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := w.Reload(); err == nil {
		t.Error("Reload of a bad file returned nil")
	}
	if w.Current().Len() != 1 || w.Status().Err == nil {
		t.Errorf("bad reload: %d keys, status %+v; want last good set and an error", w.Current().Len(), w.Status())
	}
}

// TestWatcherSeesEditBeforeRun revokes a key between the initial load and
// Run, with the poll off: no event can report that edit, so only the check
// made once the watch is in place can.
func TestWatcherSeesEditBeforeRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys.json")
	store := &Store{Path: path}
	key, rec, err := store.Create("ci", EnvTest)
	if err != nil {
		t.Fatal(err)
	}
	w, err := NewWatcher(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.fw.Poll = -1
	loads := make(chan Status, 10)
	w.loaded = func(st Status) { loads <- st }
	if err := store.Revoke(rec.ID); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- w.Run(ctx) }()
	defer func() { cancel(); <-done }()
	<-w.fw.Ready()
	if _, err := w.Current().Authenticate(key, EnvTest, time.Now()); !errors.Is(err, ErrUnknown) {
		t.Fatalf("key revoked before Run still accepted once the watch is ready: %v", err)
	}
}

// TestWatcherKeepsKeysWhenFileDeleted: a key file that disappears after a
// good load is a broken store, not an empty one: the keys stay and the
// status says what is wrong.
func TestWatcherKeepsKeysWhenFileDeleted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys.json")
	key, _, err := (&Store{Path: path}).Create("ci", EnvTest)
	if err != nil {
		t.Fatal(err)
	}
	w, err := NewWatcher(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := w.Reload(); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("Reload of a deleted file = %v, want an error saying it is missing", err)
	}
	if _, err := w.Current().Authenticate(key, EnvTest, time.Now()); err != nil {
		t.Errorf("keys dropped with the file: %v", err)
	}
	if st := w.Status(); st.Err == nil || st.Keys != 1 {
		t.Errorf("status %+v, want the error and the last good key", st)
	}
}

// TestNewWatcherRemovesOrphans: temporary files an interrupted write left
// behind are removed at start; one being written right now is not.
func TestNewWatcherRemovesOrphans(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "keys.json")
	old := filepath.Join(dir, ".keys.json.tmp-123")
	fresh := filepath.Join(dir, ".keys.json.tmp-456")
	for _, p := range []string{old, fresh} {
		if err := os.WriteFile(p, []byte("{"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	past := time.Now().Add(-time.Hour)
	if err := os.Chtimes(old, past, past); err != nil {
		t.Fatal(err)
	}
	if _, err := NewWatcher(path, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(old); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("orphan still there: %v", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("a temporary file being written was removed: %v", err)
	}
}
