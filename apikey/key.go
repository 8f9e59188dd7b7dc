package apikey

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Environments. A server runs in one of them and accepts only its keys.
const (
	EnvLive = "live"
	EnvTest = "test"
)

const (
	keyPrefix    = "uc_"  // followed by env and "_"
	secretBytes  = 32     // random bytes in a key
	secretChars  = 43     // base64.RawURLEncoding.EncodedLen(secretBytes)
	prefixLen    = 12     // displayed characters: "uc_test_" plus 4 random
	idPrefix     = "key_" // record ids are idPrefix + 16 lower-case base32 characters
	idRandomSize = 10     // bytes of randomness in an id → 16 base32 characters
	maxNameLen   = 100    // bytes
	// HashHexLen is the length of a stored hash: hex SHA-256.
	HashHexLen = 2 * sha256.Size
)

var (
	secretEncoding = base64.RawURLEncoding.Strict()
	idEncoding     = base32.StdEncoding.WithPadding(base32.NoPadding)
)

// ValidEnv reports whether env is EnvLive or EnvTest.
func ValidEnv(env string) bool { return env == EnvLive || env == EnvTest }

// Generate returns a new random key for env ("live" or "test").
func Generate(env string) (string, error) {
	if !ValidEnv(env) {
		return "", fmt.Errorf("generate key: environment %q is not %q or %q", env, EnvLive, EnvTest)
	}
	var b [secretBytes]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("generate key: %w", err)
	}
	return keyPrefix + env + "_" + secretEncoding.EncodeToString(b[:]), nil
}

// parseKey returns the environment of a well-formed key, or ok=false.
// It checks the whole format, so a token that is not one of ours is told
// apart from a well-formed key that is not in the store.
func parseKey(token string) (env string, ok bool) {
	rest, found := strings.CutPrefix(token, keyPrefix)
	if !found {
		return "", false
	}
	env, secret, found := strings.Cut(rest, "_")
	if !found || !ValidEnv(env) || len(secret) != secretChars {
		return "", false
	}
	// Strict decoding also rejects non-zero trailing bits, so every key has
	// exactly one spelling.
	if _, err := secretEncoding.DecodeString(secret); err != nil {
		return "", false
	}
	return env, true
}

// hashKey returns the SHA-256 of key.
func hashKey(key string) [sha256.Size]byte { return sha256.Sum256([]byte(key)) }

// hashHex returns the hex SHA-256 of key, as stored in a Record.
func hashHex(key string) string {
	h := hashKey(key)
	return hex.EncodeToString(h[:])
}

// HashSecret returns the hex SHA-256 of a secret, as stores keep keys,
// set-up tokens and session tokens: the one place such a hash is made.
func HashSecret(secret string) string { return hashHex(secret) }

// displayPrefix returns the part of key that is shown in listings.
func displayPrefix(key string) string { return key[:prefixLen] }

// newID returns a random record id such as "key_7qz4m2kxj5abcdef".
func newID() (string, error) {
	var b [idRandomSize]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("generate key id: %w", err)
	}
	return idPrefix + strings.ToLower(idEncoding.EncodeToString(b[:])), nil
}

// checkName rejects names that would be confusing or unsafe to print.
func checkName(name string) error {
	if strings.TrimSpace(name) == "" {
		return fmt.Errorf("key name is empty")
	}
	if len(name) > maxNameLen {
		return fmt.Errorf("key name is longer than %d bytes", maxNameLen)
	}
	if !utf8.ValidString(name) {
		return fmt.Errorf("key name is not valid UTF-8")
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return fmt.Errorf("key name %q contains a control character", name)
		}
	}
	return nil
}

// NewRecord generates a key for env and the record that describes it,
// named name and created at now. The id is random (80 bits); a store
// refuses the rare duplicate with its own uniqueness check.
func NewRecord(name, env string, now time.Time) (key string, rec Record, err error) {
	if err := checkName(name); err != nil {
		return "", Record{}, err
	}
	if key, err = Generate(env); err != nil {
		return "", Record{}, err
	}
	id, err := newID()
	if err != nil {
		return "", Record{}, err
	}
	rec, err = RecordOf(key, id, name, now.UTC())
	return key, rec, err
}

// RecordOf returns the record of an existing key: its environment,
// display prefix and hash, with the given id, name and creation time. It
// is how every record is made, so a key is hashed in one place.
func RecordOf(key, id, name string, now time.Time) (Record, error) {
	env, ok := parseKey(key)
	if !ok {
		return Record{}, fmt.Errorf("record of key: not a unitd key (uc_live_… or uc_test_…)")
	}
	return Record{
		ID:        id,
		Name:      name,
		Env:       env,
		Prefix:    displayPrefix(key),
		CreatedAt: now,
		Hash:      hashHex(key),
	}, nil
}

// CheckName reports why name cannot name a key, or nil.
func CheckName(name string) error { return checkName(name) }
