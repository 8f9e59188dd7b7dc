package engine

import (
	"math/big"

	"github.com/cockroachdb/apd/v3"
)

// factorDigits is how many significant digits an irrational factor is
// written with.
const factorDigits = 50

// factorText writes an exact factor as a decimal when it terminates, as
// p/q in lowest terms when it is rational, and otherwise (through π)
// correctly rounded to 50 significant digits, with exact false.
func factorText(f piRat) (string, bool) {
	if f.k == 0 {
		return ratText(f.r), true
	}
	var num, den, out apd.Decimal
	num.Coeff.SetMathBigInt(new(big.Int).Abs(f.r.Num()))
	num.Negative = f.r.Sign() < 0
	den.Coeff.SetMathBigInt(f.r.Denom())
	roundPi(&out, &num, &den, f.k, factorDigits) //nolint:errcheck // finite operands
	return FormatDecimal(&out), false
}

// ratText writes r as a terminating decimal, or as p/q.
func ratText(r *big.Rat) string {
	if d, ok := ratToDecimal(r); ok {
		return FormatDecimal(&d)
	}
	return r.RatString()
}

// Factor is the exact factor from the expression to the coherent SI unit
// of its dimension, written as factorText does, and whether it is exact
// as written.
func (e *Expression) Factor() (string, bool) { return factorText(e.factor) }
