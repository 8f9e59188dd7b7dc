package catalog

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/unitd/unitd/engine"
)

// TestSnapshotIsCurrent: graph.snap is what the loader builds from data/
// today. When it fails, run go run ./tools/catalogsnap.
func TestSnapshotIsCurrent(t *testing.T) {
	want, err := Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if snapshot != string(want) {
		t.Fatalf("catalog/graph.snap (%d bytes) is not the snapshot of catalog/data (%d bytes): run go run ./tools/catalogsnap", len(snapshot), len(want))
	}
}

// TestSnapshotRestoresTheLoadersGraph: the graph read from the snapshot
// writes the same snapshot again, and converts as the graph the loader
// builds from the YAML, between random pairs of units of every category,
// with answers and errors alike.
func TestSnapshotRestoresTheLoadersGraph(t *testing.T) {
	restored, errs := LoadEmbedded()
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if errs := restored.Warm(); len(errs) > 0 {
		t.Fatal("a deferred part of the embedded catalog does not compile:", errs)
	}
	loaded := shipped(t)
	if string(restored.Snapshot()) != snapshot {
		t.Fatal("the restored graph writes another snapshot than the one it was read from")
	}
	if restored.Version() != loaded.Version() {
		t.Errorf("version %s, the loader's is %s", restored.Version(), loaded.Version())
	}
	units := loaded.Units()
	r := rand.New(rand.NewPCG(5, 8))
	values := []string{"1", "37.5", "-2", "0", "1e-30", "123456789.987654321"}
	answer := func(g *engine.Graph, req engine.Request) string {
		res, err := g.Convert(req)
		if err != nil {
			return err.Error()
		}
		parts := ""
		for _, p := range res.Parts() {
			parts += " " + p.Value + " " + p.Unit.Symbol
		}
		return fmt.Sprintf("%s %s %s %v%s", res.Value, res.Unit, res.CategoryID, res.Exact, parts)
	}
	compared := 0
	for i := range 6000 {
		a := units[r.IntN(len(units))]
		b := a.Category.Units[r.IntN(len(a.Category.Units))]
		if i%5 == 0 {
			b = units[r.IntN(len(units))] // across categories: bridges, errors
		}
		req := engine.Request{Value: values[r.IntN(len(values))], From: a.Symbol, To: b.Symbol, Precision: 1 + r.IntN(40)}
		if got, want := answer(restored, req), answer(loaded, req); got != want {
			t.Errorf("%s %s → %s: restored %q, loaded %q", req.Value, req.From, req.To, got, want)
		}
		compared++
	}
	for _, req := range []engine.Request{
		{Value: "5", From: "ft+in", To: "cm"}, {Value: "170", From: "cm", To: "auto", Region: "US", Usage: "person-height"},
		{Value: "100", From: "mg/dL", To: "mmol/L", Properties: mustProps(t, restored, loaded)},
		{Value: "1", From: "ucum:[ft_i]", To: "cldr:meter"}, {Value: "3", From: "dBm", To: "mW"}, {Value: "1", From: "C", To: "F"},
		{Value: "1", From: "kg*m/s^2", To: "N"}, {Value: "1", From: "mtr", To: "ft"},
	} {
		if got, want := answer(restored, req), answer(loaded, req); got != want {
			t.Errorf("%+v: restored %q, loaded %q", req, got, want)
		}
	}
	t.Logf("%d random conversions agree", compared)
}

// mustProps resolves glucose in the restored graph, checking that the
// loaded graph resolves it alike.
func mustProps(t *testing.T, restored, loaded *engine.Graph) *engine.Properties {
	t.Helper()
	p, err := restored.ResolveProperties(engine.PropertyQuery{Substance: "glucose"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := loaded.ResolveProperties(engine.PropertyQuery{Substance: "glucose"}); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSnapshotRefusesWhatIsNoSnapshot: a corrupt or cut snapshot is an
// error, never a panic or a half-read graph.
func TestSnapshotRefusesWhatIsNoSnapshot(t *testing.T) {
	for _, data := range []string{"", "unitd", snapshot[:len(snapshot)/2], snapshot + "\x00"} {
		if g, errs := engine.Restore(data, engine.Deferred{}); g != nil || len(errs) == 0 {
			t.Errorf("a snapshot of %d bytes restored without an error", len(data))
		}
	}
}

func BenchmarkLoadEmbedded(b *testing.B) {
	b.Run("restore", func(b *testing.B) { // the snapshot alone
		for b.Loop() {
			if _, errs := engine.Restore(snapshot, engine.Deferred{}); len(errs) > 0 {
				b.Fatal(errs)
			}
		}
	})
	b.Run("snapshot", func(b *testing.B) {
		for b.Loop() {
			if _, errs := LoadEmbedded(); len(errs) > 0 {
				b.Fatal(errs)
			}
		}
	})
	b.Run("yaml", func(b *testing.B) {
		for b.Loop() {
			if _, errs := Load(Embedded()); len(errs) > 0 {
				b.Fatal(errs)
			}
		}
	})
}

// TestDeferredCodeTables: a restored graph compiles its code tables on
// their first use, once; tables that fail to compile leave the graph
// serving its own units, refuse namespaced names with the contract's
// error, and are reported by Warm.
func TestDeferredCodeTables(t *testing.T) {
	calls := 0
	g, errs := engine.Restore(snapshot, engine.Deferred{Codes: func() (*engine.CodeTables, error) {
		calls++
		return codeSet()
	}})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if _, err := g.Convert(engine.Request{Value: "1", From: "m", To: "ft"}); err != nil || calls != 0 {
		t.Fatalf("m → ft: %v, after %d compilations of the code tables (want none)", err, calls)
	}
	for range 2 {
		if res, err := g.Convert(engine.Request{Value: "1", From: "ucum:[ft_i]/ks", To: "m/s"}); err != nil || res.Value != "0.0003048" {
			t.Fatalf("ucum:[ft_i]/ks → m/s: %v %v", res, err)
		}
	}
	if calls != 1 {
		t.Errorf("the code tables were compiled %d times, want 1", calls)
	}
	if errs := g.Warm(); len(errs) != 0 || calls != 1 {
		t.Errorf("Warm: %v, after %d compilations", errs, calls)
	}

	broken, errs := engine.Restore(snapshot, engine.Deferred{Codes: func() (*engine.CodeTables, error) {
		return nil, errors.New("cldr.tsv:3: expected 4 columns, found 2")
	}})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if _, err := broken.Convert(engine.Request{Value: "1", From: "m", To: "ft"}); err != nil {
		t.Errorf("m → ft without code tables: %v", err)
	}
	_, err := broken.Convert(engine.Request{Value: "1", From: "ucum:[ft_i]/ks", To: "m/s"})
	if e, ok := err.(*engine.Error); !ok || e.Code != engine.CodeUnknownUnit {
		t.Errorf("ucum:[ft_i]/ks without code tables: %v, want UNKNOWN_UNIT", err)
	}
	if errs := broken.Warm(); len(errs) != 1 || !strings.Contains(errs[0].Error(), "cldr.tsv:3") {
		t.Errorf("Warm: %v, want the tables' error", errs)
	}
}

// countedExtras is LoadEmbedded's embeddedExtras, counting its calls.
func countedExtras(calls *atomic.Int32) func() (engine.Spec, []error) {
	return func() (engine.Spec, []error) {
		calls.Add(1)
		return embeddedExtras()
	}
}

// TestDeferredExtras: a restored graph decodes its hints, preferences and
// substances on their first use, once however many requests ask at once,
// and answers with them as the loader's graph does; parts that fail to
// compile leave the units serving, refuse what needs them with the
// contract's error, and are reported by Warm.
func TestDeferredExtras(t *testing.T) {
	var calls atomic.Int32
	g, errs := engine.Restore(snapshot, engine.Deferred{Codes: codeSet, Spec: countedExtras(&calls)})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if _, err := g.Convert(engine.Request{Value: "1", From: "m", To: "ft"}); err != nil || calls.Load() != 0 {
		t.Fatalf("m → ft: %v, after %d decodings of the extras (want none)", err, calls.Load())
	}
	loaded := shipped(t)
	props, err := loaded.ResolveProperties(engine.PropertyQuery{Substance: "glucose"})
	if err != nil {
		t.Fatal(err)
	}
	reqs := []engine.Request{
		{Value: "170", From: "cm", To: "auto", Region: "US", Usage: "person-height"},
		{Value: "7", From: "%", To: "mmol/mol"},
		{Value: "1", From: "m", To: "kg"},
		{Value: "100", From: "mg/dL", To: "mmol/L", Properties: props},
	}
	answer := func(g *engine.Graph, req engine.Request) string {
		if req.Properties != nil {
			p, err := g.ResolveProperties(engine.PropertyQuery{Substance: "glucose"})
			if err != nil {
				return err.Error()
			}
			req.Properties = p
		}
		res, err := g.Convert(req)
		if err != nil {
			return err.Error()
		}
		return fmt.Sprintf("%s %s %v %q", res.Value, res.Unit, res.Exact, res.Hint())
	}
	want := make([]string, len(reqs))
	for i, req := range reqs {
		want[i] = answer(loaded, req)
	}
	var wg sync.WaitGroup
	got := make([][]string, 8)
	for w := range got {
		wg.Go(func() {
			for i := range reqs {
				got[w] = append(got[w], answer(g, reqs[(i+w)%len(reqs)]))
			}
		})
	}
	wg.Wait()
	for w := range got {
		for i, a := range got[w] {
			if req := reqs[(i+w)%len(reqs)]; a != want[(i+w)%len(reqs)] {
				t.Errorf("%+v: restored %q, loaded %q", req, a, want[(i+w)%len(reqs)])
			}
		}
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("the extras were decoded %d times, want 1", n)
	}

	broken, errs := engine.Restore(snapshot, engine.Deferred{Codes: codeSet, Spec: func() (engine.Spec, []error) {
		return engine.Spec{}, []error{errors.New("preferences.yaml:3: bad")}
	}})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if _, err := broken.Convert(engine.Request{Value: "1", From: "m", To: "ft"}); err != nil {
		t.Errorf("m → ft without extras: %v", err)
	}
	_, err = broken.Convert(engine.Request{Value: "1", From: "m", To: "auto"})
	if e, ok := err.(*engine.Error); !ok || e.Code != engine.CodeInvalidRequest {
		t.Errorf("m → auto without preferences: %v, want INVALID_REQUEST", err)
	}
	if errs := broken.Warm(); len(errs) != 1 || !strings.Contains(errs[0].Error(), "preferences.yaml:3") {
		t.Errorf("Warm: %v, want the extras' error", errs)
	}
}
