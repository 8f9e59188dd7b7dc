package exact

import "math/big"

// FactorDigits is how many significant digits an irrational factor is
// written with.
const FactorDigits = 50

// FactorText writes an exact factor as a decimal when it terminates, as
// p/q in lowest terms when it is rational, and otherwise (through π)
// correctly rounded to 50 significant digits, with exact false.
func FactorText(f Factor) (string, bool) {
	if f.K == 0 {
		return RatText(f.R), true
	}
	v := NewValue(f.R, f.K)
	d, _ := Round(&v, FactorDigits)
	return d.String(), false
}

// RatText writes r as a terminating decimal, or as p/q.
func RatText(r *big.Rat) string {
	if d, ok := ToDecimal(r); ok {
		return FormatDecimal(&d)
	}
	return r.RatString()
}
