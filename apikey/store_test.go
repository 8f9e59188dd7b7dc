package apikey

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeClock is a settable clock for Store.Now.
type fakeClock struct {
	mu sync.Mutex // guards t
	t  time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func TestStoreRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys.json")
	clock := newFakeClock()
	s := &Store{Path: path, Now: clock.Now}

	recs, err := s.List()
	if err != nil || len(recs) != 0 {
		t.Fatalf("List on missing file = %v, %v; want empty, nil", recs, err)
	}

	key1, rec1, err := s.Create("ci", EnvTest)
	if err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Minute)
	key2, rec2, err := s.Create("billing", EnvLive)
	if err != nil {
		t.Fatal(err)
	}

	if !strings.HasPrefix(key1, rec1.Prefix) || len(rec1.Prefix) != 12 || !strings.HasPrefix(rec1.Prefix, "uc_test_") {
		t.Errorf("prefix %q does not fit key", rec1.Prefix)
	}
	if !strings.HasPrefix(rec1.ID, "key_") || rec1.ID == rec2.ID {
		t.Errorf("ids %q, %q", rec1.ID, rec2.ID)
	}

	recs, err = (&Store{Path: path}).List()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 {
		t.Fatalf("List returned %d records, want 2", len(recs))
	}
	if got := recs[0]; got.ID != rec1.ID || got.Name != "ci" || got.Env != EnvTest ||
		!got.CreatedAt.Equal(clock.Now().Add(-time.Minute)) || got.Hash != rec1.Hash {
		t.Errorf("record 0 = %+v, want %+v", got, rec1)
	}
	if got := recs[1]; got.ID != rec2.ID || got.Env != EnvLive {
		t.Errorf("record 1 = %+v", got)
	}

	set := NewSet(recs)
	if _, err := set.Authenticate(key1, EnvTest, clock.Now()); err != nil {
		t.Errorf("key 1: %v", err)
	}
	if _, err := set.Authenticate(key2, EnvLive, clock.Now()); err != nil {
		t.Errorf("key 2: %v", err)
	}

	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{key1, key2} {
		if strings.Contains(string(data), key[len("uc_test_"):]) {
			t.Error("the key file contains a key")
		}
	}
	for _, p := range []string{path, path + ".lock"} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if mode := fi.Mode().Perm(); mode != 0o600 {
			t.Errorf("%s has mode %v, want 0600", filepath.Base(p), mode)
		}
	}
	// No temporary files are left behind.
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("directory holds %v, want keys.json and keys.json.lock", names)
	}
}

func TestStoreCreateValidates(t *testing.T) {
	s := &Store{Path: filepath.Join(t.TempDir(), "keys.json")}
	for _, tt := range []struct{ name, env string }{
		{"", EnvTest}, {"x\ny", EnvTest}, {"ok", "prod"}, {"ok", ""},
	} {
		if _, _, err := s.Create(tt.name, tt.env); err == nil {
			t.Errorf("Create(%q, %q) succeeded", tt.name, tt.env)
		}
	}
	if _, _, err := (&Store{}).Create("x", EnvTest); err == nil {
		t.Error("Create without a path succeeded")
	}
}

func TestStoreConcurrentCreate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys.json")
	const n = 50
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			// Each goroutine has its own Store, as separate CLI runs would.
			s := &Store{Path: path}
			if _, _, err := s.Create(fmt.Sprintf("k%d", i), EnvTest); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	checkNames(t, path, n)
}

// TestStoreConcurrentProcesses runs Create from several processes at once.
func TestStoreConcurrentProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "keys.json")
	const procs, each = 5, 10
	var wg sync.WaitGroup
	for p := range procs {
		wg.Go(func() {
			cmd := exec.Command(exe, "-test.run=^TestHelperCreate$")
			cmd.Env = append(os.Environ(),
				"UNITD_KEYS_HELPER_PATH="+path,
				"UNITD_KEYS_HELPER_FROM="+strconv.Itoa(p*each),
				"UNITD_KEYS_HELPER_COUNT="+strconv.Itoa(each))
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("helper process: %v\n%s", err, out)
			}
		})
	}
	wg.Wait()
	checkNames(t, path, procs*each)
}

// TestHelperCreate is the body of TestStoreConcurrentProcesses' children.
func TestHelperCreate(t *testing.T) {
	path := os.Getenv("UNITD_KEYS_HELPER_PATH")
	if path == "" {
		t.Skip("helper for TestStoreConcurrentProcesses")
	}
	from, _ := strconv.Atoi(os.Getenv("UNITD_KEYS_HELPER_FROM"))
	count, _ := strconv.Atoi(os.Getenv("UNITD_KEYS_HELPER_COUNT"))
	for i := from; i < from+count; i++ {
		if _, _, err := (&Store{Path: path}).Create(fmt.Sprintf("k%d", i), EnvTest); err != nil {
			t.Fatal(err)
		}
	}
}

// checkNames checks that the store holds keys named k0…k(n-1), once each.
func checkNames(t *testing.T, path string, n int) {
	t.Helper()
	recs, err := (&Store{Path: path}).List()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != n {
		t.Fatalf("store holds %d keys, want %d", len(recs), n)
	}
	names := map[string]bool{}
	for _, r := range recs {
		names[r.Name] = true
	}
	for i := range n {
		if !names[fmt.Sprintf("k%d", i)] {
			t.Errorf("key k%d was lost", i)
		}
	}
}

func TestStoreRevoke(t *testing.T) {
	clock := newFakeClock()
	s := &Store{Path: filepath.Join(t.TempDir(), "keys.json"), Now: clock.Now}
	key, rec, err := s.Create("ci", EnvTest)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Revoke("key_nosuchkey"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Revoke(unknown) = %v, want ErrNotFound", err)
	}
	revokedAt := clock.Now()
	if err := s.Revoke(rec.ID); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Hour)
	if err := s.Revoke(rec.ID); err != nil {
		t.Fatalf("second Revoke: %v", err)
	}
	recs, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	if got := recs[0].RevokedAt; got == nil || !got.Equal(revokedAt) {
		t.Errorf("RevokedAt = %v, want %v (the first revocation)", got, revokedAt)
	}
	if _, err := NewSet(recs).Authenticate(key, EnvTest, clock.Now()); !errors.Is(err, ErrUnknown) {
		t.Errorf("revoked key: err = %v, want ErrUnknown", err)
	}
}

func TestStoreRotate(t *testing.T) {
	tests := []struct {
		name  string
		grace time.Duration
	}{
		{"with grace", 24 * time.Hour},
		{"without grace", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := newFakeClock()
			s := &Store{Path: filepath.Join(t.TempDir(), "keys.json"), Now: clock.Now}
			oldKey, oldRec, err := s.Create("billing", EnvLive)
			if err != nil {
				t.Fatal(err)
			}
			clock.Advance(time.Minute)
			rotatedAt := clock.Now()
			newKey, newRec, err := s.Rotate(oldRec.ID, tt.grace)
			if err != nil {
				t.Fatal(err)
			}
			if newRec.Name != "billing" || newRec.Env != EnvLive || newRec.ID == oldRec.ID || newKey == oldKey {
				t.Errorf("successor %+v does not fit %+v", newRec, oldRec)
			}
			recs, err := s.List()
			if err != nil {
				t.Fatal(err)
			}
			set := NewSet(recs)
			auth := func(key string, at time.Time) error {
				_, err := set.Authenticate(key, EnvLive, at)
				return err
			}
			if err := auth(newKey, rotatedAt); err != nil {
				t.Errorf("new key: %v", err)
			}
			if tt.grace > 0 {
				if err := auth(oldKey, rotatedAt.Add(tt.grace-time.Second)); err != nil {
					t.Errorf("old key during grace: %v", err)
				}
				if err := auth(oldKey, rotatedAt.Add(tt.grace)); !errors.Is(err, ErrUnknown) {
					t.Errorf("old key after grace: err = %v, want ErrUnknown", err)
				}
				if err := auth(newKey, rotatedAt.Add(tt.grace)); err != nil {
					t.Errorf("new key after grace: %v", err)
				}
			} else if err := auth(oldKey, rotatedAt); !errors.Is(err, ErrUnknown) {
				t.Errorf("old key: err = %v, want ErrUnknown", err)
			}

			// A revoked or expired key cannot be rotated again.
			clock.Advance(tt.grace)
			if _, _, err := s.Rotate(oldRec.ID, tt.grace); err == nil {
				t.Error("rotating the old key again succeeded")
			}
			if _, _, err := s.Rotate("key_nosuchkey", 0); !errors.Is(err, ErrNotFound) {
				t.Errorf("Rotate(unknown) = %v, want ErrNotFound", err)
			}
		})
	}
}

func TestStoreRotateKeepsEarlierExpiry(t *testing.T) {
	clock := newFakeClock()
	s := &Store{Path: filepath.Join(t.TempDir(), "keys.json"), Now: clock.Now}
	_, rec, err := s.Create("a", EnvTest)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Rotate(rec.ID, time.Hour); err != nil {
		t.Fatal(err)
	}
	// Rotating the old key again, still in its grace, must not extend it.
	if _, _, err := s.Rotate(rec.ID, 48*time.Hour); err != nil {
		t.Fatal(err)
	}
	recs, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := *recs[0].ExpiresAt, clock.Now().Add(time.Hour); !got.Equal(want) {
		t.Errorf("ExpiresAt = %v, want %v", got, want)
	}
}

func TestStoreRenewDevKey(t *testing.T) {
	clock := newFakeClock()
	s := &Store{Path: filepath.Join(t.TempDir(), "keys.json"), Now: clock.Now}
	otherKey, _, err := s.Create("other", EnvTest)
	if err != nil {
		t.Fatal(err)
	}
	first, _, err := s.RenewDevKey()
	if err != nil {
		t.Fatal(err)
	}
	second, rec, err := s.RenewDevKey()
	if err != nil {
		t.Fatal(err)
	}
	if rec.Name != DevKeyName || rec.Env != EnvTest {
		t.Errorf("dev key record %+v", rec)
	}
	recs, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	set := NewSet(recs)
	for _, tt := range []struct {
		key  string
		want error
	}{{first, ErrUnknown}, {second, nil}, {otherKey, nil}} {
		if _, err := set.Authenticate(tt.key, EnvTest, clock.Now()); !errors.Is(err, tt.want) {
			t.Errorf("err = %v, want %v", err, tt.want)
		}
	}
}

func TestDecodeRejects(t *testing.T) {
	const hash = "8f434346648f6b96df89dda901c5176b10a6d83961dd3c1ac88b59b2dc327aa4"
	obj := func(id, hash string) string {
		return `{"id":"` + id + `","name":"a","env":"test","prefix":"uc_test_AAAA",` +
			`"created_at":"2026-01-01T00:00:00Z","hash":"` + hash + `"`
	}
	file := func(objs ...string) string {
		return `{"version":1,"keys":[` + strings.Join(objs, ",") + `]}`
	}
	rec := func(fields string) string { return file(obj("key_a", hash) + fields + `}`) }
	if _, err := decode([]byte(rec(""))); err != nil {
		t.Fatalf("good file: %v", err)
	}
	tests := []struct {
		name, data, want string
	}{
		{"empty", ``, "parse"},
		{"truncated", rec("")[:40], "parse"},
		{"not an object", `[]`, "parse"},
		{"trailing data", rec("") + `{}`, "after"},
		{"unknown field", rec(`,"secret":"x"`), "unknown field"},
		{"no version", `{"keys":[]}`, "version"},
		{"future version", `{"version":2,"keys":[]}`, "version"},
		{"bad env", strings.Replace(rec(""), `"env":"test"`, `"env":"prod"`, 1), "env"},
		{"no id", strings.Replace(rec(""), `"id":"key_a"`, `"id":""`, 1), "id"},
		{"no created_at", strings.Replace(rec(""), `"created_at":"2026-01-01T00:00:00Z",`, ``, 1), "created_at"},
		{"short hash", strings.Replace(rec(""), hash, hash[:63], 1), "hex"},
		{"bad hash", strings.Replace(rec(""), hash, "zz"+hash[2:], 1), "hex"},
		{"duplicate id", file(obj("key_a", hash)+"}", obj("key_a", strings.Repeat("0", 64))+"}"), "duplicate id"},
		{"duplicate hash", file(obj("key_a", hash)+"}", obj("key_b", hash)+"}"), "duplicate hash"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := decode([]byte(tt.data))
			if err == nil {
				t.Fatal("accepted")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not mention %q", err, tt.want)
			}
			if strings.Contains(err.Error(), hash[:16]) {
				t.Errorf("error %q shows the hash", err)
			}
		})
	}
}
