// Package pi computes the decimal digits of π and brackets its integer
// powers between two integers at a chosen scale.
//
// The engine keeps π as an exponent of exact factors (a degree is π/180
// rad), so a result through π is a rational r times π^k. To round such a
// value correctly it needs π^k between two close decimals: Bracket gives
// them, computed from π's digits by Machin's formula in integers, and
// Words gives the same brackets in machine words for the common powers and
// precisions, from a table built once.
package pi

import (
	"math/big"
	"sync"
)

var cache struct {
	sync.Mutex
	digits int
	scaled *big.Int // floor(π·10^digits)
}

// Scaled returns floor(π·10^n) for n >= 1, in a new integer.
func Scaled(n int) *big.Int {
	cache.Lock()
	defer cache.Unlock()
	if cache.digits < n {
		cache.digits, cache.scaled = compute(max(n, 2*cache.digits, 160))
	}
	return new(big.Int).Quo(cache.scaled, pow10(cache.digits-n))
}

// compute returns size and floor(π·10^size), by Machin's formula
// π = 16·atan(1/5) − 4·atan(1/239) in integers with guard digits.
func compute(size int) (int, *big.Int) {
	const guard = 10
	unit := pow10(size + guard)
	atanInv := func(x int64) *big.Int {
		// atan(1/x)·unit = Σ (−1)^i unit / ((2i+1)·x^(2i+1)), truncated;
		// each term errs by less than one, far inside the guard digits.
		sum := new(big.Int)
		term := new(big.Int).Quo(unit, big.NewInt(x))
		x2 := big.NewInt(x * x)
		var t big.Int
		for i := int64(0); term.Sign() != 0; i++ {
			t.Quo(term, big.NewInt(2*i+1))
			if i%2 == 0 {
				sum.Add(sum, &t)
			} else {
				sum.Sub(sum, &t)
			}
			term.Quo(term, x2)
		}
		return sum
	}
	p := new(big.Int).Mul(atanInv(5), big.NewInt(16))
	p.Sub(p, new(big.Int).Mul(atanInv(239), big.NewInt(4)))
	return size, p.Quo(p, pow10(guard))
}

func pow10(n int) *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
}

// Bracket returns lo, width and scale with
//
//	lo·10^-scale < π^k < (lo+width)·10^-scale,
//
// lo having about digits significant digits and width a few units; k must
// not be zero. The bracket is strict: π^k is irrational.
func Bracket(k, digits int) (lo, width *big.Int, scale int) {
	n := abs(k)
	// π lies in (c, c+1)·10^-places, so π^n lies between the n-th powers
	// of the two ends, and 1/π^n between their reciprocals.
	places := digits + 10*n + 10
	c := Scaled(places)
	c1 := new(big.Int).Add(c, big.NewInt(1))
	cn, c1n := new(big.Int).Exp(c, big.NewInt(int64(n)), nil), new(big.Int).Exp(c1, big.NewInt(int64(n)), nil)
	unit := pow10(places * n) // π^n in (cn, c1n)/unit
	// π^k has e digits before the point (e <= 0 below 1): π^n < 37^n,
	// and 1/π^n > 1/37^n, so scale = digits - e keeps digits digits.
	var a, b, num, den *big.Int // π^k in (a/den, b/den) for k > 0, (num/b, num/a) for k < 0
	if k > 0 {
		a, b, den = cn, c1n, unit
	} else {
		a, b, num = cn, c1n, unit
	}
	e := 1 + (len(cn.String()) - len(unit.String())) // digits before the point of π^n, within one
	if k < 0 {
		e = 2 - e
	}
	scale = max(digits-e, 0)
	s := pow10(scale)
	var hi *big.Int
	var r big.Int
	if k > 0 {
		lo = new(big.Int).Quo(new(big.Int).Mul(a, s), den)
		hi, _ = new(big.Int).QuoRem(new(big.Int).Mul(b, s), den, &r)
	} else {
		lo = new(big.Int).Quo(new(big.Int).Mul(num, s), b)
		hi, _ = new(big.Int).QuoRem(new(big.Int).Mul(num, s), a, &r)
	}
	if r.Sign() != 0 {
		hi.Add(hi, big.NewInt(1)) // the ceiling of the upper end
	}
	return lo, hi.Sub(hi, lo), scale
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// MaxWordsPow is the largest |k| Words serves.
const MaxWordsPow = 4

// Guard is the number of digits beyond the precision that Words'
// brackets carry, and that a first attempt with Bracket should use: a
// result is then undecided only within about 10^-15 (relative) of a
// rounding boundary.
const Guard = 16

// WordBracket is a bracket of π^k in four words: Lo·10^-Scale < π^k <
// (Lo+Width)·10^-Scale, Lo least significant word first.
type WordBracket struct {
	Lo    [4]uint64
	Width uint64
	Scale int
	OK    bool // the bracket fits the words
}

const maxWordsPrecision = 50

var (
	wordsOnce  sync.Once
	wordsTable [2*MaxWordsPow + 1][maxWordsPrecision + 1]WordBracket
)

// Words returns the bracket of π^k for precision p with Guard digits
// beyond it, for 0 < |k| <= MaxWordsPow and 1 <= p <= 50; OK is false when
// it does not fit four words or k and p are outside those bounds.
func Words(k, p int) *WordBracket {
	if k == 0 || abs(k) > MaxWordsPow || p < 1 || p > maxWordsPrecision {
		return &WordBracket{}
	}
	wordsOnce.Do(buildWords)
	return &wordsTable[k+MaxWordsPow][p]
}

func buildWords() {
	for k := -MaxWordsPow; k <= MaxWordsPow; k++ {
		if k == 0 {
			continue
		}
		for p := 1; p <= maxWordsPrecision; p++ {
			lo, w, scale := Bracket(k, p+Guard)
			br := WordBracket{Scale: scale}
			if ws := lo.Bits(); len(ws) <= 4 && w.IsUint64() && bitsPerWord == 64 {
				for i, x := range ws {
					br.Lo[i] = uint64(x)
				}
				br.Width, br.OK = w.Uint64(), true
			}
			wordsTable[k+MaxWordsPow][p] = br
		}
	}
}

const bitsPerWord = 32 << (^uint(0) >> 63)
