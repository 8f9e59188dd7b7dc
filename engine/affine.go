package engine

import (
	"math/big"
	"math/bits"

	"github.com/cockroachdb/apd/v3"
)

// ratMap is an exact affine map y = x·f·π^k + o, used while building. An
// offset and a power of π never meet: Build refuses a unit whose map would
// need both (see canCompose).
type ratMap struct {
	f, o *big.Rat
	k    int
}

func identityMap() ratMap {
	return ratMap{f: big.NewRat(1, 1), o: new(big.Rat)}
}

// canCompose reports whether m.then(n) is again a ratMap: an offset must
// not be multiplied by π, nor added to a multiple of π.
func (m ratMap) canCompose(n ratMap) bool {
	k := m.k + n.k
	o := m.o.Sign() != 0 || n.o.Sign() != 0
	return !(m.o.Sign() != 0 && n.k != 0) && !(o && k != 0)
}

// then returns the map that applies m first and n second; canCompose must
// hold.
func (m ratMap) then(n ratMap) ratMap {
	f := new(big.Rat).Mul(m.f, n.f)
	o := new(big.Rat).Mul(m.o, n.f)
	o.Add(o, n.o)
	return ratMap{f: f, o: o, k: m.k + n.k}
}

// factor is the map's multiplier f·π^k.
func (m ratMap) factor() piRat { return piRat{r: m.f, k: m.k} }

// affine is a ratMap prepared for decimal arithmetic: y = (x*a + b) / c
// with c > 0. When the rational terminates in decimal, c is 1 and a and b
// are exact decimals, so applying the map needs no division.
type affine struct {
	a, b, c   apd.Decimal
	cIsOne    bool
	aIsOne    bool
	hasOffset bool
	// word is set for a factor without offset whose parts fit machine
	// words, y = x · aWord·10^aExp / cWord, the case of most units.
	word         bool
	aWord, cWord uint64
	aExp         int32
	// ints is the map with integer parts, for affine units.
	ints intAffine
}

// intAffine is an affine map y = (x·A ± B)/C with word-sized integers.
type intAffine struct {
	A, B, C uint64
	bNeg    bool
	ok      bool
}

func newAffine(m ratMap) affine {
	var p affine
	fa, okF := ratToDecimal(m.f)
	fb, okO := ratToDecimal(m.o)
	if okF && okO {
		p.a, p.b = fa, fb
		p.c.SetInt64(1)
	} else {
		// Common denominator: c = lcm(den f, den o).
		df, do := m.f.Denom(), m.o.Denom()
		g := new(big.Int).GCD(nil, nil, df, do)
		c := new(big.Int).Quo(df, g)
		c.Mul(c, do)
		a := new(big.Int).Mul(m.f.Num(), new(big.Int).Quo(c, df))
		b := new(big.Int).Mul(m.o.Num(), new(big.Int).Quo(c, do))
		p.a.Coeff.SetMathBigInt(a)
		p.a.Negative = a.Sign() < 0
		p.a.Coeff.Abs(&p.a.Coeff)
		p.b.Coeff.SetMathBigInt(b)
		p.b.Negative = b.Sign() < 0
		p.b.Coeff.Abs(&p.b.Coeff)
		p.c.Coeff.SetMathBigInt(c)
	}
	one := apd.New(1, 0)
	p.cIsOne = p.c.Cmp(one) == 0
	p.aIsOne = p.a.Cmp(one) == 0
	p.hasOffset = !p.b.IsZero()
	p.ints = newIntAffine(&p.a, &p.b, &p.c)
	if !p.hasOffset && !p.a.Negative && p.a.Coeff.IsUint64() && p.c.Exponent == 0 && p.c.Coeff.IsUint64() {
		p.word, p.aWord, p.aExp, p.cWord = true, p.a.Coeff.Uint64(), p.a.Exponent, p.c.Coeff.Uint64()
	}
	return p
}

// newIntAffine scales (x·a + b)/c by a power of ten so that a, b and c are
// whole numbers, when they then fit in words.
func newIntAffine(a, b, c *apd.Decimal) intAffine {
	if a.Negative || !a.Coeff.IsUint64() || !b.Coeff.IsUint64() || !c.Coeff.IsUint64() || c.Exponent != 0 {
		return intAffine{}
	}
	s := max(0, -a.Exponent, -b.Exponent)
	scaled := func(d *apd.Decimal) (uint64, bool) {
		e := int(s + d.Exponent)
		if d.IsZero() {
			return 0, true
		}
		if e < 0 || e >= len(pow10) {
			return 0, false
		}
		hi, lo := bits.Mul64(d.Coeff.Uint64(), pow10[e])
		return lo, hi == 0
	}
	A, okA := scaled(a)
	B, okB := scaled(b)
	if s >= int32(len(pow10)) || !okA || !okB {
		return intAffine{}
	}
	hi, C := bits.Mul64(c.Coeff.Uint64(), pow10[s])
	return intAffine{A: A, B: B, C: C, bNeg: b.Negative, ok: hi == 0}
}

// ratToDecimal returns r as an exact decimal when its denominator has no
// prime factors but 2 and 5.
func ratToDecimal(r *big.Rat) (apd.Decimal, bool) {
	if d, ok, decided := ratToDecimalWord(r); decided {
		return d, ok
	}
	return ratToDecimalBig(r)
}

// ratToDecimalBig is ratToDecimal in big integers.
func ratToDecimalBig(r *big.Rat) (apd.Decimal, bool) {
	var d apd.Decimal
	den := new(big.Int).Set(r.Denom())
	twos := int(den.TrailingZeroBits())
	den.Rsh(den, uint(twos))
	fives := 0
	var q, m big.Int
	five := big.NewInt(5)
	for den.Cmp(bigOneInt) > 0 {
		q.QuoRem(den, five, &m)
		if m.Sign() != 0 {
			return d, false
		}
		den.Set(&q)
		fives++
	}
	two := big.NewInt(2)
	// r = num / (2^twos 5^fives) = num * 2^(k-twos) 5^(k-fives) / 10^k.
	k := max(twos, fives)
	num := new(big.Int).Set(r.Num())
	num.Mul(num, new(big.Int).Exp(two, big.NewInt(int64(k-twos)), nil))
	num.Mul(num, new(big.Int).Exp(five, big.NewInt(int64(k-fives)), nil))
	d.Negative = num.Sign() < 0
	num.Abs(num)
	d.Coeff.SetMathBigInt(num)
	d.Exponent = int32(-k)
	var reduced apd.Decimal
	reduced.Reduce(&d)
	return reduced, true
}

var bigOneInt = big.NewInt(1)

// ratToDecimalWord is ratToDecimal for a numerator and denominator that
// fit in machine words; decided is false when they, or the result, do not.
func ratToDecimalWord(r *big.Rat) (d apd.Decimal, ok, decided bool) {
	num, den := r.Num(), r.Denom()
	if !den.IsUint64() || num.BitLen() > 63 {
		return d, false, false
	}
	n, q := num.Int64(), den.Uint64()
	neg := n < 0
	if neg {
		n = -n
	}
	twos, fives := 0, 0
	for q%2 == 0 {
		q /= 2
		twos++
	}
	for q%5 == 0 {
		q /= 5
		fives++
	}
	if q != 1 {
		return d, false, true
	}
	// n / (2^twos 5^fives) = n·2^(k-twos)·5^(k-fives) / 10^k.
	k := max(twos, fives)
	c := uint64(n)
	for range k - twos {
		hi, lo := bits.Mul64(c, 2)
		if hi != 0 {
			return d, false, false
		}
		c = lo
	}
	for range k - fives {
		hi, lo := bits.Mul64(c, 5)
		if hi != 0 {
			return d, false, false
		}
		c = lo
	}
	exp := -k
	for c != 0 && c%10 == 0 {
		c /= 10
		exp++
	}
	d.Coeff.SetUint64(c)
	d.Exponent = int32(exp)
	d.Negative = neg && c != 0
	if c == 0 {
		d.Exponent = 0
	}
	return d, true, true
}

// apply computes y = (x*a + b)/c at the working context, reporting whether
// it had to round.
func (p *affine) apply(y, x *apd.Decimal, work *apd.Context) (inexact bool, err error) {
	var t apd.Decimal
	if _, err = arith(exact.Mul(&t, x, &p.a)); err != nil {
		return false, err
	}
	if p.hasOffset {
		if _, err = arith(exact.Add(&t, &t, &p.b)); err != nil {
			return false, err
		}
	}
	if p.cIsOne {
		y.Set(&t)
		return false, nil
	}
	cond, err := arith(work.Quo(y, &t, &p.c))
	return cond.Inexact(), err
}

// invert computes x = (y*c - b)/a at the working context.
func (p *affine) invert(x, y *apd.Decimal, work *apd.Context) (inexact bool, err error) {
	var t apd.Decimal
	if _, err = arith(exact.Mul(&t, y, &p.c)); err != nil {
		return false, err
	}
	if p.hasOffset {
		if _, err = arith(exact.Sub(&t, &t, &p.b)); err != nil {
			return false, err
		}
	}
	if p.aIsOne {
		x.Set(&t)
		return false, nil
	}
	cond, err := arith(work.Quo(x, &t, &p.a))
	return cond.Inexact(), err
}
