package snapshot

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/unitd/unitd/engine/internal/graph"
)

// testNames returns units and an index of their spellings: symbols,
// words with spaces and names beyond ASCII, enough to fill a table of
// many slots.
func testNames() ([]*graph.Unit, graph.Names) {
	units := make([]*graph.Unit, 300)
	m := map[string]*graph.Unit{}
	for i := range units {
		u := &graph.Unit{Symbol: fmt.Sprintf("u%d", i)}
		units[i] = u
		m[u.Symbol] = u
		m[fmt.Sprintf("unit number %d", i)] = u
		m[fmt.Sprintf("µ%d²", i)] = u
	}
	return units, graph.Names{Map: m}
}

// writeNames writes names as a snapshot's table and returns the bytes,
// with the units indexed as Write indexes them.
func writeNames(units []*graph.Unit, names graph.Names) string {
	w := &writer{units: map[*graph.Unit]int{}}
	for i, u := range units {
		w.units[u] = i
	}
	w.nameTable(names)
	return string(w.b)
}

// TestNameTable: a table of names written in a snapshot finds every name
// of the map it was written from, and nothing else: case, a prefix, an
// extension or the empty string of a name find nothing.
func TestNameTable(t *testing.T) {
	units, index := testNames()
	for _, names := range []graph.Names{index, {Map: map[string]*graph.Unit{}}} {
		r := &reader{b: writeNames(units, names), refs: refs{units: units}}
		table := r.nameTable()
		if r.err != nil || len(r.b) != 0 {
			t.Fatalf("read back: %v, %d bytes left", r.err, len(r.b))
		}
		if table.Len() != names.Len() {
			t.Errorf("%d names, want %d", table.Len(), names.Len())
		}
		names.All(func(name string, want *graph.Unit) {
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
		table.All(func(name string, u *graph.Unit) {
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
	units, index := testNames()
	good := &reader{b: writeNames(units, index), refs: refs{units: units}}
	n, size := good.count(), good.int()
	recs, slots := good.str(), good.str()
	write := func(n, size int, recs, slots string) string {
		w := &writer{}
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
	one := write(1, 2, string(binary.AppendVarint([]byte("\x01x"), int64(len(units)))), "\x01\x00\x00\x00\x00\x00\x00\x00")
	if r := (&reader{b: one, refs: refs{units: units}}); r.nameTable().Len() != 1 || r.err != nil {
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
		{"a unit out of range", write(1, 2, string(binary.AppendVarint([]byte("\x01x"), int64(len(units)+1))), "\x01\x00\x00\x00\x00\x00\x00\x00")},
		{"no unit", write(1, 2, string(binary.AppendVarint([]byte("\x01x"), 0)), "\x01\x00\x00\x00\x00\x00\x00\x00")},
		{"cut short", write(n, size, recs[:len(recs)/2], slots)},
	} {
		r := &reader{b: tt.data, refs: refs{units: units}}
		if names := r.nameTable(); r.err == nil {
			t.Errorf("%s: read as a table of %d names", tt.name, names.Len())
		}
	}
}
