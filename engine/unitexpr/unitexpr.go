// Package unitexpr reads unit expressions. Wherever a unit is accepted, a unit expression may stand instead:
// products, quotients and integer powers of catalog units, as engineers
// write them ("kg*m/s^2", "W/(m2*K)", "ft·lbf", "m/s²", "1/s").
//
//	expression := term { ('*' | '·' | '⋅' | '/') term }
//	term       := primary [ '^' int | '**' int | superscripts ]
//	primary    := '(' expression ')' | '1' | operand
//
// '*' and '/' have equal precedence and associate to the left, so W/m2/K is
// W/(m2*K). An exponent is a whole number from -9 to 9 other than 0; spaces
// around operators are ignored. Each operand is the longest catalog name
// (symbol or alias, with the catalog's rules of case, prefixes and
// ambiguity) that matches where it starts, so "BTU/h*ft2" reads as
// (BTU/h)*ft2; a name that itself holds an operator is not taken when an
// exponent follows it, so in "kg*m/s^2" the exponent binds to s, not to the
// speed unit m/s.
//
// Every operand must be linear or affine. An affine unit (degF) stands for
// the temperature interval of its size. A unit defined by a formula (dBm,
// L/100km) has no factor to multiply and is refused. mpg is not among them:
// the catalog defines it as a linear multiple of km/L (a length over a
// volume), so mpg*gal is a length; only a reciprocal unit such as L/100km is
// a formula.
package unitexpr

import (
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/unitd/unitd/engine/dimension"
	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/internal/graph"
)

// Catalog is what an expression's operands are looked up in: a graph's
// units by every name, as the engine resolves them.
type Catalog interface {
	// LookupName finds the unit a name stands for; found is false when
	// the name is none of the catalog's, and err is set for a name that
	// is one but names no single unit (a declared ambiguous name).
	LookupName(name string) (u *graph.Unit, err error, found bool)
	// Lookup is LookupName's error for a name that is unknown, with
	// suggestions.
	Lookup(name string) (*graph.Unit, error)
	// Symbol finds a unit by its case-sensitive symbol only.
	Symbol(s string) (*graph.Unit, bool)
	// MaxName is the length in bytes of the longest name.
	MaxName() int
	// CategoryOf is the category of a dimension, or nil.
	CategoryOf(d dimension.Vector) *graph.Category
}

// abs is the absolute value of n.
func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// Factor is the exact factor from the expression to the coherent SI unit
// of its dimension, written as factorText does, and whether it is exact
// as written.
func (e *Expression) Factor() (string, bool) { return exact.FactorText(e.Coherent) }

// Limits that keep a hostile expression cheap to refuse.
const (
	maxExpressionLength   = 256
	maxExpressionOperands = 32
	maxExpressionDepth    = 8
	maxEffectiveExponent  = 27
)

// Term is one operand of an expression with its effective exponent: in
// "kg*m/s^2", s has exponent -2.
type Term struct {
	Unit     *graph.Unit
	Exponent int
}

// Expression is a parsed unit expression, compiled against one graph. It is
// immutable and shared by the graph's cache.
type Expression struct {
	// Symbol is the expression as written with each operand replaced by its
	// canonical symbol and ASCII operators ("kg*m*s^-2").
	Symbol string
	// Terms lists the operands in order, with their effective exponents.
	Terms []Term
	// Category is the catalog category of the expression's dimension (the
	// preferred one where several share it), or nil.
	Category *graph.Category

	Dim      dimension.Vector
	Coherent exact.Factor // onto the coherent SI unit of dim
	Conv     graph.Conversion
	// Arbitrary names the Arbitrary units (UCUM's [IU], …) of a code, which
	// convert only among themselves; "" for every other expression.
	Arbitrary string
	// Code is the namespaced Code (ucum:mg/dL) an expression was read
	// from, or ""; Note is the convention its system was read by.
	Code, Note string
	// Reciprocal marks a code defined as an inverse (UCUM's [diop]),
	// which converts also to the Reciprocal of its dimension.
	Reciprocal bool
	// Point marks a lone catalog unit in parentheses, which keeps its
	// own map (see parseExpression).
	Point bool
}

// DimensionText prints the expression's dimension as "L T^-1".
func (e *Expression) DimensionText() string { return e.Dim.String() }

// CategoryID is the ID of the expression's category, or its dimension when
// no catalog category has that dimension.
func (e *Expression) CategoryID() string {
	if e.Category != nil {
		return e.Category.ID
	}
	return e.Dim.String()
}

// IsExpressionSyntax reports whether s uses any operator of the expression
// grammar, so that failing to find it in the catalog should parse it.
func IsExpressionSyntax(s string) bool {
	return strings.ContainsAny(s, "*/^()·⋅⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺")
}

// exprParser parses one expression against a catalog.
type exprParser struct {
	c        Catalog
	src      string
	pos      int
	depth    int
	operands int
	canon    []byte
	exclude  *graph.Unit
	terms    []Term // every operand so far, with its effective exponent
	// afterSlash is set while the operand right after a '/' is read.
	afterSlash bool
	// trap is the canonical position of an operand written "mK" right
	// after a '/' (W/mK), or -1.
	trap    int
	powered bool // an exponent was written somewhere
}

// Parse parses s into an Expression against the units of c. Errors are
// *fault.Error: INVALID_UNIT_EXPRESSION naming the position, or the
// UNKNOWN_UNIT or AMBIGUOUS_UNIT of one operand. exclude, when not nil,
// is a unit not taken as an operand, to read a base unit's symbol as an
// expression of others.
func Parse(c Catalog, s string, exclude *graph.Unit) (*Expression, error) {
	if len(s) > maxExpressionLength {
		return nil, fault.Errorf(fault.InvalidUnitExpression, "unit expression is longer than %d bytes", maxExpressionLength)
	}
	if !utf8.ValidString(s) {
		return nil, fault.Errorf(fault.InvalidUnitExpression, "unit expression is not valid UTF-8")
	}
	p := &exprParser{c: c, src: s, canon: make([]byte, 0, len(s)), exclude: exclude, terms: make([]Term, 0, 8), trap: -1}
	if err := p.expression(); err != nil {
		return nil, err
	}
	terms := p.terms
	p.skipSpace()
	if p.pos < len(s) {
		return nil, p.fail("unexpected %s at position %d", p.describeHere(), p.position(p.pos))
	}
	if p.trap >= 0 {
		return nil, p.millikelvinTrap()
	}
	e := &Expression{Symbol: string(p.canon), Terms: terms}
	// The factor is the product of the operands' factors: multiply
	// numerators and denominators apart and reduce once.
	num, den := big.NewInt(1), big.NewInt(1)
	k := 0
	for _, term := range terms {
		if term.Unit == nil {
			continue // the number 1
		}
		e.Dim = e.Dim.Add(term.Unit.Category.Dim, term.Exponent)
		f := term.Unit.Coherent
		n, d := f.R.Num(), f.R.Denom()
		if term.Exponent < 0 {
			n, d = d, n
		}
		for range abs(term.Exponent) {
			num.Mul(num, n)
			den.Mul(den, d)
		}
		k += f.K * term.Exponent
	}
	e.Coherent = exact.Factor{R: new(big.Rat).SetFrac(num, den), K: k}
	for _, x := range e.Dim {
		if x > 99 || x < -99 {
			return nil, fault.Errorf(fault.InvalidUnitExpression, "unit expression %q: its dimension %s has an exponent beyond ±99", fault.Truncate(s, 64), e.Dim)
		}
	}
	e.Category = c.CategoryOf(e.Dim)
	lin, err := exact.Linear(e.Coherent.R, e.Coherent.K)
	if err != nil {
		return nil, fault.Errorf(fault.InvalidUnitExpression, "unit expression %q: its factor is %v", fault.Truncate(s, 64), err)
	}
	e.Conv = graph.Conversion{Map: lin, Exact: true}
	for _, t := range terms {
		if t.Unit != nil {
			e.Conv.Exact = e.Conv.Exact && t.Unit.Conv.Exact
		}
	}
	if len(terms) == 1 && terms[0].Unit != nil && terms[0].Exponent == 1 && !p.powered && terms[0].Unit.SI != nil {
		// A lone unit in parentheses keeps its own map: (degC) is a point
		// on the Celsius scale, not an interval, while it converts, as an
		// expression, to any unit of its dimension.
		e.Point = true
		e.Conv = *terms[0].Unit.SI
	}
	return e, nil
}

// millikelvinTrap refuses W/mK, which reads as watt per millikelvin but is
// nearly always meant as watt per metre kelvin, as AMBIGUOUS_UNIT with the
// two spellings that say either unambiguously.
func (p *exprParser) millikelvinTrap() *fault.Error {
	canon := string(p.canon)
	meant := canon[:p.trap] + "(m*K)" + canon[p.trap+len("mK"):]
	var b strings.Builder
	for i, t := range p.terms {
		if i > 0 {
			b.WriteByte('*')
		}
		sym := "1"
		if t.Unit != nil {
			sym = t.Unit.Symbol
		}
		b.WriteString(sym)
		if t.Exponent != 1 {
			b.WriteString("^" + strconv.Itoa(t.Exponent))
		}
	}
	parsed := b.String()
	e := fault.Errorf(fault.AmbiguousUnit, "%q is ambiguous: mK is the millikelvin, so it reads as %s (per millikelvin, a thousand times per kelvin), but it is usually meant as %s (per metre kelvin); write one of them", fault.Truncate(p.src, 64), parsed, meant)
	e.Candidates = []string{meant, parsed}
	return e
}

// position is the 1-based character position of byte offset i.
func (p *exprParser) position(i int) int { return utf8.RuneCountInString(p.src[:i]) + 1 }

func (p *exprParser) fail(format string, args ...any) *fault.Error {
	e := fault.Errorf(fault.InvalidUnitExpression, format, args...)
	e.Message = "invalid unit expression " + strconv.Quote(fault.Truncate(p.src, 64)) + ": " + e.Message
	return e
}

// describeHere names what is at the current position, for messages.
func (p *exprParser) describeHere() string {
	if p.pos >= len(p.src) {
		return "the end"
	}
	r, _ := utf8.DecodeRuneInString(p.src[p.pos:])
	return strconv.QuoteRune(r)
}

func (p *exprParser) skipSpace() {
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t') {
		p.pos++
	}
}

// multiplyOp reports a multiplication operator at the current position and
// its length in bytes; "**" is a power, not a product.
func (p *exprParser) multiplyOp() int {
	rest := p.src[p.pos:]
	switch {
	case strings.HasPrefix(rest, "**"):
		return 0
	case strings.HasPrefix(rest, "*"):
		return 1
	case strings.HasPrefix(rest, "·"):
		return len("·")
	case strings.HasPrefix(rest, "⋅"):
		return len("⋅")
	}
	return 0
}

// expression := term { op term }. It appends the operands to p.terms.
func (p *exprParser) expression() error {
	if err := p.term(); err != nil {
		return err
	}
	for {
		p.skipSpace()
		sign := 1
		if n := p.multiplyOp(); n > 0 {
			p.pos += n
			p.canon = append(p.canon, '*')
		} else if p.pos < len(p.src) && p.src[p.pos] == '/' {
			p.pos++
			p.canon = append(p.canon, '/')
			sign = -1
		} else {
			return nil
		}
		start := len(p.terms)
		p.afterSlash = sign < 0
		err := p.term()
		p.afterSlash = false
		if err != nil {
			return err
		}
		if sign < 0 {
			for i := range p.terms[start:] {
				p.terms[start+i].Exponent = -p.terms[start+i].Exponent
			}
		}
	}
}

// term := primary [power]. It appends the operands to p.terms.
func (p *exprParser) term() error {
	start := len(p.terms)
	p.skipSpace()
	if p.pos >= len(p.src) {
		return p.fail("expected a unit at the end (position %d)", p.position(p.pos))
	}
	if p.src[p.pos] == '(' {
		if p.depth++; p.depth > maxExpressionDepth {
			return p.fail("parentheses nested deeper than %d at position %d", maxExpressionDepth, p.position(p.pos))
		}
		open := p.pos
		p.pos++
		p.canon = append(p.canon, '(')
		if err := p.expression(); err != nil {
			return err
		}
		p.skipSpace()
		if p.pos >= len(p.src) || p.src[p.pos] != ')' {
			return p.fail("the parenthesis at position %d is not closed (found %s)", p.position(open), p.describeHere())
		}
		p.pos++
		p.depth--
		p.canon = append(p.canon, ')')
	} else {
		t, err := p.operand()
		if err != nil {
			return err
		}
		p.terms = append(p.terms, t)
	}
	n, err := p.power()
	if err != nil {
		return err
	}
	if n != 1 {
		for i := range p.terms[start:] {
			t := &p.terms[start+i]
			t.Exponent *= n
			if e := t.Exponent; e > maxEffectiveExponent || e < -maxEffectiveExponent {
				return p.fail("the exponents before position %d raise a unit to the power %d (at most ±%d)", p.position(p.pos), e, maxEffectiveExponent)
			}
		}
	}
	return nil
}

// superscripts maps superscript runes to ASCII.
var superscripts = map[rune]byte{
	'⁰': '0', '¹': '1', '²': '2', '³': '3', '⁴': '4', '⁵': '5', '⁶': '6', '⁷': '7', '⁸': '8', '⁹': '9', '⁻': '-', '⁺': '+',
}

// power reads an optional exponent and returns it (1 when there is none).
func (p *exprParser) power() (int, error) {
	save := p.pos
	p.skipSpace()
	start := p.pos
	var text []byte
	switch {
	case strings.HasPrefix(p.src[p.pos:], "**"):
		p.pos += 2
	case strings.HasPrefix(p.src[p.pos:], "^"):
		p.pos++
	default:
		for p.pos < len(p.src) {
			r, size := utf8.DecodeRuneInString(p.src[p.pos:])
			c, ok := superscripts[r]
			if !ok {
				break
			}
			text = append(text, c)
			p.pos += size
		}
		if len(text) == 0 {
			p.pos = save
			return 1, nil
		}
		return p.exponent(string(text), start)
	}
	p.skipSpace()
	switch rest := p.src[p.pos:]; {
	case strings.HasPrefix(rest, "-"), strings.HasPrefix(rest, "+"):
		text = append(text, rest[0])
		p.pos++
	case strings.HasPrefix(rest, "−"): // U+2212 minus sign
		text = append(text, '-')
		p.pos += len("−")
	}
	n := len(p.src[p.pos:]) - len(strings.TrimLeft(p.src[p.pos:], "0123456789"))
	text = append(text, p.src[p.pos:p.pos+n]...)
	p.pos += n
	return p.exponent(string(text), start)
}

// exponent checks an exponent's text and appends it to the canonical form.
func (p *exprParser) exponent(text string, at int) (int, error) {
	digits := strings.TrimLeft(text, "+-")
	if digits == "" {
		return 0, p.fail("expected a whole number after the exponent at position %d, found %s", p.position(at), p.describeHere())
	}
	n, err := strconv.Atoi(strings.TrimPrefix(text, "+"))
	if err != nil || n < -9 || n > 9 || n == 0 {
		return 0, p.fail("exponent %s at position %d is out of range: use a whole number from -9 to 9 other than 0", fault.Truncate(text, 64), p.position(at))
	}
	p.canon = append(p.canon, '^')
	p.canon = strconv.AppendInt(p.canon, int64(n), 10)
	p.powered = true
	return n, nil
}

// isBoundary reports whether an operand may end before s[i:].
func isBoundary(s string, i int) bool {
	if i >= len(s) {
		return true
	}
	switch c := s[i]; {
	case c == '*' || c == '/' || c == '(' || c == ')' || c == '^' || c == ' ' || c == '\t':
		return true
	case c < 0x80:
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return isSuperscript(r) || r == '·' || r == '⋅'
}

func isSuperscript(r rune) bool {
	switch r {
	case '⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹', '⁻', '⁺':
		return true
	}
	return false
}

// endsWithBoundary reports whether s ends with a boundary character.
func endsWithBoundary(s string) bool {
	if len(s) == 0 {
		return false
	}
	if s[len(s)-1] < 0x80 {
		return isBoundary(s, len(s)-1)
	}
	r, size := utf8.DecodeLastRuneInString(s)
	return r != utf8.RuneError && isBoundary(s, len(s)-size)
}

// followedByPower reports whether an exponent follows s[i:] after spaces.
func followedByPower(s string, i int) bool {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if i >= len(s) {
		return false
	}
	if s[i] == '^' || strings.HasPrefix(s[i:], "**") {
		return true
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return isSuperscript(r)
}

// operand reads the longest catalog name at the current position.
func (p *exprParser) operand() (Term, error) {
	if p.operands++; p.operands > maxExpressionOperands {
		return Term{}, p.fail("more than %d operands", maxExpressionOperands)
	}
	start := p.pos
	src := p.src
	// An operand never begins with an operator, even where a catalog
	// spelling does ("/m" for the reciprocal metre): kg*/m is a mistake,
	// not kg times 1/m.
	if r, _ := utf8.DecodeRuneInString(src[start:]); strings.ContainsRune("*/·⋅^)", r) {
		return Term{}, p.fail("expected a unit at position %d, found %s", p.position(start), p.describeHere())
	}
	// Candidate ends are the boundaries after start, up to the longest
	// name in the catalog; try them longest first.
	var ends [64]int
	cands := ends[:0]
	limit := min(len(src), start+p.c.MaxName())
	for i := start + 1; i <= limit; i++ {
		if (i == len(src) || utf8.RuneStart(src[i])) && isBoundary(src, i) && !endsWithBoundary(src[:i]) {
			cands = append(cands, i)
		}
	}
	for k := len(cands) - 1; k >= 0; k-- {
		end := cands[k]
		name := src[start:end]
		if strings.ContainsAny(name, "*/·⋅^") && followedByPower(src, end) {
			continue
		}
		u, err, found := p.c.LookupName(name)
		if !found || u != nil && u == p.exclude {
			continue
		}
		if err != nil {
			return Term{}, err
		}
		if u.Conv.FormulaUnit {
			return Term{}, p.fail("%s at position %d is defined by a formula and cannot be part of a unit expression", u.Symbol, p.position(start))
		}
		if u.Category.Logarithmic {
			return Term{}, p.fail("%s at position %d is a level on a logarithmic scale and cannot be part of a unit expression", u.Symbol, p.position(start))
		}
		if p.afterSlash && name == "mK" && start > 0 && src[start-1] == '/' {
			if _, ok := p.c.Symbol("m"); ok {
				p.trap = len(p.canon)
			}
		}
		p.afterSlash = false
		p.pos = end
		p.canon = appendOperand(p.canon, name, u.Symbol)
		return Term{Unit: u, Exponent: 1}, nil
	}
	// Not in the catalog: the number 1, or an unknown unit up to the next
	// boundary.
	end := start
	for end < len(src) && !isBoundary(src, end) {
		_, size := utf8.DecodeRuneInString(src[end:])
		end += size
	}
	name := src[start:end]
	switch {
	case name == "":
		return Term{}, p.fail("expected a unit at position %d, found %s", p.position(start), p.describeHere())
	case name == "1":
		p.pos = end
		p.canon = append(p.canon, '1')
		return Term{Exponent: 1}, nil
	case strings.Trim(name, "0123456789.") == "":
		return Term{}, p.fail("the number %s at position %d is not a unit (only 1, as in 1/s, may stand alone)", name, p.position(start))
	}
	if p.exclude != nil {
		// Reading a base symbol at Build: the error is not shown, so
		// no suggestions.
		return Term{}, fault.Errorf(fault.UnknownUnit, "unknown unit %q", name)
	}
	_, err := p.c.Lookup(name)
	if e, ok := err.(*fault.Error); ok && e.Code == fault.UnknownUnit {
		e.Message += " (in unit expression " + strconv.Quote(fault.Truncate(src, 64)) + " at position " + strconv.Itoa(p.position(start)) + ")"
	}
	return Term{}, err
}

// appendOperand appends an operand's canonical symbol. When the operand
// was written with a power (m/s^2, m/s²) and its symbol writes the power
// as bare digits (m/s2), the power keeps its operator (m/s^2): the
// expression keeps the structure it was written with.
func appendOperand(canon []byte, written, symbol string) []byte {
	if !strings.ContainsAny(written, "^⁰¹²³⁴⁵⁶⁷⁸⁹") && !strings.Contains(written, "**") {
		return append(canon, symbol...)
	}
	i := len(symbol)
	for i > 0 && symbol[i-1] >= '0' && symbol[i-1] <= '9' {
		i--
	}
	if i > 0 && symbol[i-1] == '-' {
		i--
	}
	if i == len(symbol) || i == 0 || !isLetter(symbol[i-1]) {
		return append(canon, symbol...)
	}
	canon = append(canon, symbol[:i]...)
	canon = append(canon, '^')
	return append(canon, symbol[i:]...)
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// CoherentUnit is the coherent SI unit of the expression's dimension, the
// unit Factor leads to ("kg*m*s^-2").
func (e *Expression) CoherentUnit() string { return e.Dim.SIText() }
