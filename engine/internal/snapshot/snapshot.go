// Package snapshot writes the compiled core of a catalog (graph.Tables)
// as bytes and reads it back.
//
// Build compiles a catalog from its declarations: it parses every factor,
// composes every unit's map, indexes every name and checks every example,
// formula and claim. A process that starts with the catalog it was built
// with (the one embedded in the binary) need not do that work again: a
// snapshot is the compiled core of a graph — categories, units and their
// exact maps, names, bridges, claims — written once (Write) and read
// back into a graph (Read) in a fraction of a Build. The parts a
// snapshot does not hold (hints, unit preferences, substances, the code
// tables) are compiled from the Spec by the same code as Build's.
//
// A snapshot is a derived cache of the catalog, never a source: the
// catalog package writes it from the YAML and tests that it equals what
// the loader builds from the YAML, and hot reload and validation always
// use the full loader. Formulas in decimals (dBm) are compiled on their
// first use.
//
// A restore is most of what `unitd convert 1 m ft` does beyond starting
// the binary, and most of a restore is memory touched for the first
// time. So a snapshot holds each distinct rational, map and formula once,
// in a table the rest names by number (a quarter as many as the units
// name), and its units in blocks that Read decodes side by side.
package snapshot

import (
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"math/big"
	"math/bits"
	"slices"
	"sort"
	"sync"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine/codes"
	"github.com/unitd/unitd/engine/dimension"
	"github.com/unitd/unitd/engine/formula"
	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/internal/graph"
	"github.com/unitd/unitd/engine/internal/varint"
)

// magic starts every snapshot; its last part is the format's version.
const magic = "unitd graph snapshot 7\n"

// Write writes the compiled core of a catalog.
//
// A snapshot is its magic, the catalog's version, the table of values
// (writer.values) and the body: the categories, the units in blocks
// (unitBlocks), the categories' units, the names, the spellings, the
// ambiguous names, the bridges and the claims.
func Write(t *graph.Tables) []byte {
	w := &writer{units: map[*graph.Unit]int{}, cats: map[*graph.Category]int{}, index: map[string]int{}}
	for i, c := range t.Categories {
		w.cats[c] = i
	}
	for i, u := range t.Units {
		w.units[u] = i
	}
	w.int(len(t.Categories))
	for _, c := range t.Categories {
		w.str(c.ID)
		w.str(c.Name)
		w.str(c.Description)
		w.str(c.Minimum)
		w.bool(c.Preferred)
		w.bool(c.Logarithmic)
		w.rat(c.MinimumRat)
		w.dim(c.Dim)
		w.factor(c.Coherent)
		w.bool(c.SIFactor != nil)
		if c.SIFactor != nil {
			w.factor(*c.SIFactor)
		}
	}
	w.int(len(t.Units))
	w.int(unitBlocks)
	for i := range unitBlocks {
		lo, hi := blockRange(i, unitBlocks, len(t.Units))
		w.block(func() {
			for _, u := range t.Units[lo:hi] {
				w.unitFields(u)
			}
		})
	}
	// The units' documentation, in their order, which no conversion reads.
	w.block(func() {
		for _, u := range t.Units {
			w.unitDoc(u.Doc())
		}
	})
	// Each category's units, base and intervals, now that every unit has
	// an index.
	for _, c := range t.Categories {
		w.unit(c.Base)
		w.int(len(c.Units))
		for _, u := range c.Units {
			w.unit(u)
		}
		if c.Interval != nil {
			w.int(w.cats[c.Interval] + 1)
		} else {
			w.int(0)
		}
		w.bool(c.MixingRatio)
	}
	w.nameTable(t.BySymbol)
	w.nameTable(t.ByWord)
	w.int(t.MaxName)
	w.block(func() {
		spellings := t.Spellings()
		w.int(len(spellings))
		for _, s := range spellings {
			w.str(s.Text)
			w.unit(s.Unit)
		}
	})
	names := make([]string, 0, len(t.Ambiguous))
	for n := range t.Ambiguous {
		names = append(names, n)
	}
	sort.Strings(names)
	w.int(len(names))
	for _, n := range names {
		a := t.Ambiguous[n]
		w.str(n)
		w.str(a.Name)
		w.str(a.Note)
		w.int(len(a.Candidates))
		for _, u := range a.Candidates {
			w.unit(u)
		}
	}
	dims := make([]dimension.Vector, 0, len(t.ByDimension))
	for d := range t.ByDimension {
		dims = append(dims, d)
	}
	sort.Slice(dims, func(i, j int) bool { return dims[i].String() < dims[j].String() })
	w.int(len(dims))
	for _, d := range dims {
		w.dim(d)
		w.int(w.cats[t.ByDimension[d]])
	}
	// Bridges, by the ordered pair of categories they join (each in both
	// directions: the way back holds the inverse factor), and the units'
	// maps across them.
	keys := make([]graph.CategoryPair, 0, len(t.Bridges))
	for k := range t.Bridges {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.From.ID != b.From.ID {
			return a.From.ID < b.From.ID
		}
		return a.To.ID < b.To.ID
	})
	index := map[*graph.Bridge]int{}
	w.int(len(keys))
	for i, k := range keys {
		br := t.Bridges[k]
		index[br] = i
		w.int(w.cats[k.From])
		w.int(w.cats[k.To])
		w.unit(br.From)
		w.unit(br.To)
		w.strs([]string{br.Factor, br.Source, br.Note})
		w.bool(br.Exact)
		w.factor(br.SI)
	}
	crossings := make([]graph.UnitBridge, 0, len(t.Bridged))
	for k := range t.Bridged {
		crossings = append(crossings, k)
	}
	sort.Slice(crossings, func(i, j int) bool {
		if a, b := w.units[crossings[i].Unit], w.units[crossings[j].Unit]; a != b {
			return a < b
		}
		return index[crossings[i].Bridge] < index[crossings[j].Bridge]
	})
	w.int(len(crossings))
	for _, k := range crossings {
		w.unit(k.Unit)
		w.int(index[k.Bridge])
		w.conversion(t.Bridged[k])
	}
	w.block(func() {
		claimed, reasons := t.Claims()
		for _, system := range codes.Systems {
			w.int(len(claimed[system]))
			for _, code := range slices.Sorted(maps.Keys(claimed[system])) {
				w.str(code)
				w.unit(claimed[system][code])
			}
			w.int(len(reasons[system]))
			for _, code := range slices.Sorted(maps.Keys(reasons[system])) {
				w.str(code)
				w.str(reasons[system][code])
			}
		}
	})
	body := w.b
	w.b = []byte(magic)
	w.str(t.Version)
	w.values()
	return append(w.b, body...)
}

// unitBlocks is how many blocks a snapshot's units are written in: a
// reader decodes them side by side (Read), and a restore spends most of
// its time on them. Four keep two or four processors busy.
const unitBlocks = 4

// blockRange is the range of the units of block i of k, of n units.
func blockRange(i, k, n int) (lo, hi int) { return i * n / k, (i + 1) * n / k }

// unitFields writes what a unit is, but for its index (which its place
// gives).
func (w *writer) unitFields(u *graph.Unit) {
	w.int(w.cats[u.Category])
	w.str(u.Symbol)
	w.str(u.Name)
	w.str(u.Plural)
	w.strs(u.Aliases)
	w.strs(u.Symbols)
	w.str(u.System)
	w.bool(u.Exact)
	w.unit(u.Prefixed)
	w.codes(&u.Codes)
	w.conversion(&u.Conv)
	switch {
	case u.SI == nil:
		w.int(0)
	case u.SI == &u.Conv:
		w.int(1)
	default:
		w.int(2)
		w.conversion(u.SI)
	}
	w.factor(u.Coherent)
	w.bool(u.AsInterval != nil)
	if u.AsInterval != nil {
		w.conversion(u.AsInterval)
	}
}

// unitDoc writes a unit's documentation (graph.Doc), which a reader
// decodes on first use.
func (w *writer) unitDoc(d *graph.Doc) {
	w.str(d.Description)
	def := d.Definition
	w.strs([]string{def.Kind, def.Unit, def.Factor, def.Offset, def.To, def.From})
	w.str(d.Source)
	w.int(len(d.Examples))
	for _, e := range d.Examples {
		w.strs([]string{e.Value, e.From, e.To, e.Result})
		w.bool(e.Approx)
	}
}

// block writes what write writes as a string of its own, which a reader
// can skip and read later (a part a restore decodes on first use).
func (w *writer) block(write func()) {
	outer := w.b
	w.b = nil
	write()
	inner := w.b
	w.b = outer
	w.str(string(inner))
}

// Read reads a snapshot back, in place: the strings of the tables it
// returns are views of data. A snapshot that does not read (another
// version, cut short, an index out of range) is an error, never a panic
// later. The units' documentation is decoded on its first use
// (graph.Docs), and what of it does not decode is left empty.
//
// With parallel, the blocks of units are decoded side by side, each on
// a goroutine of its own, while the rest of the snapshot is read (most of
// a restore is filling in the units, and most of that is memory touched
// for the first time, which a second processor halves); without, one
// after the other. Both read the same graph.
func Read(data string, parallel bool) (*graph.Tables, error) {
	if len(data) < len(magic) || data[:len(magic)] != magic {
		return nil, errors.New("not a snapshot of this version")
	}
	r := &reader{b: data[len(magic):]}
	t := &graph.Tables{
		Version:     r.str(),
		ByDimension: map[dimension.Vector]*graph.Category{},
		Bridges:     map[graph.CategoryPair]*graph.Bridge{},
		Bridged:     map[graph.UnitBridge]*graph.Conversion{},
	}
	r.values()
	cats := make([]graph.Category, r.count())
	t.Categories = make([]*graph.Category, len(cats))
	for i := range cats {
		c := &cats[i]
		c.ID, c.Name, c.Description, c.Minimum = r.str(), r.str(), r.str(), r.str()
		c.Preferred, c.Logarithmic = r.bool(), r.bool()
		c.MinimumRat = r.rat()
		c.Dim = r.dim()
		c.Dimensionless = c.Dim.IsZero()
		c.Coherent = r.factor()
		if r.bool() {
			f := r.factor()
			c.SIFactor = &f
		}
		t.Categories[i] = c
	}
	units := make([]graph.Unit, r.count())
	t.Units = make([]*graph.Unit, len(units))
	for i := range units {
		t.Units[i] = &units[i]
	}
	r.units, r.cats = t.Units, t.Categories
	blocks := make([]string, r.count())
	if len(blocks) == 0 && len(units) > 0 {
		r.fail("%d units in no block", len(units))
	}
	for i := range blocks {
		blocks[i] = r.str()
	}
	// The units' documentation, decoded on first use.
	docBlock := r.str()
	docs := graph.NewDocs(func() []graph.Doc { return readDocs(docBlock, len(units)) })
	if r.err != nil {
		return nil, r.err
	}
	// The units' blocks; what follows them refers to units only by
	// their place, which their pointers already have.
	unitErrs := make([]error, len(blocks))
	var wg sync.WaitGroup
	for i, b := range blocks {
		lo, hi := blockRange(i, len(blocks), len(units))
		decode := func() { unitErrs[i] = r.sub(b).unitsIn(units[lo:hi], docs, lo) }
		if parallel {
			wg.Go(decode)
		} else {
			decode()
		}
	}
	defer wg.Wait() // on an early return too: no goroutine outlives Read
	for _, c := range t.Categories {
		c.Base = r.unit()
		c.Units = make([]*graph.Unit, r.count())
		for j := range c.Units {
			c.Units[j] = r.unit()
		}
		if i := r.int(); i > 0 && i <= len(t.Categories) {
			c.Interval = t.Categories[i-1]
		}
		c.MixingRatio = r.bool()
	}
	t.BySymbol, t.ByWord = r.nameTable(), r.nameTable()
	t.MaxName = r.int()
	// Every spelling, for suggestions: checked now, decoded on the first
	// unknown name (graph.Tables.Spellings).
	refs := r.refs
	if spellings := r.block(func(b *reader) { b.spellings(false) }); r.err == nil {
		t.Spellings = func() []graph.Spelling { return refs.sub(spellings).spellings(true) }
	}
	t.Ambiguous = make(map[string]*graph.Ambiguity)
	for range r.count() {
		key := r.str()
		a := &graph.Ambiguity{Name: r.str(), Note: r.str()}
		a.Candidates = make([]*graph.Unit, r.count())
		for j := range a.Candidates {
			a.Candidates[j] = r.unit()
		}
		t.Ambiguous[key] = a
		t.MaxName = max(t.MaxName, len(key))
	}
	for range r.count() {
		d := r.dim()
		t.ByDimension[d] = r.category()
	}
	bridges := make([]*graph.Bridge, r.count())
	for i := range bridges {
		from, to := r.category(), r.category()
		br := &graph.Bridge{From: r.unit(), To: r.unit()}
		if s := r.strs(); len(s) == 3 {
			br.Factor, br.Source, br.Note = s[0], s[1], s[2]
		}
		br.Exact = r.bool()
		br.SI = r.factor()
		bridges[i] = br
		t.Bridges[graph.CategoryPair{From: from, To: to}] = br
	}
	for range r.count() {
		u := r.unit()
		i := r.int()
		c := new(graph.Conversion)
		r.conversion(c)
		if i >= 0 && i < len(bridges) {
			t.Bridged[graph.UnitBridge{Unit: u, Bridge: bridges[i]}] = c
		}
	}
	// The claims on the code tables: checked now, decoded on the first
	// name that needs them (claim.Index.Claimed).
	if claims := r.block(func(b *reader) { b.claims(false) }); r.err == nil {
		t.Claims = func() (map[string]map[string]*graph.Unit, map[string]map[string]string) {
			return refs.sub(claims).claims(true)
		}
	}
	if r.err == nil && len(r.b) > 0 {
		r.fail("%d bytes after the end", len(r.b))
	}
	wg.Wait()
	for _, err := range unitErrs {
		if err != nil {
			return nil, err
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	return t, nil
}

// unitsIn reads a block of units into units, which it fills in; their
// documentation is docs' from the index first on.
func (r *reader) unitsIn(units []graph.Unit, docs *graph.Docs, first int) error {
	for i := range units {
		units[i].SetDocs(docs, first+i)
		r.unitFields(&units[i])
		if r.err != nil {
			return r.err
		}
	}
	if len(r.b) > 0 {
		r.fail("%d bytes after the end of a block of units", len(r.b))
	}
	return r.err
}

// unitFields reads what a unit is (writer.unitFields) into u.
func (r *reader) unitFields(u *graph.Unit) {
	u.Category = r.category()
	u.Symbol, u.Name, u.Plural = r.str(), r.str(), r.str()
	u.Aliases, u.Symbols = r.strs(), r.strs()
	u.System = r.str()
	u.Exact = r.bool()
	u.Prefixed = r.unit()
	u.Codes = r.codes()
	r.conversion(&u.Conv)
	switch r.int() {
	case 1:
		u.SI = &u.Conv
	case 2:
		u.SI = new(graph.Conversion)
		r.conversion(u.SI)
	}
	u.Coherent = r.factor()
	if r.bool() {
		u.AsInterval = new(graph.Conversion)
		r.conversion(u.AsInterval)
	}
}

// readDocs decodes the units' documentation (writer.unitDoc): n of them,
// or fewer when data does not read, which leaves the rest without (a
// restore does not check what it decodes only on first use).
func readDocs(data string, n int) []graph.Doc {
	r := &reader{b: data}
	docs := make([]graph.Doc, 0, n)
	for range n {
		var d graph.Doc
		d.Description = r.str()
		if k := r.count(); k == 6 {
			d.Definition = graph.Definition{Kind: r.str(), Unit: r.str(), Factor: r.str(), Offset: r.str(), To: r.str(), From: r.str()}
		} else {
			r.fail("a definition of %d parts", k)
		}
		d.Source = r.str()
		if k := r.count(); k > 0 {
			d.Examples = r.examples(k)
			for j := range d.Examples {
				if k := r.count(); k != 4 {
					r.fail("an example of %d parts", k)
					break
				}
				d.Examples[j] = graph.Example{Value: r.str(), From: r.str(), To: r.str(), Result: r.str(), Approx: r.bool()}
			}
		}
		if r.err != nil {
			break
		}
		docs = append(docs, d)
	}
	return docs
}

// writer writes a snapshot: signed varints, strings with their length,
// integers as their sign and big-endian bytes, and maps, rationals and
// formulas as their number in the table of values.
type writer struct {
	b     []byte
	units map[*graph.Unit]int
	cats  map[*graph.Category]int
	// The table of values (values): the rationals, maps and formulas the
	// body names by number, each written once. index numbers them by
	// their kind and text.
	rats     []*big.Rat
	maps     []*exact.Map
	formulas [][2]string
	index    map[string]int
}

// values writes the table of values. Of the shipped catalog's 2,205
// unit maps 619 differ, and of its 2,202 factors 605: a reader decodes
// and checks each once, and the units share it (maps and rationals are
// never modified once built).
func (w *writer) values() {
	w.int(len(w.rats))
	for _, r := range w.rats {
		w.bigint(r.Num())
		w.bigint(r.Denom())
	}
	w.int(len(w.maps))
	for _, m := range w.maps {
		a, b, c, d := m.Coefficients()
		for _, x := range [4]*big.Int{a, b, c, d} {
			w.bigint(x)
		}
		w.int(m.K())
	}
	w.int(len(w.formulas))
	for _, f := range w.formulas {
		w.str(f[0])
		w.str(f[1])
	}
}

// ref writes a value of the table as its number plus one, numbering it
// with add the first time key names it.
func (w *writer) ref(key string, add func() int) {
	n, ok := w.index[key]
	if !ok {
		n = add()
		w.index[key] = n
	}
	w.int(n + 1)
}

func (w *writer) int(n int) { w.b = binary.AppendVarint(w.b, int64(n)) }

func (w *writer) bool(v bool) {
	if v {
		w.b = append(w.b, 1)
	} else {
		w.b = append(w.b, 0)
	}
}

func (w *writer) str(s string) {
	w.b = binary.AppendUvarint(w.b, uint64(len(s)))
	w.b = append(w.b, s...)
}

func (w *writer) strs(ss []string) {
	w.int(len(ss))
	for _, s := range ss {
		w.str(s)
	}
}

// unit writes a unit as its index plus one, 0 for none.
func (w *writer) unit(u *graph.Unit) {
	if u == nil {
		w.int(0)
		return
	}
	w.int(w.units[u] + 1)
}

// bigint writes an integer as its sign and its magnitude's big-endian
// bytes.
func (w *writer) bigint(x *big.Int) {
	w.int(x.Sign())
	w.str(string(x.Bytes()))
}

// rat writes a rational as its number in the table, 0 for nil.
func (w *writer) rat(r *big.Rat) {
	if r == nil {
		w.int(0)
		return
	}
	w.ref("r"+r.String(), func() int {
		w.rats = append(w.rats, r)
		return len(w.rats) - 1
	})
}

func (w *writer) factor(f exact.Factor) {
	w.rat(f.R)
	w.int(f.K)
}

func (w *writer) dim(d dimension.Vector) {
	for _, e := range d {
		w.int(e)
	}
}

func (w *writer) codes(c *graph.UnitCodes) {
	n := 0
	for _, s := range codes.Systems {
		if c.Get(s) != "" {
			n++
		}
	}
	w.int(n)
	for _, s := range codes.Systems {
		if code := c.Get(s); code != "" {
			w.str(s)
			w.str(code)
		}
	}
}

// exactMap writes a map as its number in the table, 0 for nil.
func (w *writer) exactMap(m *exact.Map) {
	if m == nil {
		w.int(0)
		return
	}
	a, b, c, d := m.Coefficients()
	w.ref(fmt.Sprint("m", a, b, c, d, m.K()), func() int {
		w.maps = append(w.maps, m)
		return len(w.maps) - 1
	})
}

func (w *writer) decimal(d *apd.Decimal) { w.str(d.String()) }

func (w *writer) conversion(c *graph.Conversion) {
	w.exactMap(c.Map)
	w.exactMap(c.Pre)
	w.exactMap(c.Post)
	if f := c.Formula; f == nil {
		w.int(0)
	} else {
		w.ref("f"+f.ToSrc+"\x00"+f.FromSrc, func() int {
			w.formulas = append(w.formulas, [2]string{f.ToSrc, f.FromSrc})
			return len(w.formulas) - 1
		})
	}
	w.bool(c.FormulaUnit)
	w.bool(c.Exact)
	w.bool(c.AnySign)
	w.bool(c.Bound != nil)
	if b := c.Bound; b != nil {
		w.decimal(&b.A)
		w.decimal(&b.B)
		w.decimal(&b.Min)
	}
}

// reader reads a snapshot; the first fault stops it (err), and every
// read after returns zero values.
//
// The graph's many small slices and integers are cut from shared blocks
// (slab): a restore makes a few hundred allocations rather than tens of
// thousands, and touches fewer pages of memory, which is most of what a
// process that converts once spends on it. Each piece is cut with its
// capacity at its length, so that an append to one never writes into the
// next.
type reader struct {
	b   string // what is left to read; strings read are views of it
	err error
	refs

	strSlab     []string
	exampleSlab []graph.Example
	wordSlab    []big.Word
	intSlab     []big.Int
	ratSlab     []big.Rat
	one         *big.Rat // what rat copies each rational from
	zero        *big.Int // every zero coefficient of a map
}

// slab cuts n elements from *block, making a new block of at least
// chunk elements when it has fewer than n left.
func slab[T any](block *[]T, n, chunk int) []T {
	if len(*block) < n {
		*block = make([]T, max(n, chunk))
	}
	s := (*block)[:n:n]
	*block = (*block)[n:]
	return s
}

func (r *reader) examples(n int) []graph.Example { return slab(&r.exampleSlab, n, 256) }

// block reads a block (writer.block), checking it with check, which
// reads it through, and returns it to be read again later.
func (r *reader) block(check func(*reader)) string {
	b := r.str()
	if r.err != nil {
		return ""
	}
	sub := r.sub(b)
	check(sub)
	switch {
	case sub.err != nil:
		r.fail("%v", sub.err)
	case len(sub.b) > 0:
		r.fail("%d bytes after the end of a block", len(sub.b))
	}
	return b
}

// refs are what the parts of a snapshot refer to by number: its units
// and categories, and the values of its table (writer.values). Each
// formula pair is shared by the units defined through it.
type refs struct {
	units    []*graph.Unit
	cats     []*graph.Category
	rats     []*big.Rat
	maps     []*exact.Map
	formulas []*formula.Pair
}

// sub returns a reader of b, a block of a snapshot whose references are
// read already; it shares nothing with other readers but them, which it
// only reads.
func (f refs) sub(b string) *reader { return &reader{b: b, refs: f} }

// values reads the table of values (writer.values).
func (r *reader) values() {
	r.rats = make([]*big.Rat, r.count())
	for i := range r.rats {
		r.rats[i] = r.newRat()
	}
	r.maps = make([]*exact.Map, r.count())
	for i := range r.maps {
		r.maps[i] = r.newMap()
	}
	r.formulas = make([]*formula.Pair, r.count())
	for i := range r.formulas {
		r.formulas[i] = formula.Deferred(r.str(), r.str())
	}
}

// ref reads a number of a value of the table of n: its index, or -1 for
// none (0) or a number out of range.
func (r *reader) ref(n int) int {
	i := r.int()
	if i < 0 || i > n {
		r.fail("value %d of %d", i, n)
		return -1
	}
	return i - 1
}

// spellings reads the spellings; with keep false it only reads them
// through, allocating nothing.
func (r *reader) spellings(keep bool) []graph.Spelling {
	n := r.count()
	var out []graph.Spelling
	if keep {
		out = make([]graph.Spelling, n)
	}
	for i := range n {
		s := graph.Spelling{Text: r.str(), Unit: r.unit()}
		if keep {
			out[i] = s
		}
	}
	return out
}

// claims reads the claims on the code tables and the codes kept
// unclaimed; with keep false it only reads them through.
func (r *reader) claims(keep bool) (claimed map[string]map[string]*graph.Unit, unclaimed map[string]map[string]string) {
	if keep {
		claimed, unclaimed = map[string]map[string]*graph.Unit{}, map[string]map[string]string{}
	}
	for _, system := range codes.Systems {
		n := r.count()
		var m map[string]*graph.Unit
		if keep {
			m = make(map[string]*graph.Unit, n)
			claimed[system] = m
		}
		for range n {
			code, u := r.str(), r.unit()
			if keep {
				m[code] = u
			}
		}
		n = r.count()
		var reasons map[string]string
		if keep {
			reasons = make(map[string]string, n)
			unclaimed[system] = reasons
		}
		for range n {
			code, reason := r.str(), r.str()
			if keep {
				reasons[code] = reason
			}
		}
	}
	return claimed, unclaimed
}

func (r *reader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf(format, args...)
	}
	r.b = ""
}

func (r *reader) int() int {
	v, n := varint.Signed(r.b)
	if n <= 0 {
		r.fail("truncated")
		return 0
	}
	r.b = r.b[n:]
	return int(v)
}

// count reads a length, bounded by what is left to read.
func (r *reader) count() int {
	n := r.int()
	if n < 0 || n > len(r.b)+1 {
		r.fail("a count of %d", n)
		return 0
	}
	return n
}

func (r *reader) bool() bool {
	if len(r.b) == 0 {
		r.fail("truncated")
		return false
	}
	v := r.b[0] == 1
	r.b = r.b[1:]
	return v
}

func (r *reader) str() string {
	n, k := varint.Unsigned(r.b)
	if k <= 0 || n > uint64(len(r.b)-k) {
		r.fail("truncated")
		return ""
	}
	s := r.b[k : k+int(n)]
	r.b = r.b[k+int(n):]
	return s
}

func (r *reader) strs() []string {
	n := r.count()
	if n == 0 {
		return nil
	}
	out := slab(&r.strSlab, n, 1024)
	for i := range out {
		out[i] = r.str()
	}
	return out
}

func (r *reader) unit() *graph.Unit {
	i := r.int()
	switch {
	case i == 0:
		return nil
	case i < 0 || i > len(r.units):
		r.fail("unit %d", i)
		return nil
	}
	return r.units[i-1]
}

func (r *reader) category() *graph.Category {
	i := r.int()
	if i < 0 || i >= len(r.cats) {
		r.fail("category %d", i)
		return nil
	}
	return r.cats[i]
}

// coefficient reads a coefficient of a map. Maps never change their
// coefficients, so every zero is one and the same big.Int: a linear map
// has two.
func (r *reader) coefficient() *big.Int {
	if len(r.b) >= 2 && r.b[0] == 0 && r.b[1] == 0 { // sign 0, no bytes
		r.b = r.b[2:]
		if r.zero == nil {
			r.zero = new(big.Int)
		}
		return r.zero
	}
	x := &slab(&r.intSlab, 1, 512)[0]
	r.bigintTo(x)
	return x
}

// bigintTo reads an integer into x, its words cut from the shared block.
func (r *reader) bigintTo(x *big.Int) {
	sign := r.int()
	b := r.str()
	const wordBytes = bits.UintSize / 8
	words := slab(&r.wordSlab, (len(b)+wordBytes-1)/wordBytes, 2048)
	// b is big-endian; words are least significant first.
	for i := range words {
		var w big.Word
		for j := max(len(b)-(i+1)*wordBytes, 0); j < len(b)-i*wordBytes; j++ {
			w = w<<8 | big.Word(b[j])
		}
		words[i] = w
	}
	x.SetBits(words)
	if sign < 0 {
		x.Neg(x)
	}
}

// rat reads a rational of the table, or nil.
func (r *reader) rat() *big.Rat {
	if i := r.ref(len(r.rats)); i >= 0 {
		return r.rats[i]
	}
	return nil
}

// newRat reads a rational of the table, which the snapshot holds in
// lowest terms with a positive denominator (big.Rat's normal form).
func (r *reader) newRat() *big.Rat {
	if r.one == nil {
		r.one = big.NewRat(1, 1)
	}
	x := &slab(&r.ratSlab, 1, 256)[0]
	// x starts as a copy of 1, whose denominator is set, so that Denom
	// returns x's own (a Rat's zero value would answer a new Int on each
	// call); both parts are then replaced, and x shares nothing with one.
	*x = *r.one
	num, den := x.Num(), x.Denom()
	r.bigintTo(num)
	r.bigintTo(den)
	if den.Sign() <= 0 || !coprime(num, den) {
		r.fail("a rational %s/%s not in lowest terms", num, den)
		return nil
	}
	return x
}

// coprime reports whether a and b have no common divisor but 1, in
// machine words when both fit one.
func coprime(a, b *big.Int) bool {
	x, xok := smallAbs(a)
	y, yok := smallAbs(b)
	if xok && yok {
		for y != 0 {
			x, y = y, x%y
		}
		return x == 1
	}
	return exact.Coprime(a, b)
}

// smallAbs returns |x| when it fits 64 bits.
func smallAbs(x *big.Int) (uint64, bool) {
	if x.BitLen() > 64 {
		return 0, false
	}
	var v uint64
	ws := x.Bits() // one word of 64 bits, or two of 32
	for i := len(ws) - 1; i >= 0; i-- {
		v = v<<(bits.UintSize%64) | uint64(ws[i])
	}
	return v, true
}

func (r *reader) factor() exact.Factor {
	return exact.Factor{R: r.rat(), K: r.int()}
}

func (r *reader) dim() dimension.Vector {
	var d dimension.Vector
	for i := range d {
		d[i] = r.int()
	}
	return d
}

func (r *reader) codes() graph.UnitCodes {
	var c graph.UnitCodes
	for range r.count() {
		system, code := r.str(), r.str()
		if code == "" || !c.Set(system, code) {
			r.fail("a code %q of system %q", code, system)
			break
		}
	}
	return c
}

// exactMap reads a map of the table, or nil.
func (r *reader) exactMap() *exact.Map {
	if i := r.ref(len(r.maps)); i >= 0 {
		return r.maps[i]
	}
	return nil
}

// newMap reads a map of the table.
func (r *reader) newMap() *exact.Map {
	a, b, c, d := r.coefficient(), r.coefficient(), r.coefficient(), r.coefficient()
	k := r.int()
	if r.err != nil {
		return nil
	}
	m, err := exact.FromLowestTerms(a, b, c, d, k)
	if err != nil {
		r.fail("a map: %v", err)
	}
	return m
}

func (r *reader) decimal(d *apd.Decimal) {
	if _, _, err := d.SetString(r.str()); err != nil {
		r.fail("a decimal: %v", err)
	}
}

func (r *reader) conversion(c *graph.Conversion) {
	c.Map, c.Pre, c.Post = r.exactMap(), r.exactMap(), r.exactMap()
	if i := r.ref(len(r.formulas)); i >= 0 {
		c.Formula = r.formulas[i]
	}
	c.FormulaUnit, c.Exact, c.AnySign = r.bool(), r.bool(), r.bool()
	if r.bool() {
		c.Bound = new(graph.Bound)
		r.decimal(&c.Bound.A)
		r.decimal(&c.Bound.B)
		r.decimal(&c.Bound.Min)
	}
}

// nameTable writes the names as a table (graph.Names.Encode).
func (w *writer) nameTable(names graph.Names) {
	count, size, recs, slots := names.Encode(func(u *graph.Unit) int { return w.units[u] })
	w.int(count)
	w.int(size)
	w.str(string(recs))
	w.str(string(slots))
}

// nameTable reads a table of names (graph.NamesOfTable).
func (r *reader) nameTable() graph.Names {
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
