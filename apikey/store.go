package apikey

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// fileVersion is the version of the store file format written by this package.
const fileVersion = 1

// DevKeyName is the name of the test key that [Store.RenewDevKey] manages.
const DevKeyName = "dev (make run)"

// ErrNotFound is returned (wrapped) when no record has the given id.
var ErrNotFound = errors.New("no such key")

// Record describes one key. It never holds the key itself.
type Record struct {
	ID        string     `json:"id"`
	Name      string     `json:"name"`
	Env       string     `json:"env"`
	Prefix    string     `json:"prefix"` // first characters of the key, for display
	CreatedAt time.Time  `json:"created_at"`
	RevokedAt *time.Time `json:"revoked_at,omitempty"`
	ExpiresAt *time.Time `json:"expires_at,omitempty"`
	Hash      string     `json:"hash"` // hex SHA-256 of the whole key
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

// file is the JSON layout of the store.
type file struct {
	Version int      `json:"version"`
	Keys    []Record `json:"keys"`
}

// Store is the key file at Path. The zero value with a Path is ready to use;
// each method reads the file afresh, so several Store values, in one process
// or many, may share a path.
type Store struct {
	Path string
	// Now returns the current time; nil means time.Now. Tests set it.
	Now func() time.Time
}

func (s *Store) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC()
	}
	return time.Now().UTC()
}

// List returns all records, oldest first. A missing file holds no keys.
func (s *Store) List() ([]Record, error) {
	recs, err := readFile(s.Path)
	if err != nil {
		return nil, err
	}
	return recs, nil
}

// Create adds a new key named name for env and returns the key, which is
// not stored anywhere and cannot be recovered, and its record.
func (s *Store) Create(name, env string) (key string, rec Record, err error) {
	err = s.update(func(recs []Record) ([]Record, error) {
		key, rec, err = newRecord(recs, name, env, s.now())
		if err != nil {
			return nil, err
		}
		return append(recs, rec), nil
	})
	if err != nil {
		return "", Record{}, fmt.Errorf("create key: %w", err)
	}
	return key, rec, nil
}

// Revoke revokes the key with the given id at once. Revoking a revoked key
// is a no-op that keeps the first revocation time.
func (s *Store) Revoke(id string) error {
	err := s.update(func(recs []Record) ([]Record, error) {
		i, err := findID(recs, id)
		if err != nil {
			return nil, err
		}
		if recs[i].RevokedAt == nil {
			now := s.now()
			recs[i].RevokedAt = &now
		}
		return recs, nil
	})
	if err != nil {
		return fmt.Errorf("revoke key %s: %w", id, err)
	}
	return nil
}

// Rotate creates a successor of the key with the given id, with the same
// name and environment, and returns the new key and record. With grace > 0
// the old key stays valid until now+grace (or its earlier expiry); otherwise
// it is revoked now. Only a usable key can be rotated.
func (s *Store) Rotate(id string, grace time.Duration) (key string, rec Record, err error) {
	err = s.update(func(recs []Record) ([]Record, error) {
		i, err := findID(recs, id)
		if err != nil {
			return nil, err
		}
		now := s.now()
		old := &recs[i]
		if !old.Usable(now) {
			return nil, fmt.Errorf("key is %s", old.Status(now))
		}
		key, rec, err = newRecord(recs, old.Name, old.Env, now)
		if err != nil {
			return nil, err
		}
		if grace > 0 {
			end := now.Add(grace)
			if old.ExpiresAt == nil || end.Before(*old.ExpiresAt) {
				old.ExpiresAt = &end
			}
		} else {
			old.RevokedAt = &now
		}
		return append(recs, rec), nil
	})
	if err != nil {
		return "", Record{}, fmt.Errorf("rotate key %s: %w", id, err)
	}
	return key, rec, nil
}

// RenewDevKey revokes every unrevoked test key named [DevKeyName] and creates
// a fresh one, returning it so that `make run` can print it. Since only
// hashes are stored, the key of an earlier run cannot be shown again; a new
// one per start is the honest alternative.
func (s *Store) RenewDevKey() (key string, rec Record, err error) {
	err = s.update(func(recs []Record) ([]Record, error) {
		now := s.now()
		for i := range recs {
			if recs[i].Name == DevKeyName && recs[i].Env == EnvTest && recs[i].RevokedAt == nil {
				recs[i].RevokedAt = &now
			}
		}
		key, rec, err = newRecord(recs, DevKeyName, EnvTest, now)
		if err != nil {
			return nil, err
		}
		return append(recs, rec), nil
	})
	if err != nil {
		return "", Record{}, fmt.Errorf("renew dev key: %w", err)
	}
	return key, rec, nil
}

// newRecord generates a key and a record with an id unused in recs.
func newRecord(recs []Record, name, env string, now time.Time) (string, Record, error) {
	if err := checkName(name); err != nil {
		return "", Record{}, err
	}
	key, err := Generate(env)
	if err != nil {
		return "", Record{}, err
	}
	id, err := newID()
	for err == nil && slices.ContainsFunc(recs, func(r Record) bool { return r.ID == id }) {
		id, err = newID()
	}
	if err != nil {
		return "", Record{}, err
	}
	rec, err := RecordOf(key, id, name, now)
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

func findID(recs []Record, id string) (int, error) {
	i := slices.IndexFunc(recs, func(r Record) bool { return r.ID == id })
	if i < 0 {
		return 0, ErrNotFound
	}
	return i, nil
}

// update runs fn on the current records under the store's exclusive lock
// and writes what fn returns.
func (s *Store) update(fn func([]Record) ([]Record, error)) error {
	if s.Path == "" {
		return errors.New("no key file given")
	}
	dir := filepath.Dir(s.Path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create key directory: %w", err)
	}
	unlock, err := lockFile(s.Path + ".lock")
	if err != nil {
		return err
	}
	defer unlock()
	recs, err := readFile(s.Path)
	if err != nil {
		return err
	}
	recs, err = fn(recs)
	if err != nil {
		return err
	}
	return writeFile(s.Path, recs)
}

// readFile reads and checks the store at path. A missing file is empty.
func readFile(path string) ([]Record, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read key file: %w", err)
	}
	recs, err := decode(data)
	if err != nil {
		return nil, fmt.Errorf("key file %s: %w", path, err)
	}
	return recs, nil
}

// decode parses a store file strictly and checks every record, so that a
// hand-edited or truncated file is refused instead of half understood.
func decode(data []byte) ([]Record, error) {
	var f file
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("parse: %w", err)
	}
	if dec.More() {
		return nil, errors.New("parse: data after the JSON object")
	}
	if f.Version != fileVersion {
		return nil, fmt.Errorf("unsupported version %d (want %d)", f.Version, fileVersion)
	}
	ids := make(map[string]bool, len(f.Keys))
	hashes := make(map[string]bool, len(f.Keys))
	for i, r := range f.Keys {
		if err := checkRecord(r); err != nil {
			return nil, fmt.Errorf("key %d (%q): %w", i, r.ID, err)
		}
		if ids[r.ID] {
			return nil, fmt.Errorf("key %d: duplicate id %q", i, r.ID)
		}
		if hashes[r.Hash] {
			return nil, fmt.Errorf("key %d (%q): duplicate hash", i, r.ID)
		}
		ids[r.ID], hashes[r.Hash] = true, true
	}
	return f.Keys, nil
}

func checkRecord(r Record) error {
	switch {
	case r.ID == "":
		return errors.New("empty id")
	case !ValidEnv(r.Env):
		return fmt.Errorf("env %q is not %q or %q", r.Env, EnvLive, EnvTest)
	case r.CreatedAt.IsZero():
		return errors.New("no created_at")
	}
	// Never echo the hash: it is not secret like the key, but it is the
	// stored credential and has no business in logs.
	if _, err := hex.DecodeString(r.Hash); err != nil || len(r.Hash) != hashHexLen {
		return fmt.Errorf("hash is not %d hex digits", hashHexLen)
	}
	return nil
}

// writeFile replaces the store at path atomically: a temporary file in the
// same directory is written, synced and renamed over path, and the directory
// is synced so that the rename survives a crash.
func writeFile(path string, recs []Record) (err error) {
	if recs == nil {
		recs = []Record{}
	}
	data, err := json.MarshalIndent(file{Version: fileVersion, Keys: recs}, "", "  ")
	if err != nil {
		return fmt.Errorf("encode key file: %w", err)
	}
	data = append(data, '\n')

	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*") // mode 0600
	if err != nil {
		return fmt.Errorf("write key file: %w", err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	// A new file is 0600; a rewrite keeps the mode and owner of the file
	// it replaces, so that a server running as another user (reading
	// through its group, say) can still read it.
	mode := fs.FileMode(0o600)
	if old, serr := os.Stat(path); serr == nil {
		mode = old.Mode().Perm()
		if err := keepOwner(tmp, old); err != nil {
			return fmt.Errorf("write key file: %w", err)
		}
	}
	if err := tmp.Chmod(mode); err != nil {
		return fmt.Errorf("write key file: %w", err)
	}
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("write key file: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("write key file: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write key file: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write key file: %w", err)
	}
	if err := syncDir(dir); err != nil {
		return fmt.Errorf("write key file: sync directory: %w", err)
	}
	return nil
}

// ReadFile reads and checks the key file at path, for importing it into
// another store. A missing file holds no keys.
func ReadFile(path string) ([]Record, error) { return readFile(path) }
