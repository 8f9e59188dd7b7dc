package exact

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestWordOps256 compares the operations on four words, written out word
// by word, with math/big: mulWord, add, sub, shl1 and cmp, on operands of
// every number of words in use, all ones among them, and results that
// overflow 256 bits.
func TestWordOps256(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 29))
	word := func() uint64 {
		switch r.IntN(4) {
		case 0:
			return 0
		case 1:
			return ^uint64(0)
		}
		return r.Uint64() >> uint(r.IntN(64))
	}
	random := func() u256 {
		var x u256
		for i := range r.IntN(5) {
			x[i] = word()
		}
		return x
	}
	limit := new(big.Int).Lsh(big.NewInt(1), 256)
	fits := func(n *big.Int) bool { return n.Sign() >= 0 && n.Cmp(limit) < 0 }
	for i := range 300000 {
		x, y, w := random(), random(), word()
		if i%7 == 0 {
			y = x
		}
		bx, by := bigOf256(x), bigOf256(y)

		want := new(big.Int).Mul(bx, new(big.Int).SetUint64(w))
		if got, ok := x.mulWord(w); ok != fits(want) || ok && bigOf256(got).Cmp(want) != 0 {
			t.Fatalf("%v·%d = %v (ok %v), want %s", x, w, got, ok, want)
		}
		want = new(big.Int).Add(bx, by)
		if got, ok := x.add(&y); ok != fits(want) || ok && bigOf256(got).Cmp(want) != 0 {
			t.Fatalf("%v + %v = %v (ok %v), want %s", x, y, got, ok, want)
		}
		if c := bx.Cmp(by); x.cmp(&y) != c {
			t.Fatalf("cmp(%v, %v) = %d, want %d", x, y, x.cmp(&y), c)
		} else if c >= 0 {
			if got, want := x.sub(&y), new(big.Int).Sub(bx, by); bigOf256(got).Cmp(want) != 0 {
				t.Fatalf("%v − %v = %v, want %s", x, y, got, want)
			}
		}
		want = new(big.Int).Lsh(bx, 1)
		if got, ok := x.shl1(); ok != fits(want) || ok && bigOf256(got).Cmp(want) != 0 {
			t.Fatalf("2·%v = %v (ok %v), want %s", x, got, ok, want)
		}
		if w != 0 {
			checkQuotientDigits(t, x, w)
			// x at a multiple of w by a power of ten, and one below it.
			k := r.IntN(78)
			if m, ok := pow10Words[k].mulWord(w); ok {
				checkQuotientDigits(t, m, w)
				if !m.isZero() {
					checkQuotientDigits(t, m.sub(&u256{1}), w)
				}
			}
		}
	}
}

func checkQuotientDigits(t *testing.T, x u256, d uint64) {
	t.Helper()
	q := new(big.Int).Quo(bigOf256(x), new(big.Int).SetUint64(d))
	want := len(q.String())
	if q.Sign() == 0 {
		want = 0
	}
	if got := quotientDigits(&x, d); got != want {
		t.Fatalf("quotientDigits(%v, %d) = %d, want %d", x, d, got, want)
	}
}

// TestQuoPow10 compares quoPow10 with the division it replaces, on
// multiples of 10^k (the largest among them), their neighbours, and
// random words, for every k it takes; and checks its table against
// math/big: each inverse times 5^k is 1 modulo 2^64.
func TestQuoPow10(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 37))
	mod := new(big.Int).Lsh(big.NewInt(1), 64)
	for k := range 20 {
		p5 := new(big.Int).Exp(big.NewInt(5), big.NewInt(int64(k)), nil)
		if prod := new(big.Int).Mul(p5, new(big.Int).SetUint64(inv5[k])); prod.Mod(prod, mod).Cmp(big.NewInt(1)) != 0 {
			t.Fatalf("inv5[%d] = %d is not the inverse of 5^%d", k, inv5[k], k)
		}
		top := ^uint64(0) / pow10[k]
		for i := range 20000 {
			var c uint64
			switch i % 4 {
			case 0:
				c = (r.Uint64N(top) + 1) * pow10[k]
			case 1:
				c = (r.Uint64N(top)+1)*pow10[k] + 1<<uint(r.IntN(64))
			case 2:
				c = r.Uint64()
			default:
				c = top*pow10[k] - uint64(r.IntN(3))*pow10[k]
			}
			q, ok := quoPow10(c, k)
			if want := c%pow10[k] == 0; ok != want || ok && q != c/pow10[k] {
				t.Fatalf("quoPow10(%d, %d) = %d, %v; want %d, %v", c, k, q, ok, c/pow10[k], want)
			}
		}
	}
}

// bigOf256 is x as a big integer.
func bigOf256(x u256) *big.Int {
	n := new(big.Int)
	for i := 3; i >= 0; i-- {
		n.Lsh(n, 64).Or(n, new(big.Int).SetUint64(x[i]))
	}
	return n
}
