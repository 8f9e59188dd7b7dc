package engine

import (
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/unitd/unitd/engine/dimension"
	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/internal/fold"
	"github.com/unitd/unitd/engine/internal/graph"
)

// Unit expressions
//
// Wherever a unit is accepted, a unit expression may stand instead:
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
	Unit     *Unit
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
	Category *Category

	dim    dimension.Vector
	factor exact.Factor // onto the coherent SI unit of dim
	conv   graph.Conversion
	// arbitrary names the arbitrary units (UCUM's [IU], …) of a code, which
	// convert only among themselves; "" for every other expression.
	arbitrary string
	// code is the namespaced code (ucum:mg/dL) an expression was read
	// from, or ""; note is the convention its system was read by.
	code, note string
	// reciprocal marks a code defined as an inverse (UCUM's [diop]),
	// which converts also to the reciprocal of its dimension.
	reciprocal bool
	// point marks a lone catalog unit in parentheses, which keeps its
	// own map (see parseExpression).
	point bool
}

// DimensionText prints the expression's dimension as "L T^-1".
func (e *Expression) DimensionText() string { return e.dim.String() }

// CategoryID is the ID of the expression's category, or its dimension when
// no catalog category has that dimension.
func (e *Expression) CategoryID() string {
	if e.Category != nil {
		return e.Category.ID
	}
	return e.dim.String()
}

// isExpressionSyntax reports whether s uses any operator of the expression
// grammar, so that failing to find it in the catalog should parse it.
func isExpressionSyntax(s string) bool {
	return strings.ContainsAny(s, "*/^()·⋅⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺")
}

// exprParser parses one expression against a graph.
type exprParser struct {
	g        *Graph
	src      string
	pos      int
	depth    int
	operands int
	canon    []byte
	exclude  *Unit
	terms    []Term // every operand so far, with its effective exponent
	// afterSlash is set while the operand right after a '/' is read.
	afterSlash bool
	// trap is the canonical position of an operand written "mK" right
	// after a '/' (W/mK), or -1.
	trap    int
	powered bool // an exponent was written somewhere
}

// parseExpression parses s into an Expression. Errors are *Error:
// INVALID_UNIT_EXPRESSION naming the position, or the UNKNOWN_UNIT or
// AMBIGUOUS_UNIT of one operand.
func (g *Graph) parseExpression(s string) (*Expression, error) {
	return g.parseExpressionExcluding(s, nil)
}

// parseExpressionExcluding parses s without taking the unit exclude as an
// operand, to read a base unit's symbol as an expression of others.
func (g *Graph) parseExpressionExcluding(s string, exclude *Unit) (*Expression, error) {
	if len(s) > maxExpressionLength {
		return nil, errorf(CodeInvalidUnitExpression, "unit expression is longer than %d bytes", maxExpressionLength)
	}
	if !utf8.ValidString(s) {
		return nil, errorf(CodeInvalidUnitExpression, "unit expression is not valid UTF-8")
	}
	p := &exprParser{g: g, src: s, canon: make([]byte, 0, len(s)), exclude: exclude, terms: make([]Term, 0, 8), trap: -1}
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
		e.dim = e.dim.Add(term.Unit.Category.Dim, term.Exponent)
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
	e.factor = exact.Factor{R: new(big.Rat).SetFrac(num, den), K: k}
	for _, x := range e.dim {
		if x > 99 || x < -99 {
			return nil, errorf(CodeInvalidUnitExpression, "unit expression %q: its dimension %s has an exponent beyond ±99", shorten(s), e.dim)
		}
	}
	e.Category = g.byDimension[e.dim]
	lin, err := exact.Linear(e.factor.R, e.factor.K)
	if err != nil {
		return nil, errorf(CodeInvalidUnitExpression, "unit expression %q: its factor is %v", shorten(s), err)
	}
	e.conv = graph.Conversion{Map: lin, Exact: true}
	for _, t := range terms {
		if t.Unit != nil {
			e.conv.Exact = e.conv.Exact && t.Unit.Conv.Exact
		}
	}
	if len(terms) == 1 && terms[0].Unit != nil && terms[0].Exponent == 1 && !p.powered && terms[0].Unit.SI != nil {
		// A lone unit in parentheses keeps its own map: (degC) is a point
		// on the Celsius scale, not an interval, while it converts, as an
		// expression, to any unit of its dimension.
		e.point = true
		e.conv = *terms[0].Unit.SI
	}
	return e, nil
}

// millikelvinTrap refuses W/mK, which reads as watt per millikelvin but is
// nearly always meant as watt per metre kelvin, as AMBIGUOUS_UNIT with the
// two spellings that say either unambiguously.
func (p *exprParser) millikelvinTrap() *Error {
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
	e := errorf(CodeAmbiguousUnit, "%q is ambiguous: mK is the millikelvin, so it reads as %s (per millikelvin, a thousand times per kelvin), but it is usually meant as %s (per metre kelvin); write one of them", shorten(p.src), parsed, meant)
	e.Candidates = []string{meant, parsed}
	return e
}

// position is the 1-based character position of byte offset i.
func (p *exprParser) position(i int) int { return utf8.RuneCountInString(p.src[:i]) + 1 }

func (p *exprParser) fail(format string, args ...any) *Error {
	e := errorf(CodeInvalidUnitExpression, format, args...)
	e.Message = "invalid unit expression " + strconv.Quote(shorten(p.src)) + ": " + e.Message
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

func shorten(s string) string {
	if len(s) <= 64 {
		return s
	}
	i := 64
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
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
		return 0, p.fail("exponent %s at position %d is out of range: use a whole number from -9 to 9 other than 0", shorten(text), p.position(at))
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
	limit := min(len(src), start+p.g.maxName)
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
		u, err, found := p.g.lookupName(name)
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
			if _, ok := p.g.bySymbol.Get("m"); ok {
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
		return Term{}, errorf(CodeUnknownUnit, "unknown unit %q", name)
	}
	_, err := p.g.Lookup(name)
	if e, ok := err.(*Error); ok && e.Code == CodeUnknownUnit {
		e.Message += " (in unit expression " + strconv.Quote(shorten(src)) + " at position " + strconv.Itoa(p.position(start)) + ")"
	}
	return Term{}, err
}

// lookupName is Lookup that also says whether name is in the catalog at
// all (a unit, or a declared ambiguous name), without building suggestions
// when it is not.
func (g *Graph) lookupName(name string) (*Unit, error, bool) {
	if g.ov != nil || hasAccountPrefix(name) { // an account's units first (overlay.go)
		if u, err, ok := g.lookupAccount(name); ok && (err == nil || !hasAccountPrefix(name)) {
			return u, err, true
		} else if ok {
			return nil, nil, false // a shorter operand may be one
		}
	}
	if u, ok := g.bySymbol.Get(name); ok {
		return u, nil, true
	}
	if len(name) <= 64 && isASCIIWord(name) {
		// Lower-case on the stack: the map lookup does not keep the key.
		var buf [64]byte
		for i := 0; i < len(name); i++ {
			c := name[i]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			buf[i] = c
		}
		if u, ok := g.byWord.GetBytes(buf[:len(name)]); ok {
			return u, nil, true
		}
		if _, ok := g.ambiguous[string(buf[:len(name)])]; !ok {
			return nil, nil, false
		}
	}
	key := fold.Key(name)
	if u, ok := g.byWord.Get(key); ok {
		return u, nil, true
	}
	if _, ok := g.ambiguous[key]; ok {
		_, err := g.Lookup(name)
		return nil, err, true
	}
	return nil, nil, false
}

// isASCIIWord reports whether s is ASCII without white space, so that its
// word key is just its lower case.
func isASCIIWord(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x80 || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' {
			return false
		}
	}
	return true
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
