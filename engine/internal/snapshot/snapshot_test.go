package snapshot

import (
	"os"
	"sync"
	"testing"

	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/internal/graph"
)

// shipped is the snapshot of the shipped catalog, which the catalog
// package keeps current (its TestSnapshotIsCurrent).
func shipped(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("../../../catalog/graph.snap")
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestReadBothWays: the shipped snapshot reads into the same tables
// with its blocks of units decoded side by side and one after the other:
// each writes the snapshot it was read from. Its values are shared: the
// units hold a quarter as many maps as they name.
func TestReadBothWays(t *testing.T) {
	data := shipped(t)
	for _, parallel := range []bool{false, true} {
		tables, err := Read(data, parallel)
		if err != nil {
			t.Fatalf("parallel %v: %v", parallel, err)
		}
		if got := string(Write(tables)); got != data {
			t.Errorf("parallel %v: the tables read write %d other bytes", parallel, len(got))
		}
		named, distinct := 0, map[any]bool{}
		for _, u := range tables.Units {
			if m := u.Conv.Map; m != nil {
				named++
				distinct[m] = true
			}
		}
		if named < 1000 || 3*len(distinct) > named {
			t.Errorf("parallel %v: %d maps for %d units' maps", parallel, len(distinct), named)
		}
	}
}

// TestReadRefusesCorruption: a snapshot with any of its bytes changed,
// or cut anywhere, reads into tables or an error, either way, and never
// panics, nor does the documentation it decodes later; one cut short or
// naming a value it does not have is an error.
func TestReadRefusesCorruption(t *testing.T) {
	data := shipped(t)
	step := len(data) / 48
	for _, parallel := range []bool{false, true} {
		for at := len(magic); at < len(data); at += step {
			for _, b := range []byte{0xff, data[at] ^ 0x40} {
				bad := []byte(data)
				bad[at] = b
				if tables, err := Read(string(bad), parallel); err == nil {
					for _, u := range tables.Units {
						_ = u.Doc() // decoded now: whatever it holds, no panic
					}
				}
			}
			if _, err := Read(data[:at], parallel); err == nil {
				t.Fatalf("parallel %v: cut at %d of %d bytes, read without an error", parallel, at, len(data))
			}
		}
	}
	// A map beyond the table: number 2 of a table of 1.
	w := &writer{}
	w.int(2)
	r := (refs{maps: make([]*exact.Map, 1)}).sub(string(w.b))
	if m := r.exactMap(); m != nil || r.err == nil {
		t.Errorf("a map beyond the table read as %v, error %v", m, r.err)
	}
}

// TestDocsOnFirstUse: a restore leaves the units' documentation to its
// first use, which goroutines may reach at once: each then sees the same
// documentation of each unit, the one written. Documentation that does
// not decode leaves the units after it without any.
func TestDocsOnFirstUse(t *testing.T) {
	data := shipped(t)
	tables, err := Read(data, true)
	if err != nil {
		t.Fatal(err)
	}
	seen := make([][]*graph.Doc, 8)
	var wg sync.WaitGroup
	for g := range seen {
		wg.Go(func() {
			for _, u := range tables.Units {
				seen[g] = append(seen[g], u.Doc())
			}
		})
	}
	wg.Wait()
	described := 0
	for i, u := range tables.Units {
		for g := range seen {
			if seen[g][i] != seen[0][i] {
				t.Fatalf("%s: goroutine %d saw other documentation", u.Symbol, g)
			}
		}
		if u.Doc().Definition.Kind != "" && u.Doc().Source != "" {
			described++
		}
	}
	if described != len(tables.Units) {
		t.Errorf("%d of %d units have a definition and a source", described, len(tables.Units))
	}
	// The block of documentation cut in the middle of its third unit.
	w := &writer{}
	for _, u := range tables.Units[:3] {
		w.unitDoc(u.Doc())
	}
	cut := string(w.b[:len(w.b)-3])
	if docs := readDocs(cut, 3); len(docs) != 2 || docs[1].Source != tables.Units[1].Doc().Source {
		t.Errorf("a cut block decoded %d units' documentation, want the 2 before the cut", len(docs))
	}
	d := graph.NewDocs(func() []graph.Doc { return readDocs(cut, 3) })
	var u graph.Unit
	u.SetDocs(d, 2)
	if doc := u.Doc(); doc.Source != "" || doc.Examples != nil {
		t.Errorf("the unit past the cut has documentation %+v", doc)
	}
}
