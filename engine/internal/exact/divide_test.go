package exact

import (
	"math/big"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/cockroachdb/apd/v3"
)

// TestStripZeros compares stripZeros with a loop of single divisions by
// ten, on every count of trailing zeros a word can have, and with powers
// of two (trailing zero bits without a zero digit) among the values.
func TestStripZeros(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for zeros := 0; zeros <= 19; zeros++ {
		for i := range 4000 {
			// A coefficient not divisible by ten, times 10^zeros: below
			// 10^19 for half of them, up to the largest word for the rest.
			limit := ^uint64(0) / pow10[zeros]
			if i%2 == 0 && zeros < 19 {
				limit = pow10[19-zeros]
			}
			limit = max(limit, 2) // 10^19 has room for no other coefficient
			x := r.Uint64N(limit-1) + 1
			if i%5 == 0 {
				x = uint64(1) << uint(r.IntN(bits.Len64(limit-1))) // below limit
			}
			if x%10 == 0 {
				x++
				if x >= limit {
					x = 1
				}
			}
			if x%10 == 0 {
				continue
			}
			v := x * pow10[zeros]
			got, n := stripZeros(v)
			want, m := v, 0
			for want%10 == 0 {
				want, m = want/10, m+1
			}
			if got != want || n != m {
				t.Fatalf("stripZeros(%d) = %d, %d; want %d, %d", v, got, n, want, m)
			}
		}
	}
}

// TestMulDecimal checks the multiplication that serves a factor whose
// denominator has no prime factor but 2 and 5 (0.3048 = 381/1250)
// against the division it replaces, digit for digit and in the
// coefficient it leaves: random factors a/(2^i·5^j) at random values and
// precisions, through Map.Round in words, in big integers, and div128.
func TestMulDecimal(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 7))
	served := 0
	for range 20000 {
		d := uint64(1)
		for range r.IntN(12) {
			d *= 2
		}
		for range r.IntN(12) {
			d *= 5
		}
		a := r.Uint64N(1 << uint(1+r.IntN(40)))
		if a == 0 {
			a = 1
		}
		neg := r.IntN(2) == 0
		f := new(big.Rat).SetFrac(new(big.Int).SetUint64(a), new(big.Int).SetUint64(d))
		if neg {
			f.Neg(f)
		}
		m, err := Linear(f, 0)
		if err != nil {
			t.Fatal(err)
		}
		x := apd.New(int64(r.Uint64N(1<<uint(1+r.IntN(40)))), int32(r.IntN(30)-15))
		if r.IntN(3) == 0 {
			x.Negative = true
		}
		p := 1 + r.IntN(38)
		words, wi, err1 := m.Round(x, p, true)
		plain, pi, err2 := m.Round(x, p, false)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s at %s: %v, %v", f, x, err1, err2)
		}
		if words.String() != plain.String() || wi != pi {
			t.Fatalf("%s at %s, p=%d: words %s (inexact %v), big %s (inexact %v)", f, x, p, words.String(), wi, plain.String(), pi)
		}
		// The coefficient and exponent are div128's for the same map.
		w := &m.w
		var got Decimal
		if x.IsZero() || !w.dec || !mulDecimal(&got, w.da, x.Coeff.Uint64(), w.ds, int(x.Exponent), w.an != x.Negative, p) {
			continue
		}
		served++
		hi, lo := bits.Mul64(w.a, x.Coeff.Uint64())
		var want Decimal
		if _, ok := div128(&want, hi, lo, w.d, int(x.Exponent), w.an != x.Negative, p); !ok {
			continue
		}
		if got != want {
			t.Fatalf("%s at %s, p=%d: mulDecimal %+v, div128 %+v", f, x, p, got, want)
		}
	}
	if served < 5000 {
		t.Errorf("mulDecimal served %d of 20,000 conversions", served)
	}
}

// TestSumProducts compares sumProducts with the general s256.add of the
// two products: random words, equal products, zeros and every pair of
// signs.
func TestSumProducts(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 13))
	word := func() uint64 {
		switch r.IntN(4) {
		case 0:
			return 0
		case 1:
			return ^uint64(0)
		}
		return r.Uint64()
	}
	for i := range 200000 {
		a, x, b, y := word(), word(), word(), word()
		if i%10 == 0 {
			b, y = a, x
		}
		an, bn := r.IntN(2) == 0, r.IntN(2) == 0
		p, q := s256{mul64(a, x), an}, s256{mul64(b, y), bn}
		if p.m.isZero() {
			p.neg = false
		}
		if q.m.isZero() {
			q.neg = false
		}
		want, ok := p.add(q)
		want.neg = want.neg && !want.m.isZero()
		lo, hi, top, neg := sumProducts(a, x, an, b, y, bn)
		if got := (s256{u256{lo, hi, top}, neg}); !ok || got != want {
			t.Fatalf("%d·%d (neg %v) + %d·%d (neg %v): %v, want %v (ok %v)", a, x, an, b, y, bn, got, want, ok)
		}
	}
}

// TestMul256 compares u256.mul with math/big on operands of every number
// of words in use, products that overflow 256 bits among them.
func TestMul256(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 19))
	random := func() u256 {
		var x u256
		for i := range r.IntN(5) {
			switch r.IntN(3) {
			case 0:
				x[i] = ^uint64(0)
			default:
				x[i] = r.Uint64() >> uint(r.IntN(64))
			}
		}
		return x
	}
	limit := new(big.Int).Lsh(big.NewInt(1), 256)
	for range 200000 {
		x, y := random(), random()
		want := new(big.Int).Mul(bigOf256(x), bigOf256(y))
		got, ok := x.mul(y)
		if fits := want.Cmp(limit) < 0; ok != fits || ok && bigOf256(got).Cmp(want) != 0 {
			t.Fatalf("%v·%v = %v (ok %v), want %s (fits %v)", x, y, got, ok, want, fits)
		}
	}
}
