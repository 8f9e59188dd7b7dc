package exact

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestAtRat evaluates random maps (linear, affine, with a pole, through
// π) at random fractions and checks the rounded value against the same
// arithmetic in big.Rat.
func TestAtRat(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	small := func() *big.Int { return big.NewInt(rng.Int64N(2001) - 1000) }
	nonzero := func() *big.Int {
		for {
			if x := small(); x.Sign() != 0 {
				return x
			}
		}
	}
	for i := range 2000 {
		a, d := nonzero(), nonzero()
		b, c := new(big.Int), new(big.Int)
		switch i % 3 {
		case 1:
			b = small()
		case 2:
			b, c = small(), small()
		}
		k := 0
		if i%7 == 0 {
			k = 1
			b, c = new(big.Int), new(big.Int)
		}
		rat := func(x *big.Int) *big.Rat { return new(big.Rat).SetInt(x) }
		m, err := New(rat(a), rat(b), rat(c), rat(d), k)
		if err != nil {
			continue // a constant map
		}
		x := big.NewRat(rng.Int64N(20001)-10000, rng.Int64N(999)+1)
		v, err := m.AtRat(x)
		den := new(big.Rat).Add(new(big.Rat).Mul(rat(c), x), rat(d))
		if den.Sign() == 0 {
			if err != ErrPole {
				t.Fatalf("%v at %v: %v, want the pole", m, x, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%v at %v: %v", m, x, err)
		}
		want := new(big.Rat).Add(new(big.Rat).Mul(rat(a), x), rat(b))
		want.Quo(want, den)
		if k != 0 {
			want.Mul(want, piPow(k))
		}
		for _, p := range []int{1, 7, 34} {
			got, _ := Round(&v, p)
			if got.String() != roundRat(want, p) {
				t.Fatalf("(%v·x+%v)/(%v·x+%v)·π^%d at %v to %d digits: %s, want %s", a, b, c, d, k, x, p, got.String(), roundRat(want, p))
			}
		}
	}
}

// TestAtRatExact: a third of a yard is a foot, exactly, and a rounding
// that drops nothing says so.
func TestAtRatExact(t *testing.T) {
	m, _ := Linear(big.NewRat(3, 1), 0) // yd → ft
	v, err := m.AtRat(big.NewRat(1, 3))
	if err != nil {
		t.Fatal(err)
	}
	if d, inexact := Round(&v, 34); d.String() != "1" || inexact {
		t.Errorf("⅓ yd = %s ft (inexact %v), want 1 exactly", d.String(), inexact)
	}
	v, _ = m.AtRat(big.NewRat(1, 7))
	if d, inexact := Round(&v, 5); d.String() != "0.42857" || !inexact {
		t.Errorf("1/7 yd = %s ft (inexact %v), want 0.42857, rounded", d.String(), inexact)
	}
	huge := new(big.Rat).SetFrac(new(big.Int).Lsh(big.NewInt(1), MaxBits+1), big.NewInt(3))
	if _, err := m.AtRat(huge); err != ErrTooLarge {
		t.Errorf("a numerator beyond MaxBits: %v, want ErrTooLarge", err)
	}
}

// TestCompare compares values with and without π against rationals, as
// big.Rat does with π to 600 places.
func TestCompare(t *testing.T) {
	for _, c := range []struct {
		v    Value
		r    *big.Rat
		want int
	}{
		{Value{Num: big.NewInt(1), Den: big.NewInt(3)}, big.NewRat(1, 3), 0},
		{Value{Num: big.NewInt(1), Den: big.NewInt(3)}, big.NewRat(333, 1000), 1},
		{Value{Num: big.NewInt(1), Den: big.NewInt(1), K: 1}, big.NewRat(314159, 100000), 1},
		{Value{Num: big.NewInt(1), Den: big.NewInt(1), K: 1}, big.NewRat(314160, 100000), -1},
		{Value{Num: big.NewInt(-1), Den: big.NewInt(180), K: 1}, big.NewRat(0, 1), -1},
		{Value{Num: big.NewInt(1), Den: big.NewInt(180), K: 1, Exp: 2}, big.NewRat(1, 1), 1},
	} {
		if got := c.v.Compare(c.r); got != c.want {
			t.Errorf("%v/%v·10^%d·π^%d vs %v: %d, want %d", c.v.Num, c.v.Den, c.v.Exp, c.v.K, c.r, got, c.want)
		}
	}
}
