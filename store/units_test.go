package store_test

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/unitd/unitd/account"
	"github.com/unitd/unitd/apikey"
	"github.com/unitd/unitd/store"
)

func unitDoc(acct, sym string) account.UnitDoc {
	return account.UnitDoc{AccountID: acct, Symbol: sym, Format: "yaml",
		Document: "category: length\nsymbol: " + sym + "\nname: " + sym + "\nplural: " + sym + "s\nsystem: x\ndefinition: {factor: 2, unit: m}\nexact: true\nsource: x\n"}
}

func symbols(units []account.UnitDoc) []string {
	var out []string
	for _, u := range units {
		out = append(out, u.Symbol)
	}
	return out
}

func TestUnitLifecycle(t *testing.T) {
	eachEngine(t, func(t *testing.T, db *store.DB, c *clock) {
		a := must[account.Account](t)(db.CreateAccount(ctx, "Acme"))
		b := must[account.Account](t)(db.CreateAccount(ctx, "Beta"))
		key := account.Actor{Name: "key key_abc", Addr: "192.0.2.7", KeyID: "key_abc"}
		v0 := must[int64](t)(db.UnitVersion(ctx))

		var seen []string
		check := func(_, units []account.UnitDoc) error { seen = symbols(units); return nil }
		u, created, err := db.PutUnit(ctx, unitDoc(a.ID, "smoot"), key, check)
		if err != nil || !created || u.Revision != 1 || !u.CreatedAt.Equal(c.Now()) {
			t.Fatalf("first put: %+v %v %v", u, created, err)
		}
		if !slices.Equal(seen, []string{"smoot"}) {
			t.Errorf("check saw %v", seen)
		}
		c.Add(time.Minute)
		changed := unitDoc(a.ID, "smoot")
		changed.Document += "description: changed\n"
		u, created, err = db.PutUnit(ctx, changed, key, check)
		if err != nil || created || u.Revision != 2 || !u.UpdatedAt.Equal(c.Now()) || u.UpdatedAt.Equal(u.CreatedAt) {
			t.Fatalf("second put: %+v %v %v", u, created, err)
		}
		must[account.UnitDoc](t)(db.Unit(ctx, a.ID, "smoot"))
		if got := must[account.UnitDoc](t)(db.Unit(ctx, a.ID, "smoot")); got.Document != changed.Document {
			t.Errorf("Unit = %+v", got)
		}
		v1 := must[int64](t)(db.UnitVersion(ctx))
		if v1 <= v0 {
			t.Errorf("unit version %d → %d", v0, v1)
		}
		sets := must[[]account.UnitSet](t)(db.UnitSets(ctx, v0))
		if len(sets) != 1 || sets[0].AccountID != a.ID || sets[0].Version != v1 || sets[0].Units != 1 {
			t.Errorf("UnitSets = %+v", sets)
		}

		// A check that refuses changes nothing.
		refused := errors.New("no")
		if _, _, err := db.PutUnit(ctx, unitDoc(a.ID, "pace"), key, func(_, _ []account.UnitDoc) error { return refused }); !errors.Is(err, refused) {
			t.Errorf("refused put: %v", err)
		}
		if err := db.DeleteUnit(ctx, a.ID, "smoot", key, func(_, _ []account.UnitDoc) error { return refused }); !errors.Is(err, refused) {
			t.Errorf("refused delete: %v", err)
		}
		if got := symbols(must[[]account.UnitDoc](t)(db.Units(ctx, a.ID))); !slices.Equal(got, []string{"smoot"}) {
			t.Errorf("after refusals: %v", got)
		}
		if v := must[int64](t)(db.UnitVersion(ctx)); v != v1 {
			t.Error("refused changes moved the unit version")
		}

		// Another account sees and touches nothing of it.
		if _, err := db.Unit(ctx, b.ID, "smoot"); !errors.Is(err, account.ErrNotFound) {
			t.Errorf("Unit of another account: %v", err)
		}
		if err := db.DeleteUnit(ctx, b.ID, "smoot", key, nil); !errors.Is(err, account.ErrNotFound) {
			t.Errorf("DeleteUnit of another account: %v", err)
		}
		if us := must[[]account.UnitDoc](t)(db.Units(ctx, b.ID)); len(us) != 0 {
			t.Errorf("Units of another account: %v", us)
		}
		if h := must[[]account.UnitChange](t)(db.UnitHistory(ctx, b.ID, "smoot", 10)); len(h) != 0 {
			t.Errorf("history of another account: %v", h)
		}

		// Deleted, then defined again: the revisions go on.
		c.Add(time.Minute)
		if err := db.DeleteUnit(ctx, a.ID, "smoot", account.Operator, check); err != nil || len(seen) != 0 {
			t.Fatalf("delete: %v (check saw %v)", err, seen)
		}
		if err := db.DeleteUnit(ctx, a.ID, "smoot", account.Operator, nil); !errors.Is(err, account.ErrNotFound) {
			t.Errorf("second delete: %v", err)
		}
		if sets := must[[]account.UnitSet](t)(db.UnitSets(ctx, v1)); len(sets) != 1 || sets[0].Units != 0 {
			t.Errorf("UnitSets after the delete = %+v", sets)
		}
		c.Add(time.Minute)
		if u, created, err := db.PutUnit(ctx, unitDoc(a.ID, "smoot"), key, nil); err != nil || !created || u.Revision != 4 {
			t.Errorf("put after delete: %+v %v %v", u, created, err)
		}
		h := must[[]account.UnitChange](t)(db.UnitHistory(ctx, a.ID, "smoot", 10))
		var got []string
		for _, ch := range h {
			got = append(got, fmt.Sprintf("%d %s %s %v", ch.Revision, ch.Action, ch.Actor, ch.Document != ""))
		}
		want := []string{"4 put key key_abc true", "3 delete operator false", "2 put key key_abc true", "1 put key key_abc true"}
		if !slices.Equal(got, want) {
			t.Errorf("history = %v, want %v", got, want)
		}
		if h := must[[]account.UnitChange](t)(db.UnitHistory(ctx, a.ID, "smoot", 1)); len(h) != 1 || h[0].Revision != 4 {
			t.Errorf("history limited to 1 = %v", h)
		}
		// The audit log says who did what, from where, with which key.
		events := must[[]account.AuditEvent](t)(db.Audit(ctx, a.ID, 10))
		if len(events) != 4 || events[0].Action != account.ActionUnitPut || events[0].KeyID != "key_abc" || events[0].Addr != "192.0.2.7" ||
			events[1].Action != account.ActionUnitDelete || events[1].Detail != "unit smoot deleted (revision 3)" {
			t.Errorf("audit = %+v", events)
		}
		if _, _, err := db.PutUnit(ctx, unitDoc("acct_nosuch", "x"), key, nil); !errors.Is(err, account.ErrNotFound) {
			t.Errorf("unknown account: %v", err)
		}
		if _, _, err := db.PutUnit(ctx, account.UnitDoc{AccountID: a.ID, Symbol: "x", Document: "x", Format: "toml"}, key, nil); !errors.Is(err, account.ErrInvalid) {
			t.Errorf("unknown format: %v", err)
		}
	})
}

// TestUnitChangesOneAtATime changes one account's units from many
// goroutines at once, each with a check that allows three units at most:
// if two changes could check the same units, more than three would be
// stored.
func TestUnitChangesOneAtATime(t *testing.T) {
	eachEngine(t, func(t *testing.T, db *store.DB, c *clock) {
		a := must[account.Account](t)(db.CreateAccount(ctx, "Acme"))
		atMost3 := func(_, units []account.UnitDoc) error {
			if len(units) > 3 {
				return account.ErrInvalid
			}
			return nil
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		ok := 0
		for i := range 12 {
			wg.Go(func() {
				if _, _, err := db.PutUnit(ctx, unitDoc(a.ID, fmt.Sprintf("u%d", i)), account.Operator, atMost3); err == nil {
					mu.Lock()
					ok++
					mu.Unlock()
				} else if !errors.Is(err, account.ErrInvalid) {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if n := len(must[[]account.UnitDoc](t)(db.Units(ctx, a.ID))); n != 3 || ok != 3 {
			t.Errorf("%d changes succeeded, %d units stored; want 3 and 3", ok, n)
		}
		sets := must[[]account.UnitSet](t)(db.UnitSets(ctx, 0))
		if len(sets) != 1 || sets[0].Units != 3 || sets[0].Version != must[int64](t)(db.UnitVersion(ctx)) {
			t.Errorf("UnitSets = %+v", sets)
		}
	})
}

// TestUnitWatcher follows changes of two accounts' units through the
// store, as a server does.
func TestUnitWatcher(t *testing.T) {
	eachEngine(t, func(t *testing.T, db *store.DB, c *clock) {
		a := must[account.Account](t)(db.CreateAccount(ctx, "Acme"))
		b := must[account.Account](t)(db.CreateAccount(ctx, "Beta"))
		must[account.UnitDoc](t)(first(db.PutUnit(ctx, unitDoc(a.ID, "smoot"), account.Operator, nil)))
		var changed [][]string
		w, err := account.NewUnitWatcher(ctx, db, nil, func(accts []string) { changed = append(changed, accts) })
		if err != nil {
			t.Fatal(err)
		}
		va, ok := w.Version(a.ID)
		if !ok || va == 0 {
			t.Fatalf("Version(a) = %d, %v", va, ok)
		}
		if _, ok := w.Version(b.ID); ok {
			t.Error("b has units")
		}
		must[account.UnitDoc](t)(first(db.PutUnit(ctx, unitDoc(b.ID, "pace"), account.Operator, nil)))
		if err := w.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
		if len(changed) != 1 || !slices.Equal(changed[0], []string{b.ID}) {
			t.Errorf("changed = %v, want [[b]]", changed)
		}
		if v, _ := w.Version(a.ID); v != va {
			t.Error("a's version moved")
		}
		if err := db.DeleteUnit(ctx, a.ID, "smoot", account.Operator, nil); err != nil {
			t.Fatal(err)
		}
		if err := w.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
		if _, ok := w.Version(a.ID); ok || len(changed) != 2 || !slices.Equal(changed[1], []string{a.ID}) {
			t.Errorf("after a's last unit was deleted: has units %v, changed %v", ok, changed)
		}
		if err := w.Refresh(ctx); err != nil || len(changed) != 2 {
			t.Errorf("a refresh without changes reported %v (%v)", changed, err)
		}
	})
}

func first[T any](v T, _ bool, err error) (T, error) { return v, err }

// TestKeyScopes creates keys with and without scopes; the records a server
// authenticates with carry them, and the key's account.
func TestKeyScopes(t *testing.T) {
	eachEngine(t, func(t *testing.T, db *store.DB, c *clock) {
		a := must[account.Account](t)(db.CreateAccount(ctx, "Acme"))
		if _, _, err := db.CreateKey(ctx, a.ID, "x", apikey.EnvTest, []string{"admin"}, account.Operator); !errors.Is(err, account.ErrInvalid) {
			t.Errorf("unknown scope: %v", err)
		}
		_, plain, err := db.CreateKey(ctx, a.ID, "converts", apikey.EnvTest, nil, account.Operator)
		if err != nil {
			t.Fatal(err)
		}
		_, writer, err := db.CreateKey(ctx, a.ID, "units", apikey.EnvTest, []string{apikey.ScopeUnitsWrite, apikey.ScopeUnitsWrite}, account.Operator)
		if err != nil {
			t.Fatal(err)
		}
		if len(plain.Scopes) != 0 || !slices.Equal(writer.Scopes, []string{apikey.ScopeUnitsWrite}) {
			t.Errorf("scopes: %v, %v", plain.Scopes, writer.Scopes)
		}
		recs := must[[]apikey.Record](t)(db.AuthRecords(ctx))
		for _, r := range recs {
			if r.AccountID != a.ID || r.Allows(apikey.ScopeUnitsWrite) != (r.ID == writer.ID) {
				t.Errorf("record %+v", r)
			}
		}
		_, next, err := db.RotateKey(ctx, a.ID, writer.ID, 0, account.Operator)
		if err != nil || !next.Allows(apikey.ScopeUnitsWrite) {
			t.Errorf("rotated: %+v %v", next, err)
		}
		if k := must[account.Key](t)(db.Key(ctx, a.ID, next.ID)); !k.Allows(apikey.ScopeUnitsWrite) || k.AccountID != a.ID {
			t.Errorf("Key = %+v", k)
		}
		if ev := must[[]account.AuditEvent](t)(db.Audit(ctx, a.ID, 10)); ev[len(ev)-2].Detail != `test key "units", scopes units:write` {
			t.Errorf("audit: %+v", ev)
		}
	})
}

// TestUnitChangesSince reads an account's changes after a version, in
// order, each with the version it made; another account's are not among
// them.
func TestUnitChangesSince(t *testing.T) {
	eachEngine(t, func(t *testing.T, db *store.DB, c *clock) {
		a := must[account.Account](t)(db.CreateAccount(ctx, "Acme"))
		b := must[account.Account](t)(db.CreateAccount(ctx, "Beta"))
		must[account.UnitDoc](t)(first(db.PutUnit(ctx, unitDoc(a.ID, "smoot"), account.Operator, nil)))
		v1 := must[int64](t)(db.UnitVersion(ctx))
		must[account.UnitDoc](t)(first(db.PutUnit(ctx, unitDoc(b.ID, "pace"), account.Operator, nil)))
		must[account.UnitDoc](t)(first(db.PutUnit(ctx, unitDoc(a.ID, "pace"), account.Operator, nil)))
		if err := db.DeleteUnit(ctx, a.ID, "smoot", account.Operator, nil); err != nil {
			t.Fatal(err)
		}
		v4 := must[int64](t)(db.UnitVersion(ctx))
		got := must[[]account.UnitChange](t)(db.UnitChangesSince(ctx, a.ID, v1))
		var s []string
		for _, ch := range got {
			s = append(s, fmt.Sprintf("%s %s %d", ch.Action, ch.Symbol, ch.Version))
		}
		want := []string{fmt.Sprintf("put pace %d", v4-1), fmt.Sprintf("delete smoot %d", v4)}
		if !slices.Equal(s, want) {
			t.Errorf("changes since %d = %v, want %v", v1, s, want)
		}
		if all := must[[]account.UnitChange](t)(db.UnitChangesSince(ctx, a.ID, 0)); len(all) != 3 || all[0].Symbol != "smoot" || all[0].Document == "" {
			t.Errorf("changes since 0 = %+v", all)
		}
		if none := must[[]account.UnitChange](t)(db.UnitChangesSince(ctx, a.ID, v4)); len(none) != 0 {
			t.Errorf("changes since the last = %+v", none)
		}
	})
}
