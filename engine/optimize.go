package engine

import (
	"math/bits"

	"github.com/cockroachdb/apd/v3"
)

// The word-sized accelerators
//
// Most conversions multiply a value of a few digits by a factor of a few
// digits. For those, the exact evaluation and its rounding run in 128-bit
// integers (quo128, in quo.go) instead of apd's big-integer arithmetic,
// yielding exactly the digits and the inexact flag the plain path yields.
// They are accelerators only: each declines (ok=false) whatever it cannot
// serve, and the plain path then answers.
//
// optimize is the one gate in front of all of them. Tests run the whole
// engine suite with it on and off (see TestMain), as strconv's tests do
// with SetOptimize(false), so both ways stay exact and identical.

// optimize gates every accelerator of the engine: the word-sized
// conversion paths and the fixed-point logarithms and exponentials. Each
// accelerator returns exactly what the plain path returns, or declines; the
// engine's tests run once with it on and once with it off (TestMain).
var optimize = true

// accelerate converts x from A to B when the maps and the value fit in
// machine words: no formula, no π between them, and factors or integer
// affine maps that fit. The domain has been checked already.
func accelerate(out *number, x *apd.Decimal, A, B *conversion, p int) (inexact, ok bool) {
	if A.formula != nil || B.formula != nil || A.pi != B.pi {
		return false, false
	}
	a, b := &A.post, &B.post
	// y = x·aA·cB / (cA·aB), all in words.
	if a.word && b.word && x.Coeff.IsUint64() {
		hi, lo, fits := mul128(x.Coeff.Uint64(), a.aWord, b.cWord)
		dhi, den := bits.Mul64(a.cWord, b.aWord)
		if fits && dhi == 0 {
			if inexact, ok := quo128(&out.q, hi, lo, den, x.Exponent+a.aExp-b.aExp, x.Negative, p); ok {
				out.fast = true
				return inexact, true
			}
		}
	}
	if (a.hasOffset || b.hasOffset) && a.ints.ok && b.ints.ok {
		if inexact, ok := affineWords(&out.q, x, a, b, p); ok {
			out.fast = true
			return inexact, true
		}
	}
	return false, false
}

func affineWords(q *quotient, x *apd.Decimal, A, B *affine, p int) (inexact, ok bool) {
	a, b := &A.ints, &B.ints
	if !x.Coeff.IsUint64() || x.Exponent > 19 || x.Exponent < -19 {
		return false, false
	}
	xc, scale, exp := x.Coeff.Uint64(), uint64(1), x.Exponent
	if exp >= 0 {
		// A whole number with an exponent (4e1): its integer value.
		hi, lo := bits.Mul64(xc, pow10[exp])
		if hi != 0 {
			return false, false
		}
		xc, exp = lo, 0
	} else {
		scale = pow10[-exp]
	}
	t, ok1 := product(xc, a.A, b.C, x.Negative)
	k1, ok2 := product(a.B, b.C, scale, a.bNeg)
	k2, ok3 := product(b.B, a.C, scale, !b.bNeg)
	num, ok4 := t.add(k1)
	num, ok5 := num.add(k2)
	dhi, den := bits.Mul64(a.C, b.A)
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || dhi != 0 {
		return false, false
	}
	return quo128(q, num.hi, num.lo, den, exp, num.neg, p)
}

// quoFast sets q to num/den rounded half-even to p significant digits, as
// apd's Quo does, when both coefficients fit in a machine word (the common
// case: a decimal value times an exact factor). It works on a 128-bit
// quotient, digit by digit, instead of apd's scaled big-integer division,
// which allocates. It reports ok=false when it cannot serve the operands.
func quoFast(q *quotient, num, den *apd.Decimal, p int) (inexact, ok bool) {
	if !num.Coeff.IsUint64() || !den.Coeff.IsUint64() {
		return false, false
	}
	return quo128(q, 0, num.Coeff.Uint64(), den.Coeff.Uint64(), num.Exponent-den.Exponent, num.Negative != den.Negative, p)
}
