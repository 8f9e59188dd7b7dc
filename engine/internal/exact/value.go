package exact

import (
	"math/big"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine/internal/pi"
)

// Value is an exact number Num/Den · 10^Exp · π^K with Den > 0: a map's
// value at a decimal. It is rational when K is 0.
type Value struct {
	Num, Den *big.Int
	Exp, K   int
}

// Sign returns -1, 0 or +1.
func (v *Value) Sign() int { return v.Num.Sign() }

// Rat returns Num/Den · 10^Exp, the value without its power of π.
func (v *Value) Rat() *big.Rat {
	r := new(big.Rat).SetFrac(v.Num, v.Den)
	if v.Exp >= 0 {
		return r.Mul(r, new(big.Rat).SetInt(pow10Big(v.Exp)))
	}
	return r.Quo(r, new(big.Rat).SetInt(pow10Big(-v.Exp)))
}

// NewValue returns the value r·π^k.
func NewValue(r *big.Rat, k int) Value {
	return Value{Num: new(big.Int).Set(r.Num()), Den: new(big.Int).Set(r.Denom()), K: k}
}

// Mul returns v·r·π^k, for a factor applied after evaluation.
func (v Value) Mul(r *big.Rat, k int) Value {
	return Value{
		Num: new(big.Int).Mul(v.Num, r.Num()),
		Den: new(big.Int).Mul(v.Den, r.Denom()),
		Exp: v.Exp, K: v.K + k,
	}
}

// maxPiDigits ends the widening of a bracket of π: a value within about
// 10^-5000 (relative) of a rounding boundary takes the lower end's
// rounding. No value a caller can send comes near it.
const maxPiDigits = 5000

// Round returns v rounded half-even to p significant digits (1 <= p), and
// whether that changed it: the one rounding of the engine. A value through
// π (K ≠ 0, Num ≠ 0) is never exact; its digits are those of the exact
// value, found by bracketing π^K between two decimals and widening them
// until both ends round alike. Round uses big integers only; RoundWords
// tries machine words first.
func Round(v *Value, p int) (Decimal, bool) {
	neg := v.Num.Sign() < 0
	n := new(big.Int).Abs(v.Num)
	if v.K == 0 || n.Sign() == 0 {
		return divBig(n, v.Den, v.Exp, neg, p)
	}
	var r Decimal
	throughPi(v.K, p, func(lo, hi *big.Int, scale int, last bool) bool {
		a, _ := divBig(new(big.Int).Mul(n, lo), v.Den, v.Exp-scale, neg, p)
		b, _ := divBig(new(big.Int).Mul(n, hi), v.Den, v.Exp-scale, neg, p)
		r = a
		return a.Exp == b.Exp && a.big.Cmp(b.big) == 0
	})
	return r, true
}

// throughPi is how every decision through π is taken (a rounding, a
// split into parts, a comparison): try is called with brackets lo ≤
// π^k·10^scale ≤ hi of p+pi.Guard digits, then twice as many, and so
// on, until it reports that both ends decided alike; at maxPiDigits
// digits (last) it is called once more and the caller takes the lower
// end's decision. No value a caller can send comes that close to a
// boundary, but the rule is the same for everyone.
func throughPi(k, p int, try func(lo, hi *big.Int, scale int, last bool) bool) {
	for d := p + pi.Guard; ; d *= 2 {
		lo, w, scale := bracket(k, p, d)
		last := d >= maxPiDigits
		if try(lo, new(big.Int).Add(lo, w), scale, last) || last {
			return
		}
	}
}

// bracket returns a bracket of π^k with d digits: from pi's table when d
// is the first attempt for a precision it holds.
func bracket(k, p, d int) (lo, w *big.Int, scale int) {
	if br := pi.Words(k, p); br.OK && d == p+pi.Guard {
		lo = new(big.Int)
		for i := 3; i >= 0; i-- {
			lo.Lsh(lo, 64).Or(lo, new(big.Int).SetUint64(br.Lo[i]))
		}
		return lo, new(big.Int).SetUint64(br.Width), br.Scale
	}
	return pi.Bracket(k, d)
}

// RoundWith is RoundWords when words is set, else Round: the same digits
// and flag either way.
func RoundWith(v *Value, p int, words bool) (Decimal, bool) {
	if words {
		return RoundWords(v, p)
	}
	return Round(v, p)
}

// RoundWords is Round that first tries machine words for a numerator of
// up to 256 bits and a denominator below 2^59, at a precision of at most
// 38 digits; it returns the same digits and flag either way.
func RoundWords(v *Value, p int) (Decimal, bool) {
	if u, neg, ok := toWords(v.Num); ok && v.Den.IsUint64() {
		var r Decimal
		if inexact, ok := roundWords(&r, u, neg, v.Den.Uint64(), v.Exp, v.K, p); ok {
			return r, inexact
		}
	}
	return Round(v, p)
}

// RoundUint64 is RoundWords for the fraction num/den of two words, with
// no big integer in between; ok is false when the word path cannot serve
// it (then Round can).
func RoundUint64(num, den uint64, p int) (d Decimal, inexact, ok bool) {
	if den == 0 {
		return d, false, false
	}
	inexact, ok = roundWords(&d, u256{num}, false, den, 0, 0, p)
	return d, inexact, ok
}

// roundWords is the word path of Round for |num| = u, a one-word
// denominator and precision p; ok is false when it cannot serve them.
func roundWords(r *Decimal, u u256, neg bool, d uint64, exp, k, p int) (inexact, ok bool) {
	if k == 0 || u.isZero() {
		return divWords(r, u, d, exp, neg, p)
	}
	br := pi.Words(k, p)
	if !br.OK {
		return false, false
	}
	var lo u256
	var ok1 bool
	bl := u256(br.Lo)
	if u[1]|u[2]|u[3] == 0 {
		lo, ok1 = bl.mulWord(u[0]) // a value of one word: degrees
	} else {
		lo, ok1 = u.mul(bl)
	}
	w, ok2 := u.mulWord(br.Width)
	hi, ok3 := lo.add(&w)
	if !ok1 || !ok2 || !ok3 {
		return false, false
	}
	if bracketWords(r, lo, w, d, exp-br.Scale, neg, p) {
		return true, true
	}
	var a, b Decimal
	ia, okA := divWords(&a, lo, d, exp-br.Scale, neg, p)
	ib, okB := divWords(&b, hi, d, exp-br.Scale, neg, p)
	// Both ends inexact: both coefficients have exactly p digits, so equal
	// words are equal values.
	if okA && okB && ia && ib && a == b {
		*r = a
		return true, true
	}
	return false, false
}

// toWords returns |x| in four words and x's sign, or ok=false.
func toWords(x *big.Int) (u u256, neg bool, ok bool) {
	ws := x.Bits()
	if len(ws) > 4 || bitsPerWord != 64 {
		return u, false, false
	}
	for i, w := range ws {
		u[i] = uint64(w)
	}
	return u, x.Sign() < 0, true
}

const bitsPerWord = 32 << (^uint(0) >> 63)

// RoundDecimal returns x rounded half-even to p significant digits and
// whether that changed it: Round of x as a value, for a result computed
// in decimals (a formula's). With words set it tries machine words first.
func RoundDecimal(x *apd.Decimal, p int, words bool) (Decimal, bool) {
	if words && x.Form == apd.Finite && bitsPerWord == 64 {
		if ws := x.Coeff.Bits(); len(ws) <= 4 {
			var u u256
			for i, w := range ws {
				u[i] = uint64(w)
			}
			var r Decimal
			if inexact, ok := divWords(&r, u, 1, int(x.Exponent), x.Negative, p); ok {
				return r, inexact
			}
		}
	}
	n := x.Coeff.MathBigInt()
	if x.Negative {
		n.Neg(n)
	}
	v := Value{Num: n, Den: bigOne, Exp: int(x.Exponent)}
	return Round(&v, p)
}

// Exact returns v as a decimal when it is one without rounding: K = 0 and
// Den a power of ten.
func (v *Value) Exact() (Decimal, bool) {
	if v.K != 0 {
		return Decimal{}, false
	}
	j := digitsBig(v.Den) - 1
	if v.Den.Cmp(pow10Big(j)) != 0 {
		return Decimal{}, false
	}
	return Decimal{big: new(big.Int).Abs(v.Num), Exp: v.Exp - j, Neg: v.Num.Sign() < 0}, true
}
