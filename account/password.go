package account

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"
)

// Params are Argon2id parameters. They are written into every hash, so they
// can be raised later without breaking existing passwords.
type Params struct {
	Memory  uint32 // KiB
	Time    uint32 // passes
	Threads uint8
	SaltLen uint32 // bytes
	KeyLen  uint32 // bytes
}

// DefaultParams follow RFC 9106's second recommended option (64 MiB of
// memory), with two passes and two lanes: about 50 ms per hash on one core
// of a small server.
var DefaultParams = Params{Memory: 64 * 1024, Time: 2, Threads: 2, SaltLen: 16, KeyLen: 32}

var b64 = base64.RawStdEncoding.Strict()

// CheckPassword reports why pw is not acceptable as a new password, or nil.
func CheckPassword(pw string) error {
	switch n := utf8.RuneCountInString(pw); {
	case !utf8.ValidString(pw):
		return fmt.Errorf("%w: the password is not valid UTF-8", ErrInvalid)
	case n < MinPasswordLen:
		return fmt.Errorf("%w: the password needs at least %d characters", ErrInvalid, MinPasswordLen)
	case len(pw) > MaxPasswordLen:
		return fmt.Errorf("%w: the password is longer than %d bytes", ErrInvalid, MaxPasswordLen)
	}
	return nil
}

// HashPassword returns the Argon2id hash of pw in the PHC string format:
//
//	$argon2id$v=19$m=65536,t=2,p=2$<salt>$<hash>
//
// It runs at once in this process, whatever else is running: a server
// hashes through a [Hasher], which bounds the memory of the hashes running
// together.
func HashPassword(pw string, p Params) (string, error) {
	return hashPassword(context.Background(), pw, p, InProcess)
}

// KeyFunc computes the Argon2id key of pw and salt with the time, memory
// and threads of p, KeyLen bytes long: [InProcess], or the same computation
// somewhere else (a helper process, say).
type KeyFunc func(ctx context.Context, pw, salt []byte, p Params) ([]byte, error)

// InProcess computes an Argon2id key in this process (argon2.IDKey).
func InProcess(_ context.Context, pw, salt []byte, p Params) ([]byte, error) {
	return argon2.IDKey(pw, salt, p.Time, p.Memory, p.Threads, p.KeyLen), nil
}

func hashPassword(ctx context.Context, pw string, p Params, key KeyFunc) (string, error) {
	salt := make([]byte, p.SaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("hash password: %w", err)
	}
	k, err := key(ctx, []byte(pw), salt, p)
	if err != nil {
		return "", fmt.Errorf("hash password: %w", err)
	}
	if len(k) != int(p.KeyLen) {
		return "", fmt.Errorf("hash password: a key of %d bytes, want %d", len(k), p.KeyLen)
	}
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, p.Memory, p.Time, p.Threads, b64.EncodeToString(salt), b64.EncodeToString(k)), nil
}

// DecoyHash returns a hash in HashPassword's format with the parameters p,
// a random salt and a random key in place of a derived one: checking a
// password against it costs exactly what checking one against a real hash
// of p costs, and no password matches it (the chance is that of guessing
// p.KeyLen random bytes). A sign-in checks an unknown user's password
// against it, so that unknown users take as long as known ones; unlike a
// hash of some password, it needs no Argon2id work to make.
func DecoyHash(p Params) (string, error) {
	if p.SaltLen < 8 || p.KeyLen < 16 {
		return "", fmt.Errorf("%w: a decoy hash needs a salt of at least 8 bytes and a key of at least 16", ErrInvalid)
	}
	buf := make([]byte, p.SaltLen+p.KeyLen)
	if _, err := rand.Read(buf); err != nil {
		return "", fmt.Errorf("decoy hash: %w", err)
	}
	salt, k := buf[:p.SaltLen], buf[p.SaltLen:]
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, p.Memory, p.Time, p.Threads, b64.EncodeToString(salt), b64.EncodeToString(k)), nil
}

// VerifyPassword reports whether pw matches the encoded hash, comparing in
// constant time with the parameters stored in the hash. Like HashPassword,
// it runs at once in this process; a server checks through a [Hasher].
func VerifyPassword(encoded, pw string) (bool, error) {
	return verifyPassword(context.Background(), encoded, pw, InProcess)
}

func verifyPassword(ctx context.Context, encoded, pw string, key KeyFunc) (bool, error) {
	p, salt, want, err := decodeHash(encoded)
	if err != nil {
		return false, err
	}
	if len(pw) > MaxPasswordLen {
		pw = pw[:MaxPasswordLen] // still do the work: no shortcut to time
	}
	got, err := key(ctx, []byte(pw), salt, p)
	if err != nil {
		return false, fmt.Errorf("verify password: %w", err)
	}
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}

// ParamsOf returns the parameters an encoded hash was made with.
func ParamsOf(encoded string) (Params, error) {
	p, _, _, err := decodeHash(encoded)
	return p, err
}

var errBadHash = errors.New("password hash is not in the $argon2id$v=19$m=…,t=…,p=…$salt$hash format")

func decodeHash(encoded string) (p Params, salt, key []byte, err error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" || parts[2] != fmt.Sprintf("v=%d", argon2.Version) {
		return p, nil, nil, errBadHash
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.Memory, &p.Time, &p.Threads); err != nil {
		return p, nil, nil, errBadHash
	}
	if p.Memory < 8 || p.Memory > 4<<20 || p.Time < 1 || p.Time > 100 || p.Threads < 1 {
		return p, nil, nil, errBadHash
	}
	if salt, err = b64.DecodeString(parts[4]); err != nil || len(salt) < 8 {
		return p, nil, nil, errBadHash
	}
	if key, err = b64.DecodeString(parts[5]); err != nil || len(key) < 16 {
		return p, nil, nil, errBadHash
	}
	p.SaltLen, p.KeyLen = uint32(len(salt)), uint32(len(key))
	return p, salt, key, nil
}
