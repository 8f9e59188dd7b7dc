package engine

import (
	"fmt"
	"github.com/unitd/unitd/engine/dimension"
	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/internal/suggest"
	"math/big"
	"sort"
	"strconv"
	"strings"
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
// table shipped with the catalog (CodeTables.UCUM), each reduced at Build
// to an exact factor onto unitd's coherent SI units: the gram is 1/1000 kg,
// the coulomb A·s, [pi] is π itself, and the mole, which UCUM counts as
// 6.0221367e23 particles, and the bit stay unitd's amount of substance and
// information. A special unit (Cel, [pH], B[SPL], [p'diop], …) converts
// through its UCUM function and may not be part of a product; an
// arbitrary unit ([IU], [arb'U]) converts only to itself under another
// prefix.

// Limits of a UCUM code, beyond those of a unit expression.
const (
	maxUCUMLength     = 256
	maxUCUMDepth      = 8
	maxUCUMTerms      = 32
	maxUCUMExponent   = 99  // of an atom
	maxUCUMTenPower   = 300 // of 10* and 10^
	maxUCUMAnnotation = 128
	maxUCUMNumber     = 30 // digits of a whole-number factor
)

// UCUMEntry is one row of the UCUM table: a prefix (Value is its factor,
// "1e3" or "1024"), a base unit, or a unit defined as Value times the
// UCUM expression Unit; a special unit names its Function.
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
	val   ucumVal // onto unitd's coherent SI units; for a special unit, its reference
	state int8    // 0 unvisited, 1 visiting, 2 done, 3 failed
}

// ucumVal is a UCUM term's value: an exact factor onto the coherent SI
// unit of dim, and the arbitrary units it holds.
type ucumVal struct {
	f   exact.Factor
	dim dimension.Vector
	arb []arbPower // sorted by code
	// special is set for a lone special unit (with its prefix's factor
	// in specialScale).
	special      *ucumAtom
	specialScale *big.Rat
	specialCode  string
}

type arbPower struct {
	code string
	exp  int
}

func unitVal() ucumVal { return ucumVal{f: exact.One()} }

// mul returns v·w^sign.
func (v ucumVal) mul(w ucumVal, sign int) ucumVal {
	out := ucumVal{dim: v.dim.Add(w.dim, sign)}
	if sign > 0 {
		out.f = v.f.Mul(w.f)
	} else {
		out.f = v.f.Quo(w.f)
	}
	out.arb = mergeArb(v.arb, w.arb, sign)
	return out
}

// pow returns v^n.
func (v ucumVal) pow(n int) ucumVal {
	out := ucumVal{f: v.f.Pow(n)}
	out.dim = out.dim.Add(v.dim, n)
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
	// overrides give a base dimension to atoms UCUM counts as numbers.
	codes []string // every atom code, sorted, for suggestions
}

// ucumBase is what each UCUM base unit is in unitd's coherent SI units.
var ucumBase = map[string]struct {
	dim    string
	factor string
}{
	"m": {"L", "1"}, "s": {"T", "1"}, "g": {"M", "1/1000"}, "rad": {"A", "1"},
	"K": {"Θ", "1"}, "C": {"I T", "1"}, "cd": {"J", "1"},
}

// ucumOverrides are atoms that UCUM defines as pure numbers but unitd
// keeps as base dimensions of their own, so that they meet unitd's units:
// the mole (UCUM: 6.0221367e23) and the bit (UCUM: 1).
var ucumOverrides = map[string]string{"mol": "N", "bit": "D"}

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
			t.atoms[e.Code] = &ucumAtom{entry: e}
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
	}
	return t, errs
}

// reduce computes an atom's value from its definition, reducing the atoms
// it refers to first. It runs only while building.
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

func (t *ucumTable) define(a *ucumAtom) (ucumVal, error) {
	e := a.entry
	if d, ok := ucumOverrides[e.Code]; ok {
		return ucumVal{f: exact.One(), dim: dimension.Product(d)}, nil
	}
	if e.Code == "[pi]" {
		return ucumVal{f: exact.Factor{R: big.NewRat(1, 1), K: 1}}, nil
	}
	if e.Type == "base" {
		b, ok := ucumBase[e.Code]
		if !ok {
			return ucumVal{}, fmt.Errorf("base unit %s is not one unitd knows", e.Code)
		}
		f, err := exact.ParseFactor(b.factor)
		if err != nil {
			return ucumVal{}, err
		}
		return ucumVal{f: f, dim: dimension.Product(b.dim)}, nil
	}
	value := e.Value
	if value == "" {
		value = "1"
	}
	f, ok := new(big.Rat).SetString(value)
	if !ok {
		return ucumVal{}, fmt.Errorf("atom %s: value %q is not a number", e.Code, e.Value)
	}
	p := &ucumParser{t: t, src: e.Unit, building: true}
	v, err := p.parse()
	if err != nil {
		return ucumVal{}, fmt.Errorf("atom %s: definition %q: %v", e.Code, e.Unit, err)
	}
	if v.special != nil {
		return ucumVal{}, fmt.Errorf("atom %s is defined through the special unit %s", e.Code, v.special.entry.Code)
	}
	v.f = v.f.Mul(exact.Factor{R: f})
	if e.Kind == "arbitrary" {
		// An arbitrary unit is its own kind: it converts to the arbitrary
		// unit it is defined by ([IU] is [iU]), or only to itself.
		if len(v.arb) == 0 {
			v.arb = []arbPower{{e.Code, 1}}
		}
	}
	return v, nil
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
	canon   []byte
	mapped  bool
	claimed map[string]*Unit
	// The value so far: num/den·π^k of dimension dim, with the arbitrary
	// units arb; special is a special unit met, and components counts
	// the components read.
	num, den   big.Int
	k          int
	dim        dimension.Vector
	arb        []arbPower
	special    *ucumVal
	components int
}

func (p *ucumParser) fail(format string, args ...any) *Error {
	e := errorf(CodeInvalidUnitExpression, format, args...)
	e.Message = "invalid UCUM code " + strconv.Quote(shorten(p.src)) + ": " + e.Message
	return e
}

func (p *ucumParser) parse() (ucumVal, error) {
	if len(p.src) > maxUCUMLength {
		return ucumVal{}, p.fail("longer than %d bytes", maxUCUMLength)
	}
	if p.src == "" {
		return ucumVal{}, p.fail("empty")
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
	}
	if err := p.term(1, first); err != nil {
		return ucumVal{}, err
	}
	if p.pos < len(p.src) {
		return ucumVal{}, p.fail("unexpected %q at position %d", p.src[p.pos], p.pos+1)
	}
	if p.special != nil {
		if p.components > 1 || first < 0 {
			return ucumVal{}, p.fail("the special unit %s converts through a function and cannot be part of a product or quotient", p.special.specialCode)
		}
		return *p.special, nil
	}
	for _, x := range p.dim {
		if x > 99 || x < -99 {
			return ucumVal{}, p.fail("its dimension has an exponent beyond ±99")
		}
	}
	// "0.m" (a factor of zero) and "m/0" (a division by zero) are no
	// units.
	if p.den.Sign() == 0 {
		return ucumVal{}, p.fail("it divides by zero")
	}
	if p.num.Sign() == 0 {
		return ucumVal{}, p.fail("its factor is 0")
	}
	return ucumVal{f: exact.Factor{R: new(big.Rat).SetFrac(&p.num, &p.den), K: p.k}, dim: p.dim, arb: p.arb}, nil
}

// multiply multiplies the code's value by v^n.
func (p *ucumParser) multiply(v *ucumVal, n int) {
	num, den := v.f.R.Num(), v.f.R.Denom()
	if n < 0 {
		num, den = den, num
	}
	for range abs(n) {
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
			return p.fail("%q at the end is not followed by a term", p.src[p.pos-1])
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
			return p.fail("parentheses nested deeper than %d at position %d", maxUCUMDepth, p.pos+1)
		}
		open := p.pos
		p.pos++
		p.canon = append(p.canon, '(')
		if err := p.term(sign, 1); err != nil {
			return err
		}
		if p.pos >= len(p.src) || p.src[p.pos] != ')' {
			return p.fail("the parenthesis at position %d is not closed", open+1)
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
		return p.fail("expected a unit at position %d, found %q", p.pos+1, p.src[p.pos])
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
				return p.fail("the annotation at position %d is longer than %d characters", open+1, maxUCUMAnnotation)
			}
			p.pos = i + 1
			if p.pos < len(p.src) {
				if c := p.src[p.pos]; c != '.' && c != '/' && c != ')' {
					return p.fail("the annotation at position %d must be followed by '.', '/' or ')', not %q", open+1, c)
				}
			}
			return nil
		case c == '{':
			return p.fail("the annotation at position %d holds '{' at position %d (annotations do not nest)", open+1, i+1)
		case c < 33 || c > 126:
			return p.fail("the annotation at position %d holds a character other than printable ASCII at position %d", open+1, i+1)
		}
	}
	return p.fail("the annotation at position %d is not closed with '}'", open+1)
}

// simple reads a simple unit with its exponent, or a whole number, and
// multiplies the code's value by it raised to sign.
func (p *ucumParser) simple(sign int) error {
	if p.terms++; p.terms > maxUCUMTerms {
		return p.fail("more than %d units", maxUCUMTerms)
	}
	start := p.pos
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		if c == '[' {
			end := strings.IndexByte(p.src[p.pos:], ']')
			if end < 0 {
				return p.fail("the bracket at position %d is not closed with ']'", p.pos+1)
			}
			p.pos += end + 1
			continue
		}
		if c == '.' || c == '/' || c == '(' || c == ')' || c == '{' || c == '}' {
			break
		}
		if c <= ' ' || c > 126 {
			return p.fail("character %q at position %d is not allowed in a UCUM code", rune(p.src[p.pos]), p.pos+1)
		}
		p.pos++
	}
	run := p.src[start:p.pos]
	if run == "" {
		return p.fail("expected a unit at position %d", start+1)
	}
	// A trailing whole number, with an optional sign, is the exponent.
	k := len(run)
	for k > 0 && run[k-1] >= '0' && run[k-1] <= '9' {
		k--
	}
	if k == 0 {
		// A whole number alone is a factor.
		if len(run) > maxUCUMNumber {
			return p.fail("the number at position %d has more than %d digits", start+1, maxUCUMNumber)
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
	if name == "" || isDigits(name) {
		return p.fail("%q at position %d is a number with an exponent, which UCUM does not allow (write 10*3)", run, start+1)
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
			return p.fail("the exponent %s at position %d is out of range (at most ±%d)", shorten(expText), start+len(name)+1, limit)
		}
		exp = n
	}
	atom, prefix := p.t.lookup(name)
	if atom == nil {
		e := errorf(CodeUnknownUnit, "unknown UCUM unit %q at position %d of %q", shorten(name), start+1, shorten(p.src))
		e.Suggestions = p.t.suggest(name)
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
			return p.fail("the special unit %s cannot take an exponent", name)
		}
		scale := big.NewRat(1, 1)
		if prefix != nil {
			scale = prefix
		}
		if p.special != nil {
			return p.fail("the special unit %s converts through a function and cannot be part of a product or quotient", name)
		}
		p.special = &ucumVal{special: atom, specialScale: scale, specialCode: name, dim: atom.val.dim}
		return nil
	}
	if prefix != nil {
		p.multiply(&ucumVal{f: exact.Factor{R: prefix}}, exp*sign)
	}
	p.multiply(&atom.val, exp*sign)
	return nil
}

// appendCanon writes a simple unit to the canonical form: the symbol of
// the catalog unit claiming its code, or else marks the form unmapped.
func (p *ucumParser) appendCanon(code string, exp int) {
	if p.claimed == nil {
		return
	}
	u := p.claimed[code]
	if u == nil {
		p.mapped = false
		return
	}
	p.canon = append(p.canon, u.Symbol...)
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

// suggest lists up to five atoms close to name.
func (t *ucumTable) suggest(name string) []string {
	type scored struct {
		code string
		d    int
	}
	if len(name) > 64 {
		return nil
	}
	var best []scored
	lower := strings.ToLower(name)
	for _, c := range t.codes {
		if len(c) > len(name)+3 || len(c)+3 < len(name) {
			continue
		}
		d := suggest.Distance(lower, strings.ToLower(c))
		if d <= 2 {
			best = append(best, scored{c, d})
		}
	}
	sort.SliceStable(best, func(i, j int) bool { return best[i].d < best[j].d })
	var out []string
	for _, s := range best {
		if len(out) == 5 {
			break
		}
		out = append(out, "ucum:"+s.code)
	}
	return out
}
