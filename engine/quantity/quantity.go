// Package quantity reads quantities as people type them ("5 ft 3 in",
// "5'3\"", "1½ cups", "1h30m", "-40 °F", "12,5 km") and whole questions
// ("5 ft 3 in to cm") into the value and unit text an engine.Request
// takes, over a graph's unit lookup.
//
// # What it reads
//
// A quantity is an optional sign (-, +, −) and one or more components,
// each a number and a unit. Numbers: integers, decimals, exponents
// (1.2e3), vulgar fractions (½, 1½, 1 ½), fractions written with a slash
// (1/2, 1 1/2, 1⁄2: a fraction, never a unit quotient), digits of any
// numbering system (١٢٫٥), and the locale's decimal and grouping
// separators (Options). Units: whatever Graph.Resolve reads (symbols,
// names, plurals, Unicode spellings, expressions such as m/s2), the
// feet and inch marks (' ′ ’ and " ″ ”), the degree spellings (°F, ° F,
// ºF, degF, deg F, ℉), and the locale's own unit names (Options.Names).
//
// Several components make a mixed quantity: units of one category from
// the largest to the smallest, each once, none affine ("5 ft 3 in",
// "3 lb 4 oz", "1h30m", "2 h, 15 min", "5 feet and 3 inches"). It is
// handed on in the engine's mixed form: Unit "ft+in", Value "5 3". In a
// mixed time ("1h30m", "2m30s") m is the minute.
//
// A question is a quantity, a separator (to, in, as, ->, →) and a unit:
// the separator is the one that leaves a quantity on its left and a unit
// on its right ("3 in in cm" is 3 inches in centimetres).
//
// # What it refuses
//
// Text that cannot be read without guessing is an INVALID_QUANTITY
// *engine.Error whose message names the position (in characters, from
// 1) and whose Details hold it ("position"): no number, no unit, an
// unknown unit (with suggestions), an ambiguous name (with candidates,
// such as gallon), a separator the locale does not use that way ("1,5"
// in English, "1.5" in German), a misplaced group. Decisions:
//
//   - F and C alone mean farad and coulomb to the catalog, and Fahrenheit
//     and Celsius to many people: refused with both as candidates.
//   - 5' alone is 5 ft; 5' 3 (a number after a feet mark, without the
//     inch mark) is refused: the 3 has no unit, and the message says to
//     write 5'3" or 5 ft 3 in.
//   - A fraction whose decimal does not terminate (⅓, 2/3) is carried to
//     60 significant digits and marked Rounded; Convert still rounds its
//     result once (it converts the decimals on either side of the
//     fraction), and the answer is not exact.
//
// Text is limited to MaxLength bytes and MaxComponents components.
package quantity

import (
	"math/big"
	"math/bits"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/unitd/unitd/engine"
)

// Limits on free text.
const (
	MaxLength     = 256
	MaxComponents = 8
)

// Options say how a locale writes numbers and names units. The zero
// value reads English: "." for the decimal point, "," between groups of
// three digits.
type Options struct {
	// Locale names the locale in messages ("de").
	Locale string
	// Decimal and Group are the locale's decimal and grouping
	// separators; Primary and Secondary its grouping sizes (3 and 3, 3
	// and 2 in Hindi).
	Decimal, Group     string
	Primary, Secondary int
	// Names, when set, finds the catalog symbols a name means in the
	// locale; it is asked after the catalog.
	Names func(name string) []string
}

// Quantity is free text read as a quantity.
type Quantity struct {
	// Text is the text as given.
	Text string
	// Value is the number as decimal text, or the mixed form's values
	// separated by spaces ("5 3"), the sign on the first.
	Value string
	// Unit is the unit's canonical symbol (or expression), or the mixed
	// form's symbols joined by "+" ("ft+in").
	Unit string
	// Parts are the components of a mixed quantity, nil otherwise.
	Parts []Part
	// Rounded says a fraction's decimal did not terminate and Value
	// carries 60 significant digits of it (see Convert).
	Rounded bool

	frac *big.Rat // the exact value of a rounded single quantity
}

// Part is one component of a mixed quantity.
type Part struct {
	Value, Unit string
}

// Question is a quantity and the unit it is asked in.
type Question struct {
	Quantity
	// To is the target unit: a canonical symbol, an expression as the
	// catalog resolves it, or a mixed unit ("ft+in") passed on as written.
	To string
}

// Graph is what the parser needs of an *engine.Graph.
type Graph interface {
	Resolve(name string) (*engine.Unit, *engine.Expression, error)
	Lookup(name string) (*engine.Unit, error)
	Find(name string) (*engine.Unit, *engine.Ambiguity)
	Convert(req engine.Request) (engine.Result, error)
}

var _ Graph = (*engine.Graph)(nil)

// fail builds an INVALID_QUANTITY error at byte offset off of text.
func fail(text string, off int, msg string) *engine.Error {
	pos := utf8.RuneCountInString(text[:min(max(off, 0), len(text))]) + 1
	p := strconv.Itoa(pos)
	return &engine.Error{Code: engine.CodeInvalidQuantity, Message: msg + " (position " + p + ")",
		Details: map[string]string{"position": p}}
}

// component is one number and unit of a quantity.
type component struct {
	numText  string   // decimal text of the number
	frac     *big.Rat // the number, when numText rounds a fraction
	unitText string
	unitOff  int
	unit     *engine.Unit
	expr     *engine.Expression
	symbol   string
	off      int
}

// Parse reads text as a quantity.
func Parse(g Graph, text string, opt *Options) (Quantity, error) {
	if opt == nil {
		opt = &Options{}
	}
	q := Quantity{Text: text}
	if len(text) > MaxLength {
		return q, fail(text, MaxLength, "the quantity is longer than "+strconv.Itoa(MaxLength)+" bytes")
	}
	if !utf8.ValidString(text) {
		return q, fail(text, 0, "the quantity is not valid UTF-8")
	}
	p := parser{g: g, text: text, opt: opt}
	p.setSeparators()
	comps, neg, err := p.quantity()
	if err != nil {
		return q, err
	}
	if len(comps) == 1 {
		c := comps[0]
		q.Value, q.Unit, q.Rounded = c.numText, c.symbol, c.frac != nil
		if neg {
			q.Value = negate(q.Value)
		}
		if c.frac != nil {
			q.frac = c.frac
			if neg {
				q.frac = new(big.Rat).Neg(c.frac)
			}
		}
		return q, nil
	}
	if err := p.checkMixed(comps); err != nil {
		return q, err
	}
	vals := make([]string, len(comps))
	syms := make([]string, len(comps))
	q.Parts = make([]Part, len(comps))
	for i, c := range comps {
		vals[i], syms[i] = c.numText, c.symbol
		q.Rounded = q.Rounded || c.frac != nil
		q.Parts[i] = Part{Value: c.numText, Unit: c.symbol}
	}
	if neg {
		vals[0] = negate(vals[0])
		q.Parts[0].Value = vals[0]
	}
	q.Value = strings.Join(vals, " ")
	q.Unit = strings.Join(syms, "+")
	return q, nil
}

func negate(v string) string {
	if v == "0" {
		return v
	}
	return "-" + v
}

// separators of a question, tried from the right.
var separators = []string{" to ", " in ", " as ", "->", "→"}

// ParseQuestion reads text as a quantity and the unit it is asked in:
// "5 ft 3 in to cm", "12,5 km in m", "-40 °F -> °C", "1½ cups → mL".
func ParseQuestion(g Graph, text string, opt *Options) (Question, error) {
	if opt == nil {
		opt = &Options{}
	}
	if len(text) > MaxLength {
		return Question{}, fail(text, MaxLength, "the question is longer than "+strconv.Itoa(MaxLength)+" bytes")
	}
	type reading struct {
		q   Question
		sep int
	}
	var found []reading
	var firstErr error
	// Every place a separator stands, rightmost first.
	var cuts [][2]int
	for _, sep := range separators {
		for i := 0; ; {
			k := strings.Index(text[i:], sep)
			if k < 0 {
				break
			}
			cuts = append(cuts, [2]int{i + k, i + k + len(sep)})
			i += k + 1
		}
	}
	// Words also separate at a tab or several spaces.
	if len(cuts) == 0 {
		for _, sep := range []string{"to", "in", "as"} {
			fields := wordOffsets(text)
			for _, f := range fields {
				if text[f[0]:f[1]] == sep {
					cuts = append(cuts, f)
				}
			}
		}
	}
	for i := 1; i < len(cuts); i++ {
		for j := i; j > 0 && cuts[j][0] > cuts[j-1][0]; j-- {
			cuts[j], cuts[j-1] = cuts[j-1], cuts[j]
		}
	}
	for _, c := range cuts {
		left, right := text[:c[0]], text[c[1]:]
		q, err := Parse(g, left, opt)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		to, err := target(g, text, c[1], right, opt)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		q.Text = text
		found = append(found, reading{Question{Quantity: q, To: to}, c[0]})
	}
	switch {
	case len(found) == 1:
		return found[0].q, nil
	case len(found) > 1:
		e := fail(text, found[1].sep, "the question can be read in more than one way")
		for _, r := range found {
			e.Candidates = append(e.Candidates, r.q.Value+" "+r.q.Unit+" → "+r.q.To)
		}
		return Question{}, e
	case firstErr != nil:
		return Question{}, firstErr
	}
	return Question{}, fail(text, len(text), `no target unit: ask "… to UNIT" (or in, as, ->, →)`)
}

// wordOffsets returns the byte ranges of the space-separated words.
func wordOffsets(s string) [][2]int {
	var out [][2]int
	start := -1
	for i, r := range s {
		if isSpace(r) {
			if start >= 0 {
				out = append(out, [2]int{start, i})
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, [2]int{start, len(s)})
	}
	return out
}

// target reads the unit of a question: a unit as the quantity's units
// are read, or a mixed unit ("ft+in") passed on for the engine to read.
func target(g Graph, text string, off int, s string, opt *Options) (string, error) {
	t := strings.TrimFunc(s, isSpace)
	off += strings.Index(s, t)
	if t == "" {
		return "", fail(text, off, "no unit after the separator")
	}
	if strings.Contains(t, "+") && !strings.ContainsAny(t, " ") {
		return t, nil
	}
	p := parser{g: g, text: text, opt: opt}
	c := component{unitText: t, unitOff: off}
	if err := p.resolve(&c); err != nil {
		return "", err
	}
	return c.symbol, nil
}

func isSpace(r rune) bool {
	return unicode.IsSpace(r) || r == '\u00a0' || r == '\u202f'
}

// parser reads one quantity.
type parser struct {
	g    Graph
	text string
	opt  *Options
	pos  int // byte offset

	decimal, group []string // separators accepted
	primary, sec   int
	seps           [6]string // storage of decimal and group
}

func (p *parser) setSeparators() {
	dec, grp := p.opt.Decimal, p.opt.Group
	if dec == "" {
		dec = "."
		if grp == "" {
			grp = ","
		}
	}
	p.seps[0] = dec
	p.decimal = p.seps[:1]
	// A full stop is a decimal point wherever it is not the locale's
	// group separator (French readers write 1.5 too).
	if dec != "." && grp != "." {
		p.seps[1] = "."
		p.decimal = p.seps[:2]
	}
	if grp != "" {
		p.seps[2] = grp
		p.group = p.seps[2:3]
		if r, _ := utf8.DecodeRuneInString(grp); isSpace(r) {
			p.seps[3], p.seps[4], p.seps[5] = " ", "\u00a0", "\u202f"
			p.group = p.seps[2:6]
		}
	}
	p.primary, p.sec = p.opt.Primary, p.opt.Secondary
	if p.primary == 0 {
		p.primary, p.sec = 3, 3
	}
}

func (p *parser) locale() string {
	if p.opt.Locale == "" {
		return "en"
	}
	return p.opt.Locale
}

func (p *parser) peek() (rune, int) {
	if p.pos >= len(p.text) {
		return 0, 0
	}
	return utf8.DecodeRuneInString(p.text[p.pos:])
}

func (p *parser) skipSpace() {
	for {
		r, n := p.peek()
		if n == 0 || !(isSpace(r) || isBidi(r)) {
			return
		}
		p.pos += n
	}
}

func isBidi(r rune) bool { return r == '\u200e' || r == '\u200f' || r == '\u061c' }

// quantity reads a sign and the components.
func (p *parser) quantity() ([]component, bool, error) {
	p.skipSpace()
	neg := false
	if r, n := p.peek(); r == '-' || r == '+' || r == '−' || r == '\u2012' || r == '\u2013' {
		neg = r != '+'
		p.pos += n
		p.skipSpace()
	}
	comps, err := p.components(nil)
	if err != nil {
		return nil, false, err
	}
	if len(comps) == 0 {
		return nil, false, fail(p.text, p.pos, "no number: write a number and a unit, such as 3 in")
	}
	return comps, neg, nil
}

// components reads components to the end of the text; prev are those
// read before.
func (p *parser) components(prev []component) ([]component, error) {
	var comps []component
	for {
		p.skipSpace()
		if p.pos >= len(p.text) {
			return comps, nil
		}
		if len(prev)+len(comps) > 0 {
			p.skipJoiner()
			p.skipSpace()
		}
		if len(prev)+len(comps) >= MaxComponents {
			return nil, fail(p.text, p.pos, "a quantity has at most "+strconv.Itoa(MaxComponents)+" parts")
		}
		cs, err := p.component(append(prev[:len(prev):len(prev)], comps...))
		if err != nil {
			return nil, err
		}
		comps = append(comps, cs...)
	}
}

// skipJoiner passes a joiner between two components.
func (p *parser) skipJoiner() { p.pos = p.afterJoiner(p.pos) }

// component reads one number and its unit; a unit that runs into the
// next component ("1h30m", "5'3\"") yields that one too, and all after
// it.
func (p *parser) component(prev []component) ([]component, error) {
	c := component{off: p.pos}
	text, frac, err := p.number()
	if err != nil {
		return nil, err
	}
	c.numText, c.frac = text, frac
	p.skipSpace()
	start := p.pos
	end := p.unitEnd()
	if end == start {
		msg := "“" + strings.TrimSpace(p.text[c.off:start]) + "” has no unit"
		if len(prev) > 0 && isFeetMark(prev[len(prev)-1].unitText) {
			msg += `: after a feet mark, write 3" or 3 in for inches (5'3")`
		} else {
			msg += ": write a unit after the number, such as 3 in"
		}
		return nil, fail(p.text, c.off, msg)
	}
	c.unitText, c.unitOff = strings.TrimRightFunc(p.text[start:end], isSpace), start
	if p.resolveQuiet(&c, false) {
		p.pos = end
		return []component{c}, nil
	}
	// The unit may run into the next component: try the places where a
	// digit follows something else, and keep the first after which the
	// rest reads.
	comps, splitErr := p.split(c, prev, start, end)
	if splitErr == nil && comps != nil {
		return comps, nil
	}
	if p.resolveQuiet(&c, true) {
		p.pos = end
		return []component{c}, nil
	}
	if splitErr != nil {
		return nil, splitErr
	}
	return nil, p.resolveLoud(&c)
}

// split reads the longest unit at the start of text[start:end] that
// ends where a number begins and after which the rest of the text reads.
// When no place works but some unit was found, the error is what the
// rest said after the first one ("5'3": the 3 has no unit).
func (p *parser) split(c component, prev []component, start, end int) ([]component, error) {
	var first error
	run := p.text[start:end]
	for k := len(run) - 1; k > 0; k-- {
		r, _ := utf8.DecodeRuneInString(run[k:])
		last, _ := utf8.DecodeLastRuneInString(run[:k])
		if !isDigit(r) && !isVulgar(r) || isDigit(last) || last == '.' || last == ',' || last == '^' || last == '/' {
			continue
		}
		head := c
		head.unitText = strings.TrimRightFunc(run[:k], isSpace)
		if !p.resolveQuiet(&head, false) {
			continue
		}
		sub := *p
		sub.pos = start + k
		rest, err := sub.components(append(prev[:len(prev):len(prev)], head))
		if err != nil {
			if first == nil {
				first = err
			}
			continue
		}
		p.pos = sub.pos
		return append([]component{head}, rest...), nil
	}
	return nil, first
}

// unitEnd finds where the unit text starting at p.pos ends: at the end,
// or before white space or a joiner (",", "+", "and", "&") that a number
// follows.
func (p *parser) unitEnd() int {
	s := p.text
	for i := p.pos; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if i > p.pos && (isSpace(r) || r == ',' || r == '+' || r == '&') {
			if j := p.afterJoiner(i); j < len(s) && p.startsNumber(j) {
				return i
			}
		}
		i += n
	}
	return len(s)
}

// afterJoiner skips white space, at most one joiner and white space
// from i.
func (p *parser) afterJoiner(i int) int {
	s := p.text
	skip := func(i int) int {
		for i < len(s) {
			r, n := utf8.DecodeRuneInString(s[i:])
			if !isSpace(r) {
				break
			}
			i += n
		}
		return i
	}
	i = skip(i)
	switch rest := s[i:]; {
	case strings.HasPrefix(rest, ","), strings.HasPrefix(rest, "+"), strings.HasPrefix(rest, "&"):
		i = skip(i + 1)
	case strings.HasPrefix(rest, "and ") || strings.HasPrefix(rest, "und ") || strings.HasPrefix(rest, "et "):
		i = skip(i + strings.IndexByte(rest, ' '))
	}
	return i
}

// startsNumber reports whether a new component's number begins at i: a
// digit or vulgar fraction, unless it is "1/" before a unit (1/s).
func (p *parser) startsNumber(i int) bool {
	r, n := utf8.DecodeRuneInString(p.text[i:])
	if isVulgar(r) {
		return true
	}
	if !isDigit(r) {
		return false
	}
	j := i + n
	for j < len(p.text) {
		r, n := utf8.DecodeRuneInString(p.text[j:])
		if !isDigit(r) {
			break
		}
		j += n
	}
	if j < len(p.text) && (p.text[j] == '/' || strings.HasPrefix(p.text[j:], "⁄")) {
		_, n := utf8.DecodeRuneInString(p.text[j:])
		r, _ := utf8.DecodeRuneInString(p.text[j+n:])
		return isDigit(r)
	}
	return true
}

// digit returns the value of a decimal digit of any numbering system.
func digit(r rune) (int, bool) {
	if r >= '0' && r <= '9' {
		return int(r - '0'), true
	}
	if r < 0x80 || !unicode.Is(unicode.Nd, r) {
		return 0, false
	}
	// Unicode lays out every decimal digit in runs of ten from zero.
	for _, rg := range unicode.Nd.R16 {
		if r >= rune(rg.Lo) && r <= rune(rg.Hi) {
			return int(r-rune(rg.Lo)) % 10, true
		}
	}
	for _, rg := range unicode.Nd.R32 {
		if r >= rune(rg.Lo) && r <= rune(rg.Hi) {
			return int(r-rune(rg.Lo)) % 10, true
		}
	}
	return 0, false
}

func isDigit(r rune) bool {
	_, ok := digit(r)
	return ok
}

// vulgar fractions by code point.
var vulgar = map[rune][2]int64{
	'½': {1, 2}, '⅓': {1, 3}, '⅔': {2, 3}, '¼': {1, 4}, '¾': {3, 4}, '⅕': {1, 5}, '⅖': {2, 5},
	'⅗': {3, 5}, '⅘': {4, 5}, '⅙': {1, 6}, '⅚': {5, 6}, '⅐': {1, 7}, '⅛': {1, 8}, '⅜': {3, 8},
	'⅝': {5, 8}, '⅞': {7, 8}, '⅑': {1, 9}, '⅒': {1, 10}, '↉': {0, 3},
}

func isVulgar(r rune) bool {
	_, ok := vulgar[r]
	return ok
}

func isFeetMark(s string) bool { return s == "'" || s == "′" || s == "’" }

// digits reads a run of decimal digits of any numbering system as ASCII.
func (p *parser) digits() string {
	var b []byte
	for {
		r, n := p.peek()
		d, ok := digit(r)
		if n == 0 || !ok {
			return string(b)
		}
		b = append(b, byte('0'+d))
		p.pos += n
	}
}

// hasAt reports which of seps stands at p.pos.
func (p *parser) hasAt(seps []string) string {
	for _, s := range seps {
		if s != "" && strings.HasPrefix(p.text[p.pos:], s) {
			return s
		}
	}
	return ""
}

// number reads a number: digits with groups, a fraction part and an
// exponent; a vulgar fraction, alone or after a whole number; a/b or
// w a/b.
func (p *parser) number() (string, *big.Rat, error) {
	start := p.pos
	r, n := p.peek()
	if v, ok := vulgar[r]; ok {
		p.pos += n
		return finish(big.NewInt(v[0]), big.NewInt(v[1]))
	}
	if !isDigit(r) {
		if n == 0 {
			return "", nil, fail(p.text, p.pos, "no number: write a number and a unit, such as 3 in")
		}
		word := p.text[p.pos:]
		if k := strings.IndexFunc(word, isSpace); k > 0 {
			word = word[:k]
		}
		return "", nil, fail(p.text, p.pos, "no number before “"+word+"”: write a number and a unit, such as 3 in")
	}
	ip := p.digits()
	// Groups: each group separator must be followed by a whole group.
	grouped := false
	for {
		sep := p.hasAt(p.group)
		if sep == "" {
			break
		}
		save := p.pos
		p.pos += len(sep)
		g := p.digits()
		next, _ := p.peek()
		if len(g) != p.primary && len(g) != p.sec || isDigit(next) || next == '/' || next == '⁄' {
			// Not a group. A separator that no digit follows, or a
			// space ("1 1/2", "5 000" against "5 3"), simply ends the
			// number; digits after a comma or point that cannot be a
			// group are refused ("1,5" in English).
			p.pos = save
			if r, _ := utf8.DecodeRuneInString(sep); isSpace(r) || g == "" {
				break
			}
			return "", nil, p.misplacedGroup(start, save, sep)
		}
		grouped = true
		ip += g
	}
	if grouped && !p.validGroups(start) {
		return "", nil, fail(p.text, start, "the digit groups of “"+p.text[start:p.pos]+"” are not where "+p.locale()+" puts them")
	}
	var fp string
	if sep := p.hasAt(p.decimal); sep != "" {
		save := p.pos
		p.pos += len(sep)
		r, _ := p.peek()
		if !isDigit(r) {
			p.pos = save
		} else {
			fp = p.digits()
		}
	} else if len(p.group) == 0 || !grouped {
		// A separator that is neither ("1.5" in German) is refused.
		for _, other := range []string{".", ","} {
			if strings.HasPrefix(p.text[p.pos:], other) && p.pos+1 < len(p.text) {
				r, _ := utf8.DecodeRuneInString(p.text[p.pos+1:])
				if isDigit(r) && !contains(p.group, other) && !contains(p.decimal, other) {
					return "", nil, fail(p.text, p.pos, "“"+other+"” is not a decimal separator in "+p.locale()+"; write "+p.opt.decimalHint())
				}
			}
		}
	}
	exp := ""
	if r, _ := p.peek(); r == 'e' || r == 'E' {
		save := p.pos
		p.pos++
		sign := ""
		if r, n := p.peek(); r == '-' || r == '+' || r == '−' {
			if r != '+' {
				sign = "-"
			}
			p.pos += n
		}
		d := p.digits()
		if d == "" {
			p.pos = save
		} else {
			if len(d) > 4 {
				return "", nil, fail(p.text, save, "the exponent of “"+p.text[start:p.pos]+"” is out of range")
			}
			exp = sign + d
		}
	}
	if exp != "" {
		text := ip
		if fp != "" {
			text += "." + fp
		}
		text += "e" + exp
		if _, err := engine.ParseValue(text); err != nil {
			return "", nil, fail(p.text, start, "“"+p.text[start:p.pos]+"” is not a number unitd reads: "+err.Error())
		}
		return text, nil, nil
	}
	// A fraction: 1/2, 1⁄2, or after a whole number: 1 1/2, 1½.
	if fp == "" {
		if sep := p.hasAt([]string{"/", "⁄"}); sep != "" {
			save := p.pos
			p.pos += len(sep)
			den := p.digits()
			if den == "" {
				p.pos = save
			} else {
				return p.fraction(start, "0", ip, den)
			}
		}
		save := p.pos
		p.skipSpace()
		spaced := p.pos > save
		if r, n := p.peek(); isVulgar(r) {
			v := vulgar[r]
			p.pos += n
			whole, _ := new(big.Int).SetString(ip, 10)
			num := new(big.Int).Mul(whole, big.NewInt(v[1]))
			num.Add(num, big.NewInt(v[0]))
			return finish(num, big.NewInt(v[1]))
		}
		if spaced {
			// "1 1/2": a whole number, a space, a fraction.
			num := p.digits()
			if sep := p.hasAt([]string{"/", "⁄"}); num != "" && sep != "" {
				p.pos += len(sep)
				if den := p.digits(); den != "" {
					return p.fraction(start, ip, num, den)
				}
			}
		}
		p.pos = save
	}
	if ip = strings.TrimLeft(ip, "0"); ip == "" {
		ip = "0"
	}
	text := ip
	if fp != "" {
		text += "." + fp
	}
	if len(text) > engine.MaxValueLength {
		return "", nil, fail(p.text, start, "the number is longer than "+strconv.Itoa(engine.MaxValueLength)+" characters")
	}
	return text, nil, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (o *Options) decimalHint() string {
	d := o.Decimal
	if d == "" {
		d = "."
	}
	return "“" + d + "” for the decimal separator"
}

// misplacedGroup explains a group separator not followed by a group.
func (p *parser) misplacedGroup(start, at int, sep string) error {
	return fail(p.text, at, "“"+sep+"” separates groups of digits in "+p.locale()+", so “"+
		strings.TrimSpace(p.text[start:min(len(p.text), at+len(sep)+4)])+"” cannot be read; write "+p.opt.decimalHint())
}

// validGroups checks the grouping of text[start:p.pos] against the
// locale's sizes: the last group primary, the others secondary, the
// first at most secondary.
func (p *parser) validGroups(start int) bool {
	var groups []int
	n := 0
	for _, r := range p.text[start:p.pos] {
		if isDigit(r) {
			n++
			continue
		}
		groups = append(groups, n)
		n = 0
	}
	groups = append(groups, n)
	if len(groups) < 2 || groups[len(groups)-1] != p.primary || groups[0] < 1 || groups[0] > p.sec {
		return false
	}
	for _, g := range groups[1 : len(groups)-1] {
		if g != p.sec {
			return false
		}
	}
	return true
}

// fraction finishes whole + num/den.
func (p *parser) fraction(start int, whole, num, den string) (string, *big.Rat, error) {
	d, _ := new(big.Int).SetString(den, 10)
	if d.Sign() == 0 {
		return "", nil, fail(p.text, start, "“"+p.text[start:p.pos]+"” divides by zero")
	}
	if len(num)+len(den)+len(whole) > 60 {
		return "", nil, fail(p.text, start, "the fraction is too long")
	}
	w, _ := new(big.Int).SetString(whole, 10)
	n, _ := new(big.Int).SetString(num, 10)
	n.Add(n, new(big.Int).Mul(w, d))
	return finish(n, d)
}

// finish writes num/den as decimal text: exactly when it terminates,
// else to 60 significant digits, returning the fraction too.
func finish(num, den *big.Int) (text string, frac *big.Rat, err error) {
	if num.IsUint64() && den.IsUint64() {
		if t, ok := finishSmall(num.Uint64(), den.Uint64()); ok {
			return t, nil, nil
		}
	}
	g := new(big.Int).GCD(nil, nil, num, den)
	if g.Sign() > 0 {
		num, den = new(big.Int).Quo(num, g), new(big.Int).Quo(den, g)
	}
	// den = 2^a 5^b terminates after max(a, b) digits.
	d := new(big.Int).Set(den)
	a, b := 0, 0
	two, five := big.NewInt(2), big.NewInt(5)
	m := new(big.Int)
	for d.Cmp(big.NewInt(1)) > 0 {
		if m.Mod(d, two).Sign() == 0 {
			d.Quo(d, two)
			a++
		} else if m.Mod(d, five).Sign() == 0 {
			d.Quo(d, five)
			b++
		} else {
			break
		}
	}
	x := new(big.Rat).SetFrac(num, den)
	if d.Cmp(big.NewInt(1)) == 0 {
		return trimZeros(x.FloatString(max(a, b))), nil, nil
	}
	return roundedText(x, 60), x, nil
}

// roundedText writes x to n significant digits, rounded to nearest.
func roundedText(x *big.Rat, n int) string {
	num, den := x.Num(), x.Denom()
	ip := new(big.Int).Quo(new(big.Int).Abs(num), den)
	digits := n - len(ip.String())
	if ip.Sign() == 0 {
		// Leading zeros after the point do not count.
		t := new(big.Int).Set(den)
		for t.Cmp(new(big.Int).Abs(num)) > 0 && digits < 400 {
			t.Quo(t, big.NewInt(10))
			digits++
		}
	}
	return trimZeros(x.FloatString(max(digits, 1)))
}

// finishSmall is finish in machine words for a fraction that terminates
// within 18 decimals and whose scaled numerator fits in 64 bits.
func finishSmall(num, den uint64) (string, bool) {
	if den == 0 {
		return "", false
	}
	g := gcd(num, den)
	num, den = num/g, den/g
	d, a, b := den, 0, 0
	for d%2 == 0 {
		d, a = d/2, a+1
	}
	for d%5 == 0 {
		d, b = d/5, b+1
	}
	k := max(a, b)
	if d != 1 || k > 18 {
		return "", false
	}
	scale := uint64(1)
	for range k {
		scale *= 10
	}
	hi, lo := bits.Mul64(num, scale)
	if hi != 0 {
		return "", false
	}
	q := lo / den
	s := strconv.FormatUint(q, 10)
	if k == 0 {
		return s, true
	}
	if len(s) <= k {
		s = strings.Repeat("0", k-len(s)+1) + s
	}
	return trimZeros(s[:len(s)-k] + "." + s[len(s)-k:]), true
}

func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	if a == 0 {
		return 1
	}
	return a
}

func trimZeros(s string) string {
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}
