package engine

import (
	"errors"
	"math/big"
	"strings"

	"github.com/cockroachdb/apd/v3"
)

// Auto is the target that asks the engine to choose the unit from the
// unit preferences (see preference.go).
const Auto = "auto"

// Preference says which unit preference a conversion to Auto chose, and
// why (UTS #35 Part 6, Unit Preferences). Its fields are read-only.
type Preference struct {
	// Quantity is CLDR's quantity of the source unit ("length").
	Quantity string
	// Usage is the usage asked for ("default" when none was), and
	// MatchedUsage the usage whose preferences were used, after the
	// fall-back by parts and to "default".
	Usage, MatchedUsage string
	// Region is the region the preferences were looked up for, and
	// RegionFrom how it was found: "region", "locale" (its region
	// subtag), "locale-rg", "locale-ms", "likely" (the likely region of
	// the locale's language) or "default" (001, neither was given).
	Region, RegionFrom string
	// Locale is the locale the region came from, if any.
	Locale string
	// MatchedRegion is the region whose preferences were used: Region, or
	// the region containing it nearest to it that has its own, up to 001.
	MatchedRegion string
	// Units is the list of preferences, largest first; Chosen indexes the
	// one taken. Reached is false when the value reached no threshold and
	// the last unit was taken for it.
	Units   []PreferenceUnit
	Chosen  int
	Reached bool
	// Override is set when the locale's -u-mu- key chose the unit of a
	// temperature ("celsius"), which wins over the preferences.
	Override string
	// Source cites the data.
	Source string
}

// PreferenceUnit is one unit of a preference list.
type PreferenceUnit struct {
	// Unit is the catalog unit ("ft+in"), CLDR its CLDR identifier
	// ("foot-and-inch").
	Unit, CLDR string
	// Geq is the threshold from which it is used, in GeqUnit: Unit, or
	// its largest part; "" for the last unit, which takes every smaller
	// value.
	Geq, GeqUnit string
	// Substance is what a unit of mass concentration is of ("glucose").
	Substance string
}

// isReadable reports whether a request needs the readable path: a target
// to choose, or a mixed unit on either side. It is only asked once the
// pair cache has missed, so ordinary conversions never pay for it.
func isReadable(req *Request) bool {
	return req.To == Auto || isMixedName(req.To) || isMixedName(req.From)
}

// appendReadable converts a request with a mixed source, a mixed target or
// the target Auto.
func (g *Graph) appendReadable(dst []byte, req *Request, res *Result, p int) ([]byte, error) {
	var v apd.Decimal
	from := req.From
	if isMixedName(from) {
		m, err := g.resolveMixed(from)
		if err != nil {
			return dst, err
		}
		if err := m.sum(&v, req.Value); err != nil {
			return dst, err
		}
		from = m.parts[len(m.parts)-1].Symbol
	} else if err := parseValue(&v, req.Value); err != nil {
		return dst, err
	}
	var t target
	var pref *Preference
	if req.To == Auto {
		var err error
		if t, pref, err = g.choose(from, &v, req); err != nil {
			return dst, err
		}
	} else {
		var err error
		if t, err = g.resolveTarget(req.To); err != nil {
			return dst, err
		}
	}
	if t.mixed == nil {
		out, err := g.convertParsed(dst, &v, from, t.side.symbol(), p, req.Budget, res)
		if err != nil {
			return dst, err
		}
		res.Preference = pref
		return out, nil
	}
	if err := g.convertMixed(&v, from, t.mixed, p, res); err != nil {
		return dst, err
	}
	res.Preference = pref
	return dst, nil
}

// convertParsed is the ordinary conversion of an already parsed value.
func (g *Graph) convertParsed(dst []byte, v *apd.Decimal, from, to string, p int, budget *Budget, res *Result) ([]byte, error) {
	if pe := g.cachedPair(from, to); pe != nil {
		return pe.convert(dst, v, p, budget, res)
	}
	var pe pairEntry
	if err := g.resolvePair(&pe, from, to); err != nil {
		return dst, err
	}
	return pe.convert(dst, v, p, budget, res)
}

// pair resolves and plans a pair of names, through the pair cache.
func (g *Graph) pair(from, to string) (*pairEntry, error) {
	if pe := g.cachedPair(from, to); pe != nil {
		return pe, nil
	}
	pe := new(pairEntry)
	if err := g.resolvePair(pe, from, to); err != nil {
		return nil, err
	}
	return pe, nil
}

// convertMixed converts v in the unit from to the parts of m.
func (g *Graph) convertMixed(v *apd.Decimal, from string, m *mixedUnit, p int, res *Result) error {
	last := m.parts[len(m.parts)-1]
	pe, err := g.pair(from, last.Symbol)
	if err != nil {
		return err
	}
	num, den, k, err := pe.plan.exactValue(v)
	if err != nil {
		return g.exactError(err, v, pe, m)
	}
	parts, inexact, err := m.split(&num, &den, k, p, res.Parts)
	if err != nil {
		return g.exactError(err, v, pe, m)
	}
	pl := &pe.plan
	res.From, res.To, res.FromExpression, res.ToExpression = pe.fromSide.unit, last, pe.fromSide.expr, nil
	res.Unit, res.Category, res.CategoryID = m.symbol, pl.category, pl.categoryID
	res.Exact, res.Bridge = !inexact, pl.bridge
	res.Parts, res.mixed = parts, m
	return nil
}

// MixedExplanation describes a mixed unit: each part in units of the
// last, a whole number.
type MixedExplanation struct {
	Unit     string
	LastPart string
	Parts    []MixedPart
}

// MixedPart is one part of a mixed unit and how many of the last part it
// is.
type MixedPart struct {
	Unit, PerLast string
}

func (r *Result) mixedExplanation() *MixedExplanation {
	m := r.mixed
	if m == nil {
		return nil
	}
	x := &MixedExplanation{Unit: m.symbol, LastPart: m.parts[len(m.parts)-1].Symbol}
	for i, u := range m.parts {
		x.Parts = append(x.Parts, MixedPart{Unit: u.Symbol, PerLast: m.inLast[i].String()})
	}
	return x
}

// Reason says in a sentence why the preference was chosen.
func (p *Preference) Reason() string {
	if p.Override != "" {
		return "the locale's -u-mu- key asks for " + p.Override + ", which wins over the preferences of temperature"
	}
	where := "for " + p.MatchedUsage + " in " + p.MatchedRegion
	if len(p.Units) == 1 {
		return p.Units[0].Unit + " is the only preference " + where
	}
	if p.Reached {
		u := p.Units[p.Chosen]
		return "the magnitude of the value reaches the threshold of " + u.Unit + ", " + u.Geq + " " + u.GeqUnit + ", the first preference " + where + " it reaches"
	}
	u := p.Units[len(p.Units)-2]
	return "the magnitude of the value is below every threshold " + where + " (the smallest is " + u.Geq + " " + u.GeqUnit + "), so the last preference applies"
}

// exactError reports a failure to evaluate or split a value exactly in the
// API's terms.
func (g *Graph) exactError(err error, v *apd.Decimal, pe *pairEntry, m *mixedUnit) error {
	var e *Error
	switch {
	case errors.As(err, &e):
		return e
	case errors.Is(err, errNotExact):
		return errorf(CodeInvalidUnitExpression, "%s cannot be split into the parts of %s: %v", pe.plan.fromName, m.symbol, err)
	case errors.Is(err, errDomain), errors.Is(err, errArithmetic):
		return errorf(CodeValueOutOfRange, "%s %s cannot be converted to %s: %v", FormatDecimal(v), pe.plan.fromName, m.symbol, err)
	}
	return err
}

// sum reads one value per part ("5 3.5") and sets dst to the quantity in
// the last part, exactly. A sign may only stand on the first part that is
// not zero, and is the sign of the whole quantity.
func (m *mixedUnit) sum(dst *apd.Decimal, value string) error {
	if len(value) > len(m.parts)*(MaxValueLength+1) {
		return errorf(CodeInvalidValue, "value for %s is longer than %d characters", m.symbol, len(m.parts)*(MaxValueLength+1))
	}
	fields := strings.Fields(value)
	if len(fields) != len(m.parts) {
		return errorf(CodeInvalidValue, "%s takes one value per part, %d in all, separated by spaces (\"5 3.5\" for 5 %s 3.5 %s); got %d",
			m.symbol, len(m.parts), m.parts[0].Symbol, m.parts[1].Symbol, len(fields))
	}
	dst.SetInt64(0)
	neg, nonzero := false, false
	for i, f := range fields {
		var d apd.Decimal
		if err := parseValue(&d, f); err != nil {
			e := err.(*Error)
			return errorf(CodeInvalidValue, "part %d of %s (%s): %s", i+1, m.symbol, m.parts[i].Symbol, e.Message)
		}
		if f[0] == '-' || f[0] == '+' {
			if nonzero || d.IsZero() {
				return errorf(CodeInvalidValue, "value %q: only the first part that is not zero may carry a sign, which is the whole quantity's (\"-5 3.5\" is −(5 %s 3.5 %s))",
					truncateText(value, 40), m.parts[0].Symbol, m.parts[1].Symbol)
			}
			neg = f[0] == '-'
		}
		if !d.IsZero() {
			nonzero = true
		}
		d.Negative = false
		var w, t apd.Decimal
		w.Coeff.SetMathBigInt(m.inLast[i])
		mulExact(&t, &d, &w)
		addExact(dst, dst, &t)
	}
	dst.Negative = neg && !dst.IsZero()
	return nil
}

// split writes num/den·π^k (in the last part) as the parts of m, into
// parts (reused): whole numbers, then the rest rounded to p significant
// digits, with its carries.
func (m *mixedUnit) split(num, den *apd.Decimal, k int, p int, parts []Part) ([]Part, bool, error) {
	neg := num.Negative && !num.IsZero()
	if k != 0 && !num.IsZero() {
		r := decimalRat(num)
		r.Quo(r, decimalRat(den))
		r.Abs(r)
		return m.splitPi(r, k, p, neg, parts)
	}
	var N, D apd.BigInt
	alignedInts(&N, &D, num, den)
	var buf [128]byte
	text, ends, inexact, err := m.splitInts(buf[:0], &N, &D, p)
	if err != nil {
		return nil, false, err
	}
	return m.partsOf(parts, text, ends, neg), inexact, nil
}

// alignedInts sets N and D to the coefficients of |num| and den scaled to
// one exponent, so that N/D = |num|/den.
func alignedInts(N, D *apd.BigInt, num, den *apd.Decimal) {
	e := min(num.Exponent, den.Exponent)
	scaleInt(N, &num.Coeff, int(num.Exponent-e))
	scaleInt(D, &den.Coeff, int(den.Exponent-e))
	N.Abs(N)
}

// scaleInt sets z = x·10^n, n >= 0.
func scaleInt(z, x *apd.BigInt, n int) {
	if n <= maxPow10 {
		z.Mul(x, &coeffPow10()[n])
		return
	}
	var t apd.BigInt
	t.Exp(apd.NewBigInt(10), apd.NewBigInt(int64(n)), nil)
	z.Mul(x, &t)
}

// splitInts splits N/D >= 0 (D > 0) and appends each part's text,
// unsigned, to buf; ends[i] is where part i's text ends.
func (m *mixedUnit) splitInts(buf []byte, N, D *apd.BigInt, p int) ([]byte, [maxMixedParts]int, bool, error) {
	var ends [maxMixedParts]int
	n := len(m.parts)
	var whole [maxMixedParts]apd.BigInt
	var rem, t apd.BigInt
	rem.Set(N)
	for i := range n - 1 {
		t.Mul(D, &m.inLastInt[i])
		whole[i].QuoRem(&rem, &t, &rem)
	}
	var numD, denD apd.Decimal
	numD.Coeff.Set(&rem)
	denD.Coeff.Set(D)
	var out number
	inexact, err := roundExact(&out, &numD, &denD, 0, p)
	if err != nil {
		return buf, ends, false, err
	}
	if out.atLeast(&m.stepDec[n-2]) {
		// The rest rounded up to a whole unit of the part before it.
		out = number{}
		whole[n-2].Add(&whole[n-2], apd.NewBigInt(1))
		for i := n - 2; i > 0; i-- {
			if whole[i].Cmp(&m.stepInt[i-1]) >= 0 {
				whole[i].Sub(&whole[i], &m.stepInt[i-1])
				whole[i-1].Add(&whole[i-1], apd.NewBigInt(1))
			}
		}
	}
	for i := range n - 1 {
		var d apd.Decimal
		d.Coeff.Set(&whole[i])
		buf = appendDecimal(buf, &d)
		ends[i] = len(buf)
	}
	buf = out.appendText(buf)
	ends[n-1] = len(buf)
	return buf, ends, inexact, nil
}

// atLeast reports whether n >= s, for s a whole number > 0.
func (n *number) atLeast(s *apd.Decimal) bool {
	if optimize && n.fast && n.q.hi == 0 && !n.q.neg && s.Coeff.IsUint64() && s.Exponent == 0 {
		v, e, step := n.q.lo, n.q.exp, s.Coeff.Uint64()
		for ; e > 0; e-- {
			if v >= step {
				return true
			}
			v *= 10 // v < step < 2^64/10: step is a ratio of two units
		}
		for ; e < 0 && step != 0; e++ {
			if step > (1<<64-1)/10 {
				return false // step·10^-e is beyond v
			}
			step *= 10
		}
		return v >= step
	}
	d := n.decimal()
	return d.Cmp(s) >= 0
}

// splitPi splits r·π^k, r > 0: it brackets π between two decimals and
// splits both ends of the interval, widening the bracket until both give
// the same parts. The result is never exact.
func (m *mixedUnit) splitPi(r *big.Rat, k int, p int, neg bool, parts []Part) ([]Part, bool, error) {
	for digits := 60 + 2*p; digits <= maxPiDigits; digits *= 2 {
		scale := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(digits)), nil)
		lo := new(big.Rat).SetFrac(piScaled(digits).MathBigInt(), scale)
		hi := new(big.Rat).Add(lo, new(big.Rat).SetFrac(bigOneInt, scale))
		plo, phi := ratPow(lo, abs(k)), ratPow(hi, abs(k))
		if k < 0 {
			plo, phi = phi.Inv(phi), plo.Inv(plo)
		}
		var texts [2][]byte
		var ends [maxMixedParts]int
		for i, f := range []*big.Rat{plo, phi} {
			v := new(big.Rat).Mul(r, f)
			var N, D apd.BigInt
			N.SetMathBigInt(v.Num())
			D.SetMathBigInt(v.Denom())
			var err error
			if texts[i], ends, _, err = m.splitInts(nil, &N, &D, p); err != nil {
				return nil, false, err
			}
		}
		if string(texts[0]) == string(texts[1]) {
			return m.partsOf(parts, texts[0], ends, neg), true, nil
		}
	}
	return nil, false, errorf(CodeValueOutOfRange, "the value is too close to a boundary between two roundings to be split into %s", m.symbol)
}

// partsOf pairs the parts' texts with their units, in one string, and
// puts the sign of a negative quantity on the first part that is not zero.
func (m *mixedUnit) partsOf(parts []Part, text []byte, ends [maxMixedParts]int, neg bool) []Part {
	if neg {
		start := 0
		for i := range m.parts {
			if string(text[start:ends[i]]) != "0" {
				text = append(text[:start], append([]byte{'-'}, text[start:]...)...)
				for j := i; j < len(m.parts); j++ {
					ends[j]++
				}
				break
			}
			start = ends[i]
		}
	}
	all := string(text)
	parts = parts[:0]
	start := 0
	for i, u := range m.parts {
		parts = append(parts, Part{Value: all[start:ends[i]], Unit: u})
		start = ends[i]
	}
	return parts
}

// PartsText writes parts as "5 ft 3.5 in".
func PartsText(parts []Part) string {
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(p.Value)
		b.WriteByte(' ')
		b.WriteString(p.Unit.Symbol)
	}
	return b.String()
}

// quoteList writes names as "a, b, c".
func quoteList(names []string) string { return strings.Join(names, ", ") }
