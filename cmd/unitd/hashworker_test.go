package main

import (
	"context"
	"log/slog"
	"testing"

	"github.com/unitd/unitd/account"
)

// TestPasswordWorkerHashesForTheAccounts: the helper that unitd serve
// starts (this test binary run as `unitd password-worker`, see TestMain)
// computes the keys of the account domain's Hasher through keyFunc, and
// what it hashes verifies in process with the parameters the hash records.
func TestPasswordWorkerHashesForTheAccounts(t *testing.T) {
	w, err := startHashWorker(1<<20, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	h, err := account.NewHasher(account.HasherConfig{
		Params: account.Params{Memory: 64, Time: 2, Threads: 1, SaltLen: 16, KeyLen: 32},
		Memory: 1 << 20,
		Key:    keyFunc(w),
	})
	if err != nil {
		t.Fatal(err)
	}
	enc, err := h.Hash(context.Background(), "correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := account.VerifyPassword(enc, "correct horse battery"); !ok || err != nil {
		t.Errorf("a hash made by the helper does not verify in process: %v, %v", ok, err)
	}
	if ok, err := account.VerifyPassword(enc, "correct horse battery!"); ok || err != nil {
		t.Errorf("another password verifies against the helper's hash: %v, %v", ok, err)
	}
	// A cost the helper's budget cannot hold is refused by the helper,
	// through the account domain's call.
	big, err := account.NewHasher(account.HasherConfig{
		Params: account.Params{Memory: 2 << 10, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32},
		Memory: 4 << 20,
		Key:    keyFunc(w),
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := big.Hash(context.Background(), "correct horse battery"); err == nil {
		t.Error("a 2 MiB key within the helper's 1 MiB budget was computed")
	}
}
