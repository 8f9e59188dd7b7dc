package build

import (
	"fmt"
	"strings"

	"github.com/unitd/unitd/engine/dimension"
	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/internal/graph"
	"github.com/unitd/unitd/engine/internal/plan"
	"github.com/unitd/unitd/engine/spec"
	"github.com/unitd/unitd/engine/unitexpr"
)

// Across categories
//
// Within a category every unit maps onto the category's base unit. Across
// categories, and for unit expressions, every unit maps onto the coherent
// SI unit of its dimension (kg·m²·s⁻² for both J and N*m). A category's
// base unit is that coherent unit, unless the category declares the factor
// between them (si_factor) or its base symbol reads as an expression of
// other categories' units, whose factor then says how the two differ
// (km/L is 10^6 m^-2).
//
// Two catalog units of different categories do not convert, even of one
// dimension (J and N*m, Hz and Bq): a category is a kind of quantity.
// Exceptions are the catalog's bridges (frequency and angular velocity)
// and the intervals of a scale: a category with offsets (temperature) has
// the preferred category of its dimension (temperature_interval) as its
// intervals, and its units without offset (K, degR) name intervals too.

// frames computes what conversions across categories need: the category
// of each dimension, the coherent factor of every category and unit, the
// intervals of scales, and the bridges.
func (b *builder) frames(bridges []spec.Bridge) {
	t := b.t
	byDim := map[dimension.Vector][]*graph.Category{}
	for _, c := range t.Categories {
		c.Coherent = exact.One()
		if c.SIFactor != nil {
			c.Coherent = *c.SIFactor
		}
		if !c.Logarithmic { // levels are no expression's category
			byDim[c.Dim] = append(byDim[c.Dim], c)
		}
	}
	for dim, cs := range byDim {
		var preferred []*graph.Category
		for _, c := range cs {
			if c.Preferred {
				preferred = append(preferred, c)
			}
		}
		switch {
		case len(cs) == 1:
			t.ByDimension[dim] = cs[0]
		case len(preferred) == 1:
			t.ByDimension[dim] = preferred[0]
		case len(preferred) > 1:
			for _, c := range preferred[1:] {
				b.errorf(b.categoryOrigins[c], fmt.Sprintf("category %q", c.ID), "preferred for dimension %s, as is category %q; mark one", dim, preferred[0].ID)
			}
		}
	}
	b.coherentFactors()
	for _, c := range t.Categories {
		for _, u := range c.Units {
			if m := u.Conv.Map; m != nil && !u.Conv.FormulaUnit && !m.IsLinear() {
				if i := t.ByDimension[c.Dim]; i != nil && i != c {
					c.Interval = i
				}
				break
			}
		}
		if c.Interval == nil {
			continue
		}
		for _, u := range c.Units {
			if u.SI != nil && !u.Conv.FormulaUnit && u.SI.Map.IsLinear() {
				iv := *u.SI
				iv.Bound = nil // an interval may be negative
				u.AsInterval = &iv
			}
		}
	}
	b.bridges(bridges)
	for key, br := range t.Bridges {
		for _, u := range key.From.Units {
			if u.SI == nil {
				continue
			}
			if c, ok := plan.ThroughBridge(u.SI, br); ok {
				t.Bridged[graph.UnitBridge{Unit: u, Bridge: br}] = c
			}
		}
	}
}

// coherentFactors sets the coherent factor of every category and unit.
func (b *builder) coherentFactors() {
	t := b.t
	setUnits := func(c *graph.Category) { b.setCoherent(c, c.Units) }
	for _, c := range t.Categories {
		setUnits(c)
	}
	// Bases written as expressions, such as km/L. Their operands come from
	// other categories, whose factors may themselves change: settle in a
	// few rounds.
	for range 3 {
		changed := false
		for _, c := range t.Categories {
			if c.Base == nil || !unitexpr.IsExpressionSyntax(c.Base.Symbol) {
				continue
			}
			e, err := b.names.ParseExpressionExcluding(c.Base.Symbol, c.Base)
			if err != nil {
				continue // not an expression of other units: coherent
			}
			if e.Dim != c.Dim {
				b.errorf(b.categoryOrigins[c], fmt.Sprintf("category %q", c.ID), "base unit %s reads as a unit expression of dimension %s, but the category's dimension is %s", c.Base.Symbol, e.Dim, c.Dim)
				c.Base = nil // reported; stop here
				break
			}
			if f := c.SIFactor; f != nil && (f.R.Cmp(e.Coherent.R) != 0 || f.K != e.Coherent.K) {
				text, _ := exact.FactorText(e.Coherent)
				b.errorf(b.categoryOrigins[c], fmt.Sprintf("category %q", c.ID), "si_factor %s disagrees with the base unit %s, which reads as %s %s", siFactorText(c), c.Base.Symbol, text, c.Dim.SIText())
				c.Base = nil
				break
			}
			if e.Coherent.R.Cmp(c.Coherent.R) != 0 || e.Coherent.K != c.Coherent.K {
				c.Coherent = e.Coherent
				setUnits(c)
				changed = true
			}
		}
		if !changed {
			break
		}
	}
}

// setCoherent sets the coherent factor and the map onto the coherent SI
// unit of units, compiled units of category c.
func (b *builder) setCoherent(c *graph.Category, units []*graph.Unit) {
	coh, err := exact.Linear(c.Coherent.R, c.Coherent.K)
	if err != nil {
		b.errorf(b.categoryOrigins[c], fmt.Sprintf("category %q", c.ID), "its factor to the coherent SI unit: %v", err)
		return
	}
	one := c.Coherent.IsOne()
	for _, u := range units {
		cv := &u.Conv
		if cv.Map == nil && cv.Post == nil {
			continue // not compiled
		}
		if f, _, ok := graph.MapFactor(cv); ok {
			if one {
				u.Coherent = f // f is the unit's own: mapFactor made it
			} else {
				u.Coherent = f.Mul(c.Coherent)
			}
		}
		if one {
			u.SI = cv
			continue
		}
		si := *cv
		si.Bound = nil // the minimum was scaled for the category's own map
		if si.Map != nil {
			si.Map, _ = si.Map.Then(coh) // a linear map: always composes
		} else {
			si.Post, _ = si.Post.Then(coh)
		}
		u.SI = &si
	}
}

// bridges checks and records the declared bridges.
func (b *builder) bridges(specs []spec.Bridge) {
	t := b.t
	for _, bs := range specs {
		subject := fmt.Sprintf("bridge %s → %s", bs.From, bs.To)
		if bs.From == "" || bs.To == "" || bs.Factor == "" {
			b.errorf(bs.Origin, "bridge", "needs from, to and factor (1 from = factor to)")
			continue
		}
		from, err1 := b.names.Lookup(bs.From)
		to, err2 := b.names.Lookup(bs.To)
		for _, err := range []error{err1, err2} {
			if err != nil {
				b.errorf(bs.Origin, subject, "%v", err)
			}
		}
		if err1 != nil || err2 != nil {
			continue
		}
		if strings.TrimSpace(bs.Source) == "" {
			b.errorf(bs.Origin, subject, "missing source")
		}
		if from.Category == to.Category {
			b.errorf(bs.Origin, subject, "both units are of category %s; a bridge joins two categories", from.Category.ID)
			continue
		}
		if from.Conv.FormulaUnit || to.Conv.FormulaUnit || !from.Conv.Map.IsLinear() || !to.Conv.Map.IsLinear() {
			b.errorf(bs.Origin, subject, "a bridge joins linear units (no offset, no formula)")
			continue
		}
		f, err := exact.ParseFactor(bs.Factor)
		if err != nil {
			b.errorf(bs.Origin, subject, "factor: %v", err)
			continue
		}
		if f.R.Sign() <= 0 {
			b.errorf(bs.Origin, subject, "factor must be positive, not %s", bs.Factor)
			continue
		}
		key := graph.CategoryPair{From: from.Category, To: to.Category}
		if old, dup := t.Bridges[key]; dup {
			b.errorf(bs.Origin, subject, "categories %s and %s are already bridged (%s → %s)", from.Category.ID, to.Category.ID, old.From.Symbol, old.To.Symbol)
			continue
		}
		// 1 From = f To, so 1 SI(From) = f·coh(To)/coh(From) SI(To).
		si := f.Mul(to.Coherent).Quo(from.Coherent)
		br := &graph.Bridge{From: from, To: to, Factor: bs.Factor, Exact: bs.Exact, Source: bs.Source, Note: bs.Note, SI: si}
		t.Bridges[key] = br
		back := *br
		back.SI = exact.One().Quo(si)
		t.Bridges[graph.CategoryPair{From: to.Category, To: from.Category}] = &back
	}
}

// siFactorText is the factor from the category's base unit to the
// coherent SI unit of its dimension, as declared.
func siFactorText(c *graph.Category) string {
	t, _ := exact.FactorText(*c.SIFactor)
	return t
}
