package exact

import (
	"math/big"
	"math/bits"
)

// Offset returns the offset o of an affine map, x ↦ (x·f + o)·π^k, as
// Affine does, without its factor; ok is false for a map with a pole.
func (m *Map) Offset() (o *big.Rat, ok bool) {
	if m.HasPole() {
		return nil, false
	}
	return new(big.Rat).SetFrac(m.b, m.d), true
}

// LinearThen returns the map x ↦ x·f·π^k followed by n, for a linear n,
// computed in machine words: what Linear(f, k) and then Then(n) return,
// without their big-number arithmetic. ok is false, and the map nil, when
// f is zero, n is not linear, or the numbers do not fit in words; the
// caller then composes the two itself.
func LinearThen(f *big.Rat, k int, n *Map) (m *Map, ok bool) {
	if n == nil || !n.IsLinear() || !n.w.ok || f.Sign() == 0 {
		return nil, false
	}
	fn, fd, ok := ratWords(f)
	if !ok {
		return nil, false
	}
	// Both are in lowest terms, so dividing out the cross common factors
	// leaves the product in lowest terms, as newMap's normalisation does.
	g1, g2 := gcdWords(fn, n.w.d), gcdWords(n.w.a, fd)
	ahi, a := bits.Mul64(fn/g1, n.w.a/g2)
	dhi, d := bits.Mul64(fd/g2, n.w.d/g1)
	if ahi != 0 || dhi != 0 {
		return nil, false
	}
	A, D := new(big.Int).SetUint64(a), new(big.Int).SetUint64(d)
	if (f.Sign() < 0) != n.w.an {
		A.Neg(A)
	}
	B, C := new(big.Int), new(big.Int)
	m = &Map{a: A, b: B, c: C, d: D, k: k + n.k}
	m.w = wordsOf(A, B, C, D)
	m.id = m.k == 0 && A.Cmp(D) == 0
	return m, true
}
