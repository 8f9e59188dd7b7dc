//go:build unix

package apikey

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestRewriteKeepsOwnerAndMode: the CLI rewriting the key file keeps the
// mode and the owner of the file it replaces, so a server running as that
// owner can still read it; where it cannot keep the owner (not root), it
// refuses and says why, instead of leaving an unreadable file.
func TestRewriteKeepsOwnerAndMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys.json")
	store := &Store{Path: path}
	if _, _, err := store.Create("first", EnvTest); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o640); err != nil {
		t.Fatal(err)
	}
	const uid, gid = 4242, 4343
	if os.Geteuid() == 0 { // only root can make a file someone else's
		if err := os.Chown(path, uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	_, _, err := store.Create("second", EnvTest)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o640 {
		t.Errorf("mode after rewrite %v, want 0640", fi.Mode().Perm())
	}
	if os.Geteuid() == 0 {
		st := fi.Sys().(*syscall.Stat_t)
		if st.Uid != uid || st.Gid != gid {
			t.Errorf("owner after rewrite %d:%d, want %d:%d", st.Uid, st.Gid, uid, gid)
		}
	}
}

// TestRewriteRefusesToGiveAwayOwnership: when the owner cannot be kept
// (chown refused, as for anyone but root), keepOwner fails with a message
// that names the owner and says what to do. The chown is made to fail by
// closing the file first, which works whoever runs the test.
func TestRewriteRefusesToGiveAwayOwnership(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "new"))
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	old := fakeInfo{st: &syscall.Stat_t{Uid: 4242, Gid: 4343}}
	err = keepOwner(f, old)
	if err == nil || !strings.Contains(err.Error(), "uid 4242") || !strings.Contains(err.Error(), "run as that user") {
		t.Fatalf("keepOwner = %v, want a refusal that names the owner and says what to do", err)
	}
}

type fakeInfo struct {
	os.FileInfo
	st *syscall.Stat_t
}

func (f fakeInfo) Sys() any { return f.st }
