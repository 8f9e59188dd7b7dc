package substance

import (
	"fmt"
	"math/big"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/internal/exact"
)

// Measurands with their own equations
//
// Some clinical quantities relate their units by a published equation,
// not a factor: HbA1c in NGSP % and in IFCC mmol/mol by the IFCC–NGSP
// master equation, and the estimated average glucose in mg/dL by the
// ADAG regression on HbA1c in %. A measurand names its scales, each a way
// of reporting it in a unit (NGSP in %, IFCC in mmol/mol, eAG in mg/dL of
// glucose), and the equations between them, each an affine map
// TO = FACTOR × FROM + OFFSET in the scales' units whose decimal
// coefficients are read exactly. The equations join every scale to every
// other by exactly one route (they form a tree), so a conversion between
// two scales has one answer: the composition of the route's maps, one
// exact affine map.
//
// A measurand is a Substance of the catalog whose Measurand field is set:
// found by the same names and search as any substance, and named by a
// request's substance field.

// Measurand is a compiled measurand: its scales and equations. Its fields
// are read-only.
type Measurand struct {
	Scales    []*Scale
	Equations []*Equation
	Examples  []MeasurandExample
}

// Scale is one way a measurand is reported (see ScaleSpec).
type Scale struct {
	Name, Unit, Description string
	// Substance is what the scale's values are amounts of (glucose for
	// the estimated average glucose), or nil.
	Substance *Substance
	Origin    fault.Origin
}

// Equation is a published equation between two scales:
// To = Factor × From + Offset, in the scales' units.
type Equation struct {
	Name     string
	From, To *Scale
	// Factor and Offset are the coefficients as written ("0.09148",
	// "2.152"; Offset "0" when there is none).
	Factor, Offset string
	// Exact is false when the coefficients were fitted to data.
	Exact        bool
	Source, Note string
	factor, off  *big.Rat
}

// MeasurandExample is a worked example of a measurand (see
// MeasurandExampleSpec).
type MeasurandExample struct {
	Value, From, Result, To string
	Approx                  bool
	Origin                  fault.Origin
}

// String writes the example as the catalog does: "7 % ≈ 53 mmol/mol".
func (e MeasurandExample) String() string {
	op := " = "
	if e.Approx {
		op = " ≈ "
	}
	return e.Value + " " + e.From + op + e.Result + " " + e.To
}

// Text writes the equation with the scales' units:
// "NGSP (%) = 0.09148 × IFCC (mmol/mol) + 2.152".
func (e *Equation) Text() string {
	s := e.To.label() + " = " + e.Factor + " × " + e.From.label()
	switch {
	case e.off.Sign() > 0:
		s += " + " + e.Offset
	case e.off.Sign() < 0:
		s += " − " + strings.TrimPrefix(e.Offset, "-")
	}
	return s
}

func (s *Scale) label() string { return s.Name + " (" + s.Unit + ")" }

// Scale returns the scale of the given name, or nil.
func (m *Measurand) Scale(name string) *Scale {
	for _, s := range m.Scales {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// Step is an equation used in one direction: from its From scale to its
// To scale, or back when Inverse.
type Step struct {
	Equation *Equation
	Inverse  bool
}

// From is the scale the step starts from.
func (s Step) From() *Scale {
	if s.Inverse {
		return s.Equation.To
	}
	return s.Equation.From
}

// To is the scale the step leads to.
func (s Step) To() *Scale {
	if s.Inverse {
		return s.Equation.From
	}
	return s.Equation.To
}

// Text writes the step as the equation it applies: the equation itself,
// or solved for its From scale ("IFCC (mmol/mol) = (NGSP (%) − 2.152) /
// 0.09148").
func (s Step) Text() string {
	e := s.Equation
	if !s.Inverse {
		return e.Text()
	}
	num := e.To.label()
	switch {
	case e.off.Sign() > 0:
		num = "(" + num + " − " + e.Offset + ")"
	case e.off.Sign() < 0:
		num = "(" + num + " + " + strings.TrimPrefix(e.Offset, "-") + ")"
	}
	return e.From.label() + " = " + num + " / " + e.Factor
}

// Route returns the steps that lead from scale a to scale b, in order:
// none when a is b, nil when b cannot be reached (never, for a compiled
// measurand, whose equations join all its scales).
func (m *Measurand) Route(a, b *Scale) []Step {
	if a == b {
		return []Step{}
	}
	// The equations form a tree: a search from a finds b's one route.
	prev := map[*Scale]Step{}
	seen := map[*Scale]bool{a: true}
	queue := []*Scale{a}
	for len(queue) > 0 && !seen[b] {
		s := queue[0]
		queue = queue[1:]
		for _, e := range m.Equations {
			for _, st := range [2]Step{{e, false}, {e, true}} {
				if st.From() == s && !seen[st.To()] {
					seen[st.To()] = true
					prev[st.To()] = st
					queue = append(queue, st.To())
				}
			}
		}
	}
	if !seen[b] {
		return nil
	}
	var route []Step
	for s := b; s != a; s = prev[s].From() {
		route = append([]Step{prev[s]}, route...)
	}
	return route
}

// RouteMap is the exact map of a route: values in its first scale's unit
// to values in its last's, the composition of each step's affine map (or
// its inverse). An empty route is the identity.
func RouteMap(route []Step) (*exact.Map, error) {
	m := exact.Identity()
	for _, st := range route {
		e, err := exact.Affine(st.Equation.factor, st.Equation.off, 0)
		if err != nil {
			return nil, err
		}
		if st.Inverse {
			if e, err = e.Inverse(); err != nil {
				return nil, err
			}
		}
		if m, err = m.Then(e); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// RouteExact reports whether every equation of a route is exact.
func RouteExact(route []Step) bool {
	for _, st := range route {
		if !st.Equation.Exact {
			return false
		}
	}
	return true
}

// measurands compiles the measurands into substances of the catalog.
func (b *builder) measurands(specs []MeasurandSpec) {
	for i := range specs {
		ms := &specs[i]
		s, ok := b.measurand(ms)
		if !ok {
			continue
		}
		b.c.substances = append(b.c.substances, s)
		b.claimAll(s, ms.Origin)
	}
}

// maxScales bounds the scales of one measurand.
const maxScales = 16

func (b *builder) measurand(ms *MeasurandSpec) (*Substance, bool) {
	subject := fmt.Sprintf("measurand %q", ms.ID)
	ok := true
	fail := func(o fault.Origin, format string, args ...any) {
		b.errorf(o, subject, format, args...)
		ok = false
	}
	if !isID(ms.ID) {
		fail(ms.Origin, "id must be lower-case letters, digits, '_' and '-', starting with a letter")
	}
	if ms.Name == "" {
		fail(ms.Origin, "name is required")
	}
	if len(ms.Aliases) > maxNames {
		fail(ms.Origin, "more than %d aliases", maxNames)
	}
	m := &Measurand{}
	switch n := len(ms.Scales); {
	case n < 2:
		fail(ms.Origin, "needs at least two scales for its equations to relate")
	case n > maxScales:
		fail(ms.Origin, "more than %d scales", maxScales)
	}
	for _, ss := range ms.Scales {
		sc := &Scale{Name: ss.Name, Unit: strings.TrimSpace(ss.Unit), Description: ss.Description, Origin: ss.Origin}
		switch {
		case !isScaleName(ss.Name):
			fail(ss.Origin, "scale %q: a name is a letter followed by letters, digits and '_'", ss.Name)
			continue
		case m.Scale(ss.Name) != nil:
			fail(ss.Origin, "scale %q is declared twice", ss.Name)
			continue
		case sc.Unit == "":
			fail(ss.Origin, "scale %q: unit is required", ss.Name)
		}
		if ss.Substance != "" {
			sc.Substance = b.c.Find(ss.Substance)
			switch {
			case sc.Substance == nil:
				fail(ss.Origin, "scale %q: substance %q is not in the catalog", ss.Name, ss.Substance)
			case sc.Substance.Measurand != nil:
				fail(ss.Origin, "scale %q: substance %q is a measurand, not a substance", ss.Name, ss.Substance)
			}
		}
		m.Scales = append(m.Scales, sc)
	}
	// Each equation joins two scales that no route joined yet: the
	// equations end as a tree, one route between any two scales.
	group := map[*Scale]*Scale{}
	root := func(s *Scale) *Scale {
		for group[s] != nil {
			s = group[s]
		}
		return s
	}
	for _, es := range ms.Equations {
		e, err := parseEquation(es.Equation, m)
		if err != nil {
			fail(es.Origin, "equation %q: %v", es.Equation, err)
			continue
		}
		e.Name, e.Exact, e.Source, e.Note = es.Name, es.Exact, es.Source, es.Note
		if strings.TrimSpace(es.Name) == "" {
			fail(es.Origin, "equation %q: name is required", es.Equation)
		}
		if strings.TrimSpace(es.Source) == "" {
			fail(es.Origin, "equation %q: source is required", es.Equation)
		}
		if ra, rb := root(e.From), root(e.To); ra == rb {
			fail(es.Origin, "equation %q: %s and %s are already related (by another route of equations): two routes could give two answers", es.Equation, e.From.Name, e.To.Name)
			continue
		} else {
			group[ra] = rb
		}
		m.Equations = append(m.Equations, e)
	}
	if ok {
		for _, sc := range m.Scales[1:] {
			if root(sc) != root(m.Scales[0]) {
				fail(ms.Origin, "no equation relates scale %s to scale %s", sc.Name, m.Scales[0].Name)
			}
		}
	}
	for _, ex := range ms.Examples {
		m.Examples = append(m.Examples, MeasurandExample(ex))
	}
	if len(ms.Examples) == 0 {
		fail(ms.Origin, "needs worked examples of its equations")
	}
	s := &Substance{ID: ms.ID, Name: ms.Name, Aliases: ms.Aliases, Description: ms.Description, Kind: ms.Kind, Measurand: m}
	return s, ok
}

// isScaleName: a letter, then letters, digits and '_' (the equations'
// names for scales, so no spaces, signs or operators).
func isScaleName(s string) bool {
	if s == "" || len(s) > 32 {
		return false
	}
	for i, r := range s {
		if !unicode.IsLetter(r) && (i == 0 || r != '_' && !unicode.IsDigit(r)) {
			return false
		}
	}
	return true
}

// parseEquation reads "TO = FACTOR * FROM [+|- OFFSET]" with the scales of
// m: × and · multiply as * does, − subtracts as - does; FACTOR may be
// left out (1). Coefficients are plain decimals read exactly.
func parseEquation(src string, m *Measurand) (*Equation, error) {
	p := &eqParser{src: src}
	at := func(off int, format string, args ...any) error {
		return fmt.Errorf(format+" at position %d", append(args, fault.RunePosition(src, off))...)
	}
	scale := func() (*Scale, error) {
		off := p.skip()
		name := p.name()
		if name == "" {
			return nil, at(off, "expected the name of a scale")
		}
		s := m.Scale(name)
		if s == nil {
			return nil, at(off, "%q is no scale of the measurand", name)
		}
		return s, nil
	}
	e := &Equation{Factor: "1", Offset: "0", factor: big.NewRat(1, 1), off: new(big.Rat)}
	var err error
	if e.To, err = scale(); err != nil {
		return nil, err
	}
	if off := p.skip(); !p.eat("=") {
		return nil, at(off, "expected =")
	}
	if off := p.skip(); p.startsDecimal() {
		if e.Factor, e.factor, err = p.decimal(src); err != nil {
			return nil, err
		}
		if e.factor.Sign() == 0 {
			return nil, at(off, "the factor is zero")
		}
		if off := p.skip(); !p.eat("*") && !p.eat("×") && !p.eat("·") {
			return nil, at(off, "expected * after the factor")
		}
	}
	if e.From, err = scale(); err != nil {
		return nil, err
	}
	if e.From == e.To {
		return nil, fmt.Errorf("relates scale %s to itself", e.To.Name)
	}
	off := p.skip()
	if p.done() {
		return e, nil
	}
	neg := false
	switch {
	case p.eat("+"):
	case p.eat("-"), p.eat("−"):
		neg = true
	default:
		return nil, at(off, "expected + or - and the offset")
	}
	if off := p.skip(); !p.startsDecimal() || p.src[p.pos] == '-' {
		return nil, at(off, "expected the offset, a decimal")
	}
	if e.Offset, e.off, err = p.decimal(src); err != nil {
		return nil, err
	}
	if neg {
		e.Offset = "-" + e.Offset
		e.off.Neg(e.off)
	}
	if off := p.skip(); !p.done() {
		return nil, at(off, "unexpected %q", p.src[off:])
	}
	return e, nil
}

type eqParser struct {
	src string
	pos int
}

func (p *eqParser) done() bool { return p.pos >= len(p.src) }

// skip skips spaces and returns the offset reached.
func (p *eqParser) skip() int {
	for p.pos < len(p.src) && p.src[p.pos] == ' ' {
		p.pos++
	}
	return p.pos
}

func (p *eqParser) eat(s string) bool {
	if strings.HasPrefix(p.src[p.pos:], s) {
		p.pos += len(s)
		return true
	}
	return false
}

func (p *eqParser) name() string {
	start := p.pos
	for p.pos < len(p.src) {
		r, n := utf8.DecodeRuneInString(p.src[p.pos:])
		if !unicode.IsLetter(r) && (p.pos == start || r != '_' && !unicode.IsDigit(r)) {
			break
		}
		p.pos += n
	}
	return p.src[start:p.pos]
}

func (p *eqParser) startsDecimal() bool {
	if p.done() {
		return false
	}
	c := p.src[p.pos]
	return c >= '0' && c <= '9' || c == '-' || c == '.'
}

// decimal reads [-]digits[.digits] exactly, as written.
func (p *eqParser) decimal(src string) (string, *big.Rat, error) {
	start := p.pos
	if p.pos < len(p.src) && p.src[p.pos] == '-' {
		p.pos++
	}
	digits, point := 0, false
	for ; p.pos < len(p.src); p.pos++ {
		c := p.src[p.pos]
		if c >= '0' && c <= '9' {
			digits++
			continue
		}
		if c == '.' && !point {
			point = true
			continue
		}
		break
	}
	text := p.src[start:p.pos]
	if digits == 0 || strings.HasSuffix(text, ".") || strings.HasPrefix(strings.TrimPrefix(text, "-"), ".") || digits > exact.MaxValueLength {
		return "", nil, fmt.Errorf("%q is not a plain decimal at position %d", text, fault.RunePosition(src, start))
	}
	r, ok := new(big.Rat).SetString(text)
	if !ok {
		return "", nil, fmt.Errorf("%q is not a plain decimal at position %d", text, fault.RunePosition(src, start))
	}
	return text, r, nil
}
