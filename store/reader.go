package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/unitd/unitd/account"
)

// readerRetention is how long a server that stopped reporting stays in
// key_readers before a report of another server removes it.
const readerRetention = 24 * time.Hour

// ReportKeyVersion records which key version a server instance serves,
// as of r.SeenAt, and forgets servers silent for a day.
func (db *DB) ReportKeyVersion(ctx context.Context, r account.KeyReader) error {
	return db.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, db.q(`INSERT INTO key_readers (instance, description, key_version, seen_at) VALUES (?, ?, ?, ?)
ON CONFLICT (instance) DO UPDATE SET description = excluded.description, key_version = excluded.key_version, seen_at = excluded.seen_at`),
			r.Instance, r.Description, r.Version, ts(r.SeenAt)); err != nil {
			return fmt.Errorf("report key version: %w", err)
		}
		if _, err := tx.ExecContext(ctx, db.q(`DELETE FROM key_readers WHERE seen_at < ?`), ts(r.SeenAt.Add(-readerRetention))); err != nil {
			return fmt.Errorf("forget silent servers: %w", err)
		}
		return nil
	})
}

// KeyReaders returns the servers that reported since the given time,
// oldest report first.
func (db *DB) KeyReaders(ctx context.Context, since time.Time) ([]account.KeyReader, error) {
	rows, err := db.db.QueryContext(ctx, db.q(`SELECT instance, description, key_version, seen_at FROM key_readers WHERE seen_at >= ? ORDER BY seen_at, instance`), ts(since))
	if err != nil {
		return nil, fmt.Errorf("list key readers: %w", err)
	}
	defer rows.Close()
	var out []account.KeyReader
	for rows.Next() {
		var r account.KeyReader
		var seen int64
		if err := rows.Scan(&r.Instance, &r.Description, &r.Version, &seen); err != nil {
			return nil, fmt.Errorf("list key readers: %w", err)
		}
		r.SeenAt = fromTS(seen)
		out = append(out, r)
	}
	return out, rows.Err()
}

// ForgetKeyReader removes a server that is stopping from key_readers, so
// that `unitd keys` does not wait for it.
func (db *DB) ForgetKeyReader(ctx context.Context, instance string) error {
	if _, err := db.db.ExecContext(ctx, db.q(`DELETE FROM key_readers WHERE instance = ?`), instance); err != nil {
		return fmt.Errorf("forget key reader: %w", err)
	}
	return nil
}
