package account

import (
	"crypto/rand"
	"encoding/base32"
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/unitd/unitd/apikey"
)

var idEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// NewID returns a random id with prefix, such as "acct_7qz4m2kxj5abcdef"
// (80 random bits).
func NewID(prefix string) (string, error) {
	var b [10]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("generate id: %w", err)
	}
	return prefix + strings.ToLower(idEncoding.EncodeToString(b[:])), nil
}

// NewToken returns a random token of 32 bytes, base64url without padding,
// for set-up links and session cookies.
func NewToken() (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("generate token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b[:]), nil
}

// HashToken returns the hex SHA-256 of a token, which is what stores keep:
// the same hash as an API key's (apikey.HashSecret).
func HashToken(token string) string { return apikey.HashSecret(token) }
