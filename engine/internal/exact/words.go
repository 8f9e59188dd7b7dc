package exact

import "math/bits"

// u256 is an unsigned integer of four words, least significant first: the
// numerators of the word path (a value times a coefficient, or times a
// bracket of π^k) fit it. Its methods take it, and a second operand, by
// pointer and read it word by word: an array passed by value is copied through memory in 16-byte
// moves, which stall on the 8-byte stores that just wrote it (π's
// rounding ran a tenth slower so). The sums, shifts and comparisons are
// written out word by word; the product by a word stays a loop, which the
// compiler inlines.
type u256 [4]uint64

func (x *u256) isZero() bool { return x[0]|x[1]|x[2]|x[3] == 0 }

// mul64 returns a·b.
func mul64(a, b uint64) u256 {
	hi, lo := bits.Mul64(a, b)
	return u256{lo, hi}
}

// mulWord returns x·y, or ok=false beyond 256 bits.
func (x *u256) mulWord(y uint64) (z u256, ok bool) {
	var carry uint64
	for i, w := range x {
		hi, lo := bits.Mul64(w, y)
		var c uint64
		z[i], c = bits.Add64(lo, carry, 0)
		carry = hi + c
	}
	return z, carry == 0
}

// mul returns x·y, or ok=false beyond 256 bits: schoolbook over the
// words in use (a value times a bracket of π is two words by three).
func (x *u256) mul(y u256) (z u256, ok bool) {
	nx, ny := x.used(), y.used()
	if nx+ny > 6 { // the product is at least 2^(64·(nx+ny-2)) ≥ 2^320
		return z, false
	}
	var t [8]uint64
	for i := range nx {
		var carry uint64
		for j := range ny {
			hi, lo := bits.Mul64(x[i], y[j])
			var c uint64
			lo, c = bits.Add64(lo, t[i+j], 0)
			hi += c
			lo, c = bits.Add64(lo, carry, 0)
			hi += c
			t[i+j], carry = lo, hi
		}
		t[i+ny] = carry
	}
	if t[4]|t[5]|t[6]|t[7] != 0 {
		return z, false
	}
	return u256{t[0], t[1], t[2], t[3]}, true
}

// used returns the number of words of x up to its highest non-zero one.
func (x *u256) used() int {
	for i := len(x) - 1; i >= 0; i-- {
		if x[i] != 0 {
			return i + 1
		}
	}
	return 0
}

// divWord returns x/y and x mod y; y > 0.
func (x *u256) divWord(y uint64) (q u256, r uint64) {
	i := len(x) - 1
	for i > 0 && x[i] == 0 {
		i-- // a hardware division per word is the cost: skip the zero ones
	}
	for ; i >= 0; i-- {
		q[i], r = bits.Div64(r, x[i], y)
	}
	return q, r
}

// add returns x + y, or ok=false beyond 256 bits.
func (x *u256) add(y *u256) (z u256, ok bool) {
	var c uint64
	z[0], c = bits.Add64(x[0], y[0], 0)
	z[1], c = bits.Add64(x[1], y[1], c)
	z[2], c = bits.Add64(x[2], y[2], c)
	z[3], c = bits.Add64(x[3], y[3], c)
	return z, c == 0
}

// sub returns x − y for x >= y.
func (x *u256) sub(y *u256) (z u256) {
	var b uint64
	z[0], b = bits.Sub64(x[0], y[0], 0)
	z[1], b = bits.Sub64(x[1], y[1], b)
	z[2], b = bits.Sub64(x[2], y[2], b)
	z[3], _ = bits.Sub64(x[3], y[3], b)
	return z
}

// shl1 returns 2·x, or ok=false beyond 256 bits.
func (x *u256) shl1() (z u256, ok bool) {
	return u256{x[0] << 1, x[1]<<1 | x[0]>>63, x[2]<<1 | x[1]>>63, x[3]<<1 | x[2]>>63}, x[3]>>63 == 0
}

// cmp returns -1, 0 or 1 as x is below, equal to or above y: the borrow
// of x − y, and whether the difference is zero.
func (x *u256) cmp(y *u256) int {
	d0, b := bits.Sub64(x[0], y[0], 0)
	d1, b := bits.Sub64(x[1], y[1], b)
	d2, b := bits.Sub64(x[2], y[2], b)
	d3, b := bits.Sub64(x[3], y[3], b)
	switch {
	case b != 0:
		return -1
	case d0|d1|d2|d3 == 0:
		return 0
	}
	return 1
}

// digits counts the decimal digits of x, 0 for zero.
func (x *u256) digits() int {
	n := 0
	for i := len(x) - 1; i >= 0; i-- {
		if x[i] != 0 {
			n = (i*64 + bits.Len64(x[i])) * 1233 >> 12 // the count or one less
			break
		}
	}
	if x.cmp(&pow10Words[n]) >= 0 {
		n++
	}
	return n
}

// s256 is a signed u256.
type s256 struct {
	m   u256
	neg bool
}

// add returns x + y, or ok=false on overflow.
func (x s256) add(y s256) (s256, bool) {
	if x.neg == y.neg {
		m, ok := x.m.add(&y.m)
		return s256{m, x.neg}, ok
	}
	if x.m.cmp(&y.m) < 0 {
		x, y = y, x
	}
	m := x.m.sub(&y.m)
	return s256{m, x.neg && !m.isZero()}, true
}

// sumProducts returns a·x + b·y, each product negated when its flag
// says so, in two words' arithmetic: the sum of two products of two words
// has at most three (lo, hi, top), and its sign. A zero sum is not
// negative. The words come back in registers, where an s256 would come
// back through memory.
func sumProducts(a, x uint64, an bool, b, y uint64, bn bool) (lo, hi, top uint64, neg bool) {
	h1, l1 := bits.Mul64(a, x)
	h2, l2 := bits.Mul64(b, y)
	if an == bn {
		lo, c := bits.Add64(l1, l2, 0)
		hi, c := bits.Add64(h1, h2, c)
		return lo, hi, c, an && lo|hi|c != 0
	}
	if h1 < h2 || h1 == h2 && l1 < l2 {
		h1, l1, an, h2, l2 = h2, l2, bn, h1, l1
	}
	lo, borrow := bits.Sub64(l1, l2, 0)
	hi, _ = bits.Sub64(h1, h2, borrow)
	return lo, hi, 0, an && lo|hi != 0
}

// pow10 holds 10^0 … 10^19.
var pow10 = func() (t [20]uint64) {
	t[0] = 1
	for i := 1; i < len(t); i++ {
		t[i] = t[i-1] * 10
	}
	return t
}()

// pow10Words holds 10^0 … 10^77 in four words.
var pow10Words = func() (t [78]u256) {
	t[0] = u256{1}
	for i := 1; i < len(t); i++ {
		t[i], _ = t[i-1].mulWord(10)
	}
	return t
}()

// digits64 counts the decimal digits of x, 0 for zero.
func digits64(x uint64) int {
	// Len64·log10(2) rounded down (1233/4096) is the count or one less.
	n := bits.Len64(x) * 1233 >> 12
	if x >= pow10[n] {
		n++
	}
	return n
}

// mulPow10 returns (hi·2^64 + lo)·f, which must fit two words.
func mulPow10(hi, lo, f uint64) (uint64, uint64) {
	h, l := bits.Mul64(lo, f)
	return hi*f + h, l
}

// quoPow10 returns c/10^k and true when 10^k divides c, 0 <= k <= 19,
// without a division (a divisor the compiler does not know is one of the
// slowest instructions): c must end in k zero bits, and c/2^k times the
// inverse of 5^k modulo 2^64 is then the exact quotient by 5^k when it is
// at most (2^64−1)/5^k, and above that bound when 5^k does not divide it.
func quoPow10(c uint64, k int) (q uint64, ok bool) {
	if c&(1<<k-1) != 0 {
		return 0, false
	}
	q = (c >> k) * inv5[k]
	return q, q <= maxQuo5[k]
}

// inv5 holds the inverses of 5^0 … 5^19 modulo 2^64, and maxQuo5 the
// largest word divided by each.
var inv5, maxQuo5 = func() (inv, lim [20]uint64) {
	f := uint64(1)
	for k := range inv {
		// Newton's iteration doubles the correct low bits of an inverse
		// each step; an odd f is its own inverse to three bits.
		x := f
		for range 5 {
			x *= 2 - f*x
		}
		inv[k], lim[k] = x, ^uint64(0)/f
		f *= 5
	}
	return inv, lim
}()

// quotientDigits counts the decimal digits of ⌊x/d⌋ without dividing:
// for x of a digits and d of b, it has a−b+1 digits when x ≥ d·10^(a−b),
// else a−b (or none).
func quotientDigits(x *u256, d uint64) int {
	n := x.digits() - digits64(d)
	if n < 0 {
		return 0
	}
	if t, ok := pow10Words[n].mulWord(d); ok && x.cmp(&t) >= 0 {
		return n + 1
	}
	return n
}
