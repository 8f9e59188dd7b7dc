package engine

import (
	"fmt"

	"github.com/unitd/unitd/engine/dimension"
	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/substance"
)

// Substances
//
// The catalog's substances, atomic weights and reference conditions are
// package substance's; the graph builds them with its units (reading
// their quantities through graphUnits) and converts across kinds with
// them (crosskind.go).

// The substance catalog's declarations and records (package substance).
type (
	ElementSpec    = substance.ElementSpec
	SubstanceSpec  = substance.SubstanceSpec
	QuantitySpec   = substance.QuantitySpec
	ConditionsSpec = substance.ConditionsSpec
	GasSpec        = substance.GasSpec
	PortionSpec    = substance.PortionSpec
	Portion        = substance.Portion
	Element        = substance.Element
	Substance      = substance.Substance
	Property       = substance.Property
	Conditions     = substance.Conditions
	FieldError     = substance.FieldError
)

// Elements lists the atomic weights table by atomic number, in a new slice.
func (g *Graph) Elements() []*Element { return g.extras().sub.Elements() }

// Substances lists the substances by ID, in a new slice.
func (g *Graph) Substances() []*Substance { return g.extras().sub.Substances() }

// ConditionSets lists the named sets of reference conditions, in catalog
// order, in a new slice.
func (g *Graph) ConditionSets() []*Conditions { return g.extras().sub.ConditionSets() }

// Substance finds a catalog substance by ID, name, alias (case-insensitive)
// or CAS number. An unknown name is UNKNOWN_SUBSTANCE with suggestions.
func (g *Graph) Substance(name string) (*Substance, error) {
	sub := g.extras().sub
	if s := sub.Find(name); s != nil {
		return s, nil
	}
	return nil, sub.Unknown(name, "")
}

// gas marks the categories that hold a gas's mixing ratios, and returns
// the problems of the marks (which do not stop the substances from
// compiling). A snapshot keeps the marks, which every conversion across
// kinds reads.
func (b *extrasBuilder) gas(gas GasSpec) []error {
	var errs []error
	for _, id := range gas.MixingRatios {
		c, ok := b.g.t.ByID[id]
		switch {
		case !ok:
			errs = append(errs, &SpecError{Origin: gas.Origin, Subject: "gas", Message: fmt.Sprintf("mixing ratio category %q does not exist", id)})
		case !c.Dim.IsZero():
			errs = append(errs, &SpecError{Origin: gas.Origin, Subject: "gas", Message: fmt.Sprintf("mixing ratio category %q is not dimensionless (%s)", id, c.Dim)})
		default:
			c.MixingRatio = true
		}
	}
	return errs
}

// substances builds the substance catalog and each substance's own
// properties, and compiles the measurands against the graph's units (measurand.go).
func (b *extrasBuilder) substances(spec *Spec) {
	g, x := b.g, b.x
	var errs []error
	x.sub, errs = substance.Build(spec.Elements, spec.Conditions, spec.Substances, spec.Measurands, graphUnits{g})
	b.errs = append(b.errs, errs...)
	x.own = map[*Substance]*Properties{}
	for i, s := range x.sub.Substances() {
		p := &Properties{Substance: s, Values: substance.Values{MolarMass: s.MolarMass, Density: s.Density, Charge: s.Charge}, shared: true}
		p.key = p.makeKey()
		p.seed = (uint64(i) + 1) * 0x9e3779b97f4a7c15
		x.own[s] = p
	}
	if len(errs) == 0 {
		b.compileMeasurands()
	}
}

// graphUnits resolves the units of quantities with the graph's units,
// for package substance.
type graphUnits struct{ g *Graph }

// SIMap resolves name to its exact map onto coherent SI units.
func (u graphUnits) SIMap(name string) (m *exact.Map, symbol string, dim dimension.Vector, err error) {
	s, err := u.g.resolve(name)
	if err != nil {
		return nil, "", dimension.Vector{}, err
	}
	switch {
	case s.Unit != nil && s.Unit.SI != nil:
		m = s.Unit.SI.Map
	case s.Expr != nil:
		m = s.Expr.Conv.Map
	}
	return m, s.Symbol(), s.Dim(), nil
}

// catalogSubstance finds a substance by formula, ID, name, alias or CAS
// number; nil when none.
func (g *Graph) catalogSubstance(name string) *Substance { return g.extras().sub.Find(name) }

// SearchSubstances finds substances by ID, name, alias, CAS number,
// formula or food, ranked best first (package substance, Index.Search),
// with up to five suggestions when nothing matches. The index is built on
// the first search of the graph.
func (g *Graph) SearchSubstances(q string) []substance.Match {
	g.subIndexOnce.Do(func() { g.subIndex = substance.NewIndex(g.extras().sub.Substances()) })
	return g.subIndex.Search(q)
}
