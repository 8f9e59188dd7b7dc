package engine

import (
	"math/bits"

	"github.com/cockroachdb/apd/v3"
)

// π in machine words
//
// piWords is piFast (pifast.go) for the common case, a numerator and a
// denominator of one word each (degrees to radians: x/180) at a precision
// whose result fits a quotient: the same bracket of π^k, held in four
// words, the same divisions and the same decision, in fixed-width
// arithmetic instead of math/big. Whatever falls outside those bounds it
// leaves to piFast.

// maxPiWordsDigits is the largest precision piWords serves: the result's
// coefficient must fit a quotient (below 10^38) and the digits dropped,
// two words.
const maxPiWordsDigits = 38

// u256 is an unsigned integer of four words, least significant first.
type u256 [4]uint64

// mulWord returns x·y, or ok=false beyond 256 bits.
func (x *u256) mulWord(y uint64) (z u256, ok bool) {
	var carry uint64
	for i, w := range x {
		hi, lo := bits.Mul64(w, y)
		var c uint64
		z[i], c = bits.Add64(lo, carry, 0)
		carry = hi + c
	}
	return z, carry == 0
}

// divWord returns x/y and x mod y; y > 0.
func (x *u256) divWord(y uint64) (q u256, r uint64) {
	i := len(x) - 1
	for i > 0 && x[i] == 0 {
		i-- // a hardware division per word is the cost: skip the zero ones
	}
	for ; i >= 0; i-- {
		q[i], r = bits.Div64(r, x[i], y)
	}
	return q, r
}

// add returns x + y, or ok=false beyond 256 bits.
func (x *u256) add(y *u256) (z u256, ok bool) {
	var c uint64
	for i := range x {
		z[i], c = bits.Add64(x[i], y[i], c)
	}
	return z, c == 0
}

// shl1 returns 2·x, or ok=false beyond 256 bits.
func (x *u256) shl1() (z u256, ok bool) {
	for i := range x {
		z[i] = x[i] << 1
		if i > 0 {
			z[i] |= x[i-1] >> 63
		}
	}
	return z, x[3]>>63 == 0
}

func (x *u256) cmp(y *u256) int {
	for i := len(x) - 1; i >= 0; i-- {
		switch {
		case x[i] < y[i]:
			return -1
		case x[i] > y[i]:
			return 1
		}
	}
	return 0
}

// digits counts the decimal digits of x, 0 for zero.
func (x *u256) digits() int {
	n := 0
	for i := len(x) - 1; i >= 0; i-- {
		if x[i] != 0 {
			n = (i*64 + bits.Len64(x[i])) * 1233 >> 12 // the count or one less
			break
		}
	}
	if x.cmp(&pow10Words[n]) >= 0 {
		n++
	}
	return n
}

// pow10Words holds 10^0 … 10^77 in four words.
var pow10Words = func() (t [78]u256) {
	t[0] = u256{1}
	for i := 1; i < len(t); i++ {
		t[i], _ = t[i-1].mulWord(10)
	}
	return t
}()

// piWords sets q to (num/den)·π^k rounded half-even to p significant
// digits, as piFast and roundPi do, and reports whether it could decide;
// den > 0. See piFast for the method.
func piWords(q *quotient, num, den *apd.Decimal, k, p int) bool {
	if k == 0 || abs(k) > maxPiFastPow || p < 1 || p > maxPiWordsDigits || num.IsZero() ||
		num.Form != apd.Finite || den.Form != apd.Finite || den.Negative ||
		!num.Coeff.IsUint64() || !den.Coeff.IsUint64() {
		return false
	}
	n, d := num.Coeff.Uint64(), den.Coeff.Uint64()
	br := piFastBrackets(k, p)
	if !br.words || d == 0 {
		return false
	}
	// The value lies in (n·L, n·L + n·w)/d · 10^exp.
	t, ok := br.loWords.mulWord(n)
	if !ok {
		return false
	}
	wHi, wLo := bits.Mul64(n, br.widthWord)
	w := u256{wLo, wHi}
	if t.digits()-countDecimalDigits(d) < p+1 {
		return false // piFast scales n·L up first; rare (a long denominator)
	}
	quo, r := t.divWord(d) // n·L = quo·d + r
	m := quo.digits() - p  // digits to drop, >= 1
	if m < 1 || m > 2*19 {
		return false
	}
	// quo = q·10^m + mr, mr < 10^m.
	var mr u256
	if m <= 19 {
		var rem uint64
		quo, rem = quo.divWord(pow10[m])
		mr = u256{rem}
	} else {
		q1, ra := quo.divWord(pow10[19])
		var rb uint64
		quo, rb = q1.divWord(pow10[m-19])
		hi, lo := bits.Mul64(rb, pow10[19])
		lo, c := bits.Add64(lo, ra, 0)
		mr = u256{lo, hi + c}
	}
	if quo[2] != 0 || quo[3] != 0 {
		return false
	}
	// In units of 1/d below q·10^m·d: the lower end at pos = mr·d + r, the
	// upper at pos + n·w; the cell is 10^m·d wide.
	pos, ok1 := mr.mulWord(d)
	pos, ok2 := pos.add(&u256{r})
	cell, ok3 := pow10Words[m].mulWord(d)
	upper, ok4 := pos.add(&w)
	upper2, ok5 := upper.shl1()
	pos2, ok6 := pos.shl1()
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || !ok6 {
		return false
	}
	var up bool
	switch {
	case upper2.cmp(&cell) < 0: // both ends below the half: down
	case pos2.cmp(&cell) > 0 && upper.cmp(&cell) < 0: // both above the half, in the cell
		up = true
	default:
		return false
	}
	hi, lo := quo[1], quo[0]
	exp := int64(num.Exponent) - int64(den.Exponent) - int64(br.scale) + int64(m)
	if up {
		var c uint64
		lo, c = bits.Add64(lo, 1, 0)
		hi += c
		if p10 := pow10Words[p]; hi == p10[1] && lo == p10[0] {
			hi, lo = pow10Words[p-1][1], pow10Words[p-1][0]
			exp++
		}
	}
	if exp < apd.MinExponent || exp > apd.MaxExponent {
		return false
	}
	*q = quotient{hi: hi, lo: lo, exp: int32(exp), neg: num.Negative}
	return true
}
