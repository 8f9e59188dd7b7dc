package exact

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestLinearThenMatchesThen compares LinearThen with Linear and Then on
// factors and linear maps of every sign and size, π included, and
// Offset with Affine on affine maps.
func TestLinearThenMatchesThen(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 13))
	num := func() *big.Int {
		switch r.IntN(4) {
		case 0:
			return big.NewInt(int64(r.IntN(1000) + 1))
		case 1:
			return new(big.Int).SetUint64(r.Uint64()>>r.IntN(64) | 1)
		case 2:
			return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(r.IntN(30))), nil)
		}
		return new(big.Int).Lsh(big.NewInt(int64(r.IntN(9)+1)), uint(r.IntN(80)))
	}
	rat := func() *big.Rat {
		q := new(big.Rat).SetFrac(num(), num())
		if r.IntN(5) == 0 {
			q.Neg(q)
		}
		return q
	}
	fused := 0
	for range 5000 {
		f, k := rat(), r.IntN(3)-1
		n, err := Linear(rat(), r.IntN(3)-1)
		if err != nil {
			t.Fatal(err)
		}
		own, err := Linear(f, k)
		if err != nil {
			t.Fatal(err)
		}
		want, err := own.Then(n)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := LinearThen(f, k, n)
		if !ok {
			continue
		}
		fused++
		ga, gb, gc, gd := got.Coefficients()
		wa, wb, wc, wd := want.Coefficients()
		if ga.Cmp(wa) != 0 || gb.Cmp(wb) != 0 || gc.Cmp(wc) != 0 || gd.Cmp(wd) != 0 || got.K() != want.K() ||
			got.IsIdentity() != want.IsIdentity() || got.w != want.w {
			t.Errorf("LinearThen(%s, %d, %v) = %v·π^%d; Linear and Then give %v·π^%d", f.RatString(), k, n.a, got.a, got.K(), want.a, want.K())
		}
	}
	if fused < 1000 {
		t.Errorf("only %d of 5000 compositions went through words", fused)
	}
	if _, ok := LinearThen(big.NewRat(1, 2), 0, Reciprocal()); ok {
		t.Error("LinearThen composed with a map that is not linear")
	}
	if _, ok := LinearThen(new(big.Rat), 0, Identity()); ok {
		t.Error("LinearThen composed a zero factor")
	}
	for range 1000 {
		m, err := Affine(rat(), rat(), 0)
		if err != nil {
			t.Fatal(err)
		}
		_, wo, wok := m.Affine()
		o, ok := m.Offset()
		if ok != wok || o.Cmp(wo) != 0 {
			t.Errorf("Offset of %v = %v, %v; Affine says %v, %v", m.a, o, ok, wo, wok)
		}
	}
	if _, ok := Reciprocal().Offset(); ok {
		t.Error("Offset of a map with a pole")
	}
}
