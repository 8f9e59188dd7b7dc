package graph

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sort"

	"github.com/unitd/unitd/engine/internal/varint"
)

// Names indexes units by their spellings (a graph's symbols and its words):
// the map the engine's Build fills, or, in a restored graph, a hash table that lies in
// the snapshot itself (nameTable), which a restore neither copies nor
// builds: fifteen thousand names were a sixth of what a restore allocated.
type Names struct {
	// Map is the index Build fills; a restored graph has a table instead.
	Map   map[string]*Unit
	table *nameTable
}

// Get returns the unit of a spelling.
func (n Names) Get(name string) (*Unit, bool) {
	if n.table != nil {
		return n.table.get(name)
	}
	u, ok := n.Map[name]
	return u, ok
}

// GetBytes is Get of a spelling held in a buffer, which it does not keep.
func (n Names) GetBytes(name []byte) (*Unit, bool) {
	if n.table != nil {
		return n.table.get(string(name))
	}
	u, ok := n.Map[string(name)]
	return u, ok
}

// Len is the number of spellings.
func (n Names) Len() int {
	if n.table != nil {
		return n.table.n
	}
	return len(n.Map)
}

// All calls yield with each spelling and its unit, in no order.
func (n Names) All(yield func(string, *Unit)) {
	if n.table != nil {
		n.table.all(yield)
		return
	}
	for k, u := range n.Map {
		yield(k, u)
	}
}

// nameTable is an open-addressing hash table of spellings written in a
// snapshot: slots of 4 bytes, each 0 (empty) or 1 + the offset in recs of
// a record (the spelling's length as a uvarint, the spelling, the unit's
// index + 1 as a varint). The table is at most half full, and a name is
// looked for from the slot of its hash (nameHash) on.
type nameTable struct {
	n     int
	slots string
	recs  string
	units []*Unit
}

// nameHash is 64-bit FNV-1a: fixed, since the snapshot holds its slots.
func nameHash(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

func (t *nameTable) slot(i int) int {
	s := t.slots[4*i : 4*i+4]
	return int(uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24)
}

// record returns the spelling and the unit of the record at offset.
func (t *nameTable) record(offset int) (string, *Unit) {
	r := t.recs[offset:]
	n, k := varint.Unsigned(r)
	name := r[k : k+int(n)]
	i, _ := varint.Signed(r[k+int(n):])
	return name, t.units[i-1]
}

func (t *nameTable) get(name string) (*Unit, bool) {
	if t.n == 0 {
		return nil, false
	}
	mask := len(t.slots)/4 - 1
	for i := int(nameHash(name)) & mask; ; i = (i + 1) & mask {
		o := t.slot(i)
		if o == 0 {
			return nil, false
		}
		if k, u := t.record(o - 1); k == name {
			return u, true
		}
	}
}

func (t *nameTable) all(yield func(string, *Unit)) {
	for i := range len(t.slots) / 4 {
		if o := t.slot(i); o != 0 {
			yield(t.record(o - 1))
		}
	}
}

func (t *nameTable) check(size int) error {
	switch {
	case size < 0 || size&(size-1) != 0 || len(t.slots) != 4*size:
		return fmt.Errorf("%d slots in %d bytes", size, len(t.slots))
	case 2*t.n > size:
		return fmt.Errorf("%d names in %d slots", t.n, size)
	}
	used := 0
	for i := range size {
		o := t.slot(i)
		if o == 0 {
			continue
		}
		used++
		if o > len(t.recs) {
			return fmt.Errorf("slot %d points past the records", i)
		}
		r := t.recs[o-1:]
		n, k := varint.Unsigned(r)
		if k <= 0 || n > uint64(len(r)-k) {
			return errors.New("a record is cut short")
		}
		u, m := varint.Signed(r[k+int(n):])
		if m <= 0 || u < 1 || u > int64(len(t.units)) {
			return fmt.Errorf("record of %q names unit %d", r[k:k+int(n)], u)
		}
	}
	if used != t.n {
		return fmt.Errorf("%d names in the slots, %d said", used, t.n)
	}
	return nil
}

// Encode lays the names out as a table (nameTable) for a snapshot: the
// number of names and of slots, the records in sorted order and the
// slots. index gives each unit's index among the units a reader of the
// table is given (NamesOfTable).
func (n Names) Encode(index func(*Unit) int) (count, size int, recs, slots []byte) {
	keys := make([]string, 0, n.Len())
	units := make(map[string]*Unit, n.Len())
	n.All(func(k string, u *Unit) {
		keys = append(keys, k)
		units[k] = u
	})
	sort.Strings(keys)
	if len(keys) > 0 {
		size = 1
		for size < 2*len(keys) {
			size *= 2
		}
	}
	slots = make([]byte, 4*size)
	for _, k := range keys {
		o := len(recs) + 1
		recs = binary.AppendUvarint(recs, uint64(len(k)))
		recs = append(recs, k...)
		recs = binary.AppendVarint(recs, int64(index(units[k])+1))
		i := int(nameHash(k)) & (size - 1)
		for slots[4*i]|slots[4*i+1]|slots[4*i+2]|slots[4*i+3] != 0 {
			i = (i + 1) & (size - 1)
		}
		slots[4*i], slots[4*i+1], slots[4*i+2], slots[4*i+3] = byte(o), byte(o>>8), byte(o>>16), byte(o>>24)
	}
	return len(keys), size, recs, slots
}

// NamesOfTable reads back a table that Encode wrote, in place: it keeps
// recs and slots, and checks every slot and record first, so that a
// look-up never reads out of bounds or probes forever.
func NamesOfTable(count, size int, recs, slots string, units []*Unit) (Names, error) {
	t := &nameTable{n: count, recs: recs, slots: slots, units: units}
	if err := t.check(size); err != nil {
		return Names{}, err
	}
	return Names{table: t}, nil
}
