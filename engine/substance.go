package engine

import (
	"fmt"
	"github.com/unitd/unitd/engine/dimension"
	"math/big"
	"slices"
	"sort"
	"strings"
)

// Substances
//
// Some conversions cross kinds of quantity through a property of what is
// measured: a molar mass (mass ↔ amount), a density (mass ↔ volume), a
// charge number (amount ↔ equivalents) or the molar volume of an ideal gas
// at stated conditions (volume ↔ amount). The catalog names substances
// with these values and their sources, the standard atomic weights that
// give a formula its molar mass, and named sets of reference conditions.
// All values are decimals used exactly; a conversion that used one is not
// exact, since the values are measured or rounded.

// ElementSpec is one element of the table of standard atomic weights.
type ElementSpec struct {
	Symbol string
	Name   string
	Number int
	// Weight is the standard (or conventional) atomic weight, a decimal,
	// and Uncertainty its uncertainty, or "" when none is given.
	Weight      string
	Uncertainty string
	Source      string
	Origin      Origin
}

// SubstanceSpec declares a substance.
type SubstanceSpec struct {
	ID          string
	Name        string
	Aliases     []string
	Formula     string
	CAS         string
	Description string
	// MolarMass, when stated, is a quantity ("180.16 g/mol") with its
	// source; otherwise the molar mass comes from the formula.
	MolarMass QuantitySpec
	// Density is a quantity ("0.7893 g/cm3") at a temperature.
	Density QuantitySpec
	// Charge is the charge number of an ion (2 for Ca²⁺), 0 for none.
	Charge       int
	ChargeSource string
	// Kind is what the catalog files the substance under (clinical,
	// gas, liquid, solid, or food for a food or kitchen ingredient), or
	// "" when it says nothing. A food names the food it is (Food,
	// "brown sugar") and the state its density was measured in (State,
	// "packed"; "" for none): the states of one food are substances of
	// their own that share Food. Portions are the counts of the food its
	// source weighs (a stick of butter, a large egg). Build copies these
	// into the Substance and reads none of them.
	Kind, Food, State string
	Portions          []PortionSpec
	Origin            Origin
}

// QuantitySpec is a value with its unit ("0.745 kg/L"), the source that
// states it and the conditions it holds at ("15 degC").
type QuantitySpec struct {
	Value      string
	Conditions string
	Source     string
	Origin     Origin
}

// ConditionsSpec declares a named set of reference conditions for gases.
type ConditionsSpec struct {
	Name        string
	Aliases     []string
	Temperature string // a quantity: "0 degC", "273.15 K"
	Pressure    string // a quantity: "101.325 kPa"
	Source      string
	Note        string
	Origin      Origin
}

// GasSpec says which dimensionless categories hold mixing ratios of an
// ideal gas (amount or volume fractions), which convert to concentrations
// through the molar volume.
type GasSpec struct {
	MixingRatios []string
	Origin       Origin
}

// Element is a compiled element of the atomic weights table.
type Element struct {
	Symbol, Name string
	Number       int
	Weight       string
	Uncertainty  string
	Source       string
	weight, unc  *big.Rat
}

// Substance is a compiled substance. Its fields are read-only.
type Substance struct {
	ID          string
	Name        string
	Aliases     []string
	Formula     string
	CAS         string
	Description string
	// MolarMass, Density and Charge are nil when the catalog gives none.
	MolarMass *Property
	Density   *Property
	Charge    *Property
	// Kind, Food, State and Portions are copied from the spec as they
	// are (SubstanceSpec says what they mean); conversions read none of
	// them.
	Kind, Food, State string
	Portions          []Portion
	// props is the substance's own properties, as a request naming it
	// alone resolves to.
	props *Properties
}

// Portion is a count of a food that its source weighs (PortionSpec).
type Portion struct {
	Name, Measure, Mass string
}

// Property is one value a conversion across kinds uses: a molar mass, a
// density, a charge number, a temperature or a pressure, as stated, with
// its source and the conditions it holds at.
type Property struct {
	// Name is the request field it answers: molar_mass, density, charge,
	// temperature or pressure.
	Name string
	// Value is the value as stated, with its unit ("180.156 g/mol").
	Value string
	// Source says where the value comes from.
	Source string
	// Conditions are the conditions the value holds at ("20 degC"), or "".
	Conditions string
	// Sum is how a molar mass was computed from a formula, or "".
	Sum string
	// si is the value in coherent SI units (kg/mol, kg/m3, K, Pa; a
	// charge number as its magnitude).
	si *big.Rat
	// unc is the uncertainty of a molar mass summed from atomic weights,
	// in kg/mol, or nil.
	unc *big.Rat
}

// Conditions is a compiled named set of reference conditions.
type Conditions struct {
	Name                  string
	Aliases               []string
	Temperature           string
	Pressure              string
	Source                string
	Note                  string
	temperature, pressure *Property
}

// Elements lists the atomic weights table by atomic number, in a new slice.
func (g *Graph) Elements() []*Element { return slices.Clone(g.elements) }

// Substances lists the substances by ID, in a new slice.
func (g *Graph) Substances() []*Substance { return slices.Clone(g.substances) }

// ConditionSets lists the named sets of reference conditions, in catalog
// order, in a new slice.
func (g *Graph) ConditionSets() []*Conditions { return slices.Clone(g.conditions) }

// Substance finds a catalog substance by ID, name, alias (case-insensitive)
// or CAS number. An unknown name is UNKNOWN_SUBSTANCE with suggestions.
func (g *Graph) Substance(name string) (*Substance, error) {
	if s := g.catalogSubstance(name); s != nil {
		return s, nil
	}
	return nil, g.unknownSubstance(name, "")
}

// catalogSubstance finds a substance by formula (case-sensitive), or by
// ID, name, alias or CAS number; nil when none.
func (g *Graph) catalogSubstance(name string) *Substance {
	if s, ok := g.substanceByFormula[name]; ok {
		return s
	}
	return g.substanceBy[foldWord(name)]
}

func (g *Graph) unknownSubstance(name, why string) *Error {
	shown := name
	if len(shown) > 64 {
		shown = shown[:64] + "…"
	}
	e := errorf(CodeUnknownSubstance, "unknown substance %q", shown)
	if why != "" {
		e.Message += ": " + why
	}
	e.Suggestions = g.substanceSuggester.suggest(name, 5)
	if len(e.Suggestions) > 0 {
		e.Message += "; did you mean " + strings.Join(e.Suggestions, ", ") + "?"
	}
	return e
}

// builders of the substance catalog

func (b *builder) elements(specs []ElementSpec) {
	g := b.g
	g.elementBy = map[string]*Element{}
	for i := range specs {
		es := &specs[i]
		subject := fmt.Sprintf("element %q", es.Symbol)
		if !isElementSymbol(es.Symbol) {
			b.errorf(es.Origin, subject, "symbol must be an upper-case letter and at most two lower-case ones")
			continue
		}
		if _, dup := g.elementBy[es.Symbol]; dup {
			b.errorf(es.Origin, subject, "declared twice")
			continue
		}
		e := &Element{Symbol: es.Symbol, Name: es.Name, Number: es.Number, Weight: es.Weight, Uncertainty: es.Uncertainty, Source: es.Source}
		var ok bool
		if e.weight, ok = positiveDecimal(es.Weight); !ok {
			b.errorf(es.Origin, subject, "weight: expected a positive decimal, found %q", es.Weight)
			continue
		}
		e.unc = new(big.Rat)
		if es.Uncertainty != "" {
			if e.unc, ok = positiveDecimal(es.Uncertainty); !ok {
				b.errorf(es.Origin, subject, "uncertainty: expected a positive decimal, found %q", es.Uncertainty)
				continue
			}
		}
		if es.Source == "" {
			b.errorf(es.Origin, subject, "source is required")
		}
		g.elementBy[e.Symbol] = e
		g.elements = append(g.elements, e)
	}
	sort.Slice(g.elements, func(i, j int) bool { return g.elements[i].Number < g.elements[j].Number })
}

func isElementSymbol(s string) bool {
	if len(s) < 1 || len(s) > 3 || s[0] < 'A' || s[0] > 'Z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}

// positiveDecimal reads a plain positive decimal exactly.
func positiveDecimal(s string) (*big.Rat, bool) {
	if len(s) == 0 || len(s) > MaxValueLength || strings.ContainsAny(s, "eE/ ") {
		return nil, false
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok || r.Sign() <= 0 {
		return nil, false
	}
	return r, true
}

func (b *builder) conditionSets(specs []ConditionsSpec) {
	g := b.g
	g.conditionBy = map[string]*Conditions{}
	for i := range specs {
		cs := &specs[i]
		subject := fmt.Sprintf("conditions %q", cs.Name)
		c := &Conditions{Name: cs.Name, Aliases: cs.Aliases, Temperature: cs.Temperature, Pressure: cs.Pressure, Source: cs.Source, Note: cs.Note}
		if cs.Source == "" {
			b.errorf(cs.Origin, subject, "source is required")
		}
		var err error
		if c.temperature, c.pressure, err = g.parseConditionPair(cs.Temperature, cs.Pressure); err != nil {
			b.errorf(cs.Origin, subject, "%s", errorMessage(err))
			continue
		}
		c.temperature.Source, c.pressure.Source = cs.Source, cs.Source
		c.temperature.Conditions, c.pressure.Conditions = cs.Name, cs.Name
		for _, n := range append([]string{cs.Name}, cs.Aliases...) {
			k := foldWord(n)
			if _, dup := g.conditionBy[k]; dup {
				b.errorf(cs.Origin, subject, "name %q is used twice", n)
				continue
			}
			g.conditionBy[k] = c
		}
		g.conditions = append(g.conditions, c)
	}
}

func (b *builder) gas(spec GasSpec) {
	g := b.g
	g.mixingRatios = map[*Category]bool{}
	for _, id := range spec.MixingRatios {
		c, ok := g.byID[id]
		switch {
		case !ok:
			b.errorf(spec.Origin, "gas", "mixing ratio category %q does not exist", id)
		case c.dim != dimension.Vector{}:
			b.errorf(spec.Origin, "gas", "mixing ratio category %q is not dimensionless (%s)", id, c.dim)
		default:
			g.mixingRatios[c] = true
		}
	}
}

func (b *builder) substances(specs []SubstanceSpec) {
	g := b.g
	g.substanceBy = map[string]*Substance{}
	g.substanceSuggester = &suggestIndex{}
	g.substanceByFormula = map[string]*Substance{}
	claim := func(s *Substance, o Origin, name string) {
		k := foldWord(name)
		if k == "" {
			return
		}
		if other, dup := g.substanceBy[k]; dup {
			if other != s {
				b.errorf(o, fmt.Sprintf("substance %q", s.ID), "name %q is already substance %q", name, other.ID)
			}
			return
		}
		g.substanceBy[k] = s
		g.substanceSuggester.add(name, s.ID)
	}
	for i := range specs {
		ss := &specs[i]
		s, ok := b.substance(ss)
		if !ok {
			continue
		}
		g.substances = append(g.substances, s)
		claim(s, ss.Origin, s.ID)
		claim(s, ss.Origin, s.Name)
		for _, a := range s.Aliases {
			claim(s, ss.Origin, a)
		}
		if s.CAS != "" {
			claim(s, ss.Origin, s.CAS)
		}
		// A formula is case-sensitive (CO is not Co), and may stand for
		// several substances (cholesterol, and HDL cholesterol reported
		// as cholesterol): it names the first.
		if _, dup := g.substanceByFormula[s.Formula]; s.Formula != "" && !dup {
			g.substanceByFormula[s.Formula] = s
		}
	}
	sort.Slice(g.substances, func(i, j int) bool { return g.substances[i].ID < g.substances[j].ID })
}

// maxSubstanceNames bounds the aliases of one substance.
const maxSubstanceNames = 32

func (b *builder) substance(ss *SubstanceSpec) (*Substance, bool) {
	g := b.g
	subject := fmt.Sprintf("substance %q", ss.ID)
	s := &Substance{ID: ss.ID, Name: ss.Name, Aliases: ss.Aliases, Formula: ss.Formula, CAS: ss.CAS, Description: ss.Description,
		Kind: ss.Kind, Food: ss.Food, State: ss.State}
	for _, p := range ss.Portions {
		s.Portions = append(s.Portions, Portion{Name: p.Name, Measure: p.Measure, Mass: p.Mass})
	}
	ok := true
	fail := func(o Origin, format string, args ...any) {
		b.errorf(o, subject, format, args...)
		ok = false
	}
	if !isSubstanceID(ss.ID) {
		fail(ss.Origin, "id must be lower-case letters, digits, '_' and '-', starting with a letter")
	}
	if ss.Name == "" {
		fail(ss.Origin, "name is required")
	}
	if len(ss.Aliases) > maxSubstanceNames {
		fail(ss.Origin, "more than %d aliases", maxSubstanceNames)
	}
	if ss.CAS != "" && !validCAS(ss.CAS) {
		fail(ss.Origin, "CAS number %q is malformed or fails its check digit", ss.CAS)
	}
	var fromFormula *Property
	if ss.Formula != "" {
		ch, err := g.parseChemical(ss.Formula)
		if err != nil {
			fail(ss.Origin, "formula: %s", errorMessage(err))
		} else {
			fromFormula = ch.molarMass()
			if ch.charge != 0 && ss.Charge == 0 {
				s.Charge = &Property{Name: "charge", Value: fmt.Sprint(ch.charge), Source: "the charge of the formula " + ss.Formula, si: big.NewRat(int64(abs(ch.charge)), 1)}
			}
		}
	}
	switch mm := ss.MolarMass; {
	case mm.Value != "":
		p, err := g.quantityProperty("molar_mass", mm.Value, molarMassDim)
		if err != nil {
			fail(mm.Origin, "molar_mass: %s", errorMessage(err))
			break
		}
		if mm.Source == "" {
			fail(mm.Origin, "molar_mass: source is required")
		}
		p.Source = mm.Source
		s.MolarMass = p
		if fromFormula != nil {
			if why := disagree(p, fromFormula); why != "" {
				fail(mm.Origin, "molar_mass %s disagrees with the formula %s (%s): %s", mm.Value, ss.Formula, fromFormula.Value, why)
			}
		}
	case fromFormula != nil:
		s.MolarMass = fromFormula
	}
	if d := ss.Density; d.Value != "" {
		p, err := g.quantityProperty("density", d.Value, densityDim)
		switch {
		case err != nil:
			fail(d.Origin, "density: %s", errorMessage(err))
		case d.Source == "":
			fail(d.Origin, "density: source is required")
		case d.Conditions == "":
			fail(d.Origin, "density: the temperature it holds at is required")
		default:
			p.Source, p.Conditions = d.Source, d.Conditions
			s.Density = p
		}
	}
	if ss.Charge != 0 {
		if ss.ChargeSource == "" {
			fail(ss.Origin, "charge: source is required")
		}
		s.Charge = &Property{Name: "charge", Value: fmt.Sprint(ss.Charge), Source: ss.ChargeSource, si: big.NewRat(int64(abs(ss.Charge)), 1)}
	}
	if ok && s.MolarMass == nil && s.Density == nil && s.Charge == nil {
		fail(ss.Origin, "gives no molar mass (nor formula), density or charge")
	}
	s.props = &Properties{Substance: s, MolarMass: s.MolarMass, Density: s.Density, Charge: s.Charge}
	s.props.key, s.props.shared = s.props.makeKey(), true
	s.props.seed = (uint64(len(b.g.substances)) + 1) * 0x9e3779b97f4a7c15
	return s, ok
}

func isSubstanceID(s string) bool {
	if s == "" || len(s) > 64 || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// validCAS checks a CAS Registry Number: 2–7 digits, 2 digits and a check
// digit, joined by hyphens; the check digit is the sum of the other digits
// weighted 1, 2, 3 … from the right, modulo 10.
func validCAS(s string) bool {
	parts := strings.Split(s, "-")
	if len(parts) != 3 || len(parts[0]) < 2 || len(parts[0]) > 7 || len(parts[1]) != 2 || len(parts[2]) != 1 {
		return false
	}
	digits := parts[0] + parts[1]
	sum := 0
	for i := len(digits) - 1; i >= 0; i-- {
		c := digits[i]
		if c < '0' || c > '9' {
			return false
		}
		sum += int(c-'0') * (len(digits) - i)
	}
	c := parts[2][0]
	return c >= '0' && c <= '9' && sum%10 == int(c-'0')
}

// disagree says why a stated molar mass differs from the one its formula
// gives by more than the stated value's rounding (half a unit of its last
// digit) plus the uncertainty of the atomic weights summed; "" when they
// agree.
func disagree(stated, computed *Property) string {
	half := halfUlp(strings.Fields(stated.Value)[0])
	// Both in kg/mol: scale the tolerance of the stated value by its unit.
	scale := new(big.Rat).Quo(stated.si, mustRat(strings.Fields(stated.Value)[0]))
	tol := new(big.Rat).Mul(half, scale)
	tol.Add(tol, computed.unc)
	diff := new(big.Rat).Sub(stated.si, computed.si)
	diff.Abs(diff)
	if diff.Cmp(tol) <= 0 {
		return ""
	}
	return "they differ by more than the stated value's rounding and the atomic weights' uncertainty"
}

func mustRat(s string) *big.Rat {
	r, ok := new(big.Rat).SetString(s)
	if !ok || r.Sign() == 0 {
		return big.NewRat(1, 1)
	}
	return r
}

// halfUlp is half a unit in the last place of a decimal's text.
func halfUlp(s string) *big.Rat {
	frac := 0
	if i := strings.IndexByte(s, '.'); i >= 0 {
		frac = len(s) - i - 1
	}
	return new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Mul(big.NewInt(2), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(frac)), nil)))
}

func errorMessage(err error) string {
	if e, ok := err.(*Error); ok {
		return e.Message
	}
	if e, ok := err.(*FieldError); ok {
		return e.Message
	}
	return err.Error()
}
