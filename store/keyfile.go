package store

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/unitd/unitd/apikey"
)

// keyFileVersion is the only version of the JSON key file that earlier
// unitd versions wrote.
const keyFileVersion = 1

// keyFile is the layout of that file.
type keyFile struct {
	Version int             `json:"version"`
	Keys    []keyFileRecord `json:"keys"`
}

type keyFileRecord struct {
	ID        string     `json:"id"`
	Name      string     `json:"name"`
	Env       string     `json:"env"`
	Prefix    string     `json:"prefix"`
	CreatedAt time.Time  `json:"created_at"`
	RevokedAt *time.Time `json:"revoked_at,omitempty"`
	ExpiresAt *time.Time `json:"expires_at,omitempty"`
	Hash      string     `json:"hash"`
}

// ReadKeyFile reads and checks the JSON key file of earlier unitd versions
// at path, for its one-time import with [DB.ImportKeys]. A missing file
// holds no keys. The file is never written: after the import the store is
// authoritative.
func ReadKeyFile(path string) ([]apikey.Record, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read key file: %w", err)
	}
	recs, err := decodeKeyFile(data)
	if err != nil {
		return nil, fmt.Errorf("key file %s: %w", path, err)
	}
	return recs, nil
}

// decodeKeyFile parses a key file strictly and checks every record, so that
// a hand-edited or truncated file is refused instead of half understood.
func decodeKeyFile(data []byte) ([]apikey.Record, error) {
	var f keyFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("parse: %w", err)
	}
	if dec.More() {
		return nil, errors.New("parse: data after the JSON object")
	}
	if f.Version != keyFileVersion {
		return nil, fmt.Errorf("unsupported version %d (want %d)", f.Version, keyFileVersion)
	}
	ids := make(map[string]bool, len(f.Keys))
	hashes := make(map[string]bool, len(f.Keys))
	recs := make([]apikey.Record, 0, len(f.Keys))
	for i, r := range f.Keys {
		if err := checkKeyFileRecord(r); err != nil {
			return nil, fmt.Errorf("key %d (%q): %w", i, r.ID, err)
		}
		if ids[r.ID] {
			return nil, fmt.Errorf("key %d: duplicate id %q", i, r.ID)
		}
		if hashes[r.Hash] {
			return nil, fmt.Errorf("key %d (%q): duplicate hash", i, r.ID)
		}
		ids[r.ID], hashes[r.Hash] = true, true
		recs = append(recs, apikey.Record{ID: r.ID, Name: r.Name, Env: r.Env, Prefix: r.Prefix, CreatedAt: r.CreatedAt,
			RevokedAt: r.RevokedAt, ExpiresAt: r.ExpiresAt, Hash: r.Hash})
	}
	return recs, nil
}

func checkKeyFileRecord(r keyFileRecord) error {
	switch {
	case r.ID == "":
		return errors.New("empty id")
	case !apikey.ValidEnv(r.Env):
		return fmt.Errorf("env %q is not %q or %q", r.Env, apikey.EnvLive, apikey.EnvTest)
	case r.CreatedAt.IsZero():
		return errors.New("no created_at")
	}
	// Never echo the hash: it is not secret like the key, but it is the
	// stored credential and has no business in logs.
	if _, err := hex.DecodeString(r.Hash); err != nil || len(r.Hash) != apikey.HashHexLen {
		return fmt.Errorf("hash is not %d hex digits", apikey.HashHexLen)
	}
	return nil
}
