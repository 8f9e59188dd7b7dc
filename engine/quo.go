package engine

import (
	"math/bits"

	"github.com/cockroachdb/apd/v3"
)

// maxFastPrecision is the largest precision quo128 serves: a quotient of
// up to 36 digits (plus one from rounding up) fits in 128 bits.
const maxFastPrecision = 36

// quotient is a decimal with a 128-bit coefficient hi·2^64 + lo.
type quotient struct {
	hi, lo uint64
	exp    int32
	neg    bool
}

// quo128 sets q to (hi·2^64 + lo)/m · 10^exp, negated if neg, rounded
// half-even to p significant digits.
func quo128(q *quotient, hi, lo, m uint64, exp int32, neg bool, p int) (inexact, ok bool) {
	if p > maxFastPrecision || m == 0 || m >= 1<<59 { // r*10 and 2r must not overflow
		return false, false
	}
	if hi == 0 && lo == 0 {
		*q = quotient{}
		return false, true
	}
	// The integer quotient first, then one digit per step until it has p
	// significant digits or the division comes out even.
	qhi, r := hi/m, hi%m
	qlo, r := bits.Div64(r, lo, m)
	digits, fits := countDigits128(qhi, qlo)
	if !fits || digits > p {
		return false, false // the integer part itself needs rounding
	}
	k := int32(0)
	if digits == 0 && r != 0 {
		// Skip the zeros after the point at once: the first significant
		// digit comes from r·10^j with the smallest j where r·10^j >= m.
		j := countDecimalDigits(m) - countDecimalDigits(r)
		if r*pow10[j] < m {
			j++
		}
		r *= pow10[j-1]
		k += int32(j - 1)
	}
	for digits < p && r != 0 {
		// Up to 19 digits per step: r < m < 2^59, so r·10^c fits in 128
		// bits and its quotient by m in 64.
		c := min(p-digits, 19)
		h, l := bits.Mul64(r, pow10[c])
		var chunk uint64
		chunk, r = bits.Div64(h, l, m)
		var carry uint64
		qhi, qlo = mulPow10(qhi, qlo, pow10[c])
		qlo, carry = bits.Add64(qlo, chunk, 0)
		qhi += carry
		k += int32(c)
		digits += c
	}
	if r != 0 {
		inexact = true
		if twice := 2 * r; twice > m || twice == m && qlo&1 == 1 {
			var carry uint64
			qlo, carry = bits.Add64(qlo, 1, 0)
			qhi += carry
		}
	}
	*q = quotient{hi: qhi, lo: qlo, exp: exp - k, neg: neg}
	return inexact, true
}

// countDigits128 counts the decimal digits of hi·2^64 + lo; fits is false
// from 10^38 on, beyond what a quotient may hold.
func countDigits128(hi, lo uint64) (n int, fits bool) {
	if hi == 0 {
		return countDecimalDigits(lo), true
	}
	if hi >= 1e19/2 { // about 9.2·10^37 and more: stay well inside 128 bits
		return 0, false
	}
	high, _ := bits.Div64(hi, lo, 1e19)
	return countDecimalDigits(high) + 19, true
}

// mul128 returns a·b·c as hi·2^64 + lo, or ok=false if it needs more
// than 128 bits.
func mul128(a, b, c uint64) (hi, lo uint64, ok bool) {
	h, l := bits.Mul64(a, b)
	if c == 1 {
		return h, l, true
	}
	p1, lo := bits.Mul64(l, c)
	q1, q0 := bits.Mul64(h, c)
	hi, carry := bits.Add64(q0, p1, 0)
	return hi, lo, q1 == 0 && carry == 0
}

// mulPow10 multiplies hi·2^64 + lo by f (a power of ten).
func mulPow10(hi, lo, f uint64) (uint64, uint64) {
	h, l := bits.Mul64(lo, f)
	return hi*f + h, l
}

// pow10 holds 10^0 … 10^19.
var pow10 = func() (t [20]uint64) {
	t[0] = 1
	for i := 1; i < len(t); i++ {
		t[i] = t[i-1] * 10
	}
	return t
}()

func countDecimalDigits(x uint64) int {
	// Len64·log10(2) rounded down (1233/4096) is the count or one less.
	n := bits.Len64(x) * 1233 >> 12
	if x >= pow10[n] {
		n++
	}
	return n
}

// decimal converts q to an apd decimal.
func (q *quotient) decimal(d *apd.Decimal) {
	d.Coeff.SetUint64(q.hi)
	d.Coeff.Lsh(&d.Coeff, 64)
	var low apd.BigInt
	low.SetUint64(q.lo)
	d.Coeff.Or(&d.Coeff, &low)
	d.Form = apd.Finite
	d.Negative = q.neg && (q.hi != 0 || q.lo != 0)
	d.Exponent = q.exp
}

// s128 is a signed 128-bit integer: magnitude hi·2^64 + lo and a sign.
type s128 struct {
	hi, lo uint64
	neg    bool
}

// product returns ±a·b·c, or ok=false beyond 128 bits.
func product(a, b, c uint64, neg bool) (s128, bool) {
	hi, lo, ok := mul128(a, b, c)
	return s128{hi, lo, neg && (hi != 0 || lo != 0)}, ok
}

// add returns x + y, or ok=false on overflow.
func (x s128) add(y s128) (s128, bool) {
	if x.neg == y.neg {
		lo, carry := bits.Add64(x.lo, y.lo, 0)
		hi, carry := bits.Add64(x.hi, y.hi, carry)
		return s128{hi, lo, x.neg}, carry == 0
	}
	if x.hi < y.hi || x.hi == y.hi && x.lo < y.lo {
		x, y = y, x
	}
	lo, borrow := bits.Sub64(x.lo, y.lo, 0)
	hi, _ := bits.Sub64(x.hi, y.hi, borrow)
	return s128{hi, lo, x.neg && (hi != 0 || lo != 0)}, true
}

// roundWords sets q to d rounded half-even to p significant digits, as
// apd's Round does, when d's coefficient has at most three words and p is
// at most maxFastPrecision: the formula paths end with such a rounding of
// a 42-digit working value. The dropped digits are divided off in chunks
// of at most 19, lowest first; only the last chunk's remainder is compared
// with half, the others only say whether anything non-zero was dropped.
func roundWords(q *quotient, d *apd.Decimal, p int) (inexact, ok bool) {
	if p > maxFastPrecision || d.Form != apd.Finite {
		return false, false
	}
	ws := d.Coeff.Bits()
	if len(ws) > 3 || bits.UintSize != 64 {
		return false, false
	}
	var w [3]uint64
	for i, x := range ws {
		w[i] = uint64(x)
	}
	drop := digits192(w) - p
	exp := int64(d.Exponent)
	var sticky bool
	var top, topDiv uint64 // the last chunk's remainder and divisor
	for drop > 0 {
		c := min(drop, 19)
		div := pow10[c]
		if top != 0 {
			sticky = true
		}
		var r uint64
		w[2], r = w[2]/div, w[2]%div
		w[1], r = bits.Div64(r, w[1], div)
		w[0], r = bits.Div64(r, w[0], div)
		top, topDiv = r, div
		drop -= c
		exp += int64(c)
	}
	if w[2] != 0 || exp > apd.MaxExponent || exp < apd.MinExponent {
		return false, false // cannot happen for p <= 36; be safe
	}
	hi, lo := w[1], w[0]
	if topDiv != 0 {
		half := topDiv / 2 // topDiv is a power of ten, even
		inexact = top != 0 || sticky
		if top > half || top == half && (sticky || lo&1 == 1) {
			var carry uint64
			lo, carry = bits.Add64(lo, 1, 0)
			hi += carry
			if n, _ := countDigits128(hi, lo); n > p {
				// 99…9 rounded up to 10^p: one digit fewer.
				hi, lo = 0, 0
				if p-1 < len(pow10) {
					lo = pow10[p-1]
				} else {
					hi, lo = mulPow10(0, pow10[18], pow10[p-1-18])
				}
				exp++
			}
		}
	} else if n, fits := countDigits128(hi, lo); !fits || n > maxFastPrecision+2 {
		return false, false
	}
	*q = quotient{hi: hi, lo: lo, exp: int32(exp), neg: d.Negative && (hi != 0 || lo != 0)}
	return inexact, true
}

// digits192 counts the decimal digits of w[2]·2^128 + w[1]·2^64 + w[0].
func digits192(w [3]uint64) int {
	n := 0
	for w[2] != 0 || w[1] != 0 {
		// Divide by 10^19 until two words remain... one word.
		var r uint64
		w[2], r = w[2]/pow10[19], w[2]%pow10[19]
		w[1], r = bits.Div64(r, w[1], pow10[19])
		w[0], _ = bits.Div64(r, w[0], pow10[19])
		n += 19
	}
	return n + countDecimalDigits(w[0])
}
