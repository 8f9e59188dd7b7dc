package exact

import (
	"math/big"

	"github.com/unitd/unitd/engine/internal/pi"
)

// AtRat returns m(r) exactly for a rational r, as At does for a decimal:
// a fraction whose decimal does not terminate (1/3) is evaluated without
// ever being written as a decimal, so that the one rounding (Round) is the
// only one. It returns ErrPole at the pole and ErrTooLarge when r's
// numerator or denominator exceeds MaxBits.
func (m *Map) AtRat(r *big.Rat) (Value, error) {
	n, d := r.Num(), r.Denom()
	if n.BitLen() > MaxBits || d.BitLen() > MaxBits {
		return Value{}, ErrTooLarge
	}
	// r = n/d; m(r) = (a·n + b·d) / (c·n + d_m·d).
	num := new(big.Int).Mul(m.a, n)
	if m.IsLinear() {
		return Value{Num: num, Den: new(big.Int).Mul(m.d, d), K: m.k}, nil
	}
	num.Add(num, new(big.Int).Mul(m.b, d))
	den := new(big.Int).Mul(m.c, n)
	den.Add(den, new(big.Int).Mul(m.d, d))
	switch den.Sign() {
	case 0:
		return Value{}, ErrPole
	case -1:
		num.Neg(num)
		den.Neg(den)
	}
	return Value{Num: num, Den: den, K: m.k}, nil
}

// Compare returns the sign of v − r (-1, 0 or +1). A value through π
// (K ≠ 0) is irrational unless zero, so it never equals r: it is compared
// through brackets of π^K, widened until both ends fall on one side of r.
func (v *Value) Compare(r *big.Rat) int {
	if v.K == 0 || v.Num.Sign() == 0 {
		return v.Rat().Cmp(r)
	}
	for d := 40; ; d *= 2 {
		lo, w, scale := pi.Bracket(v.K, d)
		// v lies between Num·lo and Num·(lo+w), over Den, times 10^(Exp−scale).
		a := Value{Num: new(big.Int).Mul(v.Num, lo), Den: v.Den, Exp: v.Exp - scale}
		b := Value{Num: new(big.Int).Mul(v.Num, new(big.Int).Add(lo, w)), Den: v.Den, Exp: v.Exp - scale}
		ca, cb := a.Rat().Cmp(r), b.Rat().Cmp(r)
		if ca == cb || d >= maxPiDigits {
			return ca
		}
	}
}
