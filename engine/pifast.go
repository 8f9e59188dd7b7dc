package engine

import (
	"math/big"
	"math/bits"
	"sync"

	"github.com/cockroachdb/apd/v3"
)

// The π accelerator
//
// roundPi, the plain path, brackets π between two decimals of 60+2p
// digits and divides both ends with apd at the target precision, which
// costs a few microseconds: apd scales its operands with fresh powers of
// ten and allocates on every step. Degrees to radians is a common
// conversion, so piFast does the same bracketing in integers against a
// table built once: π^k between two integers at a fixed scale, for the
// small k that catalog factors carry. Each end is divided and rounded
// with math/big, and the result is taken only when both ends round to the
// same digits; otherwise piFast declines and roundPi answers.

const (
	// maxPiFastPow is the largest |k| the table covers: a solid angle
	// carries π², a rare compound unit π³ or π⁴.
	maxPiFastPow = 4
	// piFastGuard is how many digits beyond the precision each bracket of
	// π^k carries: a result is undecided only within about 10^-15
	// (relative) of a rounding boundary.
	piFastGuard = 16
	// maxPiFastDigits bounds the operands the accelerator takes, so that
	// every power of ten it needs is in the table (maxPow10).
	maxPiFastDigits = 60
)

// piFastBracket holds lo·10^-scale < π^k < (lo+width)·10^-scale, lo of
// p+piFastGuard digits for the precision p it serves.
type piFastBracket struct {
	lo    *big.Int
	width *big.Int
	scale int
	// loWords and widthWord are lo and width in machine words, for
	// piWords, when words says they fit.
	words     bool
	loWords   u256
	widthWord uint64
}

var (
	piFastOnce  sync.Once
	piFastTable [2*maxPiFastPow + 1][MaxPrecision + 1]piFastBracket
)

// piFastBrackets returns the bracket of π^k for 0 < |k| <= maxPiFastPow
// and precision p.
func piFastBrackets(k, p int) *piFastBracket {
	piFastOnce.Do(buildPiFast)
	return &piFastTable[k+maxPiFastPow][p]
}

// buildPiFast brackets π^k from π to 150 places: π lies in
// [c, c+1]·10^-150, so π^k lies between the k-th powers of the two ends,
// and flooring the lower and ceiling the upper keeps the bracket strict.
func buildPiFast() {
	const places = 150
	unit := new(big.Int).Exp(big.NewInt(10), big.NewInt(places), nil)
	c := piScaled(places).MathBigInt()
	lo := new(big.Rat).SetFrac(c, unit)
	hi := new(big.Rat).SetFrac(new(big.Int).Add(c, big.NewInt(1)), unit)
	for k := -maxPiFastPow; k <= maxPiFastPow; k++ {
		if k == 0 {
			continue
		}
		a, b := ratPow(lo, abs(k)), ratPow(hi, abs(k))
		if k < 0 {
			a, b = new(big.Rat).Inv(b), new(big.Rat).Inv(a)
		}
		// π^k has e digits before the decimal point (e <= 0 below 1).
		e := decimalDigits(new(big.Int).Quo(new(big.Int).Mul(a.Num(), lnexpTables().pow10[10]), a.Denom())) - 10
		for p := 1; p <= MaxPrecision; p++ {
			scale := p + piFastGuard - e
			f := lnexpTables().pow10[scale]
			var l, h, r big.Int
			l.Quo(new(big.Int).Mul(a.Num(), f), a.Denom())
			h.QuoRem(new(big.Int).Mul(b.Num(), f), b.Denom(), &r)
			if r.Sign() != 0 {
				h.Add(&h, big.NewInt(1))
			}
			br := piFastBracket{lo: &l, width: h.Sub(&h, &l), scale: scale}
			if ws := l.Bits(); len(ws) <= len(br.loWords) && br.width.IsUint64() && bits.UintSize == 64 {
				for i, w := range ws {
					br.loWords[i] = uint64(w)
				}
				br.widthWord, br.words = br.width.Uint64(), true
			}
			piFastTable[k+maxPiFastPow][p] = br
		}
	}
}

// piScratch holds the integers of one piFast call.
type piScratch struct {
	n, d, t, q, r, m, pos, w big.Int
}

var piScratchPool = sync.Pool{New: func() any { return new(piScratch) }}

// piFast sets out to (num/den)·π^k rounded half-even to p significant
// digits, as roundPi does, and reports whether it could decide the
// rounding. den > 0; a zero num is left to roundPi.
//
// With π^k in (L, L+w)·10^-s, the value lies in (n·L, n·L + n·w)/d,
// scaled by a power of ten. Dividing n·L by d and then by the power of
// ten that leaves p digits gives the lower end's digits q and its place
// in the rounding cell of q; the rounding is decided when the upper end
// falls in the same half of the same cell.
func piFast(out *apd.Decimal, num, den *apd.Decimal, k, p int) bool {
	if k == 0 || abs(k) > maxPiFastPow || p < 1 || p > MaxPrecision || num.IsZero() ||
		num.Form != apd.Finite || den.Form != apd.Finite || den.Negative {
		return false
	}
	sc := piScratchPool.Get().(*piScratch)
	defer piScratchPool.Put(sc)
	pow := lnexpTables().pow10
	setCoeff(&sc.n, num)
	setCoeff(&sc.d, den)
	nd, dd := decimalDigits(&sc.n), decimalDigits(&sc.d)
	if nd > maxPiFastDigits || dd > maxPiFastDigits || dd == 0 {
		return false
	}
	br := piFastBrackets(k, p)
	exp := int64(num.Exponent) - int64(den.Exponent) - int64(br.scale)
	sc.t.Mul(&sc.n, br.lo)
	sc.w.Mul(&sc.n, br.width)
	// Make sure n·L/d has more than p digits.
	if short := p + 1 - (decimalDigits(&sc.t) - dd); short > 0 {
		sc.t.Mul(&sc.t, pow[short])
		sc.w.Mul(&sc.w, pow[short])
		exp -= int64(short)
	}
	sc.q.QuoRem(&sc.t, &sc.d, &sc.r) // n·L = q·d + r
	m := decimalDigits(&sc.q) - p    // digits to drop, >= 1
	if m < 1 || m > maxPow10 {
		return false
	}
	sc.q.QuoRem(&sc.q, pow[m], &sc.m) // q·10^m + mr is the old q
	exp += int64(m)
	// In units of 1/d below q·10^m·d: the lower end at pos = mr·d + r,
	// the upper at pos + n·w, the cell is 10^m·d wide.
	sc.pos.Mul(&sc.m, &sc.d)
	sc.pos.Add(&sc.pos, &sc.r)
	cell := sc.m.Mul(pow[m], &sc.d) // sc.m is free again
	upper := sc.w.Add(&sc.w, &sc.pos)
	var up bool
	switch {
	case upper.Lsh(upper, 1).Cmp(cell) < 0: // 2·upper < cell: both round down
		up = false
	case sc.pos.Lsh(&sc.pos, 1).Cmp(cell) > 0 && upper.Cmp(sc.r.Lsh(cell, 1)) < 0:
		up = true // both above the half, both below the cell's end
	default:
		return false
	}
	if up {
		sc.q.Add(&sc.q, pow[0])
		if sc.q.Cmp(pow[p]) == 0 {
			sc.q.Set(pow[p-1])
			exp++
		}
	}
	if exp < apd.MinExponent || exp > apd.MaxExponent {
		return false
	}
	out.Form = apd.Finite
	out.Coeff.SetMathBigInt(&sc.q)
	out.Exponent = int32(exp)
	out.Negative = num.Negative
	return true
}

// decimalDigits returns the number of decimal digits of x > 0, or 0 for
// zero; x must have fewer than maxPow10 digits.
func decimalDigits(x *big.Int) int {
	if x.IsUint64() {
		return countDecimalDigits(x.Uint64())
	}
	// bl·log10(2) rounded down is the digit count or one less.
	n := x.BitLen() * 30103 / 100000
	if n+1 > maxPow10 || x.Cmp(lnexpTables().pow10[n]) >= 0 {
		return n + 1
	}
	return n
}
