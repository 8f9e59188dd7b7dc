// Package postgres opens unitd's store in a PostgreSQL database, through
// jackc/pgx/v5's database/sql driver, so that several replicas share one
// store. [Open] applies the migrations embedded from migration/*.sql under
// an advisory lock, so replicas that start together apply each once.
package postgres

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	"github.com/unitd/unitd/store"
)

//go:embed migration/*.sql
var migrations embed.FS

// Dialect describes PostgreSQL to the store.
var Dialect = store.Dialect{
	Name:     "postgres",
	Numbered: true,
	IsUnique: func(err error) bool {
		var e *pgconn.PgError
		return errors.As(err, &e) && e.Code == "23505"
	},
	// An arbitrary constant key, the same for every unitd, for the advisory lock.
	LockMigrations:   `SELECT pg_advisory_lock(435527189604)`,
	UnlockMigrations: `SELECT pg_advisory_unlock(435527189604)`,
	ForUpdate:        " FOR UPDATE",
}

// Open connects to the database at url (postgres://user:pass@host/db?…)
// and brings its schema up to date, under an advisory lock.
func Open(ctx context.Context, url string) (*store.DB, error) {
	db, err := sql.Open("pgx", url)
	if err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	db.SetMaxOpenConns(20)
	db.SetMaxIdleConns(5)
	db.SetConnMaxIdleTime(5 * time.Minute)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open store: %w", err)
	}
	sub, err := fs.Sub(migrations, "migration")
	if err != nil {
		db.Close()
		return nil, err
	}
	if err := store.Migrate(ctx, db, Dialect, sub); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: %w", err)
	}
	return store.New(db, Dialect), nil
}
