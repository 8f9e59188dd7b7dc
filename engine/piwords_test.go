package engine

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/cockroachdb/apd/v3"
)

func (x *u256) big() *big.Int {
	v := new(big.Int)
	for i := len(x) - 1; i >= 0; i-- {
		v.Lsh(v, 64)
		v.Or(v, new(big.Int).SetUint64(x[i]))
	}
	return v
}

// TestU256: the four-word operations agree with math/big.
func TestU256(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 17))
	limit := new(big.Int).Lsh(big.NewInt(1), 256)
	for range 5000 {
		var x, y u256
		for i := range x {
			if r.IntN(3) > 0 {
				x[i] = r.Uint64() >> r.IntN(64)
			}
			if r.IntN(3) > 0 {
				y[i] = r.Uint64() >> r.IntN(64)
			}
		}
		w := r.Uint64()>>r.IntN(64) | 1
		if z, ok := x.mulWord(w); ok != (new(big.Int).Mul(x.big(), new(big.Int).SetUint64(w)).Cmp(limit) < 0) ||
			ok && z.big().Cmp(new(big.Int).Mul(x.big(), new(big.Int).SetUint64(w))) != 0 {
			t.Fatalf("%v·%d = %v %v", x, w, z, ok)
		}
		q, rem := x.divWord(w)
		wq, wr := new(big.Int).QuoRem(x.big(), new(big.Int).SetUint64(w), new(big.Int))
		if q.big().Cmp(wq) != 0 || rem != wr.Uint64() {
			t.Fatalf("%v/%d = %v r %d", x, w, q, rem)
		}
		if z, ok := x.add(&y); ok != (new(big.Int).Add(x.big(), y.big()).Cmp(limit) < 0) ||
			ok && z.big().Cmp(new(big.Int).Add(x.big(), y.big())) != 0 {
			t.Fatalf("%v+%v = %v %v", x, y, z, ok)
		}
		if z, ok := x.shl1(); ok && z.big().Cmp(new(big.Int).Lsh(x.big(), 1)) != 0 {
			t.Fatalf("2·%v = %v", x, z)
		}
		if got, want := x.cmp(&y), x.big().Cmp(y.big()); got != want {
			t.Fatalf("cmp(%v, %v) = %d", x, y, got)
		}
		if got, want := x.digits(), len(x.big().String()); got != want && !(x == u256{} && got == 0) {
			t.Fatalf("digits(%v) = %d, want %d", x, got, want)
		}
	}
	for i := range pow10Words {
		if got, want := pow10Words[i].big(), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(i)), nil); got.Cmp(want) != 0 {
			t.Fatalf("pow10Words[%d] = %s", i, got)
		}
	}
}

// TestPiWordsMatchesRoundPi: for one-word numerators and denominators at
// precisions 1 to 38, piWords gives roundPi's digits, and decides almost
// every rounding.
func TestPiWordsMatchesRoundPi(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 23))
	const runs = 4000
	decided := 0
	for i := range runs {
		num := apd.New(0, int32(r.IntN(60)-30))
		num.Coeff.SetUint64(r.Uint64() >> r.IntN(64))
		if num.Coeff.Sign() == 0 {
			num.Coeff.SetUint64(1)
		}
		num.Negative = r.IntN(2) == 0
		den := apd.New(0, int32(r.IntN(20)-10))
		den.Coeff.SetUint64(1 + r.Uint64()>>(8+r.IntN(56)))
		if i%4 == 0 {
			den.Coeff.SetUint64(180) // degrees to radians
		}
		k := 1 + r.IntN(maxPiFastPow)
		if r.IntN(2) == 0 {
			k = -k
		}
		p := 1 + r.IntN(maxPiWordsDigits)
		var q quotient
		if !piWords(&q, num, den, k, p) {
			continue
		}
		decided++
		var plain apd.Decimal
		if _, err := roundPi(&plain, num, den, k, p); err != nil {
			t.Fatal(err)
		}
		got := string((&number{q: q, fast: true}).appendText(nil))
		if want := FormatDecimal(&plain); got != want {
			t.Fatalf("%s/%s·π^%d to %d digits: piWords %s, roundPi %s", num, den, k, p, got, want)
		}
	}
	if decided < runs*95/100 {
		t.Errorf("piWords decided %d of %d roundings, want at least 95%%", decided, runs)
	}
}
