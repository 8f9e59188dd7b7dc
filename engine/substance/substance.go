// Package substance is the catalog of what is measured: the standard
// atomic weights and the chemical formulas they give a molar mass,
// substances with their molar masses, densities and charge numbers (clinical
// analytes, gases, liquids, solids, foods), and named reference conditions
// for gases; the arithmetic of the conversions across kinds that they
// allow (Between); and measurands whose units published equations relate
// rather than factors, such as HbA1c in NGSP % and IFCC mmol/mol
// (measurand.go).
//
// Some conversions cross kinds of quantity through a property of what is
// measured: a molar mass (mass ↔ amount), a density (mass ↔ volume), a
// charge number (amount ↔ equivalents) or the molar volume of an ideal gas
// at stated conditions (volume ↔ amount). All values are decimals used
// exactly; a conversion that used one is not exact, since the values are
// measured or rounded.
//
// The package reads values with units ("180.156 g/mol", "25 degC")
// itself (Quantity), resolving their units through the Units its caller
// gives it: the engine's catalog of units.
package substance

import (
	"fmt"
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/unitd/unitd/engine/dimension"
	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/internal/fold"
	"github.com/unitd/unitd/engine/internal/suggest"
)

// Dimensions of the properties.
var (
	MolarMassDim   = dimension.Of(map[string]int{"M": 1, "N": -1})
	DensityDim     = dimension.Of(map[string]int{"M": 1, "L": -3})
	TemperatureDim = dimension.Of(map[string]int{"Θ": 1})
	PressureDim    = dimension.Of(map[string]int{"M": 1, "L": -1, "T": -2})
)

// FieldError is a request field whose value is not valid: a molar mass,
// density, charge or conditions that do not read, or are out of range.
type FieldError struct {
	Field   string
	Message string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Message }

// FieldErrorf returns a FieldError with a formatted message.
func FieldErrorf(field, format string, args ...any) *FieldError {
	return &FieldError{Field: field, Message: fmt.Sprintf(format, args...)}
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
	// Kind, Food, State and Portions describe a food (see SubstanceSpec).
	Kind, Food, State string
	Portions          []Portion
	// Measurand is set on a measurand whose units are related by
	// published equations (HbA1c); it then gives no molar mass, density
	// or charge of its own.
	Measurand *Measurand
}

// Portion is a count of a food that its source weighs: a stick of
// butter ("stick", "1 stick", "113 g").
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

// SI is the value in coherent SI units (kg/mol, kg/m³, K, Pa; a charge
// number as its magnitude). The caller must not modify it.
func (p *Property) SI() *big.Rat { return p.si }

// Stated returns a property a request states: its value in coherent SI
// units.
func Stated(name, value, source string, si *big.Rat) *Property {
	return &Property{Name: name, Value: value, Source: source, si: si}
}

// ChargeProperty is the property of a charge number z, from source.
func ChargeProperty(z int, source string) *Property {
	return &Property{Name: "charge", Value: fmt.Sprint(z), Source: source, si: big.NewRat(int64(max(z, -z)), 1)}
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

// Catalog is the compiled substance catalog: immutable, safe for
// concurrent use.
type Catalog struct {
	q          Units
	elements   []*Element
	elementBy  map[string]*Element
	substances []*Substance
	by         map[string]*Substance // folded ID, name, alias, CAS
	byFormula  map[string]*Substance // formulas, case-sensitive
	// names are the names claimed, with the ID of each one's substance,
	// in the order claimed: what suggester indexes, on the first unknown
	// name (a catalog that is never asked of one never pays for it).
	names       []claimedName
	suggestOnce sync.Once
	suggester   suggest.Index
	conditions  []*Conditions
	conditionBy map[string]*Conditions
}

// Problem is what is wrong with a declaration, located at its origin.
type Problem = fault.SpecError

// Build compiles the declarations, reading their quantities with q. It
// reports every problem found; the Catalog holds what compiled.
func Build(elements []ElementSpec, conditions []ConditionsSpec, substances []SubstanceSpec, measurands []MeasurandSpec, q Units) (*Catalog, []error) {
	b := &builder{c: &Catalog{q: q}}
	b.elements(elements)
	b.conditionSets(conditions)
	b.substances(substances)
	b.measurands(measurands)
	sort.Slice(b.c.substances, func(i, j int) bool { return b.c.substances[i].ID < b.c.substances[j].ID })
	return b.c, b.errs
}

type builder struct {
	c    *Catalog
	errs []error
}

func (b *builder) errorf(o fault.Origin, subject, format string, args ...any) {
	b.errs = append(b.errs, &Problem{Origin: o, Subject: subject, Message: fmt.Sprintf(format, args...)})
}

// Elements lists the atomic weights table by atomic number, in a new slice.
func (c *Catalog) Elements() []*Element { return slices.Clone(c.elements) }

// Substances lists the substances by ID, in a new slice.
func (c *Catalog) Substances() []*Substance { return slices.Clone(c.substances) }

// ConditionSets lists the named sets of reference conditions, in catalog
// order, in a new slice.
func (c *Catalog) ConditionSets() []*Conditions { return slices.Clone(c.conditions) }

// Find finds a substance by formula (case-sensitive), or by ID, name,
// alias or CAS number; nil when none.
func (c *Catalog) Find(name string) *Substance {
	if s, ok := c.byFormula[name]; ok {
		return s
	}
	return c.by[fold.Key(name)]
}

// Unknown is UNKNOWN_SUBSTANCE for name, with why it is none (or ""), and
// up to five suggestions.
func (c *Catalog) Unknown(name, why string) *fault.Error {
	e := fault.Errorf(fault.UnknownSubstance, "unknown substance %q", fault.Truncate(name, 64))
	if why != "" {
		e.Message += ": " + why
	}
	c.suggest(e, name)
	return e
}

// claimedName is a name of a substance, as claimed.
type claimedName struct{ name, id string }

func (c *Catalog) suggest(e *fault.Error, name string) {
	c.suggestOnce.Do(func() {
		for _, n := range c.names {
			c.suggester.Add(n.name, n.id)
		}
	})
	e.Suggestions = c.suggester.Suggest(name, 5)
	if len(e.Suggestions) > 0 {
		e.Message += "; did you mean " + strings.Join(e.Suggestions, ", ") + "?"
	}
}

// Lookup finds a catalog substance, or else reads name as a chemical
// formula: exactly one of the two is non-nil when the error is nil.
// A name that is neither is UNKNOWN_SUBSTANCE with suggestions (and, for a
// formula that does not read, the position of the fault).
func (c *Catalog) Lookup(name string) (*Substance, *Chemical, error) {
	if s := c.Find(name); s != nil {
		return s, nil, nil
	}
	if !looksLikeFormula(name) {
		return nil, nil, c.Unknown(name, "")
	}
	ch, err := c.Formula(name)
	if err != nil {
		e := err.(*fault.Error)
		c.suggest(e, name)
		return nil, nil, e
	}
	return nil, ch, nil
}

// looksLikeFormula: a formula starts with an element symbol, a group or a
// count, and has no spaces.
func looksLikeFormula(s string) bool {
	if s == "" || strings.ContainsAny(s, " \t") {
		return false
	}
	c := s[0]
	return c >= 'A' && c <= 'Z' || c == '(' || c == '[' || c >= '0' && c <= '9' && strings.IndexFunc(s, func(r rune) bool { return r >= 'A' && r <= 'Z' }) > 0
}

func (b *builder) elements(specs []ElementSpec) {
	c := b.c
	c.elementBy = map[string]*Element{}
	for i := range specs {
		es := &specs[i]
		subject := fmt.Sprintf("element %q", es.Symbol)
		if !isElementSymbol(es.Symbol) {
			b.errorf(es.Origin, subject, "symbol must be an upper-case letter and at most two lower-case ones")
			continue
		}
		if _, dup := c.elementBy[es.Symbol]; dup {
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
		c.elementBy[e.Symbol] = e
		c.elements = append(c.elements, e)
	}
	sort.Slice(c.elements, func(i, j int) bool { return c.elements[i].Number < c.elements[j].Number })
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
	if len(s) == 0 || len(s) > exact.MaxValueLength || strings.ContainsAny(s, "eE/ ") {
		return nil, false
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok || r.Sign() <= 0 {
		return nil, false
	}
	return r, true
}

func (b *builder) conditionSets(specs []ConditionsSpec) {
	c := b.c
	c.conditionBy = map[string]*Conditions{}
	for i := range specs {
		cs := &specs[i]
		subject := fmt.Sprintf("conditions %q", cs.Name)
		set := &Conditions{Name: cs.Name, Aliases: cs.Aliases, Temperature: cs.Temperature, Pressure: cs.Pressure, Source: cs.Source, Note: cs.Note}
		if cs.Source == "" {
			b.errorf(cs.Origin, subject, "source is required")
		}
		var err error
		if set.temperature, set.pressure, err = c.conditionPair(cs.Temperature, cs.Pressure); err != nil {
			b.errorf(cs.Origin, subject, "%s", Message(err))
			continue
		}
		set.temperature.Source, set.pressure.Source = cs.Source, cs.Source
		set.temperature.Conditions, set.pressure.Conditions = cs.Name, cs.Name
		for _, n := range append([]string{cs.Name}, cs.Aliases...) {
			k := fold.Key(n)
			if _, dup := c.conditionBy[k]; dup {
				b.errorf(cs.Origin, subject, "name %q is used twice", n)
				continue
			}
			c.conditionBy[k] = set
		}
		c.conditions = append(c.conditions, set)
	}
}

func (b *builder) substances(specs []SubstanceSpec) {
	c := b.c
	names := 0 // the most names claimAll may claim
	for i := range specs {
		names += 3 + len(specs[i].Aliases)
	}
	c.by = make(map[string]*Substance, names)
	c.names = slices.Grow(c.names, names)
	c.byFormula = map[string]*Substance{}
	for i := range specs {
		ss := &specs[i]
		s, ok := b.substance(ss)
		if !ok {
			continue
		}
		c.substances = append(c.substances, s)
		b.claimAll(s, ss.Origin)
		// A formula is case-sensitive (CO is not Co), and may stand for
		// several substances (cholesterol, and HDL cholesterol reported
		// as cholesterol): it names the first.
		if _, dup := c.byFormula[s.Formula]; s.Formula != "" && !dup {
			c.byFormula[s.Formula] = s
		}
	}
}

// claimAll makes s's ID, name, aliases and CAS number find it.
func (b *builder) claimAll(s *Substance, o fault.Origin) {
	b.claim(s, o, s.ID)
	b.claim(s, o, s.Name)
	for _, a := range s.Aliases {
		b.claim(s, o, a)
	}
	if s.CAS != "" {
		b.claim(s, o, s.CAS)
	}
}

// claim makes name find s, unless it finds another substance already.
func (b *builder) claim(s *Substance, o fault.Origin, name string) {
	c := b.c
	k := fold.Key(name)
	if k == "" {
		return
	}
	if other, dup := c.by[k]; dup {
		if other != s {
			b.errorf(o, fmt.Sprintf("substance %q", s.ID), "name %q is already substance %q", name, other.ID)
		}
		return
	}
	c.by[k] = s
	c.names = append(c.names, claimedName{name, s.ID})
}

// maxNames bounds the aliases of one substance.
const maxNames = 32

func (b *builder) substance(ss *SubstanceSpec) (*Substance, bool) {
	c := b.c
	subject := "substance " + strconv.Quote(ss.ID) // fmt's %q, for every substance
	s := &Substance{ID: ss.ID, Name: ss.Name, Aliases: ss.Aliases, Formula: ss.Formula, CAS: ss.CAS, Description: ss.Description,
		Kind: ss.Kind, Food: ss.Food, State: ss.State}
	for _, p := range ss.Portions {
		s.Portions = append(s.Portions, Portion{Name: p.Name, Measure: p.Measure, Mass: p.Mass})
	}
	ok := true
	fail := func(o fault.Origin, format string, args ...any) {
		b.errorf(o, subject, format, args...)
		ok = false
	}
	if !isID(ss.ID) {
		fail(ss.Origin, "id must be lower-case letters, digits, '_' and '-', starting with a letter")
	}
	if ss.Name == "" {
		fail(ss.Origin, "name is required")
	}
	if len(ss.Aliases) > maxNames {
		fail(ss.Origin, "more than %d aliases", maxNames)
	}
	if ss.CAS != "" && !validCAS(ss.CAS) {
		fail(ss.Origin, "CAS number %q is malformed or fails its check digit", ss.CAS)
	}
	var fromFormula *Property
	if ss.Formula != "" {
		ch, err := c.Formula(ss.Formula)
		if err != nil {
			fail(ss.Origin, "formula: %s", Message(err))
		} else {
			fromFormula = ch.MolarMass()
			if ch.charge != 0 && ss.Charge == 0 {
				s.Charge = ChargeProperty(ch.charge, "the charge of the formula "+ss.Formula)
			}
		}
	}
	switch mm := ss.MolarMass; {
	case mm.Value != "":
		p, err := c.Property("molar_mass", mm.Value, MolarMassDim)
		if err != nil {
			fail(mm.Origin, "molar_mass: %s", Message(err))
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
		p, err := c.Property("density", d.Value, DensityDim)
		switch {
		case err != nil:
			fail(d.Origin, "density: %s", Message(err))
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
		s.Charge = ChargeProperty(ss.Charge, ss.ChargeSource)
	}
	if ok && s.MolarMass == nil && s.Density == nil && s.Charge == nil {
		fail(ss.Origin, "gives no molar mass (nor formula), density or charge")
	}
	return s, ok
}

func isID(s string) bool {
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

// Message is an error's message without its code (of a *fault.Error or
// a *FieldError).
func Message(err error) string {
	switch e := err.(type) {
	case *fault.Error:
		return e.Message
	case *FieldError:
		return e.Message
	}
	return err.Error()
}

// Property reads "VALUE UNIT" of the given dimension into a property in
// coherent SI units; it must be positive.
func (c *Catalog) Property(field, text string, want dimension.Vector) (*Property, error) {
	v, err := Quantity(c.q, field, text, want)
	if err != nil {
		return nil, err
	}
	if v.Sign() <= 0 {
		return nil, FieldErrorf(field, "%q: must be greater than zero", fault.Truncate(text, 64))
	}
	return &Property{Name: field, Value: strings.Join(strings.Fields(text), " "), si: v}, nil
}

// Conditions reads a named set (STP) or "TEMPERATURE, PRESSURE" in either
// order, as a request states them.
func (c *Catalog) Conditions(text string) (*Property, *Property, error) {
	if set, ok := c.conditionBy[fold.Key(text)]; ok {
		return set.temperature, set.pressure, nil
	}
	a, b, ok := strings.Cut(text, ",")
	if !ok {
		return nil, nil, FieldErrorf("conditions", "%q: expected a named set (%s) or a temperature and a pressure, such as \"25 degC, 101.325 kPa\"", fault.Truncate(text, 64), c.conditionNames())
	}
	t, p, err := c.conditionPair(a, b)
	if err != nil {
		var e2 error
		if t, p, e2 = c.conditionPair(b, a); e2 != nil {
			return nil, nil, err
		}
	}
	shown := strings.Join(strings.Fields(text), " ")
	t.Source, p.Source = "the request", "the request"
	t.Conditions, p.Conditions = shown, shown
	return t, p, nil
}

func (c *Catalog) conditionNames() string {
	var names []string
	for _, set := range c.conditions {
		names = append(names, set.Name)
	}
	return strings.Join(names, ", ")
}

// conditionPair reads a temperature and a pressure; the temperature must
// be above absolute zero and the pressure positive.
func (c *Catalog) conditionPair(temp, press string) (*Property, *Property, error) {
	t, err := Quantity(c.q, "conditions", temp, TemperatureDim)
	if err != nil {
		return nil, nil, err
	}
	if t.Sign() <= 0 {
		return nil, nil, FieldErrorf("conditions", "temperature %q is not above absolute zero", fault.Truncate(strings.TrimSpace(temp), 64))
	}
	p, err := Quantity(c.q, "conditions", press, PressureDim)
	if err != nil {
		return nil, nil, err
	}
	if p.Sign() <= 0 {
		return nil, nil, FieldErrorf("conditions", "pressure %q must be greater than zero", fault.Truncate(strings.TrimSpace(press), 64))
	}
	return &Property{Name: "temperature", Value: strings.Join(strings.Fields(temp), " "), si: t},
		&Property{Name: "pressure", Value: strings.Join(strings.Fields(press), " "), si: p}, nil
}

// Example is an example of a quantity of dimension d, for messages.
func Example(d dimension.Vector) string {
	switch d {
	case MolarMassDim:
		return "180.156 g/mol"
	case DensityDim:
		return "0.745 kg/L"
	case TemperatureDim:
		return "25 degC"
	case PressureDim:
		return "101.325 kPa"
	}
	return "1 " + d.SIText()
}
