package engine

import (
	"math/big"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/internal/exact"
)

// Mixed units write one quantity as a sum of whole units and a last
// fraction: 5 ft 3.5 in, 11 st 4 lb, 1 h 30 min 0 s. A mixed unit is named
// by its parts joined with "+" ("ft+in", "h+min+s"), or by CLDR's
// identifier ("foot-and-inch"). Its parts are catalog units of one
// category, linear (no offset, no formula), largest first, each a whole
// number of the next (1 ft = 12 in): that is what makes the carries of a
// rounded last part exact.
//
// As a target, the value is split exactly: every part but the last is
// a whole number, the last is rounded once to the requested significant
// digits, and a last part that rounds up to a whole unit of the part
// before it carries (5 ft 11.9999 in to 3 digits is 6 ft 0 in, never 5 ft
// 12 in). A negative quantity puts its sign on its first non-zero part.
//
// As a source, a mixed unit takes one value per part, separated by spaces
// ("5 3.5" in ft+in). The sum is taken exactly in the last part, so the
// conversion is rounded once, as any other.

// maxMixedParts bounds the parts of a mixed unit.
const maxMixedParts = 6

// mixedUnit is a resolved mixed unit.
type mixedUnit struct {
	symbol   string // canonical: the parts' symbols joined by "+"
	parts    []*Unit
	category *Category
	// inLast[i] is part i in units of the last part, a whole number;
	// step[i] is part i in units of part i+1.
	inLast []*big.Int
	step   []*big.Int
	// stepDec holds the steps as decimals, for the carry of a rounded
	// last part; inLastWords and stepWords hold inLast and step in words
	// where they fit (else 0), for splitWords.
	stepDec                []apd.Decimal
	inLastWords, stepWords []uint64
	wordsOK                bool // every inLast and step fits a word
	// sources caches the source units converted from (readable.go).
	sources  sync.Map // string → *mixedSource
	nSources atomic.Int64
}

// Part is one part of a mixed result: a whole number of a unit, or, for
// the last part, the rounded rest.
type Part struct {
	Value string
	Unit  *Unit
}

// isMixedName reports whether name is written as a mixed unit. A UCUM
// code is never one: its + is an exponent's sign (ucum:m+2), and UCUM has
// no mixed units.
func isMixedName(name string) bool {
	if strings.IndexByte(name, '+') < 0 && !strings.Contains(name, "-and-") {
		return false
	}
	return len(name) < len(SystemUCUM)+1 || !strings.EqualFold(name[:len(SystemUCUM)+1], SystemUCUM+":")
}

// mixedCache holds resolved mixed units by name, like exprCache.
type mixedCache struct {
	m sync.Map // string → *mixedUnit
	n atomic.Int64
}

func (c *mixedCache) get(s string) (*mixedUnit, bool) {
	v, ok := c.m.Load(s)
	if !ok {
		return nil, false
	}
	return v.(*mixedUnit), true
}

func (c *mixedCache) put(s string, m *mixedUnit) {
	if c.n.Add(1) > maxCachedExpressions {
		c.m.Clear()
		c.n.Store(1)
	}
	c.m.Store(strings.Clone(s), m)
}

// resolveTarget resolves what a conversion may convert to: a unit, an
// expression or a mixed unit.
func (g *Graph) resolveTarget(name string) (target, error) {
	if isMixedName(name) {
		m, err := g.resolveMixed(name)
		return target{mixed: m}, err
	}
	s, err := g.resolve(name)
	return target{side: s}, err
}

// resolveMixed resolves a mixed unit's name.
func (g *Graph) resolveMixed(name string) (*mixedUnit, error) {
	if m, ok := g.mixed.get(name); ok {
		return m, nil
	}
	m, err := g.parseMixed(name)
	if err != nil {
		return nil, err
	}
	g.mixed.put(name, m)
	return m, nil
}

func (g *Graph) parseMixed(name string) (*mixedUnit, error) {
	bad := func(format string, args ...any) error {
		return errorf(CodeInvalidUnitExpression, "mixed unit %q: "+format, append([]any{fault.Truncate(name, 60)}, args...)...)
	}
	if len(name) > maxExpressionLength {
		return nil, bad("longer than %d bytes", maxExpressionLength)
	}
	var names []string
	cldr := false
	if strings.IndexByte(name, '+') >= 0 {
		names = strings.Split(name, "+")
	} else {
		id := name
		if i := strings.IndexByte(id, ':'); i >= 0 && strings.EqualFold(id[:i], "cldr") {
			id = id[i+1:]
		}
		names = strings.Split(id, "-and-")
		cldr = true
	}
	if len(names) > maxMixedParts {
		return nil, bad("has %d parts; at most %d", len(names), maxMixedParts)
	}
	m := &mixedUnit{}
	symbols := make([]string, len(names))
	for i, n := range names {
		n = strings.TrimSpace(n)
		if n == "" {
			return nil, bad("part %d is empty (write parts such as ft+in)", i+1)
		}
		u, err := g.mixedPart(n, cldr)
		if err != nil {
			return nil, err
		}
		if u == nil {
			return nil, bad("part %q is not a catalog unit; the parts of a mixed unit are units such as ft, in, st, lb", n)
		}
		if f, o, ok := mapFactor(&u.conv); !ok || o.Sign() != 0 || f.R.Sign() <= 0 {
			return nil, bad("part %s is not a linear unit (it has an offset or a formula), so it cannot be counted in whole units", u.Symbol)
		}
		if i > 0 && u.Category != m.parts[0].Category {
			e := errorf(CodeIncompatibleUnits, "mixed unit %q: its parts are of different kinds: %s is %s, %s is %s",
				fault.Truncate(name, 60), m.parts[0].Symbol, strings.ToLower(m.parts[0].Category.Name), u.Symbol, strings.ToLower(u.Category.Name))
			e.Details = dimensionDetails(m.parts[0].Category.dim, u.Category.dim)
			return nil, e
		}
		m.parts = append(m.parts, u)
		symbols[i] = u.Symbol
	}
	if len(m.parts) < 2 {
		return nil, bad("needs at least two parts")
	}
	m.category = m.parts[0].Category
	m.symbol = strings.Join(symbols, "+")
	n := len(m.parts)
	m.inLast = make([]*big.Int, n)
	m.step = make([]*big.Int, n)
	factors := make([]exact.Factor, n)
	for i, u := range m.parts {
		factors[i], _, _ = mapFactor(&u.conv)
	}
	for i := 1; i < n; i++ {
		pm, prev := factors[i], factors[i-1]
		if pm.K == prev.K && pm.R.Cmp(prev.R) >= 0 {
			return nil, bad("the parts must go from the largest to the smallest, but %s is not smaller than %s", m.parts[i].Symbol, m.parts[i-1].Symbol)
		}
	}
	last := factors[n-1]
	for i, u := range m.parts {
		pm := factors[i]
		r := new(big.Rat).Quo(pm.R, last.R)
		if pm.K != last.K || !r.IsInt() {
			return nil, bad("%s is not a whole number of %s; each part must be a whole number of the last", u.Symbol, m.parts[n-1].Symbol)
		}
		m.inLast[i] = new(big.Int).Set(r.Num())
	}
	for i := 0; i+1 < n; i++ {
		q, r := new(big.Int).QuoRem(m.inLast[i], m.inLast[i+1], new(big.Int))
		if r.Sign() != 0 {
			return nil, bad("%s is not a whole number of %s", m.parts[i].Symbol, m.parts[i+1].Symbol)
		}
		m.step[i] = q
	}
	m.step[n-1] = big.NewInt(1)
	m.stepDec = make([]apd.Decimal, n)
	m.inLastWords = make([]uint64, n)
	m.stepWords = make([]uint64, n)
	m.wordsOK = true
	for i := range n {
		m.wordsOK = m.wordsOK && m.inLast[i].IsUint64() && m.step[i].IsUint64()
		m.stepDec[i].Coeff.SetMathBigInt(m.step[i])
		if m.inLast[i].IsUint64() {
			m.inLastWords[i] = m.inLast[i].Uint64()
		}
		if m.step[i].IsUint64() {
			m.stepWords[i] = m.step[i].Uint64()
		}
	}
	return m, nil
}

// mixedPart resolves one part of a mixed unit: a catalog unit by symbol or
// alias, or, in a CLDR identifier, a CLDR unit the preference data maps.
func (g *Graph) mixedPart(name string, cldr bool) (*Unit, error) {
	if cldr && g.codes != nil {
		if u := g.claimant(SystemCLDR, name); u != nil {
			return u, nil
		}
	}
	if cldr && g.prefs != nil {
		if pu := g.prefs.units[name]; pu != nil && pu.target.mixed == nil && pu.target.side.unit != nil {
			return pu.target.side.unit, nil
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
