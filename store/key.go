package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/unitd/unitd/account"
	"github.com/unitd/unitd/apikey"
)

const keyCols = `id, account_id, name, env, prefix, hash, created_at, last_used_at, expires_at, revoked_at, replaced_by, scopes`

func scanKey(s interface{ Scan(...any) error }) (account.Key, error) {
	var k account.Key
	var created int64
	var lastUsed, expires, revoked sql.NullInt64
	var scopes string
	err := s.Scan(&k.ID, &k.AccountID, &k.Name, &k.Env, &k.Prefix, &k.Hash, &created, &lastUsed, &expires, &revoked, &k.ReplacedBy, &scopes)
	k.CreatedAt = fromTS(created)
	k.LastUsedAt, k.ExpiresAt, k.RevokedAt = fromNull(lastUsed), fromNull(expires), fromNull(revoked)
	if err == nil {
		// A scope this unitd does not know (written by a newer one) is
		// left out: the key may do less, never more.
		for _, sc := range strings.Fields(scopes) {
			if slices.Contains(apikey.Scopes, sc) {
				k.Scopes = append(k.Scopes, sc)
			}
		}
	}
	return k, err
}

// bumpKeys records that keys changed, in the same transaction as the change.
func bumpKeys(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `UPDATE key_version SET version = version + 1`)
	return err
}

func (db *DB) insertKey(ctx context.Context, tx *sql.Tx, accountID string, r apikey.Record) error {
	_, err := tx.ExecContext(ctx, db.q(`INSERT INTO api_keys (id, account_id, name, env, prefix, hash, created_at, expires_at, revoked_at, replaced_by, scopes)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, '', ?)`),
		r.ID, accountID, r.Name, r.Env, r.Prefix, r.Hash, ts(r.CreatedAt), tsPtr(r.ExpiresAt), tsPtr(r.RevokedAt), apikey.FormatScopes(r.Scopes))
	return err
}

func (db *DB) newKey(ctx context.Context, tx *sql.Tx, accountID, name, env string, scopes []string, now time.Time) (string, account.Key, error) {
	if err := apikey.CheckName(name); err != nil {
		return "", account.Key{}, fmt.Errorf("%w: %v", account.ErrInvalid, err)
	}
	if !apikey.ValidEnv(env) {
		return "", account.Key{}, fmt.Errorf("%w: environment %q is not test or live", account.ErrInvalid, env)
	}
	scopes, err := apikey.NormalizeScopes(scopes)
	if err != nil {
		return "", account.Key{}, fmt.Errorf("%w: %v", account.ErrInvalid, err)
	}
	key, rec, err := apikey.NewRecord(name, env, now)
	if err != nil {
		return "", account.Key{}, err
	}
	rec.AccountID, rec.Scopes = accountID, scopes
	if err := db.insertKey(ctx, tx, accountID, rec); err != nil {
		return "", account.Key{}, err
	}
	return key, account.Key{Record: rec}, nil
}

// CreateKey stores a new key of an account, with scopes, and returns the
// key itself, which is not stored.
func (db *DB) CreateKey(ctx context.Context, accountID, name, env string, scopes []string, actor account.Actor) (string, account.Key, error) {
	var key string
	var k account.Key
	err := db.tx(ctx, func(tx *sql.Tx) error {
		if err := db.accountExists(ctx, tx, accountID); err != nil {
			return err
		}
		var err error
		if key, k, err = db.newKey(ctx, tx, accountID, name, env, scopes, db.now()); err != nil {
			return err
		}
		if err := bumpKeys(ctx, tx); err != nil {
			return err
		}
		detail := fmt.Sprintf("%s key %q", env, name)
		if len(k.Scopes) > 0 {
			detail += ", scopes " + apikey.FormatScopes(k.Scopes)
		}
		return db.audit(ctx, tx, account.AuditEvent{AccountID: accountID, Actor: actor.Name, Addr: actor.Addr,
			Action: account.ActionKeyCreate, KeyID: k.ID, Detail: detail})
	})
	if err != nil {
		return "", account.Key{}, fmt.Errorf("create key: %w", err)
	}
	return key, k, nil
}

// RotateKey creates a successor of a usable key that has not been rotated
// yet. The old key stays usable for grace (never longer than it would have
// anyway), or is revoked now when grace is 0.
func (db *DB) RotateKey(ctx context.Context, accountID, id string, grace time.Duration, actor account.Actor) (string, account.Key, error) {
	if err := account.CheckGrace(grace); err != nil {
		return "", account.Key{}, err
	}
	var key string
	var k account.Key
	err := db.tx(ctx, func(tx *sql.Tx) error {
		old, err := scanKey(tx.QueryRowContext(ctx, db.q(`SELECT `+keyCols+` FROM api_keys WHERE id = ? AND account_id = ?`), id, accountID))
		if isNoRows(err) {
			return notFound("key " + id)
		}
		if err != nil {
			return err
		}
		now := db.now()
		if !old.Usable(now) || old.ReplacedBy != "" {
			return account.ErrKeyState
		}
		if key, k, err = db.newKey(ctx, tx, accountID, old.Name, old.Env, old.Scopes, now); err != nil {
			return err
		}
		detail := "replaced by " + k.ID + "; old key revoked now"
		var res sql.Result
		if grace > 0 {
			end := now.Add(grace)
			if old.ExpiresAt != nil && old.ExpiresAt.Before(end) {
				end = *old.ExpiresAt
			}
			detail = "replaced by " + k.ID + "; old key valid until " + end.Format(time.RFC3339)
			res, err = tx.ExecContext(ctx, db.q(`UPDATE api_keys SET expires_at = ?, replaced_by = ? WHERE id = ? AND replaced_by = '' AND revoked_at IS NULL`),
				ts(end), k.ID, id)
		} else {
			res, err = tx.ExecContext(ctx, db.q(`UPDATE api_keys SET revoked_at = ?, replaced_by = ? WHERE id = ? AND replaced_by = '' AND revoked_at IS NULL`),
				ts(now), k.ID, id)
		}
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return account.ErrKeyState // rotated or revoked meanwhile
		}
		if err := bumpKeys(ctx, tx); err != nil {
			return err
		}
		return db.audit(ctx, tx, account.AuditEvent{AccountID: accountID, Actor: actor.Name, Addr: actor.Addr,
			Action: account.ActionKeyRotate, KeyID: id, Detail: detail})
	})
	if err != nil {
		return "", account.Key{}, fmt.Errorf("rotate key %s: %w", id, err)
	}
	return key, k, nil
}

// RevokeKey revokes a key now; revoking a revoked key changes nothing.
func (db *DB) RevokeKey(ctx context.Context, accountID, id string, actor account.Actor) error {
	err := db.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, db.q(`UPDATE api_keys SET revoked_at = ? WHERE id = ? AND account_id = ? AND revoked_at IS NULL`),
			ts(db.now()), id, accountID)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			var c int
			if err := tx.QueryRowContext(ctx, db.q(`SELECT COUNT(*) FROM api_keys WHERE id = ? AND account_id = ?`), id, accountID).Scan(&c); err != nil {
				return err
			}
			if c == 0 {
				return notFound("key " + id)
			}
			return nil
		}
		if err := bumpKeys(ctx, tx); err != nil {
			return err
		}
		return db.audit(ctx, tx, account.AuditEvent{AccountID: accountID, Actor: actor.Name, Addr: actor.Addr,
			Action: account.ActionKeyRevoke, KeyID: id})
	})
	if err != nil {
		return fmt.Errorf("revoke key %s: %w", id, err)
	}
	return nil
}

// Keys lists an account's keys, oldest first.
func (db *DB) Keys(ctx context.Context, accountID string) ([]account.Key, error) {
	rows, err := db.db.QueryContext(ctx, db.q(`SELECT `+keyCols+` FROM api_keys WHERE account_id = ? ORDER BY created_at, id`), accountID)
	if err != nil {
		return nil, fmt.Errorf("list keys: %w", err)
	}
	defer rows.Close()
	var out []account.Key
	for rows.Next() {
		k, err := scanKey(rows)
		if err != nil {
			return nil, fmt.Errorf("list keys: %w", err)
		}
		out = append(out, k)
	}
	return out, rows.Err()
}

// Key returns one of an account's keys.
func (db *DB) Key(ctx context.Context, accountID, id string) (account.Key, error) {
	k, err := scanKey(db.db.QueryRowContext(ctx, db.q(`SELECT `+keyCols+` FROM api_keys WHERE id = ? AND account_id = ?`), id, accountID))
	if isNoRows(err) {
		return k, notFound("key " + id)
	}
	if err != nil {
		return k, fmt.Errorf("find key: %w", err)
	}
	return k, nil
}

// KeyAccount returns the account a key belongs to.
func (db *DB) KeyAccount(ctx context.Context, id string) (string, error) {
	var acct string
	err := db.db.QueryRowContext(ctx, db.q(`SELECT account_id FROM api_keys WHERE id = ?`), id).Scan(&acct)
	if isNoRows(err) {
		return "", notFound("key " + id)
	}
	if err != nil {
		return "", fmt.Errorf("find key: %w", err)
	}
	return acct, nil
}

// ImportKeys adds the records whose id and hash are not in the store yet,
// with all their times, to an account.
func (db *DB) ImportKeys(ctx context.Context, accountID string, recs []apikey.Record, actor account.Actor) (int, error) {
	added := 0
	err := db.tx(ctx, func(tx *sql.Tx) error {
		if err := db.accountExists(ctx, tx, accountID); err != nil {
			return err
		}
		for _, r := range recs {
			var n int
			if err := tx.QueryRowContext(ctx, db.q(`SELECT COUNT(*) FROM api_keys WHERE id = ? OR hash = ?`), r.ID, r.Hash).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				continue
			}
			if err := db.insertKey(ctx, tx, accountID, r); err != nil {
				return err
			}
			if err := db.audit(ctx, tx, account.AuditEvent{AccountID: accountID, Actor: actor.Name, Addr: actor.Addr,
				Action: account.ActionKeyImport, KeyID: r.ID, Detail: fmt.Sprintf("%s key %q", r.Env, r.Name)}); err != nil {
				return err
			}
			added++
		}
		if added == 0 {
			return nil
		}
		return bumpKeys(ctx, tx)
	})
	if err != nil {
		return 0, fmt.Errorf("import keys: %w", err)
	}
	return added, nil
}

// RenewDevKey deletes the account's test keys named account.DevKeyName and
// creates a new one, so that restarts do not pile up keys.
func (db *DB) RenewDevKey(ctx context.Context, accountID string) (string, account.Key, error) {
	var key string
	var k account.Key
	err := db.tx(ctx, func(tx *sql.Tx) error {
		if err := db.accountExists(ctx, tx, accountID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, db.q(`DELETE FROM key_usage WHERE key_id IN (SELECT id FROM api_keys WHERE account_id = ? AND name = ? AND env = ?)`),
			accountID, account.DevKeyName, apikey.EnvTest); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, db.q(`DELETE FROM api_keys WHERE account_id = ? AND name = ? AND env = ?`),
			accountID, account.DevKeyName, apikey.EnvTest); err != nil {
			return err
		}
		var err error
		// The developer's key may change the account's units too, so
		// that the guides' examples run with it.
		if key, k, err = db.newKey(ctx, tx, accountID, account.DevKeyName, apikey.EnvTest, []string{apikey.ScopeUnitsWrite}, db.now()); err != nil {
			return err
		}
		return bumpKeys(ctx, tx)
	})
	if err != nil {
		return "", account.Key{}, fmt.Errorf("renew dev key: %w", err)
	}
	return key, k, nil
}

// KeyVersion returns a number that changes whenever a key changes.
func (db *DB) KeyVersion(ctx context.Context) (int64, error) {
	var v int64
	if err := db.db.QueryRowContext(ctx, `SELECT version FROM key_version`).Scan(&v); err != nil {
		return 0, fmt.Errorf("read key version: %w", err)
	}
	return v, nil
}

// AuthRecords returns the records of every key that is not revoked or
// expired by now, for the in-memory set.
func (db *DB) AuthRecords(ctx context.Context) ([]apikey.Record, error) {
	now := ts(db.now())
	rows, err := db.db.QueryContext(ctx, db.q(`SELECT `+keyCols+` FROM api_keys
WHERE (revoked_at IS NULL OR revoked_at > ?) AND (expires_at IS NULL OR expires_at > ?)`), now, now)
	if err != nil {
		return nil, fmt.Errorf("load keys: %w", err)
	}
	defer rows.Close()
	var out []apikey.Record
	for rows.Next() {
		k, err := scanKey(rows)
		if err != nil {
			return nil, fmt.Errorf("load keys: %w", err)
		}
		out = append(out, k.Record)
	}
	return out, rows.Err()
}
