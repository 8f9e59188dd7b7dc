package text

import (
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/unitd/unitd/engine"
)

// reader reads the components of one quantity in text[:end], in time
// linear in its length: what follows a position is read once and
// remembered (memo), so a unit that runs into the next component
// ("1h30m") costs one lookup per place a digit follows a letter, within
// maxUnitBytes.
type reader struct {
	p     *parser
	end   int
	memo  map[int]*tail
	depth int // components being read, nested
}

// tail is what reading from a position gave.
type tail struct {
	comps []component
	err   error
}

// component is one number and unit of a quantity.
type component struct {
	value    *big.Rat
	off      int // where the number starts
	unitText string
	unitOff  int
	unit     *engine.Unit
	expr     *engine.Expression
	symbol   string
	// assumed says how a regional unit or a portion was read.
	assumed    string
	ingredient *Ingredient
	portion    *portion
}

func (r *reader) peek(i int) (rune, int) {
	if i >= r.end {
		return 0, 0
	}
	return utf8.DecodeRuneInString(r.p.text[i:r.end])
}

func (r *reader) skipSpace(i int) int {
	for {
		c, n := r.peek(i)
		if n == 0 || !(isSpace(c) || isBidi(c)) {
			return i
		}
		i += n
	}
}

// quantity reads a sign and the components.
func (r *reader) quantity() ([]component, bool, error) {
	p := r.p
	i := r.skipSpace(0)
	neg := false
	if c, n := r.peek(i); c == '-' || c == '+' || c == '−' || c == '\u2012' || c == '\u2013' {
		neg = c != '+'
		i = r.skipSpace(i + n)
	}
	if i >= r.end {
		return nil, false, fail(p.text, i, "no number: write a number and a unit, such as 3 in")
	}
	comps, err := r.from(i, true)
	if err != nil {
		return nil, false, err
	}
	return comps, neg, nil
}

// from reads the components from byte offset i to the end; first says i
// is the start of the quantity (no joiner before it).
func (r *reader) from(i int, first bool) ([]component, error) {
	if t, ok := r.memo[i]; ok {
		return t.comps, t.err
	}
	comps, err := r.read(i, first)
	r.memo[i] = &tail{comps, err}
	return comps, err
}

func (r *reader) read(i int, first bool) ([]component, error) {
	p := r.p
	i = r.skipSpace(i)
	if !first {
		i = r.skipSpace(r.afterJoiner(i))
	}
	if i >= r.end {
		return nil, nil
	}
	if !p.charge(lookupCost) {
		return nil, errBudget(p.text, i)
	}
	if r.depth++; r.depth > MaxComponents {
		// More parts than a quantity may have: refused here, before
		// the rest is read (and copied) at all.
		return nil, fail(p.text, i, "a quantity has at most "+strconv.Itoa(MaxComponents)+" parts")
	}
	defer func() { r.depth-- }()
	c := component{off: i}
	v, j, err := r.number(i)
	if err != nil {
		return nil, err
	}
	c.value = v
	us := r.skipSpace(j)
	ue := r.unitEnd(us)
	if ue == us {
		return nil, r.noUnit(i, us)
	}
	run := p.text[us:ue]
	c.unitText, c.unitOff = strings.TrimRightFunc(run, isSpace), us
	var firstErr error
	// The whole run as one unit: a name first; as an expression only
	// after the splits below, which cost a lookup each.
	whole := len(c.unitText) <= maxUnitBytes
	if whole && p.resolveQuiet(&c, false) {
		rest, err := r.from(ue, false)
		if err == nil {
			return append([]component{c}, rest...), nil
		}
		if terminal(err) {
			return nil, err
		}
		firstErr = err
		whole = false
	}
	if p.work > p.budget {
		return nil, errBudget(p.text, us)
	}
	// The unit may run into the next component: try the places where a
	// digit follows something else, the nearest first.
	for k := 1; k < len(run) && k <= maxUnitBytes; {
		d, n := utf8.DecodeRuneInString(run[k:])
		last, _ := utf8.DecodeLastRuneInString(run[:k])
		if (isDigit(d) || isVulgar(d)) && !isDigit(last) && !strings.ContainsRune(".,^/⁄-", last) {
			head := c
			head.unitText = strings.TrimRightFunc(run[:k], isSpace)
			if p.resolveQuiet(&head, false) {
				rest, err := r.from(us+k, false)
				if err == nil && len(rest) > 0 {
					return append([]component{head}, rest...), nil
				}
				if terminal(err) {
					return nil, err
				}
				if err != nil && firstErr == nil {
					firstErr = err
				}
			}
			if p.work > p.budget {
				return nil, errBudget(p.text, us+k)
			}
		}
		k += n
	}
	if whole && p.resolveQuiet(&c, true) {
		rest, err := r.from(ue, false)
		if err == nil {
			return append([]component{c}, rest...), nil
		}
		if terminal(err) {
			return nil, err
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	// A unit and an ingredient ("cups flour"), or a portion of one
	// ("stick butter").
	if p.opt.Pantry != nil && ue == r.end {
		if ok, err := r.kitchen(&c, run); ok || err != nil {
			if err != nil {
				return nil, err
			}
			return []component{c}, nil
		}
	}
	if firstErr != nil {
		return nil, firstErr
	}
	if len(c.unitText) > maxUnitBytes {
		return nil, fail(p.text, us, "no unit is that long: “"+short(c.unitText)+"” has more than "+strconv.Itoa(maxUnitBytes)+" bytes")
	}
	if err := p.resolveLoud(&c); err != nil {
		return nil, err
	}
	return append([]component{c}, nil...), nil
}

func short(s string) string {
	if len(s) <= 24 {
		return s
	}
	n := 24
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// noUnit explains a number without a unit; after a feet mark it says
// how to write inches.
func (r *reader) noUnit(start, at int) error {
	p := r.p
	msg := "“" + strings.TrimSpace(p.text[start:at]) + "” has no unit"
	before := strings.TrimRightFunc(p.text[:start], isSpace)
	if last, _ := utf8.DecodeLastRuneInString(before); isFeetMark(string(last)) {
		msg += `: after a feet mark, write 3" or 3 in for inches (5'3")`
	} else {
		msg += ": write a unit after the number, such as 3 in"
	}
	return fail(p.text, start, msg)
}

// unitEnd finds where the unit text starting at i ends: at the end, or
// before white space or a joiner (",", "+", "and", "&") that a number
// follows.
func (r *reader) unitEnd(i int) int {
	s := r.p.text[:r.end]
	for j := i; j < len(s); {
		c, n := utf8.DecodeRuneInString(s[j:])
		if j > i && (isSpace(c) || c == ',' || c == '+' || c == '&') {
			if k := r.afterJoiner(j); k < len(s) && r.startsNumber(k) {
				return j
			}
		}
		j += n
	}
	return len(s)
}

// afterJoiner skips white space, at most one joiner and white space
// from i.
func (r *reader) afterJoiner(i int) int {
	s := r.p.text[:r.end]
	skip := func(i int) int {
		for i < len(s) {
			c, n := utf8.DecodeRuneInString(s[i:])
			if !isSpace(c) {
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
	case strings.HasPrefix(rest, "and ") || strings.HasPrefix(rest, "und ") || strings.HasPrefix(rest, "et ") || strings.HasPrefix(rest, "y "):
		i = skip(i + strings.IndexByte(rest, ' '))
	}
	return i
}

// startsNumber reports whether a new component's number begins at i: a
// digit or vulgar fraction, unless it is "1/" before a unit (1/s).
func (r *reader) startsNumber(i int) bool {
	s := r.p.text[:r.end]
	c, n := utf8.DecodeRuneInString(s[i:])
	if isVulgar(c) {
		return true
	}
	if !isDigit(c) {
		return false
	}
	j := i + n
	for j < len(s) {
		c, n := utf8.DecodeRuneInString(s[j:])
		if !isDigit(c) {
			break
		}
		j += n
	}
	if j < len(s) && (s[j] == '/' || strings.HasPrefix(s[j:], "⁄")) {
		_, n := utf8.DecodeRuneInString(s[j:])
		c, _ := utf8.DecodeRuneInString(s[j+n:])
		return isDigit(c)
	}
	return true
}

func isFeetMark(s string) bool { return s == "'" || s == "′" || s == "’" }

// terminal reports an error no other reading of the text can avoid: too
// many parts, or the budget spent.
func terminal(err error) bool {
	return err != nil && (isBudget(err) || strings.Contains(err.Error(), "a quantity has at most"))
}
