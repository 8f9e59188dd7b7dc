package engine

import (
	"github.com/unitd/unitd/engine/internal/graph"
)

// nameTable writes the names as a table (graph.Names.Encode).
func (w *snapWriter) nameTable(names graph.Names) {
	count, size, recs, slots := names.Encode(func(u *Unit) int { return w.units[u] })
	w.int(count)
	w.int(size)
	w.str(string(recs))
	w.str(string(slots))
}

// nameTable reads a table of names (graph.NamesOfTable).
func (r *snapReader) nameTable() graph.Names {
	count, size := r.count(), r.int()
	recs, slots := r.str(), r.str()
	if r.err != nil {
		return graph.Names{}
	}
	names, err := graph.NamesOfTable(count, size, recs, slots, r.units)
	if err != nil {
		r.fail("a table of names: %v", err)
	}
	return names
}
