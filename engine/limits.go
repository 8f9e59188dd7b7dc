package engine

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/cockroachdb/apd/v3"
)

// Bounds on the exact numbers the compiler builds. Catalog factors have
// tens of digits; a factor such as (((9^99)^99)^99)^99 would have ninety
// million and take forever to compute, so every exact number a factor or
// offset expression builds must fit in maxExactDigits decimal digits,
// numerator and denominator each.
const maxExactDigits = 1000

// maxExactBits is maxExactDigits in bits, rounded up.
const maxExactBits = maxExactDigits*3322/1000 + 1

var errExactTooLarge = fmt.Errorf("exact number with more than %d digits", maxExactDigits)

// checkExactSize refuses a rational whose numerator or denominator is
// longer than maxExactDigits.
func checkExactSize(r *big.Rat) error {
	if r.Num().BitLen() > maxExactBits || r.Denom().BitLen() > maxExactBits {
		return errExactTooLarge
	}
	return nil
}

// checkPowSize refuses base^n when the result would be too long, before
// computing it: its length is about |n| times the base's.
func checkPowSize(base *big.Rat, n int) error {
	bits := max(base.Num().BitLen(), base.Denom().BitLen())
	if bits > 1 && int64(bits-1)*int64(abs(n)) > maxExactBits {
		return errExactTooLarge
	}
	return nil
}

// truncateText shortens s to at most n bytes for a message, on a rune
// boundary, marking the cut.
func truncateText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// Bounds on what one conversion through a rational formula may build.
// Values have at most MaxValueLength digits and catalog literals a few
// dozen, so honest formulas stay far below these; a formula that squares
// its input again and again (let a = x*x; let b = a*a; …) would otherwise
// double its digits at each step and take seconds per conversion.
const (
	maxFormulaBits     = 10_000 * 3322 / 1000 // about 10,000 decimal digits
	maxFormulaExponent = 100_000              // |exponent| of a decimal
)

// errFormulaTooLarge is a formula step whose exact result would be larger
// than the bounds above; the conversion is out of range.
var errFormulaTooLarge = errors.New("the formula's exact intermediate result is too large to compute")

// checkFracSize refuses a fraction with too many digits or too large an
// exponent in its numerator or denominator.
func checkFracSize(r *frac) error {
	for _, d := range [2]*apd.Decimal{&r.n, &r.d} {
		if d.Coeff.BitLen() > maxFormulaBits || d.Exponent > maxFormulaExponent || d.Exponent < -maxFormulaExponent {
			return errFormulaTooLarge
		}
	}
	return nil
}
