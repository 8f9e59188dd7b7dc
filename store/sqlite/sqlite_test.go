package sqlite

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// newStore makes a store file as this process, closes it and removes its
// WAL files, as a server that stopped cleanly leaves it.
func newStore(t *testing.T, mode os.FileMode) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "unitd.db")
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	for _, side := range []string{path + "-wal", path + "-shm"} {
		if err := os.Remove(side); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestOpenKeepsTheStoresMode(t *testing.T) {
	path := newStore(t, 0o640)
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.CreateAccount(context.Background(), "someone"); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{path, path + "-wal", path + "-shm"} {
		fi, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o640 {
			t.Errorf("%s: mode %v after a write, want the store's 0640", filepath.Base(f), fi.Mode().Perm())
		}
	}
}

func TestOpenRefuses(t *testing.T) {
	tests := []struct {
		name    string
		prepare func(t *testing.T, path string)
		want    string
	}{
		{
			name: "WAL files another user would create",
			prepare: func(t *testing.T, path string) {
				fi, err := os.Stat(path)
				if err != nil {
					t.Fatal(err)
				}
				uid, _, ok := fileOwner(fi)
				if !ok {
					t.Fatal("no owner")
				}
				geteuid = func() int { return int(uid) + 1 }
				t.Cleanup(func() { geteuid = os.Geteuid })
			},
			want: "would create",
		},
		{
			name: "a WAL file less readable than the store",
			prepare: func(t *testing.T, path string) {
				if err := os.WriteFile(path+"-wal", nil, 0o600); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(path+"-wal", 0o600); err != nil {
					t.Fatal(err)
				}
			},
			want: "unitd.db-wal has mode -rw-------",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := newStore(t, 0o640)
			tt.prepare(t, path)
			db, err := Open(context.Background(), path)
			if err == nil {
				db.Close()
				t.Fatal("Open succeeded; want a refusal")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q; want it to contain %q", err, tt.want)
			}
		})
	}
}
