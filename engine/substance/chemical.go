package substance

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/internal/exact"
)

// Chemical formulas
//
// A formula names a substance by its atoms: element symbols with counts
// (C6H12O6), groups in parentheses or brackets with a count (Ca(OH)2,
// K4[Fe(CN)6]), hydrates or adducts joined by a dot with a leading count
// (CuSO4·5H2O, also written with . * • ⋅), subscript digits (H₂O), and an
// ion's charge at the end: a sign with an optional count (Na+, Ca+2,
// SO4-2), after a caret (SO4^2-), or in superscripts (Ca²⁺, HCO₃⁻). A
// count written straight before the final sign (Ca2+, SO42-) is refused as
// ambiguous: it may be a count of atoms or the charge.
//
// The molar mass is the sum of the atoms' standard atomic weights (the
// catalog's table), times the molar mass constant 1 g/mol; the sum is
// exact, and so is its uncertainty, the atomic weights' uncertainties
// summed.

// Limits of a formula, so that hostile input is refused early.
const (
	maxFormulaLength = 256     // bytes
	maxFormulaDepth  = 8       // nested groups
	maxFormulaCount  = 1000000 // one count, and atoms in all
)

// Chemical is a parsed formula.
type Chemical struct {
	text   string
	counts map[*Element]*big.Int
	order  []*Element // in order of first appearance
	charge int
}

type chemParser struct {
	c     *Catalog
	src   string
	pos   int
	depth int
}

// Formula reads a chemical formula; errors are UNKNOWN_SUBSTANCE naming
// the position (in characters, from 1).
func (c *Catalog) Formula(s string) (*Chemical, error) {
	p := &chemParser{c: c, src: s}
	if len(s) > maxFormulaLength {
		return nil, p.failAt(maxFormulaLength, "formula is longer than %d characters", maxFormulaLength)
	}
	if len(c.elementBy) == 0 {
		return nil, p.failAt(0, "the catalog has no table of atomic weights")
	}
	ch := &Chemical{text: s, counts: map[*Element]*big.Int{}}
	total := new(big.Int)
	add := func(part map[*Element]*big.Int, order []*Element, times int64) {
		for _, e := range order {
			n := new(big.Int).Mul(part[e], big.NewInt(times))
			if c, ok := ch.counts[e]; ok {
				c.Add(c, n)
			} else {
				ch.counts[e] = n
				ch.order = append(ch.order, e)
			}
			total.Add(total, n)
		}
	}
	for {
		// A part of a hydrate or adduct: an optional leading count.
		times, _, err := p.count()
		if err != nil {
			return nil, err
		}
		part, order, err := p.sequence()
		if err != nil {
			return nil, err
		}
		if len(order) == 0 {
			return nil, p.fail("expected an element symbol")
		}
		add(part, order, times)
		if total.Cmp(big.NewInt(maxFormulaCount)) > 0 {
			return nil, p.fail("more than %d atoms", maxFormulaCount)
		}
		if !p.dot() {
			break
		}
	}
	if err := p.chargeSuffix(ch); err != nil {
		return nil, err
	}
	if p.pos < len(p.src) {
		return nil, p.fail("unexpected %s", p.describeHere())
	}
	return ch, nil
}

func isDigitAt(s string, i int) bool { return i < len(s) && s[i] >= '0' && s[i] <= '9' }

func (p *chemParser) failAt(pos int, format string, args ...any) *fault.Error {
	e := fault.At(fault.UnknownSubstance, p.src, pos, format, args...)
	e.Message = fmt.Sprintf("%q is no substance of the catalog and not a valid formula: ", fault.Truncate(p.src, 64)) + e.Message
	return e
}

func (p *chemParser) fail(format string, args ...any) *fault.Error {
	return p.failAt(p.pos, format, args...)
}

func (p *chemParser) describeHere() string {
	if p.pos >= len(p.src) {
		return "end of formula"
	}
	r, _ := utf8.DecodeRuneInString(p.src[p.pos:])
	return strconv.QuoteRune(r)
}

// dot consumes a hydrate separator.
func (p *chemParser) dot() bool {
	for _, sep := range []string{"·", "•", "⋅", ".", "*"} {
		if strings.HasPrefix(p.src[p.pos:], sep) {
			p.pos += len(sep)
			return true
		}
	}
	return false
}

// sequence reads groups and elements with their counts up to a closing
// bracket, a dot, a charge or the end.
func (p *chemParser) sequence() (map[*Element]*big.Int, []*Element, error) {
	counts := map[*Element]*big.Int{}
	var order []*Element
	add := func(e *Element, n *big.Int) {
		if c, ok := counts[e]; ok {
			c.Add(c, n)
			return
		}
		counts[e] = new(big.Int).Set(n)
		order = append(order, e)
	}
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch {
		case c >= 'A' && c <= 'Z':
			e, err := p.element()
			if err != nil {
				return nil, nil, err
			}
			n, _, err := p.count()
			if err != nil {
				return nil, nil, err
			}
			add(e, big.NewInt(n))
		case c == '(' || c == '[':
			closing := byte(')')
			if c == '[' {
				closing = ']'
			}
			open := p.pos
			if p.depth++; p.depth > maxFormulaDepth {
				return nil, nil, p.fail("groups nested more than %d deep", maxFormulaDepth)
			}
			p.pos++
			inner, innerOrder, err := p.sequence()
			if err != nil {
				return nil, nil, err
			}
			if p.pos >= len(p.src) || p.src[p.pos] != closing {
				return nil, nil, p.failAt(open, "%q is not closed", string(c))
			}
			if len(innerOrder) == 0 {
				return nil, nil, p.failAt(open, "empty group")
			}
			p.pos++
			p.depth--
			n, _, err := p.count()
			if err != nil {
				return nil, nil, err
			}
			for _, e := range innerOrder {
				add(e, new(big.Int).Mul(inner[e], big.NewInt(n)))
			}
		default:
			return counts, order, nil
		}
		total := new(big.Int)
		for _, n := range counts {
			total.Add(total, n)
		}
		if total.Cmp(big.NewInt(maxFormulaCount)) > 0 {
			return nil, nil, p.fail("more than %d atoms", maxFormulaCount)
		}
	}
	return counts, order, nil
}

// element reads an element symbol: the longest known one at this point.
func (p *chemParser) element() (*Element, error) {
	start := p.pos
	end := start + 1
	for end < len(p.src) && end-start < 3 && p.src[end] >= 'a' && p.src[end] <= 'z' {
		end++
	}
	for ; end > start; end-- {
		if e, ok := p.c.elementBy[p.src[start:end]]; ok {
			p.pos = end
			return e, nil
		}
	}
	sym := p.src[start : start+1]
	for i := start + 1; i < len(p.src) && i-start < 3 && p.src[i] >= 'a' && p.src[i] <= 'z'; i++ {
		sym = p.src[start : i+1]
	}
	return nil, p.failAt(start, "unknown element %q", sym)
}

// count reads an optional count of ASCII or subscript digits, 1 when there
// is none.
func (p *chemParser) count() (int64, bool, error) {
	start := p.pos
	var n int64
	digits := 0
	for p.pos < len(p.src) {
		d, size := subscriptDigit(p.src[p.pos:])
		if d < 0 {
			break
		}
		if digits == 0 && d == 0 {
			return 0, false, p.fail("a count does not start with 0")
		}
		n = n*10 + int64(d)
		digits++
		p.pos += size
		if n > maxFormulaCount {
			for p.pos < len(p.src) {
				if d, size := subscriptDigit(p.src[p.pos:]); d >= 0 {
					p.pos += size
					continue
				}
				break
			}
			return 0, false, p.failAt(start, "count %s is too large (at most %d)", p.src[start:p.pos], maxFormulaCount)
		}
	}
	if digits == 0 {
		return 1, false, nil
	}
	return n, true, nil
}

// subscriptDigit reads an ASCII digit or a subscript digit (₀–₉).
func subscriptDigit(s string) (int, int) {
	if s == "" {
		return -1, 0
	}
	if s[0] >= '0' && s[0] <= '9' {
		return int(s[0] - '0'), 1
	}
	r, size := utf8.DecodeRuneInString(s)
	if r >= '₀' && r <= '₉' {
		return int(r - '₀'), size
	}
	return -1, 0
}

var superscriptDigits = map[rune]int{'⁰': 0, '¹': 1, '²': 2, '³': 3, '⁴': 4, '⁵': 5, '⁶': 6, '⁷': 7, '⁸': 8, '⁹': 9}

// chargeSuffix reads an ion's charge at the end of the formula.
func (p *chemParser) chargeSuffix(ch *Chemical) error {
	rest := p.src[p.pos:]
	if rest == "" {
		return nil
	}
	start := p.pos
	sign := func(c byte) int {
		if c == '+' {
			return 1
		}
		return -1
	}
	switch {
	case rest[0] == '^':
		// ^2- or ^2+ or ^+ or ^-
		i := 1
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		if i >= len(rest) || (rest[i] != '+' && rest[i] != '-') || i+1 != len(rest) {
			return p.failAt(start, "a charge after ^ is written as 2+ or 2-")
		}
		n := 1
		if i > 1 {
			var err error
			if n, err = strconv.Atoi(rest[1:i]); err != nil || n == 0 || n > 99 {
				return p.failAt(start, "charge %q is out of range", rest[1:i])
			}
		}
		ch.charge = n * sign(rest[i])
	case rest[0] == '+' || rest[0] == '-':
		if p.pos > 0 && isDigitAt(p.src, p.pos-1) {
			return p.failAt(start, "the charge is ambiguous after a count; write it with a caret (SO4^2-, Ca^2+) or as a sign and count (SO4-2, Ca+2)")
		}
		n := 1
		if len(rest) > 1 {
			var err error
			if n, err = strconv.Atoi(rest[1:]); err != nil || n == 0 || n > 99 || rest[1] == '+' || rest[1] == '-' {
				return p.failAt(start+1, "expected the charge's count after the sign")
			}
		}
		ch.charge = n * sign(rest[0])
	default:
		// Superscripts: digits then ⁺ or ⁻.
		n, i := 0, 0
		digits := 0
		for i < len(rest) {
			r, size := utf8.DecodeRuneInString(rest[i:])
			d, ok := superscriptDigits[r]
			if !ok {
				break
			}
			n = n*10 + d
			digits++
			i += size
			if n > 99 {
				return p.failAt(start, "charge is out of range")
			}
		}
		r, size := utf8.DecodeRuneInString(rest[i:])
		if r != '⁺' && r != '⁻' {
			return nil // not a charge: the caller reports what is left
		}
		if i+size != len(rest) || (digits > 0 && n == 0) {
			return p.failAt(start, "a charge ends the formula")
		}
		if digits == 0 {
			n = 1
		}
		if r == '⁻' {
			n = -n
		}
		ch.charge = n
		p.pos = len(p.src)
		return nil
	}
	p.pos = len(p.src)
	return nil
}

// Charge is the charge number of an ion, 0 for none.
func (ch *Chemical) Charge() int { return ch.charge }

// MolarMass sums the atomic weights: a Property with the sum written out.
func (ch *Chemical) MolarMass() *Property {
	sum := new(big.Rat)
	unc := new(big.Rat)
	var parts []string
	for _, e := range ch.order {
		n := ch.counts[e]
		t := new(big.Rat).SetInt(n)
		sum.Add(sum, new(big.Rat).Mul(t, e.weight))
		unc.Add(unc, new(big.Rat).Mul(t, e.unc))
		if n.IsInt64() && n.Int64() == 1 {
			parts = append(parts, e.Symbol+" "+e.Weight)
		} else {
			parts = append(parts, n.String()+" × "+e.Symbol+" "+e.Weight)
		}
	}
	grams := ratText(sum)
	si := new(big.Rat).Quo(sum, big.NewRat(1000, 1)) // g/mol → kg/mol
	source := "standard atomic weights of the catalog"
	if len(ch.order) > 0 {
		source = ch.order[0].Source
	}
	return &Property{
		Name:   "molar_mass",
		Value:  grams + " g/mol",
		Source: "formula " + ch.text + " with the " + source + " (molar mass constant 1 g/mol)",
		Sum:    strings.Join(parts, " + ") + " = " + grams + " g/mol",
		si:     si,
		unc:    new(big.Rat).Quo(unc, big.NewRat(1000, 1)),
	}
}

// ratText writes r as a decimal when it terminates, else as p/q.
func ratText(r *big.Rat) string {
	if d, ok := exact.ToDecimal(r); ok {
		return exact.FormatDecimal(&d)
	}
	return r.RatString()
}
