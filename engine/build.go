package engine

import (
	"errors"
	"fmt"
	"math/big"
	"sort"
	"strings"

	"github.com/cockroachdb/apd/v3"
)

// Build checks spec as a whole and compiles it into a Graph. It reports
// every problem it finds, each a *SpecError located at its origin; the
// Graph is nil when there is any.
func Build(spec Spec) (*Graph, []error) {
	b := &builder{
		g: &Graph{
			version:     spec.Version,
			byID:        map[string]*Category{},
			bySymbol:    map[string]*Unit{},
			byWord:      map[string]*Unit{},
			ambiguous:   map[string]*Ambiguity{},
			byDimension: map[dimension]*Category{},
			bridges:     map[categoryPair]*Bridge{},
			bridged:     map[unitBridge]*conversion{},
			pairs:       newPairCache(),
		},
		origins:         map[*Unit]Origin{},
		categoryOrigins: map[*Category]Origin{},
		dropped:         map[*Unit]bool{},
		defs:            map[*Unit]DefinitionSpec{},
		specs:           map[*Unit]*UnitSpec{},
		wordOf:          map[string]*Unit{},
	}
	b.categories(spec.Categories)
	b.spellings()
	b.ambiguities(spec.Categories)
	for _, s := range b.g.spellings {
		b.g.maxName = max(b.g.maxName, len(s.text))
	}
	for name := range b.g.ambiguous {
		b.g.maxName = max(b.g.maxName, len(name))
	}
	b.g.suggester = newSuggestIndex(b.g.spellings) // resolve's errors suggest too
	b.resolve()
	if len(b.errs) == 0 {
		b.frames(spec.Bridges)
	}
	if len(b.errs) == 0 {
		b.checkFormulas()
		b.checkExamples()
	}
	if len(b.errs) == 0 && spec.Preferences != nil {
		b.preferences(spec.Preferences)
	}
	if len(b.errs) > 0 {
		return nil, b.errs
	}
	return b.g, nil
}

type builder struct {
	g               *Graph
	errs            []error
	origins         map[*Unit]Origin
	categoryOrigins map[*Category]Origin
	dropped         map[*Unit]bool // units whose symbol clashed: not compiled further
	defs            map[*Unit]DefinitionSpec
	specs           map[*Unit]*UnitSpec
	wordOf          map[string]*Unit
}

func (b *builder) errorf(o Origin, subject, format string, args ...any) {
	b.errs = append(b.errs, &SpecError{Origin: o, Subject: subject, Message: fmt.Sprintf(format, args...)})
}

func unitSubject(symbol string) string { return fmt.Sprintf("unit %q", symbol) }

// categories creates every category and unit, expanding prefixes.
func (b *builder) categories(specs []CategorySpec) {
	sorted := make([]*CategorySpec, len(specs))
	for i := range specs {
		sorted[i] = &specs[i]
	}
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].ID < sorted[j].ID })
	for _, cs := range sorted {
		subject := fmt.Sprintf("category %q", cs.ID)
		if cs.ID == "" {
			b.errorf(cs.Origin, "category", "missing id")
			continue
		}
		if _, dup := b.g.byID[cs.ID]; dup {
			b.errorf(cs.Origin, subject, "declared twice")
			continue
		}
		if cs.Name == "" {
			b.errorf(cs.Origin, subject, "missing name")
		}
		for d := range cs.Dimension {
			if indexOf(d) < 0 {
				b.errorf(cs.Origin, subject, "unknown base dimension %q (known: M L T I Θ N J A D)", d)
			}
		}
		c := &Category{ID: cs.ID, Name: cs.Name, Description: cs.Description, Minimum: cs.Minimum,
			Preferred: cs.Preferred, Logarithmic: cs.Logarithmic, dim: dimensionOf(cs.Dimension)}
		if cs.Logarithmic && cs.Preferred {
			b.errorf(cs.Origin, subject, "a logarithmic category cannot be preferred: unit expressions never convert into it")
		}
		b.categoryOrigins[c] = cs.Origin
		if cs.SIFactor != "" {
			f, err := parseExact(cs.SIFactor)
			switch {
			case err != nil:
				b.errorf(cs.Origin, subject, "si_factor: %v", err)
			case f.r.Sign() <= 0:
				b.errorf(cs.Origin, subject, "si_factor must be positive, not %s", cs.SIFactor)
			default:
				c.siFactor = &f
			}
		}
		if cs.Minimum != "" {
			m, err := parseExact(cs.Minimum)
			switch {
			case err != nil:
				b.errorf(cs.Origin, subject, "minimum: %v", err)
			case m.k != 0:
				b.errorf(cs.Origin, subject, "minimum: %s involves pi, which no decimal can state exactly", cs.Minimum)
			default:
				c.minimum = m.r
			}
		}
		b.g.byID[c.ID] = c
		b.g.categories = append(b.g.categories, c)
		for i := range cs.Units {
			b.unit(c, &cs.Units[i])
		}
		for _, u := range c.Units {
			if u.Symbol == cs.Base && c.Base == nil {
				c.Base = u
			}
		}
		switch {
		case cs.Base == "":
			b.errorf(cs.Origin, subject, "missing base unit")
		case c.Base == nil:
			b.errorf(cs.Origin, subject, "base unit %q is not one of its units", cs.Base)
		}
		b.g.units = append(b.g.units, c.Units...)
	}
}

// unit adds one declared unit and the units its prefixes generate.
func (b *builder) unit(c *Category, us *UnitSpec) {
	subject := unitSubject(us.Symbol)
	if us.Symbol == "" {
		b.errorf(us.Origin, "unit", "missing symbol")
		return
	}
	for _, missing := range []struct{ field, value string }{
		{"name", us.Name}, {"plural", us.Plural}, {"system", us.System}, {"source", us.Source},
	} {
		if strings.TrimSpace(missing.value) == "" {
			b.errorf(us.Origin, subject, "missing %s", missing.field)
		}
	}
	u := &Unit{
		Symbol: us.Symbol, Name: us.Name, Plural: us.Plural,
		Aliases: us.Aliases, Symbols: us.Symbols,
		Category: c, System: us.System, Description: us.Description,
		Exact: us.Exact, Source: us.Source,
		Definition: definitionOf(us.Definition),
	}
	for _, ex := range us.Examples {
		from := ex.From
		if from == "" {
			from = us.Symbol
		}
		u.Examples = append(u.Examples, Example{Value: ex.Value, From: from, To: ex.To, Result: ex.Result, Approx: ex.Approx})
	}
	b.add(c, u, us.Origin, us.Definition, us)
	if us.Prefixes == nil {
		return
	}
	b.prefixed(c, u, us)
}

func (b *builder) add(c *Category, u *Unit, o Origin, def DefinitionSpec, us *UnitSpec) {
	c.Units = append(c.Units, u)
	b.origins[u] = o
	b.defs[u] = def
	b.specs[u] = us
}

func definitionOf(d DefinitionSpec) Definition {
	def := Definition{Unit: d.Unit, Factor: d.Factor, Offset: d.Offset, To: d.To, From: d.From}
	switch {
	case d.To != "" || d.From != "":
		def.Kind = "formula"
	case d.Offset != "":
		def.Kind = "affine"
	case d.Factor != "" || d.Unit != "":
		def.Kind = "linear"
		if def.Factor == "" {
			def.Factor = "1"
		}
	default:
		def.Kind = "base"
	}
	return def
}

// prefixed generates the prefixed forms of u.
func (b *builder) prefixed(c *Category, u *Unit, us *UnitSpec) {
	ps := us.Prefixes
	subject := unitSubject(us.Symbol)
	set, ok := prefixSets[ps.Set]
	if !ok {
		b.errorf(ps.Origin, subject, "unknown prefix set %q (known: si, binary)", ps.Set)
		return
	}
	if len(ps.Only) > 0 && len(ps.Except) > 0 {
		b.errorf(ps.Origin, subject, "prefixes: use only or except, not both")
		return
	}
	known := map[string]bool{}
	for _, p := range set {
		known[p.Symbol] = true
	}
	listed := map[string]bool{}
	for _, s := range append(append([]string{}, ps.Only...), ps.Except...) {
		if !known[s] {
			b.errorf(ps.Origin, subject, "prefix %q is not in the %s set", s, ps.Set)
		}
		listed[s] = true
	}
	for _, p := range set {
		if len(ps.Only) > 0 && !listed[p.Symbol] || len(ps.Except) > 0 && listed[p.Symbol] {
			continue
		}
		factor := new(big.Int).Exp(big.NewInt(int64(p.Base)), big.NewInt(int64(abs(p.Power))), nil).String()
		if p.Power < 0 {
			factor = "1/" + factor
		}
		pu := &Unit{
			Symbol:   p.Symbol + u.Symbol,
			Name:     p.Name + u.Name,
			Plural:   p.Name + u.Plural,
			Category: c, System: u.System,
			Exact:    u.Exact,
			Source:   u.Source + "; prefix " + p.Name + ": " + prefixSources[ps.Set],
			Prefixed: u,
			Definition: Definition{
				Kind: "linear", Unit: u.Symbol, Factor: factor,
			},
		}
		for _, a := range u.Aliases {
			pu.Aliases = append(pu.Aliases, p.Name+a)
		}
		for _, ps := range append([]string{p.Symbol}, p.Symbols...) {
			for _, s := range append([]string{u.Symbol}, u.Symbols...) {
				if ps+s != pu.Symbol {
					pu.Symbols = append(pu.Symbols, ps+s)
				}
			}
		}
		b.add(c, pu, ps.Origin, DefinitionSpec{Unit: u.Symbol, Factor: factor, Origin: ps.Origin}, nil)
	}
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// spellings indexes every symbol and word, reporting clashes.
func (b *builder) spellings() {
	for _, u := range b.g.units {
		o := b.origins[u]
		for _, s := range append([]string{u.Symbol}, u.Symbols...) {
			if s == "" || strings.TrimSpace(s) != s {
				b.errorf(o, unitSubject(u.Symbol), "symbol %q is empty or has surrounding white space", s)
				continue
			}
			if other, dup := b.g.bySymbol[s]; dup && other != u {
				b.errorf(o, unitSubject(u.Symbol), "symbol %q is already used by unit %q (%s)", s, other.Symbol, describeOrigin(other, b.origins[other]))
				if s == u.Symbol {
					b.dropped[u] = true
				}
				continue
			}
			b.g.bySymbol[s] = u
			b.g.spellings = append(b.g.spellings, spelling{s, u})
		}
	}
	for _, u := range b.g.units {
		o := b.origins[u]
		words := append([]string{u.Name, u.Plural}, u.Aliases...)
		for _, w := range words {
			key := foldWord(w)
			if key == "" {
				continue
			}
			if other, dup := b.g.byWord[key]; dup && other != u {
				b.errorf(o, unitSubject(u.Symbol), "name %q is already used by unit %q (%s); word names are compared case-insensitively", w, other.Symbol, b.origins[other])
				continue
			}
			if other, clash := b.g.bySymbol[w]; clash && other != u {
				b.errorf(o, unitSubject(u.Symbol), "name %q is the symbol of unit %q (%s)", w, other.Symbol, b.origins[other])
				continue
			}
			if _, seen := b.g.byWord[key]; !seen {
				b.g.spellings = append(b.g.spellings, spelling{w, u})
			}
			b.g.byWord[key] = u
		}
	}
}

// ambiguities records names declared ambiguous.
func (b *builder) ambiguities(specs []CategorySpec) {
	for _, cs := range specs {
		for _, as := range cs.Ambiguous {
			subject := fmt.Sprintf("ambiguous name %q", as.Name)
			key := foldWord(as.Name)
			if key == "" {
				b.errorf(as.Origin, "ambiguous name", "missing name")
				continue
			}
			if _, dup := b.g.ambiguous[key]; dup {
				b.errorf(as.Origin, subject, "declared twice")
				continue
			}
			if u, ok := b.g.byWord[key]; ok {
				b.errorf(as.Origin, subject, "is also a name of unit %q (%s); an ambiguous name must not be an alias", u.Symbol, b.origins[u])
			}
			if u, ok := b.g.bySymbol[as.Name]; ok {
				b.errorf(as.Origin, subject, "is the symbol of unit %q; symbols keep their one meaning", u.Symbol)
			}
			if len(as.Candidates) < 2 {
				b.errorf(as.Origin, subject, "needs at least two candidates")
			}
			a := &Ambiguity{Name: as.Name, Note: as.Note}
			for _, c := range as.Candidates {
				u, ok := b.g.bySymbol[c]
				if !ok {
					b.errorf(as.Origin, subject, "candidate %q is not a unit symbol", c)
					continue
				}
				a.Candidates = append(a.Candidates, u)
			}
			b.g.ambiguous[key] = a
		}
	}
}

// resolve reduces every unit to its map onto the category's base unit.
func (b *builder) resolve() {
	const (
		unvisited = iota
		visiting
		done
	)
	state := map[*Unit]int{}
	failed := map[*Unit]bool{}
	var visit func(u *Unit) bool
	visit = func(u *Unit) bool {
		switch state[u] {
		case done:
			return !failed[u]
		case visiting:
			b.errorf(b.defs[u].Origin, unitSubject(u.Symbol), "definition refers back to itself through a cycle")
			failed[u] = true
			return false
		}
		state[u] = visiting
		ok := !b.dropped[u] && u.Category.Base != nil && b.define(u, visit)
		state[u] = done
		if !ok {
			failed[u] = true
		}
		return ok
	}
	for _, u := range b.g.units {
		visit(u)
	}
	for _, c := range b.g.categories {
		if c.minimum == nil {
			continue
		}
		for _, u := range c.Units {
			if u.conv.formula != nil || failed[u] {
				continue
			}
			if u.conv.pi != 0 {
				b.errorf(b.origins[u], unitSubject(u.Symbol), "a factor with pi cannot be checked against the minimum %s of %s exactly", c.Minimum, c.ID)
				continue
			}
			// x is in range when x·a + b >= minimum·c (the map is
			// (x·a + b)/c), so minimum·c must be an exact decimal.
			m := new(big.Rat).Mul(c.minimum, new(big.Rat).SetInt(decimalToInt(&u.conv.post.c)))
			d, ok := ratToDecimal(m)
			if !ok {
				b.errorf(b.origins[u], unitSubject(u.Symbol), "the minimum %s of %s cannot be enforced exactly in this unit: %s is not a terminating decimal", c.Minimum, c.ID, m.RatString())
				continue
			}
			u.conv.minimum = &d
		}
	}
}

func decimalToInt(d *apd.Decimal) *big.Int {
	i := d.Coeff.MathBigInt()
	if d.Exponent > 0 {
		i.Mul(i, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(d.Exponent)), nil))
	}
	return i
}

// define computes u.conv, visiting the unit it refers to first.
func (b *builder) define(u *Unit, visit func(*Unit) bool) bool {
	def := b.defs[u]
	subject := unitSubject(u.Symbol)
	o := def.Origin
	if o.File == "" {
		o = b.origins[u]
	}
	c := u.Category
	if u.Definition.Kind == "base" {
		if c.Base != u {
			b.errorf(o, subject, "missing definition (only the base unit %q has none)", baseSymbol(c))
			return false
		}
		u.conv = newLinearConversion(identityMap())
		return true
	}
	if c.Base == u {
		b.errorf(o, subject, "is the base unit of %s and must not have a definition", c.ID)
		return false
	}
	if def.Unit == "" {
		b.errorf(o, subject, "definition: missing unit (the unit it is defined relative to)")
		return false
	}
	ref, ok := b.g.bySymbol[def.Unit]
	if !ok {
		ref, ok = b.g.byWord[foldWord(def.Unit)]
	}
	if !ok {
		b.errorf(o, subject, "definition refers to unknown unit %q", def.Unit)
		return false
	}
	if ref.Category != c {
		b.errorf(o, subject, "definition refers to %q of category %s; a definition must stay within category %s", def.Unit, ref.Category.ID, c.ID)
		return false
	}
	if ref == u {
		b.errorf(o, subject, "definition refers to the unit itself")
		return false
	}
	if !visit(ref) {
		return false
	}
	if u.Definition.Kind == "formula" {
		return b.defineFormula(u, ref, def, o)
	}
	f, err := parseExact(def.Factor)
	if err != nil {
		b.errorf(o, subject, "factor: %v", err)
		return false
	}
	if f.r.Sign() <= 0 {
		b.errorf(o, subject, "factor must be positive, not %s", def.Factor)
		return false
	}
	m := ratMap{f: f.r, k: f.k, o: new(big.Rat)}
	if def.Offset != "" {
		off, err := parseExact(def.Offset)
		if err != nil {
			b.errorf(o, subject, "offset: %v", err)
			return false
		}
		if off.k != 0 {
			b.errorf(o, subject, "offset: %s involves pi; an offset must be a rational number", def.Offset)
			return false
		}
		m.o = off.r
	}
	if rf := ref.conv.formula; rf != nil {
		// Defined relative to a formula unit: this unit's map runs before
		// the formula.
		if m.k != 0 || ref.conv.preMap.k != 0 {
			b.errorf(o, subject, "a factor with pi cannot feed a formula (%s)", ref.Symbol)
			return false
		}
		pre := m.then(ref.conv.preMap)
		u.conv = conversion{pre: newAffine(pre), preMap: pre, formula: rf, post: ref.conv.post, postMap: ref.conv.postMap, pi: ref.conv.pi}
		return true
	}
	if !m.canCompose(ref.conv.postMap) {
		b.errorf(o, subject, "an offset cannot be combined with a factor involving pi")
		return false
	}
	u.conv = newLinearConversion(m.then(ref.conv.postMap))
	return true
}

// describeOrigin says where u was declared, and how if it was generated.
func describeOrigin(u *Unit, o Origin) string {
	if u.Prefixed != nil {
		return fmt.Sprintf("prefixed %q, %s", u.Prefixed.Symbol, o)
	}
	return o.String()
}

func baseSymbol(c *Category) string {
	if c.Base == nil {
		return "?"
	}
	return c.Base.Symbol
}

func (b *builder) defineFormula(u, ref *Unit, def DefinitionSpec, o Origin) bool {
	subject := unitSubject(u.Symbol)
	if def.Factor != "" || def.Offset != "" {
		b.errorf(o, subject, "definition: a formula definition takes to and from, not factor or offset")
		return false
	}
	if def.To == "" || def.From == "" {
		b.errorf(o, subject, "definition: a formula needs both to (into %s) and from (out of %s)", def.Unit, def.Unit)
		return false
	}
	if ref.conv.formula != nil {
		b.errorf(o, subject, "formula refers to %q, which is itself defined by a formula; refer to a linear unit", ref.Symbol)
		return false
	}

	f, errTo, errFrom := compileFormulas(def.To, def.From)
	if errTo != nil {
		b.errorf(o, subject, "formula to: %v", oneLine(errTo))
	}
	if errFrom != nil {
		b.errorf(o, subject, "formula from: %v", oneLine(errFrom))
	}
	if errTo != nil || errFrom != nil {
		return false
	}
	u.conv = conversion{
		pre:     newAffine(identityMap()),
		preMap:  identityMap(),
		formula: f,
		post:    ref.conv.post, postMap: ref.conv.postMap, pi: ref.conv.pi,
	}
	return true
}

// oneLine folds expr's multi-line error (message, source, caret) into one
// line.
func oneLine(err error) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(err.Error(), "\n", " ")), " ")
}

// samplePoints are the values each formula pair is checked at.
var samplePoints = []string{"0.5", "2", "10", "100"}

// checkFormulas checks that each formula pair inverts itself.
func (b *builder) checkFormulas() {
	// Checking needs less precision than serving: an inverse pair agrees to
	// far more than 25 digits, a wrong one disagrees early.
	work := exact.WithPrecision(40)
	tolerance := apd.New(1, -25)
	for _, u := range b.g.units {
		f := u.conv.formula
		if f == nil || u.conv.preMap.f.Cmp(identityMap().f) != 0 || u.conv.preMap.o.Sign() != 0 {
			continue // checked on the formula's own unit
		}
		o := b.defs[u].Origin
		if o.File == "" {
			o = b.origins[u]
		}
		checked, failed := 0, false
		for _, s := range samplePoints {
			x, _, _ := apd.NewFromString(s)
			y, err := f.eval(f.to, x, work)
			if errors.Is(err, errDomain) {
				continue
			}
			if err != nil {
				b.errorf(o, unitSubject(u.Symbol), "formula to, at x = %s: %v", s, oneLine(err))
				failed = true
				break
			}
			back, err := f.eval(f.from, y, work)
			if errors.Is(err, errDomain) {
				continue
			}
			if err != nil {
				b.errorf(o, unitSubject(u.Symbol), "formula from, at x = %s: %v", y, oneLine(err))
				failed = true
				break
			}
			var diff, bound apd.Decimal
			work.Sub(&diff, back, x)
			diff.Abs(&diff)
			work.Mul(&bound, x, tolerance)
			if diff.Cmp(&bound) > 0 {
				b.errorf(o, unitSubject(u.Symbol), "formulas do not invert each other: to(%s) = %s but from(%s) = %s", s, FormatDecimal(y), FormatDecimal(y), FormatDecimal(back))
				failed = true
				break
			}
			checked++
		}
		if checked == 0 && !failed {
			b.errorf(o, unitSubject(u.Symbol), "formulas could not be checked: no sample point (%s) is in their domain", strings.Join(samplePoints, ", "))
		}
	}
}

// checkExamples converts every worked example and compares the result.
func (b *builder) checkExamples() {
	for _, u := range b.g.units {
		us := b.specs[u]
		if us == nil {
			continue
		}
		for i, ex := range u.Examples {
			b.checkExample(u, ex, us.Examples[i].Origin)
		}
	}
}

func (b *builder) checkExample(u *Unit, ex Example, o Origin) {
	subject := fmt.Sprintf("unit %q: example %q", u.Symbol, ex.String())
	fail := func(format string, args ...any) {
		b.errs = append(b.errs, &SpecError{Origin: o, Subject: subject, Message: fmt.Sprintf(format, args...)})
	}
	v, err := ParseValue(ex.Value)
	if err != nil {
		fail("value: %v", err)
		return
	}
	want, err := ParseValue(ex.Result)
	if err != nil {
		fail("result: %v", err)
		return
	}
	from, err := b.g.resolve(ex.From)
	if err != nil {
		fail("%v", err)
		return
	}
	to, err := b.g.resolve(ex.To)
	if err != nil {
		fail("%v", err)
		return
	}
	pl, err := b.g.plan(from, to)
	if err != nil {
		fail("%v", err)
		return
	}
	p := MaxPrecision
	if ex.Approx {
		p = int(want.NumDigits())
	}
	var out number
	inexact, err := pl.run(&out, &v, p, nil)
	if err != nil {
		fail("%v", err)
		return
	}
	got := out.decimal()
	gotText, wantText := FormatDecimal(&got), FormatDecimal(&want)
	switch {
	case gotText != wantText && ex.Approx:
		fail("wrong result: rounded to %d significant digits it is %s %s", p, gotText, pl.unit)
	case gotText != wantText:
		fail("wrong result: it is %s %s%s", gotText, pl.unit, map[bool]string{true: " (rounded)", false: ""}[inexact])
	case !ex.Approx && inexact:
		fail("the result is rounded, not exact: write it with ≈")
	case ex.Approx && !inexact:
		fail("the result is exact: write it with =")
	}
}
