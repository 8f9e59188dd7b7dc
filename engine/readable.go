package engine

import (
	"errors"
	"math/big"
	"math/bits"
	"strings"
	"sync"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/internal/digits"
	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/internal/pi"
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
	// substance is what the usage measures, when its units say so (see
	// usage.substance).
	substance string
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
// parsed, when not nil, is req.Value already parsed.
func (g *Graph) appendReadable(dst []byte, req *Request, res *Result, p int, parsed *apd.Decimal) ([]byte, error) {
	var v apd.Decimal
	from := req.From
	switch {
	case isMixedName(from):
		m, err := g.resolveMixed(from)
		if err != nil {
			return dst, err
		}
		if err := m.sum(&v, req.Value); err != nil {
			return dst, err
		}
		from = m.parts[len(m.parts)-1].Symbol
	case parsed != nil:
		v.Set(parsed)
	default:
		if err := exact.ParseValue(&v, req.Value); err != nil {
			return dst, err
		}
	}
	var t target
	var pref *Preference
	if req.To == Auto {
		// The choice is written into storage res keeps, which a caller
		// may reuse: no allocation per request. (Not a field of res
		// itself: a pointer from res into res would move every Result
		// to the heap, auto or not.)
		if res.pref == nil {
			res.pref = new(Preference)
		}
		pref = res.pref
		var err error
		if t, err = g.choose(from, &v, req, pref); err != nil {
			return dst, err
		}
	} else {
		var err error
		if t, err = g.resolveTarget(req.To); err != nil {
			return dst, err
		}
	}
	if t.mixed == nil {
		props := req.Properties
		if props == nil && pref != nil && pref.substance != "" {
			// The chosen unit may be of another kind (mmol/L for mg/dL):
			// it converts through what the usage measures.
			if s := g.catalogSubstance(pref.substance); s != nil {
				props = g.own[s]
			}
		}
		out, err := g.convertParsed(dst, &v, from, t.side.symbol(), p, req.Budget, res, props)
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

// convertParsed is the ordinary conversion of an already parsed value,
// across kinds through props where the two units need them.
func (g *Graph) convertParsed(dst []byte, v *apd.Decimal, from, to string, p int, budget *Budget, res *Result, props *Properties) ([]byte, error) {
	if pe := g.cachedAcross(from, to, props); pe != nil {
		res.Properties = props
		return pe.convert(dst, v, p, budget, res)
	}
	if pe := g.cachedPair(from, to, nil); pe != nil {
		return pe.convert(dst, v, p, budget, res)
	}
	var pe pairEntry
	across, err := g.resolveWith(&pe, from, to, props)
	if err != nil {
		return dst, err
	}
	if across {
		res.Properties = props
	}
	return pe.convert(dst, v, p, budget, res)
}

// pair resolves and plans a pair of names, through the pair cache.
func (g *Graph) pair(from, to string) (*pairEntry, error) {
	if pe := g.cachedPair(from, to, nil); pe != nil {
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
	var pe *pairEntry
	var parts []Part
	var inexact, done bool
	if optimize {
		src, err := m.source(g, from)
		if err != nil {
			return err
		}
		pe = src.pe
		if src.wf.ok {
			parts, inexact, done = m.splitWords(src.wf, v, p, res.Parts)
		}
	} else {
		var err error
		if pe, err = g.pair(from, last.Symbol); err != nil {
			return err
		}
	}
	if !done {
		val, err := pe.plan.valueAt(v)
		if err != nil {
			return g.exactError(err, v, pe, m)
		}
		if parts, inexact, err = m.split(&val, p, res.Parts); err != nil {
			return g.exactError(err, v, pe, m)
		}
	}
	pl := &pe.plan
	res.From, res.To, res.FromExpression, res.ToExpression = pe.fromSide.unit, last, pe.fromSide.expr, nil
	res.Unit, res.Category, res.CategoryID = m.symbol, pl.category, pl.categoryID
	res.Exact, res.Bridge = !inexact && pl.exact, pl.bridge
	res.Parts, res.mixed = parts, m
	return nil
}

// exactError reports a failure to evaluate or split a value exactly in the
// API's terms.
func (g *Graph) exactError(err error, v *apd.Decimal, pe *pairEntry, m *mixedUnit) error {
	var e *Error
	switch {
	case errors.As(err, &e):
		return e
	case errors.Is(err, errNotExactMap):
		return errorf(CodeInvalidUnitExpression, "%s cannot be split into the parts of %s: %v", pe.plan.fromName, m.symbol, err)
	}
	return pe.plan.convertError(v, err)
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
		if err := exact.ParseValue(&d, f); err != nil {
			e := err.(*Error)
			return errorf(CodeInvalidValue, "part %d of %s (%s): %s", i+1, m.symbol, m.parts[i].Symbol, e.Message)
		}
		if f[0] == '-' || f[0] == '+' {
			if nonzero || d.IsZero() {
				return errorf(CodeInvalidValue, "value %q: only the first part that is not zero may carry a sign, which is the whole quantity's (\"-5 3.5\" is −(5 %s 3.5 %s))",
					fault.Truncate(value, 40), m.parts[0].Symbol, m.parts[1].Symbol)
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
		if _, err := unrounded.Add(dst, dst, &t); err != nil {
			return errorf(CodeInvalidValue, "value %q: the sum of its parts is out of range", fault.Truncate(value, 40))
		}
	}
	dst.Negative = neg && !dst.IsZero()
	return nil
}

// unrounded adds exactly: precision 0 never rounds an addition.
var unrounded = apd.BaseContext.WithPrecision(0)

// split writes v (in the last part) as the parts of m, into parts
// (reused): whole numbers, then the rest rounded to p significant digits,
// with its carries.
func (m *mixedUnit) split(v *exact.Value, p int, parts []Part) ([]Part, bool, error) {
	sc := splitPool.Get().(*splitScratch)
	defer splitPool.Put(sc)
	neg := v.Num.Sign() < 0
	N, D := &sc.N, &sc.D
	N.Abs(v.Num)
	D.Set(v.Den)
	if v.Exp >= 0 {
		N.Mul(N, tenTo(v.Exp))
	} else {
		D.Mul(D, tenTo(-v.Exp))
	}
	if v.K != 0 && N.Sign() != 0 {
		return m.splitPi(N, D, v.K, p, neg, parts)
	}
	text, ends, inexact := m.splitInts(sc, sc.buf[:0], N, D, p)
	return m.partsOf(parts, text, ends, neg), inexact, nil
}

// splitScratch holds the integers of one split, reused through splitPool
// so that a split of small values allocates nothing of its own.
type splitScratch struct {
	N, D, t, rem big.Int
	whole        [maxMixedParts]big.Int
	buf          [160]byte
}

var splitPool = sync.Pool{New: func() any { return new(splitScratch) }}

// wordFactor is a linear map without π whose factor num/den fits
// machine words, or ok false.
type wordFactor struct {
	num, den uint64
	ok       bool
}

// mixedSource is a source unit of a mixed target: its pair with the last
// part and the word factor of that pair's map.
type mixedSource struct {
	pe *pairEntry
	wf wordFactor
}

// source returns the source named from, resolved once per name (an
// accelerator: with the gate closed, convertMixed resolves the pair each
// time and never splits in words).
func (m *mixedUnit) source(g *Graph, from string) (*mixedSource, error) {
	if v, ok := m.sources.Load(from); ok {
		return v.(*mixedSource), nil
	}
	pe, err := g.pair(from, m.parts[len(m.parts)-1].Symbol)
	if err != nil {
		return nil, err
	}
	src := &mixedSource{pe: pe}
	pl := &pe.plan
	if pl.m != nil && pl.err == nil && pl.m.IsLinear() && pl.m.K() == 0 && pl.from.minimum == nil && pl.positive == nil && m.wordsOK {
		if f, _, ok := pl.m.Affine(); ok && f.Sign() > 0 && f.Num().IsUint64() && f.Denom().IsUint64() {
			src.wf = wordFactor{num: f.Num().Uint64(), den: f.Denom().Uint64(), ok: true}
		}
	}
	if m.nSources.Add(1) > maxCachedExpressions {
		m.sources.Clear()
		m.nSources.Store(1)
	}
	m.sources.Store(strings.Clone(from), src)
	return src, nil
}

// splitWords is split for a linear map whose factor wf, the value and
// the quotients fit machine words: x·num/den is split by 128-bit
// divisions, and the rest rounded by the engine's one rounding. It is an
// accelerator of split, which gives the same parts; done is false when it
// cannot serve x.
func (m *mixedUnit) splitWords(wf wordFactor, x *apd.Decimal, p int, parts []Part) (_ []Part, inexact, done bool) {
	if x.Form != apd.Finite || !x.Coeff.IsUint64() {
		return nil, false, false
	}
	// x·num/den = (hi·2^64 + lo) / den in the last part.
	hi, lo := bits.Mul64(x.Coeff.Uint64(), wf.num)
	den := wf.den
	switch e := int(x.Exponent); {
	case e > 0:
		if e >= len(pow10Words) {
			return nil, false, false
		}
		h1, l1 := bits.Mul64(lo, pow10Words[e])
		h2, l2 := bits.Mul64(hi, pow10Words[e])
		var c uint64
		hi, c = bits.Add64(h1, l2, 0)
		if h2 != 0 || c != 0 {
			return nil, false, false
		}
		lo = l1
	case e < 0:
		if -e >= len(pow10Words) {
			return nil, false, false
		}
		h, l := bits.Mul64(den, pow10Words[-e])
		if h != 0 {
			return nil, false, false
		}
		den = l
	}
	n := len(m.parts)
	var whole [maxMixedParts]uint64
	for i := range n - 1 {
		dh, d := bits.Mul64(den, m.inLastWords[i])
		if dh != 0 || hi >= d {
			return nil, false, false // a divisor or a quotient beyond a word
		}
		whole[i], lo = bits.Div64(hi, lo, d)
		hi = 0
	}
	last, inexact, ok := exact.RoundUint64(lo, den, p)
	if !ok {
		return nil, false, false
	}
	carry := last.CmpUint64(m.stepWords[n-2]) >= 0
	if carry {
		whole[n-2]++
		for i := n - 2; i > 0; i-- {
			if whole[i] >= m.stepWords[i-1] {
				whole[i] -= m.stepWords[i-1]
				whole[i-1]++
			}
		}
		if whole[0] == 0 && n > 1 && m.stepWords[0] != 0 && (n == 2 || whole[1] == 0) {
			// The first part wrapped around its word: let split answer.
			return nil, false, false
		}
	}
	var ends [maxMixedParts]int
	var text [160]byte
	buf := text[:0]
	for i := range n - 1 {
		buf = digits.AppendUint(buf, whole[i])
		ends[i] = len(buf)
	}
	if carry {
		buf = append(buf, '0')
	} else {
		buf = last.Append(buf)
	}
	ends[n-1] = len(buf)
	return m.partsOf(parts, buf, ends, x.Negative && !x.IsZero()), inexact, true
}

// pow10Words holds 10^0 … 10^19.
var pow10Words = func() (t [20]uint64) {
	t[0] = 1
	for i := 1; i < len(t); i++ {
		t[i] = t[i-1] * 10
	}
	return t
}()

// tenTo returns 10^n, n >= 0; the caller must not modify it.
func tenTo(n int) *big.Int {
	if n < len(powersOfTen) {
		return powersOfTen[n]
	}
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
}

var powersOfTen = func() (t [40]*big.Int) {
	t[0] = big.NewInt(1)
	for i := 1; i < len(t); i++ {
		t[i] = new(big.Int).Mul(t[i-1], big.NewInt(10))
	}
	return t
}()

// splitInts splits N/D >= 0 (D > 0) and appends each part's text,
// unsigned, to buf; ends[i] is where part i's text ends.
func (m *mixedUnit) splitInts(sc *splitScratch, buf []byte, N, D *big.Int, p int) ([]byte, [maxMixedParts]int, bool) {
	var ends [maxMixedParts]int
	n := len(m.parts)
	whole, t, rem := &sc.whole, &sc.t, &sc.rem
	rem.Set(N)
	for i := range n - 1 {
		t.Mul(D, m.inLast[i])
		whole[i].QuoRem(rem, t, rem)
	}
	last, inexact := roundValue(&exact.Value{Num: rem, Den: D}, p)
	var lastD apd.Decimal
	last.Apd(&lastD)
	carry := lastD.Cmp(&m.stepDec[n-2]) >= 0
	if carry {
		// The rest rounded up to a whole unit of the part before it.
		whole[n-2].Add(&whole[n-2], bigIntOne)
		for i := n - 2; i > 0; i-- {
			if whole[i].Cmp(m.step[i-1]) >= 0 {
				whole[i].Sub(&whole[i], m.step[i-1])
				whole[i-1].Add(&whole[i-1], bigIntOne)
			}
		}
	}
	for i := range n - 1 {
		var d apd.Decimal
		if whole[i].IsUint64() {
			d.Coeff.SetUint64(whole[i].Uint64())
		} else {
			d.Coeff.SetMathBigInt(&whole[i])
		}
		buf = exact.AppendDecimal(buf, &d)
		ends[i] = len(buf)
	}
	if carry {
		buf = append(buf, '0')
	} else {
		buf = last.Append(buf)
	}
	ends[n-1] = len(buf)
	return buf, ends, inexact
}

// maxPiDigits ends the widening of a bracket of π (as exact.Round does).
const maxPiDigits = 5000

// splitPi splits N/D·π^k > 0: it brackets π^k between two decimals and
// splits both ends of the interval, widening the bracket until both give
// the same parts. The result is never exact.
func (m *mixedUnit) splitPi(N, D *big.Int, k int, p int, neg bool, parts []Part) ([]Part, bool, error) {
	for digits := 2*p + 60; digits <= maxPiDigits; digits *= 2 {
		lo, w, scale := pi.Bracket(k, digits)
		den := new(big.Int).Mul(D, tenTo(scale))
		a, ends, _ := m.splitInts(new(splitScratch), nil, new(big.Int).Mul(N, lo), den, p)
		b, _, _ := m.splitInts(new(splitScratch), nil, new(big.Int).Mul(N, new(big.Int).Add(lo, w)), den, p)
		if string(a) == string(b) {
			return m.partsOf(parts, a, ends, neg), true, nil
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

var bigIntOne = big.NewInt(1)
