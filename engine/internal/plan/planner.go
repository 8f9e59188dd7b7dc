package plan

import (
	"errors"
	"math/big"
	"strings"

	"github.com/unitd/unitd/engine/dimension"
	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/internal/graph"
	"github.com/unitd/unitd/engine/substance"
)

// Planner plans the conversions of one catalog: it knows the catalog's
// bridges between kinds of quantity, the bridged maps of its units
// (computed when the catalog was built), and the compiler that composes
// each pair of maps once.
type Planner struct {
	Bridges  map[graph.CategoryPair]*graph.Bridge
	Bridged  map[graph.UnitBridge]*graph.Conversion
	Compiler *Compiler
}

// checkArbitrary refuses a conversion between arbitrary units that are
// not the same unit (under another prefix), and between an arbitrary unit
// and anything else.
func checkArbitrary(from, to Side) *fault.Error {
	fa, ta := "", ""
	if from.Expr != nil {
		fa = from.Expr.Arbitrary
	}
	if to.Expr != nil {
		ta = to.Expr.Arbitrary
	}
	if fa == ta {
		return nil
	}
	arb, which := fa, from.Symbol()
	if arb == "" {
		arb, which = ta, to.Symbol()
	}
	e := fault.Errorf(fault.Incompatible, "cannot convert %s to %s: %s is an arbitrary unit (%s), which converts only to the same unit under another prefix",
		from.Symbol(), to.Symbol(), which, arb)
	e.Details = DimensionDetails(from.Dim(), to.Dim())
	return e
}

// needsError is INCOMPATIBLE_UNITS saying what the conversion lacks.
func needsError(from, to Side, fd, td dimension.Vector, needs []string) *fault.Error {
	parts := make([]string, len(needs))
	for i, n := range needs {
		parts[i] = substance.Needs[n]
	}
	e := fault.Errorf(fault.Incompatible, "%s → %s needs %s", kindOf(from), kindOf(to), strings.Join(parts, "; and "))
	e.Details = DimensionDetails(fd, td)
	e.Needs = needs
	return e
}

// Across plans a conversion across kinds through the values of a
// substance's properties: both sides' maps onto their coherent SI units,
// with the properties' factor between them (Plan.WithFactor). The error
// is ErrNotAcrossKinds when no property relates the two, or
// INCOMPATIBLE_UNITS with what the conversion needs when one would.
// words is Compiler.Compile's.
func (pr Planner) Across(from, to Side, values substance.Values, words bool) (Plan, error) {
	pl := Plan{FromUnit: from.Unit, FromName: from.Symbol(), Unit: to.Symbol()}
	fc, _, err := frameOf(from, to)
	if err != nil {
		return pl, ErrNotAcrossKinds
	}
	tc, tcat, err := frameOf(to, from)
	if err != nil {
		return pl, ErrNotAcrossKinds
	}
	fd, td := from.Dim(), to.Dim()
	mixing := false
	for _, s := range [2]Side{from, to} {
		if s.Dim().IsZero() {
			if cat := s.Category(); cat == nil || !cat.MixingRatio {
				return pl, ErrNotAcrossKinds
			}
			mixing = true
		}
	}
	r, used, needs, ok := substance.Between(fd, td, values, mixing)
	if !ok {
		return pl, ErrNotAcrossKinds
	}
	if len(needs) > 0 {
		return pl, needsError(from, to, fd, td, needs)
	}
	pl.From, pl.To = fc, tc
	pl.setCategory(tcat, td)
	// The factor is the kernel's: the pair's maps with the target's
	// reference value 1/f times the source's, composed into one exact
	// map and rounded once. The plan is not exact, since the properties
	// are measured values.
	pr.finish(&pl, from, to, words)
	pl, err = pl.WithFactor(new(big.Rat).Inv(r), 0)
	if err != nil {
		return pl, ErrNotAcrossKinds
	}
	pl.Used = used
	return pl, nil
}

// ErrNotAcrossKinds says that two units are not related by a property of
// a substance either: the caller reports why they do not convert.
var ErrNotAcrossKinds = errors.New("not related by a substance property")

// Plan maps both sides onto a common reference: the category base when
// both are catalog units of one category, else the coherent SI unit of
// their dimension (through a bridge or as an interval where the catalog
// says so). Sides that cannot meet are INCOMPATIBLE_UNITS. words is
// Compiler.Compile's.
func (pr Planner) Plan(from, to Side, words bool) (Plan, error) {
	pl := Plan{FromUnit: from.Unit, FromName: from.Symbol(), Unit: to.Symbol()}
	if e := checkArbitrary(from, to); e != nil {
		return pl, e
	}
	fu, tu := from.Unit, to.Unit
	if fu != nil && tu != nil && fu.Category == tu.Category {
		pl.From, pl.To, pl.Category = &fu.Conv, &tu.Conv, tu.Category
		pl.CategoryID = pl.Category.ID
		pr.finish(&pl, from, to, words)
		return pl, nil
	}
	if lc := logarithmicCategory(fu, tu); lc != nil {
		e := fault.Errorf(fault.Incompatible, "cannot convert %s to %s: %s is a level on a logarithmic scale and converts only to the other units of %s (%s)",
			from.Describe(), to.Describe(), levelSide(from, to).Symbol(), lc.Name, unitSymbols(lc))
		e.Details = DimensionDetails(from.Dim(), to.Dim())
		return pl, e
	}
	// Across categories or with an expression: onto coherent SI units.
	fc, fcat, ferr := frameOf(from, to)
	tc, tcat, terr := frameOf(to, from)
	if ferr != nil {
		return pl, ferr
	}
	if terr != nil {
		return pl, terr
	}
	fd, td := from.Dim(), to.Dim()
	if fcat != nil {
		fd = fcat.Dim
	}
	if tcat != nil {
		td = tcat.Dim
	}
	switch {
	case fu != nil && tu != nil && fcat == tcat:
		// Two catalog units, one read as an interval of the other's kind.
	case fu != nil && tu != nil && !fcat.Account() && !tcat.Account():
		// Two kinds of the catalog (an account's own kinds convert by
		// dimension, as expressions do: overlay.go).
		br := pr.Bridges[graph.CategoryPair{From: fcat, To: tcat}]
		if br == nil {
			return pl, incompatible(from, to, fd, td)
		}
		pl.Bridge = br
	case fd == td:
	case fd == td.Inverse() && (from.IsReciprocal() || to.IsReciprocal()):
		// A unit defined as an inverse ([diop] = 1/m) meets the reciprocal
		// of its dimension by inversion: 37.5 [diop] is 1/37.5 m.
		inv, ok := inverted(fc)
		if !ok {
			return pl, incompatible(from, to, fd, td)
		}
		fc = inv
	default:
		var br *graph.Bridge
		if fcat != nil && tcat != nil {
			br = pr.Bridges[graph.CategoryPair{From: fcat, To: tcat}]
		}
		if br == nil {
			return pl, incompatible(from, to, fd, td)
		}
		pl.Bridge = br
	}
	if pl.Bridge != nil {
		bc, ok := pr.Bridged[graph.UnitBridge{Unit: fu, Bridge: pl.Bridge}]
		if !ok || fu == nil {
			bc, ok = ThroughBridge(fc, pl.Bridge)
		}
		if !ok {
			return pl, incompatible(from, to, fd, td)
		}
		fc = bc
	}
	pl.From, pl.To = fc, tc
	// The category of the catalog unit, the target's first.
	c := tcat
	if fu != nil && tu == nil && pl.Bridge == nil {
		c = fcat
	}
	pl.setCategory(c, td)
	pr.finish(&pl, from, to, words)
	return pl, nil
}

// setCategory sets the plan's category c, and its id: c's, or the
// dimension d when no category has it.
func (pl *Plan) setCategory(c *graph.Category, d dimension.Vector) {
	pl.Category, pl.CategoryID = c, d.String()
	if c != nil {
		pl.CategoryID = c.ID
	}
}

// finish compiles the plan's pair of maps (once per pair of conversions)
// and says whether its definitions are exact.
func (pr Planner) finish(pl *Plan, from, to Side, words bool) {
	pl.Compiled = pr.Compiler.Compile(pl.From, pl.To, words)
	pl.Exact = pl.From.Exact && pl.To.Exact
	if pl.Positive != nil {
		for _, s := range [2]Side{from, to} {
			if s.Unit != nil && s.Unit.Conv.Map != nil && s.Unit.Conv.Map.HasPole() {
				pl.Reciprocal = s.Unit
				break
			}
		}
	}
}

// frameOf maps s onto the coherent SI unit of its dimension, given the
// other side; it returns the map and the category s then belongs to. A
// scale unit (degC, K) meets an expression or an interval unit only as an
// interval: K and degR, which have no offset, can; degC cannot.
func frameOf(s, other Side) (*graph.Conversion, *graph.Category, error) {
	if s.Unit == nil {
		return &s.Expr.Conv, s.Expr.Category, nil
	}
	u := s.Unit
	c := u.Category
	// An expression is an interval, unless it is a lone unit in
	// parentheses, which keeps its own map ((degC) is a point).
	otherInterval := other.Unit == nil && !other.Expr.Point || other.Unit != nil && other.Unit.Category == c.Interval
	asInterval := c.Interval != nil && otherInterval
	if !asInterval {
		return u.SI, c, nil
	}
	if u.AsInterval == nil {
		return nil, nil, incompatibleScale(s, other)
	}
	return u.AsInterval, c.Interval, nil
}

// inverted returns c followed by x ↦ 1/x: a value of the reciprocal
// dimension. It takes either sign (a diverging lens has a negative
// power and a negative focal length); only zero, its pole, is refused.
func inverted(c *graph.Conversion) (*graph.Conversion, bool) {
	if c.Map == nil {
		return nil, false
	}
	m, err := c.Map.Then(exact.Reciprocal())
	if err != nil {
		return nil, false
	}
	out := *c
	out.Map, out.Bound, out.AnySign = m, nil, true
	return &out, true
}

// ThroughBridge returns c followed by the bridge's factor, or false when
// c has no exact map (a formula).
func ThroughBridge(c *graph.Conversion, br *graph.Bridge) (*graph.Conversion, bool) {
	if c.Map == nil {
		return nil, false
	}
	m, err := c.Map.Scale(br.SI.R, br.SI.K)
	if err != nil {
		return nil, false
	}
	out := *c
	out.Map, out.Bound, out.Exact = m, nil, c.Exact && br.Exact
	return &out, true
}

// DimensionDetails are the details of an INCOMPATIBLE_UNITS error: the
// two dimensions.
func DimensionDetails(from, to dimension.Vector) map[string]string {
	return map[string]string{"from_dimension": from.String(), "to_dimension": to.String()}
}

// incompatible explains why two sides do not convert.
func incompatible(from, to Side, fd, td dimension.Vector) *fault.Error {
	var e *fault.Error
	if fd == td {
		e = fault.Errorf(fault.Incompatible, "cannot convert %s to %s: both have dimension %s, but %s and %s are different kinds of quantity",
			from.Describe(), to.Describe(), fd, kindOf(from), kindOf(to))
	} else {
		e = fault.Errorf(fault.Incompatible, "cannot convert %s to %s: dimension %s is not %s", from.Describe(), to.Describe(), fd, td)
		if m := dimension.Missing(fd, td); m != "" {
			e.Message += "; " + m
		}
	}
	e.Details = DimensionDetails(fd, td)
	return e
}

func kindOf(s Side) string {
	if c := s.Category(); c != nil {
		return strings.ToLower(c.Name)
	}
	return "a unit expression"
}

// incompatibleScale refuses a point on a scale with an offset (degC) where
// an interval is meant.
func incompatibleScale(s, other Side) *fault.Error {
	e := fault.Errorf(fault.Incompatible, "cannot convert between %s and %s: %s is a point on a scale with an offset, which never converts to a %s",
		s.Describe(), other.Describe(), s.Symbol(), strings.ToLower(s.Unit.Category.Interval.Name))
	e.Details = DimensionDetails(s.Dim(), other.Dim())
	return e
}

// logarithmicCategory returns the category of levels one of two units of
// different categories belongs to, or nil.
func logarithmicCategory(fu, tu *graph.Unit) *graph.Category {
	for _, u := range [2]*graph.Unit{fu, tu} {
		if u != nil && u.Category.Logarithmic {
			return u.Category
		}
	}
	return nil
}

// levelSide returns the side whose unit is a level.
func levelSide(from, to Side) Side {
	if from.Unit != nil && from.Unit.Category.Logarithmic {
		return from
	}
	return to
}

// unitSymbols lists a category's unit symbols, comma-separated.
func unitSymbols(c *graph.Category) string {
	var b strings.Builder
	for i, u := range c.Units {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(u.Symbol)
	}
	return b.String()
}
