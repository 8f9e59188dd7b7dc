package engine

import (
	"math/rand/v2"
	"strings"
	"sync/atomic"

	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/internal/cache"
	"github.com/unitd/unitd/engine/internal/graph"
	"github.com/unitd/unitd/engine/internal/paircache"
	"github.com/unitd/unitd/engine/internal/plan"
	"github.com/unitd/unitd/engine/mixed"
)

// Mixed units
//
// A mixed unit ("ft+in", "h+min+s", CLDR's "foot-and-inch") is package
// mixed's: its rules, its split and its sum. The graph resolves its parts
// to catalog units (each linear, all of one category), keeps resolved
// mixed units by name (mixedCache: names that differ in white space are
// one entry), and, as an accelerator, whole conversions to them by the
// pair of names (mixedPairs: a table of fixed size).

// Part is one part of a mixed result: a whole number of a unit, or, for
// the last part, the rounded rest.
type Part struct {
	Value string
	Unit  *Unit
}

// mixedUnit is a resolved mixed unit: package mixed's, with its catalog
// units.
type mixedUnit struct {
	*mixed.Unit
	parts    []*Unit
	category *Category
}

// target is what a conversion converts to: one unit (or expression), or a
// mixed unit.
type target struct {
	side  plan.Side
	mixed *mixedUnit
}

func (t target) symbol() string {
	if t.mixed != nil {
		return t.mixed.Symbol
	}
	return t.side.Symbol()
}

// largest is the unit thresholds are written in: the target's unit, or
// the first part of a mixed unit.
func (t target) largest() plan.Side {
	if t.mixed != nil {
		return plan.Side{Unit: t.mixed.parts[0]}
	}
	return t.side
}

func (t target) category() *Category {
	if t.mixed != nil {
		return t.mixed.category
	}
	return t.side.Category()
}

// resolveTarget resolves what a conversion may convert to: a unit, an
// expression or a mixed unit.
func (g *Graph) resolveTarget(name string) (target, error) {
	if mixed.IsName(name) {
		m, err := g.resolveMixed(name)
		return target{mixed: m}, err
	}
	s, err := g.resolve(name)
	return target{side: s}, err
}

// mixedCache holds resolved mixed units by name (mixed.Key: names that
// differ only in white space are one), against the caches' memory budget
// like exprCache.
type mixedCache struct {
	m *cache.Map[string, *mixedUnit]
}

func newMixedCache() mixedCache { return mixedCache{m: cache.New[string, *mixedUnit](nil)} }

// resolveMixed resolves a mixed unit's name, through the graph's cache.
func (g *Graph) resolveMixed(name string) (*mixedUnit, error) {
	key := mixed.Key(name)
	if g.mixed.m == nil {
		return g.parseMixed(name)
	}
	if m, ok := g.mixed.m.Get(key); ok {
		return m, nil
	}
	m, err := g.parseMixed(name)
	if err != nil {
		return nil, err
	}
	// The key may be a view of a request's pooled buffer: the cache
	// keeps a copy of its own.
	key = strings.Clone(key)
	g.mixed.m.Put(key, m, int64(len(key))+int64(len(m.Symbol))+128+48*int64(len(m.parts)))
	return m, nil
}

// parseMixed resolves the parts of a mixed unit's name to catalog units,
// linear and of one category, and builds the mixed unit of them.
func (g *Graph) parseMixed(name string) (*mixedUnit, error) {
	names, cldr, err := mixed.Names(name)
	if err != nil {
		return nil, err
	}
	m := &mixedUnit{parts: make([]*Unit, len(names))}
	parts := make([]mixed.Part, len(names))
	for i, n := range names {
		u, err := g.mixedPart(n, cldr)
		if err != nil {
			return nil, err
		}
		if u == nil {
			return nil, errorf(CodeInvalidUnitExpression, "mixed unit %q: part %q is not a catalog unit; the parts of a mixed unit are units such as ft, in, st, lb", fault.Truncate(name, 60), n)
		}
		f, o, ok := graph.MapFactor(&u.Conv)
		if !ok || o.Sign() != 0 || f.R.Sign() <= 0 {
			return nil, errorf(CodeInvalidUnitExpression, "mixed unit %q: part %s is not a linear unit (it has an offset or a formula), so it cannot be counted in whole units", fault.Truncate(name, 60), u.Symbol)
		}
		if first := m.parts[0]; i > 0 && u.Category != first.Category {
			e := errorf(CodeIncompatibleUnits, "mixed unit %q: its parts are of different kinds: %s is %s, %s is %s",
				fault.Truncate(name, 60), first.Symbol, strings.ToLower(first.Category.Name), u.Symbol, strings.ToLower(u.Category.Name))
			e.Details = plan.DimensionDetails(first.Category.Dim, u.Category.Dim)
			return nil, e
		}
		m.parts[i] = u
		parts[i] = mixed.Part{Symbol: u.Symbol, Factor: f}
	}
	if m.Unit, err = mixed.New(name, parts); err != nil {
		return nil, err
	}
	m.category = m.parts[0].Category
	return m, nil
}

// mixedPart resolves one part of a mixed unit: a catalog unit by symbol or
// alias, or, in a CLDR identifier, a CLDR unit the preference data maps.
func (g *Graph) mixedPart(name string, cldr bool) (*Unit, error) {
	if cldr && g.t.Codes != nil {
		if u := g.t.Codes.Claimant(SystemCLDR, name); u != nil {
			return u, nil
		}
	}
	s, err := g.resolve(name)
	if err != nil && cldr {
		if s2, err2 := g.resolve(strings.ReplaceAll(name, "-", " ")); err2 == nil {
			s, err = s2, nil
		}
	}
	if err != nil {
		return nil, err
	}
	return s.Unit, nil
}

// partsOf pairs the texts of a split with the mixed unit's parts, into
// parts (reused).
func (m *mixedUnit) partsOf(parts []Part, texts *mixed.Parts) []Part {
	parts = parts[:0]
	for i, u := range m.parts {
		parts = append(parts, Part{Value: texts.Value(i), Unit: u})
	}
	return parts
}

// PartsText writes parts as "5 ft 3.5 in".
func PartsText(parts []Part) string {
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(p.Value)
		b.WriteByte(' ')
		b.WriteString(p.Unit.Symbol)
	}
	return b.String()
}

// mixedPair is a conversion to a mixed unit resolved once: the mixed
// unit, the pair from the source to its last part, and the factor of that
// pair's map in words when it is linear without π and fits them (for
// mixed.Unit.SplitWords). Its names are copies, as the pair cache's are.
type mixedPair struct {
	from, to string
	m        *mixedUnit
	pe       *pairEntry
	num, den uint64
	words    bool
}

// mixedPairs keeps conversions to mixed units by the two names asked for
// (the target's as sent, or a chosen mixed unit's symbol): an accelerator
// (convertMixed), in a set-associative table like the pair cache's, fixed
// in size whatever names requests send.
type mixedPairs struct {
	k0, k1 uint64
	sets   [paircache.Sets][paircache.Ways]atomic.Pointer[mixedPair]
}

func newMixedPairs() *mixedPairs { return &mixedPairs{k0: rand.Uint64(), k1: rand.Uint64()} }

// get returns the conversion asked for by the two names, or nil.
func (c *mixedPairs) get(from, to string) *mixedPair {
	set := &c.sets[paircache.Hash(c.k0, c.k1, from, to)%paircache.Sets]
	for i := range set {
		if e := set[i].Load(); e != nil && e.from == from && e.to == to {
			return e
		}
	}
	return nil
}

// put keeps e in a free slot of its set, or over the slot its hash picks.
func (c *mixedPairs) put(e *mixedPair) {
	if len(e.from) > paircache.MaxName || len(e.to) > paircache.MaxName {
		return
	}
	h := paircache.Hash(c.k0, c.k1, e.from, e.to)
	set := &c.sets[h%paircache.Sets]
	for i := range set {
		if set[i].CompareAndSwap(nil, e) {
			return
		}
	}
	set[(h/paircache.Sets)%paircache.Ways].Store(e)
}

// cachedMixed returns the kept conversion of from to the mixed unit asked
// for as to, or nil (always with the gate closed).
func (g *Graph) cachedMixed(from, to string) *mixedPair {
	if !accelerated() || g.mixedPairs == nil {
		return nil
	}
	return g.mixedPairs.get(from, to)
}

// mixedPairOf resolves the conversion of from to the mixed unit m asked
// for as to, and keeps it.
func (g *Graph) mixedPairOf(from, to string, m *mixedUnit) (*mixedPair, error) {
	pe, err := g.pair(from, m.parts[len(m.parts)-1].Symbol)
	if err != nil {
		return nil, err
	}
	e := &mixedPair{from: strings.Clone(from), to: strings.Clone(to), m: m, pe: pe}
	if pl := &pe.Plan; pl.M != nil && pl.Err == nil && pl.From.Bound == nil && pl.Positive == nil {
		e.num, e.den, e.words = pl.M.LinearWords()
	}
	if g.mixedPairs != nil {
		g.mixedPairs.put(e)
	}
	return e, nil
}
