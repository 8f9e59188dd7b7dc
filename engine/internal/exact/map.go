package exact

import (
	"errors"
	"math/big"
	"math/bits"
	"sync"

	"github.com/cockroachdb/apd/v3"
)

// Map is the map x ↦ (A·x + B)/(C·x + D) · π^K with integer coefficients:
// a Möbius map times a power of π. A linear map (x·f) has B = C = 0, an
// affine one (x·f + o) has C = 0, and a reciprocal one (100/x) has C ≠ 0,
// a pole where C·x + D is zero. A Map is immutable and safe for concurrent
// use.
//
// The coefficients are kept in lowest terms with the first non-zero of C
// and D positive, so that equal maps have equal coefficients, and a
// linear or affine map has D > 0.
type Map struct {
	a, b, c, d *big.Int
	k          int
	w          wordMap
	id         bool // x ↦ x
}

// wordMap is the map's coefficients in machine words when all four fit
// in 62 bits.
type wordMap struct {
	a, b, c, d     uint64 // magnitudes
	an, bn, cn, dn bool   // signs
	ok             bool
	// A d made of twos and fives only (1250 = 2·5⁴) makes a/d a
	// decimal: da·10^-ds (381/1250 = 3048·10⁻⁴), when da fits a word.
	// dec says so; roundWords then multiplies instead of dividing.
	dec bool
	da  uint64
	ds  int
}

// MaxBits bounds every coefficient a Map may have, and so every exact
// intermediate of building and composing maps: far above any catalog's
// (whose factors have tens of digits) and far below what would take
// noticeable time to multiply.
const MaxBits = 8192

// Errors of building and evaluating maps.
var (
	// ErrTooLarge is a map or value whose exact numbers would exceed
	// MaxBits.
	ErrTooLarge = errors.New("exact number too large (more than 2466 digits)")
	// ErrPiInside is a composition that would put π inside a map that
	// is not linear (an offset or a pole applied to a multiple of π),
	// which no Map can state.
	ErrPiInside = errors.New("a factor involving pi cannot meet an offset or a formula")
	// ErrConstant is a map that does not depend on x.
	ErrConstant = errors.New("the map is constant: it does not depend on x")
	// ErrPole is a value at the pole of a map: a division by zero.
	ErrPole = errors.New("division by zero")
)

// New returns (a·x + b)/(c·x + d) · π^k.
func New(a, b, c, d *big.Rat, k int) (*Map, error) {
	// Scale the four to integers by the lcm of their denominators.
	lcm := big.NewInt(1)
	for _, r := range [4]*big.Rat{a, b, c, d} {
		if r.Denom().Cmp(bigOne) == 0 {
			continue
		}
		g := new(big.Int).GCD(nil, nil, lcm, r.Denom())
		lcm.Mul(lcm, new(big.Int).Quo(r.Denom(), g))
		if lcm.BitLen() > MaxBits {
			return nil, ErrTooLarge
		}
	}
	ints := func(r *big.Rat) *big.Int {
		n := new(big.Int).Mul(r.Num(), lcm)
		return n.Quo(n, r.Denom())
	}
	return newMap(ints(a), ints(b), ints(c), ints(d), k)
}

// newMap takes ownership of a, b, c and d and normalises them.
func newMap(a, b, c, d *big.Int, k int) (*Map, error) {
	linear := b.Sign() == 0 && c.Sign() == 0
	if linear {
		if a.Sign() == 0 || d.Sign() == 0 {
			return nil, ErrConstant
		}
	} else if new(big.Int).Mul(a, d).Cmp(new(big.Int).Mul(b, c)) == 0 {
		return nil, ErrConstant
	}
	g := new(big.Int)
	for _, x := range [4]*big.Int{a, b, c, d} {
		if x.Sign() != 0 {
			g.GCD(nil, nil, g, x) // GCD takes either sign and is never negative
		}
	}
	if c.Sign() < 0 || c.Sign() == 0 && d.Sign() < 0 {
		g.Neg(g)
	}
	m := &Map{a: a, b: b, c: c, d: d, k: k}
	one := g.IsInt64() && g.Int64() == 1
	for _, x := range [4]*big.Int{a, b, c, d} {
		if !one && x.Sign() != 0 {
			x.Quo(x, g)
		}
		if x.BitLen() > MaxBits {
			return nil, ErrTooLarge
		}
	}
	m.w = wordsOf(a, b, c, d)
	m.id = k == 0 && linear && a.Cmp(d) == 0
	return m, nil
}

func wordsOf(a, b, c, d *big.Int) wordMap {
	var w wordMap
	coef := [4]*uint64{&w.a, &w.b, &w.c, &w.d}
	neg := [4]*bool{&w.an, &w.bn, &w.cn, &w.dn}
	for i, x := range [4]*big.Int{a, b, c, d} {
		if x.BitLen() > 62 || bitsPerWord != 64 {
			return wordMap{}
		}
		if ws := x.Bits(); len(ws) > 0 {
			*coef[i] = uint64(ws[0])
		}
		*neg[i] = x.Sign() < 0
	}
	w.ok = true
	w.da, w.ds, w.dec = decimalFactor(w.a, w.d)
	return w
}

// decimalFactor writes a/d as da·10^-ds when d > 0 has no prime factor
// but 2 and 5, ds ≤ 19 and da fits a word; ok reports whether it could.
func decimalFactor(a, d uint64) (da uint64, ds int, ok bool) {
	if d == 0 {
		return 0, 0, false
	}
	twos := bits.TrailingZeros64(d)
	rest, fives := d>>twos, 0
	for rest%5 == 0 {
		rest, fives = rest/5, fives+1
	}
	ds = max(twos, fives)
	if rest != 1 || ds > 19 {
		return 0, 0, false
	}
	hi, m := bits.Mul64(pow10[ds]/d, a) // 10^ds/d = 2^(ds-twos)·5^(ds-fives)
	if hi != 0 {
		return 0, 0, false
	}
	return m, ds, true
}

// Identity returns x ↦ x.
func Identity() *Map {
	m, _ := Linear(big.NewRat(1, 1), 0)
	return m
}

// FromCoefficients returns (a·x + b)/(c·x + d) · π^k from integer
// coefficients (those of Coefficients), taking ownership of them: how a
// map written out by Coefficients is read back.
func FromCoefficients(a, b, c, d *big.Int, k int) (*Map, error) { return newMap(a, b, c, d, k) }

// FromLowestTerms returns (a·x + b)/(c·x + d) · π^k from coefficients
// already in the normal form Coefficients writes (lowest terms, the first
// non-zero of C and D positive), taking ownership of them: how a snapshot
// reads its maps back. Unlike FromCoefficients it divides nothing out; it
// checks the normal form instead, in machine words when the four fit, and
// refuses coefficients not in it.
func FromLowestTerms(a, b, c, d *big.Int, k int) (*Map, error) {
	linear := b.Sign() == 0 && c.Sign() == 0
	w := wordsOf(a, b, c, d)
	switch {
	case linear && (a.Sign() == 0 || d.Sign() == 0):
		return nil, ErrConstant
	case c.Sign() < 0 || c.Sign() == 0 && d.Sign() < 0:
		return nil, errNotNormal
	case w.ok:
		if !linear && w.constant() {
			return nil, ErrConstant
		}
		if gcdWords(gcdWords(w.a, w.b), gcdWords(w.c, w.d)) != 1 {
			return nil, errNotNormal
		}
	default:
		for _, x := range [4]*big.Int{a, b, c, d} {
			if x.BitLen() > MaxBits {
				return nil, ErrTooLarge
			}
		}
		if !linear && new(big.Int).Mul(a, d).Cmp(new(big.Int).Mul(b, c)) == 0 {
			return nil, ErrConstant
		}
		if !Coprime(a, b, c, d) {
			return nil, errNotNormal
		}
	}
	return &Map{a: a, b: b, c: c, d: d, k: k, w: w, id: k == 0 && linear && a.Cmp(d) == 0}, nil
}

// Coprime reports whether the non-zero values of xs have no common
// divisor but 1 (false when all are zero). It runs Euclid's algorithm in
// integers it keeps for the next call, where big.Int.GCD allocates its
// own on every call: checking the rationals and maps of a restored
// catalog beyond machine words allocated 100 KB.
func Coprime(xs ...*big.Int) bool {
	s := gcdScratch.Get().(*[4]big.Int)
	defer gcdScratch.Put(s)
	g, y, q, r := &s[0], &s[1], &s[2], &s[3]
	g.SetInt64(0)
	for _, x := range xs {
		if x.Sign() == 0 {
			continue
		}
		// g = gcd(g, |x|)
		y.Abs(x)
		for y.Sign() != 0 {
			q.QuoRem(g, y, r)
			g.Set(y)
			y.Set(r)
		}
		if g.IsInt64() && g.Int64() == 1 {
			return true
		}
	}
	return false
}

var gcdScratch = sync.Pool{New: func() any { return new([4]big.Int) }}

// errNotNormal is a map read back whose coefficients are not in lowest
// terms with the sign where Coefficients puts it.
var errNotNormal = errors.New("coefficients not in their normal form")

// constant reports whether A·D = B·C: a map that does not depend on x.
func (w *wordMap) constant() bool {
	adHi, adLo := bits.Mul64(w.a, w.d)
	bcHi, bcLo := bits.Mul64(w.b, w.c)
	adZero, bcZero := adHi|adLo == 0, bcHi|bcLo == 0
	switch {
	case adZero || bcZero:
		return adZero && bcZero
	case w.an != w.dn:
		return w.bn != w.cn && adHi == bcHi && adLo == bcLo
	default:
		return w.bn == w.cn && adHi == bcHi && adLo == bcLo
	}
}

// gcdWords is the greatest common divisor of a and b (gcd(0, b) = b).
func gcdWords(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// Reciprocal returns x ↦ 1/x.
func Reciprocal() *Map {
	m, _ := newMap(big.NewInt(0), big.NewInt(1), big.NewInt(1), big.NewInt(0), 0)
	return m
}

// Linear returns x ↦ x·f·π^k: ErrConstant when f is zero, ErrTooLarge
// when f's numerator or denominator exceeds MaxBits.
//
// A big.Rat is kept in lowest terms with a positive denominator, which is
// already the normal form of a linear map (A its numerator, D its
// denominator), so Linear copies the two rather than normalising through
// New: every unit expression builds one.
func Linear(f *big.Rat, k int) (*Map, error) {
	switch {
	case f.Sign() == 0:
		return nil, ErrConstant
	case f.Num().BitLen() > MaxBits || f.Denom().BitLen() > MaxBits:
		return nil, ErrTooLarge
	}
	a, d := new(big.Int).Set(f.Num()), new(big.Int).Set(f.Denom())
	b, c := new(big.Int), new(big.Int)
	m := &Map{a: a, b: b, c: c, d: d, k: k}
	m.w = wordsOf(a, b, c, d)
	m.id = k == 0 && a.Cmp(d) == 0
	return m, nil
}

// Affine returns x ↦ (x·f + o)·π^k; f must not be zero.
func Affine(f, o *big.Rat, k int) (*Map, error) {
	return New(f, o, new(big.Rat), big.NewRat(1, 1), k)
}

// K is the map's power of π.
func (m *Map) K() int { return m.k }

// IsLinear reports whether the map is x ↦ x·f·π^k.
func (m *Map) IsLinear() bool { return m.b.Sign() == 0 && m.c.Sign() == 0 }

// HasPole reports whether the map divides by an expression in x (C ≠ 0).
func (m *Map) HasPole() bool { return m.c.Sign() != 0 }

// Affine returns the factor f and offset o of an affine map, x ↦ (x·f +
// o)·π^k, or ok=false for a map with a pole.
func (m *Map) Affine() (f, o *big.Rat, ok bool) {
	if m.HasPole() {
		return nil, nil, false
	}
	return new(big.Rat).SetFrac(m.a, m.d), new(big.Rat).SetFrac(m.b, m.d), true
}

// LinearWords returns the factor num/den of a linear map without π, in
// lowest terms, when it is positive and both fit a word: what
// Radix.SplitWords takes.
func (m *Map) LinearWords() (num, den uint64, ok bool) {
	if !m.IsLinear() || m.k != 0 || m.a.Sign() <= 0 || !m.a.IsUint64() || !m.d.IsUint64() {
		return 0, 0, false
	}
	return m.a.Uint64(), m.d.Uint64(), true
}

// Coefficients returns copies of A, B, C and D.
func (m *Map) Coefficients() (a, b, c, d *big.Int) {
	return new(big.Int).Set(m.a), new(big.Int).Set(m.b), new(big.Int).Set(m.c), new(big.Int).Set(m.d)
}

// Then returns the map that applies m first and n second. π passes
// through a linear n; it cannot pass into an n with an offset or a pole
// (ErrPiInside).
func (m *Map) Then(n *Map) (*Map, error) {
	if m.k != 0 && !n.IsLinear() {
		return nil, ErrPiInside
	}
	if m.IsLinear() && n.IsLinear() {
		return newMap(new(big.Int).Mul(n.a, m.a), new(big.Int), new(big.Int), new(big.Int).Mul(n.d, m.d), m.k+n.k)
	}
	dot := func(x, y, z, w *big.Int) *big.Int {
		s := new(big.Int).Mul(x, y)
		return s.Add(s, new(big.Int).Mul(z, w))
	}
	// The matrix product n·m.
	return newMap(dot(n.a, m.a, n.b, m.c), dot(n.a, m.b, n.b, m.d),
		dot(n.c, m.a, n.d, m.c), dot(n.c, m.b, n.d, m.d), m.k+n.k)
}

// Inverse returns the map that undoes m. A map with π must be linear to
// have an inverse of this form (ErrPiInside).
func (m *Map) Inverse() (*Map, error) {
	if m.k != 0 && !m.IsLinear() {
		return nil, ErrPiInside
	}
	return newMap(new(big.Int).Set(m.d), new(big.Int).Neg(m.b), new(big.Int).Neg(m.c), new(big.Int).Set(m.a), -m.k)
}

// Scale returns the map m followed by a multiplication by r·π^k; r must
// not be zero.
func (m *Map) Scale(r *big.Rat, k int) (*Map, error) {
	l, err := Linear(r, k)
	if err != nil {
		return nil, err
	}
	return m.Then(l)
}

// Pair returns the map of a conversion from the unit whose map onto a
// common reference is from to the unit whose map is to: to⁻¹ after from.
func Pair(from, to *Map) (*Map, error) {
	inv, err := to.Inverse()
	if err != nil {
		return nil, err
	}
	return from.Then(inv)
}

// maxDigits bounds the digits (coefficient and exponent together) of a
// value a map with an offset or a pole evaluates exactly: it must write
// the value out in full.
const maxDigits = 4000

// At returns m(x) exactly: ErrPole at the pole, ErrTooLarge for a value
// too long to write out in full where the map needs it (an offset or a
// pole, and an exponent beyond ±4000).
func (m *Map) At(x *apd.Decimal) (Value, error) {
	X := x.Coeff.MathBigInt()
	if x.Negative {
		X.Neg(X)
	}
	e := int(x.Exponent)
	if m.IsLinear() {
		return Value{Num: X.Mul(X, m.a), Den: new(big.Int).Set(m.d), Exp: e, K: m.k}, nil
	}
	if e > maxDigits || e < -maxDigits {
		return Value{}, ErrTooLarge
	}
	// x = X·up/down; m(x) = (a·X·up + b·down) / (c·X·up + d·down).
	up, down := bigOne, bigOne
	if e >= 0 {
		up = pow10Big(e)
	} else {
		down = pow10Big(-e)
	}
	xu := new(big.Int).Mul(X, up)
	num := new(big.Int).Mul(m.a, xu)
	num.Add(num, new(big.Int).Mul(m.b, down))
	if !m.HasPole() {
		// The denominator d·down is d times a power of ten: keep it as
		// the exponent.
		exp := 0
		if e < 0 {
			exp = e
		}
		return Value{Num: num, Den: new(big.Int).Set(m.d), Exp: exp, K: m.k}, nil
	}
	den := new(big.Int).Mul(m.c, xu)
	den.Add(den, new(big.Int).Mul(m.d, down))
	switch den.Sign() {
	case 0:
		return Value{}, ErrPole
	case -1:
		num.Neg(num)
		den.Neg(den)
	}
	return Value{Num: num, Den: den, K: m.k}, nil
}

// Round returns m(x) rounded half-even to p significant digits and whether
// that changed it (see Round). With words set it computes in machine words
// when the coefficients, x and p allow, and in big integers otherwise;
// both give the same digits.
func (m *Map) Round(x *apd.Decimal, p int, words bool) (Decimal, bool, error) {
	var r Decimal
	inexact, err := m.RoundTo(&r, x, p, words)
	return r, inexact, err
}

// RoundTo is Round into *r, which a conversion keeps on its stack.
func (m *Map) RoundTo(r *Decimal, x *apd.Decimal, p int, words bool) (inexact bool, err error) {
	if words {
		if inexact, ok := m.roundWords(r, x, p); ok {
			return inexact, nil
		}
	}
	v, err := m.At(x)
	if err != nil {
		return false, err
	}
	*r, inexact = Round(&v, p)
	return inexact, nil
}

// RoundWordsTo is the word path of RoundTo alone, for a caller that
// tries it first without a call in between: ok is false when the words
// cannot serve x and p, and RoundTo then answers in big integers.
func (m *Map) RoundWordsTo(r *Decimal, x *apd.Decimal, p int) (inexact, ok bool) {
	return m.roundWords(r, x, p)
}

// mulDecimal sets r to x·da·10^(e-ds), x ≠ 0, when that product has at
// most p digits and fits a word, with the coefficient div128 gives for
// x·a/d (a whole quotient as it is, a fraction to its last non-zero
// digit), so that the two paths agree to the digit; ok is false
// otherwise, and div128 rounds.
func mulDecimal(r *Decimal, da, x uint64, ds, e int, neg bool, p int) (ok bool) {
	hi, c := bits.Mul64(da, x)
	if hi != 0 {
		return false
	}
	exp := e
	if ds > 0 {
		if q, whole := quoPow10(c, ds); whole {
			c = q
		} else {
			var z int
			c, z = stripZeros(c)
			exp = e - ds + z
		}
	}
	if digits64(c) > p {
		return false
	}
	*r = Decimal{lo: c, Exp: exp, Neg: neg}
	return true
}

// roundWords is Round in machine words: x of one word and an exponent
// within ±19, numerators within 256 bits, a denominator below 2^59.
func (m *Map) roundWords(r *Decimal, x *apd.Decimal, p int) (inexact, ok bool) {
	w := &m.w
	if !w.ok || p > maxWordDigits || x.Form != apd.Finite || !x.Coeff.IsUint64() {
		return false, false
	}
	X, e, xn := x.Coeff.Uint64(), int(x.Exponent), x.Negative
	if w.b == 0 && w.c == 0 && m.k == 0 && w.d < 1<<59 {
		// x·a/d: the most common map, in two words.
		hi, lo := bits.Mul64(w.a, X)
		if hi|lo == 0 {
			*r = Decimal{}
			return false, true
		}
		if w.dec && mulDecimal(r, w.da, X, w.ds, e, w.an != xn, p) {
			return false, true
		}
		if inexact, ok := div128(r, hi, lo, w.d, e, w.an != xn, p); ok {
			return inexact, true
		}
		return divWords(r, u256{lo, hi}, w.d, e, w.an != xn, p)
	}
	var num s256
	var den uint64
	var dneg bool
	exp := 0
	switch {
	case w.b == 0 && w.c == 0: // x·a/d, through π
		num, den, exp = s256{mul64(w.a, X), w.an != xn}, w.d, e
	case w.c == 0: // (x·a + b)/d
		den = w.d
		if e > 0 {
			if e > 19 {
				return false, false
			}
			ax := mul64(w.a, X)
			ax, ok1 := ax.mulWord(pow10[e])
			s, ok2 := s256{ax, w.an != xn}.add(s256{u256{w.b}, w.bn})
			if !ok1 || !ok2 {
				return false, false
			}
			num = s
		} else {
			// (x·a + b·10^-e)/d · 10^e, in words.
			if e < -19 {
				return false, false
			}
			lo, hi, top, neg := sumProducts(w.a, X, w.an != xn, w.b, pow10[-e], w.bn)
			num, exp = s256{u256{lo, hi, top}, neg}, e
		}
	default: // (x·a + b)/(x·c + d)
		up, down := uint64(1), uint64(1)
		switch {
		case e > 19 || e < -19:
			return false, false
		case e >= 0:
			up = pow10[e]
		default:
			down = pow10[-e]
		}
		hx, xu := bits.Mul64(X, up)
		if hx != 0 {
			return false, false
		}
		dlo, dhi, dtop, dn := sumProducts(w.c, xu, w.cn != xn, w.d, down, w.dn)
		if dtop|dhi != 0 || dlo == 0 {
			return false, false // also the pole: At reports it
		}
		lo, hi, top, neg := sumProducts(w.a, xu, w.an != xn, w.b, down, w.bn)
		num, den, dneg = s256{u256{lo, hi, top}, neg}, dlo, dn
	}
	if m.k == 0 && den < 1<<59 && num.m[2]|num.m[3] == 0 && num.m[0]|num.m[1] != 0 {
		// A numerator of two words: the division of the linear case.
		if inexact, ok := div128(r, num.m[1], num.m[0], den, exp, num.neg != dneg, p); ok {
			return inexact, true
		}
	}
	return roundWords(r, num.m, num.neg != dneg, den, exp, m.k, p)
}

// IsIdentity reports whether m is x ↦ x.
func (m *Map) IsIdentity() bool { return m.id }

// ExactWords sets out to m(x) when that is a decimal computed in machine
// words without rounding: a linear map without π whose denominator is a
// power of ten (x·0.3048 is x·381/1250: no), and x of one word, or of any
// length when the factor is a power of ten (x·1000, x/1000). It is the word path of
// At followed by Value.Exact, and reports whether it could serve x.
func (m *Map) ExactWords(x *apd.Decimal, out *apd.Decimal) bool {
	w := &m.w
	if !w.ok || w.b != 0 || w.c != 0 || m.k != 0 || x.Form != apd.Finite {
		return false
	}
	j := digits64(w.d) - 1
	if w.d != pow10[j] {
		return false
	}
	if i := digits64(w.a) - 1; w.a == pow10[i] {
		// A power of ten over a power of ten: x shifted, of any length.
		out.Set(x)
		out.Exponent += int32(i - j)
		out.Negative = x.Negative != w.an && !x.IsZero()
		return true
	}
	if !x.Coeff.IsUint64() {
		return false
	}
	hi, lo := bits.Mul64(w.a, x.Coeff.Uint64())
	if hi == 0 {
		out.Coeff.SetUint64(lo)
	} else if bitsPerWord == 64 {
		out.Coeff.SetBits([]big.Word{big.Word(lo), big.Word(hi)})
	} else {
		return false
	}
	out.Form = apd.Finite
	out.Exponent = x.Exponent - int32(j)
	out.Negative = x.Negative != w.an && (hi|lo) != 0
	return true
}
