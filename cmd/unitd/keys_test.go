package main

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/unitd/unitd/account"
	"github.com/unitd/unitd/apikey"
	"github.com/unitd/unitd/store"
)

var keyPattern = regexp.MustCompile(`^uc_(live|test)_[A-Za-z0-9_-]{43}\n$`)

// runKeysT runs `unitd keys args…` and returns its exit code and output.
func runKeysT(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(append([]string{"keys"}, args...), strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

// createKey runs `keys create` and returns the printed key.
func createKey(t *testing.T, path, name string, extra ...string) string {
	t.Helper()
	code, out, errOut := runKeysT(t, append([]string{"create", "--keys", path, "--name", name}, extra...)...)
	if code != 0 {
		t.Fatalf("create: exit %d: %s", code, errOut)
	}
	if !keyPattern.MatchString(out) {
		t.Fatalf("create printed %q, want the key alone on a line", out)
	}
	return strings.TrimSuffix(out, "\n")
}

// openTestStore opens the store that `--keys path` names.
func openTestStore(t *testing.T, path string) *store.DB {
	t.Helper()
	db, err := storeFlags{keys: path}.open(context.Background(), slog.New(slog.DiscardHandler), true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// listKeys returns every key in the store that `--keys path` names,
// oldest first.
func listKeys(t *testing.T, path string) ([]account.Key, error) {
	t.Helper()
	db := openTestStore(t, path)
	accts, err := db.Accounts(context.Background())
	if err != nil {
		return nil, err
	}
	var all []account.Key
	for _, a := range accts {
		ks, err := db.Keys(context.Background(), a.ID)
		if err != nil {
			return nil, err
		}
		all = append(all, ks...)
	}
	slices.SortStableFunc(all, func(a, b account.Key) int { return a.CreatedAt.Compare(b.CreatedAt) })
	return all, nil
}

// authenticate checks key against the store the way the server does.
func authenticate(t *testing.T, path, key, env string) error {
	t.Helper()
	recs, err := openTestStore(t, path).AuthRecords(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	_, err = apikey.NewSet(recs).Authenticate(key, env, time.Now())
	return err
}

func TestKeysCreate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys.json")
	key := createKey(t, path, "ci")
	if !strings.HasPrefix(key, "uc_test_") {
		t.Errorf("default environment: key %q is not a test key", key)
	}
	if err := authenticate(t, path, key, apikey.EnvTest); err != nil {
		t.Errorf("created key does not authenticate: %v", err)
	}
	live := createKey(t, path, "billing", "--env", "live")
	if err := authenticate(t, path, live, apikey.EnvLive); err != nil {
		t.Errorf("live key: %v", err)
	}

	// --keys from the environment.
	t.Setenv("UNITD_KEYS", path)
	code, out, errOut := runKeysT(t, "create", "--name", "from-env")
	if code != 0 || !keyPattern.MatchString(out) {
		t.Fatalf("create with UNITD_KEYS: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if !strings.Contains(errOut, "shown only this once") {
		t.Errorf("stderr lacks the show-once warning: %q", errOut)
	}
}

func TestKeysUsageErrors(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys.json")
	t.Setenv("UNITD_KEYS", "")
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"no command", nil, "usage: unitd keys"},
		{"unknown command", []string{"delete"}, `unknown command "delete"`},
		{"create without name", []string{"create", "--keys", path}, "--name is required"},
		{"create bad env", []string{"create", "--keys", path, "--name", "x", "--env", "prod"}, "test or live"},
		{"create unknown flag", []string{"create", "--keys", path, "--name", "x", "--nope"}, "not defined: -nope"},
		{"create extra argument", []string{"create", "--keys", path, "--name", "x", "extra"}, `unexpected argument "extra"`},
		{"list bad format", []string{"list", "--keys", path, "--format", "yaml"}, "text or json"},
		{"revoke without id", []string{"revoke", "--keys", path}, "missing key ID"},
		{"revoke two ids", []string{"revoke", "--keys", path, "a", "b"}, `unexpected argument "b"`},
		{"rotate without id", []string{"rotate", "--keys", path}, "missing key ID"},
		{"rotate negative grace", []string{"rotate", "--keys", path, "key_x", "--grace", "-1h"}, "negative"},
		{"rotate bad grace", []string{"rotate", "--keys", path, "key_x", "--grace", "soon"}, "invalid value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runKeysT(t, tt.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
			if !strings.Contains(errOut, tt.wantErr) {
				t.Errorf("stderr %q does not contain %q", errOut, tt.wantErr)
			}
		})
	}
	for _, p := range []string{path, strings.TrimSuffix(path, ".json") + ".db"} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("a usage error wrote %s", p)
		}
	}
}

func TestKeysHelp(t *testing.T) {
	if code, out, _ := runKeysT(t, "help"); code != 0 || !strings.Contains(out, "rotate") {
		t.Errorf("help: exit %d, stdout %q", code, out)
	}
	if code, _, errOut := runKeysT(t, "create", "-h"); code != 0 || !strings.Contains(errOut, "-name") {
		t.Errorf("create -h: exit %d, stderr %q", code, errOut)
	}
}

func TestKeysList(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys.json")

	// Nothing there yet: an error, not an empty store made on the spot.
	code, out, errOut := runKeysT(t, "list", "--keys", path)
	if code != 1 || out != "" || !strings.Contains(errOut, "does not exist") {
		t.Errorf("list of a store not there: exit %d, stdout %q, stderr %q", code, out, errOut)
	}

	key1 := createKey(t, path, "ci pipeline")
	key2 := createKey(t, path, "billing", "--env", "live")
	recs, err := listKeys(t, path)
	if err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runKeysT(t, "revoke", "--keys", path, recs[1].ID); code != 0 {
		t.Fatalf("revoke: exit %d: %s", code, errOut)
	}

	code, out, errOut = runKeysT(t, "list", "--keys", path)
	if code != 0 {
		t.Fatalf("list: exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "ID ") {
		t.Fatalf("list output:\n%s", out)
	}
	for i, want := range [][]string{
		{recs[0].ID, "ci pipeline", "test", recs[0].Prefix, "active"},
		{recs[1].ID, "billing", "live", recs[1].Prefix, "revoked"},
	} {
		for _, w := range want {
			if !strings.Contains(lines[i+1], w) {
				t.Errorf("line %q lacks %q", lines[i+1], w)
			}
		}
	}

	code, jsonOut, errOut := runKeysT(t, "list", "--keys", path, "--format", "json")
	if code != 0 {
		t.Fatalf("list json: exit %d: %s", code, errOut)
	}
	var items []map[string]any
	if err := json.Unmarshal([]byte(jsonOut), &items); err != nil {
		t.Fatalf("list json: %v\n%s", err, jsonOut)
	}
	if len(items) != 2 || items[0]["id"] != recs[0].ID || items[1]["status"] != "revoked" || items[1]["revoked_at"] == nil {
		t.Errorf("list json: %s", jsonOut)
	}
	if _, ok := items[0]["hash"]; ok {
		t.Error("list json shows the hash")
	}

	for _, o := range []string{out, jsonOut} {
		for _, secret := range []string{key1[8:], key2[8:], recs[0].Hash, recs[1].Hash} {
			if strings.Contains(o, secret) {
				t.Errorf("list shows a key or hash:\n%s", o)
			}
		}
	}
}

func TestKeysRevoke(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys.json")
	key := createKey(t, path, "ci")
	recs, err := listKeys(t, path)
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runKeysT(t, "revoke", "--keys", path, "key_nosuchkey")
	if code != 1 || out != "" || !strings.Contains(errOut, "no such key") {
		t.Errorf("revoke unknown: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	// Flags may follow the id.
	code, out, errOut = runKeysT(t, "revoke", recs[0].ID, "--keys", path)
	if code != 0 || out != "" {
		t.Fatalf("revoke: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if err := authenticate(t, path, key, apikey.EnvTest); err == nil {
		t.Error("revoked key still authenticates")
	}
}

func TestKeysRotate(t *testing.T) {
	tests := []struct {
		name       string
		flags      []string
		oldValid   bool
		wantStderr string
	}{
		{"default grace", nil, true, "keys revoke --keys"},
		{"custom grace", []string{"--grace", "1h"}, true, "stays valid until"},
		{"no grace", []string{"--grace", "0"}, false, "revoked now"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "keys.json")
			oldKey := createKey(t, path, "billing", "--env", "live")
			recs, err := listKeys(t, path)
			if err != nil {
				t.Fatal(err)
			}
			oldID := recs[0].ID

			args := append([]string{"rotate", "--keys", path, oldID}, tt.flags...)
			code, out, errOut := runKeysT(t, args...)
			if code != 0 {
				t.Fatalf("rotate: exit %d: %s", code, errOut)
			}
			if !keyPattern.MatchString(out) || !strings.HasPrefix(out, "uc_live_") {
				t.Fatalf("rotate printed %q, want the new live key alone", out)
			}
			if !strings.Contains(errOut, oldID) || !strings.Contains(errOut, tt.wantStderr) {
				t.Errorf("stderr %q lacks %q or the old id", errOut, tt.wantStderr)
			}
			newKey := strings.TrimSuffix(out, "\n")
			if err := authenticate(t, path, newKey, apikey.EnvLive); err != nil {
				t.Errorf("new key: %v", err)
			}
			if err := authenticate(t, path, oldKey, apikey.EnvLive); (err == nil) != tt.oldValid {
				t.Errorf("old key: err = %v, want valid=%v", err, tt.oldValid)
			}
		})
	}

	path := filepath.Join(t.TempDir(), "keys.json")
	if code, out, errOut := runKeysT(t, "rotate", "--keys", path, "key_nosuchkey"); code != 1 || out != "" {
		t.Errorf("rotate unknown: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

func TestKeysBrokenFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys.json")
	if err := os.WriteFile(path, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"list", "--keys", path},
		{"create", "--keys", path, "--name", "x"},
	} {
		code, out, errOut := runKeysT(t, args...)
		if code != 1 || out != "" || !strings.Contains(errOut, path) {
			t.Errorf("%v on a broken file: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
	if data, _ := os.ReadFile(path); string(data) != "{" {
		t.Error("a failed create changed the broken file")
	}
}

// TestKeysOnMissingStore: listing, revoking or rotating in a store that
// does not exist is an error that names it, and leaves no empty store
// behind; so is naming a JSON key file that does not exist. Creating a key
// makes the store.
func TestKeysOnMissingStore(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "nonesuch.db")
	for _, args := range [][]string{
		{"keys", "list", "--store", db},
		{"keys", "revoke", "--store", db, "key_aaaaaaaaaaaaaaaa"},
		{"keys", "rotate", "--store", db, "key_aaaaaaaaaaaaaaaa"},
		{"keys", "list", "--keys", filepath.Join(dir, "nonesuch.json")},
		{"accounts", "list", "--store", db},
	} {
		code, _, stderr := runCLI(t, "", args...)
		if code != 1 || !strings.Contains(stderr, "does not exist") {
			t.Errorf("%v: exit %d, stderr %q; want 1 and a message that the store does not exist", args, code, stderr)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Fatalf("%v left %d files behind", args, len(entries))
		}
	}
	if code, _, stderr := runCLI(t, "", "keys", "create", "--store", db, "--name", "first"); code != 0 {
		t.Fatalf("create: exit %d: %s", code, stderr)
	}
	if code, out, stderr := runCLI(t, "", "keys", "list", "--store", db); code != 0 || !strings.Contains(out, "first") {
		t.Errorf("list after create: exit %d, %s%s", code, out, stderr)
	}
}

// TestKeysKeepTheStoreFile: changing keys writes into the SQLite file in
// place, so its mode (and owner) stay what the operator set for the
// server, and no journal file is left behind for the server to trip on.
func TestKeysKeepTheStoreFile(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "unitd.db")
	if code, _, stderr := runCLI(t, "", "keys", "create", "--store", db, "--name", "first", "--wait", "0"); code != 0 {
		t.Fatal(stderr)
	}
	if err := os.Chmod(db, 0o640); err != nil {
		t.Fatal(err)
	}
	before, err := os.Stat(db)
	if err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "", "keys", "create", "--store", db, "--name", "second", "--wait", "0"); code != 0 {
		t.Fatal(stderr)
	}
	after, err := os.Stat(db)
	if err != nil {
		t.Fatal(err)
	}
	if after.Mode() != before.Mode() || !os.SameFile(before, after) {
		t.Errorf("the store file was replaced or its mode changed: %v → %v", before.Mode(), after.Mode())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files beside the store after the CLI closed it: %d, want only the store", len(entries))
	}
}

// TestKeysCreateSaysWhichAccount: without --account a key goes to the
// account "default", and the command says so, and that it created that
// account the first time; a named account is not commented on.
func TestKeysCreateSaysWhichAccount(t *testing.T) {
	db := filepath.Join(t.TempDir(), "unitd.db")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--name", "first"}, `No --account given: created the account "default" for this key`},
		{[]string{"--name", "second"}, `No --account given: the key belongs to the account "default"`},
		{[]string{"--name", "third", "--account", "default"}, ""},
	} {
		args := append([]string{"keys", "create", "--store", db, "--wait", "0"}, tt.args...)
		code, stdout, stderr := runCLI(t, "", args...)
		if code != 0 || !strings.HasPrefix(stdout, "uc_test_") {
			t.Fatalf("%v: exit %d\n%s%s", tt.args, code, stdout, stderr)
		}
		if tt.want != "" && !strings.Contains(stderr, tt.want) {
			t.Errorf("%v: stderr lacks %q:\n%s", tt.args, tt.want, stderr)
		}
		if tt.want == "" && strings.Contains(stderr, "--account") {
			t.Errorf("%v: the account was named, yet:\n%s", tt.args, stderr)
		}
		if !strings.Contains(stderr, `for account "default"`) {
			t.Errorf("%v: stderr does not name the account:\n%s", tt.args, stderr)
		}
	}
	code, stdout, stderr := runCLI(t, "", "accounts", "list", "--store", db)
	if code != 0 || strings.Count(stdout, "default") != 1 {
		t.Errorf("accounts list: exit %d, want the one account default:\n%s%s", code, stdout, stderr)
	}
}
