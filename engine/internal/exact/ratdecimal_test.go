package exact

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/cockroachdb/apd/v3"
)

// TestBracketRat: for random rationals of either sign, the two decimals
// of n significant digits around r hold it (strictly, unless r is one of
// them), are one unit of their last digit apart, and TruncateRat is the
// one nearer zero; DecimalRat reads each back exactly.
func TestBracketRat(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		num := big.NewInt(rng.Int64N(1e12) + 1)
		den := new(big.Int).Exp(big.NewInt(10), big.NewInt(rng.Int64N(20)), nil)
		den.Mul(den, big.NewInt(rng.Int64N(999)+1))
		r := new(big.Rat).SetFrac(num, den)
		if rng.IntN(2) == 0 {
			r.Neg(r)
		}
		n := 1 + rng.IntN(25)
		lo, hi := bracketRat(r, n)
		l, h := DecimalRat(&lo), DecimalRat(&hi)
		if l.Cmp(r) > 0 || h.Cmp(r) < 0 || l.Cmp(h) >= 0 {
			t.Fatalf("%v to %d digits: %s, %s do not hold it", r, n, lo.String(), hi.String())
		}
		for _, d := range []*big.Int{lo.Coeff.MathBigInt(), hi.Coeff.MathBigInt()} {
			if digits := len(d.String()); digits != n && !(digits == n+1 && d.String()[0] == '1') {
				t.Fatalf("%v to %d digits: %s has %d digits", r, n, d, digits)
			}
		}
		ulp := new(big.Rat).Sub(h, l)
		var unit apd.Decimal
		unit.SetFinite(1, lo.Exponent)
		if ulp.Cmp(DecimalRat(&unit)) != 0 {
			t.Fatalf("%v to %d digits: %s and %s are %v apart", r, n, lo.String(), hi.String(), ulp)
		}
		tr := TruncateRat(r, n)
		if want := map[bool]*big.Rat{true: l, false: h}[r.Sign() > 0]; DecimalRat(&tr).Cmp(want) != 0 {
			t.Fatalf("TruncateRat(%v, %d) = %s, want the bracket's end nearer zero", r, n, tr.String())
		}
	}
}
