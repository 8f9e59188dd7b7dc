//go:build unix

package main

import (
	"syscall"
	"testing"
)

func TestRaiseFileLimit(t *testing.T) {
	var before syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &before); err != nil {
		t.Fatal(err)
	}
	got, ok := raiseFileLimit()
	var after syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &after); err != nil {
		t.Fatal(err)
	}
	if !ok || got != after.Cur || after.Cur < before.Cur || after.Cur != after.Max {
		t.Errorf("limit %d → %d/%d (reported %d, %v); want the soft limit raised to the hard one at least", before.Cur, after.Cur, after.Max, got, ok)
	}
}

func TestConnBound(t *testing.T) {
	for limit, want := range map[uint64]int{0: 50_000, 1024: 768, 4096: 3072, 20000: 18976, 1 << 20: 50_000} {
		if got := connBound(limit); got != want {
			t.Errorf("connBound(%d) = %d, want %d", limit, got, want)
		}
	}
}
