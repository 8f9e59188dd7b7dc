package engine

import (
	"math/big"

	"github.com/cockroachdb/apd/v3"
)

// The rational-pair accelerator
//
// A conversion through one rational formula (L/100km → mpg: 100 / x,
// then a factor) runs the chain of evalRational on exact fractions: an
// affine map, the formula's Möbius map, another affine map and the
// inverse of the target's, each a few apd products. Every link is a
// Möbius map, and so is the whole chain, y = (a·x + b)/(c·x + d). When a
// pair is cached (paircache.go), composeRational multiplies the chain's
// matrices once, in exact rationals, and keeps the composite when its
// integer coefficients fit in machine words; a conversion then computes
// the numerator and the denominator in 128 bits and divides with quo128,
// which rounds exactly as apd's division does.
//
// The composite is taken only when the chain holds at most one formula
// with a pole (c ≠ 0): its denominator is then that formula's denominator
// up to a non-zero factor, so the composite divides by zero exactly where
// the chain does, and there it declines and the plain path reports the
// error. Two poles could cancel (100 / (100 / x) is x, but not at 0).

// mobiusWords is x ↦ (a·x + b)/(c·x + d) with word-sized integer
// coefficients: magnitudes below 2^63 and signs.
type mobiusWords struct {
	a, b, c, d             uint64
	aNeg, bNeg, cNeg, dNeg bool
}

// ratMatrix is a Möbius map as the matrix [[a b] [c d]] of rationals.
type ratMatrix struct{ a, b, c, d *big.Rat }

// then returns the map that applies m first and n second: n·m.
func (m ratMatrix) then(n ratMatrix) ratMatrix {
	dot := func(x, y, z, w *big.Rat) *big.Rat {
		s := new(big.Rat).Mul(x, y)
		return s.Add(s, new(big.Rat).Mul(z, w))
	}
	return ratMatrix{
		a: dot(n.a, m.a, n.b, m.c), b: dot(n.a, m.b, n.b, m.d),
		c: dot(n.c, m.a, n.d, m.c), d: dot(n.c, m.b, n.d, m.d),
	}
}

// affineMatrix is x ↦ x·f + o, π aside (evalRational carries π apart).
func affineMatrix(m ratMap) ratMatrix {
	return ratMatrix{m.f, m.o, new(big.Rat), big.NewRat(1, 1)}
}

// inverseAffineMatrix is y ↦ (y - o)/f.
func inverseAffineMatrix(m ratMap) ratMatrix {
	inv := new(big.Rat).Inv(m.f)
	return ratMatrix{inv, new(big.Rat).Neg(new(big.Rat).Mul(m.o, inv)), new(big.Rat), big.NewRat(1, 1)}
}

func mobiusMatrix(m *mobius) ratMatrix {
	r := func(d *apd.Decimal) *big.Rat {
		v, _ := new(big.Rat).SetString(d.String())
		return v
	}
	return ratMatrix{r(&m.a), r(&m.b), r(&m.c), r(&m.d)}
}

// composeRational returns the whole map of a conversion from A to B that
// evalRational would compute, or nil when the accelerator cannot take the
// pair: no formula (accelerate's case), a formula that is not a Möbius
// map, two poles, a power of π left over, or coefficients beyond words.
func composeRational(A, B *conversion) *mobiusWords {
	if !composable(A, B) {
		return nil
	}
	m := ratMatrix{big.NewRat(1, 1), new(big.Rat), new(big.Rat), big.NewRat(1, 1)}
	if f := A.formula; f != nil {
		m = m.then(affineMatrix(A.preMap)).then(mobiusMatrix(f.toMob))
	}
	m = m.then(affineMatrix(A.postMap)).then(inverseAffineMatrix(B.postMap))
	if f := B.formula; f != nil {
		m = m.then(mobiusMatrix(f.fromMob)).then(inverseAffineMatrix(B.preMap))
	}
	return wordsOf(m)
}

// composable reports, without arithmetic, whether composeRational may
// take the pair: a rational Möbius formula on at least one side, no other
// kind of formula, at most one pole, and π cancelling.
func composable(A, B *conversion) bool {
	if A.pi != B.pi || (A.formula == nil && B.formula == nil) {
		return false
	}
	poles := 0
	for _, m := range [2]*mobius{mobiusTo(A.formula), mobiusFrom(B.formula)} {
		if m == nil {
			continue
		}
		if m == noMobius {
			return false
		}
		if m.c.Sign() != 0 {
			poles++
		}
	}
	return poles <= 1
}

// noMobius stands for a formula that is not a Möbius map.
var noMobius = &mobius{}

// mobiusTo and mobiusFrom are the Möbius maps of f's formulas to and from
// the reference unit: nil for no formula, noMobius for one of another
// kind.
func mobiusTo(f *formula) *mobius {
	if f == nil {
		return nil
	}
	return mobiusOrNone(f.rational, f.toMob)
}

func mobiusFrom(f *formula) *mobius {
	if f == nil {
		return nil
	}
	return mobiusOrNone(f.rational, f.fromMob)
}

func mobiusOrNone(rational bool, m *mobius) *mobius {
	if !rational || m == nil {
		return noMobius
	}
	return m
}

// rationalOf returns the composite map of a pair of catalog units, built
// once per graph and pair: a flood of spellings of one pair (the cache of
// names holds each apart) would otherwise rebuild it, a few microseconds
// of exact arithmetic, on every miss. Pairs with an expression side are
// not composed; their count has no bound.
func (g *Graph) rationalOf(from, to side, pl *plan) *mobiusWords {
	if from.unit == nil || to.unit == nil || !composable(pl.from, pl.to) {
		return nil
	}
	key := [2]*Unit{from.unit, to.unit}
	if v, ok := g.rationals.Load(key); ok {
		return v.(*mobiusWords)
	}
	m := composeRational(pl.from, pl.to)
	g.rationals.Store(key, m)
	return m
}

// wordsOf scales m to the smallest integer coefficients, or returns nil
// when one does not fit in 63 bits.
func wordsOf(m ratMatrix) *mobiusWords {
	rs := [4]*big.Rat{m.a, m.b, m.c, m.d}
	lcm := big.NewInt(1)
	for _, r := range rs {
		g := new(big.Int).GCD(nil, nil, lcm, r.Denom())
		lcm.Mul(lcm, new(big.Int).Quo(r.Denom(), g))
	}
	var ints [4]*big.Int
	gcd := new(big.Int)
	for i, r := range rs {
		ints[i] = new(big.Int).Mul(r.Num(), new(big.Int).Quo(lcm, r.Denom()))
		gcd.GCD(nil, nil, gcd, new(big.Int).Abs(ints[i]))
	}
	if gcd.Sign() == 0 {
		return nil
	}
	var w mobiusWords
	coef := [4]*uint64{&w.a, &w.b, &w.c, &w.d}
	neg := [4]*bool{&w.aNeg, &w.bNeg, &w.cNeg, &w.dNeg}
	for i, n := range ints {
		n.Quo(n, gcd)
		if n.CmpAbs(big.NewInt(1<<62)) >= 0 {
			return nil
		}
		*coef[i] = new(big.Int).Abs(n).Uint64()
		*neg[i] = n.Sign() < 0
	}
	return &w
}

// apply sets q to the map at x rounded to p digits, as evalRational and
// roundExact would, and reports whether it could: x of a word-sized
// coefficient and an exponent within ±19, a numerator within 128 bits and
// a non-zero denominator within quo128's reach.
func (m *mobiusWords) apply(q *quotient, x *apd.Decimal, p int) (inexact, ok bool) {
	if !x.Coeff.IsUint64() || x.Exponent > 19 || x.Exponent < -19 {
		return false, false
	}
	// x = X·up/down, so y = (a·X·up + b·down)/(c·X·up + d·down).
	X, up, down := x.Coeff.Uint64(), uint64(1), uint64(1)
	if x.Exponent >= 0 {
		up = pow10[x.Exponent]
	} else {
		down = pow10[-x.Exponent]
	}
	ax, ok1 := product(m.a, X, up, m.aNeg != x.Negative)
	bd, ok2 := product(m.b, down, 1, m.bNeg)
	cx, ok3 := product(m.c, X, up, m.cNeg != x.Negative)
	dd, ok4 := product(m.d, down, 1, m.dNeg)
	num, ok5 := ax.add(bd)
	den, ok6 := cx.add(dd)
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || !ok6 || den.hi != 0 || den.lo == 0 {
		return false, false
	}
	return quo128(q, num.hi, num.lo, den.lo, 0, num.neg != den.neg, p)
}
