package snapshot

import (
	"os"
	"testing"

	"github.com/unitd/unitd/engine/internal/exact"
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
// panics; one cut short or naming a value it does not have is an error.
func TestReadRefusesCorruption(t *testing.T) {
	data := shipped(t)
	step := len(data) / 48
	for _, parallel := range []bool{false, true} {
		for at := len(magic); at < len(data); at += step {
			for _, b := range []byte{0xff, data[at] ^ 0x40} {
				bad := []byte(data)
				bad[at] = b
				_, _ = Read(string(bad), parallel)
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
