package exact

import (
	"errors"
	"fmt"
	"math/big"
	"math/bits"
	"sync"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine/internal/digits"
)

// Mixed radixes
//
// A mixed unit (feet and inches, hours, minutes and seconds) writes a
// quantity as whole numbers of each unit but the last and a rest in the
// last: a mixed radix whose digits are the whole parts. Split divides a
// value into them with remainders, rounds the rest once and carries a
// rest that rounds up to a whole unit of the part before it; AddPart is
// its inverse, summing a part exactly. Through π, a split brackets π^K and
// widens the bracket until both ends split alike (throughPi), the rule of
// Round.

// MaxRadixUnits bounds the units of a Radix.
const MaxRadixUnits = 6

// Radix is a mixed radix: units u_0 > u_1 > … > u_{n-1}, each a whole
// number of the next. It is immutable and safe for concurrent use.
type Radix struct {
	// inLast[i] is u_i in units of the last, step[i] is u_i in units
	// of u_{i+1} (1 for the last).
	inLast, step []*big.Int
	// stepDec holds the steps as decimals, for the carry of a rounded
	// rest; inLastWords and stepWords hold inLast and step in words
	// where they fit (else 0), and words is set when all of them fit.
	stepDec                []apd.Decimal
	inLastWords, stepWords []uint64
	words                  bool
}

// RadixError says which unit breaks a mixed radix: Unit is not smaller
// than Of (NotWhole false), or not a whole number of Of (NotWhole true).
type RadixError struct {
	Unit, Of int
	NotWhole bool
}

func (e *RadixError) Error() string {
	if e.NotWhole {
		return fmt.Sprintf("unit %d is not a whole number of unit %d", e.Unit, e.Of)
	}
	return fmt.Sprintf("unit %d is not smaller than unit %d", e.Unit, e.Of)
}

// ErrRadixSize is a radix of fewer than two or more than MaxRadixUnits
// units.
var ErrRadixSize = fmt.Errorf("a mixed radix has 2 to %d units", MaxRadixUnits)

// NewRadix returns the radix of units given by their positive factors
// onto a common unit, largest first: each must be smaller than the one
// before it and a whole number of the last and of the next (a
// *RadixError says which is not).
func NewRadix(units []Factor) (*Radix, error) {
	n := len(units)
	if n < 2 || n > MaxRadixUnits {
		return nil, ErrRadixSize
	}
	for i := 1; i < n; i++ {
		if units[i].K == units[i-1].K && units[i].R.Cmp(units[i-1].R) >= 0 {
			return nil, &RadixError{Unit: i, Of: i - 1}
		}
	}
	r := &Radix{inLast: make([]*big.Int, n), step: make([]*big.Int, n)}
	last := units[n-1]
	for i, u := range units {
		q := new(big.Rat).Quo(u.R, last.R)
		if u.K != last.K || !q.IsInt() || q.Sign() <= 0 {
			return nil, &RadixError{Unit: i, Of: n - 1, NotWhole: true}
		}
		r.inLast[i] = new(big.Int).Set(q.Num())
	}
	for i := 0; i+1 < n; i++ {
		q, rem := new(big.Int).QuoRem(r.inLast[i], r.inLast[i+1], new(big.Int))
		if rem.Sign() != 0 {
			return nil, &RadixError{Unit: i, Of: i + 1, NotWhole: true}
		}
		r.step[i] = q
	}
	r.step[n-1] = big.NewInt(1)
	r.stepDec = make([]apd.Decimal, n)
	r.inLastWords = make([]uint64, n)
	r.stepWords = make([]uint64, n)
	r.words = true
	for i := range n {
		r.words = r.words && r.inLast[i].IsUint64() && r.step[i].IsUint64()
		r.stepDec[i].Coeff.SetMathBigInt(r.step[i])
		if r.inLast[i].IsUint64() {
			r.inLastWords[i] = r.inLast[i].Uint64()
		}
		if r.step[i].IsUint64() {
			r.stepWords[i] = r.step[i].Uint64()
		}
	}
	return r, nil
}

// Len is the number of units.
func (r *Radix) Len() int { return len(r.inLast) }

// InLast returns unit i in units of the last, a whole number.
func (r *Radix) InLast(i int) *big.Int { return new(big.Int).Set(r.inLast[i]) }

// Step returns unit i in units of unit i+1 (1 for the last).
func (r *Radix) Step(i int) *big.Int { return new(big.Int).Set(r.step[i]) }

// ErrSumRange is a sum of parts whose exponent apd cannot hold.
var ErrSumRange = errors.New("the sum of the parts is out of range")

// AddPart adds x·u_i, in units of the last, to dst exactly.
func (r *Radix) AddPart(dst *apd.Decimal, i int, x *apd.Decimal) error {
	var w, t apd.Decimal
	w.Coeff.SetMathBigInt(r.inLast[i])
	t.Exponent = x.Exponent
	t.Coeff.Mul(&x.Coeff, &w.Coeff)
	t.Negative = x.Negative && t.Coeff.Sign() != 0
	if _, err := unrounded.Add(dst, dst, &t); err != nil {
		return ErrSumRange
	}
	return nil
}

// unrounded adds exactly: precision 0 never rounds an addition.
var unrounded = apd.BaseContext.WithPrecision(0)

// Split appends the parts of |v| (in the last unit) to dst, each as the
// API prints a number, and sets where each part's text ends: a whole
// number of each unit but the last, then the rest rounded half-even to p
// significant digits. A rest that rounds up to a whole unit of the part
// before it carries into it, and on up (5 ft 11.9999 in to 3 digits is
// 6 ft 0 in), so every part stays below one unit of the part before.
// inexact reports whether the rounding changed the rest; a value through
// π (K ≠ 0, Num ≠ 0) is never exact. With words set the rest is rounded in
// machine words where they serve (RoundWords); the parts are the same.
func (r *Radix) Split(dst []byte, ends *[MaxRadixUnits]int, v *Value, p int, words bool) (text []byte, inexact bool) {
	sc := splitPool.Get().(*splitScratch)
	defer splitPool.Put(sc)
	v.ratio(&sc.N, &sc.D)
	sc.N.Abs(&sc.N)
	if v.K != 0 && sc.N.Sign() != 0 {
		return r.splitPi(dst, ends, &sc.N, &sc.D, v.K, p, words)
	}
	return r.splitInts(sc, dst, ends, &sc.N, &sc.D, p, words)
}

// splitScratch holds the integers of one split, reused through splitPool
// so that a split of small values allocates nothing of its own.
type splitScratch struct {
	N, D, t, rem big.Int
	whole        [MaxRadixUnits]big.Int
}

var splitPool = sync.Pool{New: func() any { return new(splitScratch) }}

// splitInts splits N/D >= 0 (D > 0) and appends each part's text to buf.
func (r *Radix) splitInts(sc *splitScratch, buf []byte, ends *[MaxRadixUnits]int, N, D *big.Int, p int, words bool) ([]byte, bool) {
	n := len(r.inLast)
	whole, t, rem := &sc.whole, &sc.t, &sc.rem
	rem.Set(N)
	for i := range n - 1 {
		t.Mul(D, r.inLast[i])
		whole[i].QuoRem(rem, t, rem)
	}
	rest := Value{Num: rem, Den: D}
	last, inexact := RoundWith(&rest, p, words)
	var lastD apd.Decimal
	last.Apd(&lastD)
	carry := lastD.Cmp(&r.stepDec[n-2]) >= 0
	if carry {
		// The rest rounded up to a whole unit of the part before it.
		whole[n-2].Add(&whole[n-2], bigOne)
		for i := n - 2; i > 0; i-- {
			if whole[i].Cmp(r.step[i-1]) >= 0 {
				whole[i].Sub(&whole[i], r.step[i-1])
				whole[i-1].Add(&whole[i-1], bigOne)
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
		buf = AppendDecimal(buf, &d)
		ends[i] = len(buf)
	}
	if carry {
		buf = append(buf, '0')
	} else {
		buf = last.Append(buf)
	}
	ends[n-1] = len(buf)
	return buf, inexact
}

// splitPi splits N/D·π^k > 0: it splits both ends of brackets of π^k and
// takes the parts when both ends give the same (throughPi). The result is
// never exact.
func (r *Radix) splitPi(dst []byte, ends *[MaxRadixUnits]int, N, D *big.Int, k, p int, words bool) ([]byte, bool) {
	text := dst
	var other [MaxRadixUnits]int
	throughPi(k, p, func(lo, hi *big.Int, scale int, last bool) bool {
		den := new(big.Int).Mul(D, pow10Big(scale))
		a, _ := r.splitInts(new(splitScratch), dst, ends, new(big.Int).Mul(N, lo), den, p, words)
		b, _ := r.splitInts(new(splitScratch), nil, &other, new(big.Int).Mul(N, hi), den, p, words)
		text = a
		return string(a[len(dst):]) == string(b)
	})
	return text, true
}

// SplitWords is Split of x·num/den (a linear map without π whose factor
// fits words, applied to x) computed in machine words: the whole parts by
// 128-bit divisions, the rest rounded by RoundUint64. It gives the parts
// Split gives, or ok false when x, the factor or the quotients do not fit
// words; x is finite.
func (r *Radix) SplitWords(dst []byte, ends *[MaxRadixUnits]int, x *apd.Decimal, num, den uint64, p int) (text []byte, inexact, ok bool) {
	if !r.words || den == 0 || x.Form != apd.Finite || !x.Coeff.IsUint64() {
		return dst, false, false
	}
	// x·num/den = (hi·2^64 + lo) / den in the last unit.
	hi, lo := bits.Mul64(x.Coeff.Uint64(), num)
	switch e := int(x.Exponent); {
	case e > 0:
		if e >= len(pow10) {
			return dst, false, false
		}
		h1, l1 := bits.Mul64(lo, pow10[e])
		h2, l2 := bits.Mul64(hi, pow10[e])
		var c uint64
		hi, c = bits.Add64(h1, l2, 0)
		if h2 != 0 || c != 0 {
			return dst, false, false
		}
		lo = l1
	case e < 0:
		if -e >= len(pow10) {
			return dst, false, false
		}
		h, l := bits.Mul64(den, pow10[-e])
		if h != 0 {
			return dst, false, false
		}
		den = l
	}
	n := len(r.inLast)
	var whole [MaxRadixUnits]uint64
	for i := range n - 1 {
		dh, d := bits.Mul64(den, r.inLastWords[i])
		if dh != 0 || hi >= d {
			return dst, false, false // a divisor or a quotient beyond a word
		}
		whole[i], lo = bits.Div64(hi, lo, d)
		hi = 0
	}
	last, inexact, ok := RoundUint64(lo, den, p)
	if !ok {
		return dst, false, false
	}
	carry := last.CmpUint64(r.stepWords[n-2]) >= 0
	if carry {
		whole[n-2]++
		for i := n - 2; i > 0; i-- {
			if whole[i] >= r.stepWords[i-1] {
				whole[i] -= r.stepWords[i-1]
				whole[i-1]++
			}
		}
		wrapped := true
		for i := range n - 1 {
			wrapped = wrapped && whole[i] == 0
		}
		if wrapped {
			// The first part wrapped around its word: let Split answer.
			return dst, false, false
		}
	}
	buf := dst
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
	return buf, inexact, true
}
