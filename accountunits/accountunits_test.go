package accountunits_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/unitd/unitd/account"
	"github.com/unitd/unitd/accountunits"
	"github.com/unitd/unitd/catalog"
	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/store"
	"github.com/unitd/unitd/store/sqlite"
)

var ctx = context.Background()

// shipped is the embedded catalog, restored once.
var shipped = sync.OnceValues(func() (*engine.Graph, []error) { return catalog.LoadEmbedded() })

func catalogGraph(t testing.TB) *engine.Graph {
	t.Helper()
	g, errs := shipped()
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return g
}

type env struct {
	db    *store.DB
	watch *account.UnitWatcher
	svc   *accountunits.Service
	base  *engine.Graph
}

func newEnv(t testing.TB, opt accountunits.Options) *env {
	t.Helper()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "unitd.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	w, err := account.NewUnitWatcher(ctx, db, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return &env{db: db, watch: w, svc: accountunits.New(db, w, opt), base: catalogGraph(t)}
}

func (e *env) account(t testing.TB, name string) string {
	t.Helper()
	a, err := e.db.CreateAccount(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	return a.ID
}

// doc is a unit of length worth factor metres.
func doc(sym, factor string) string {
	return "category: length\nsymbol: " + sym + "\nname: " + sym + "\nplural: " + sym + "s\nsystem: test\n" +
		"definition: {factor: " + factor + ", unit: m}\nexact: true\nsource: test\nexamples: [\"1 " + sym + " = " + factor + " m\"]\n"
}

func (e *env) put(t testing.TB, acct, sym, factor string) {
	t.Helper()
	if _, _, err := e.svc.Put(ctx, e.base, acct, sym, []byte(doc(sym, factor)), "yaml", account.Operator); err != nil {
		t.Fatal(err)
	}
}

func convert(t testing.TB, g *engine.Graph, from string) string {
	t.Helper()
	res, err := g.Convert(engine.Request{Value: "1", From: from, To: "m"})
	if err != nil {
		var ee *engine.Error
		if errors.As(err, &ee) {
			return string(ee.Code)
		}
		t.Fatal(err)
	}
	return res.Value
}

// TestGraphFollowsChanges: the graph of an account is compiled once per
// change, on the catalog's graph it is asked for, and an account without
// units converts with the catalog's.
func TestGraphFollowsChanges(t *testing.T) {
	e := newEnv(t, accountunits.Options{})
	a, b := e.account(t, "a"), e.account(t, "b")
	if g, err := e.svc.Graph(ctx, a, e.base); err != nil || g != e.base {
		t.Fatalf("an account without units: %v %v", g == e.base, err)
	}
	e.put(t, a, "smoot", "1.7018")
	g1, err := e.svc.Graph(ctx, a, e.base)
	if err != nil || convert(t, g1, "smoot") != "1.7018" {
		t.Fatalf("after the put: %v", err)
	}
	if g, _ := e.svc.Graph(ctx, a, e.base); g != g1 {
		t.Error("an unchanged account's graph was compiled again")
	}
	if g, _ := e.svc.Graph(ctx, b, e.base); g != e.base || convert(t, g, "smoot") != "UNKNOWN_UNIT" {
		t.Error("another account's graph has the unit")
	}
	e.put(t, a, "smoot", "1.70")
	g2, _ := e.svc.Graph(ctx, a, e.base)
	if g2 == g1 || convert(t, g2, "smoot") != "1.7" {
		t.Errorf("after the change: %v", convert(t, g2, "smoot"))
	}
	// A catalog reloaded: the account's units are compiled on it.
	other, errs := catalog.Load(catalog.Embedded())
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if g, _ := e.svc.Graph(ctx, a, other); g == g2 || g.Catalog() != other || convert(t, g, "my:smoot") != "1.7" {
		t.Error("not compiled on the new catalog")
	}
	if err := e.svc.Delete(ctx, e.base, a, "smoot", account.Operator); err != nil {
		t.Fatal(err)
	}
	if g, _ := e.svc.Graph(ctx, a, e.base); g != e.base {
		t.Error("an account whose last unit was deleted keeps its graph")
	}
}

// TestGraphCacheIsBounded keeps the compiled graphs of several accounts
// within a bound that holds about two: the least recently used is
// evicted, and compiled again when asked for.
func TestGraphCacheIsBounded(t *testing.T) {
	e0 := newEnv(t, accountunits.Options{})
	a0 := e0.account(t, "probe")
	e0.put(t, a0, "u0", "2")
	g, _ := e0.svc.Graph(ctx, a0, e0.base)
	one := g.OverlayBytes()
	if one <= 0 || e0.svc.CacheBytes() != one {
		t.Fatalf("one graph: %d bytes, cache %d", one, e0.svc.CacheBytes())
	}

	e := newEnv(t, accountunits.Options{CacheBytes: 2*one + one/2})
	var accts []string
	for i := range 5 {
		a := e.account(t, fmt.Sprintf("a%d", i))
		e.put(t, a, "u0", fmt.Sprint(i+2))
		accts = append(accts, a)
	}
	for round := range 3 {
		for i, a := range accts {
			g, err := e.svc.Graph(ctx, a, e.base)
			if err != nil || convert(t, g, "u0") != fmt.Sprint(i+2) {
				t.Fatalf("round %d, account %d: %v", round, i, err)
			}
			if used := e.svc.CacheBytes(); used > 2*one+one/2 {
				t.Fatalf("the cache holds %d bytes, bound %d", used, 2*one+one/2)
			}
		}
	}
}

// TestPutRefusesWhatBreaks: a change that breaks another unit is
// refused, with the problem at the unit it breaks.
func TestPutRefusesWhatBreaks(t *testing.T) {
	e := newEnv(t, accountunits.Options{})
	a := e.account(t, "a")
	e.put(t, a, "smoot", "1.7018")
	deci := "category: length\nsymbol: decismoot\nname: decismoot\nplural: decismoots\nsystem: test\n" +
		"definition: {factor: 0.1, unit: smoot}\nexact: true\nsource: test\nexamples: [\"10 decismoot = 1.7018 m\"]\n"
	if _, _, err := e.svc.Put(ctx, e.base, a, "decismoot", []byte(deci), "yaml", account.Operator); err != nil {
		t.Fatal(err)
	}
	// Changing smoot breaks decismoot's example.
	_, _, err := e.svc.Put(ctx, e.base, a, "smoot", []byte(doc("smoot", "2")), "yaml", account.Operator)
	var p *accountunits.Problems
	if !errors.As(err, &p) || !strings.Contains(err.Error(), "decismoot") {
		t.Errorf("a change that breaks another unit: %v", err)
	}
	if err := e.svc.Delete(ctx, e.base, a, "smoot", account.Operator); !errors.As(err, &p) {
		t.Errorf("deleting a unit another needs: %v", err)
	}
	if g, _ := e.svc.Graph(ctx, a, e.base); convert(t, g, "decismoot") != "0.17018" {
		t.Errorf("after the refusals: %s", convert(t, g, "decismoot"))
	}
}

// TestGraphConcurrent asks for an account's graph from many goroutines
// while its units change: every answer is a graph of one of the
// versions, never an error.
func TestGraphConcurrent(t *testing.T) {
	e := newEnv(t, accountunits.Options{})
	a := e.account(t, "a")
	e.put(t, a, "smoot", "1")
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 4 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				g, err := e.svc.Graph(ctx, a, e.base)
				if err != nil {
					t.Error(err)
					return
				}
				if v := convert(t, g, "smoot"); v != "1" && v != "2" && v != "3" {
					t.Errorf("1 smoot = %s", v)
					return
				}
			}
		})
	}
	for i := range 6 {
		e.put(t, a, "smoot", fmt.Sprint(i%3+1))
	}
	close(stop)
	wg.Wait()
}

// BenchmarkWarmConversion times a conversion on a server's warm path: the
// account's graph from the Service, then 12.5 UNIT → m: through a catalog
// unit (ft) for an account without units (the catalog's graph), and for
// one of 1,000 units, and through one of its units, by plain name and by
// my:.
func BenchmarkWarmConversion(b *testing.B) {
	e := newEnv(b, accountunits.Options{})
	a, none := e.account(b, "a"), e.account(b, "none")
	fill(b, e, a, 1000)
	for _, c := range []struct{ name, acct, from string }{
		{"catalog_unit/no_account_units", none, "ft"},
		{"catalog_unit/account_of_1000", a, "ft"},
		{"account_unit", a, "u500"},
		{"account_unit_my", a, "my:u500"},
	} {
		b.Run(c.name, func(b *testing.B) {
			req := engine.Request{Value: "12.5", From: c.from, To: "m"}
			var res engine.Result
			buf := make([]byte, 0, 64)
			g, err := e.svc.Graph(ctx, c.acct, e.base) // warm: compiled, and the pair planned
			if err != nil {
				b.Fatal(err)
			}
			if _, err := g.AppendConvert(buf[:0], &req, &res); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				g, err := e.svc.Graph(ctx, c.acct, e.base)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := g.AppendConvert(buf[:0], &req, &res); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkFirstConversionAfterChange times what a server does after one
// unit of an account of 1,000 units changed in the store: the watcher
// reads the change, the account's units are read and compiled again
// (from the graph before), and one conversion goes through the changed
// unit. The store write itself is not timed.
func BenchmarkFirstConversionAfterChange(b *testing.B) {
	e := newEnv(b, accountunits.Options{})
	a := e.account(b, "a")
	fill(b, e, a, 1000)
	if _, err := e.svc.Graph(ctx, a, e.base); err != nil {
		b.Fatal(err)
	}
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		i++
		f := fmt.Sprint(i%9+2) + ".5"
		if _, _, err := e.db.PutUnit(ctx, account.UnitDoc{AccountID: a, Symbol: "u500", Document: doc("u500", f), Format: "yaml"}, account.Operator, nil); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if err := e.watch.Refresh(ctx); err != nil {
			b.Fatal(err)
		}
		g, err := e.svc.Graph(ctx, a, e.base)
		if err != nil {
			b.Fatal(err)
		}
		if v := convert(b, g, "u500"); v != f {
			b.Fatalf("1 u500 = %s, want %s", v, f)
		}
	}
}

// fill gives an account n units, straight into the store.
func fill(b testing.TB, e *env, acct string, n int) {
	for i := range n {
		sym := fmt.Sprintf("u%d", i)
		if _, _, err := e.db.PutUnit(ctx, account.UnitDoc{AccountID: acct, Symbol: sym, Document: doc(sym, fmt.Sprint(i+2)), Format: "yaml"}, account.Operator, nil); err != nil {
			b.Fatal(err)
		}
	}
	if err := e.watch.Refresh(ctx); err != nil {
		b.Fatal(err)
	}
}
