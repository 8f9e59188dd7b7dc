// Package plan is how the engine's kernel plans and runs a conversion
// once it has resolved both names: each Side (a catalog unit or a unit
// expression), the Plan that maps both onto one reference unit (Planner:
// within a category, across categories through the catalog's bridges or
// as intervals, across kinds through a substance's properties, along a
// measurand's equations between its scales), and the pair's Compiled
// maps, composed once per pair of conversions (Compiler).
// Plan.Run converts a value along a plan: the checks of the source's
// domain, then the one exact evaluation and its rounding, or a formula's
// steps at a working precision. Sides that cannot meet are
// INCOMPATIBLE_UNITS, with both dimensions. The package knows no names:
// the engine resolves them.
package plan

import (
	"github.com/unitd/unitd/engine/dimension"
	"github.com/unitd/unitd/engine/internal/graph"
	"github.com/unitd/unitd/engine/substance"
	"github.com/unitd/unitd/engine/unitexpr"
)

// Side is one resolved end of a conversion: a catalog unit or a unit
// expression.
type Side struct {
	Unit *graph.Unit
	Expr *unitexpr.Expression
}

// Conversion is the side's map onto its reference unit.
func (s Side) Conversion() *graph.Conversion {
	if s.Unit != nil {
		return &s.Unit.Conv
	}
	return &s.Expr.Conv
}

// Account reports whether a resolved side is, or holds, an account's
// unit.
func (s Side) Account() bool {
	if s.Unit != nil {
		return s.Unit.Account()
	}
	for _, t := range s.Expr.Terms {
		if t.Unit.Account() {
			return true
		}
	}
	return false
}

// Symbol is the side's canonical symbol.
func (s Side) Symbol() string {
	if s.Unit != nil {
		return s.Unit.Symbol
	}
	return s.Expr.Symbol
}

// Dim is the side's dimension.
func (s Side) Dim() dimension.Vector {
	if s.Unit != nil {
		return s.Unit.Category.Dim
	}
	return s.Expr.Dim
}

// Category is the side's catalog category, or nil.
func (s Side) Category() *graph.Category {
	if s.Unit != nil {
		return s.Unit.Category
	}
	return s.Expr.Category
}

// Describe names the side and its kind for messages: "J (energy)".
func (s Side) Describe() string {
	if c := s.Category(); c != nil {
		return s.Symbol() + " (" + c.ID + ")"
	}
	return s.Symbol() + " (dimension " + s.Dim().String() + ")"
}

// Plan is a resolved conversion: both sides mapped onto one reference
// unit, what the result is called, and the pair's compiled maps.
type Plan struct {
	From, To *graph.Conversion
	// FromUnit is the catalog unit converted from, for messages; nil for
	// an expression.
	FromUnit *graph.Unit
	FromName string
	Category *graph.Category
	// CategoryID is Category's ID, or the dimension of an expression
	// that no category has.
	CategoryID string
	Unit       string // the target's canonical symbol
	Bridge     *graph.Bridge
	// Used are the substance properties a conversion across kinds
	// divides by (the engine's conversions across kinds).
	Used []*substance.Property
	// Equations are the route of a measurand's equations the conversion
	// follows (the engine's measurands), or nil.
	Equations []substance.Step
	// Exact is false when a definition used is not exact.
	Exact bool
	// Reciprocal is the catalog unit whose pole makes the pair take only
	// positive values (Compiled.Positive), for messages; or nil.
	Reciprocal *graph.Unit
	*Compiled  // shared by every plan of the pair: never written through
}

// IsReciprocal reports whether the side is a code defined as an inverse.
func (s Side) IsReciprocal() bool { return s.Expr != nil && s.Expr.Reciprocal }
