// Package store keeps unitd's accounts, users, sessions, API keys, usage
// counts and audit log in a SQL database. It implements the account
// domain's store interfaces (account.Directory, account.KeyManager, …) over
// database/sql, once for both engines; the packages store/sqlite and
// store/postgres open a database of their engine, apply its migrations and
// hand back a *DB from this package.
//
// Times are stored as Unix microseconds (BIGINT), which both engines
// compare and index the same way. Keys, session tokens and set-up tokens
// are stored as hex SHA-256 hashes only. Every change to a key also bumps
// the one-row key_version table in the same transaction, so that replicas
// notice it with one cheap query (see account.KeySource); every change to
// an account's units bumps unit_version likewise (units.go,
// account.UnitWatcher).
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/unitd/unitd/account"
)

// Dialect is what differs between the engines.
type Dialect struct {
	Name string // "sqlite" or "postgres"
	// Numbered replaces the ? placeholders with $1, $2, … (PostgreSQL).
	Numbered bool
	// IsUnique reports whether err is a uniqueness violation.
	IsUnique func(error) bool
	// LockMigrations and UnlockMigrations, if set, bracket the whole
	// migration run on one connection (a session-level lock), so that
	// replicas starting together apply each migration once.
	LockMigrations, UnlockMigrations string
	// ForUpdate ends a SELECT that locks the rows it reads until the
	// transaction ends (" FOR UPDATE"); "" where a write transaction
	// holds the whole database already (SQLite's immediate ones).
	ForUpdate string
}

// DB is an open store. It is safe for concurrent use.
type DB struct {
	db      *sql.DB
	dialect Dialect
	// Now returns the current time; nil means time.Now. Tests set it.
	Now func() time.Time
}

// DB implements every store interface of the account domain.
var (
	_ account.Directory   = (*DB)(nil)
	_ account.Credentials = (*DB)(nil)
	_ account.Sessions    = (*DB)(nil)
	_ account.KeyManager  = (*DB)(nil)
	_ account.KeyAdmin    = (*DB)(nil)
	_ account.UsageReader = (*DB)(nil)
	_ account.AuditLog    = (*DB)(nil)
	_ account.KeyLoader   = (*DB)(nil)
	_ account.KeyReporter = (*DB)(nil)
	_ account.UsageWriter = (*DB)(nil)
	_ account.UnitStore   = (*DB)(nil)
	_ account.UnitLoader  = (*DB)(nil)
)

// New wraps an open database whose schema is up to date.
func New(db *sql.DB, d Dialect) *DB { return &DB{db: db, dialect: d} }

// SQL returns the underlying database, for tests and health checks.
func (db *DB) SQL() *sql.DB { return db.db }

// Engine returns "sqlite" or "postgres".
func (db *DB) Engine() string { return db.dialect.Name }

// Close closes the database.
func (db *DB) Close() error { return db.db.Close() }

// Ping checks that the database answers.
func (db *DB) Ping(ctx context.Context) error { return db.db.PingContext(ctx) }

func (db *DB) now() time.Time {
	if db.Now != nil {
		return db.Now().UTC()
	}
	return time.Now().UTC()
}

// q rewrites a query written with ? placeholders for the dialect.
func (db *DB) q(query string) string { return rebind(query, db.dialect.Numbered) }

func rebind(query string, numbered bool) string {
	if !numbered {
		return query
	}
	var b strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// tx runs fn in a transaction and commits it if fn returns nil.
func (db *DB) tx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := db.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin transaction: %w", err)
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// Migrate applies the *.sql files of fsys that are not yet recorded in the
// migrations table, in name order, each in its own transaction.
func Migrate(ctx context.Context, db *sql.DB, d Dialect, fsys fs.FS) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if d.LockMigrations != "" {
		if _, err := conn.ExecContext(ctx, d.LockMigrations); err != nil {
			return fmt.Errorf("lock migrations: %w", err)
		}
		defer conn.ExecContext(context.WithoutCancel(ctx), d.UnlockMigrations)
	}
	if _, err := conn.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)`); err != nil {
		return fmt.Errorf("create migrations table: %w", err)
	}
	names, err := fs.Glob(fsys, "*.sql")
	if err != nil {
		return fmt.Errorf("list migrations: %w", err)
	}
	slices.Sort(names)
	for _, name := range names {
		body, err := fs.ReadFile(fsys, name)
		if err != nil {
			return fmt.Errorf("read migration %s: %w", name, err)
		}
		if err := migrateOne(ctx, conn, d, name, string(body)); err != nil {
			return fmt.Errorf("migration %s: %w", name, err)
		}
	}
	return nil
}

func migrateOne(ctx context.Context, conn *sql.Conn, d Dialect, name, body string) error {
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, rebind(`SELECT COUNT(*) FROM migrations WHERE name = ?`, d.Numbered), name).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, body); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, rebind(`INSERT INTO migrations (name, applied_at) VALUES (?, ?)`, d.Numbered),
		name, time.Now().UnixMicro()); err != nil {
		return err
	}
	return tx.Commit()
}

// Time conversions: stored as Unix microseconds.

func ts(t time.Time) int64 { return t.UnixMicro() }

func tsPtr(t *time.Time) any {
	if t == nil {
		return nil
	}
	return t.UnixMicro()
}

func fromTS(us int64) time.Time { return time.UnixMicro(us).UTC() }

func fromNull(n sql.NullInt64) *time.Time {
	if !n.Valid {
		return nil
	}
	t := fromTS(n.Int64)
	return &t
}

// notFound wraps account.ErrNotFound with what was looked for.
func notFound(what string) error { return fmt.Errorf("%s: %w", what, account.ErrNotFound) }

func (db *DB) conflict(err error, what string) error {
	if db.dialect.IsUnique != nil && db.dialect.IsUnique(err) {
		return fmt.Errorf("%s: %w", what, account.ErrConflict)
	}
	return err
}

var errNoRows = sql.ErrNoRows

func isNoRows(err error) bool { return errors.Is(err, errNoRows) }
