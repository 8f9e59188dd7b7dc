package exact

import (
	"math/big"

	"github.com/cockroachdb/apd/v3"
)

// DecimalRat returns a finite decimal as a rational.
func DecimalRat(d *apd.Decimal) *big.Rat {
	n := d.Coeff.MathBigInt()
	if d.Negative {
		n.Neg(n)
	}
	r := new(big.Rat).SetInt(n)
	if e := int64(d.Exponent); e >= 0 {
		return r.Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(e), nil)))
	} else {
		return r.Quo(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(-e), nil)))
	}
}

// TruncateRat returns r rounded toward zero to n significant digits.
func TruncateRat(r *big.Rat, n int) apd.Decimal {
	lo, hi := bracketRat(r, n)
	if r.Sign() < 0 {
		return hi
	}
	return lo
}

// bracketRat returns the decimals of n significant digits just below and
// just above r, one unit of the last digit apart (r strictly between them
// when its decimal does not terminate within n digits).
func bracketRat(r *big.Rat, n int) (lo, hi apd.Decimal) {
	a := new(big.Rat).Abs(r)
	if a.Sign() == 0 {
		hi.SetFinite(1, -int32(n))
		lo.Set(&hi)
		lo.Negative = true
		return lo, hi
	}
	// e with 10^(n-1) <= a·10^e < 10^n.
	num, den := a.Num(), a.Denom()
	e := n - (len(num.String()) - len(den.String()))
	scaled := func(e int) *big.Int {
		x, y := new(big.Int).Set(num), new(big.Int).Set(den)
		if e >= 0 {
			x.Mul(x, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(e)), nil))
		} else {
			y.Mul(y, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-e)), nil))
		}
		return x.Quo(x, y)
	}
	f := scaled(e)
	for len(f.String()) > n {
		e--
		f = scaled(e)
	}
	for len(f.String()) < n {
		e++
		f = scaled(e)
	}
	lo.Coeff.SetMathBigInt(f)
	lo.Exponent = -int32(e)
	hi.Coeff.SetMathBigInt(new(big.Int).Add(f, big.NewInt(1)))
	hi.Exponent = -int32(e)
	if r.Sign() < 0 {
		lo.Negative, hi.Negative = true, true
		lo, hi = hi, lo
	}
	return lo, hi
}
