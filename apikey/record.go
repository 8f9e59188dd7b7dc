package apikey

import "time"

// Record describes one key. It never holds the key itself.
type Record struct {
	ID        string
	Name      string
	Env       string
	Prefix    string // first characters of the key, for display
	CreatedAt time.Time
	RevokedAt *time.Time
	ExpiresAt *time.Time
	Hash      string // hex SHA-256 of the whole key
	// AccountID is the account the key belongs to ("" for a record read
	// from a key file, before it is imported into an account).
	AccountID string
	// Scopes are what the key may do beyond converting and reading (see
	// Allows), sorted; a key without any converts only.
	Scopes []string
}

// Usable reports whether the key is neither revoked nor expired at now.
func (r Record) Usable(now time.Time) bool {
	if r.RevokedAt != nil && !now.Before(*r.RevokedAt) {
		return false
	}
	if r.ExpiresAt != nil && !now.Before(*r.ExpiresAt) {
		return false
	}
	return true
}

// Status returns "active", "revoked" or "expired" for display.
func (r Record) Status(now time.Time) string {
	switch {
	case r.RevokedAt != nil && !now.Before(*r.RevokedAt):
		return "revoked"
	case r.ExpiresAt != nil && !now.Before(*r.ExpiresAt):
		return "expired"
	}
	return "active"
}

// Status describes the last loads of the set a server serves, for health
// reporting.
type Status struct {
	LoadedAt  time.Time // last successful load; zero if none
	CheckedAt time.Time // last load attempt
	Keys      int       // records in the current Set
	Err       error     // error of the last attempt; nil if it succeeded
}
