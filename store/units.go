package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"github.com/unitd/unitd/account"
)

// The units of accounts (account.UnitStore, account.UnitLoader): a row per
// unit in account_units, every change in account_unit_history and the
// audit log, and a row per account in account_unit_sets that a change
// locks first, so that the changes of one account happen one at a time
// and each one's check sees the units the others left. A change bumps
// unit_version as its last step: the bump holds that row until the
// transaction ends, so changes commit in the order of their versions and
// a server that has read a version has every change up to it readable.

const unitCols = `account_id, symbol, document, format, revision, created_at, updated_at`

func scanUnit(s interface{ Scan(...any) error }) (account.UnitDoc, error) {
	var u account.UnitDoc
	var created, updated int64
	err := s.Scan(&u.AccountID, &u.Symbol, &u.Document, &u.Format, &u.Revision, &created, &updated)
	u.CreatedAt, u.UpdatedAt = fromTS(created), fromTS(updated)
	return u, err
}

// Units lists an account's units, by symbol.
func (db *DB) Units(ctx context.Context, accountID string) ([]account.UnitDoc, error) {
	rows, err := db.db.QueryContext(ctx, db.q(`SELECT `+unitCols+` FROM account_units WHERE account_id = ? ORDER BY symbol`), accountID)
	if err != nil {
		return nil, fmt.Errorf("list units: %w", err)
	}
	return collectUnits(rows)
}

func collectUnits(rows *sql.Rows) ([]account.UnitDoc, error) {
	defer rows.Close()
	var out []account.UnitDoc
	for rows.Next() {
		u, err := scanUnit(rows)
		if err != nil {
			return nil, fmt.Errorf("list units: %w", err)
		}
		out = append(out, u)
	}
	return out, rows.Err()
}

// Unit returns one of an account's units.
func (db *DB) Unit(ctx context.Context, accountID, symbol string) (account.UnitDoc, error) {
	u, err := scanUnit(db.db.QueryRowContext(ctx, db.q(`SELECT `+unitCols+` FROM account_units WHERE account_id = ? AND symbol = ?`), accountID, symbol))
	if isNoRows(err) {
		return u, notFound("unit " + symbol)
	}
	if err != nil {
		return u, fmt.Errorf("find unit: %w", err)
	}
	return u, nil
}

// lockUnits locks the account's units for a change and returns them.
func (db *DB) lockUnits(ctx context.Context, tx *sql.Tx, accountID string) ([]account.UnitDoc, error) {
	if err := db.accountExists(ctx, tx, accountID); err != nil {
		return nil, err
	}
	if _, err := tx.ExecContext(ctx, db.q(`INSERT INTO account_unit_sets (account_id, version, units) VALUES (?, 0, 0) ON CONFLICT (account_id) DO NOTHING`), accountID); err != nil {
		return nil, err
	}
	var v int64
	if err := tx.QueryRowContext(ctx, db.q(`SELECT version FROM account_unit_sets WHERE account_id = ?`+db.dialect.ForUpdate), accountID).Scan(&v); err != nil {
		return nil, err
	}
	rows, err := tx.QueryContext(ctx, db.q(`SELECT `+unitCols+` FROM account_units WHERE account_id = ? ORDER BY symbol`), accountID)
	if err != nil {
		return nil, err
	}
	return collectUnits(rows)
}

// nextRevision is the revision a change of the unit gets: one more than
// the last in its history.
func (db *DB) nextRevision(ctx context.Context, tx *sql.Tx, accountID, symbol string) (int64, error) {
	var last sql.NullInt64
	err := tx.QueryRowContext(ctx, db.q(`SELECT MAX(revision) FROM account_unit_history WHERE account_id = ? AND symbol = ?`), accountID, symbol).Scan(&last)
	return last.Int64 + 1, err
}

// unitChanged records a change of an account's units: its history, the
// audit log, and, last, the versions.
func (db *DB) unitChanged(ctx context.Context, tx *sql.Tx, ch account.UnitChange, accountID string, actor account.Actor, units int, detail string) error {
	action := account.ActionUnitPut
	if ch.Action == account.UnitDelete {
		action = account.ActionUnitDelete
	}
	if err := db.audit(ctx, tx, account.AuditEvent{AccountID: accountID, Actor: actor.Name, Addr: actor.Addr, KeyID: actor.KeyID,
		Action: action, Detail: detail, At: ch.At}); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE unit_version SET version = version + 1`); err != nil {
		return err
	}
	// From the bump on, this transaction holds the version's row until
	// it ends: the change's history row carries the version it made.
	if _, err := tx.ExecContext(ctx, db.q(`INSERT INTO account_unit_history (account_id, symbol, revision, action, document, format, actor, addr, at, version)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT version FROM unit_version))`),
		accountID, ch.Symbol, ch.Revision, ch.Action, ch.Document, ch.Format, actor.Name, actor.Addr, ts(ch.At)); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, db.q(`UPDATE account_unit_sets SET version = (SELECT version FROM unit_version), units = ? WHERE account_id = ?`), units, accountID)
	return err
}

// PutUnit stores a unit of an account if check accepts the account's
// units with it.
func (db *DB) PutUnit(ctx context.Context, doc account.UnitDoc, actor account.Actor, check account.UnitCheck) (account.UnitDoc, bool, error) {
	if !unitSymbolOK(doc.Symbol) || doc.Document == "" {
		return doc, false, fmt.Errorf("%w: a unit needs a symbol and a document", account.ErrInvalid)
	}
	if doc.Format != "yaml" && doc.Format != "json" {
		return doc, false, fmt.Errorf("%w: format %q is not yaml or json", account.ErrInvalid, doc.Format)
	}
	var created bool
	err := db.tx(ctx, func(tx *sql.Tx) error {
		units, err := db.lockUnits(ctx, tx, doc.AccountID)
		if err != nil {
			return err
		}
		now := db.now()
		before := slices.Clone(units)
		i := slices.IndexFunc(units, func(u account.UnitDoc) bool { return u.Symbol == doc.Symbol })
		created = i < 0
		if created {
			doc.CreatedAt = now
			units = append(units, doc)
		} else {
			doc.CreatedAt = units[i].CreatedAt
			units[i] = doc
		}
		if check != nil {
			if err := check(before, units); err != nil {
				return err
			}
		}
		if doc.Revision, err = db.nextRevision(ctx, tx, doc.AccountID, doc.Symbol); err != nil {
			return err
		}
		doc.UpdatedAt = now
		if created {
			_, err = tx.ExecContext(ctx, db.q(`INSERT INTO account_units (`+unitCols+`) VALUES (?, ?, ?, ?, ?, ?, ?)`),
				doc.AccountID, doc.Symbol, doc.Document, doc.Format, doc.Revision, ts(doc.CreatedAt), ts(now))
		} else {
			_, err = tx.ExecContext(ctx, db.q(`UPDATE account_units SET document = ?, format = ?, revision = ?, updated_at = ? WHERE account_id = ? AND symbol = ?`),
				doc.Document, doc.Format, doc.Revision, ts(now), doc.AccountID, doc.Symbol)
		}
		if err != nil {
			return err
		}
		what := "changed"
		if created {
			what = "defined"
		}
		return db.unitChanged(ctx, tx, account.UnitChange{Symbol: doc.Symbol, Revision: doc.Revision, Action: account.UnitPut, Document: doc.Document, Format: doc.Format, At: now},
			doc.AccountID, actor, len(units), fmt.Sprintf("unit %s %s (revision %d)", doc.Symbol, what, doc.Revision))
	})
	if err != nil {
		return doc, false, fmt.Errorf("put unit %s: %w", doc.Symbol, err)
	}
	return doc, created, nil
}

// DeleteUnit deletes a unit of an account if check accepts the units
// left.
func (db *DB) DeleteUnit(ctx context.Context, accountID, symbol string, actor account.Actor, check account.UnitCheck) error {
	err := db.tx(ctx, func(tx *sql.Tx) error {
		units, err := db.lockUnits(ctx, tx, accountID)
		if err != nil {
			return err
		}
		i := slices.IndexFunc(units, func(u account.UnitDoc) bool { return u.Symbol == symbol })
		if i < 0 {
			return notFound("unit " + symbol)
		}
		before := slices.Clone(units)
		units = slices.Delete(units, i, i+1)
		if check != nil {
			if err := check(before, units); err != nil {
				return err
			}
		}
		rev, err := db.nextRevision(ctx, tx, accountID, symbol)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, db.q(`DELETE FROM account_units WHERE account_id = ? AND symbol = ?`), accountID, symbol); err != nil {
			return err
		}
		return db.unitChanged(ctx, tx, account.UnitChange{Symbol: symbol, Revision: rev, Action: account.UnitDelete, At: db.now()},
			accountID, actor, len(units), fmt.Sprintf("unit %s deleted (revision %d)", symbol, rev))
	})
	if err != nil {
		return fmt.Errorf("delete unit %s: %w", symbol, err)
	}
	return nil
}

// UnitHistory lists the changes of an account's unit, or of all its units
// for "", newest first.
func (db *DB) UnitHistory(ctx context.Context, accountID, symbol string, limit int) ([]account.UnitChange, error) {
	if limit <= 0 || limit > account.MaxUnitHistory {
		limit = account.MaxUnitHistory
	}
	query := `SELECT symbol, revision, action, document, format, actor, addr, at FROM account_unit_history WHERE account_id = ?`
	args := []any{accountID}
	if symbol != "" {
		query += ` AND symbol = ?`
		args = append(args, symbol)
	}
	query += ` ORDER BY id DESC LIMIT ?`
	rows, err := db.db.QueryContext(ctx, db.q(query), append(args, limit)...)
	if err != nil {
		return nil, fmt.Errorf("unit history: %w", err)
	}
	defer rows.Close()
	var out []account.UnitChange
	for rows.Next() {
		var c account.UnitChange
		var at int64
		if err := rows.Scan(&c.Symbol, &c.Revision, &c.Action, &c.Document, &c.Format, &c.Actor, &c.Addr, &at); err != nil {
			return nil, fmt.Errorf("unit history: %w", err)
		}
		c.At = fromTS(at)
		out = append(out, c)
	}
	return out, rows.Err()
}

// UnitChangesSince lists the changes of an account's units made after
// the store's unit version since, oldest first, each with its version.
func (db *DB) UnitChangesSince(ctx context.Context, accountID string, since int64) ([]account.UnitChange, error) {
	rows, err := db.db.QueryContext(ctx, db.q(`SELECT symbol, revision, action, document, format, actor, addr, at, version FROM account_unit_history
WHERE account_id = ? AND version > ? ORDER BY version, id`), accountID, since)
	if err != nil {
		return nil, fmt.Errorf("unit changes: %w", err)
	}
	defer rows.Close()
	var out []account.UnitChange
	for rows.Next() {
		var c account.UnitChange
		var at int64
		if err := rows.Scan(&c.Symbol, &c.Revision, &c.Action, &c.Document, &c.Format, &c.Actor, &c.Addr, &at, &c.Version); err != nil {
			return nil, fmt.Errorf("unit changes: %w", err)
		}
		c.At = fromTS(at)
		out = append(out, c)
	}
	return out, rows.Err()
}

// UnitVersion returns a number that moves whenever an account's units
// change.
func (db *DB) UnitVersion(ctx context.Context) (int64, error) {
	var v int64
	if err := db.db.QueryRowContext(ctx, `SELECT version FROM unit_version`).Scan(&v); err != nil {
		return 0, fmt.Errorf("read unit version: %w", err)
	}
	return v, nil
}

// UnitSets returns the accounts whose units changed after the version
// since: the version of each one's last change and its number of units.
func (db *DB) UnitSets(ctx context.Context, since int64) ([]account.UnitSet, error) {
	rows, err := db.db.QueryContext(ctx, db.q(`SELECT account_id, version, units FROM account_unit_sets WHERE version > ? ORDER BY version`), since)
	if err != nil {
		return nil, fmt.Errorf("read the accounts' units: %w", err)
	}
	defer rows.Close()
	var out []account.UnitSet
	for rows.Next() {
		var s account.UnitSet
		if err := rows.Scan(&s.AccountID, &s.Version, &s.Units); err != nil {
			return nil, fmt.Errorf("read the accounts' units: %w", err)
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// unitSymbolOK reports whether a symbol can name a stored unit: what the
// engine checks of it in full, the store checks for its own sake.
func unitSymbolOK(s string) bool { return s != "" && len(s) <= 256 && !strings.ContainsAny(s, "\x00") }
