package codes

import (
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/unitd/unitd/engine/dimension"
	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/internal/suggest"
)

// UCUM codes
//
// A ucum: code is read with the grammar of the Unified Code for Units of
// Measure (UCUM §1–§7):
//
//	main      := '/' term | term
//	term      := component { ('.' | '/') component }
//	component := '(' term ')' [annotation] | annotation
//	           | simple [exponent] [annotation]
//	simple    := [prefix] atom | digits
//	exponent  := ['+' | '-'] digits
//
// '.' multiplies and '/' divides, left to right; an atom in square
// brackets may hold any character but ']'; an annotation {…} is ignored
// for conversion ({cells}/uL is /uL). "10*3" and "10^3" are the atom 10*
// (or 10^) raised to 3. The atoms and prefixes are those of the UCUM
// table, each reduced once to an exact factor onto unitd's coherent SI
// units: the gram is 1/1000 kg, the coulomb A·s, [pi] is π itself.
//
// UCUM's conventions, made explicit:
//   - the mole, which UCUM counts as 6.0221367e23 particles, the bit, a
//     number to UCUM, and the equivalent, which UCUM defines as 1 mol,
//     are unitd's amount of substance, information and equivalents (an
//     amount counted in charges, N·Z): meq converts to mmol only with a
//     charge number, as the catalog's mEq does (ucumOverrides);
//   - an atom defined through UCUM's function inv ([diop] = 1/m, Bd =
//     1/s, [mesh_i] = 1/[in_i]) is that inverse, and a lone such atom
//     converts also to the reciprocal dimension by inversion (37.5
//     [diop] is 1/37.5 m, a focal length), as UCUM's function defines;
//   - a special unit (Cel, [pH], B[SPL], [p'diop], …) converts through
//     its UCUM function and may not be part of a product;
//   - an arbitrary unit ([IU], [arb'U]) converts only to itself under
//     another prefix.

// Limits of a UCUM code.
const (
	maxCodeLength     = 256
	maxUCUMDepth      = 8
	maxTerms          = 32
	maxUCUMExponent   = 99  // of an atom
	maxUCUMTenPower   = 300 // of 10* and 10^
	maxUCUMAnnotation = 128
	maxUCUMNumber     = 30 // digits of a whole-number factor
)

// UCUMEntry is one row of the UCUM table: a prefix (Value is its factor,
// "1e3" or "1024"), a base unit, or a unit defined as Value times the
// UCUM expression Unit; a special unit names its Function, and an inverse
// the function "inv".
type UCUMEntry struct {
	Type     string // "prefix", "base" or "unit"
	Code     string
	Metric   bool
	Kind     string // "", "special" or "arbitrary"
	Value    string
	Unit     string
	Function string
	Name     string
	Property string
}

// ucumAtom is a compiled atom of the UCUM table.
type ucumAtom struct {
	entry UCUMEntry
	val   value // onto unitd's coherent SI units; for a special unit, its reference
	state int8  // 0 unvisited, 1 visiting, 2 done, 3 failed
	// inv marks an atom defined through the function inv.
	inv bool
}

// value is a term's value while a code is read: an exact factor onto the
// coherent SI unit of dim, and the arbitrary units it holds.
type value struct {
	f   exact.Factor
	dim dimension.Vector
	arb []arbPower // sorted by code
}

type arbPower struct {
	code string
	exp  int
}

func one() value { return value{f: exact.One()} }

// mul returns v·w^sign.
func (v value) mul(w value, sign int) value {
	out := value{dim: v.dim.Add(w.dim, sign)}
	if sign > 0 {
		out.f = v.f.Mul(w.f)
	} else {
		out.f = v.f.Quo(w.f)
	}
	out.arb = mergeArb(v.arb, w.arb, sign)
	return out
}

// pow returns v^n.
func (v value) pow(n int) value {
	out := value{f: v.f.Pow(n), dim: dimension.Vector{}.Add(v.dim, n)}
	for _, a := range v.arb {
		out.arb = append(out.arb, arbPower{a.code, a.exp * n})
	}
	return out
}

func mergeArb(a, b []arbPower, sign int) []arbPower {
	if len(b) == 0 {
		return a
	}
	m := map[string]int{}
	for _, x := range a {
		m[x.code] += x.exp
	}
	for _, x := range b {
		m[x.code] += x.exp * sign
	}
	out := make([]arbPower, 0, len(m))
	for c, e := range m {
		if e != 0 {
			out = append(out, arbPower{c, e})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].code < out[j].code })
	return out
}

// arbKey writes the arbitrary units of v as a key: two values convert
// only when their keys are equal.
func arbKey(arb []arbPower) string {
	if len(arb) == 0 {
		return ""
	}
	var b strings.Builder
	for i, a := range arb {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(a.code)
		if a.exp != 1 {
			b.WriteString(strconv.Itoa(a.exp))
		}
	}
	return b.String()
}

// ucumTable is the compiled UCUM table.
type ucumTable struct {
	atoms    map[string]*ucumAtom
	prefixes map[string]*big.Rat
	codes    []string // every atom code, sorted
	suggest  suggest.Index
}

// ucumBase is what each UCUM base unit is in unitd's coherent SI units.
var ucumBase = map[string]struct {
	dim    string
	factor string
}{
	"m": {"L", "1"}, "s": {"T", "1"}, "g": {"M", "1/1000"}, "rad": {"A", "1"},
	"K": {"Θ", "1"}, "C": {"I T", "1"}, "cd": {"J", "1"},
}

// ucumOverrides are atoms that UCUM defines as pure numbers or through
// another kind of quantity, and unitd keeps as what they count, with
// their own dimension: the mole (UCUM: 6.0221367e23), the bit (UCUM: 1)
// and the equivalent (UCUM: 1 mol), which counts charges: an amount of
// substance times a charge number.
var ucumOverrides = map[string]string{"mol": "N", "bit": "D", "eq": "N Z"}

// compileUCUM reads the UCUM table and reduces every atom.
func compileUCUM(entries []UCUMEntry) (*ucumTable, []error) {
	t := &ucumTable{atoms: map[string]*ucumAtom{}, prefixes: map[string]*big.Rat{}}
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf("UCUM table: "+format, args...)) }
	for _, e := range entries {
		switch e.Type {
		case "prefix":
			r, ok := new(big.Rat).SetString(e.Value)
			if !ok {
				fail("prefix %s: value %q is not a number", e.Code, e.Value)
				continue
			}
			t.prefixes[e.Code] = r
		case "base", "unit":
			if _, dup := t.atoms[e.Code]; dup {
				fail("atom %s is listed twice", e.Code)
				continue
			}
			t.atoms[e.Code] = &ucumAtom{entry: e, inv: e.Function == "inv" && e.Kind != "special"}
			t.codes = append(t.codes, e.Code)
		default:
			fail("unknown row type %q", e.Type)
		}
	}
	sort.Strings(t.codes)
	for _, code := range t.codes {
		if err := t.reduce(t.atoms[code]); err != nil {
			fail("%v", err)
		}
		t.suggest.Add(code, SystemUCUM+":"+code)
	}
	return t, errs
}

// reduce computes an atom's value from its definition, reducing the atoms
// it refers to first. It runs only while compiling.
func (t *ucumTable) reduce(a *ucumAtom) error {
	switch a.state {
	case 2:
		return nil
	case 1:
		return fmt.Errorf("atom %s is defined through itself", a.entry.Code)
	case 3:
		return fmt.Errorf("atom %s has a broken definition", a.entry.Code)
	}
	a.state = 1
	v, err := t.define(a)
	if err != nil {
		a.state = 3
		return err
	}
	a.val, a.state = v, 2
	return nil
}

func (t *ucumTable) define(a *ucumAtom) (value, error) {
	e := a.entry
	if d, ok := ucumOverrides[e.Code]; ok {
		return value{f: exact.One(), dim: dimension.Product(d)}, nil
	}
	if e.Code == "[pi]" {
		return value{f: exact.Factor{R: big.NewRat(1, 1), K: 1}}, nil
	}
	if e.Type == "base" {
		b, ok := ucumBase[e.Code]
		if !ok {
			return value{}, fmt.Errorf("base unit %s is not one unitd knows", e.Code)
		}
		f, err := exact.ParseFactor(b.factor)
		if err != nil {
			return value{}, err
		}
		return value{f: f, dim: dimension.Product(b.dim)}, nil
	}
	text := e.Value
	if text == "" {
		text = "1"
	}
	f, ok := new(big.Rat).SetString(text)
	if !ok {
		return value{}, fmt.Errorf("atom %s: value %q is not a number", e.Code, e.Value)
	}
	p := &ucumParser{t: t, src: e.Unit, building: true}
	if err := p.parse(); err != nil {
		return value{}, fmt.Errorf("atom %s: definition %q: %v", e.Code, e.Unit, err)
	}
	if p.special != nil {
		return value{}, fmt.Errorf("atom %s is defined through the special unit %s", e.Code, p.special.atom.entry.Code)
	}
	v := p.val()
	v.f = v.f.Mul(exact.Factor{R: f})
	if a.inv {
		// inv(value × unit): the inverse of what the row names.
		v = one().mul(v, -1)
	}
	if e.Kind == "arbitrary" && len(v.arb) == 0 {
		// An arbitrary unit is its own kind: it converts to the arbitrary
		// unit it is defined by ([IU] is [iU]), or only to itself.
		v.arb = []arbPower{{e.Code, 1}}
	}
	return v, nil
}

// specialUse is a special unit met in a code, with its prefix's factor.
type specialUse struct {
	atom  *ucumAtom
	scale *big.Rat
	code  string
}

// ucumParser reads one UCUM code.
type ucumParser struct {
	t        *ucumTable
	src      string
	pos      int
	depth    int
	terms    int
	building bool // reading the table itself: atoms may need reducing
	// canon is the code with each atom replaced by the symbol of the
	// catalog unit that claims it; mapped says whether every atom had
	// one.
	canon  []byte
	mapped bool
	claims Claims
	// The value so far: num/den·π^k of dimension dim, with the arbitrary
	// units arb; special is a special unit met, components counts the
	// components read, and inv is the lone inverse atom read, if the
	// code is nothing else.
	num, den   big.Int
	k          int
	dim        dimension.Vector
	arb        []arbPower
	special    *specialUse
	components int
	inv        *ucumAtom
	inverted   bool // the code starts with '/'
}

func (p *ucumParser) val() value {
	return value{f: exact.Factor{R: new(big.Rat).SetFrac(&p.num, &p.den), K: p.k}, dim: p.dim, arb: p.arb}
}

// fail is INVALID_UNIT_EXPRESSION about the code, at byte offset off.
func (p *ucumParser) failAt(off int, format string, args ...any) *fault.Error {
	e := fault.At(fault.InvalidUnitExpression, p.src, off, format, args...)
	e.Message = "invalid UCUM code " + strconv.Quote(fault.Truncate(p.src, 64)) + ": " + e.Message
	return e
}

// fail is INVALID_UNIT_EXPRESSION about the code as a whole.
func (p *ucumParser) fail(format string, args ...any) *fault.Error {
	e := fault.Errorf(fault.InvalidUnitExpression, format, args...)
	e.Message = "invalid UCUM code " + strconv.Quote(fault.Truncate(p.src, 64)) + ": " + e.Message
	return e
}

// parse reads the code into the parser's state, checking what every code
// must be.
func (p *ucumParser) parse() error {
	if len(p.src) > maxCodeLength {
		return p.fail("longer than %d bytes", maxCodeLength)
	}
	if p.src == "" {
		return p.fail("empty")
	}
	p.mapped = true
	p.num.SetInt64(1)
	p.den.SetInt64(1)
	p.canon = make([]byte, 0, len(p.src)+8)
	// A leading '/' reads as "1/": it divides by the first component only,
	// as UCUM's own table needs (Oe is 250 /[pi].A/m, (250/π) A/m).
	first := 1
	if p.src[0] == '/' {
		p.pos++
		p.canon = append(p.canon, "1/"...)
		first = -1
		p.inverted = true
	}
	if err := p.term(1, first); err != nil {
		return err
	}
	if p.pos < len(p.src) {
		return p.failAt(p.pos, "unexpected %q", p.src[p.pos])
	}
	if p.special != nil {
		if p.components > 1 || first < 0 {
			return p.fail("the special unit %s converts through a function and cannot be part of a product or quotient", p.special.code)
		}
		return nil
	}
	if p.dim.MaxAbs() > 99 {
		return p.fail("its dimension has an exponent beyond ±99")
	}
	// "0.m" (a factor of zero) and "m/0" (a division by zero) are no
	// units.
	if p.den.Sign() == 0 {
		return p.fail("it divides by zero")
	}
	if p.num.Sign() == 0 {
		return p.fail("its factor is 0")
	}
	if err := exact.CheckSize(p.val().f.R); err != nil {
		return p.fail("its factor is %v", err)
	}
	return nil
}

// read parses the code and says what it means.
func (p *ucumParser) read() (Meaning, error) {
	if err := p.parse(); err != nil {
		return Meaning{}, err
	}
	if p.special != nil {
		return p.specialMeaning(), nil
	}
	v := p.val()
	m := Meaning{Factor: v.f, Dim: v.dim, Exact: true, Arbitrary: arbKey(v.arb)}
	if p.inv != nil && p.components == 1 && !p.inverted {
		m.Reciprocal = true
		m.Note = "UCUM defines " + p.inv.entry.Code + " through the function inv of " + p.inv.entry.Unit + ": it is 1/" + p.inv.entry.Unit + ", and converts to " + p.inv.entry.Unit + " by inversion"
	}
	if p.claims != nil && p.mapped {
		m.Symbol = string(p.canon)
	}
	return m, nil
}

// specialMeaning is the meaning of a lone special unit.
func (p *ucumParser) specialMeaning() Meaning {
	a := p.special.atom
	s := &Special{Atom: a.entry.Code, Name: a.entry.Name, Function: a.entry.Function, Scale: p.special.scale,
		Ref: a.val.f, RefDim: a.val.dim}
	if fn, ok := ucumFunctions[a.entry.Function]; ok {
		s.To, s.From = fn.to, fn.from
		switch {
		case fn.kelvin:
			s.Ref, s.RefDim = exact.One(), dimension.Product("Θ")
		case fn.radian:
			s.Ref, s.RefDim = exact.One(), dimension.Product("A")
		}
	}
	return Meaning{Dim: s.RefDim, Factor: s.Ref, Exact: true, Special: s}
}

// multiply multiplies the code's value by v^n.
func (p *ucumParser) multiply(v *value, n int) {
	num, den := v.f.R.Num(), v.f.R.Denom()
	if n < 0 {
		num, den = den, num
	}
	for range max(n, -n) {
		if !isOne(num) {
			p.num.Mul(&p.num, num)
		}
		if !isOne(den) {
			p.den.Mul(&p.den, den)
		}
	}
	p.k += v.f.K * n
	p.dim = p.dim.Add(v.dim, n)
	if len(v.arb) > 0 {
		p.arb = mergeArb(p.arb, v.arb, n)
	}
}

func isOne(x *big.Int) bool { return x.IsInt64() && x.Int64() == 1 }

// term := component { ('.' | '/') component }, each component raised to
// sign (-1 inside a divisor), the first to sign·first.
func (p *ucumParser) term(sign, first int) error {
	if err := p.component(sign * first); err != nil {
		return err
	}
	for p.pos < len(p.src) && (p.src[p.pos] == '.' || p.src[p.pos] == '/') {
		s := sign
		if p.src[p.pos] == '/' {
			s = -sign
			p.canon = append(p.canon, '/')
		} else {
			p.canon = append(p.canon, '*')
		}
		p.pos++
		if p.pos >= len(p.src) {
			return p.failAt(p.pos-1, "%q at the end is not followed by a term", p.src[p.pos-1])
		}
		if err := p.component(s); err != nil {
			return err
		}
	}
	return nil
}

// component := '(' term ')' [annotation] | annotation | simple [exponent] [annotation]
func (p *ucumParser) component(sign int) error {
	if p.pos >= len(p.src) {
		return p.fail("expected a unit at the end")
	}
	p.components++
	switch p.src[p.pos] {
	case '(':
		if p.depth++; p.depth > maxUCUMDepth {
			return p.failAt(p.pos, "parentheses nested deeper than %d", maxUCUMDepth)
		}
		open := p.pos
		p.pos++
		p.canon = append(p.canon, '(')
		if err := p.term(sign, 1); err != nil {
			return err
		}
		if p.pos >= len(p.src) || p.src[p.pos] != ')' {
			return p.failAt(open, "the parenthesis is not closed")
		}
		p.pos++
		p.depth--
		p.canon = append(p.canon, ')')
		return p.annotation()
	case '{':
		p.mapped = false // a bare annotation is the number 1
		if err := p.annotation(); err != nil {
			return err
		}
		p.canon = append(p.canon, '1')
		return nil
	case ')', '.', '/':
		return p.failAt(p.pos, "expected a unit, found %q", p.src[p.pos])
	}
	if err := p.simple(sign); err != nil {
		return err
	}
	return p.annotation()
}

// annotation reads an optional {…}: printable ASCII but braces.
func (p *ucumParser) annotation() error {
	if p.pos >= len(p.src) || p.src[p.pos] != '{' {
		return nil
	}
	open := p.pos
	for i := p.pos + 1; i < len(p.src); i++ {
		c := p.src[i]
		switch {
		case c == '}':
			if i-open-1 > maxUCUMAnnotation {
				return p.failAt(open, "the annotation is longer than %d characters", maxUCUMAnnotation)
			}
			p.pos = i + 1
			if p.pos < len(p.src) {
				if c := p.src[p.pos]; c != '.' && c != '/' && c != ')' {
					return p.failAt(p.pos, "an annotation must be followed by '.', '/' or ')', not %q", c)
				}
			}
			return nil
		case c == '{':
			return p.failAt(i, "annotations do not nest: '{' inside the annotation")
		case c < 33 || c > 126:
			return p.failAt(i, "an annotation holds printable ASCII only")
		}
	}
	return p.failAt(open, "the annotation is not closed with '}'")
}

// simple reads a simple unit with its exponent, or a whole number, and
// multiplies the code's value by it raised to sign.
func (p *ucumParser) simple(sign int) error {
	if p.terms++; p.terms > maxTerms {
		return p.fail("more than %d units", maxTerms)
	}
	start := p.pos
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		if c == '[' {
			end := strings.IndexByte(p.src[p.pos:], ']')
			if end < 0 {
				return p.failAt(p.pos, "the bracket is not closed with ']'")
			}
			p.pos += end + 1
			continue
		}
		if c == '.' || c == '/' || c == '(' || c == ')' || c == '{' || c == '}' {
			break
		}
		if c <= ' ' || c > 126 {
			return p.failAt(p.pos, "a UCUM code holds printable ASCII only")
		}
		p.pos++
	}
	run := p.src[start:p.pos]
	if run == "" {
		return p.failAt(start, "expected a unit")
	}
	// A trailing whole number, with an optional sign, is the exponent.
	k := len(run)
	for k > 0 && run[k-1] >= '0' && run[k-1] <= '9' {
		k--
	}
	if k == 0 {
		// A whole number alone is a factor.
		if len(run) > maxUCUMNumber {
			return p.failAt(start, "the number has more than %d digits", maxUCUMNumber)
		}
		p.canon = append(p.canon, run...)
		if run != "1" {
			p.mapped = false
			var n big.Int
			n.SetString(run, 10)
			if sign > 0 {
				p.num.Mul(&p.num, &n)
			} else {
				p.den.Mul(&p.den, &n)
			}
		}
		return nil
	}
	name, expText := run[:k], run[k:]
	if expText != "" && (name[len(name)-1] == '+' || name[len(name)-1] == '-') {
		expText = run[k-1:]
		name = run[:k-1]
	}
	if name == "" || strings.Trim(name, "0123456789") == "" {
		return p.failAt(start, "%q is a number with an exponent, which UCUM does not allow (write 10*3)", run)
	}
	exp := 1
	if expText != "" {
		limit := maxUCUMExponent
		if name == "10*" || name == "10^" {
			limit = maxUCUMTenPower
		}
		digits := strings.TrimLeft(expText, "+-")
		n, err := strconv.Atoi(strings.TrimPrefix(expText, "+"))
		if err != nil || len(digits) > 4 || n > limit || n < -limit {
			return p.failAt(start+len(name), "the exponent %s is out of range (at most ±%d)", fault.Truncate(expText, 64), limit)
		}
		exp = n
	}
	atom, prefix := p.t.lookup(name)
	if atom == nil {
		e := fault.At(fault.UnknownUnit, p.src, start, "unknown UCUM unit %q in %q", fault.Truncate(name, 64), fault.Truncate(p.src, 64))
		e.Suggestions = p.t.suggest.Suggest(name, 5)
		return e
	}
	if p.building && atom.state != 2 {
		if err := p.t.reduce(atom); err != nil {
			return err
		}
	}
	p.appendCanon(name, exp)
	if atom.entry.Kind == "special" {
		if exp != 1 {
			return p.failAt(start, "the special unit %s cannot take an exponent", name)
		}
		scale := big.NewRat(1, 1)
		if prefix != nil {
			scale = prefix
		}
		if p.special != nil {
			return p.fail("the special unit %s converts through a function and cannot be part of a product or quotient", name)
		}
		p.special = &specialUse{atom: atom, scale: scale, code: name}
		return nil
	}
	if atom.inv && exp == 1 && sign > 0 {
		p.inv = atom
	}
	if prefix != nil {
		p.multiply(&value{f: exact.Factor{R: prefix}}, exp*sign)
	}
	p.multiply(&atom.val, exp*sign)
	return nil
}

// appendCanon writes a simple unit to the canonical form: the symbol of
// the catalog unit claiming its code, or else marks the form unmapped.
func (p *ucumParser) appendCanon(code string, exp int) {
	if p.claims == nil {
		return
	}
	c, ok := p.claims.Claim(SystemUCUM, code)
	if !ok {
		p.mapped = false
		return
	}
	p.canon = append(p.canon, c.Symbol...)
	if exp != 1 {
		p.canon = append(p.canon, '^')
		p.canon = strconv.AppendInt(p.canon, int64(exp), 10)
	}
}

// lookup finds a simple unit: an atom, or a prefix and a metric atom.
func (t *ucumTable) lookup(name string) (*ucumAtom, *big.Rat) {
	if a := t.atoms[name]; a != nil {
		return a, nil
	}
	for n := 2; n >= 1; n-- {
		if len(name) <= n {
			continue
		}
		pf, ok := t.prefixes[name[:n]]
		if !ok {
			continue
		}
		if a := t.atoms[name[n:]]; a != nil && a.entry.Metric {
			return a, pf
		}
	}
	return nil, nil
}

// ucumFunctions are the functions of UCUM's special units (UCUM §21–§23):
// to turns a value of the special unit into its reference unit, from the
// reverse, as unitd formulas. The Fahrenheit and Réaumur functions carry
// their factor (5/9, 5/4) themselves, onto the kelvin. The tangent
// functions of [p'diop] and %[slope] read radians: UCUM's table gives
// %[slope] the reference 1 deg, but 100 % of slope is 45°, which only
// atan(x/100) in radians gives (read literally, 10 %[slope] would be
// 0.0997°).
var ucumFunctions = map[string]struct {
	to, from string
	kelvin   bool // the reference is the kelvin, not the table's value
	radian   bool // the reference is the radian: tan reads radians
}{
	"Cel":         {"x + 273.15", "x - 273.15", true, false},
	"degF":        {"(x + 459.67) * 5 / 9", "x * 9 / 5 - 459.67", true, false},
	"degRe":       {"x * 5 / 4 + 273.15", "(x - 273.15) * 4 / 5", true, false},
	"pH":          {"10 ** -x", "-log10(x)", false, false},
	"ln":          {"exp(x)", "ln(x)", false, false},
	"lg":          {"10 ** x", "log10(x)", false, false},
	"lgTimes2":    {"10 ** (x / 2)", "2 * log10(x)", false, false},
	"ld":          {"exp(x * ln(2))", "ln(x) / ln(2)", false, false},
	"tanTimes100": {"atan(x / 100)", "100 * tan(x)", false, true},
	"100tan":      {"atan(x / 100)", "100 * tan(x)", false, true},
	"sqrt":        {"x * x", "sqrt(x)", false, false},
	"hpX":         {"10 ** -x", "-log10(x)", false, false},
	"hpC":         {"exp(-x * ln(100))", "-ln(x) / ln(100)", false, false},
	"hpM":         {"exp(-x * ln(1000))", "-ln(x) / ln(1000)", false, false},
	"hpQ":         {"exp(-x * ln(50000))", "-ln(x) / ln(50000)", false, false},
}
