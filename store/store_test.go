package store_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/unitd/unitd/account"
	"github.com/unitd/unitd/apikey"
	"github.com/unitd/unitd/internal/pgtest"
	"github.com/unitd/unitd/store"
	"github.com/unitd/unitd/store/postgres"
	"github.com/unitd/unitd/store/sqlite"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// clock is a settable time for a store under test.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// engines opens a fresh store of each engine; every store test runs on both.
var engines = []struct {
	name string
	open func(t *testing.T) *store.DB
}{
	{"sqlite", func(t *testing.T) *store.DB {
		db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "unitd.db"))
		if err != nil {
			t.Fatal(err)
		}
		return db
	}},
	{"postgres", func(t *testing.T) *store.DB {
		db, err := postgres.Open(context.Background(), pgtest.NewDatabase(t))
		if err != nil {
			t.Fatal(err)
		}
		return db
	}},
}

// eachEngine runs test against a fresh store of each engine, with a clock.
func eachEngine(t *testing.T, test func(t *testing.T, db *store.DB, c *clock)) {
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			db := e.open(t)
			t.Cleanup(func() { db.Close() })
			c := &clock{t: time.Date(2026, 3, 1, 12, 0, 30, 0, time.UTC)}
			db.Now = c.Now
			test(t, db, c)
		})
	}
}

var ctx = context.Background()

func must[T any](t *testing.T) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func TestAccounts(t *testing.T) {
	eachEngine(t, func(t *testing.T, db *store.DB, c *clock) {
		a := must[account.Account](t)(db.CreateAccount(ctx, "Acme"))
		if _, err := db.CreateAccount(ctx, "Acme"); !errors.Is(err, account.ErrConflict) {
			t.Errorf("duplicate name: %v, want ErrConflict", err)
		}
		if _, err := db.CreateAccount(ctx, " "); !errors.Is(err, account.ErrInvalid) {
			t.Errorf("blank name: %v, want ErrInvalid", err)
		}
		got := must[account.Account](t)(db.AccountByName(ctx, "Acme"))
		if got != a || !got.CreatedAt.Equal(c.Now()) {
			t.Errorf("AccountByName = %+v, want %+v", got, a)
		}
		if _, err := db.AccountByName(ctx, "nobody"); !errors.Is(err, account.ErrNotFound) {
			t.Errorf("unknown account: %v", err)
		}
		must[account.Account](t)(db.CreateAccount(ctx, "Beta"))
		list := must[[]account.Account](t)(db.Accounts(ctx))
		if len(list) != 2 || list[0].Name != "Acme" || list[1].Name != "Beta" {
			t.Errorf("Accounts = %+v", list)
		}
	})
}

func TestUserSetupAndSessions(t *testing.T) {
	eachEngine(t, func(t *testing.T, db *store.DB, c *clock) {
		a := must[account.Account](t)(db.CreateAccount(ctx, "Acme"))
		if _, err := db.CreateUser(ctx, a.ID, "not an address"); !errors.Is(err, account.ErrInvalid) {
			t.Errorf("bad e-mail: %v", err)
		}
		if _, err := db.CreateUser(ctx, "acct_nosuch", "x@example.com"); !errors.Is(err, account.ErrNotFound) {
			t.Errorf("unknown account: %v", err)
		}
		u := must[account.User](t)(db.CreateUser(ctx, a.ID, "Ada@Example.com"))
		if u.Email != "ada@example.com" || u.HasPassword {
			t.Errorf("new user = %+v", u)
		}
		if _, err := db.CreateUser(ctx, a.ID, "ada@example.COM"); !errors.Is(err, account.ErrConflict) {
			t.Errorf("duplicate e-mail: %v", err)
		}

		tok := account.HashToken("setup-1")
		must[account.User](t)(db.CreateSetupToken(ctx, u.Email, tok, c.Now().Add(time.Hour)))
		if got := must[account.User](t)(db.SetupUser(ctx, tok, c.Now())); got.ID != u.ID {
			t.Errorf("SetupUser = %+v", got)
		}
		if _, err := db.SetupUser(ctx, tok, c.Now().Add(time.Hour)); !errors.Is(err, account.ErrNotFound) {
			t.Errorf("expired link: %v", err)
		}
		// A session from before the password was set ends with it.
		old := account.Session{TokenHash: account.HashToken("s0"), UserID: u.ID, CSRF: "c", CreatedAt: c.Now(), ExpiresAt: c.Now().Add(time.Hour)}
		if err := db.CreateSession(ctx, old); err != nil {
			t.Fatal(err)
		}
		must[account.User](t)(db.SetPassword(ctx, tok, "$argon2id$hash", c.Now(), account.Actor{Addr: "192.0.2.1"}))
		if _, err := db.SetPassword(ctx, tok, "$argon2id$other", c.Now(), account.Actor{}); !errors.Is(err, account.ErrNotFound) {
			t.Errorf("second use of a set-up link: %v", err)
		}
		if _, err := db.Session(ctx, old.TokenHash, c.Now()); !errors.Is(err, account.ErrNotFound) {
			t.Errorf("session from before the password change: %v", err)
		}
		gotU, hash, err := db.PasswordHash(ctx, "ada@example.com")
		if err != nil || hash != "$argon2id$hash" || !gotU.HasPassword || gotU.AccountID != a.ID {
			t.Errorf("PasswordHash = %+v, %q, %v", gotU, hash, err)
		}

		s := account.Session{TokenHash: account.HashToken("s1"), UserID: u.ID, CSRF: "csrf1", CreatedAt: c.Now(), ExpiresAt: c.Now().Add(time.Hour)}
		if err := db.CreateSession(ctx, s); err != nil {
			t.Fatal(err)
		}
		got := must[account.Session](t)(db.Session(ctx, s.TokenHash, c.Now()))
		if got.AccountID != a.ID || got.Email != u.Email || got.CSRF != "csrf1" || !got.ExpiresAt.Equal(s.ExpiresAt) {
			t.Errorf("Session = %+v", got)
		}
		if _, err := db.Session(ctx, s.TokenHash, s.ExpiresAt); !errors.Is(err, account.ErrNotFound) {
			t.Errorf("expired session: %v", err)
		}
		if err := db.DeleteSession(ctx, s.TokenHash); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Session(ctx, s.TokenHash, c.Now()); !errors.Is(err, account.ErrNotFound) {
			t.Errorf("deleted session: %v", err)
		}

		// Disabling ends sessions and sign-in.
		if err := db.CreateSession(ctx, s); err != nil {
			t.Fatal(err)
		}
		if err := db.DisableUser(ctx, u.Email); err != nil {
			t.Fatal(err)
		}
		if _, _, err := db.PasswordHash(ctx, u.Email); !errors.Is(err, account.ErrNotFound) {
			t.Errorf("disabled user signs in: %v", err)
		}
		if _, err := db.Session(ctx, s.TokenHash, c.Now()); !errors.Is(err, account.ErrNotFound) {
			t.Errorf("disabled user's session: %v", err)
		}
		users := must[[]account.User](t)(db.Users(ctx, a.ID))
		if len(users) != 1 || users[0].DisabledAt == nil {
			t.Errorf("Users = %+v", users)
		}
		events := must[[]account.AuditEvent](t)(db.Audit(ctx, a.ID, 10))
		var actions []string
		for _, e := range events {
			actions = append(actions, e.Action)
		}
		want := []string{account.ActionUserDisable, account.ActionPasswordSet, account.ActionUserCreate}
		if len(actions) != 3 || actions[0] != want[0] || actions[1] != want[1] || actions[2] != want[2] {
			t.Errorf("audit actions = %v, want %v", actions, want)
		}
		if events[1].Addr != "192.0.2.1" || events[1].Actor != "ada@example.com" {
			t.Errorf("password_set event = %+v", events[1])
		}
	})
}

func TestKeyLifecycle(t *testing.T) {
	eachEngine(t, func(t *testing.T, db *store.DB, c *clock) {
		a := must[account.Account](t)(db.CreateAccount(ctx, "Acme"))
		b := must[account.Account](t)(db.CreateAccount(ctx, "Beta"))
		ada := account.Actor{Name: "ada@example.com", Addr: "192.0.2.7"}
		v0 := must[int64](t)(db.KeyVersion(ctx))

		if _, _, err := db.CreateKey(ctx, a.ID, "", apikey.EnvTest, nil, ada); !errors.Is(err, account.ErrInvalid) {
			t.Errorf("empty name: %v", err)
		}
		if _, _, err := db.CreateKey(ctx, a.ID, "ci", "prod", nil, ada); !errors.Is(err, account.ErrInvalid) {
			t.Errorf("bad env: %v", err)
		}
		key, k, err := db.CreateKey(ctx, a.ID, "ci", apikey.EnvTest, nil, ada)
		if err != nil {
			t.Fatal(err)
		}
		v1 := must[int64](t)(db.KeyVersion(ctx))
		if v1 == v0 {
			t.Error("creating a key did not change the key version")
		}
		auth := func() *apikey.Set { return apikey.NewSet(must[[]apikey.Record](t)(db.AuthRecords(ctx))) }
		if _, err := auth().Authenticate(key, apikey.EnvTest, c.Now()); err != nil {
			t.Fatalf("new key refused: %v", err)
		}

		// Another account sees and touches nothing of it.
		if _, err := db.Key(ctx, b.ID, k.ID); !errors.Is(err, account.ErrNotFound) {
			t.Errorf("Key from another account: %v", err)
		}
		if _, _, err := db.RotateKey(ctx, b.ID, k.ID, 0, ada); !errors.Is(err, account.ErrNotFound) {
			t.Errorf("RotateKey from another account: %v", err)
		}
		if err := db.RevokeKey(ctx, b.ID, k.ID, ada); !errors.Is(err, account.ErrNotFound) {
			t.Errorf("RevokeKey from another account: %v", err)
		}
		if _, err := db.Usage(ctx, b.ID, k.ID, c.Now().Add(-time.Hour), time.Hour); !errors.Is(err, account.ErrNotFound) {
			t.Errorf("Usage from another account: %v", err)
		}
		if ks := must[[]account.Key](t)(db.Keys(ctx, b.ID)); len(ks) != 0 {
			t.Errorf("Keys of another account = %+v", ks)
		}
		if v := must[int64](t)(db.KeyVersion(ctx)); v != v1 {
			t.Error("refused changes moved the key version")
		}

		// Rotate with a grace period: both keys work until it ends.
		if _, _, err := db.RotateKey(ctx, a.ID, k.ID, 8*24*time.Hour, ada); !errors.Is(err, account.ErrInvalid) {
			t.Errorf("8-day grace: %v", err)
		}
		c.Add(time.Minute)
		key2, k2, err := db.RotateKey(ctx, a.ID, k.ID, 24*time.Hour, ada)
		if err != nil {
			t.Fatal(err)
		}
		if k2.Name != "ci" || k2.Env != apikey.EnvTest || key2 == key {
			t.Errorf("successor = %+v", k2)
		}
		old := must[account.Key](t)(db.Key(ctx, a.ID, k.ID))
		if old.ExpiresAt == nil || !old.ExpiresAt.Equal(c.Now().Add(24*time.Hour)) || old.ReplacedBy != k2.ID || old.State(c.Now()) != "expiring" {
			t.Errorf("old key after rotation = %+v", old)
		}
		set := auth()
		for _, kk := range []string{key, key2} {
			if _, err := set.Authenticate(kk, apikey.EnvTest, c.Now()); err != nil {
				t.Errorf("during the grace period a key is refused: %v", err)
			}
		}
		if _, err := set.Authenticate(key, apikey.EnvTest, c.Now().Add(24*time.Hour)); !errors.Is(err, apikey.ErrUnknown) {
			t.Errorf("old key after the grace period: %v", err)
		}
		if _, _, err := db.RotateKey(ctx, a.ID, k.ID, time.Hour, ada); !errors.Is(err, account.ErrKeyState) {
			t.Errorf("rotating a rotated key: %v", err)
		}

		// Rotate with no grace: the old key is revoked at once.
		key3, k3, err := db.RotateKey(ctx, a.ID, k2.ID, 0, ada)
		if err != nil {
			t.Fatal(err)
		}
		set = auth()
		if _, err := set.Authenticate(key2, apikey.EnvTest, c.Now()); !errors.Is(err, apikey.ErrUnknown) {
			t.Errorf("key rotated with no grace: %v", err)
		}
		if _, err := set.Authenticate(key3, apikey.EnvTest, c.Now()); err != nil {
			t.Errorf("successor refused: %v", err)
		}
		if st := must[account.Key](t)(db.Key(ctx, a.ID, k2.ID)).State(c.Now()); st != "revoked" {
			t.Errorf("state = %s, want revoked", st)
		}

		// Revoke, twice.
		if err := db.RevokeKey(ctx, a.ID, k3.ID, ada); err != nil {
			t.Fatal(err)
		}
		v := must[int64](t)(db.KeyVersion(ctx))
		if err := db.RevokeKey(ctx, a.ID, k3.ID, ada); err != nil {
			t.Errorf("revoking again: %v", err)
		}
		if v2 := must[int64](t)(db.KeyVersion(ctx)); v2 != v {
			t.Error("a no-op revocation moved the key version")
		}
		if _, err := auth().Authenticate(key3, apikey.EnvTest, c.Now()); !errors.Is(err, apikey.ErrUnknown) {
			t.Errorf("revoked key: %v", err)
		}
		if err := db.RevokeKey(ctx, a.ID, "key_nosuch", ada); !errors.Is(err, account.ErrNotFound) {
			t.Errorf("revoking an unknown key: %v", err)
		}
		if acct := must[string](t)(db.KeyAccount(ctx, k3.ID)); acct != a.ID {
			t.Errorf("KeyAccount = %s", acct)
		}

		// The audit log has every action, with who and from where.
		events := must[[]account.AuditEvent](t)(db.Audit(ctx, a.ID, 100))
		var actions []string
		for _, e := range events {
			actions = append(actions, e.Action+" "+e.KeyID)
			if e.Actor != ada.Name || e.Addr != ada.Addr {
				t.Errorf("event %+v: want actor %v", e, ada)
			}
		}
		want := []string{"key.revoke " + k3.ID, "key.rotate " + k2.ID, "key.rotate " + k.ID, "key.create " + k.ID}
		if len(actions) != len(want) {
			t.Fatalf("audit = %v, want %v", actions, want)
		}
		for i := range want {
			if actions[i] != want[i] {
				t.Errorf("audit[%d] = %s, want %s", i, actions[i], want[i])
			}
		}
		if ev := must[[]account.AuditEvent](t)(db.Audit(ctx, b.ID, 100)); len(ev) != 0 {
			t.Errorf("another account's audit log = %+v", ev)
		}
	})
}

// The keys of testdata/keys-v1.json, a key file as earlier unitd versions
// wrote it: "one" is active, the live key was revoked at 12:05, "rotated"
// was rotated at 12:10 with a grace period until 14:10, and its successor
// is active.
const (
	legacyOne       = "uc_test_OswMxdevDfEqzPK-oKKjgN6cPcAl22ZP8y-OAqmmaQI"
	legacyLive      = "uc_live_GIVuJavuLTnwpN6EGu93g6dal894hLyOWBymUj3A96k"
	legacyRotated   = "uc_test_ql9X-0_jOcuAgfh31OFW_2nqOqRfHiigedrZ2KbM_n8"
	legacySuccessor = "uc_test_f9-ua32x2o4ItLG0j2kxIacd-Qj9KKMV3sGmWLwKht8"
)

func TestImportKeepsEverything(t *testing.T) {
	eachEngine(t, func(t *testing.T, db *store.DB, c *clock) {
		a := must[account.Account](t)(db.CreateAccount(ctx, account.OperatorAccountName))
		recs := must[[]apikey.Record](t)(store.ReadKeyFile(filepath.Join("testdata", "keys-v1.json")))
		if len(recs) != 4 {
			t.Fatalf("read %d keys from the fixture, want 4", len(recs))
		}
		n, err := db.ImportKeys(ctx, a.ID, recs, account.Operator)
		if err != nil || n != len(recs) {
			t.Fatalf("ImportKeys = %d, %v; want %d", n, err, len(recs))
		}
		got := must[[]account.Key](t)(db.Keys(ctx, a.ID))
		if len(got) != len(recs) {
			t.Fatalf("%d keys after import, want %d", len(got), len(recs))
		}
		byID := map[string]account.Key{}
		for _, k := range got {
			byID[k.ID] = k
		}
		for _, r := range recs {
			k := byID[r.ID]
			if k.Name != r.Name || k.Env != r.Env || k.Prefix != r.Prefix || k.Hash != r.Hash || !k.CreatedAt.Equal(r.CreatedAt) ||
				!sameTime(k.RevokedAt, r.RevokedAt) || !sameTime(k.ExpiresAt, r.ExpiresAt) {
				t.Errorf("imported %+v\nfrom %+v", k.Record, r)
			}
		}
		set := apikey.NewSet(must[[]apikey.Record](t)(db.AuthRecords(ctx)))
		at := func(hhmm string) time.Time {
			return must[time.Time](t)(time.Parse(time.RFC3339, "2026-03-01T"+hhmm+":00Z"))
		}
		for _, tt := range []struct {
			name, key, env, at string
			ok                 bool
		}{
			{"active", legacyOne, apikey.EnvTest, "12:30", true},
			{"revoked", legacyLive, apikey.EnvLive, "12:30", false},
			{"live before its revocation", legacyLive, apikey.EnvLive, "12:04", true},
			{"in its grace period", legacyRotated, apikey.EnvTest, "14:09", true},
			{"after its grace period", legacyRotated, apikey.EnvTest, "14:10", false},
			{"successor", legacySuccessor, apikey.EnvTest, "14:10", true},
		} {
			if _, err := set.Authenticate(tt.key, tt.env, at(tt.at)); (err == nil) != tt.ok {
				t.Errorf("%s key at %s: %v, want ok=%v", tt.name, tt.at, err, tt.ok)
			}
		}
		// A second import adds nothing.
		if n, err := db.ImportKeys(ctx, a.ID, recs, account.Operator); err != nil || n != 0 {
			t.Errorf("second import = %d, %v; want 0", n, err)
		}
	})
}

func sameTime(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Equal(*b)
}

func TestUsage(t *testing.T) {
	eachEngine(t, func(t *testing.T, db *store.DB, c *clock) {
		a := must[account.Account](t)(db.CreateAccount(ctx, "Acme"))
		_, k, err := db.CreateKey(ctx, a.ID, "ci", apikey.EnvTest, nil, account.Operator)
		if err != nil {
			t.Fatal(err)
		}
		now := c.Now()
		m := now.Truncate(time.Minute)
		add := []account.UsageCount{
			{KeyID: k.ID, Minute: m.Add(-2 * time.Hour), Count: 5, Last: m.Add(-2 * time.Hour)},
			{KeyID: k.ID, Minute: m, Count: 3, Last: now},
		}
		if err := db.AddUsage(ctx, add); err != nil {
			t.Fatal(err)
		}
		if err := db.AddUsage(ctx, []account.UsageCount{{KeyID: k.ID, Minute: m, Count: 4, Last: now.Add(-time.Second)}}); err != nil {
			t.Fatal(err)
		}
		pts := must[[]account.UsagePoint](t)(db.Usage(ctx, a.ID, k.ID, now.Add(-3*time.Hour), time.Hour))
		if len(pts) != 4 {
			t.Fatalf("%d hourly points, want 4: %+v", len(pts), pts)
		}
		var counts []int64
		for _, p := range pts {
			counts = append(counts, p.Count)
		}
		if counts[0] != 0 || counts[1] != 5 || counts[2] != 0 || counts[3] != 7 {
			t.Errorf("hourly counts = %v, want [0 5 0 7]", counts)
		}
		sums := must[map[string]int64](t)(db.RequestsSince(ctx, a.ID, now.Add(-time.Hour)))
		if sums[k.ID] != 7 {
			t.Errorf("requests in the last hour = %d, want 7", sums[k.ID])
		}
		got := must[account.Key](t)(db.Key(ctx, a.ID, k.ID))
		if got.LastUsedAt == nil || !got.LastUsedAt.Equal(now) {
			t.Errorf("last used = %v, want %v (the later of two flushes)", got.LastUsedAt, now)
		}
	})
}

func TestRenewDevKeyDoesNotPileUp(t *testing.T) {
	eachEngine(t, func(t *testing.T, db *store.DB, c *clock) {
		a := must[account.Account](t)(db.CreateAccount(ctx, "dev"))
		var last string
		for range 3 {
			key, _, err := db.RenewDevKey(ctx, a.ID)
			if err != nil {
				t.Fatal(err)
			}
			last = key
		}
		ks := must[[]account.Key](t)(db.Keys(ctx, a.ID))
		if len(ks) != 1 {
			t.Fatalf("%d keys after three renewals, want 1", len(ks))
		}
		if _, err := apikey.NewSet(must[[]apikey.Record](t)(db.AuthRecords(ctx))).Authenticate(last, apikey.EnvTest, c.Now()); err != nil {
			t.Errorf("latest dev key: %v", err)
		}
	})
}

func TestMigrationsApplyOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "unitd.db")
	for range 2 {
		db, err := sqlite.Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		var n int
		if want := migrationFiles(t, "sqlite"); db.SQL().QueryRow(`SELECT COUNT(*) FROM migrations`).Scan(&n) != nil || n != want {
			t.Errorf("migrations recorded = %d; want %d", n, want)
		}
		db.Close()
	}
	url := pgtest.NewDatabase(t)
	for range 2 {
		db, err := postgres.Open(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		var n int
		if want := migrationFiles(t, "postgres"); db.SQL().QueryRow(`SELECT COUNT(*) FROM migrations`).Scan(&n) != nil || n != want {
			t.Errorf("postgres migrations recorded = %d; want %d", n, want)
		}
		db.Close()
	}
}

func TestSQLiteFileIsPrivate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "unitd.db")
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("store file mode %v, want 0600", fi.Mode().Perm())
	}
}

// TestReplicasMigrateTogether opens one fresh PostgreSQL database from
// several goroutines at once, as replicas starting together do.
func TestReplicasMigrateTogether(t *testing.T) {
	url := pgtest.NewDatabase(t)
	const n = 4
	errs := make(chan error, n)
	for range n {
		go func() {
			db, err := postgres.Open(ctx, url)
			if err == nil {
				db.Close()
			}
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Errorf("concurrent open: %v", err)
		}
	}
	db, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var c int
	if want := migrationFiles(t, "postgres"); db.SQL().QueryRow(`SELECT COUNT(*) FROM migrations`).Scan(&c) != nil || c != want {
		t.Errorf("migrations recorded = %d; want %d", c, want)
	}
}

// migrationFiles counts the migrations a dialect's package embeds.
func migrationFiles(t *testing.T, dialect string) int {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dialect, "migration", "*.sql"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no migrations under %s/migration: %v", dialect, err)
	}
	return len(files)
}

func TestKeyReaders(t *testing.T) {
	eachEngine(t, func(t *testing.T, db *store.DB, c *clock) {
		now := c.Now()
		a := account.KeyReader{Instance: "srv_a", Description: "host-a pid 1", Version: 3, SeenAt: now}
		b := account.KeyReader{Instance: "srv_b", Description: "host-b pid 2", Version: 2, SeenAt: now.Add(-time.Minute)}
		for _, r := range []account.KeyReader{a, b} {
			if err := db.ReportKeyVersion(ctx, r); err != nil {
				t.Fatal(err)
			}
		}
		// A second report of a replaces the first.
		a.Version, a.SeenAt = 4, now.Add(time.Second)
		if err := db.ReportKeyVersion(ctx, a); err != nil {
			t.Fatal(err)
		}
		got := must[[]account.KeyReader](t)(db.KeyReaders(ctx, now.Add(-10*time.Second)))
		if len(got) != 1 || got[0].Instance != "srv_a" || got[0].Version != 4 || !got[0].SeenAt.Equal(a.SeenAt) || got[0].Description != a.Description {
			t.Errorf("recent readers = %+v, want only srv_a at version 4", got)
		}
		if all := must[[]account.KeyReader](t)(db.KeyReaders(ctx, now.Add(-time.Hour))); len(all) != 2 || all[0].Instance != "srv_b" {
			t.Errorf("readers of the last hour = %+v, want srv_b then srv_a", all)
		}
		if err := db.ForgetKeyReader(ctx, "srv_a"); err != nil {
			t.Fatal(err)
		}
		if all := must[[]account.KeyReader](t)(db.KeyReaders(ctx, now.Add(-time.Hour))); len(all) != 1 || all[0].Instance != "srv_b" {
			t.Errorf("after forgetting srv_a: %+v", all)
		}
		// A report forgets servers silent for more than a day.
		if err := db.ReportKeyVersion(ctx, account.KeyReader{Instance: "srv_c", Version: 5, SeenAt: now.Add(25 * time.Hour)}); err != nil {
			t.Fatal(err)
		}
		if all := must[[]account.KeyReader](t)(db.KeyReaders(ctx, time.Time{})); len(all) != 1 || all[0].Instance != "srv_c" {
			t.Errorf("a day later: %+v, want only srv_c", all)
		}
	})
}
