package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/internal/plan"
	"github.com/unitd/unitd/engine/substance"
)

// Measurands with their own equations
//
// A measurand (package substance, Measurand) reports one quantity on
// several scales whose units a published equation relates, not a factor:
// HbA1c in NGSP % and IFCC mmol/mol. When a request names the measurand
// and each of its two units is in one of the measurand's scales, the
// conversion takes the units to their scales' units by factors (across
// kinds through a scale's substance: estimated average glucose in mmol/L
// is glucose), then follows the route of equations between the two
// scales: all of it one exact affine map, rounded once. A unit is in a
// scale when it is the scale's unit (for a dimensionless scale, whose
// units would otherwise all convert to each other: by its canonical
// symbol, so % is NGSP and mmol/mol IFCC), or, for a scale with a
// dimension, when it converts to the scale's unit.
//
// Without the measurand, a conversion between two units of its
// dimensionless scales (% → mmol/mol) is the plain ratio it always was,
// and the answer carries a hint naming the measurand whose equation
// relates the two differently.

// The measurand catalog's declarations and records (package substance).
type (
	MeasurandSpec        = substance.MeasurandSpec
	ScaleSpec            = substance.ScaleSpec
	EquationSpec         = substance.EquationSpec
	MeasurandExampleSpec = substance.MeasurandExampleSpec
	Measurand            = substance.Measurand
	EquationStep         = substance.Step
)

// measurandInfo is a measurand compiled against the graph: each scale's
// unit resolved, with the values of its substance (plan.Measurand).
type measurandInfo struct {
	s *Substance
	plan.Measurand
}

// compileMeasurands resolves every measurand's scales, checks that a unit
// can be in one scale only, converts the worked examples, and builds the
// hints for conversions that a measurand relates differently.
func (b *extrasBuilder) compileMeasurands() {
	x := b.x
	for _, s := range x.sub.Substances() {
		if s.Measurand == nil {
			continue
		}
		mi, ok := b.measurandInfo(s)
		if !ok {
			continue
		}
		x.own[s].measurand = mi
		for _, ex := range s.Measurand.Examples {
			b.checkMeasurandExample(mi, ex)
		}
		b.measurandHints(mi)
	}
}

func (b *extrasBuilder) measurandInfo(s *Substance) (*measurandInfo, bool) {
	g := b.g
	mi := &measurandInfo{s: s, Measurand: plan.Measurand{M: s.Measurand}}
	subject := fmt.Sprintf("measurand %q", s.ID)
	ok := true
	for _, sc := range s.Measurand.Scales {
		si := plan.Scale{Scale: sc}
		var err error
		if si.Side, err = g.resolve(sc.Unit); err != nil {
			b.errorf(sc.Origin, subject, "scale %s: unit: %v", sc.Name, substance.Message(err))
			ok = false
			continue
		}
		if c := si.Side.Conversion(); c == nil || c.Map == nil || c.FormulaUnit || c.Map.K() != 0 || c.Map.HasPole() {
			b.errorf(sc.Origin, subject, "scale %s: unit %s is not linear or affine: an equation needs a unit with one exact map", sc.Name, sc.Unit)
			ok = false
			continue
		}
		if sc.Substance != nil {
			si.Values = &b.x.own[sc.Substance].Values
		}
		mi.Scales = append(mi.Scales, si)
	}
	if !ok {
		return nil, false
	}
	// A unit in two scales could not say which it is.
	for i, a := range mi.Scales {
		for _, c := range mi.Scales[i+1:] {
			if g.planner().Overlap(a, c, accelerated()) {
				b.errorf(c.Scale.Origin, subject, "scales %s (%s) and %s (%s) have units that convert to each other: a unit could not say which scale it is in", a.Scale.Name, a.Scale.Unit, c.Scale.Name, c.Scale.Unit)
				ok = false
			}
		}
	}
	return mi, ok
}

// measurandPlan plans a conversion of the measurand mi between two sides
// (plan.Planner.Measured).
func (g *Graph) measurandPlan(from, to plan.Side, mi *measurandInfo) (plan.Plan, bool) {
	return g.planner().Measured(&mi.Measurand, from, to, accelerated())
}

// measurandPair plans a pair of names whose units the measurand p names
// relates (measurandPlan), keeps it where cachedAcross finds it, and
// returns it; nil when a name does not resolve or is in none of the
// measurand's scales.
func (g *Graph) measurandPair(from, to string, p *Properties) *pairEntry {
	fs, err := g.resolve(from)
	if err != nil {
		return nil
	}
	ts, err := g.resolve(to)
	if err != nil {
		return nil
	}
	pl, ok := g.measurandPlan(fs, ts, p.measurand)
	if !ok {
		return nil
	}
	e := &pairEntry{FromSide: fs, ToSide: ts, Plan: pl}
	e.SetRoute()
	switch {
	case pl.Err != nil:
	case (p.shared || p.interned) && g.pairs != nil:
		g.pairs.Put(from, to, fs, ts, &pl, p, p.hashSeed())
	case !p.shared && !p.interned:
		g.cross.put(newCrossKey(from, to, p), e)
	}
	return e
}

// checkMeasurandExample converts a measurand's worked example and compares
// the result, as checkExample does for a unit's.
func (b *extrasBuilder) checkMeasurandExample(mi *measurandInfo, ex substance.MeasurandExample) {
	fail := func(format string, args ...any) {
		b.errorf(ex.Origin, fmt.Sprintf("measurand %q: example %q", mi.s.ID, ex.String()), format, args...)
	}
	v, err := ParseValue(ex.Value)
	if err != nil {
		fail("value: %v", err)
		return
	}
	want, err := ParseValue(ex.Result)
	if err != nil {
		fail("result: %v", err)
		return
	}
	from, err := b.g.resolve(ex.From)
	if err != nil {
		fail("%v", substance.Message(err))
		return
	}
	to, err := b.g.resolve(ex.To)
	if err != nil {
		fail("%v", substance.Message(err))
		return
	}
	pl, ok := b.g.measurandPlan(from, to, mi)
	if !ok {
		fail("%s and %s are not both in scales of the measurand", ex.From, ex.To)
		return
	}
	p := MaxPrecision
	if ex.Approx {
		p = int(want.NumDigits())
	}
	var out exact.Decimal
	inexact, err := pl.Run(&out, &v, p, nil, accelerated())
	if err != nil {
		fail("%v", substance.Message(err))
		return
	}
	if got, w := out.String(), FormatDecimal(&want); got != w {
		fail("wrong result: %s %s", got, pl.Unit)
	} else if inexact != ex.Approx {
		fail("the result is %s: write it with %s", map[bool]string{true: "rounded", false: "exact"}[inexact], map[bool]string{true: "≈", false: "="}[inexact])
	}
}

// measurandHint is the hint of a conversion from one unit to another, by
// their canonical symbols. A graph has a few: a scan of them costs less
// than hashing the two symbols.
type measurandHint struct {
	from, to, text string
}

// measurandHints records, for each two dimensionless scales of a
// measurand whose units convert as a plain ratio, the hint such a
// conversion carries when it does not name the measurand.
func (b *extrasBuilder) measurandHints(mi *measurandInfo) {
	g := b.g
	for _, a := range mi.Scales {
		for _, c := range mi.Scales {
			if a.Scale == c.Scale || !a.Side.Dim().IsZero() || !c.Side.Dim().IsZero() {
				continue
			}
			if _, err := g.planner().Plan(a.Side, c.Side, accelerated()); err != nil {
				continue
			}
			route := mi.M.Route(a.Scale, c.Scale)
			var names []string
			for _, st := range route {
				names = append(names, "the "+st.Equation.Name)
			}
			b.x.measurandHints = append(b.x.measurandHints, measurandHint{from: a.Side.Symbol(), to: c.Side.Symbol()})
			b.x.measurandHints[len(b.x.measurandHints)-1].text = fmt.Sprintf("converted as a plain ratio; for %s (substance %q), %s %s and %s %s are related by %s instead",
				mi.s.Name, mi.s.ID, a.Scale.Name, a.Scale.Unit, c.Scale.Name, c.Scale.Unit, strings.Join(names, " and "))
		}
	}
}

// successHint sets res.Hint() when a conversion that followed no equation
// is between two units that a measurand relates by one (% → mmol/mol,
// HbA1c): the answer is the plain ratio, and the hint names the
// measurand. Only dimensionless results are looked at: every conversion
// asks, and the test inlines where it is asked.
func (g *Graph) successHint(res *Result) {
	if c := res.Category; c != nil && c.Dimensionless {
		g.measurandHint(res)
	}
}

// measurandHint is successHint for a dimensionless result.
func (g *Graph) measurandHint(res *Result) {
	if len(res.Equations()) > 0 || len(res.Parts()) > 0 {
		return
	}
	hints := g.extras().measurandHints
	if len(hints) == 0 {
		return
	}
	from := ""
	switch {
	case res.From != nil:
		from = res.From.Symbol
	case res.FromExpression() != nil:
		from = res.FromExpression().Symbol
	}
	for i := range hints {
		if h := &hints[i]; h.to == res.Unit && h.from == from {
			res.hint = &h.text
			return
		}
	}
}

// routeUnits lists the catalog units of the scales a route of equations
// goes through, for Explain.
func (g *Graph) routeUnits(p *Properties, route []EquationStep) []*Unit {
	if p == nil || p.measurand == nil || len(route) == 0 {
		return nil
	}
	var units []*Unit
	add := func(sc *substance.Scale) {
		for _, si := range p.measurand.Scales {
			if si.Scale == sc && si.Side.Unit != nil && !slices.Contains(units, si.Side.Unit) {
				units = append(units, si.Side.Unit)
			}
		}
	}
	add(route[0].From())
	for _, st := range route {
		add(st.To())
	}
	return units
}
