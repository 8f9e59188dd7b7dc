// Package mixed writes a quantity in a mixed unit, as whole numbers of
// each unit but the last and a rounded rest (5 ft 3.5 in, 11 st 4 lb,
// 1 h 30 min 0 s), and reads one back from a value per part ("5 3.5").
//
// A mixed unit is named by its parts joined with "+" ("ft+in", "h+min+s")
// or by CLDR's identifier ("foot-and-inch"). Its parts are units of one
// kind, linear (no offset, no formula), largest first, each a whole number
// of the next (1 ft = 12 in): that is what makes the carries of a rounded
// last part exact. The engine resolves the parts' names to its catalog
// units and gives New their exact factors; this package checks the rules,
// splits and sums on the kernel's mixed radix (exact.Radix), which does
// all the arithmetic, and writes the parts.
//
// As a target, a value is split exactly: every part but the last is a
// whole number, the last is rounded once to the requested significant
// digits, and a last part that rounds up to a whole unit of the part
// before it carries (5 ft 11.9999 in to 3 digits is 6 ft 0 in, never
// 5 ft 12 in). A negative quantity puts its sign on its first non-zero
// part. As a source, the parts' values are summed exactly in the last
// part, so the conversion is rounded once, as any other.
package mixed

import (
	"errors"
	"math/big"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine/codes"
	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/internal/exact"
)

// MaxParts bounds the parts of a mixed unit.
const MaxParts = exact.MaxRadixUnits

// MaxNameLength bounds the name of a mixed unit, as it does a unit
// expression's.
const MaxNameLength = 256

// IsName reports whether name is written as a mixed unit: parts joined by
// "+" or by CLDR's "-and-". A UCUM code never is one: its + is an
// exponent's sign (ucum:m+2), and UCUM has no mixed units.
func IsName(name string) bool {
	if strings.IndexByte(name, '+') < 0 && !strings.Contains(name, "-and-") {
		return false
	}
	prefix := codes.SystemUCUM + ":"
	return len(name) < len(prefix) || !strings.EqualFold(name[:len(prefix)], prefix)
}

// Names splits a mixed unit's name into its parts' names, trimmed: "ft+in"
// and " ft + in " give ft and in, CLDR's "foot-and-inch" and
// "cldr:foot-and-inch" give foot and inch with cldr set.
func Names(name string) (names []string, cldr bool, err error) {
	if len(name) > MaxNameLength {
		return nil, false, invalid(name, "longer than %d bytes", MaxNameLength)
	}
	if strings.IndexByte(name, '+') >= 0 {
		names = strings.Split(name, "+")
	} else {
		id := name
		if i := strings.IndexByte(id, ':'); i >= 0 && strings.EqualFold(id[:i], codes.SystemCLDR) {
			id = id[i+1:]
		}
		names = strings.Split(id, "-and-")
		cldr = true
	}
	if len(names) > MaxParts {
		return nil, false, invalid(name, "has %d parts; at most %d", len(names), MaxParts)
	}
	for i, n := range names {
		names[i] = strings.TrimSpace(n)
		if names[i] == "" {
			return nil, false, invalid(name, "part %d is empty (write parts such as ft+in)", i+1)
		}
	}
	if len(names) < 2 {
		return nil, false, invalid(name, "needs at least two parts")
	}
	return names, cldr, nil
}

// Key is the name a cache keeps a mixed unit under, so that names that
// differ only in white space share one entry: the name itself when it
// has none (without allocating), else its parts trimmed and joined as
// they were. A name Names refuses is its own key.
func Key(name string) string {
	if !hasSpace(name) {
		return name
	}
	names, cldr, err := Names(name)
	if err != nil {
		return name
	}
	if cldr {
		return strings.Join(names, "-and-")
	}
	return strings.Join(names, "+")
}

// hasSpace reports whether s may hold white space that Names trims: an
// ASCII space or control, or any non-ASCII byte (Unicode's spaces).
func hasSpace(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ', c >= '\t' && c <= '\r', c >= 0x80:
			return true
		}
	}
	return false
}

// Part is a part of a mixed unit as the engine resolved it: its symbol
// and its exact factor onto a unit common to all the parts.
type Part struct {
	Symbol string
	Factor exact.Factor
}

// Unit is a mixed unit. It is immutable and safe for concurrent use.
type Unit struct {
	// Symbol is canonical: the parts' symbols joined by "+".
	Symbol string
	parts  []string
	radix  *exact.Radix
}

// New returns the mixed unit of parts, largest first, named name (as
// written, for messages): each part must be smaller than the one before
// it, and a whole number of the next and of the last.
func New(name string, parts []Part) (*Unit, error) {
	if len(parts) < 2 || len(parts) > MaxParts {
		return nil, invalid(name, "has %d parts; a mixed unit has 2 to %d", len(parts), MaxParts)
	}
	m := &Unit{parts: make([]string, len(parts))}
	factors := make([]exact.Factor, len(parts))
	for i, p := range parts {
		m.parts[i], factors[i] = p.Symbol, p.Factor
	}
	m.Symbol = strings.Join(m.parts, "+")
	r, err := exact.NewRadix(factors)
	var re *exact.RadixError
	switch {
	case errors.As(err, &re) && !re.NotWhole:
		return nil, invalid(name, "the parts must go from the largest to the smallest, but %s is not smaller than %s", m.parts[re.Unit], m.parts[re.Of])
	case errors.As(err, &re) && re.Of == len(parts)-1:
		return nil, invalid(name, "%s is not a whole number of %s; each part must be a whole number of the last", m.parts[re.Unit], m.parts[re.Of])
	case errors.As(err, &re):
		return nil, invalid(name, "%s is not a whole number of %s", m.parts[re.Unit], m.parts[re.Of])
	case err != nil:
		return nil, invalid(name, "%v", err)
	}
	m.radix = r
	return m, nil
}

func invalid(name, format string, args ...any) *fault.Error {
	return fault.Errorf(fault.InvalidUnitExpression, "mixed unit %q: "+format, append([]any{fault.Truncate(name, 60)}, args...)...)
}

// Len is the number of parts.
func (m *Unit) Len() int { return len(m.parts) }

// Part returns the symbol of part i.
func (m *Unit) Part(i int) string { return m.parts[i] }

// PerLast writes part i in units of the last, a whole number ("12" for
// the foot of ft+in).
func (m *Unit) PerLast(i int) string { return m.radix.InLast(i).String() }

// Sum reads one value per part, separated by white space ("5 3.5"), and
// sets dst to the quantity in the last part, exactly. A sign may only
// stand on the first part that is not zero, and is the sign of the whole
// quantity.
func (m *Unit) Sum(dst *apd.Decimal, value string) error {
	n := len(m.parts)
	if len(value) > n*(exact.MaxValueLength+1) {
		return fault.Errorf(fault.InvalidValue, "value for %s is longer than %d characters", m.Symbol, n*(exact.MaxValueLength+1))
	}
	fields := strings.Fields(value)
	if len(fields) != n {
		return fault.Errorf(fault.InvalidValue, "%s takes one value per part, %d in all, separated by spaces (\"5 3.5\" for 5 %s 3.5 %s); got %d",
			m.Symbol, n, m.parts[0], m.parts[1], len(fields))
	}
	dst.SetInt64(0)
	var sign signs
	for i, f := range fields {
		var d apd.Decimal
		if err := exact.ParseValue(&d, f); err != nil {
			msg := err.Error()
			var e *fault.Error
			if errors.As(err, &e) {
				msg = e.Message
			}
			return fault.Errorf(fault.InvalidValue, "part %d of %s (%s): %s", i+1, m.Symbol, m.parts[i], msg)
		}
		if !sign.next(f[0] == '-' || f[0] == '+', f[0] == '-', d.IsZero()) {
			return fault.Errorf(fault.InvalidValue, "value %q: only the first part that is not zero may carry a sign, which is the whole quantity's (\"-5 3.5\" is −(5 %s 3.5 %s))",
				fault.Truncate(value, 40), m.parts[0], m.parts[1])
		}
		d.Negative = false
		if err := m.radix.AddPart(dst, i, &d); err != nil {
			return fault.Errorf(fault.InvalidValue, "value %q: the sum of its parts is out of range", fault.Truncate(value, 40))
		}
	}
	dst.Negative = sign.neg && !dst.IsZero()
	return nil
}

// SumRat is Sum for exact rationals, one per part: the quantity in the
// last part, exactly, under the same rule for signs (a negative part is
// one that carries a sign).
func (m *Unit) SumRat(parts []*big.Rat) (*big.Rat, error) {
	if len(parts) != len(m.parts) {
		return nil, fault.Errorf(fault.InvalidValue, "%s takes one value per part, %d in all; got %d", m.Symbol, len(m.parts), len(parts))
	}
	sum := new(big.Rat)
	var sign signs
	for i, r := range parts {
		if !sign.next(r.Sign() < 0, r.Sign() < 0, r.Sign() == 0) {
			return nil, fault.Errorf(fault.InvalidValue, "only the first part of %s that is not zero may carry a sign, which is the whole quantity's", m.Symbol)
		}
		t := new(big.Rat).Abs(r)
		sum.Add(sum, t.Mul(t, new(big.Rat).SetInt(m.radix.InLast(i))))
	}
	if sign.neg {
		sum.Neg(sum)
	}
	return sum, nil
}

// signs reads the signs of a mixed quantity's parts in order, by the one
// rule of Sum and SumRat: a sign may only stand on the first part that is
// not zero, and it is the whole quantity's.
type signs struct{ neg, nonzero bool }

// next reads a part, zero or not, that carries a sign (minus or plus) or
// none; it reports false when the rule refuses the sign.
func (s *signs) next(signed, minus, zero bool) bool {
	if signed && (s.nonzero || zero) {
		return false
	}
	if signed {
		s.neg = minus
	}
	s.nonzero = s.nonzero || !zero
	return true
}

// Parts are the texts of a split, one per part, as the API prints
// numbers, the sign of a negative quantity on the first that is not zero.
type Parts struct {
	text string
	ends [MaxParts]int
	n    int
}

// Len is the number of parts.
func (p *Parts) Len() int { return p.n }

// Value returns the text of part i.
func (p *Parts) Value(i int) string {
	start := 0
	if i > 0 {
		start = p.ends[i-1]
	}
	return p.text[start:p.ends[i]]
}

// String writes the parts as "5 ft 3.5 in".
func (p *Parts) String(m *Unit) string {
	var b strings.Builder
	for i := range p.n {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(p.Value(i))
		b.WriteByte(' ')
		b.WriteString(m.parts[i])
	}
	return b.String()
}

// Split writes v, a value in the last part, as the parts into *dst:
// whole numbers, then the rest rounded half-even to p significant digits,
// with its carries (exact.Radix.Split); inexact reports whether the
// rounding changed the rest. fast lets the rounding use machine words;
// the parts are the same either way.
func (m *Unit) Split(dst *Parts, v *exact.Value, p int, fast bool) (inexact bool) {
	var buf [160]byte
	text, inexact := m.radix.Split(buf[:0], &dst.ends, v, p, fast)
	m.texts(dst, text, v.Sign() < 0)
	return inexact
}

// SplitWords is Split of x·num/den, the value of a linear map without π
// whose factor num/den fits words, computed in machine words
// (exact.Radix.SplitWords): an accelerator of Split, with the same parts,
// or ok false when the words do not reach.
func (m *Unit) SplitWords(dst *Parts, x *apd.Decimal, num, den uint64, p int) (inexact, ok bool) {
	var buf [160]byte
	text, inexact, ok := m.radix.SplitWords(buf[:0], &dst.ends, x, num, den, p)
	if !ok {
		return false, false
	}
	m.texts(dst, text, x.Negative && !x.IsZero())
	return inexact, true
}

// texts sets the texts of a split, in one string, and puts the sign of a
// negative quantity on the first part that is not zero.
func (m *Unit) texts(dst *Parts, text []byte, neg bool) {
	n := len(m.parts)
	if neg {
		start := 0
		for i := range n {
			if string(text[start:dst.ends[i]]) != "0" {
				text = append(text[:start], append([]byte{'-'}, text[start:]...)...)
				for j := i; j < n; j++ {
					dst.ends[j]++
				}
				break
			}
			start = dst.ends[i]
		}
	}
	dst.text, dst.n = string(text), n
}
