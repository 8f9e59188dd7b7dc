package engine

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/unitd/unitd/engine/dimension"
	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/substance"
)

// Substances
//
// The catalog's substances, atomic weights and reference conditions are
// package substance's; the graph builds them with its units (reading
// their quantities through graphQuantities) and converts across kinds with
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
func (b *builder) gas(gas GasSpec) []error {
	var errs []error
	for _, id := range gas.MixingRatios {
		c, ok := b.g.byID[id]
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
func (b *builder) substances(spec *Spec) {
	g, x := b.g, b.x
	var errs []error
	x.sub, errs = substance.Build(spec.Elements, spec.Conditions, spec.Substances, spec.Measurands, graphQuantities{g})
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

// graphQuantities reads "VALUE UNIT" with the graph's units, for package
// substance.
type graphQuantities struct{ g *Graph }

// Quantity reads "VALUE UNIT" of dimension want exactly into coherent SI
// units.
func (q graphQuantities) Quantity(field, text string, want dimension.Vector) (*big.Rat, error) {
	return q.g.quantity(field, text, want)
}

// catalogSubstance finds a substance by formula, ID, name, alias or CAS
// number; nil when none.
func (g *Graph) catalogSubstance(name string) *Substance { return g.extras().sub.Find(name) }

// quantity reads "VALUE UNIT" exactly into coherent SI units.
func (g *Graph) quantity(field, text string, want dimension.Vector) (*big.Rat, error) {
	shown := func() string { return fault.Truncate(text, 64) }
	text = strings.TrimSpace(text)
	num, unit, ok := strings.Cut(text, " ")
	if !ok {
		// "25degC": the number ends where the unit starts.
		i := strings.IndexFunc(text, func(r rune) bool { return !strings.ContainsRune("0123456789.+-eE", r) })
		for i > 0 && (text[i-1] == 'e' || text[i-1] == 'E') {
			i-- // "5e" of "5eq" is no exponent
		}
		if i > 0 {
			num, unit, ok = text[:i], text[i:], true
		}
	}
	unit = strings.TrimSpace(unit)
	if !ok || unit == "" {
		return nil, substance.FieldErrorf(field, "%q: expected a value and a unit, such as %q", shown(), substance.Example(want))
	}
	x, err := ParseValue(num)
	if err != nil {
		return nil, substance.FieldErrorf(field, "%q: %s", shown(), errorMessage(err))
	}
	s, err := g.resolve(unit)
	if err != nil {
		return nil, substance.FieldErrorf(field, "%q: %s", shown(), errorMessage(err))
	}
	var m *exact.Map
	switch {
	case s.unit != nil && s.unit.SI != nil:
		m = s.unit.SI.Map
	case s.expr != nil:
		m = s.expr.Conv.Map
	}
	if m == nil {
		return nil, substance.FieldErrorf(field, "%q: %s converts through a formula; name a linear unit", shown(), s.symbol())
	}
	if s.dim() != want {
		return nil, substance.FieldErrorf(field, "%q: %s has dimension %s, not %s (such as %q)", shown(), s.symbol(), s.dim(), want, substance.Example(want))
	}
	if m.K() != 0 {
		return nil, substance.FieldErrorf(field, "%q: a unit through π cannot state an exact value", shown())
	}
	if m.HasPole() {
		return nil, substance.FieldErrorf(field, "%q: %s is a reciprocal unit and cannot state a value", shown(), s.symbol())
	}
	v, err := m.At(&x)
	if err != nil {
		return nil, substance.FieldErrorf(field, "%q: value out of range", shown())
	}
	d := v.Rat()
	if err := exact.CheckSize(d); err != nil {
		return nil, substance.FieldErrorf(field, "%q: value out of range", shown())
	}
	return d, nil
}

func errorMessage(err error) string {
	switch e := err.(type) {
	case *Error:
		return e.Message
	case *FieldError:
		return e.Message
	}
	return err.Error()
}

// SearchSubstances finds substances by ID, name, alias, CAS number,
// formula or food, ranked best first (package substance, Index.Search),
// with up to five suggestions when nothing matches. The index is built on
// the first search of the graph.
func (g *Graph) SearchSubstances(q string) []substance.Match {
	g.subIndexOnce.Do(func() { g.subIndex = substance.NewIndex(g.extras().sub.Substances()) })
	return g.subIndex.Search(q)
}
