// Package hashworker computes Argon2id keys in a helper process that runs
// at the lowest CPU priority, so that password hashing never takes CPU
// time or memory from the requests of the server that asks for them.
//
// Hashing a password is meant to be expensive: 64 MiB and tens of
// milliseconds of both cores for each sign-in. In the server's own process,
// Go's scheduler would let the hashing goroutines hold every processor for
// up to 10 ms at a time while conversions wait; in a process of its own at
// nice 19, the operating system runs the server first whenever both want a
// core. Its memory is its own as well, bounded by the budget it is given.
//
// A [Worker] starts the helper (the server's own binary, with the command
// line it is told) and hands it keys to compute over the helper's standard
// input and output, one JSON object a line. The helper, [Serve], computes
// them concurrently; the caller bounds how many run at once. A helper that
// exits is started again at the next key.
//
// It knows Argon2id and nothing of accounts: unitd serve hands [Worker.Key]
// to the account domain's password hasher as the function that computes
// its keys.
package hashworker

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/crypto/argon2"
)

// Params are the costs of one Argon2id key: what argon2.IDKey takes
// besides the password and the salt.
type Params struct {
	Time    uint32 // passes
	Memory  uint32 // KiB
	Threads uint8
	KeyLen  uint32 // bytes
}

// request asks for one key; response answers it.
type request struct {
	ID      uint64 `json:"id"`
	Pw      []byte `json:"pw"`
	Salt    []byte `json:"salt"`
	Time    uint32 `json:"t"`
	Memory  uint32 `json:"m"` // KiB
	Threads uint8  `json:"p"`
	KeyLen  uint32 `json:"n"`
}

type response struct {
	ID    uint64 `json:"id"`
	Key   []byte `json:"key,omitempty"`
	Error string `json:"error,omitempty"`
}

// Limits a helper checks on every request, whatever its parent says.
const (
	maxRequest = 4 << 10 // bytes of one request line
	maxKeyLen  = 1024
	maxTime    = 100
)

// Overhead is the memory the helper needs besides the keys it computes (its
// runtime and code): its resident size stays under its budget plus
// Overhead.
const Overhead = 32 << 20

// Serve is the helper: it lowers its own CPU priority as far as it goes,
// then reads requests from r and writes the answers to w until r ends. A
// request that asks for more memory than budget is answered with an error.
// The memory of a key is collected before its answer is written, and given
// back to the operating system whenever no key is being computed, so that
// the keys a caller lets run at once are all the helper holds. Serve never
// logs a password.
func Serve(r io.Reader, w io.Writer, budget int64, logger *slog.Logger) error {
	if err := lowerPriority(); err != nil {
		logger.Warn("password worker: could not lower its CPU priority", "error", err)
	}
	// A backstop: the collections below keep the heap far from it.
	debug.SetMemoryLimit(budget + Overhead/2)
	var running atomic.Int64
	var mu sync.Mutex // guards w
	enc := json.NewEncoder(w)
	answer := func(resp response) error {
		mu.Lock()
		defer mu.Unlock()
		return enc.Encode(resp)
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1024), maxRequest)
	var wg sync.WaitGroup
	defer wg.Wait()
	for sc.Scan() {
		var req request
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			return fmt.Errorf("password worker: a request that is not JSON: %w", err)
		}
		if req.Memory < 8 || int64(req.Memory)<<10 > budget || req.Time < 1 || req.Time > maxTime ||
			req.Threads < 1 || req.KeyLen < 1 || req.KeyLen > maxKeyLen {
			if err := answer(response{ID: req.ID, Error: fmt.Sprintf("parameters out of bounds (m=%d KiB within a budget of %d MiB, t=%d, p=%d, %d bytes)", req.Memory, budget>>20, req.Time, req.Threads, req.KeyLen)}); err != nil {
				return err
			}
			continue
		}
		running.Add(1)
		wg.Go(func() {
			key := argon2.IDKey(req.Pw, req.Salt, req.Time, req.Memory, req.Threads, req.KeyLen)
			// The key's working memory is garbage now: collect it before
			// the caller may start another key in its place.
			if running.Add(-1) == 0 {
				debug.FreeOSMemory()
			} else {
				runtime.GC()
			}
			if err := answer(response{ID: req.ID, Key: key}); err != nil {
				logger.Error("password worker: writing an answer", "error", err)
			}
		})
	}
	return sc.Err()
}

// Worker hands keys to a helper process. It is safe for concurrent use.
type Worker struct {
	// Command returns the command that runs the helper (its standard
	// input and output are set by the Worker); it is called at every start.
	Command func() *exec.Cmd
	Logger  *slog.Logger
	// Timeout is how long a key may take before the helper is ended as
	// hung (DefaultTimeout if 0); its callers get ErrExited.
	Timeout time.Duration

	mu     sync.Mutex // guards cur and closed
	cur    *helper
	closed bool
}

// helper is one running helper process.
type helper struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser

	mu      sync.Mutex // guards the fields below and writes to stdin
	next    uint64
	pending map[uint64]chan response
	err     error         // why it ended; set once, before done is closed
	done    chan struct{} // closed when it has ended
}

// ErrClosed: the Worker was closed.
var ErrClosed = errors.New("the password worker is closed")

// ErrExited: the helper ended before it answered.
var ErrExited = errors.New("the password worker exited")

// Key computes the Argon2id key of pw and salt in the helper, starting it
// if it is not running, with the costs p. It waits for the answer even
// when ctx ends, so that a caller bounding the keys computed at once can
// trust the slot is free when Key returns; a helper that does not answer
// within Timeout is ended, which frees its memory too.
func (w *Worker) Key(_ context.Context, pw, salt []byte, p Params) ([]byte, error) {
	h, err := w.helper()
	if err != nil {
		return nil, err
	}
	ch := make(chan response, 1)
	h.mu.Lock()
	if h.err != nil {
		h.mu.Unlock()
		return nil, h.err
	}
	h.next++
	id := h.next
	h.pending[id] = ch
	line, _ := json.Marshal(request{ID: id, Pw: pw, Salt: salt, Time: p.Time, Memory: p.Memory, Threads: p.Threads, KeyLen: p.KeyLen})
	_, err = h.stdin.Write(append(line, '\n'))
	h.mu.Unlock()
	if err != nil {
		h.end(fmt.Errorf("%w: %v", ErrExited, err))
	}
	timer := time.NewTimer(w.timeout())
	defer timer.Stop()
	select {
	case resp := <-ch:
		if resp.Error != "" {
			return nil, errors.New("password worker: " + resp.Error)
		}
		return resp.Key, nil
	case <-h.done:
		return nil, h.err
	case <-timer.C:
		// A helper that hangs would hold every caller: end it; the next
		// key starts a new one.
		h.end(fmt.Errorf("%w: no answer within %v", ErrExited, w.timeout()))
		return nil, h.err
	}
}

// DefaultTimeout is how long a key may take before the helper is taken
// for hung and ended.
const DefaultTimeout = time.Minute

func (w *Worker) timeout() time.Duration {
	if w.Timeout > 0 {
		return w.Timeout
	}
	return DefaultTimeout
}

// Launch starts the helper now, if it is not running, without waiting for
// it: a binary that cannot be run is an error at once, while a helper
// slow to come up (it lowers its own priority first thing, and a busy
// machine serves it last) only makes the first key wait.
func (w *Worker) Launch() error {
	_, err := w.helper()
	return err
}

// Start starts the helper now, if it is not running, and checks that it
// computes a key correctly before ctx ends.
func (w *Worker) Start(ctx context.Context) error {
	p := Params{Memory: 8, Time: 1, Threads: 1, KeyLen: 16}
	pw, salt := []byte("check"), []byte("saltsaltsaltsalt")
	type result struct {
		key []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		k, err := w.Key(ctx, pw, salt, p)
		done <- result{k, err}
	}()
	var r result
	select {
	case r = <-done:
	case <-ctx.Done():
		w.Close() // ends the helper, and with it the Key above
		return fmt.Errorf("the password worker did not answer: %w", ctx.Err())
	}
	if r.err != nil {
		return r.err
	}
	if want := argon2.IDKey(pw, salt, p.Time, p.Memory, p.Threads, p.KeyLen); string(r.key) != string(want) {
		return errors.New("the password worker computed a wrong key")
	}
	return nil
}

// Close ends the helper, if it runs, and waits for it; Key fails from now on.
func (w *Worker) Close() error {
	w.mu.Lock()
	h := w.cur
	w.cur, w.closed = nil, true
	w.mu.Unlock()
	if h == nil {
		return nil
	}
	h.stdin.Close() // the helper ends at the end of its input
	select {
	case <-h.done:
	case <-time.After(5 * time.Second):
		h.end(errors.New("the password worker was stopped")) // kills it
		<-h.done
	}
	return nil
}

// helper returns the running helper, starting one if there is none.
func (w *Worker) helper() (*helper, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return nil, ErrClosed
	}
	if w.cur != nil {
		select {
		case <-w.cur.done:
		default:
			return w.cur, nil
		}
	}
	cmd := w.Command()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if cmd.Stderr == nil {
		cmd.Stderr = os.Stderr
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the password worker: %w", err)
	}
	h := &helper{cmd: cmd, stdin: stdin, pending: map[uint64]chan response{}, done: make(chan struct{})}
	go h.read(stdout, w.logger())
	w.cur = h
	return h, nil
}

func (w *Worker) logger() *slog.Logger {
	if w.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return w.Logger
}

// read hands the helper's answers to their callers until it ends.
func (h *helper) read(stdout io.Reader, logger *slog.Logger) {
	dec := json.NewDecoder(stdout)
	var err error
	for {
		var resp response
		if err = dec.Decode(&resp); err != nil {
			break
		}
		h.mu.Lock()
		ch, ok := h.pending[resp.ID]
		delete(h.pending, resp.ID)
		h.mu.Unlock()
		if ok {
			ch <- resp
		}
	}
	werr := h.cmd.Wait()
	if errors.Is(err, io.EOF) && werr == nil {
		h.end(ErrExited)
		return
	}
	logger.Error("password worker ended; the next sign-in starts a new one", "error", err, "exit", fmt.Sprint(werr))
	h.end(fmt.Errorf("%w: %v", ErrExited, werr))
}

// end records why the helper ended and wakes every caller still waiting.
func (h *helper) end(err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.err != nil {
		return
	}
	h.err = err
	h.stdin.Close()
	if h.cmd.Process != nil {
		h.cmd.Process.Kill()
	}
	close(h.done)
}
