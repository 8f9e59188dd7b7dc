package exact

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/cockroachdb/apd/v3"
)

// randomRat is a random rational of up to 40 digits over up to 20, zero
// among them, either sign.
func randomRat(r *rand.Rand) *big.Rat {
	n := randomInt(r)
	d := randomInt(r)
	if d.Sign() == 0 {
		d.SetInt64(1)
	}
	return new(big.Rat).SetFrac(n, d)
}

// valueOf writes q as a Value the way a map's value comes: Num/Den with a
// power of ten split off, times π^k.
func valueOf(r *rand.Rand, q *big.Rat, k int) Value {
	e := r.IntN(7) - 3
	num, den := new(big.Int).Set(q.Num()), new(big.Int).Set(q.Denom())
	// q = num/den = (num·10^-e)/den · 10^e: scale whichever side keeps
	// the numbers integral.
	if e > 0 {
		den.Mul(den, pow10Big(e))
	} else if e < 0 {
		num.Mul(num, pow10Big(-e))
	}
	return Value{Num: num, Den: den, Exp: e, K: k}
}

// refCmpAbs compares |a|·π^ka with |b|·π^kb in big.Rat, π to 600 places:
// the reference of CmpAbs, and ok false when the two are too close for
// 600 places to decide.
func refCmpAbs(a *big.Rat, ka int, b *big.Rat, kb int) (int, bool) {
	x := new(big.Rat).Abs(a)
	y := new(big.Rat).Abs(b)
	if ka == kb || x.Sign() == 0 || y.Sign() == 0 {
		return x.Cmp(y), true
	}
	x.Mul(x, piPow(ka-kb))
	diff := new(big.Rat).Sub(x, y)
	// π^n to 600 places errs by far less than 10^-550 relative.
	tol := new(big.Rat).Mul(y, new(big.Rat).SetFrac(big.NewInt(1), pow10Big(550)))
	if new(big.Rat).Abs(diff).Cmp(tol) <= 0 {
		return 0, false
	}
	return diff.Sign(), true
}

// TestCmpAbs compares random values and thresholds, with and without π,
// both ways round, and against big.Rat: CmpAbs(v(a), t(b)) is the
// reference's comparison of |a| with |b| and the negation of CmpAbs(v(b),
// t(a)); a value equals its own factor, whatever its sign.
func TestCmpAbs(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 6))
	counts := map[int]int{}
	for range 20000 {
		a, b := randomRat(r), randomRat(r)
		ka, kb := 0, 0
		switch r.IntN(4) {
		case 0:
			ka, kb = r.IntN(5)-2, r.IntN(5)-2
		case 1:
			ka = r.IntN(5) - 2
			kb = ka
		}
		switch r.IntN(5) {
		case 0: // b within a relative 10^-30 of a
			b = new(big.Rat).Mul(a, new(big.Rat).SetFrac(new(big.Int).Add(pow10Big(30), big.NewInt(int64(r.IntN(3)-1))), pow10Big(30)))
			kb = ka
		case 1: // b close to a·π^(ka-kb): a bracket of 40 digits cannot decide
			if ka != kb && a.Sign() != 0 {
				b = ratDigits(new(big.Rat).Mul(a, piPow(ka-kb)), 45+r.IntN(40))
			}
		}
		want, ok := refCmpAbs(a, ka, b, kb)
		if !ok {
			continue
		}
		va, vb := valueOf(r, a, ka), valueOf(r, b, kb)
		got := CmpAbs(&va, Factor{R: b, K: kb})
		back := CmpAbs(&vb, Factor{R: a, K: ka})
		if got != want || back != -want {
			t.Fatalf("|%s·π^%d| against |%s·π^%d|: CmpAbs %d, reversed %d, want %d", a.RatString(), ka, b.RatString(), kb, got, back, want)
		}
		counts[want]++
		if self := CmpAbs(&va, Factor{R: new(big.Rat).Neg(a), K: ka}); self != 0 {
			t.Fatalf("|%s·π^%d| against its negation: %d", a.RatString(), ka, self)
		}
	}
	if counts[-1] < 5000 || counts[1] < 5000 || counts[0] < 500 {
		t.Fatalf("outcomes %v: the random cases do not cover every direction", counts)
	}
}

// ratDigits rounds q to n significant digits (toward zero).
func ratDigits(q *big.Rat, n int) *big.Rat {
	if q.Sign() == 0 {
		return new(big.Rat)
	}
	f := new(big.Float).SetPrec(uint(n*4 + 64)).SetRat(q)
	s := f.Text('e', n-1)
	out, _ := new(big.Rat).SetString(s)
	return out
}

// TestBound compares random decimals with random thresholds in random
// units: Reach is +1 only when |x| reaches t/unit and -1 only when it does
// not (checked in big.Rat), decides all but values within its bracket, and
// decides values just either side of a threshold that is a decimal.
func TestBound(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 7))
	decided := 0
	for range 3000 {
		th := new(big.Rat).Abs(randomRat(r))
		unit := new(big.Rat).Abs(randomRat(r))
		if unit.Sign() == 0 {
			unit.SetInt64(1)
		}
		b, ok := NewBound(Factor{R: th}, Factor{R: unit})
		if !ok {
			t.Fatalf("NewBound(%s, %s) refused", th.RatString(), unit.RatString())
		}
		q := new(big.Rat).Quo(th, unit)
		for range 10 {
			x := randomDecimal(r)
			if r.IntN(3) == 0 {
				// A value near q: its digits, then nudged.
				if d, ok := ToDecimal(ratDigits(q, 1+r.IntN(45))); ok {
					x.Set(&d)
					x.Negative = r.IntN(2) == 0
				}
			}
			got := b.Reach(x)
			want := new(big.Rat).Abs(decimalRat(x)).Cmp(q)
			switch {
			case got == 1 && want < 0, got == -1 && want >= 0:
				t.Fatalf("|%s| against %s: Reach %d, big.Rat %d", x, q.RatString(), got, want)
			case got != 0:
				decided++
			}
		}
		if d, exact := ToDecimal(q); exact && q.Sign() > 0 {
			// A decimal threshold: the bracket is the point itself.
			var up, down apd.Decimal
			ulp := apd.New(1, d.Exponent-5)
			exactAdd(&up, &d, ulp)
			exactSub(&down, &d, ulp)
			for _, c := range []struct {
				x    *apd.Decimal
				want int
			}{{&d, 1}, {&up, 1}, {&down, -1}} {
				if got := b.Reach(c.x); got != c.want {
					t.Fatalf("%s against the decimal threshold %s: Reach %d, want %d", c.x, d.String(), got, c.want)
				}
				neg := new(apd.Decimal).Neg(c.x)
				if got := b.Reach(neg); got != c.want {
					t.Fatalf("%s against the decimal threshold %s: Reach %d, want %d", neg, d.String(), got, c.want)
				}
			}
		}
	}
	if decided < 25000 {
		t.Fatalf("decided only %d of 30000 comparisons", decided)
	}
	if _, ok := NewBound(Factor{R: big.NewRat(1, 1), K: 1}, Factor{R: big.NewRat(1, 1)}); ok {
		t.Fatal("a bound across powers of π was accepted")
	}
}

func exactAdd(d, x, y *apd.Decimal) { unrounded.Add(d, x, y) } //nolint:errcheck // small exponents
func exactSub(d, x, y *apd.Decimal) { unrounded.Sub(d, x, y) } //nolint:errcheck // small exponents

// TestCmpDecimal checks the word-sized comparison against apd's, both
// ways round.
func TestCmpDecimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 35))
	coeffs := []uint64{0, 1, 9, 10, 99, 12345, 1<<63 + 7, 1<<64 - 1, 10_000_000_000_000_000_000, 1_844_674_407_370_955_161}
	for range 20000 {
		var a, b apd.Decimal
		for _, d := range []*apd.Decimal{&a, &b} {
			c := coeffs[rng.IntN(len(coeffs))]
			if rng.IntN(2) == 0 {
				c = rng.Uint64() >> uint(rng.IntN(64))
			}
			d.Coeff.SetUint64(c)
			d.Exponent = int32(rng.IntN(41) - 20)
			d.Negative = rng.IntN(2) == 0
		}
		got, back, want := cmpDecimal(&a, &b), cmpDecimal(&b, &a), a.Cmp(&b)
		if got != want || back != -want {
			t.Fatalf("cmpDecimal(%s, %s) = %d (reversed %d), apd says %d", a.String(), b.String(), got, back, want)
		}
	}
}

func ExampleCmpAbs() {
	// One radian against 57 degrees, in radians (57·π/180).
	v := NewValue(big.NewRat(1, 1), 0)
	fmt.Println(CmpAbs(&v, Factor{R: big.NewRat(57, 180), K: 1}))
	// Output: 1
}
