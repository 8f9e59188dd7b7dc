package engine

import (
	"math/big"

	"github.com/unitd/unitd/engine/formula"
	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/mixed"
)

// A request whose value is exact rationals (Request.Exact) converts as
// one whose value is a decimal, except that the value is never written
// as a decimal on the way: the exact map of the pair is evaluated at the
// rational (exact.Map.AtRat) and rounded once. A rational whose decimal
// terminates (3/4) takes the ordinary path as that decimal. to=auto
// compares the value's exact magnitude in its category's base unit with
// the thresholds (exact.CmpAbs), as for a decimal that the thresholds in
// the source unit cannot decide. Only a conversion through a
// transcendental formula needs a decimal on the way: it starts from the
// rational rounded to its working precision and ten digits more, and is
// not exact, as such conversions never are.

// maxExactParts bounds Request.Exact: a mixed unit has at most this many
// parts.
const maxExactParts = 8

// appendExact is appendConvert for a request with Exact set.
func (g *Graph) appendExact(dst []byte, req *Request, res *Result, p int) ([]byte, error) {
	r, from, err := g.exactSource(req)
	if err != nil {
		return dst, err
	}
	if d, ok := exact.ToDecimal(r); ok {
		// A terminating value: the ordinary conversion of its decimal.
		plain := *req
		plain.Exact, plain.From, plain.Value = nil, from, FormatDecimal(&d)
		return g.appendValue(dst, &plain, res, p)
	}
	var t target
	var pref *Preference
	switch {
	case req.To == Auto:
		pref = &res.extra().pref
		if t, err = g.choose(from, nil, r, req, pref); err != nil {
			return dst, err
		}
	case mixed.IsName(req.To):
		if t, err = g.resolveTarget(req.To); err != nil {
			return dst, err
		}
	}
	if t.mixed != nil {
		if err := g.convertMixedExact(r, from, t.mixed, p, res); err != nil {
			return dst, err
		}
		res.more.preference = pref
		return dst, nil
	}
	to := req.To
	props := req.Properties
	if pref != nil {
		to = t.side.Symbol()
		if props == nil && pref.Substance() != "" {
			if s := g.catalogSubstance(pref.Substance()); s != nil {
				props = g.extras().own[s]
			}
		}
	}
	pe, across, err := g.exactPair(from, to, props)
	if err != nil {
		return dst, err
	}
	if across {
		res.Properties = props
	}
	out, err := convertRat(pe, dst, r, p, req.Budget, res)
	if err != nil {
		return dst, err
	}
	if pref != nil {
		res.more.preference = pref
	}
	return out, nil
}

// exactSource returns the value of req.Exact as one rational in one unit:
// the value itself, or a mixed quantity summed in its last part.
func (g *Graph) exactSource(req *Request) (*big.Rat, string, error) {
	n := len(req.Exact)
	if n == 0 || n > maxExactParts {
		return nil, "", errorf(CodeInvalidValue, "an exact value has 1 to %d parts; got %d", maxExactParts, n)
	}
	for _, r := range req.Exact {
		if r == nil {
			return nil, "", errorf(CodeInvalidValue, "an exact value has a missing part")
		}
		if r.Num().BitLen() > exact.MaxBits || r.Denom().BitLen() > exact.MaxBits {
			return nil, "", errorf(CodeInvalidValue, "an exact value is too long (more than %d bits)", exact.MaxBits)
		}
	}
	if !mixed.IsName(req.From) {
		if n != 1 {
			return nil, "", errorf(CodeInvalidValue, "%s takes one value; got %d", req.From, n)
		}
		return req.Exact[0], req.From, nil
	}
	m, err := g.resolveMixed(req.From)
	if err != nil {
		return nil, "", err
	}
	sum, err := m.SumRat(req.Exact)
	if err != nil {
		return nil, "", err
	}
	return sum, m.parts[len(m.parts)-1].Symbol, nil
}

// exactPair resolves and plans the pair from → to as appendConvert does,
// across kinds through props where the two need it.
func (g *Graph) exactPair(from, to string, props *Properties) (pe *pairEntry, across bool, err error) {
	if pe := g.cachedAcross(from, to, props); pe != nil {
		return pe, true, nil
	}
	if pe := g.cachedPair(from, to); pe != nil {
		return pe, false, nil
	}
	pe = new(pairEntry)
	across, err = g.resolveWith(pe, from, to, props)
	return pe, across, err
}

// convertMixedExact is convertMixed for a rational value.
func (g *Graph) convertMixedExact(r *big.Rat, from string, m *mixedUnit, p int, res *Result) error {
	last := m.parts[len(m.parts)-1]
	pe, err := g.pair(from, last.Symbol)
	if err != nil {
		return err
	}
	x := exact.TruncateRat(r, 20)
	val, err := pe.Plan.ValueAtRat(r)
	if err != nil {
		return g.exactError(err, &x, pe, m)
	}
	var parts mixed.Parts
	inexact := m.Split(&parts, &val, p, accelerated())
	pl := &pe.Plan
	res.From, res.To = pe.FromSide.Unit, last
	res.Unit, res.Category, res.CategoryID = m.Symbol, pl.Category, pl.CategoryID
	res.Exact = !inexact && pl.Exact
	res.setMixed(m, &parts, pe)
	return nil
}

// convertRat is convertPair for a rational value.
func convertRat(pe *pairEntry, dst []byte, r *big.Rat, p int, budget *Budget, res *Result) ([]byte, error) {
	pl := &pe.Plan
	if pl.Err != nil {
		return dst, pl.Err
	}
	var out exact.Decimal
	var inexact bool
	if pl.M != nil {
		v, err := pl.ValueAtRat(r)
		if err != nil {
			return dst, err
		}
		out, inexact = roundValue(&v, p)
	} else {
		// Through a formula: in decimals at the working precision.
		x := exact.TruncateRat(r, int(formula.Work(p).Precision)+10)
		if _, err := pl.Run(&out, &x, p, budget, accelerated()); err != nil {
			return dst, err
		}
		inexact = true
	}
	res.From, res.To, res.route = pe.FromSide.Unit, pe.ToSide.Unit, pe.Route
	if rt := pe.Route; rt != nil && rt.Equations != nil {
		// A rational converts along the pair's map without naming the
		// equations it follows.
		m := res.extra()
		m.route = *rt
		m.route.Equations = nil
		res.route = &m.route
	}
	res.Unit, res.Category, res.CategoryID = pl.Unit, pl.Category, pl.CategoryID
	res.Exact = !inexact && pl.Exact
	return out.Append(dst), nil
}

// CompareUnits compares the sizes of one a and one b, units of one
// category: -1 when one a is less than one b, 0 when equal, +1 when more.
// It compares the units' exact maps onto their category's base (through
// brackets of π where a factor holds π), so it never rounds; a unit with
// an offset or a formula has no size of its own to compare
// (INCOMPATIBLE_UNITS).
func (g *Graph) CompareUnits(a, b *Unit) (int, error) {
	if a.Category != b.Category {
		return 0, errorf(CodeIncompatibleUnits, "%s (%s) and %s (%s) are of different categories", a.Symbol, a.Category.ID, b.Symbol, b.Category.ID)
	}
	ma, mb := a.Conv.Map, b.Conv.Map
	if ma == nil || mb == nil || !ma.IsLinear() || !mb.IsLinear() {
		return 0, errorf(CodeIncompatibleUnits, "%s and %s are not plain multiples of %s", a.Symbol, b.Symbol, a.Category.Base.Symbol)
	}
	m, err := exact.Pair(ma, mb)
	if err != nil {
		return 0, err
	}
	v, err := m.AtRat(big.NewRat(1, 1))
	if err != nil {
		return 0, err
	}
	return v.Compare(big.NewRat(1, 1)), nil
}
