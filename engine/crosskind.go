package engine

import (
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/unitd/unitd/engine/dimension"
	"github.com/unitd/unitd/engine/internal/exact"
)

// Conversions across kinds of quantity
//
// A property of what is measured relates two dimensions by an exact
// rational factor: a molar mass M (M N⁻¹) relates mass and amount, a
// density ρ (M L⁻³) mass and volume, a charge number z (Z) amount and
// equivalents, and the molar volume of an ideal gas Vm = R·T/p (L³ N⁻¹,
// R = N_A·k exactly) volume and amount. When two units' dimensions differ
// by D = M^a · Z^c · (L³ N⁻¹)^d with each exponent −1, 0 or 1, the
// conversion divides by M^a · z^c · Vm^d between the source's coherent SI
// unit and the target's. M·Vm⁻¹ together is a density: the one the
// request states, else that of the ideal gas at the stated conditions,
// else the substance's own (a liquid's or a solid's), except where one
// side is a gas's mixing ratio, which only the gas's density converts.
// A dimensionless side converts so only when its category holds mixing
// ratios of a gas (amount or volume fractions; not mass fractions).
//
// The factor enters the plan through the kernel's seam, plan.withFactor,
// so the conversion stays one exact map and one rounding; the answer is
// not exact, since the properties are measured or rounded values.

// Dimensions of the properties.
var (
	molarMassDim   = dimension.Of(map[string]int{"M": 1, "N": -1})
	densityDim     = dimension.Of(map[string]int{"M": 1, "L": -3})
	temperatureDim = dimension.Of(map[string]int{"Θ": 1})
	pressureDim    = dimension.Of(map[string]int{"M": 1, "L": -1, "T": -2})
)

// gasConstant is R = N_A·k, exact since the SI of 2019, in J/(mol·K).
var gasConstant = func() *big.Rat {
	na, _ := new(big.Rat).SetString("6.02214076e23")
	k, _ := new(big.Rat).SetString("1.380649e-23")
	return na.Mul(na, k)
}()

// gasConstantSource cites R.
const gasConstantSource = "SI Brochure, 9th ed. (2019), §2.2 (N_A = 6.02214076e23 mol⁻¹, k = 1.380649e-23 J/K, exact), R = N_A·k"

// PropertyQuery is what a request says about the substance measured, as
// text: a substance's name, alias, CAS number or formula, and explicit
// values that win over the substance's.
type PropertyQuery struct {
	Substance  string
	MolarMass  string // "180.156 g/mol"
	Density    string // "0.745 kg/L"
	Charge     string // a non-zero whole number
	Conditions string // "25 degC, 101.325 kPa" or a named set (STP)
}

// IsZero reports whether the query says nothing.
func (q PropertyQuery) IsZero() bool { return q == PropertyQuery{} }

// Properties are the resolved properties of what a request measures. They
// are immutable and may be shared by the conversions of a batch.
type Properties struct {
	// Substance is the catalog substance named, or nil.
	Substance *Substance
	// Formula is a formula that names no catalog substance, or "".
	Formula                     string
	MolarMass, Density, Charge  *Property
	Temperature, Pressure       *Property
	densityStated, gasCondition bool
	key                         string
	// shared marks a catalog substance's own properties, which live as
	// long as the graph; seed tells them apart in the pair cache.
	shared bool
	seed   uint64
	// interned marks properties kept by the graph's cache of resolved
	// queries (propertiesCache): one pointer per query, so that planned
	// pairs are found by it.
	interned bool
}

// hashSeed mixes a catalog substance into a pair's hash; 0 for none.
func (p *Properties) hashSeed() uint64 {
	if p == nil {
		return 0
	}
	return p.seed
}

// FieldError is a request field whose value is not valid: a molar mass,
// density, charge or conditions that do not read, or are out of range.
type FieldError struct {
	Field   string
	Message string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Message }

func fieldErrorf(field, format string, args ...any) *FieldError {
	return &FieldError{Field: field, Message: fmt.Sprintf(format, args...)}
}

// ResolveProperties reads a query: a substance by name, alias, CAS number
// or formula (UNKNOWN_SUBSTANCE when it is none of these, with
// suggestions or the position of the fault), and the explicit values
// (*FieldError when one does not read). A nil result with a nil error
// means the query was empty.
func (g *Graph) ResolveProperties(q PropertyQuery) (*Properties, error) {
	if q.IsZero() {
		return nil, nil
	}
	if q.Substance != "" && q.MolarMass == "" && q.Density == "" && q.Charge == "" && q.Conditions == "" {
		// The common case, without copying: a catalog substance alone.
		if s := g.catalogSubstance(q.Substance); s != nil {
			return s.props, nil
		}
	}
	if p := g.resolved.get(q); p != nil {
		return p, nil
	}
	// The texts may be views of a request's pooled buffer; what resolves
	// from them may be cached beyond the request.
	q = PropertyQuery{strings.Clone(q.Substance), strings.Clone(q.MolarMass), strings.Clone(q.Density), strings.Clone(q.Charge), strings.Clone(q.Conditions)}
	var p Properties
	if q.Substance != "" {
		s, formula, err := g.lookupSubstance(q.Substance)
		if err != nil {
			return nil, err
		}
		if s != nil {
			p = *s.props
			p.shared = false
		} else {
			p.Formula = q.Substance
			p.MolarMass = formula.molarMass()
			if formula.charge != 0 {
				p.Charge = &Property{Name: "charge", Value: strconv.Itoa(formula.charge), Source: "the charge of the formula " + q.Substance, si: big.NewRat(int64(abs(formula.charge)), 1)}
			}
		}
	}
	if q.MolarMass != "" {
		m, err := g.quantityProperty("molar_mass", q.MolarMass, molarMassDim)
		if err != nil {
			return nil, err
		}
		m.Source = "the request"
		p.MolarMass = m
	}
	if q.Density != "" {
		d, err := g.quantityProperty("density", q.Density, densityDim)
		if err != nil {
			return nil, err
		}
		d.Source = "the request"
		p.Density, p.densityStated = d, true
	}
	if q.Charge != "" {
		z, err := strconv.Atoi(strings.TrimPrefix(q.Charge, "+"))
		if err != nil || z == 0 || z < -99 || z > 99 || len(q.Charge) > 4 {
			return nil, fieldErrorf("charge", "expected a non-zero whole number from -99 to 99, found %q", shorten(q.Charge))
		}
		p.Charge = &Property{Name: "charge", Value: strconv.Itoa(z), Source: "the request", si: big.NewRat(int64(abs(z)), 1)}
	}
	if q.Conditions != "" {
		t, pr, err := g.parseConditions(q.Conditions)
		if err != nil {
			return nil, err
		}
		p.Temperature, p.Pressure, p.gasCondition = t, pr, true
	}
	p.key = p.makeKey()
	return g.resolved.put(q, &p), nil
}

// propertiesCache keeps resolved queries that name more than a catalog
// substance (explicit values, formulas, conditions), at most
// maxCachedExpressions of them: resolving reads quantities and formulas,
// ten times the cost of a conversion, and the answer depends only on the
// query and the graph. Failed queries are not kept.
type propertiesCache struct {
	m sync.Map // PropertyQuery → *Properties
	n atomic.Int64
	// seq numbers the kept properties, for their seed in the pair cache.
	seq atomic.Uint64
}

// maxCachedQuery bounds the texts of a query the cache keeps.
const maxCachedQuery = 512

func (c *propertiesCache) get(q PropertyQuery) *Properties {
	if v, ok := c.m.Load(q); ok {
		return v.(*Properties)
	}
	return nil
}

// put keeps p for q, whose texts must be the caller's own, and returns
// the properties to use: p, marked interned when kept.
func (c *propertiesCache) put(q PropertyQuery, p *Properties) *Properties {
	if len(q.Substance)+len(q.MolarMass)+len(q.Density)+len(q.Charge)+len(q.Conditions) > maxCachedQuery {
		return p
	}
	if c.n.Add(1) > maxCachedExpressions {
		c.m.Clear()
		c.n.Store(1)
	}
	p.interned = true
	p.seed = c.seq.Add(1) * 0xbf58476d1ce4e5b9 // apart from the substances' seeds
	if v, loaded := c.m.LoadOrStore(q, p); loaded {
		return v.(*Properties)
	}
	return p
}

// lookupSubstance finds a catalog substance, or else reads a formula.
func (g *Graph) lookupSubstance(name string) (*Substance, *chemical, error) {
	if s := g.catalogSubstance(name); s != nil {
		return s, nil, nil
	}
	if !looksLikeFormula(name) {
		return nil, nil, g.unknownSubstance(name, "")
	}
	ch, err := g.parseChemical(name)
	if err != nil {
		e := err.(*Error)
		e.Suggestions = g.substanceSuggester.Suggest(name, 5)
		if len(e.Suggestions) > 0 {
			e.Message += "; did you mean " + strings.Join(e.Suggestions, ", ") + "?"
		}
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

// makeKey writes everything the properties say, so that two with one key
// convert and explain alike.
func (p *Properties) makeKey() string {
	var b strings.Builder
	if p.Substance != nil {
		b.WriteString("s=" + p.Substance.ID)
	}
	b.WriteString("|f=" + p.Formula)
	for _, q := range []*Property{p.MolarMass, p.Density, p.Charge, p.Temperature, p.Pressure} {
		b.WriteByte('|')
		if q != nil {
			b.WriteString(q.Name + "=" + q.Value + "@" + q.Conditions + "#" + q.Source)
		}
	}
	if p.densityStated {
		b.WriteString("|ds")
	}
	return b.String()
}

// quantityProperty reads "VALUE UNIT" of the given dimension into a
// property in coherent SI units; it must be positive.
func (g *Graph) quantityProperty(field, text string, want dimension.Vector) (*Property, error) {
	v, err := g.quantity(field, text, want)
	if err != nil {
		return nil, err
	}
	if v.Sign() <= 0 {
		return nil, fieldErrorf(field, "%q: must be greater than zero", shorten(text))
	}
	return &Property{Name: field, Value: strings.Join(strings.Fields(text), " "), si: v}, nil
}

// quantity reads "VALUE UNIT" exactly into coherent SI units.
func (g *Graph) quantity(field, text string, want dimension.Vector) (*big.Rat, error) {
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
		return nil, fieldErrorf(field, "%q: expected a value and a unit, such as %q", shorten(text), exampleOf(want))
	}
	x, err := ParseValue(num)
	if err != nil {
		return nil, fieldErrorf(field, "%q: %s", shorten(text), errorMessage(err))
	}
	s, err := g.resolve(unit)
	if err != nil {
		return nil, fieldErrorf(field, "%q: %s", shorten(text), errorMessage(err))
	}
	var m *exact.Map
	switch {
	case s.unit != nil && s.unit.si != nil:
		m = s.unit.si.m
	case s.expr != nil:
		m = s.expr.conv.m
	}
	if m == nil {
		return nil, fieldErrorf(field, "%q: %s converts through a formula; name a linear unit", shorten(text), s.symbol())
	}
	if s.dim() != want {
		return nil, fieldErrorf(field, "%q: %s has dimension %s, not %s (such as %q)", shorten(text), s.symbol(), s.dim(), want, exampleOf(want))
	}
	if m.K() != 0 {
		return nil, fieldErrorf(field, "%q: a unit through π cannot state an exact value", shorten(text))
	}
	if m.HasPole() {
		return nil, fieldErrorf(field, "%q: %s is a reciprocal unit and cannot state a value", shorten(text), s.symbol())
	}
	v, err := m.At(&x)
	if err != nil {
		return nil, fieldErrorf(field, "%q: value out of range", shorten(text))
	}
	d := v.Rat()
	if err := exact.CheckSize(d); err != nil {
		return nil, fieldErrorf(field, "%q: value out of range", shorten(text))
	}
	return d, nil
}

func exampleOf(d dimension.Vector) string {
	switch d {
	case molarMassDim:
		return "180.156 g/mol"
	case densityDim:
		return "0.745 kg/L"
	case temperatureDim:
		return "25 degC"
	case pressureDim:
		return "101.325 kPa"
	}
	return "1 " + d.SIText()
}

// parseConditions reads a named set (STP) or "TEMPERATURE, PRESSURE" in
// either order.
func (g *Graph) parseConditions(text string) (*Property, *Property, error) {
	if c, ok := g.conditionBy[foldWord(text)]; ok {
		return c.temperature, c.pressure, nil
	}
	a, b, ok := strings.Cut(text, ",")
	if !ok {
		return nil, nil, fieldErrorf("conditions", "%q: expected a named set (%s) or a temperature and a pressure, such as \"25 degC, 101.325 kPa\"", shorten(text), g.conditionNames())
	}
	t, p, err := g.parseConditionPair(a, b)
	if err != nil {
		var e2 error
		if t, p, e2 = g.parseConditionPair(b, a); e2 != nil {
			return nil, nil, err
		}
	}
	shown := strings.Join(strings.Fields(text), " ")
	t.Source, p.Source = "the request", "the request"
	t.Conditions, p.Conditions = shown, shown
	return t, p, nil
}

func (g *Graph) conditionNames() string {
	var names []string
	for _, c := range g.conditions {
		names = append(names, c.Name)
	}
	return strings.Join(names, ", ")
}

// parseConditionPair reads a temperature and a pressure; the temperature
// must be above absolute zero and the pressure positive.
func (g *Graph) parseConditionPair(temp, press string) (*Property, *Property, error) {
	t, err := g.quantity("conditions", temp, temperatureDim)
	if err != nil {
		return nil, nil, err
	}
	if t.Sign() <= 0 {
		return nil, nil, fieldErrorf("conditions", "temperature %q is not above absolute zero", shorten(strings.TrimSpace(temp)))
	}
	p, err := g.quantity("conditions", press, pressureDim)
	if err != nil {
		return nil, nil, err
	}
	if p.Sign() <= 0 {
		return nil, nil, fieldErrorf("conditions", "pressure %q must be greater than zero", shorten(strings.TrimSpace(press)))
	}
	return &Property{Name: "temperature", Value: strings.Join(strings.Fields(temp), " "), si: t},
		&Property{Name: "pressure", Value: strings.Join(strings.Fields(press), " "), si: p}, nil
}

// crossFactor is what a conversion across kinds divides by, between the
// coherent SI units of its two sides, and the properties it used.
type crossFactor struct {
	r    *big.Rat
	used []*Property
}

// crossExponents says whether from and to differ by M^a·Z^c·(L³N⁻¹)^d
// with small exponents, and returns them.
func crossExponents(fd, td dimension.Vector) (a, c, d int, ok bool) {
	delta := fd.Add(td, -1)
	a, c = delta[dimension.Index("M")], delta[dimension.Index("Z")]
	l, n := delta[dimension.Index("L")], delta[dimension.Index("N")]
	if l%3 != 0 {
		return 0, 0, 0, false
	}
	d = l / 3
	if n != -a-d || abs(a) > 1 || abs(c) > 1 || abs(d) > 1 || (a == 0 && c == 0 && d == 0) {
		return 0, 0, 0, false
	}
	for i, e := range delta {
		switch dimension.Symbols()[i] {
		case "M", "Z", "L", "N":
		default:
			if e != 0 {
				return 0, 0, 0, false
			}
		}
	}
	return a, c, d, true
}

// needText says how to give each missing property.
var needText = map[string]string{
	"molar_mass": "a molar mass: pass `substance` or `molar_mass`",
	"density":    "a density: pass `substance` or `density` (for a gas, `conditions` with a molar mass)",
	"charge":     "a charge number: pass `substance` (an ion) or `charge`",
	"conditions": "a temperature and pressure: pass `conditions` (\"25 degC, 101.325 kPa\", or a named set such as STP)",
}

// crossFactorOf finds the factor between from and to given p (which may be
// nil). ok is false when the two are not related by a property at all;
// needs lists what is missing when they are but p lacks it.
func (g *Graph) crossFactorOf(from, to side, fd, td dimension.Vector, p *Properties) (f crossFactor, needs []string, ok bool) {
	a, c, d, ok := crossExponents(fd, td)
	if !ok {
		return f, nil, false
	}
	mixing := false
	for _, s := range [2]side{from, to} {
		if s.dim() == (dimension.Vector{}) {
			if cat := s.category(); cat == nil || !g.mixingRatios[cat] {
				return f, nil, false
			}
			mixing = true
		}
	}
	if p == nil {
		p = &Properties{}
	}
	r := big.NewRat(1, 1)
	use := func(q *Property, e int) {
		if e == 0 {
			return
		}
		v := q.si
		if e < 0 {
			v = new(big.Rat).Inv(v)
		}
		r.Mul(r, v)
		f.used = append(f.used, q)
	}
	need := func(field string) {
		for _, n := range needs {
			if n == field {
				return
			}
		}
		needs = append(needs, field)
	}
	gas := p.Temperature != nil && p.Pressure != nil
	vm := func(e int) {
		// Vm = R·T/p.
		v := new(big.Rat).Mul(gasConstant, p.Temperature.si)
		v.Quo(v, p.Pressure.si)
		if e < 0 {
			v.Inv(v)
		}
		r.Mul(r, v)
		f.used = append(f.used, p.Temperature, p.Pressure, &Property{Name: "gas_constant", Value: gasConstant.FloatString(14) + " J/(mol*K)", Source: gasConstantSource, si: gasConstant})
	}
	if a != 0 && a == -d {
		// A density: stated, of the gas at the conditions, or the
		// substance's own (not for a gas's mixing ratio).
		switch {
		case p.densityStated:
			use(p.Density, a)
		case gas && p.MolarMass != nil:
			use(p.MolarMass, a)
			vm(d)
		case p.Density != nil && !mixing:
			use(p.Density, a)
		case mixing:
			if p.MolarMass == nil {
				need("molar_mass")
			}
			if !gas {
				need("conditions")
			}
		default:
			need("density")
		}
	} else {
		if a != 0 {
			if p.MolarMass == nil {
				need("molar_mass")
			} else {
				use(p.MolarMass, a)
			}
		}
		if d != 0 {
			if !gas {
				need("conditions")
			} else {
				vm(d)
			}
		}
	}
	if c != 0 {
		if p.Charge == nil {
			need("charge")
		} else {
			use(p.Charge, c)
		}
	}
	f.r = r
	return f, needs, true
}

// needsError is INCOMPATIBLE_UNITS saying what the conversion lacks.
func needsError(from, to side, fd, td dimension.Vector, needs []string) *Error {
	parts := make([]string, len(needs))
	for i, n := range needs {
		parts[i] = needText[n]
	}
	e := errorf(CodeIncompatibleUnits, "%s → %s needs %s", kindOf(from), kindOf(to), strings.Join(parts, "; and "))
	e.Details = dimensionDetails(fd, td)
	e.Needs = needs
	return e
}

// crossPlan plans a conversion across kinds: both sides' maps onto their
// coherent SI units, with the properties' factor between them
// (plan.withFactor). err is the INCOMPATIBLE_UNITS
// error to report when the pair does not convert (with what it needs when
// a property would convert it).
func (g *Graph) crossPlan(from, to side, p *Properties) (plan, error) {
	pl := plan{fromUnit: from.unit, fromName: from.symbol(), unit: to.symbol()}
	fc, _, err := frameOf(from, to)
	if err != nil {
		return pl, errNotAcrossKinds
	}
	tc, tcat, err := frameOf(to, from)
	if err != nil {
		return pl, errNotAcrossKinds
	}
	fd, td := from.dim(), to.dim()
	f, needs, ok := g.crossFactorOf(from, to, fd, td, p)
	if !ok {
		return pl, errNotAcrossKinds
	}
	if len(needs) > 0 {
		return pl, needsError(from, to, fd, td, needs)
	}
	pl.from, pl.to = fc, tc
	pl.category = tcat
	if pl.category != nil {
		pl.categoryID = pl.category.ID
	} else {
		pl.categoryID = td.String()
	}
	// The factor is the kernel's: the pair's maps with the target's
	// reference value 1/f times the source's, composed into one exact
	// map and rounded once. The plan is not exact, since the properties
	// are measured values.
	g.finish(&pl, from, to)
	pl, err = pl.withFactor(new(big.Rat).Inv(f.r), 0)
	if err != nil {
		return pl, errNotAcrossKinds
	}
	pl.used = f.used
	return pl, nil
}

// crossCache remembers planned conversions across kinds by the two names
// and the properties' key, at most maxCachedExpressions of them.
type crossCache struct {
	m sync.Map // crossKey → *pairEntry
	n atomic.Int64
}

// crossKey names a planned pair: by the properties' identity when they
// are a catalog substance's own or interned (shared by every request that
// names them, and cheap to hash), else by their key.
type crossKey struct {
	from, to string
	p        *Properties
	props    string
}

func newCrossKey(from, to string, p *Properties) crossKey {
	if p.shared || p.interned {
		return crossKey{from: from, to: to, p: p}
	}
	return crossKey{from: from, to: to, props: p.key}
}

// maxCrossKey bounds the keys the cache keeps.
const maxCrossKey = 1024

func (c *crossCache) get(k crossKey) *pairEntry {
	if v, ok := c.m.Load(k); ok {
		return v.(*pairEntry)
	}
	return nil
}

func (c *crossCache) put(k crossKey, e *pairEntry) {
	if len(k.from)+len(k.to)+len(k.props) > maxCrossKey {
		return
	}
	if c.n.Add(1) > maxCachedExpressions {
		c.m.Clear()
		c.n.Store(1)
	}
	k.from, k.to = strings.Clone(k.from), strings.Clone(k.to)
	c.m.Store(k, e)
}

// resolveCross resolves a pair that did not convert as is, with the
// request's properties: the planned pair, or the error to report.
func (g *Graph) resolveCross(e *pairEntry, fromName, toName string, p *Properties) error {
	from, err := g.resolve(fromName)
	if err != nil {
		return err
	}
	to, err := g.resolve(toName)
	if err != nil {
		return err
	}
	pl, err := g.crossPlan(from, to, p)
	if err != nil {
		return err
	}
	e.fromSide, e.toSide, e.plan = from, to, pl
	switch {
	case p != nil && (p.shared || p.interned) && g.pairs != nil:
		g.pairs.putWith(fromName, toName, from, to, &pl, p)
	case p != nil:
		g.cross.put(newCrossKey(fromName, toName, p), &pairEntry{fromSide: from, toSide: to, plan: pl})
	}
	return nil
}

// errNotAcrossKinds says that two units are not related by a property of
// a substance either: the caller reports why they do not convert.
var errNotAcrossKinds = errors.New("not related by a substance property")

// isIncompatible reports whether err is INCOMPATIBLE_UNITS.
func isIncompatible(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == CodeIncompatibleUnits
}
