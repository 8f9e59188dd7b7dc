package engine

import (
	"encoding/binary"
	"strings"
	"sync"
	"testing"

	"github.com/unitd/unitd/engine/internal/graph"
)

// writeNames writes names as a snapshot's table and returns the bytes,
// with the graph's units indexed as Snapshot indexes them.
func writeNames(g *Graph, names graph.Names) string {
	w := &snapWriter{units: map[*Unit]int{}}
	for i, u := range g.units {
		w.units[u] = i
	}
	w.nameTable(names)
	return string(w.b)
}

// TestNameTable: a table of names written in a snapshot finds every name
// of the map it was written from, and nothing else: case, a prefix, an
// extension or the empty string of a name find nothing.
func TestNameTable(t *testing.T) {
	g := testGraph(t)
	for _, names := range []graph.Names{g.bySymbol, g.byWord, {Map: map[string]*Unit{}}} {
		r := &snapReader{b: writeNames(g, names), units: g.units}
		table := r.nameTable()
		if r.err != nil || len(r.b) != 0 {
			t.Fatalf("read back: %v, %d bytes left", r.err, len(r.b))
		}
		if table.Len() != names.Len() {
			t.Errorf("%d names, want %d", table.Len(), names.Len())
		}
		names.All(func(name string, want *Unit) {
			if got, ok := table.Get(name); !ok || got != want {
				t.Errorf("%q: %v, want %s", name, got, want.Symbol)
			}
			if got, ok := table.GetBytes([]byte(name)); !ok || got != want {
				t.Errorf("%q as bytes: %v, want %s", name, got, want.Symbol)
			}
			for _, other := range []string{strings.ToUpper(name) + "x", name + " ", "x" + name, name[:len(name)-1]} {
				if want, known := names.Get(other); known {
					if got, _ := table.Get(other); got != want {
						t.Errorf("%q: %v, want %s", other, got, want.Symbol)
					}
				} else if got, ok := table.Get(other); ok {
					t.Errorf("%q, not a name, found %s", other, got.Symbol)
				}
			}
		})
		seen := 0
		table.All(func(name string, u *Unit) {
			seen++
			if want, _ := names.Get(name); want != u {
				t.Errorf("all: %q is %v, want %v", name, u, want)
			}
		})
		if seen != names.Len() {
			t.Errorf("all: %d names, want %d", seen, names.Len())
		}
	}
}

// TestNameTableRefusesCorruption: a table whose slots point past its
// records, whose records name no unit, that says another number of names
// than it holds, or that is full (a look-up of an unknown name would
// probe forever) is an error when read, never a panic later.
func TestNameTableRefusesCorruption(t *testing.T) {
	g := testGraph(t)
	good := &snapReader{b: writeNames(g, g.bySymbol), units: g.units}
	n, size := good.count(), good.int()
	recs, slots := good.str(), good.str()
	write := func(n, size int, recs, slots string) string {
		w := &snapWriter{}
		w.int(n)
		w.int(size)
		w.str(recs)
		w.str(slots)
		return string(w.b)
	}
	first := strings.IndexFunc(slots, func(r rune) bool { return r != 0 }) / 4 * 4
	setSlot := func(v uint32) string {
		b := []byte(slots)
		b[first], b[first+1], b[first+2], b[first+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
		return string(b)
	}
	one := write(1, 2, string(binary.AppendVarint([]byte("\x01x"), int64(len(g.units)))), "\x01\x00\x00\x00\x00\x00\x00\x00")
	if r := (&snapReader{b: one, units: g.units}); r.nameTable().Len() != 1 || r.err != nil {
		t.Fatalf("a table of one name: %v", r.err)
	}
	for _, tt := range []struct {
		name string
		data string
	}{
		{"a slot past the records", write(n, size, recs, setSlot(uint32(len(recs)+7)))},
		{"an empty slot counted", write(n, size, recs, setSlot(0))},
		{"one name more said", write(n+1, size, recs, slots)},
		{"slots of another size", write(n, size*2, recs, slots)},
		{"full", write(size, size, recs, slots)},
		{"a unit out of range", write(1, 2, string(binary.AppendVarint([]byte("\x01x"), int64(len(g.units)+1))), "\x01\x00\x00\x00\x00\x00\x00\x00")},
		{"no unit", write(1, 2, string(binary.AppendVarint([]byte("\x01x"), 0)), "\x01\x00\x00\x00\x00\x00\x00\x00")},
		{"cut short", write(n, size, recs[:len(recs)/2], slots)},
	} {
		r := &snapReader{b: tt.data, units: g.units}
		if names := r.nameTable(); r.err == nil {
			t.Errorf("%s: read as a table of %d names", tt.name, names.Len())
		}
	}
}

// TestRestoreDecodesSpellingsOnFirstUse: a restored graph converts
// without decoding its spellings or its claims on codes, and decodes each
// once, when first needed, into what the built graph has.
func TestRestoreDecodesSpellingsOnFirstUse(t *testing.T) {
	built := testGraph(t)
	g, errs := Restore(string(built.Snapshot()), Deferred{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if _, err := g.Convert(Request{Value: "1", From: "m", To: "ft"}); err != nil {
		t.Fatal(err)
	}
	if g.spellings != nil || g.codes.claimed != nil {
		t.Fatal("a conversion decoded the spellings or the claims")
	}
	_, want := built.Lookup("metre-ish")
	var wg sync.WaitGroup
	for range 4 { // the first uses at once: each part is decoded once
		wg.Go(func() {
			if _, err := g.Lookup("metre-ish"); err == nil || err.Error() != want.Error() {
				t.Errorf("unknown name: %v, the built graph says %v", err, want)
			}
			g.codes.claimedMap()
		})
	}
	wg.Wait()
	if len(g.spellings) != len(built.spellings) {
		t.Fatalf("%d spellings decoded, %d built", len(g.spellings), len(built.spellings))
	}
	for i, s := range g.spellings {
		if b := built.spellings[i]; s.Text != b.Text || s.Unit.Symbol != b.Unit.Symbol {
			t.Errorf("spelling %d: %q of %s, built %q of %s", i, s.Text, s.Unit.Symbol, b.Text, b.Unit.Symbol)
		}
	}
	claimed := g.codes.claimedMap()
	for system, codes := range built.codes.claimedMap() {
		if len(claimed[system]) != len(codes) {
			t.Errorf("%s: %d claims decoded, %d built", system, len(claimed[system]), len(codes))
		}
		for code, u := range codes {
			if claimed[system][code] == nil || claimed[system][code].Symbol != u.Symbol {
				t.Errorf("%s:%s claimed by %v, built %s", system, code, claimed[system][code], u.Symbol)
			}
		}
	}
}
