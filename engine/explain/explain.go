// Package explain says where the digits of a conversion come from: the
// exact factor and offset (or the formulas) of its map, and every catalog
// definition used, each with its source and whether it is exact. The
// engine plans the conversion again and fills an Explanation in.
package explain

import (
	"math/big"
	"slices"

	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/internal/graph"
	"github.com/unitd/unitd/engine/prefs"
	"github.com/unitd/unitd/engine/substance"
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
	Preference *prefs.Preference
	// Mixed describes a mixed result; Factor and Steps then lead to its
	// last part.
	Mixed *Mixed
	// Properties are the substance values a conversion across kinds
	// used (a molar mass, density, charge number, temperature, pressure,
	// the gas constant), each with its source and conditions.
	Properties []substance.Property
	// Equations are the published equations of a measurand the
	// conversion followed, in order, each with its source and whether it
	// is exact (false when fitted to data); Factor and Offset are then
	// those of the whole conversion, the equations composed with the
	// units' factors.
	Equations []substance.Step
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

// Chain lists the definitions from u down to its category's base, and the
// base's coherent factor when it is written as an expression (km/L); ref
// gives the unit a unit's definition refers to. Units already in seen are
// skipped; seen may be nil.
func Chain(u *graph.Unit, exponent int, seen map[*graph.Unit]bool, ref func(*graph.Unit) *graph.Unit) []Step {
	var steps []Step
	for u != nil {
		if seen != nil {
			if seen[u] {
				break
			}
			seen[u] = true
		}
		s := Step{Unit: u.Symbol, Exponent: exponent, Exact: u.Exact, Source: u.Doc().Source, Definition: Definition(u)}
		steps = append(steps, s)
		exponent = 0 // the exponent belongs to the operand itself
		if u.Doc().Definition.Kind == "base" {
			if c := u.Category; !c.Coherent.IsOne() {
				f, _ := exact.FactorText(c.Coherent)
				steps = append(steps, Step{Unit: u.Symbol, Definition: "1 " + u.Symbol + " = " + f + " " + c.Dim.SIText() + " (coherent SI unit of " + c.ID + ")", Exact: u.Exact, Source: u.Doc().Source})
			}
			break
		}
		u = ref(u)
	}
	return steps
}

// Definition writes a unit's definition for a person.
func Definition(u *graph.Unit) string {
	d := u.Doc().Definition
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

// Mixed describes a mixed unit: each part in units of the
// last, a whole number.
type Mixed struct {
	Unit     string
	LastPart string
	Parts    []MixedPart
}

// MixedPart is one part of a mixed unit and how many of the last part it
// is.
type MixedPart struct {
	Unit, PerLast string
}

// SetMap records the map of a conversion without a formula, y = x·f + o
// (f with its power of π): its kind and its factor and offset as text.
func (ex *Explanation) SetMap(f exact.Factor, o *big.Rat) {
	ex.Factor, ex.FactorExact = exact.FactorText(f)
	ex.Kind = "linear"
	if o.Sign() != 0 {
		ex.Kind = "affine"
		ex.Offset, ex.OffsetExact = exact.FactorText(exact.Factor{R: o, K: f.K})
	}
}

// Close ends the steps: the same definition twice (m for both operands
// of ft*ft) is kept once, the bridge crossed, if any, comes last, and
// Inexact names the units of the steps that are not exact.
func (ex *Explanation) Close(br *graph.Bridge) {
	kept := ex.Steps[:0]
	for i, s := range ex.Steps {
		if !slices.Contains(ex.Steps[:i], s) {
			kept = append(kept, s)
		}
	}
	ex.Steps = kept
	if br != nil {
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
}
