package exact

import (
	"math/big"

	"github.com/cockroachdb/apd/v3"
)

// Comparisons
//
// A threshold of the unit preferences ("from 0.9 km") is an exact factor
// in the category's base unit, and a value reaches it when its magnitude
// there is at least the factor: CmpAbs decides that exactly, through π
// when the two carry different powers of it. Bound is its accelerator for
// values as they were written: the threshold in the source unit, held as
// two decimals around it, so that a value clear of both is compared in
// place, in machine words when it fits them.

// CmpAbs compares |v| with |t| exactly and returns -1, 0 or +1. When v and
// t carry different powers of π they are never equal unless both are zero
// (π^n is irrational for n ≠ 0): π^(v.K - t.K) is bracketed between two
// decimals, widened until the bracket decides (throughPi).
func CmpAbs(v *Value, t Factor) int {
	var n, d big.Int
	v.ratio(&n, &d)
	n.Abs(&n)
	tn := new(big.Int).Abs(t.R.Num())
	td := t.R.Denom()
	if v.K == t.K || n.Sign() == 0 || tn.Sign() == 0 {
		// n/d against tn/td, all non-negative: n·td against tn·d.
		var a, b big.Int
		a.Mul(&n, td)
		b.Mul(tn, &d)
		return a.Cmp(&b)
	}
	// n/d · π^k against tn/td with π^k in [lo, hi]/10^scale: n·lo·td
	// against tn·d·10^scale at the lower end, likewise at the upper.
	c := 0
	throughPi(v.K-t.K, comparePrecision, func(lo, hi *big.Int, scale int, last bool) bool {
		rhs := new(big.Int).Mul(tn, &d)
		rhs.Mul(rhs, pow10Big(scale))
		lhs := new(big.Int).Mul(&n, td)
		low := new(big.Int).Mul(lhs, lo).Cmp(rhs)
		high := new(big.Int).Mul(lhs, hi).Cmp(rhs)
		switch {
		case low >= 0:
			c = 1 // the lower end already reaches |t|: π^k is above lo
		case high < 0:
			c = -1
		case last:
			c = -1 // the lower end's decision
		default:
			return false
		}
		return true
	})
	return c
}

// comparePrecision sets the first bracket of CmpAbs: 40 digits of π^k.
const comparePrecision = 40 - 16

// ratio sets n/d to Num/Den · 10^Exp, the value without its power of π.
func (v *Value) ratio(n, d *big.Int) {
	n.Set(v.Num)
	d.Set(v.Den)
	if v.Exp >= 0 {
		n.Mul(n, pow10Big(v.Exp))
	} else {
		d.Mul(d, pow10Big(-v.Exp))
	}
}

// boundDigits is the precision of a Bound's decimals.
const boundDigits = 40

// Bound is a non-negative number t held as two decimals lo ≤ t ≤ hi of at
// most 40 significant digits (equal when t is such a decimal), so that a
// decimal can be compared with t as it is written: a magnitude at or above
// hi reaches t, one below lo does not, and only one in between needs t
// itself (CmpAbs). A Bound is immutable.
type Bound struct {
	lo, hi, nlo, nhi apd.Decimal // and their negations
	// words holds lo and hi as coefficients and exponents when both fit
	// a machine word and lo is not zero, for values that fit one too.
	words    bool
	wlo, whi uint64
	elo, ehi int
	zero     bool
}

// NewBound returns t/unit as a Bound: a threshold t in the units of a
// source whose factor onto t's unit is unit. ok is false when the two
// carry different powers of π (the quotient is no rational) or unit is
// not positive.
func NewBound(t, unit Factor) (b *Bound, ok bool) {
	if t.K != unit.K || unit.R.Sign() <= 0 {
		return nil, false
	}
	q := new(big.Rat).Quo(t.R, unit.R)
	q.Abs(q)
	b = &Bound{zero: q.Sign() == 0}
	if d, exact := ToDecimal(q); exact {
		b.lo.Set(&d)
		b.hi.Set(&d)
	} else {
		var n, den apd.Decimal
		n.Coeff.SetMathBigInt(q.Num())
		den.Coeff.SetMathBigInt(q.Denom())
		down := apd.BaseContext.WithPrecision(boundDigits)
		down.Rounding = apd.RoundFloor
		up := apd.BaseContext.WithPrecision(boundDigits)
		up.Rounding = apd.RoundCeiling
		if _, err := down.Quo(&b.lo, &n, &den); err != nil {
			return nil, false
		}
		if _, err := up.Quo(&b.hi, &n, &den); err != nil {
			return nil, false
		}
	}
	b.nlo.Neg(&b.lo)
	b.nhi.Neg(&b.hi)
	if b.lo.Coeff.IsUint64() && b.hi.Coeff.IsUint64() && !b.lo.IsZero() {
		b.words = true
		b.wlo, b.whi = b.lo.Coeff.Uint64(), b.hi.Coeff.Uint64()
		b.elo, b.ehi = int(b.lo.Exponent), int(b.hi.Exponent)
	}
	return b, true
}

// Reach compares |x| with the bound's number t: +1 when |x| ≥ t, -1 when
// |x| < t, and 0 when x lies within the bracket and only t itself can
// decide. x is finite.
func (b *Bound) Reach(x *apd.Decimal) int {
	if b.zero {
		return 1 // every magnitude reaches 0
	}
	if b.words && x.Form == apd.Finite && x.Coeff.IsUint64() {
		c, e := x.Coeff.Uint64(), int(x.Exponent)
		switch {
		case c == 0:
			return -1 // below a positive t
		case cmpMagnitude(c, e, b.whi, b.ehi) >= 0:
			return 1
		case cmpMagnitude(c, e, b.wlo, b.elo) < 0:
			return -1
		}
		return 0
	}
	var reached, below bool
	if x.Negative {
		reached, below = cmpDecimal(x, &b.nhi) <= 0, cmpDecimal(x, &b.nlo) > 0
	} else {
		reached, below = cmpDecimal(x, &b.hi) >= 0, cmpDecimal(x, &b.lo) < 0
	}
	switch {
	case reached:
		return 1
	case below:
		return -1
	}
	return 0
}

// cmpDecimal is a.Cmp(b) for finite decimals, in machine words when both
// coefficients fit one (apd's Cmp counts digits the slow way).
func cmpDecimal(a, b *apd.Decimal) int {
	if a.Form != apd.Finite || b.Form != apd.Finite || !a.Coeff.IsUint64() || !b.Coeff.IsUint64() {
		return a.Cmp(b)
	}
	x, y := a.Coeff.Uint64(), b.Coeff.Uint64()
	sa, sb := signOf(x, a.Negative), signOf(y, b.Negative)
	switch {
	case sa != sb:
		return cmpInt(sa, sb)
	case sa == 0:
		return 0
	}
	// Same sign, both non-zero: compare the magnitudes, then flip for
	// negatives.
	c := cmpMagnitude(x, int(a.Exponent), y, int(b.Exponent))
	if sa < 0 {
		return -c
	}
	return c
}

func signOf(c uint64, neg bool) int {
	switch {
	case c == 0:
		return 0
	case neg:
		return -1
	}
	return 1
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// cmpMagnitude compares x·10^ex with y·10^ey, x and y non-zero.
func cmpMagnitude(x uint64, ex int, y uint64, ey int) int {
	dx, dy := digits64(x)+ex, digits64(y)+ey // the position of the leading digit
	if dx != dy {
		return cmpInt(dx, dy)
	}
	// Same leading position: align the shorter coefficient; a shift that
	// would overflow a word means that side is the larger.
	for ex > ey {
		if x > maxUint64/10 {
			return 1
		}
		x *= 10
		ex--
	}
	for ey > ex {
		if y > maxUint64/10 {
			return -1
		}
		y *= 10
		ey--
	}
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

const maxUint64 = 1<<64 - 1
