// Package apikey is the API-key domain: the key format, hashing, names,
// environments, the record that describes a key, and the in-memory set that
// authenticates Bearer tokens. It knows no HTTP, no SQL and no file format;
// the account domain, the SQL store and the HTTP server use it.
//
// # Keys
//
// A key is "uc_live_" or "uc_test_" followed by the unpadded base64url
// encoding of 32 bytes from crypto/rand (43 characters), for example
//
//	uc_test_3q2-7wAAAAC6vK3eAAAAAAAAAAAAAAAAAAAAAAAAAAA
//
// [Generate] makes one and [NewRecord] makes one with its [Record]. A key is
// shown to its owner once, by the command that created it, and is never
// stored: a store keeps its hex SHA-256 hash, a short display prefix
// ("uc_test_3q2-") that is enough to recognise a key in a list and useless
// to an attacker, and metadata (id, name, environment, creation,
// revocation and expiry times). A plain, fast hash is enough because the
// key carries 256 bits of entropy: there is no dictionary to try, so a slow
// password KDF would add latency to every request and no security.
//
// # Authentication
//
// [Set] is an immutable snapshot of the records, indexed by hash, that the
// HTTP server asks to [Set.Authenticate] a Bearer token. The sentinel errors
// [ErrMalformed], [ErrUnknown] and [ErrWrongEnv] say why a token was
// refused; they never contain the token or its hash, and an HTTP caller
// should not be told which one applied. [Status] describes the last load of
// the set that a server serves, for health reporting.
package apikey
