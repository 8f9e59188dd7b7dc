//go:build !unitd_lite

package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"strconv"

	"github.com/unitd/unitd/account"
	"github.com/unitd/unitd/internal/hashworker"
)

// passwordWorkerCommand is the command that `unitd serve` runs as its
// password-hashing helper; the usage does not list it.
var passwordWorkerCommand = &command{
	name:     "password-worker",
	synopsis: "--memory BYTES",
	help:     "Computes the Argon2id keys asked for on stdin until stdin ends: the\npassword-hashing helper that unitd serve runs, at the lowest CPU priority.",
	run:      runPasswordWorker,
}

// hashBudget is the memory of the hashes running at once within the
// --password-memory size: what the helper does not need for itself. Zero
// (a serveConfig built by a test) is the Hasher's default.
func hashBudget(size int64) int64 {
	if size == 0 {
		return 0
	}
	return max(size-hashworker.Overhead, 1)
}

// startHashWorker starts this binary as the helper that computes password
// hashes at the lowest CPU priority, within budget bytes. It does not wait
// for the helper to answer: on a busy machine a process at the lowest
// priority may take seconds to come up, and only sign-ins need it.
func startHashWorker(budget int64, logger *slog.Logger) (*hashworker.Worker, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("password worker: %w", err)
	}
	w := &hashworker.Worker{Logger: logger, Command: func() *exec.Cmd {
		return hashworker.Command(exe, passwordWorkerCommand.name, "--memory", strconv.FormatInt(budget, 10))
	}}
	if err := w.Launch(); err != nil {
		return nil, fmt.Errorf("password worker: %w", err)
	}
	return w, nil
}

// keyFunc is the helper's Key as the account domain's Hasher calls it.
func keyFunc(w *hashworker.Worker) account.KeyFunc {
	return func(ctx context.Context, pw, salt []byte, p account.Params) ([]byte, error) {
		return w.Key(ctx, pw, salt, hashworker.Params{Time: p.Time, Memory: p.Memory, Threads: p.Threads, KeyLen: p.KeyLen})
	}
}

// runPasswordWorker is `unitd password-worker --memory BYTES`: it computes
// Argon2id keys asked for on stdin until stdin ends (see hashworker.Serve).
func runPasswordWorker(c *call) error {
	budget := c.flags.Int64("memory", 0, "memory budget of the keys computed at once, in `bytes`")
	if _, err := c.parseN(0, ""); err != nil {
		return err
	}
	if *budget <= 0 {
		return usagef("--memory must be a positive number of bytes")
	}
	logger := slog.New(slog.NewJSONHandler(c.stderr, nil))
	if err := hashworker.Serve(c.stdin, c.stdout, *budget, logger); err != nil {
		logger.Error("password worker", "error", err)
		return exitCode(1)
	}
	return nil
}
