package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/unitd/unitd/account"
	"github.com/unitd/unitd/apikey"
	"github.com/unitd/unitd/internal/pgtest"
	"github.com/unitd/unitd/server/ratelimit"
	"github.com/unitd/unitd/store"
)

func (d *testDaemon) status(t *testing.T, key string) int {
	t.Helper()
	req, _ := http.NewRequest("GET", d.url+"/v1/convert?value=1&from=m&to=ft", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := d.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// TestKeyChangesConfirmedByTheServer: unitd keys waits until the running
// server reports it has the change, so the very next request sees it.
func TestKeyChangesConfirmedByTheServer(t *testing.T) {
	d := startDaemon(t)
	path := filepath.Join(filepath.Dir(d.dir), "keys.json")
	code, out, stderr := runCLI(t, "", "keys", "create", "--keys", path, "--name", "late")
	if code != 0 || !strings.Contains(stderr, "In effect on 1 running server") {
		t.Fatalf("create: exit %d: %s", code, stderr)
	}
	key := strings.TrimSpace(out)
	if got := d.status(t, key); got != 200 {
		t.Errorf("a key the server confirmed: %d, want 200", got)
	}
	recs, err := listKeys(t, path)
	if err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runCLI(t, "", "keys", "revoke", "--keys", path, recs[len(recs)-1].ID)
	if code != 0 || !strings.Contains(stderr, "In effect on 1 running server") {
		t.Fatalf("revoke: exit %d: %s", code, stderr)
	}
	if got := d.status(t, key); got != 401 {
		t.Errorf("a revocation the server confirmed: %d, want 401", got)
	}
}

// TestKeyChangeNotTakenUp: a server that reads the store but cannot load
// the change (here: one that reported and then stopped refreshing, as a
// server that lost access to the store does) makes unitd keys fail and
// name it; with no server reading the store it says so and succeeds.
func TestKeyChangeNotTakenUp(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys.json")
	code, _, stderr := runCLI(t, "", "keys", "create", "--keys", path, "--name", "first")
	if code != 0 || !strings.Contains(stderr, "No server has read this store") {
		t.Fatalf("create with no server: exit %d: %s", code, stderr)
	}
	db := openTestStore(t, path)
	v, err := db.KeyVersion(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	stuck := account.KeyReader{Instance: "srv_stuck", Description: "stuck-host pid 7", Version: v, SeenAt: time.Now()}
	if err := db.ReportKeyVersion(context.Background(), stuck); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runCLI(t, "", "keys", "create", "--keys", path, "--name", "second", "--wait", "300ms")
	if code != 1 || !strings.Contains(stderr, "Not in effect on stuck-host pid 7") || !strings.Contains(stderr, "did not take it up") {
		t.Errorf("create with a server that does not take it up: exit %d: %s", code, stderr)
	}
	if recs, err := listKeys(t, path); err != nil || len(recs) != 2 {
		t.Errorf("the key is stored all the same: %d keys, %v", len(recs), err)
	}
	if code, _, stderr := runCLI(t, "", "keys", "create", "--keys", path, "--name", "third", "--wait", "0"); code != 0 || strings.Contains(stderr, "effect") {
		t.Errorf("--wait 0: exit %d: %s", code, stderr)
	}
}

// TestReplicasShareKeys runs two servers on one PostgreSQL store: a change
// made through the store reaches both, as unitd keys confirms.
func TestReplicasShareKeys(t *testing.T) {
	pg := pgtest.NewDatabase(t)
	a := startDaemonWith(t, func(c *serveConfig) { c.Store = pg })
	b := startDaemonWith(t, func(c *serveConfig) { c.Store = pg })
	if a.d.db.Engine() != "postgres" || b.d.db.Engine() != "postgres" {
		t.Fatalf("replicas run on %s and %s, want postgres", a.d.db.Engine(), b.d.db.Engine())
	}
	// a's key and b's were created in the store before each started: once
	// both serve the store's latest key version, both accept both keys.
	if err := confirmTakenUp(context.Background(), a.d.db, io.Discard, time.Minute); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{a.key, b.key} {
		if a.status(t, key) != 200 || b.status(t, key) != 200 {
			t.Errorf("an imported key is not accepted by both replicas")
		}
	}
	code, out, stderr := runCLI(t, "", "keys", "create", "--store", pg, "--name", "shared")
	if code != 0 || !strings.Contains(stderr, "In effect on 2 running servers") {
		t.Fatalf("create: exit %d: %s", code, stderr)
	}
	key := strings.TrimSpace(out)
	if a.status(t, key) != 200 || b.status(t, key) != 200 {
		t.Errorf("the new key is not accepted by both replicas")
	}
	_, listOut, _ := runCLI(t, "", "keys", "list", "--store", pg, "--format", "json")
	var items []listItem
	if err := json.Unmarshal([]byte(listOut), &items); err != nil || len(items) != 3 {
		t.Fatalf("keys list: %v\n%s", err, listOut)
	}
	code, _, stderr = runCLI(t, "", "keys", "revoke", "--store", pg, items[2].ID)
	if code != 0 || !strings.Contains(stderr, "In effect on 2 running servers") {
		t.Fatalf("revoke: exit %d: %s", code, stderr)
	}
	if a.status(t, key) != 401 || b.status(t, key) != 401 {
		t.Errorf("the revoked key is not refused by both replicas")
	}
}

func TestUsageSurvivesShutdown(t *testing.T) {
	d := startDaemon(t)
	const n = 37
	for range n {
		if code := d.status(t, d.key); code != 200 {
			t.Fatalf("status %d", code)
		}
	}
	d.stop() // well within the 5 s flush interval: only the final flush writes
	db := openTestStore(t, filepath.Join(filepath.Dir(d.dir), "keys.json"))
	acct, err := db.AccountByName(context.Background(), account.OperatorAccountName)
	if err != nil {
		t.Fatal(err)
	}
	sums, err := db.RequestsSince(context.Background(), acct.ID, time.Now().Add(-time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	var total int64
	for _, v := range sums {
		total += v
	}
	if total != n {
		t.Errorf("usage after shutdown = %d, want %d", total, n)
	}
}

// TestJSONKeyFileImportedOnce starts on a key file of earlier versions
// (the store package's fixture): the first start imports every key, with
// its state, into the store beside it; the second imports nothing.
func TestJSONKeyFileImportedOnce(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "keys.json")
	data, err := os.ReadFile(filepath.Join("..", "..", "store", "testdata", "keys-v1.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	want, err := store.ReadKeyFile(path)
	if err != nil || len(want) != 4 {
		t.Fatalf("fixture: %d keys, %v", len(want), err)
	}
	var log bytes.Buffer
	open := func() {
		log.Reset()
		db, err := storeFlags{keys: path}.open(context.Background(), slog.New(slog.NewTextHandler(&log, nil)), true)
		if err != nil {
			t.Fatal(err)
		}
		db.Close()
	}
	open()
	if !strings.Contains(log.String(), "imported API keys") || !strings.Contains(log.String(), "imported=4") {
		t.Errorf("first start did not log the import:\n%s", log.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "keys.db")); err != nil {
		t.Errorf("store beside the key file: %v", err)
	}
	open()
	if strings.Contains(log.String(), "imported") {
		t.Errorf("second start imported again:\n%s", log.String())
	}
	ks, err := listKeys(t, path)
	if err != nil || len(ks) != len(want) {
		t.Fatalf("%d keys in the store, %v; want %d", len(ks), err, len(want))
	}
	for i, k := range ks {
		w := want[i]
		if k.ID != w.ID || k.Hash != w.Hash || k.Env != w.Env || (k.RevokedAt == nil) != (w.RevokedAt == nil) || (k.ExpiresAt == nil) != (w.ExpiresAt == nil) {
			t.Errorf("key %d in the store = %+v, want %+v", i, k.Record, w)
		}
	}
}

func TestAccountsAndUsersCommands(t *testing.T) {
	st := filepath.Join(t.TempDir(), "unitd.db")
	if code, out, stderr := runCLI(t, "", "accounts", "create", "--store", st, "Acme Corp"); code != 0 || !strings.HasPrefix(out, "acct_") {
		t.Fatalf("accounts create: %d %q %s", code, out, stderr)
	}
	if code, _, stderr := runCLI(t, "", "accounts", "create", "--store", st, "Acme Corp"); code != 1 || !strings.Contains(stderr, "already exists") {
		t.Errorf("duplicate account: %d %s", code, stderr)
	}
	code, out, stderr := runCLI(t, "", "users", "create", "--store", st, "--account", "Acme Corp", "--url", "https://unitd.example", "Ada@Example.com")
	link := regexp.MustCompile(`^https://unitd\.example/account/setup\?token=([A-Za-z0-9_-]{43})\n$`).FindStringSubmatch(out)
	if code != 0 || link == nil {
		t.Fatalf("users create: %d %q %s", code, out, stderr)
	}
	for _, tt := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"users", "create", "--store", st, "x@example.com"}, 2, "--account is required"},
		{[]string{"users", "create", "--store", st, "--account", "Nobody", "x@example.com"}, 1, "not found"},
		{[]string{"users", "create", "--store", st, "--account", "Acme Corp", "not-an-address"}, 1, "not an e-mail address"},
		{[]string{"users", "disable", "--store", st, "nobody@example.com"}, 1, "not found"},
		{[]string{"accounts", "frobnicate"}, 2, "unknown command"},
	} {
		if code, _, stderr := runCLI(t, "", tt.args...); code != tt.code || !strings.Contains(stderr, tt.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tt.args, code, stderr, tt.code, tt.msg)
		}
	}
	db := openTestStore(t, st)
	u, err := db.SetupUser(context.Background(), account.HashToken(link[1]), time.Now())
	if err != nil || u.Email != "ada@example.com" {
		t.Errorf("the printed link does not set up the user: %+v %v", u, err)
	}
	_, out, _ = runCLI(t, "", "users", "list", "--store", st)
	if !strings.Contains(out, "ada@example.com") || !strings.Contains(out, "awaiting set-up") {
		t.Errorf("users list:\n%s", out)
	}
	if code, _, stderr := runCLI(t, "", "users", "disable", "--store", st, "ada@example.com"); code != 0 {
		t.Fatal(stderr)
	}
	if _, err := db.SetupUser(context.Background(), account.HashToken(link[1]), time.Now()); err == nil {
		t.Error("a disabled user's set-up link still works")
	}
	_, out, _ = runCLI(t, "", "accounts", "list", "--store", st, "--format", "json")
	var accts []struct {
		Name  string
		Users int
	}
	if err := json.Unmarshal([]byte(out), &accts); err != nil || len(accts) != 1 || accts[0].Name != "Acme Corp" || accts[0].Users != 1 {
		t.Errorf("accounts list: %v %s", err, out)
	}
	if code, _, stderr := runCLI(t, "", "keys", "create", "--store", st, "--account", "Acme Corp", "--name", "ci"); code != 0 {
		t.Errorf("key for a named account: %s", stderr)
	}
	if code, _, stderr := runCLI(t, "", "keys", "create", "--store", st, "--account", "Nobody", "--name", "ci"); code != 1 {
		t.Errorf("key for an unknown account: %d %s", code, stderr)
	}
}

func TestDevSetupDoesNotPileUp(t *testing.T) {
	st := filepath.Join(t.TempDir(), "unitd.db")
	cfg := serveConfig{Addr: "127.0.0.1:8080", Store: st, Env: apikey.EnvTest, DevKey: true,
		RateLimit: rateForTests, AuthFailLimit: rateForTests, MaxBody: 64 << 10}
	var lastKey, lastLink string
	for range 2 {
		var out bytes.Buffer
		d, err := newDaemon(cfg, slog.New(slog.DiscardHandler), &out)
		if err != nil {
			t.Fatal(err)
		}
		d.db.Close()
		lastKey = regexp.MustCompile(`uc_test_[A-Za-z0-9_-]{43}`).FindString(out.String())
		lastLink = regexp.MustCompile(`http://127\.0\.0\.1:8080/account/setup\?token=[A-Za-z0-9_-]{43}`).FindString(out.String())
		if lastKey == "" || lastLink == "" {
			t.Fatalf("dev start printed no key or link:\n%s", out.String())
		}
	}
	db := openTestStore(t, st)
	ctx := context.Background()
	acct, err := db.AccountByName(ctx, devAccount)
	if err != nil {
		t.Fatal(err)
	}
	ks, _ := db.Keys(ctx, acct.ID)
	us, _ := db.Users(ctx, acct.ID)
	if len(ks) != 1 || len(us) != 1 || us[0].Email != devUser {
		t.Errorf("after two starts: %d keys, users %+v; want 1 key and %s", len(ks), us, devUser)
	}
	if err := authenticate(t, st, lastKey, apikey.EnvTest); err != nil {
		t.Errorf("printed dev key: %v", err)
	}
	u, _ := url.Parse(lastLink)
	if _, err := db.SetupUser(ctx, account.HashToken(u.Query().Get("token")), time.Now()); err != nil {
		t.Errorf("printed set-up link: %v", err)
	}
}

var rateForTests = ratelimit.Rate{N: 1_000_000, Per: time.Second}
