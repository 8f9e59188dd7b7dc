package exact

import (
	"math/big"
	"math/bits"
	"sync"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine/internal/digits"
)

// Decimal is a rounded result: its coefficient times 10^Exp, negated when
// Neg. The coefficient is held in two words (hi·2^64 + lo, below 10^38)
// when the word path produced it, else in a big integer.
type Decimal struct {
	hi, lo uint64
	big    *big.Int
	Exp    int
	Neg    bool
}

// IsZero reports whether d is zero.
func (d *Decimal) IsZero() bool {
	if d.big != nil {
		return d.big.Sign() == 0
	}
	return d.hi == 0 && d.lo == 0
}

// Words reports whether the coefficient is held in words.
func (d *Decimal) Words() bool { return d.big == nil }

// Coeff returns the coefficient as a new big integer.
func (d *Decimal) Coeff() *big.Int {
	if d.big != nil {
		return new(big.Int).Set(d.big)
	}
	c := new(big.Int).SetUint64(d.hi)
	return c.Lsh(c, 64).Or(c, new(big.Int).SetUint64(d.lo))
}

// Append appends d as the API prints a number (see package digits).
func (d *Decimal) Append(dst []byte) []byte {
	var buf [64]byte
	var ds []byte
	switch {
	case d.big != nil:
		ds = d.big.Append(buf[:0], 10)
	case d.hi == 0:
		ds = digits.AppendUint(buf[:0], d.lo)
	default:
		ds = digits.AppendUint128(buf[:0], d.hi, d.lo)
	}
	return digits.Format(dst, d.Neg, ds, d.Exp)
}

// String is Append's text.
func (d *Decimal) String() string { return string(d.Append(nil)) }

// Apd sets a to d.
func (d *Decimal) Apd(a *apd.Decimal) {
	if d.big != nil {
		a.Coeff.SetMathBigInt(d.big)
	} else if d.hi == 0 {
		a.Coeff.SetUint64(d.lo)
	} else {
		a.Coeff.SetMathBigInt(d.Coeff())
	}
	a.Form = apd.Finite
	a.Exponent = int32(d.Exp)
	a.Negative = d.Neg && !d.IsZero()
}

// CmpUint64 compares d with n and returns -1, 0 or +1, without
// allocating when the coefficient is held in words.
func (d *Decimal) CmpUint64(n uint64) int {
	if d.IsZero() {
		if n == 0 {
			return 0
		}
		return -1
	}
	if d.Neg {
		return -1
	}
	if d.big != nil {
		return d.Rat().Cmp(new(big.Rat).SetUint64(n))
	}
	if d.Exp >= 0 {
		// A nonzero coefficient times 10^20 or more exceeds every word.
		if d.hi != 0 || d.Exp >= len(pow10) {
			return 1
		}
		h, l := bits.Mul64(d.lo, pow10[d.Exp])
		if h != 0 {
			return 1
		}
		return cmpWords(0, l, 0, n)
	}
	// Compare the coefficient with n·10^k, k = -Exp, in 128 bits: a
	// coefficient is below 10^38 < 2^128, so an overflow means n·10^k is
	// the larger.
	k := -d.Exp
	if n == 0 {
		return 1
	}
	if k >= 39 {
		return -1
	}
	var nh, nl uint64
	if k < len(pow10) {
		nh, nl = bits.Mul64(n, pow10[k])
	} else {
		h, l := bits.Mul64(n, pow10[len(pow10)-1])
		w := pow10[k-len(pow10)+1]
		h2, l2 := bits.Mul64(l, w)
		h3, l3 := bits.Mul64(h, w)
		var c uint64
		nh, c = bits.Add64(h2, l3, 0)
		if h3 != 0 || c != 0 {
			return -1
		}
		nl = l2
	}
	return cmpWords(d.hi, d.lo, nh, nl)
}

// cmpWords compares the 128-bit integers ah·2^64 + al and bh·2^64 + bl.
func cmpWords(ah, al, bh, bl uint64) int {
	switch {
	case ah < bh || ah == bh && al < bl:
		return -1
	case ah == bh && al == bl:
		return 0
	}
	return 1
}

// Rat returns d as an exact rational.
func (d *Decimal) Rat() *big.Rat {
	r := new(big.Rat).SetInt(d.Coeff())
	if d.Exp >= 0 {
		r.Mul(r, new(big.Rat).SetInt(pow10Big(d.Exp)))
	} else {
		r.Quo(r, new(big.Rat).SetInt(pow10Big(-d.Exp)))
	}
	if d.Neg {
		r.Neg(r)
	}
	return r
}

// maxWordDigits is the largest precision the word path serves: a
// coefficient must stay below 10^38 to fit two words.
const maxWordDigits = 38

// divWords sets the result to u/d · 10^exp, negated when neg, rounded
// half-even to p significant digits, and reports whether rounding dropped
// anything. It declines (ok=false) precisions beyond maxWordDigits,
// divisors from 2^59 on, and quotients with more than 58 digits to drop;
// the big path then answers. The coefficient of an inexact result has
// exactly p digits; an exact one stops at its last non-zero digit.
func divWords(r *Decimal, u u256, d uint64, exp int, neg bool, p int) (inexact, ok bool) {
	if p < 1 || p > maxWordDigits || d == 0 || d >= 1<<59 {
		return false, false
	}
	if u.isZero() {
		*r = Decimal{}
		return false, true
	}
	if u[2]|u[3] == 0 {
		if inexact, ok := div128(r, u[1], u[0], d, exp, neg, p); ok {
			return inexact, true
		}
	}
	q, rem := u.divWord(d)
	n := q.digits()
	if n > p {
		// Drop m digits: q = Q·10^m + R, and the value is
		// (Q·10^m + R + rem/d)·10^exp.
		m := n - p
		if m > 58 {
			return false, false
		}
		Q, R, scale := q, u256{}, u256{1}
		for left := m; left > 0; {
			c := min(left, 19)
			var part uint64
			Q, part = Q.divWord(pow10[c])
			t, _ := scale.mulWord(part)
			R, _ = R.add(&t)
			scale, _ = scale.mulWord(pow10[c])
			left -= c
		}
		// Round up when R + rem/d is above half of 10^m, or exactly half
		// and Q is odd: compare 2·(R·d + rem) with 10^m·d.
		rd, ok1 := R.mulWord(d)
		rd, ok2 := rd.add(&u256{rem})
		twice, ok3 := rd.shl1()
		cell, ok4 := scale.mulWord(d)
		if !ok1 || !ok2 || !ok3 || !ok4 {
			return false, false
		}
		hi, lo := Q[1], Q[0]
		if c := twice.cmp(&cell); c > 0 || c == 0 && lo&1 == 1 {
			hi, lo, m = roundUp(hi, lo, p, m)
		}
		*r = Decimal{hi: hi, lo: lo, Exp: exp + m, Neg: neg}
		return !R.isZero() || rem != 0, true
	}
	// q < 10^p: two words.
	qhi, qlo := q[1], q[0]
	k := 0
	if n == 0 {
		j := digits64(d) - digits64(rem)
		if rem*pow10[j] < d {
			j++
		}
		rem *= pow10[j-1]
		k += j - 1
	}
	return extend(r, qhi, qlo, rem, d, n, k, exp, neg, p), true
}

// extend continues a division whose quotient q = qhi·2^64 + qlo has n < p
// digits (k of them after the point) and remainder rem < d: it adds digits
// of rem/d until there are p or the division comes out even, and rounds.
// An exact quotient ends at its last non-zero digit.
func extend(r *Decimal, qhi, qlo, rem, d uint64, n, k, exp int, neg bool, p int) (inexact bool) {
	for n < p && rem != 0 {
		// Up to 19 digits per step: rem < d < 2^59, so rem·10^c fits in
		// 128 bits and its quotient by d in 64.
		c := min(p-n, 19)
		h, l := bits.Mul64(rem, pow10[c])
		var chunk, carry uint64
		chunk, rem = bits.Div64(h, l, d)
		if rem == 0 && chunk != 0 {
			// The division came out even: keep only the chunk's digits
			// up to its last non-zero one.
			var z int
			chunk, z = stripZeros(chunk)
			c -= z
		}
		qhi, qlo = mulPow10(qhi, qlo, pow10[c])
		qlo, carry = bits.Add64(qlo, chunk, 0)
		qhi += carry
		k += c
		n += c
	}
	m := 0
	if rem != 0 {
		if twice := 2 * rem; twice > d || twice == d && qlo&1 == 1 {
			qhi, qlo, m = roundUp(qhi, qlo, p, 0)
		}
	}
	*r = Decimal{hi: qhi, lo: qlo, Exp: exp - k + m, Neg: neg}
	return rem != 0
}

// stripZeros divides x > 0 by the largest power of ten that divides it,
// and returns the exponent: five steps of 8, 8, 4, 2 and 1 zeros, each
// taken when it leaves the remaining count below its size, instead of a
// loop of dependent divisions.
func stripZeros(x uint64) (uint64, int) {
	if x&1 != 0 {
		return x, 0
	}
	n := 0
	if x%1e8 == 0 {
		x, n = x/1e8, n+8
		if x%1e8 == 0 {
			x, n = x/1e8, n+8
		}
	}
	if x%1e4 == 0 {
		x, n = x/1e4, n+4
	}
	if x%100 == 0 {
		x, n = x/100, n+2
	}
	if x%10 == 0 {
		x, n = x/10, n+1
	}
	return x, n
}

// div128 is divWords for a numerator of two words whose integer quotient
// has at most p digits (the common case: a value of a few digits times a
// factor); ok is false otherwise.
func div128(r *Decimal, hi, lo, d uint64, exp int, neg bool, p int) (inexact, ok bool) {
	var qhi, hr uint64
	if hi != 0 { // most numerators are one word: skip a hardware division
		qhi, hr = hi/d, hi%d
	}
	qlo, rem := bits.Div64(hr, lo, d)
	var n int
	if qhi == 0 {
		n = digits64(qlo)
	} else {
		if qhi >= 1e19/2 {
			return false, false
		}
		high, _ := bits.Div64(qhi, qlo, 1e19)
		n = digits64(high) + 19
	}
	if n > p {
		return false, false
	}
	k := 0
	if n == 0 {
		// Skip the zeros after the point at once: the first significant
		// digit comes from rem·10^j with the smallest j where
		// rem·10^j >= d.
		j := digits64(d) - digits64(rem)
		if rem*pow10[j] < d {
			j++
		}
		rem *= pow10[j-1]
		k += j - 1
	}
	return extend(r, qhi, qlo, rem, d, n, k, exp, neg, p), true
}

// roundUp adds one to a coefficient of p digits; when that makes it 10^p,
// it becomes 10^(p-1) and the exponent shift m grows by one.
func roundUp(hi, lo uint64, p, m int) (uint64, uint64, int) {
	var carry uint64
	lo, carry = bits.Add64(lo, 1, 0)
	hi += carry
	if t := pow10Words[p]; hi == t[1] && lo == t[0] {
		t = pow10Words[p-1]
		return t[1], t[0], m + 1
	}
	return hi, lo, m
}

// divBig is divWords in big integers, for any operands: n >= 0, d > 0.
// Its coefficient has exactly p digits (or is zero).
func divBig(n, d *big.Int, exp int, neg bool, p int) (Decimal, bool) {
	if n.Sign() == 0 {
		return Decimal{big: new(big.Int)}, false
	}
	// n/d lies in (10^(dn-dd-1), 10^(dn-dd+1)), so with s = p - dn + dd
	// the quotient n·10^s/d has p or p+1 digits.
	s := p - digitsBig(n) + digitsBig(d)
	num, den := n, d
	if s > 0 {
		num = new(big.Int).Mul(n, pow10Big(s))
	} else if s < 0 {
		den = new(big.Int).Mul(d, pow10Big(-s))
	}
	q, rem := new(big.Int).QuoRem(num, den, new(big.Int))
	m := 0
	var up bool
	inexact := rem.Sign() != 0
	if digitsBig(q) > p {
		// One digit too many: q = Q·10 + R.
		var R big.Int
		q.QuoRem(q, big10, &R)
		m = 1
		inexact = inexact || R.Sign() != 0
		// Compare 2·(R·den + rem) with 10·den.
		t := new(big.Int).Mul(&R, den)
		t.Add(t, rem).Lsh(t, 1)
		c := t.Cmp(new(big.Int).Mul(den, big10))
		up = c > 0 || c == 0 && q.Bit(0) == 1
	} else {
		c := new(big.Int).Lsh(rem, 1).Cmp(den)
		up = c > 0 || c == 0 && q.Bit(0) == 1
	}
	if up {
		q.Add(q, bigOne)
		if q.Cmp(pow10Big(p)) == 0 {
			q.Set(pow10Big(p - 1))
			m++
		}
	}
	return Decimal{big: q, Exp: exp - s + m, Neg: neg}, inexact
}

var (
	big10  = big.NewInt(10)
	bigOne = big.NewInt(1)
)

// pow10Big returns 10^n; the caller must not modify it. Powers up to
// maxCachedPow are computed once.
func pow10Big(n int) *big.Int {
	if n > maxCachedPow {
		return new(big.Int).Exp(big10, big.NewInt(int64(n)), nil)
	}
	pow10Once.Do(func() {
		pow10Table = make([]*big.Int, maxCachedPow+1)
		p := big.NewInt(1)
		for i := range pow10Table {
			pow10Table[i] = new(big.Int).Set(p)
			p.Mul(p, big10)
		}
	})
	return pow10Table[n]
}

const maxCachedPow = 1200

var (
	pow10Once  sync.Once
	pow10Table []*big.Int
)

// digitsBig counts the decimal digits of x > 0.
func digitsBig(x *big.Int) int {
	if x.IsUint64() {
		return digits64(x.Uint64())
	}
	// BitLen·log10(2) rounded down is the count or one less.
	n := int(int64(x.BitLen()) * 30103 / 100000)
	if x.CmpAbs(pow10Big(n)) >= 0 {
		n++
	}
	return n
}

// bracketWords rounds a value known only to lie strictly between lo/d and
// (lo+w)/d (times 10^exp, negated when neg) to p digits, when both ends
// round alike; ok is false when they may not, or the words do not reach.
// It divides once: the lower end's quotient, cut to p digits, leaves it at
// pos (in units of 1/d) inside its rounding cell of 10^m·d, and the upper
// end lies w further on.
func bracketWords(r *Decimal, lo, w u256, d uint64, exp int, neg bool, p int) (ok bool) {
	if p < 1 || p > maxWordDigits || d == 0 || d >= 1<<59 {
		return false
	}
	m := quotientDigits(&lo, d) - p
	if m < 1 || m > 38 {
		return false
	}
	// lo/d = Q·10^m + pos/d, 0 <= pos < cell = d·10^m.
	var Q, pos, cell u256
	if dh, dl := bits.Mul64(d, pow10[min(m, 19)]); m <= 19 && dh == 0 {
		// One division by the cell, where dividing by d and then by 10^m
		// takes two hardware divisions a word.
		var rem uint64
		Q, rem = lo.divWord(dl)
		pos, cell = u256{rem}, u256{dl}
	} else {
		q, rem := lo.divWord(d)
		var R u256 // q = Q·10^m + R
		if m <= 19 {
			var part uint64
			Q, part = q.divWord(pow10[m])
			R = u256{part}
		} else {
			q1, ra := q.divWord(pow10[19])
			var rb uint64
			Q, rb = q1.divWord(pow10[m-19])
			hi, l := bits.Mul64(rb, pow10[19])
			l, c := bits.Add64(l, ra, 0)
			R = u256{l, hi + c}
		}
		var ok1, ok2, ok3 bool
		pos, ok1 = R.mulWord(d)
		pos, ok2 = pos.add(&u256{rem})
		cell, ok3 = pow10Words[m].mulWord(d)
		if !ok1 || !ok2 || !ok3 {
			return false
		}
	}
	upper, ok4 := pos.add(&w)
	upper2, ok5 := upper.shl1()
	pos2, ok6 := pos.shl1()
	if !ok4 || !ok5 || !ok6 {
		return false
	}
	hi, lo64 := Q[1], Q[0]
	switch {
	case upper2.cmp(&cell) < 0: // both ends below the half: down
	case pos2.cmp(&cell) > 0 && upper.cmp(&cell) < 0: // both above the half, inside the cell: up
		hi, lo64, m = roundUp(hi, lo64, p, m)
	default:
		return false
	}
	*r = Decimal{hi: hi, lo: lo64, Exp: exp + m, Neg: neg}
	return true
}
