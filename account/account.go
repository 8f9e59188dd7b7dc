// Package account is the domain of API consumers: accounts, the users who
// sign in for them, their API keys, sessions, per-key usage and the audit
// log, with the rules that hold whatever stores them.
//
// It knows no SQL and no HTTP. Its store interfaces, one per concern
// ([Directory], [Credentials], [Sessions], [KeyManager], [KeyAdmin],
// [UsageReader], [AuditLog], [KeyLoader], [KeyReporter], [UsageWriter],
// [UnitStore], [UnitLoader]),
// are implemented by the SQL store (package store, opened by store/sqlite
// or store/postgres); each caller (the account page in server/accountweb,
// the command line, the server) asks for those it uses. Errors carry a code
// ([Error], [ErrorCode]) that the HTTP adapters turn into a status. Two pieces run in the server
// process beside the conversion hot path, so that it never waits on the
// database: [KeySource] keeps the current keys in memory and refreshes them
// when the store's key version changes, and [UsageCounter] counts requests
// per key in memory and flushes the counts to the store every few seconds.
// A third, [UnitWatcher], follows which accounts' units changed, so that a
// server compiles an account's units again on every replica within a
// second of a change (units.go).
//
// Passwords are hashed with Argon2id ([HashPassword], [VerifyPassword]),
// with the parameters written beside the hash. Keys, set-up tokens and
// session tokens are stored only as SHA-256 hashes: they carry 256 random
// bits, so a fast hash is enough.
package account

import (
	"context"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"github.com/unitd/unitd/apikey"
)

// Lifetimes and limits.
const (
	DefaultGrace   = 24 * time.Hour     // rotation grace period unless one is chosen
	MaxGrace       = 7 * 24 * time.Hour // longest grace period a user may pick
	SetupTokenTTL  = 72 * time.Hour     // a set-up link works this long
	SessionTTL     = 12 * time.Hour     // a session lasts this long after sign-in
	MinPasswordLen = 12                 // characters
	MaxPasswordLen = 256                // bytes; longer input is refused before hashing
	maxAccountName = 100
)

// OperatorAccountName is the account that receives keys created or imported
// by the operator without naming an account.
const OperatorAccountName = "default"

// DevKeyName names the test key that `make run` renews at every start.
const DevKeyName = "dev (make run)"

// Account is an API consumer: a team or company.
type Account struct {
	ID        string
	Name      string
	CreatedAt time.Time
}

// User is a person who signs in for an account.
type User struct {
	ID          string
	AccountID   string
	Email       string // lower case
	HasPassword bool
	CreatedAt   time.Time
	DisabledAt  *time.Time
}

// Key is an API key's record with its account and last use. It never holds
// the key itself; Record.Hash is the stored SHA-256.
type Key struct {
	apikey.Record // with its AccountID and Scopes
	LastUsedAt    *time.Time
	ReplacedBy    string // id of the key that rotation created, if any
}

// State is how a key shows on the account page: "active", "expiring"
// (active, with an expiry), "expired" or "revoked".
func (k Key) State(now time.Time) string {
	switch s := k.Status(now); {
	case s != "active":
		return s
	case k.ExpiresAt != nil:
		return "expiring"
	}
	return "active"
}

// Session is a signed-in user's server-side session. The cookie holds a
// random token; the store keeps only its hash.
type Session struct {
	TokenHash string
	UserID    string
	AccountID string
	Email     string
	CSRF      string // per-session token that every form must carry
	CreatedAt time.Time
	ExpiresAt time.Time
}

// AuditEvent is one line of an account's audit log.
type AuditEvent struct {
	ID        int64
	AccountID string
	Actor     string // the user's e-mail address, or "operator"
	Action    string // see the Action constants
	KeyID     string // the key concerned, if any
	Detail    string
	Addr      string // client address, "" for the command line
	At        time.Time
}

// Audit actions.
const (
	ActionKeyCreate   = "key.create"
	ActionKeyRotate   = "key.rotate"
	ActionKeyRevoke   = "key.revoke"
	ActionKeyImport   = "key.import"
	ActionSignIn      = "user.signin"
	ActionSignInFail  = "user.signin_failed"
	ActionSignOut     = "user.signout"
	ActionPasswordSet = "user.password_set"
	ActionUserCreate  = "user.create"
	ActionUserDisable = "user.disable"
	ActionUnitPut     = "unit.put"
	ActionUnitDelete  = "unit.delete"
)

// Actor says who does something and from where, for the audit log.
type Actor struct {
	Name string // e-mail address, "operator", or "key <id>"
	Addr string
	// KeyID is the API key that acts, if one does (a change through the
	// API).
	KeyID string
}

// Operator is the actor of command-line changes.
var Operator = Actor{Name: "operator"}

// UsagePoint is the number of requests in the bucket starting at Start.
type UsagePoint struct {
	Start time.Time
	Count int64
}

// UsageCount is a number of requests by one key in one minute.
type UsageCount struct {
	KeyID  string
	Minute time.Time // truncated to the minute, UTC
	Count  int64
	Last   time.Time // last request counted
}

// The store's services, one interface per concern, so that each caller
// asks for what it uses: the account page for Credentials, Sessions,
// KeyManager, UsageReader and AuditLog; the command line for Directory,
// KeyManager and KeyAdmin; the server for KeyLoader, KeyReporter and
// UsageWriter. The SQL store (package store) implements them all. Every
// method that takes an accountID acts only on that account's rows: another
// account's key id is ErrNotFound.

// Directory holds accounts and their users, as the operator manages them.
type Directory interface {
	CreateAccount(ctx context.Context, name string) (Account, error)
	Accounts(ctx context.Context) ([]Account, error)
	// AccountByName returns the account, or ErrNotFound.
	AccountByName(ctx context.Context, name string) (Account, error)

	CreateUser(ctx context.Context, accountID, email string) (User, error)
	// Users lists the users of accountID, or of every account for "".
	Users(ctx context.Context, accountID string) ([]User, error)
	DisableUser(ctx context.Context, email string) error
	// CreateSetupToken replaces the user's pending set-up tokens with one
	// whose hash is tokenHash.
	CreateSetupToken(ctx context.Context, email, tokenHash string, expires time.Time) (User, error)
}

// Credentials are what signing in and choosing a password need.
type Credentials interface {
	// PasswordHash returns a user's stored hash ("" before set-up).
	// Disabled users are ErrNotFound.
	PasswordHash(ctx context.Context, email string) (User, string, error)
	// SetupUser returns the user of a pending, unexpired set-up token.
	SetupUser(ctx context.Context, tokenHash string, now time.Time) (User, error)
	// SetPassword consumes the set-up token and stores passwordHash; it
	// also ends the user's sessions.
	SetPassword(ctx context.Context, tokenHash, passwordHash string, now time.Time, actor Actor) (User, error)
}

// Sessions keeps signed-in users' sessions.
type Sessions interface {
	CreateSession(ctx context.Context, s Session) error
	// Session returns an unexpired session of an enabled user.
	Session(ctx context.Context, tokenHash string, now time.Time) (Session, error)
	DeleteSession(ctx context.Context, tokenHash string) error
}

// KeyManager is what a user (on the page) or the operator (on the command
// line) does with an account's keys.
type KeyManager interface {
	// CreateKey stores a new key with scopes (apikey.Scopes; none: it
	// converts only) and returns it; the key is never stored.
	CreateKey(ctx context.Context, accountID, name, env string, scopes []string, actor Actor) (string, Key, error)
	// RotateKey creates a successor with the same name, environment and
	// scopes. The old key stays usable for grace, then expires; 0 revokes
	// it now.
	RotateKey(ctx context.Context, accountID, id string, grace time.Duration, actor Actor) (string, Key, error)
	// RevokeKey revokes a key now (a no-op for a revoked key).
	RevokeKey(ctx context.Context, accountID, id string, actor Actor) error
	Keys(ctx context.Context, accountID string) ([]Key, error)
	Key(ctx context.Context, accountID, id string) (Key, error)
}

// KeyAdmin holds the operator's key operations beyond one account's.
type KeyAdmin interface {
	// KeyAccount returns the account of a key, for operator commands that
	// name a key by id alone.
	KeyAccount(ctx context.Context, id string) (string, error)
	// ImportKeys adds the records whose id is not yet in the store to
	// accountID, keeping everything they say, and returns how many it added.
	ImportKeys(ctx context.Context, accountID string, recs []apikey.Record, actor Actor) (int, error)
	// RenewDevKey deletes the account's keys named DevKeyName and creates a
	// fresh test key with that name.
	RenewDevKey(ctx context.Context, accountID string) (string, Key, error)
}

// UsageReader reads the per-key request counts that a UsageWriter added.
type UsageReader interface {
	// Usage returns the key's request counts since since, in buckets of
	// step (a multiple of a minute), oldest first, empty buckets included.
	Usage(ctx context.Context, accountID, keyID string, since time.Time, step time.Duration) ([]UsagePoint, error)
	// RequestsSince sums each of the account's keys' requests since since.
	RequestsSince(ctx context.Context, accountID string, since time.Time) (map[string]int64, error)
}

// AuditLog records who did what to an account, and reads it back.
type AuditLog interface {
	AddAudit(ctx context.Context, ev AuditEvent) error
	// Audit returns the account's latest events, newest first.
	Audit(ctx context.Context, accountID string, limit int) ([]AuditEvent, error)
}

// NormalizeEmail checks an e-mail address and returns it in lower case.
func NormalizeEmail(email string) (string, error) {
	e := strings.ToLower(strings.TrimSpace(email))
	a, err := mail.ParseAddress(e)
	if err != nil || a.Address != e || a.Name != "" || len(e) > 254 {
		return "", fmt.Errorf("%w: %q is not an e-mail address", ErrInvalid, email)
	}
	return e, nil
}

// CheckAccountName reports why name cannot name an account, or nil.
func CheckAccountName(name string) error {
	if len(name) > maxAccountName {
		return fmt.Errorf("%w: account name is longer than %d bytes", ErrInvalid, maxAccountName)
	}
	if err := apikey.CheckName(name); err != nil {
		return fmt.Errorf("%w: account %s", ErrInvalid, strings.TrimPrefix(err.Error(), "key "))
	}
	return nil
}

// CheckGrace reports why d is not a rotation grace period, or nil.
func CheckGrace(d time.Duration) error {
	if d < 0 || d > MaxGrace {
		return fmt.Errorf("%w: the grace period must be between 0 and 7 days", ErrInvalid)
	}
	return nil
}
