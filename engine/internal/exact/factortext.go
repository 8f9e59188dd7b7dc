package exact

import "math/big"

// factorDigits is how many significant digits an irrational factor is
// written with.
const factorDigits = 50

// FactorText writes an exact factor as a decimal when it terminates, as
// p/q in lowest terms when it is rational, and otherwise (through π)
// correctly rounded to 50 significant digits, with exact false.
func FactorText(f Factor) (string, bool) {
	if f.K == 0 {
		return ratText(f.R), true
	}
	v := NewValue(f.R, f.K)
	d, _ := Round(&v, factorDigits)
	return d.String(), false
}

// ratText writes r as a terminating decimal, or as p/q.
func ratText(r *big.Rat) string {
	if d, ok := ToDecimal(r); ok {
		return FormatDecimal(&d)
	}
	return r.RatString()
}
