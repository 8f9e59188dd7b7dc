package plan

import (
	"errors"

	"github.com/unitd/unitd/engine/substance"
)

// Scale is a scale of a measurand compiled against a catalog: the scale,
// its unit resolved, and the values of its substance's properties (nil
// when it has none), through which units of other kinds reach it.
type Scale struct {
	Scale  *substance.Scale
	Side   Side
	Values *substance.Values
}

// Measurand is a measurand whose scales are compiled (Scale). The
// catalog's scales do not overlap (Overlap).
type Measurand struct {
	M      *substance.Measurand
	Scales []Scale
}

// Overlap reports whether a unit could be in both scales.
func (pr Planner) Overlap(a, c Scale, words bool) bool {
	if a.Side.Dim().IsZero() && c.Side.Dim().IsZero() {
		return a.Side.Symbol() == c.Side.Symbol()
	}
	_, ok := pr.toScale(a.Side, c, words)
	if !ok {
		_, ok = pr.toScale(c.Side, a, words)
	}
	return ok
}

// toScale plans a side to a scale's unit when the side is in the scale:
// by factors, across kinds through the scale's substance; ok is false
// when the side is in another scale or none.
func (pr Planner) toScale(s Side, sc Scale, words bool) (Plan, bool) {
	if sc.Side.Dim().IsZero() {
		if s.Symbol() != sc.Side.Symbol() {
			return Plan{}, false
		}
	}
	if pl, err := pr.Plan(s, sc.Side, words); err == nil {
		return pl, pl.M != nil
	}
	if sc.Values == nil {
		return Plan{}, false
	}
	pl, err := pr.Across(s, sc.Side, *sc.Values, words)
	return pl, err == nil && pl.M != nil
}

// fromScale plans a scale's unit to a side in the scale (see toScale).
func (pr Planner) fromScale(sc Scale, s Side, words bool) (Plan, bool) {
	if sc.Side.Dim().IsZero() {
		if s.Symbol() != sc.Side.Symbol() {
			return Plan{}, false
		}
	}
	if pl, err := pr.Plan(sc.Side, s, words); err == nil {
		return pl, pl.M != nil
	}
	if sc.Values == nil {
		return Plan{}, false
	}
	pl, err := pr.Across(sc.Side, s, *sc.Values, words)
	return pl, err == nil && pl.M != nil
}

// scaleOf returns the index of the scale s is in, or -1. The catalog's
// scales do not overlap (Overlap), so there is at most one.
func (pr Planner) scaleOf(ms *Measurand, s Side, words bool) int {
	for i, sc := range ms.Scales {
		if _, ok := pr.toScale(s, sc, words); ok {
			return i
		}
	}
	return -1
}

// errMeasurandRoute is a route of equations whose maps do not compose
// with the units' (never, for a catalog that built).
var errMeasurandRoute = errors.New("the measurand's equations do not compose with the units' maps")

// Measured plans a conversion of the measurand ms between two sides:
// through the route of equations between their scales, or, for two units
// of one scale, by factors (across kinds through the scale's substance).
// ok is false when a side is in none of its scales: the conversion is
// then the ordinary one.
func (pr Planner) Measured(ms *Measurand, from, to Side, words bool) (pl Plan, ok bool) {
	a, c := pr.scaleOf(ms, from, words), pr.scaleOf(ms, to, words)
	if a < 0 || c < 0 {
		return Plan{}, false
	}
	sa, sc := ms.Scales[a], ms.Scales[c]
	if a == c {
		if pl, err := pr.Plan(from, to, words); err == nil {
			return pl, true
		}
		if sa.Values == nil {
			return Plan{}, false
		}
		pl, err := pr.Across(from, to, *sa.Values, words)
		return pl, err == nil
	}
	pf, _ := pr.toScale(from, sa, words)
	pt, _ := pr.fromScale(sc, to, words)
	route := ms.M.Route(sa.Scale, sc.Scale)
	pl = Plan{From: pf.From, To: pt.To, FromUnit: from.Unit, FromName: from.Symbol(), Unit: to.Symbol(),
		Category: pt.Category, CategoryID: pt.CategoryID, Reciprocal: pf.Reciprocal,
		Exact: pf.Exact && pt.Exact && substance.RouteExact(route),
		Used:  append(append([]*substance.Property(nil), pf.Used...), pt.Used...), Equations: route,
	}
	m, err := substance.RouteMap(route)
	if err == nil {
		m, err = pf.M.Then(m)
	}
	if err == nil {
		m, err = m.Then(pt.M)
	}
	if err != nil || route == nil {
		pl.Compiled = &Compiled{Err: errMeasurandRoute}
		return pl, true
	}
	pl.Compiled = &Compiled{M: m, Positive: pf.Positive}
	return pl, true
}
