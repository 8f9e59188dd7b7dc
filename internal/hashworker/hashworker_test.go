package hashworker

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"log/slog"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/argon2"
)

// TestMain lets the test binary be the helper: with HASHWORKER_HELPER set
// to a budget in bytes it serves keys on its standard input and output.
func TestMain(m *testing.M) {
	if b := os.Getenv("HASHWORKER_HELPER"); b != "" {
		budget, _ := strconv.ParseInt(b, 10, 64)
		if err := Serve(os.Stdin, os.Stdout, budget, slog.New(slog.NewTextHandler(os.Stderr, nil))); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func newWorker(t *testing.T, budget int64) *Worker {
	t.Helper()
	w := &Worker{Command: func() *exec.Cmd {
		cmd := Command(os.Args[0])
		cmd.Env = append(os.Environ(), "HASHWORKER_HELPER="+strconv.FormatInt(budget, 10))
		return cmd
	}}
	t.Cleanup(func() { w.Close() })
	if err := w.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	return w
}

func TestWorkerComputesArgon2id(t *testing.T) {
	w := newWorker(t, 1<<20)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			pw, salt := make([]byte, 1+i*7), make([]byte, 16)
			rand.Read(pw)
			rand.Read(salt)
			p := Params{Memory: uint32(64 + 64*i), Time: uint32(1 + i%3), Threads: uint8(1 + i%2), KeyLen: 32}
			got, err := w.Key(context.Background(), pw, salt, p)
			if err != nil {
				t.Error(err)
				return
			}
			if want := argon2.IDKey(pw, salt, p.Time, p.Memory, p.Threads, p.KeyLen); !bytes.Equal(got, want) {
				t.Errorf("key %d: the helper computed %x, argon2.IDKey %x", i, got, want)
			}
		})
	}
	wg.Wait()
}

func TestWorkerRefusesWhatItsBudgetCannotHold(t *testing.T) {
	w := newWorker(t, 1<<20)
	_, err := w.Key(context.Background(), []byte("pw"), []byte("saltsaltsaltsalt"), Params{Memory: 2 << 10, Time: 1, Threads: 1, KeyLen: 32})
	if err == nil || !strings.Contains(err.Error(), "out of bounds") {
		t.Errorf("2 MiB within a 1 MiB budget: %v, want a refusal", err)
	}
	if err := w.Start(context.Background()); err != nil {
		t.Errorf("the helper after a refused request: %v", err)
	}
}

func TestWorkerStartsAgainAfterExit(t *testing.T) {
	w := newWorker(t, 1<<20)
	first := w.cur
	first.cmd.Process.Kill()
	<-first.done
	if !errors.Is(first.err, ErrExited) {
		t.Errorf("a killed helper ended with %v", first.err)
	}
	if err := w.Start(context.Background()); err != nil {
		t.Fatalf("after the helper was killed: %v", err)
	}
	if w.cur == first || w.cur.cmd.Process.Pid == first.cmd.Process.Pid {
		t.Error("no new helper was started")
	}
}

func TestLaunchDoesNotWait(t *testing.T) {
	w := &Worker{Command: func() *exec.Cmd { return Command("/nonexistent/unitd") }}
	if err := w.Launch(); err == nil {
		t.Error("a binary that does not exist launched")
	}
	w = newWorker(t, 1<<20)
	if err := w.Launch(); err != nil { // running already: nothing to do
		t.Error(err)
	}
}

// TestHungWorkerIsEnded: a helper that does not answer is ended after the
// timeout, its callers get ErrExited, and the next key starts a new one.
func TestHungWorkerIsEnded(t *testing.T) {
	w := newWorker(t, 64<<20)
	first := w.cur
	w.Timeout = time.Nanosecond // no helper answers a 32 MiB key that fast
	_, err := w.Key(context.Background(), []byte("pw"), []byte("saltsaltsaltsalt"), Params{Memory: 32 << 10, Time: 4, Threads: 1, KeyLen: 32})
	if !errors.Is(err, ErrExited) {
		t.Fatalf("a key past the timeout: %v, want ErrExited", err)
	}
	<-first.done
	w.Timeout = 0
	if err := w.Start(context.Background()); err != nil || w.cur == first {
		t.Errorf("after the hung helper was ended: %v (new helper: %v)", err, w.cur != first)
	}
}
