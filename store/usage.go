package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/unitd/unitd/account"
)

// AddUsage adds counts to the per-key, per-minute buckets and moves each
// key's last use forward, in one transaction.
func (db *DB) AddUsage(ctx context.Context, counts []account.UsageCount) error {
	err := db.tx(ctx, func(tx *sql.Tx) error {
		for _, c := range counts {
			if _, err := tx.ExecContext(ctx, db.q(`INSERT INTO key_usage (key_id, minute, count) VALUES (?, ?, ?)
ON CONFLICT (key_id, minute) DO UPDATE SET count = key_usage.count + excluded.count`),
				c.KeyID, ts(c.Minute), c.Count); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, db.q(`UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)`),
				ts(c.Last), c.KeyID, ts(c.Last)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("add usage: %w", err)
	}
	return nil
}

// Usage returns one of an account's keys' requests per step since since
// (both aligned down to step), oldest bucket first, up to the current one.
func (db *DB) Usage(ctx context.Context, accountID, keyID string, since time.Time, step time.Duration) ([]account.UsagePoint, error) {
	if step < time.Minute || step%time.Minute != 0 {
		return nil, fmt.Errorf("%w: usage step %v is not a whole number of minutes", account.ErrInvalid, step)
	}
	if _, err := db.Key(ctx, accountID, keyID); err != nil {
		return nil, err
	}
	start := since.UTC().Truncate(step)
	now := db.now()
	n := int(now.Sub(start)/step) + 1
	if n < 1 || n > 10_000 {
		return nil, fmt.Errorf("%w: usage range of %d buckets", account.ErrInvalid, n)
	}
	points := make([]account.UsagePoint, n)
	for i := range points {
		points[i].Start = start.Add(time.Duration(i) * step)
	}
	rows, err := db.db.QueryContext(ctx, db.q(`SELECT minute, count FROM key_usage WHERE key_id = ? AND minute >= ?`), keyID, ts(start))
	if err != nil {
		return nil, fmt.Errorf("read usage: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var minute, count int64
		if err := rows.Scan(&minute, &count); err != nil {
			return nil, fmt.Errorf("read usage: %w", err)
		}
		if i := int(fromTS(minute).Sub(start) / step); i >= 0 && i < n {
			points[i].Count += count
		}
	}
	return points, rows.Err()
}

// RequestsSince sums the requests of each of an account's keys since since.
func (db *DB) RequestsSince(ctx context.Context, accountID string, since time.Time) (map[string]int64, error) {
	rows, err := db.db.QueryContext(ctx, db.q(`SELECT u.key_id, SUM(u.count) FROM key_usage u JOIN api_keys k ON k.id = u.key_id
WHERE k.account_id = ? AND u.minute >= ? GROUP BY u.key_id`), accountID, ts(since.Truncate(time.Minute)))
	if err != nil {
		return nil, fmt.Errorf("sum usage: %w", err)
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var id string
		var n int64
		if err := rows.Scan(&id, &n); err != nil {
			return nil, fmt.Errorf("sum usage: %w", err)
		}
		out[id] = n
	}
	return out, rows.Err()
}

// AddAudit appends an event to an account's audit log.
func (db *DB) AddAudit(ctx context.Context, ev account.AuditEvent) error {
	return db.tx(ctx, func(tx *sql.Tx) error { return db.audit(ctx, tx, ev) })
}

func (db *DB) audit(ctx context.Context, tx *sql.Tx, ev account.AuditEvent) error {
	if ev.At.IsZero() {
		ev.At = db.now()
	}
	_, err := tx.ExecContext(ctx, db.q(`INSERT INTO audit_log (account_id, actor, action, key_id, detail, addr, at) VALUES (?, ?, ?, ?, ?, ?, ?)`),
		ev.AccountID, ev.Actor, ev.Action, ev.KeyID, ev.Detail, ev.Addr, ts(ev.At))
	if err != nil {
		return fmt.Errorf("write audit log: %w", err)
	}
	return nil
}

// Audit returns an account's latest events, newest first.
func (db *DB) Audit(ctx context.Context, accountID string, limit int) ([]account.AuditEvent, error) {
	rows, err := db.db.QueryContext(ctx, db.q(`SELECT id, account_id, actor, action, key_id, detail, addr, at FROM audit_log
WHERE account_id = ? ORDER BY at DESC, id DESC LIMIT ?`), accountID, limit)
	if err != nil {
		return nil, fmt.Errorf("read audit log: %w", err)
	}
	defer rows.Close()
	var out []account.AuditEvent
	for rows.Next() {
		var ev account.AuditEvent
		var at int64
		if err := rows.Scan(&ev.ID, &ev.AccountID, &ev.Actor, &ev.Action, &ev.KeyID, &ev.Detail, &ev.Addr, &at); err != nil {
			return nil, fmt.Errorf("read audit log: %w", err)
		}
		ev.At = fromTS(at)
		out = append(out, ev)
	}
	return out, rows.Err()
}
