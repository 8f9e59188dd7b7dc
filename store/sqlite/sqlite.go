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
	return store.New(db, Dialect), nil
}

func escapePath(p string) string {
	return strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(p)
}
