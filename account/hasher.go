package account

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"golang.org/x/sync/semaphore"
)

// ErrBusy: a password could not be hashed or checked now because the
// hashes already running hold the whole memory budget and the queue is full
// or did not move in time. Nothing was checked; try again shortly.
var ErrBusy = errors.New("too many password checks at once")

// Defaults of a Hasher.
const (
	// DefaultHashMemory is the memory budget of the hashes running at once:
	// two hashes of DefaultParams.
	DefaultHashMemory = 128 << 20
	// DefaultHashWait is how long a hash may wait for room in the budget.
	DefaultHashWait = 2 * time.Second
)

// HasherConfig configures NewHasher.
type HasherConfig struct {
	// Params are the Argon2id parameters of new hashes (DefaultParams if
	// zero).
	Params Params
	// Memory is the budget, in bytes, of the Argon2id memory of every hash
	// running at once (DefaultHashMemory if 0). Each hash needs the memory
	// its parameters name (64 MiB for DefaultParams); a stored hash is
	// checked with its own parameters. A budget smaller than one hash of
	// Params is an error.
	Memory int64
	// Wait is the longest a hash waits for room in the budget before
	// ErrBusy (DefaultHashWait if 0).
	Wait time.Duration
	// MaxWaiting bounds the hashes waiting at once; past it ErrBusy comes
	// at once (0: four times the hashes that fit in the budget).
	MaxWaiting int
	// Key computes the hashes (InProcess if nil). A server may compute
	// them in a helper process, so that hashing cannot take CPU time or
	// memory from its requests; the budget still bounds what runs at once.
	Key KeyFunc
}

// Hasher hashes and checks passwords with Argon2id, running at most as many
// hashes at once as fit in a memory budget. A hash that finds the budget
// spent waits in line (first come, first served) for a short time, then
// gives up with ErrBusy, so that a flood of sign-ins costs bounded memory
// and never piles up. It is safe for concurrent use.
type Hasher struct {
	params     Params
	budget     int64 // KiB
	wait       time.Duration
	maxWaiting int64
	sem        *semaphore.Weighted
	waiting    atomic.Int64

	key KeyFunc
	// held, if set, is told the KiB held by running hashes after each
	// change (tests check the bound with it).
	held      func(kib int64)
	heldTotal atomic.Int64
}

// NewHasher returns a Hasher for cfg.
func NewHasher(cfg HasherConfig) (*Hasher, error) {
	if cfg.Params == (Params{}) {
		cfg.Params = DefaultParams
	}
	if cfg.Memory == 0 {
		cfg.Memory = DefaultHashMemory
	}
	if cfg.Wait <= 0 {
		cfg.Wait = DefaultHashWait
	}
	budget := cfg.Memory >> 10
	if budget < int64(cfg.Params.Memory) {
		return nil, fmt.Errorf("%w: a password hash needs %d MiB of memory, more than the budget of %d MiB",
			ErrInvalid, cfg.Params.Memory>>10, cfg.Memory>>20)
	}
	if cfg.Key == nil {
		cfg.Key = InProcess
	}
	h := &Hasher{params: cfg.Params, budget: budget, wait: cfg.Wait, sem: semaphore.NewWeighted(budget), key: cfg.Key}
	h.maxWaiting = int64(cfg.MaxWaiting)
	if h.maxWaiting <= 0 {
		h.maxWaiting = 4 * h.Slots()
	}
	return h, nil
}

// Memory returns the budget in bytes.
func (h *Hasher) Memory() int64 { return h.budget << 10 }

// Params returns the parameters of new hashes.
func (h *Hasher) Params() Params { return h.params }

// Slots returns how many hashes of the Hasher's parameters run at once.
func (h *Hasher) Slots() int64 { return h.budget / int64(h.params.Memory) }

// Hash returns the Argon2id hash of pw (see HashPassword), or ErrBusy.
func (h *Hasher) Hash(ctx context.Context, pw string) (string, error) {
	release, err := h.acquire(ctx, h.params.Memory)
	if err != nil {
		return "", err
	}
	defer release()
	return hashPassword(ctx, pw, h.params, h.key)
}

// Verify reports whether pw matches the encoded hash (see VerifyPassword),
// or returns ErrBusy. A hash whose parameters need more memory than the
// whole budget is an error, never run.
func (h *Hasher) Verify(ctx context.Context, encoded, pw string) (bool, error) {
	p, _, _, err := decodeHash(encoded)
	if err != nil {
		return false, err
	}
	if int64(p.Memory) > h.budget {
		return false, fmt.Errorf("password hash needs %d MiB of memory, more than the budget of %d MiB", p.Memory>>10, h.budget>>10)
	}
	release, err := h.acquire(ctx, p.Memory)
	if err != nil {
		return false, err
	}
	defer release()
	return verifyPassword(ctx, encoded, pw, h.key)
}

// acquire waits for kib of the budget, within the Hasher's wait and queue
// bounds, and returns the function that gives it back.
func (h *Hasher) acquire(ctx context.Context, kib uint32) (func(), error) {
	n := int64(kib)
	if !h.sem.TryAcquire(n) {
		if h.waiting.Add(1) > h.maxWaiting {
			h.waiting.Add(-1)
			return nil, ErrBusy
		}
		wctx, cancel := context.WithTimeout(ctx, h.wait)
		err := h.sem.Acquire(wctx, n)
		cancel()
		h.waiting.Add(-1)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, ErrBusy
		}
	}
	if h.held != nil {
		h.held(h.heldTotal.Add(n))
	}
	return func() {
		if h.held != nil {
			h.held(h.heldTotal.Add(-n))
		}
		h.sem.Release(n)
	}, nil
}
