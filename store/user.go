package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/unitd/unitd/account"
)

// CreateAccount adds an account with a unique name.
func (db *DB) CreateAccount(ctx context.Context, name string) (account.Account, error) {
	if err := account.CheckAccountName(name); err != nil {
		return account.Account{}, err
	}
	id, err := account.NewID("acct_")
	if err != nil {
		return account.Account{}, err
	}
	a := account.Account{ID: id, Name: name, CreatedAt: db.now()}
	_, err = db.db.ExecContext(ctx, db.q(`INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?)`), a.ID, a.Name, ts(a.CreatedAt))
	if err != nil {
		return account.Account{}, fmt.Errorf("create account %q: %w", name, db.conflict(err, "account name"))
	}
	return a, nil
}

// Accounts lists every account, oldest first.
func (db *DB) Accounts(ctx context.Context) ([]account.Account, error) {
	rows, err := db.db.QueryContext(ctx, `SELECT id, name, created_at FROM accounts ORDER BY created_at, name`)
	if err != nil {
		return nil, fmt.Errorf("list accounts: %w", err)
	}
	defer rows.Close()
	var out []account.Account
	for rows.Next() {
		var a account.Account
		var created int64
		if err := rows.Scan(&a.ID, &a.Name, &created); err != nil {
			return nil, fmt.Errorf("list accounts: %w", err)
		}
		a.CreatedAt = fromTS(created)
		out = append(out, a)
	}
	return out, rows.Err()
}

// AccountByName returns the account called name.
func (db *DB) AccountByName(ctx context.Context, name string) (account.Account, error) {
	a := account.Account{Name: name}
	var created int64
	err := db.db.QueryRowContext(ctx, db.q(`SELECT id, created_at FROM accounts WHERE name = ?`), name).Scan(&a.ID, &created)
	if isNoRows(err) {
		return a, notFound("account " + name)
	}
	if err != nil {
		return a, fmt.Errorf("find account: %w", err)
	}
	a.CreatedAt = fromTS(created)
	return a, nil
}

func (db *DB) accountExists(ctx context.Context, tx *sql.Tx, id string) error {
	var n int
	if err := tx.QueryRowContext(ctx, db.q(`SELECT COUNT(*) FROM accounts WHERE id = ?`), id).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return notFound("account " + id)
	}
	return nil
}

// CreateUser adds a user without a password to an account.
func (db *DB) CreateUser(ctx context.Context, accountID, email string) (account.User, error) {
	email, err := account.NormalizeEmail(email)
	if err != nil {
		return account.User{}, err
	}
	id, err := account.NewID("user_")
	if err != nil {
		return account.User{}, err
	}
	u := account.User{ID: id, AccountID: accountID, Email: email, CreatedAt: db.now()}
	err = db.tx(ctx, func(tx *sql.Tx) error {
		if err := db.accountExists(ctx, tx, accountID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, db.q(`INSERT INTO users (id, account_id, email, password_hash, created_at) VALUES (?, ?, ?, '', ?)`),
			u.ID, u.AccountID, u.Email, ts(u.CreatedAt)); err != nil {
			return db.conflict(err, "e-mail address")
		}
		return db.audit(ctx, tx, account.AuditEvent{AccountID: accountID, Actor: account.Operator.Name,
			Action: account.ActionUserCreate, Detail: email})
	})
	if err != nil {
		return account.User{}, fmt.Errorf("create user %s: %w", email, err)
	}
	return u, nil
}

const userCols = `id, account_id, email, password_hash <> '', created_at, disabled_at`

func scanUser(s interface{ Scan(...any) error }) (account.User, error) {
	var u account.User
	var created int64
	var disabled sql.NullInt64
	err := s.Scan(&u.ID, &u.AccountID, &u.Email, &u.HasPassword, &created, &disabled)
	u.CreatedAt, u.DisabledAt = fromTS(created), fromNull(disabled)
	return u, err
}

// Users lists the users of an account, or of all accounts for "".
func (db *DB) Users(ctx context.Context, accountID string) ([]account.User, error) {
	query, args := `SELECT `+userCols+` FROM users ORDER BY created_at, id`, []any{}
	if accountID != "" {
		query, args = `SELECT `+userCols+` FROM users WHERE account_id = ? ORDER BY created_at, id`, []any{accountID}
	}
	rows, err := db.db.QueryContext(ctx, db.q(query), args...)
	if err != nil {
		return nil, fmt.Errorf("list users: %w", err)
	}
	defer rows.Close()
	var out []account.User
	for rows.Next() {
		u, err := scanUser(rows)
		if err != nil {
			return nil, fmt.Errorf("list users: %w", err)
		}
		out = append(out, u)
	}
	return out, rows.Err()
}

// DisableUser stops a user from signing in and ends their sessions.
func (db *DB) DisableUser(ctx context.Context, email string) error {
	email, err := account.NormalizeEmail(email)
	if err != nil {
		return err
	}
	now := db.now()
	err = db.tx(ctx, func(tx *sql.Tx) error {
		var id, acct string
		err := tx.QueryRowContext(ctx, db.q(`SELECT id, account_id FROM users WHERE email = ?`), email).Scan(&id, &acct)
		if isNoRows(err) {
			return notFound("user")
		}
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, db.q(`UPDATE users SET disabled_at = ? WHERE id = ? AND disabled_at IS NULL`), ts(now), id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, db.q(`DELETE FROM sessions WHERE user_id = ?`), id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, db.q(`DELETE FROM setup_tokens WHERE user_id = ?`), id); err != nil {
			return err
		}
		return db.audit(ctx, tx, account.AuditEvent{AccountID: acct, Actor: account.Operator.Name,
			Action: account.ActionUserDisable, Detail: email})
	})
	if err != nil {
		return fmt.Errorf("disable user %s: %w", email, err)
	}
	return nil
}

// PasswordHash returns an enabled user and their password hash.
func (db *DB) PasswordHash(ctx context.Context, email string) (account.User, string, error) {
	var hash string
	var u account.User
	row := db.db.QueryRowContext(ctx, db.q(`SELECT `+userCols+`, password_hash FROM users WHERE email = ? AND disabled_at IS NULL`), email)
	var created int64
	var disabled sql.NullInt64
	err := row.Scan(&u.ID, &u.AccountID, &u.Email, &u.HasPassword, &created, &disabled, &hash)
	if isNoRows(err) {
		return u, "", notFound("user")
	}
	if err != nil {
		return u, "", fmt.Errorf("find user: %w", err)
	}
	u.CreatedAt, u.DisabledAt = fromTS(created), fromNull(disabled)
	return u, hash, nil
}

// CreateSetupToken replaces an enabled user's set-up tokens with one.
func (db *DB) CreateSetupToken(ctx context.Context, email, tokenHash string, expires time.Time) (account.User, error) {
	email, err := account.NormalizeEmail(email)
	if err != nil {
		return account.User{}, err
	}
	var u account.User
	err = db.tx(ctx, func(tx *sql.Tx) error {
		u, err = scanUser(tx.QueryRowContext(ctx, db.q(`SELECT `+userCols+` FROM users WHERE email = ? AND disabled_at IS NULL`), email))
		if isNoRows(err) {
			return notFound("user")
		}
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, db.q(`DELETE FROM setup_tokens WHERE user_id = ?`), u.ID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, db.q(`INSERT INTO setup_tokens (token_hash, user_id, expires_at) VALUES (?, ?, ?)`), tokenHash, u.ID, ts(expires))
		return err
	})
	if err != nil {
		return account.User{}, fmt.Errorf("create set-up link for %s: %w", email, err)
	}
	return u, nil
}

const setupUserQuery = `SELECT u.id, u.account_id, u.email, u.password_hash <> '', u.created_at, u.disabled_at
FROM setup_tokens t JOIN users u ON u.id = t.user_id
WHERE t.token_hash = ? AND t.expires_at > ? AND u.disabled_at IS NULL`

// SetupUser returns the enabled user of an unexpired set-up token.
func (db *DB) SetupUser(ctx context.Context, tokenHash string, now time.Time) (account.User, error) {
	u, err := scanUser(db.db.QueryRowContext(ctx, db.q(setupUserQuery), tokenHash, ts(now)))
	if isNoRows(err) {
		return u, notFound("set-up link")
	}
	if err != nil {
		return u, fmt.Errorf("find set-up link: %w", err)
	}
	return u, nil
}

// SetPassword consumes a set-up token, stores the password hash and ends
// the user's sessions.
func (db *DB) SetPassword(ctx context.Context, tokenHash, passwordHash string, now time.Time, actor account.Actor) (account.User, error) {
	var u account.User
	err := db.tx(ctx, func(tx *sql.Tx) error {
		var err error
		u, err = scanUser(tx.QueryRowContext(ctx, db.q(setupUserQuery), tokenHash, ts(now)))
		if isNoRows(err) {
			return notFound("set-up link")
		}
		if err != nil {
			return err
		}
		// The DELETE decides who wins when the link is used twice at once.
		res, err := tx.ExecContext(ctx, db.q(`DELETE FROM setup_tokens WHERE token_hash = ?`), tokenHash)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return notFound("set-up link")
		}
		if _, err := tx.ExecContext(ctx, db.q(`UPDATE users SET password_hash = ? WHERE id = ?`), passwordHash, u.ID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, db.q(`DELETE FROM sessions WHERE user_id = ?`), u.ID); err != nil {
			return err
		}
		actor.Name = u.Email
		return db.audit(ctx, tx, account.AuditEvent{AccountID: u.AccountID, Actor: actor.Name, Addr: actor.Addr,
			Action: account.ActionPasswordSet})
	})
	if err != nil {
		return account.User{}, fmt.Errorf("set password: %w", err)
	}
	u.HasPassword = true
	return u, nil
}

// CreateSession stores a session and drops expired ones.
func (db *DB) CreateSession(ctx context.Context, s account.Session) error {
	return db.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, db.q(`DELETE FROM sessions WHERE expires_at <= ?`), ts(db.now())); err != nil {
			return fmt.Errorf("drop expired sessions: %w", err)
		}
		if _, err := tx.ExecContext(ctx, db.q(`INSERT INTO sessions (token_hash, user_id, csrf, created_at, expires_at) VALUES (?, ?, ?, ?, ?)`),
			s.TokenHash, s.UserID, s.CSRF, ts(s.CreatedAt), ts(s.ExpiresAt)); err != nil {
			return fmt.Errorf("create session: %w", err)
		}
		return nil
	})
}

// Session returns an unexpired session of an enabled user.
func (db *DB) Session(ctx context.Context, tokenHash string, now time.Time) (account.Session, error) {
	s := account.Session{TokenHash: tokenHash}
	var created, expires int64
	err := db.db.QueryRowContext(ctx, db.q(`SELECT s.user_id, u.account_id, u.email, s.csrf, s.created_at, s.expires_at
FROM sessions s JOIN users u ON u.id = s.user_id
WHERE s.token_hash = ? AND s.expires_at > ? AND u.disabled_at IS NULL`), tokenHash, ts(now)).
		Scan(&s.UserID, &s.AccountID, &s.Email, &s.CSRF, &created, &expires)
	if isNoRows(err) {
		return s, notFound("session")
	}
	if err != nil {
		return s, fmt.Errorf("find session: %w", err)
	}
	s.CreatedAt, s.ExpiresAt = fromTS(created), fromTS(expires)
	return s, nil
}

// DeleteSession ends a session.
func (db *DB) DeleteSession(ctx context.Context, tokenHash string) error {
	if _, err := db.db.ExecContext(ctx, db.q(`DELETE FROM sessions WHERE token_hash = ?`), tokenHash); err != nil {
		return fmt.Errorf("delete session: %w", err)
	}
	return nil
}
