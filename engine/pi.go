package engine

import (
	"math/big"
	"sync"

	"github.com/cockroachdb/apd/v3"
)

// piRat is an exact number r·π^k: a rational times an integer power of π.
// Factors carry π this way so that it cancels exactly: a degree is
// π/180 rad and a revolution 2π rad, so revolutions to degrees is exactly
// 360.
type piRat struct {
	r *big.Rat
	k int
}

func ratOne() piRat { return piRat{r: big.NewRat(1, 1)} }

func (a piRat) mul(b piRat) piRat {
	return piRat{r: new(big.Rat).Mul(a.r, b.r), k: a.k + b.k}
}

// quo returns a/b; b must not be zero.
func (a piRat) quo(b piRat) piRat {
	return piRat{r: new(big.Rat).Quo(a.r, b.r), k: a.k - b.k}
}

// pow returns a^n; a must not be zero when n < 0.
func (a piRat) pow(n int) piRat {
	r := big.NewRat(1, 1)
	b := a.r
	if n < 0 {
		b = new(big.Rat).Inv(a.r)
	}
	for range abs(n) {
		r.Mul(r, b)
	}
	return piRat{r: r, k: a.k * n}
}

func (a piRat) isOne() bool { return a.k == 0 && a.r.Cmp(bigRatOne) == 0 }

var bigRatOne = big.NewRat(1, 1)

// piCache holds π to the largest number of digits computed so far, and
// the truncations asked for.
var piCache struct {
	sync.Mutex
	digits int
	scaled *big.Int // floor(π·10^digits)
	bySize map[int]*apd.BigInt
}

// piScaled returns floor(π·10^n) for n >= 1. The caller must not modify
// it.
func piScaled(n int) *apd.BigInt {
	piCache.Lock()
	defer piCache.Unlock()
	if c, ok := piCache.bySize[n]; ok {
		return c
	}
	if piCache.bySize == nil {
		piCache.bySize = map[int]*apd.BigInt{}
	}
	if piCache.digits < n {
		piCache.digits, piCache.scaled = computePi(n)
	}
	t := new(big.Int).Quo(piCache.scaled, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(piCache.digits-n)), nil))
	c := new(apd.BigInt).SetMathBigInt(t)
	piCache.bySize[n] = c
	return c
}

// computePi returns floor(π·10^size) for some size >= n, computed with
// Machin's formula π = 16·atan(1/5) − 4·atan(1/239) in integers.
func computePi(n int) (int, *big.Int) {
	size := max(n, 2*piCache.digits, 160)
	guard := 10
	unit := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(size+guard)), nil)
	atanInv := func(x int64) *big.Int {
		// atan(1/x)·unit = Σ (−1)^i unit / ((2i+1)·x^(2i+1)), truncated;
		// each term errs by less than one, far inside the guard digits.
		sum := new(big.Int)
		term := new(big.Int).Quo(unit, big.NewInt(x))
		x2 := big.NewInt(x * x)
		var t big.Int
		for i := int64(0); term.Sign() != 0; i++ {
			t.Quo(term, big.NewInt(2*i+1))
			if i%2 == 0 {
				sum.Add(sum, &t)
			} else {
				sum.Sub(sum, &t)
			}
			term.Quo(term, x2)
		}
		return sum
	}
	pi := new(big.Int).Mul(atanInv(5), big.NewInt(16))
	pi.Sub(pi, new(big.Int).Mul(atanInv(239), big.NewInt(4)))
	pi.Quo(pi, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(guard)), nil))
	return size, pi
}

// maxPiDigits bounds the search for a correct rounding of a value through
// π. No value a caller can send comes near it (see roundPi).
const maxPiDigits = 5000

// roundPi sets out to (num/den)·π^k rounded half-even to p significant
// digits; den > 0 and k != 0. It brackets π between two decimals of n
// digits, rounds both ends of the resulting interval, and doubles n until
// the two roundings agree, so the digits are those of the exact value.
// A non-zero result is never exact: π^k is irrational.
func roundPi(out *apd.Decimal, num, den *apd.Decimal, k int, p int) (inexact bool, err error) {
	if num.IsZero() {
		out.SetInt64(0)
		return false, nil
	}
	for digits := 60 + 2*p; ; digits *= 2 {
		lo := piScaled(digits) // π·10^digits rounded down
		var hi apd.BigInt
		hi.Add(lo, apd.NewBigInt(1))
		var a, b apd.Decimal
		if err := piBound(&a, num, den, lo, digits, k, p); err != nil {
			return false, err
		}
		if err := piBound(&b, num, den, &hi, digits, k, p); err != nil {
			return false, err
		}
		if a.Cmp(&b) == 0 || digits >= maxPiDigits {
			out.Set(&a)
			return true, nil
		}
	}
}

// piBound sets out to num/den·(c·10^-digits)^k rounded to p digits, for c
// one end of a bracket of π.
func piBound(out, num, den *apd.Decimal, c *apd.BigInt, digits, k, p int) error {
	var pow apd.BigInt
	pow.SetInt64(1)
	for range abs(k) {
		pow.Mul(&pow, c)
	}
	var n, d apd.Decimal
	n.Set(num)
	d.Set(den)
	if k > 0 {
		n.Coeff.Mul(&n.Coeff, &pow)
		n.Exponent -= int32(digits * k)
	} else {
		d.Coeff.Mul(&d.Coeff, &pow)
		d.Exponent -= int32(digits * -k)
	}
	_, err := arith(rounding[p].Quo(out, &n, &d))
	return err
}

// decimalRat returns d as an exact rational.
func decimalRat(d *apd.Decimal) *big.Rat {
	i := d.Coeff.MathBigInt()
	if d.Negative {
		i.Neg(i)
	}
	r := new(big.Rat).SetInt(i)
	if d.Exponent > 0 {
		r.Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(d.Exponent)), nil)))
	} else if d.Exponent < 0 {
		r.Quo(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-d.Exponent)), nil)))
	}
	return r
}

// roundRatTo sets out to r rounded half-even to p significant digits.
func roundRatTo(out *apd.Decimal, r *big.Rat, p int) (inexact bool, err error) {
	var n, d apd.Decimal
	n.Coeff.SetMathBigInt(new(big.Int).Abs(r.Num()))
	n.Negative = r.Sign() < 0
	d.Coeff.SetMathBigInt(r.Denom())
	cond, err := arith(rounding[p].Quo(out, &n, &d))
	return cond.Inexact(), err
}

// piDecimal returns π^k (k may be negative) rounded to p significant
// digits, for the working precision of formulas.
func piDecimal(k int, p int) *apd.Decimal {
	digits := p + 10*abs(k) + 10
	scale := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(digits)), nil)
	r := ratPow(new(big.Rat).SetFrac(piScaled(digits).MathBigInt(), scale), abs(k))
	if k < 0 {
		r.Inv(r)
	}
	var n, d, out apd.Decimal
	n.Coeff.SetMathBigInt(r.Num())
	d.Coeff.SetMathBigInt(r.Denom())
	_, _ = exact.WithPrecision(uint32(p)).Quo(&out, &n, &d)
	return &out
}

func ratPow(r *big.Rat, n int) *big.Rat {
	out := big.NewRat(1, 1)
	for range n {
		out.Mul(out, r)
	}
	return out
}
