package apikey

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"time"
)

// Reasons for refusing a token. They are distinct so that a server can log
// and count them, but an HTTP client should get one answer for all three,
// and none of them ever carries the token or its hash.
var (
	// ErrMalformed: the token is not in the uc_<env>_<43 base64url> format.
	ErrMalformed = errors.New("malformed API key")
	// ErrUnknown: well-formed, but not in the store, revoked or expired.
	ErrUnknown = errors.New("unknown, revoked or expired API key")
	// ErrWrongEnv: the key belongs to another environment.
	ErrWrongEnv = errors.New("API key is for another environment")
)

// Set is an immutable snapshot of the store, indexed by key hash. It is
// safe for concurrent use.
type Set struct {
	byHash map[[sha256.Size]byte]Record
}

// NewSet builds a Set from records. Records whose hash is not valid hex are
// skipped (the store refuses such files, so this only guards hand-made
// input); revoked and expired records are kept so that a key with a future
// expiry keeps working until the moment it expires.
func NewSet(recs []Record) *Set {
	s := &Set{byHash: make(map[[sha256.Size]byte]Record, len(recs))}
	for _, r := range recs {
		var h [sha256.Size]byte
		if n, err := hex.Decode(h[:], []byte(r.Hash)); err != nil || n != sha256.Size {
			continue
		}
		s.byHash[h] = r
	}
	return s
}

// Len returns the number of records in the set.
func (s *Set) Len() int {
	if s == nil {
		return 0
	}
	return len(s.byHash)
}

// Authenticate returns the record of token if it is a well-formed key of
// environment env that is in the set and is neither revoked nor expired at
// now. Otherwise it returns ErrMalformed, ErrWrongEnv or ErrUnknown.
//
// The map lookup is by SHA-256 of the token, so its timing depends on a hash
// the caller cannot steer, not on the stored secret; the final comparison is
// constant-time all the same.
// UsableIn returns how many keys of the set are usable at now in env.
func (s *Set) UsableIn(env string, now time.Time) int {
	if s == nil {
		return 0
	}
	n := 0
	for _, r := range s.byHash {
		if r.Env == env && r.Usable(now) {
			n++
		}
	}
	return n
}

func (s *Set) Authenticate(token, env string, now time.Time) (Record, error) {
	tokenEnv, ok := parseKey(token)
	if !ok {
		return Record{}, ErrMalformed
	}
	if tokenEnv != env {
		return Record{}, ErrWrongEnv
	}
	if s == nil {
		return Record{}, ErrUnknown
	}
	h := hashKey(token)
	rec, ok := s.byHash[h]
	if !ok {
		return Record{}, ErrUnknown
	}
	var stored [sha256.Size]byte
	if _, err := hex.Decode(stored[:], []byte(rec.Hash)); err != nil ||
		subtle.ConstantTimeCompare(h[:], stored[:]) != 1 {
		return Record{}, ErrUnknown
	}
	if rec.Env != env {
		// Only possible if the file was edited by hand.
		return Record{}, ErrWrongEnv
	}
	if !rec.Usable(now) {
		return Record{}, ErrUnknown
	}
	return rec, nil
}
