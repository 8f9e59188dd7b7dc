// Package sqlite opens unitd's store in a SQLite file, with the pure-Go
// driver modernc.org/sqlite so the binary stays static.
//
// [Open] sets WAL journaling (readers never wait for the writer), foreign
// keys, a busy timeout and immediate write transactions (several processes,
// such as the server and `unitd keys`, may share the file), then applies
// the migrations embedded from migration/*.sql.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/unitd/unitd/store"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

//go:embed migration/*.sql
var migrations embed.FS

// Dialect describes SQLite to the store.
var Dialect = store.Dialect{
	Name: "sqlite",
	IsUnique: func(err error) bool {
		var e *sqlite.Error
		return errors.As(err, &e) && (e.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE || e.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY)
	},
}

// Open opens (creating it with mode 0600 if needed) the SQLite store at
// path and brings its schema up to date.
func Open(ctx context.Context, path string) (*store.DB, error) {
	if path == "" {
		return nil, errors.New("open store: no file name")
	}
	if dir := filepath.Dir(path); dir != "." {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("open store: %w", err)
		}
	}
	if err := checkSidecars(path); err != nil {
		return nil, err
	}
	// Create the file ourselves so that it is private from the start.
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	f.Close()
	q := url.Values{}
	for _, p := range []string{"journal_mode(wal)", "foreign_keys(1)", "busy_timeout(10000)", "synchronous(normal)"} {
		q.Add("_pragma", p)
	}
	q.Set("_txlock", "immediate")
	dsn := "file:" + escapePath(path) + "?" + q.Encode()
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	sub, err := fs.Sub(migrations, "migration")
	if err != nil {
		db.Close()
		return nil, err
	}
	if err := store.Migrate(ctx, db, Dialect, sub); err != nil {
		db.Close()
		return nil, fmt.Errorf("store %s: %w", path, err)
	}
	if err := checkSidecars(path); err != nil {
		db.Close()
		return nil, err
	}
	return store.New(db, Dialect), nil
}

// geteuid is os.Geteuid; tests replace it to act as another user.
var geteuid = os.Geteuid

// checkSidecars refuses a store whose WAL files (FILE-wal, FILE-shm) the
// store's owner could not read: SQLite writes the file itself in place, so
// its owner and mode stay, and gives new WAL files the file's mode (and,
// run as root, its owner); but another non-root user with write access
// would create them as its own, and the server, running as the owner,
// could then no longer open the store and would keep its last keys.
func checkSidecars(path string) error {
	info, err := os.Stat(path)
	if err != nil {
		return nil // no store yet: it is made by this process, with its WAL files
	}
	uid, gid, ok := fileOwner(info)
	if !ok {
		return nil
	}
	euid := geteuid()
	for _, suffix := range []string{"-wal", "-shm"} {
		side := path + suffix
		sinfo, err := os.Stat(side)
		if errors.Is(err, fs.ErrNotExist) {
			if euid != 0 && uint32(euid) != uid {
				return fmt.Errorf("open store %s: it belongs to uid %d, and opening it as uid %d would create %s owned by uid %d, which a server running as its owner may not read; run this as the store's owner (or as root)", path, uid, euid, side, euid)
			}
			continue
		}
		if err != nil {
			return fmt.Errorf("open store %s: %w", path, err)
		}
		suid, sgid, _ := fileOwner(sinfo)
		if suid != uid || sgid != gid {
			return fmt.Errorf("open store %s: %s belongs to uid %d gid %d but the store to uid %d gid %d, so a server running as the store's owner may not read it; give it the store's owner (chown)", path, side, suid, sgid, uid, gid)
		}
		if missing := info.Mode().Perm() &^ sinfo.Mode().Perm(); missing != 0 {
			return fmt.Errorf("open store %s: %s has mode %v but the store %v, so who may read the store may not read it; give it the store's mode (chmod)", path, side, sinfo.Mode().Perm(), info.Mode().Perm())
		}
	}
	return nil
}

func escapePath(p string) string {
	return strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(p)
}
