package engine

import (
	"github.com/unitd/unitd/engine/explain"
	"github.com/unitd/unitd/engine/internal/plan"
)

// Where the digits of a conversion come from (package explain).
type (
	Explanation      = explain.Explanation
	FormulaStep      = explain.FormulaStep
	Step             = explain.Step
	MixedExplanation = explain.Mixed
	MixedPart        = explain.MixedPart
)

// Explain explains a successful conversion of this graph.
func (g *Graph) Explain(r *Result) Explanation {
	ex := Explanation{CatalogVersion: g.t.Version, Preference: r.Preference(), Mixed: r.mixedExplanation()}
	if (r.From == nil) == (r.FromExpression() == nil) || (r.To == nil) == (r.ToExpression() == nil) {
		return ex // not a result of a conversion
	}
	from, to := plan.Side{Unit: r.From, Expr: r.FromExpression()}, plan.Side{Unit: r.To, Expr: r.ToExpression()}
	var pl plan.Plan
	var err error
	// A measurand's pair plans as the conversion did (cachedAcross).
	measured := false
	if p := r.Properties; p != nil && p.measurand != nil && (len(r.Equations()) > 0 || len(r.Used()) > 0) {
		pl, measured = g.measurandPlan(from, to, p.measurand)
	}
	if !measured {
		if pl, err = g.planner().Plan(from, to, accelerated()); err != nil && len(r.Used()) > 0 {
			pl, err = g.crossPlan(from, to, r.Properties)
		}
	}
	if err != nil {
		return ex // a result of this graph always plans again
	}
	for _, p := range pl.Used {
		ex.Properties = append(ex.Properties, *p)
	}
	ex.Equations = pl.Equations
	A, B := pl.From, pl.To
	f, o, affine := pl.Affine()
	switch {
	case A.FormulaUnit || B.FormulaUnit || !affine:
		ex.Kind = "formula"
		for _, u := range []*Unit{r.From, r.To} {
			if u == nil {
				continue
			}
			if d := u.Doc().Definition; d.Kind == "formula" {
				ex.Formulas = append(ex.Formulas, FormulaStep{Unit: u.Symbol, Reference: d.Unit, To: d.To, From: d.From})
			}
		}
	default:
		ex.SetMap(f, o) // y = x·f + o, times π^k
	}
	seen := map[*Unit]bool{}
	side := func(u *Unit, e *Expression) {
		if u != nil {
			ex.Steps = append(ex.Steps, explain.Chain(u, 0, seen, g.definitionRef)...)
			return
		}
		for _, t := range e.Terms {
			if t.Unit != nil {
				ex.Steps = append(ex.Steps, explain.Chain(t.Unit, t.Exponent, nil, g.definitionRef)...)
			}
		}
		if e.Code != "" {
			ex.Steps = append(ex.Steps, g.codeStep(e))
		}
	}
	side(r.From, r.FromExpression())
	// The units the equations are written in, between the two.
	for _, u := range g.routeUnits(r.Properties, pl.Equations) {
		ex.Steps = append(ex.Steps, explain.Chain(u, 0, seen, g.definitionRef)...)
	}
	side(r.To, r.ToExpression())
	ex.Close(pl.Bridge)
	return ex
}
