package text

import (
	"errors"
	"math/big"

	"github.com/cockroachdb/apd/v3"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/engine/fault"
)

// Limits on free text.
const (
	MaxLength     = 256
	MaxComponents = 8
	// maxUnitBytes bounds the text of one unit: no catalog name, locale
	// name or unit expression a person types is longer, and no longer text
	// is looked up.
	maxUnitBytes = 96
)

// Work is what reading one text may cost, in work units: a byte read is
// one, a name looked up costs its length and lookupCost, a unit
// expression four times its length and exprCost. DefaultBudget is far
// above any text of MaxLength bytes that reads (the worst, measured by
// the benchmarks, cost a few thousand), so that only a text built to be
// slow meets it.
const (
	DefaultBudget = 50000
	lookupCost    = 8
	exprCost      = 64
)

// Graph is what the parser needs of an *engine.Graph: unit lookup and the
// exact comparison of unit sizes.
type Graph interface {
	Resolve(name string) (*engine.Unit, *engine.Expression, error)
	Lookup(name string) (*engine.Unit, error)
	Find(name string) (*engine.Unit, *engine.Ambiguity)
	CompareUnits(a, b *engine.Unit) (int, error)
}

var _ Graph = (*engine.Graph)(nil)

// Options say how a locale writes numbers and names units. The zero
// value reads English with no region: "." for the decimal point, ","
// between groups of three digits, and a unit whose meaning depends on
// the region (pint) refused with its candidates.
type Options struct {
	// Locale names the locale in messages ("de").
	Locale string
	// Language chooses the spelled numbers ("one and a half"); "" is
	// English.
	Language string
	// Decimal and Group are the locale's decimal and grouping
	// separators; Primary and Secondary its grouping sizes (3 and 3, 3
	// and 2 in Hindi).
	Decimal, Group     string
	Primary, Secondary int
	// Names, when set, finds the catalog symbols a name means in the
	// locale (CLDR's unit names: "EL" is the tablespoon in German); it is
	// asked before the catalog's prefixed units.
	Names func(name string) []string
	// Foreign, when set, finds the catalog symbols a name means in other
	// languages, for the message that refuses it ("Kilometer" is km in
	// de: pass the locale).
	Foreign func(name string) []string
	// Named reports whether CLDR names a unit in an entry of its own
	// (kilometre, petabyte), as against composing a prefix with another
	// unit's name (exalitre); see customary.
	Named func(symbol string) bool
	// Region is the region that settles a unit whose meaning depends on
	// it (ISO 3166-1: "US", "GB", "DE"), or ""; RegionHow says where it
	// came from, for input.assumed ("locale", "likely").
	Region, RegionHow string
	// Pantry finds ingredients after the unit ("1 cup flour"); nil reads
	// none.
	Pantry *Pantry
	// Budget is the work one text may cost (DefaultBudget when 0).
	Budget int
}

// Quantity is free text read as a quantity: an exact request, which the
// engine converts.
type Quantity struct {
	// Text is the text as given.
	Text string
	// Value is the number as text: decimal when it terminates, else the
	// fraction ("1/3"); for a mixed quantity the parts' numbers separated
	// by spaces ("5 3"), the sign on the first. Exact holds the same
	// numbers exactly, one per part, for engine.Request.Exact.
	Value string
	Exact []*big.Rat
	// Unit is the unit's canonical symbol (or expression), or the mixed
	// form's symbols joined by "+" ("ft+in").
	Unit string
	// Parts are the components of a mixed quantity, nil otherwise.
	Parts []Part
	// Assumed says what was read by a stated rule rather than as
	// written: a unit whose meaning depends on the region ("US liquid
	// pint (region US)"), a portion of an ingredient ("1 stick of butter
	// = 113 g"), for the answer's input.assumed; "" when nothing was.
	Assumed string
	// Ingredient is what the quantity measures when the text names it
	// after the unit ("1 cup flour"), or nil.
	Ingredient *Ingredient
	// Work is what reading the text cost, in work units (see Budget),
	// whether it was read or refused: a caller charges it to the
	// client's rate budget.
	Work int
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

// fail builds an INVALID_QUANTITY error at byte offset off of text.
func fail(text string, off int, msg string) *fault.Error {
	return fault.At(fault.InvalidQuantity, text, off, "%s", msg)
}

// errNoTarget stands for a right side that names no unit, once one
// failure has been explained.
var errNoTarget = errors.New("no unit")

// errBudget is the refusal of a text that costs more than its budget.
func errBudget(text string, off int) *fault.Error {
	return fail(text, off, "the text is too complex to read (more than the work budget of one quantity)")
}

// Parse reads text as a quantity. Every error is a *fault.Error with code
// INVALID_QUANTITY and the position of the problem; Quantity.Work is set
// either way.
func Parse(g Graph, text string, opt *Options) (Quantity, error) {
	p := newParser(g, text, opt)
	q := Quantity{Text: text}
	if err := p.check("quantity"); err != nil {
		q.Work = p.work
		return q, err
	}
	err := p.read(&q, len(text))
	q.Work = p.work
	return q, err
}

// separators of a question.
var separators = []string{" to ", " in ", " as ", " into ", "->", "→"}

// ParseQuestion reads text as a quantity and the unit it is asked in:
// "5 ft 3 in to cm", "12,5 km in m", "-40 °F -> °C", "1½ cups → mL". The
// separator is one that leaves a unit on its right and a quantity on its
// left; when several do, the question is refused with the readings.
// Only separators with at most maxUnitBytes after them are tried, and
// each right side is read before its left, so the text is read a bounded
// number of times.
func ParseQuestion(g Graph, text string, opt *Options) (Question, error) {
	p := newParser(g, text, opt)
	var out Question
	out.Text = text
	if err := p.check("question"); err != nil {
		out.Work = p.work
		return out, err
	}
	type cut struct{ at, end int }
	var cuts []cut
	seen := map[int]bool{}
	for _, sep := range separators {
		for i := max(0, len(text)-maxUnitBytes-len(sep)); ; {
			k := strings.Index(text[i:], sep)
			if k < 0 {
				break
			}
			if !seen[i+k] {
				seen[i+k] = true
				cuts = append(cuts, cut{i + k, i + k + len(sep)})
			}
			i += k + 1
		}
	}
	p.work += len(text) * len(separators)
	type reading struct {
		q   Question
		sep int
	}
	var found []reading
	var firstErr error
	for i := 1; i < len(cuts); i++ {
		for j := i; j > 0 && cuts[j].at > cuts[j-1].at; j-- {
			cuts[j], cuts[j-1] = cuts[j-1], cuts[j]
		}
	}
	for _, c := range cuts {
		// Only the first failure is explained: a message costs lookups
		// and suggestions.
		to, err := p.target(c.end, firstErr == nil)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		var q Quantity
		q.Text = text
		sub := p.fork()
		if err := sub.read(&q, c.at); err != nil {
			p.work = sub.work
			if isBudget(err) {
				out.Work = p.work
				return out, err
			}
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		p.work = sub.work
		found = append(found, reading{Question{Quantity: q, To: to}, c.at})
	}
	switch {
	case len(found) == 1:
		out = found[0].q
		out.Work = p.work
		return out, nil
	case len(found) > 1:
		e := fail(text, found[1].sep, "the question can be read in more than one way")
		for _, r := range found {
			e.Candidates = append(e.Candidates, r.q.Value+" "+r.q.Unit+" → "+r.q.To)
		}
		out.Work = p.work
		return out, e
	case firstErr != nil:
		out.Work = p.work
		return out, firstErr
	}
	out.Work = p.work
	return out, fail(text, len(text), `no target unit: ask "… to UNIT" (or in, as, ->, →)`)
}

func isBudget(err error) bool {
	e, ok := err.(*fault.Error)
	return ok && strings.HasPrefix(e.Message, "the text is too complex")
}

// parser reads one text.
type parser struct {
	g      Graph
	text   string
	opt    *Options
	work   int
	budget int

	decimal, group []string // separators accepted
	primary, sec   int
	seps           [8]string // storage of decimal and group
	numbers        *numberWords
}

func newParser(g Graph, text string, opt *Options) *parser {
	if opt == nil {
		opt = &Options{}
	}
	p := &parser{g: g, text: text, opt: opt, budget: opt.Budget}
	if p.budget <= 0 {
		p.budget = DefaultBudget
	}
	p.setSeparators()
	p.numbers = wordsOf(opt.Language)
	return p
}

// fork returns a parser over the same text and options that shares the
// work done so far.
func (p *parser) fork() *parser {
	q := *p
	return &q
}

// check refuses what no reading can use: a text over MaxLength, invalid
// UTF-8, a control character.
func (p *parser) check(what string) error {
	text := p.text
	// Every refusal below costs a scan of the text, at most MaxLength
	// bytes: work done, which the caller charges.
	p.work += min(len(text), MaxLength+1)
	if len(text) > MaxLength {
		return fail(text, MaxLength, "the "+what+" is longer than "+strconv.Itoa(MaxLength)+" bytes")
	}
	if !utf8.ValidString(text) {
		i := 0
		for i < len(text) {
			r, n := utf8.DecodeRuneInString(text[i:])
			if r == utf8.RuneError && n == 1 {
				break
			}
			i += n
		}
		return fail(text, i, "the "+what+" is not valid UTF-8")
	}
	if i := strings.IndexFunc(text, unicode.IsControl); i >= 0 {
		r, _ := utf8.DecodeRuneInString(text[i:])
		return fail(text, i, "free text may not hold a control character (U+"+strings.ToUpper(strconv.FormatInt(int64(r), 16))+")")
	}
	return nil
}

// charge adds n work units and reports whether the budget still holds.
func (p *parser) charge(n int) bool {
	p.work += n
	return p.work <= p.budget
}

// read reads text[:end] as a quantity into q.
func (p *parser) read(q *Quantity, end int) error {
	r := reader{p: p, end: end, memo: map[int]*tail{}}
	comps, neg, err := r.quantity()
	if err != nil {
		return err
	}
	return p.finish(q, comps, neg)
}

// finish writes the components into q.
func (p *parser) finish(q *Quantity, comps []component, neg bool) error {
	if len(comps) > MaxComponents {
		return fail(p.text, comps[MaxComponents].off, "a quantity has at most "+strconv.Itoa(MaxComponents)+" parts")
	}
	if len(comps) == 1 {
		c := comps[0]
		v := c.value
		if neg {
			v = new(big.Rat).Neg(v)
		}
		q.Value, q.Unit, q.Exact = ratText(v), c.symbol, []*big.Rat{v}
		q.Assumed, q.Ingredient = c.assumed, c.ingredient
		return nil
	}
	if err := p.checkMixed(comps); err != nil {
		return err
	}
	vals := make([]string, len(comps))
	syms := make([]string, len(comps))
	q.Parts = make([]Part, len(comps))
	q.Exact = make([]*big.Rat, len(comps))
	var assumed []string
	for i, c := range comps {
		v := c.value
		if i == 0 && neg {
			v = new(big.Rat).Neg(v)
		}
		vals[i], syms[i] = ratText(v), c.symbol
		q.Exact[i] = v
		q.Parts[i] = Part{Value: vals[i], Unit: c.symbol}
		if c.assumed != "" {
			assumed = append(assumed, c.assumed)
		}
		if c.ingredient != nil {
			q.Ingredient = c.ingredient
		}
	}
	q.Value = strings.Join(vals, " ")
	q.Unit = strings.Join(syms, "+")
	q.Assumed = strings.Join(assumed, "; ")
	return nil
}

// ratText writes r as a decimal when it terminates (plain up to 40
// characters, else as the engine writes it, with an exponent), else as
// p/q.
func ratText(r *big.Rat) string {
	t, ok := decimalText(r)
	if !ok {
		return r.RatString()
	}
	if len(t) <= 40 {
		return t
	}
	var d apd.Decimal
	if _, _, err := d.SetString(t); err != nil {
		return t
	}
	return engine.FormatDecimal(&d)
}

// target reads the unit of a question after byte offset off: a unit as
// the quantity's units are read, or a mixed unit ("ft+in") passed on for
// the engine to read.
func (p *parser) target(off int, explain bool) (string, error) {
	s := p.text[off:]
	t := strings.TrimFunc(s, isSpace)
	off += strings.Index(s, t)
	if t == "" {
		return "", fail(p.text, off, "no unit after the separator")
	}
	if len(t) > maxUnitBytes {
		return "", fail(p.text, off, "no unit is that long: the unit after the separator has more than "+strconv.Itoa(maxUnitBytes)+" bytes")
	}
	if strings.Contains(t, "+") && !strings.ContainsAny(t, " ") {
		return t, nil
	}
	c := component{unitText: t, unitOff: off}
	if !p.resolveQuiet(&c, true) {
		if !explain {
			return "", errNoTarget
		}
		if err := p.resolveLoud(&c); err != nil {
			return "", err
		}
	}
	if c.portion != nil {
		return "", fail(p.text, off, "“"+t+"” is a portion of a food, not a unit to answer in")
	}
	return c.symbol, nil
}

func isSpace(r rune) bool {
	return unicode.IsSpace(r) || r == '\u00a0' || r == '\u202f'
}

func isBidi(r rune) bool { return r == '\u200e' || r == '\u200f' || r == '\u061c' }
