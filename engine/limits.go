package engine

import (
	"fmt"
	"math/big"
)

// MaxUnits bounds the units one Build compiles, the ones prefixes generate
// included: about a second and 100 MB of compiling and checking at the
// most, where 20,000 declared units with SI prefixes would be half a
// million units.
const MaxUnits = 20_000

// MaxSpellings bounds the symbols, names, plurals and aliases of the
// units one Build indexes, prefixed ones included: each costs a few
// hundred bytes of index, and a catalog giving many aliases to prefixed
// units would otherwise index millions.
const MaxSpellings = 100_000

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
