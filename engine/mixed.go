package engine

import (
	"strings"
	"sync"
	"sync/atomic"

	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/mixed"
)

// Mixed units
//
// A mixed unit ("ft+in", "h+min+s", CLDR's "foot-and-inch") is package
// mixed's: its rules, its split and its sum. The graph resolves its parts
// to catalog units (each linear, all of one category) and keeps resolved
// mixed units and their sources in caches bounded for the whole graph.

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
	// sources caches the sources converted from, by name, under the
	// graph's one bound for them (mixedSources).
	sources sync.Map // string → *mixedSource
}

// target is what a conversion converts to: one unit (or expression), or a
// mixed unit.
type target struct {
	side  side
	mixed *mixedUnit
}

func (t target) symbol() string {
	if t.mixed != nil {
		return t.mixed.Symbol
	}
	return t.side.symbol()
}

// largest is the unit thresholds are written in: the target's unit, or
// the first part of a mixed unit.
func (t target) largest() side {
	if t.mixed != nil {
		return side{unit: t.mixed.parts[0]}
	}
	return t.side
}

func (t target) category() *Category {
	if t.mixed != nil {
		return t.mixed.category
	}
	return t.side.category()
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
// differ only in white space are one), like exprCache.
type mixedCache struct {
	m sync.Map // string → *mixedUnit
	n atomic.Int64
}

// resolveMixed resolves a mixed unit's name, through the graph's cache.
func (g *Graph) resolveMixed(name string) (*mixedUnit, error) {
	key := mixed.Key(name)
	if v, ok := g.mixed.m.Load(key); ok {
		return v.(*mixedUnit), nil
	}
	m, err := g.parseMixed(name)
	if err != nil {
		return nil, err
	}
	if g.mixed.n.Add(1) > maxCachedExpressions {
		g.mixed.m.Clear()
		g.mixed.n.Store(1)
	}
	g.mixed.m.Store(strings.Clone(key), m)
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
		f, o, ok := mapFactor(&u.conv)
		if !ok || o.Sign() != 0 || f.R.Sign() <= 0 {
			return nil, errorf(CodeInvalidUnitExpression, "mixed unit %q: part %s is not a linear unit (it has an offset or a formula), so it cannot be counted in whole units", fault.Truncate(name, 60), u.Symbol)
		}
		if first := m.parts[0]; i > 0 && u.Category != first.Category {
			e := errorf(CodeIncompatibleUnits, "mixed unit %q: its parts are of different kinds: %s is %s, %s is %s",
				fault.Truncate(name, 60), first.Symbol, strings.ToLower(first.Category.Name), u.Symbol, strings.ToLower(u.Category.Name))
			e.Details = dimensionDetails(first.Category.dim, u.Category.dim)
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
	if cldr && g.prefs != nil {
		if sym := g.prefs.CatalogUnit(name); sym != "" {
			if u := g.bySymbol[sym]; u != nil {
				return u, nil
			}
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
	return s.unit, nil
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

// mixedSource is a source unit of a mixed target: its pair with the last
// part, and the factor of that pair's map in words when it is linear
// without π and fits them (for mixed.Unit.SplitWords).
type mixedSource struct {
	pe       *pairEntry
	num, den uint64
	words    bool
}

// mixedSources bounds the sources that the mixed units of the graph keep
// (mixedUnit.sources), all of them together: when they exceed
// maxCachedExpressions, every mixed unit holding some forgets them. The
// sources live on their mixed unit, found by the source's name alone,
// because hashing one string is what keeps the look-up cheap.
type mixedSources struct {
	n       atomic.Int64
	holders sync.Map // *mixedUnit → struct{}
}

func (s *mixedSources) add(m *mixedUnit) {
	if s.n.Add(1) > maxCachedExpressions {
		s.holders.Range(func(k, _ any) bool {
			k.(*mixedUnit).sources.Clear()
			return true
		})
		s.holders.Clear()
		s.n.Store(1)
	}
	s.holders.Store(m, struct{}{})
}

// mixedSource returns the source named from of the mixed target m,
// resolved once per name (an accelerator: with the gate closed,
// convertMixed resolves the pair each time and never splits in words).
func (g *Graph) mixedSource(m *mixedUnit, from string) (*mixedSource, error) {
	if v, ok := m.sources.Load(from); ok {
		return v.(*mixedSource), nil
	}
	pe, err := g.pair(from, m.parts[len(m.parts)-1].Symbol)
	if err != nil {
		return nil, err
	}
	src := &mixedSource{pe: pe}
	if pl := &pe.plan; pl.m != nil && pl.err == nil && pl.from.minimum == nil && pl.positive == nil {
		src.num, src.den, src.words = pl.m.LinearWords()
	}
	g.sources.add(m)
	m.sources.Store(strings.Clone(from), src)
	return src, nil
}
