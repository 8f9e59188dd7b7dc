// Package apikey is the API-key domain: key format, hashing, names, environments and the in-memory set that authenticates Bearer tokens.
//
// # Keys
//
// A key is "uc_live_" or "uc_test_" followed by the unpadded base64url
// encoding of 32 bytes from crypto/rand (43 characters), for example
//
//	uc_test_3q2-7wAAAAC6vK3eAAAAAAAAAAAAAAAAAAAAAAAAAAA
//
// [Generate] makes one. A key is shown to its owner once, by the command that
// created it, and is never stored: the store keeps its hex SHA-256 hash, a
// short display prefix ("uc_test_3q2-") that is enough to recognise a key in a
// list and useless to an attacker, and metadata (id, name, environment,
// creation, revocation and expiry times). A plain, fast hash is enough because
// the key carries 256 bits of entropy: there is no dictionary to try, so a
// slow password KDF would add latency to every request and no security.
//
// # Store
//
// [Store] is the JSON key file of earlier unitd versions (mode 0600). unitd
// now keeps keys in its account store (package store) and only imports such
// a file once, with [ReadFile]; [NewRecord] makes keys for other stores. Every
// change is a read-modify-write done under an exclusive flock(2) on the
// sidecar file "FILE.lock", so concurrent invocations never lose each
// other's changes, and the new content is written to a temporary file in the
// same directory, synced and renamed over the old one, so a reader sees
// either the old file or the new one, never a torn write.
//
// # Authentication
//
// [Set] is an immutable snapshot of the store, indexed by hash, that the HTTP
// server asks to [Set.Authenticate] a Bearer token. The sentinel errors
// [ErrMalformed], [ErrUnknown] and [ErrWrongEnv] say why a token was refused;
// they never contain the token or its hash, and an HTTP caller should not be
// told which one applied.
//
// [Watcher] keeps a current Set of a JSON key file: it reloads the file
// when it changes (fsnotify on the parent directory, plus a stat poll as a
// fallback), so a key created, rotated or revoked by another process is
// honoured within a second. A file that cannot be read or parsed leaves the
// last good Set in place and is reported by [Watcher.Status].
package apikey
