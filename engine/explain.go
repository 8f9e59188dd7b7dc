package engine

import (
	"math/big"
	"slices"

	"github.com/unitd/unitd/engine/internal/exact"
)

// Explanation says where the digits of a conversion come from.
type Explanation struct {
	// CatalogVersion is the version of the catalog the graph was built
	// from.
	CatalogVersion string
	// Kind is "linear", "affine" or "formula".
	Kind string
	// Factor is the exact multiplier from source to target (linear and
	// affine), written as a terminating decimal, as p/q, or through π
	// rounded to 50 significant digits with FactorExact false.
	Factor      string
	FactorExact bool
	// Offset is added after the factor (affine only), written alike.
	Offset      string
	OffsetExact bool
	// Formulas are the formula definitions a formula conversion runs.
	Formulas []FormulaStep
	// Steps are the catalog definitions used, from each unit (each
	// operand of an expression) down to its category's base unit, then
	// any bridge between categories.
	Steps []Step
	// Inexact names the units (and bridges, by their From unit) of the
	// steps whose definitions are not exact: a result through one of
	// them is not exact however exact its arithmetic.
	Inexact []string
	// Preference says how the unit of a conversion to Auto was chosen.
	Preference *Preference
	// Mixed describes a mixed result; Factor and Steps then lead to its
	// last part.
	Mixed *MixedExplanation
	// Properties are the substance values a conversion across kinds
	// used (a molar mass, density, charge number, temperature, pressure,
	// the gas constant), each with its source and conditions.
	Properties []Property
	// Equations are the published equations of a measurand the
	// conversion followed, in order, each with its source and whether it
	// is exact (false when fitted to data); Factor and Offset are then
	// those of the whole conversion, the equations composed with the
	// units' factors.
	Equations []EquationStep
}

// FormulaStep is a formula unit's pair of formulas, in x, into and out of
// its reference unit.
type FormulaStep struct {
	Unit, Reference string
	To, From        string
}

// Step is one catalog definition used by a conversion.
type Step struct {
	Unit string
	// Exponent is the power the unit is raised to in an expression (0
	// for a unit converted as a whole).
	Exponent   int
	Definition string
	Exact      bool
	Source     string
}

// Explain explains a successful conversion of this graph.
func (g *Graph) Explain(r *Result) Explanation {
	ex := Explanation{CatalogVersion: g.version, Preference: r.Preference(), Mixed: r.mixedExplanation()}
	if (r.From == nil) == (r.FromExpression() == nil) || (r.To == nil) == (r.ToExpression() == nil) {
		return ex // not a result of a conversion
	}
	from, to := side{r.From, r.FromExpression()}, side{r.To, r.ToExpression()}
	var pl plan
	var err error
	// A measurand's pair plans as the conversion did (cachedAcross).
	measured := false
	if p := r.Properties; p != nil && p.measurand != nil && (len(r.Equations()) > 0 || len(r.Used()) > 0) {
		pl, measured = g.measurandPlan(from, to, p)
	}
	if !measured {
		if pl, err = g.plan(from, to); err != nil && len(r.Used()) > 0 {
			pl, err = g.crossPlan(from, to, r.Properties)
		}
	}
	if err != nil {
		return ex // a result of this graph always plans again
	}
	for _, p := range pl.used {
		ex.Properties = append(ex.Properties, *p)
	}
	ex.Equations = pl.equations
	A, B := pl.from, pl.to
	f, o, affine := pl.affine()
	switch {
	case A.FormulaUnit || B.FormulaUnit || !affine:
		ex.Kind = "formula"
		for _, u := range []*Unit{r.From, r.To} {
			if u != nil && u.Definition.Kind == "formula" {
				ex.Formulas = append(ex.Formulas, FormulaStep{Unit: u.Symbol, Reference: u.Definition.Unit, To: u.Definition.To, From: u.Definition.From})
			}
		}
	default:
		// y = x·f + o, times π^k.
		ex.Factor, ex.FactorExact = exact.FactorText(f)
		ex.Kind = "linear"
		if o.Sign() != 0 {
			ex.Kind = "affine"
			ex.Offset, ex.OffsetExact = exact.FactorText(exact.Factor{R: o, K: f.K})
		}
	}
	seen := map[*Unit]bool{}
	side := func(u *Unit, e *Expression) {
		if u != nil {
			ex.Steps = append(ex.Steps, g.chain(u, 0, seen)...)
			return
		}
		for _, t := range e.Terms {
			if t.Unit != nil {
				ex.Steps = append(ex.Steps, g.chain(t.Unit, t.Exponent, nil)...)
			}
		}
		if e.Code != "" {
			ex.Steps = append(ex.Steps, g.codeStep(e))
		}
	}
	side(r.From, r.FromExpression())
	// The units the equations are written in, between the two.
	for _, u := range g.routeUnits(r.Properties, pl.equations) {
		ex.Steps = append(ex.Steps, g.chain(u, 0, seen)...)
	}
	side(r.To, r.ToExpression())
	// The same definition twice (m for both operands of ft*ft) says
	// nothing new.
	kept := ex.Steps[:0]
	for i, s := range ex.Steps {
		if !slices.Contains(ex.Steps[:i], s) {
			kept = append(kept, s)
		}
	}
	ex.Steps = kept
	if br := pl.bridge; br != nil {
		ex.Steps = append(ex.Steps, Step{
			Unit:       br.From.Symbol,
			Definition: "1 " + br.From.Symbol + " = " + br.Factor + " " + br.To.Symbol + " (bridge from " + br.From.Category.ID + " to " + br.To.Category.ID + ")",
			Exact:      br.Exact, Source: br.Source,
		})
	}
	for _, s := range ex.Steps {
		if !s.Exact && !slices.Contains(ex.Inexact, s.Unit) {
			ex.Inexact = append(ex.Inexact, s.Unit)
		}
	}
	return ex
}

// affine returns the factor and offset of a plan without a formula,
// y = x·f + o (f with its power of π), or ok=false.
func (pl *plan) affine() (f exact.Factor, o *big.Rat, ok bool) {
	if pl.m == nil {
		return exact.Factor{}, nil, false
	}
	r, off, ok := pl.m.Affine()
	if !ok {
		return exact.Factor{}, nil, false
	}
	return exact.Factor{R: r, K: pl.m.K()}, off, true
}

// chain lists the definitions from u down to its category's base, and the
// base's coherent factor when it is written as an expression (km/L). Units
// already in seen are skipped; seen may be nil.
func (g *Graph) chain(u *Unit, exponent int, seen map[*Unit]bool) []Step {
	var steps []Step
	for u != nil {
		if seen != nil {
			if seen[u] {
				break
			}
			seen[u] = true
		}
		s := Step{Unit: u.Symbol, Exponent: exponent, Exact: u.Exact, Source: u.Source, Definition: definitionText(u)}
		steps = append(steps, s)
		exponent = 0 // the exponent belongs to the operand itself
		if u.Definition.Kind == "base" {
			if c := u.Category; !c.Coherent.IsOne() {
				f, _ := exact.FactorText(c.Coherent)
				steps = append(steps, Step{Unit: u.Symbol, Definition: "1 " + u.Symbol + " = " + f + " " + c.Dim.SIText() + " (coherent SI unit of " + c.ID + ")", Exact: u.Exact, Source: u.Source})
			}
			break
		}
		u = g.definitionRef(u)
	}
	return steps
}

// definitionText writes a unit's definition for a person.
func definitionText(u *Unit) string {
	d := u.Definition
	switch d.Kind {
	case "base":
		return u.Symbol + " is the base unit of " + u.Category.ID
	case "affine":
		return "x " + u.Symbol + " = x*" + d.Factor + " + " + d.Offset + " " + d.Unit
	case "formula":
		return "x " + u.Symbol + " = " + d.To + " " + d.Unit + "; back: " + d.From
	}
	return "1 " + u.Symbol + " = " + d.Factor + " " + d.Unit
}
