// Package lnexp computes the natural logarithm, base-10 logarithm,
// exponential and power of ten of a decimal, correctly rounded.
//
// Formula units such as dBm need ln, log10 and exp at the working precision
// of a conversion (42 digits by default). apd computes them with series at
// a couple of guard digits, which is slow (about 100–250 µs at 42 digits)
// and not proven to round correctly. The functions here return the
// correctly rounded (half-even) result at the context's precision and take
// Ziv's approach:
//
//  1. Accelerator (when the caller asks for it, fast): evaluate in binary fixed point
//     (192 or 256 fraction bits) with table-driven argument reduction (e^x
//     by tables of e^(j/2^k), ln by tables of short constants near 1/m
//     and an atanh series) and a rigorous bound on the accumulated error,
//     in ulps. If the whole interval value ± bound rounds
//     to the same decimal, that decimal is the correctly rounded result.
//  2. Plain path: apd at a precision well above the target, widened until
//     the rounding is decided.
//
// The accelerator either returns the same digits as the plain path or
// declines; it never guesses. ln, log10 and exp of an exact decimal are
// irrational except at the trivial points (ln 1, exp 0, log10 10^k), which
// are handled exactly before either path runs, so a decided rounding is
// never a tie.

package lnexp

import (
	"errors"
	"math"
	"math/big"
	"sync"

	"github.com/cockroachdb/apd/v3"
)

// fixBits is the number of fraction bits of the fixed-point accelerator:
// 2^-256 is about 10^-77, so results of up to maxFastDigits digits are
// decided unless they fall within about 10^-7 of a rounding boundary.
//
// Most conversions work at 42 digits (the default precision and its
// guard digits), where 256 bits are more than needed: the constants are
// also kept at narrowBits (2^-192, about 10^-57), which serve up to
// narrowDigits digits with the same margin in fewer machine words.
const (
	fixBits       = 256
	maxFastDigits = 66
	narrowBits    = 192
	narrowDigits  = 46
	// tableBits are the extra bits the reduction tables are built with.
	tableBits = 64
)

// lnexpConsts are the constants of the accelerator, built once on first use.
type lnexpConsts struct {
	fb                 uint     // fraction bits: fixBits or narrowBits
	ln2, ln10, invLn10 *big.Int // fixed point, each within 1 ulp
	// exp[l][j+expLevelHalf[l]] = e^(j/2^expLevelBits[l]), fixed point,
	// each within 1 ulp.
	exp [expLevels][]*big.Int
	// pow10[n] = 10^n for the decimal scalings.
	pow10 []*big.Int
	// small[k] = k, for the Taylor divisions.
	small []*big.Int
	// one is 1; half[l] is half the step of level l.
	one  *big.Int
	half [expLevels]*big.Int
	// lnK[l][i] and lnL[l][i] are the constant and ln(2^shift/K) of
	// index i of logarithm level l; lnHalf[l] is half its step.
	lnK, lnL [lnLevels][]*big.Int
	lnHalf   [lnLevels]*big.Int
}

// The reduction of e^r: r = j1/2^6 + j2/2^13 + j3/2^20 + r3 with
// |r3| ≤ 2^-21, each e^(j/2^bits) from a table. (A fourth level saves two
// Taylor terms and costs a table multiplication: no faster.) Level 1 has |j| ≤ 23
// since |r| ≤ ln2/2 < 23/64; every later level has |j| ≤ 64 since the
// remainder of the level before is at most half its step.
const (
	expLevels = 3
	maxPow10  = 200
)

var (
	expLevelBits = [expLevels]uint{6, 13, 20}
	expLevelHalf = [expLevels]int64{23, 64, 64}
)

var (
	lnexpOnce    sync.Once
	lnexpC       *lnexpConsts
	lnexpNarrowC *lnexpConsts
)

// lnexpTables returns the constants at fixBits.
func lnexpTables() *lnexpConsts {
	lnexpOnce.Do(buildLnexpBoth)
	return lnexpC
}

// lnexpNarrow returns the constants at narrowBits.
func lnexpNarrow() *lnexpConsts {
	lnexpOnce.Do(buildLnexpBoth)
	return lnexpNarrowC
}

func buildLnexpBoth() {
	lnexpC = buildLnexp(fixBits)
	lnexpNarrowC = buildLnexp(narrowBits)
}

// buildLnexp computes the constants from apd at 100 digits (about 332
// bits, so every constant is within 1 ulp of 2^-256 after truncation) and
// the tables by repeated multiplication at fixBits+tableBits bits.
func buildLnexp(fb uint) *lnexpConsts {
	c := &lnexpConsts{fb: fb}
	ctx := apd.BaseContext.WithPrecision(100)
	var d apd.Decimal
	ten := apd.New(10, 0)
	two := apd.New(2, 0)
	if _, err := ctx.Ln(&d, two); err != nil {
		panic(err)
	}
	c.ln2 = decimalToFix(&d, fb)
	if _, err := ctx.Ln(&d, ten); err != nil {
		panic(err)
	}
	c.ln10 = decimalToFix(&d, fb)
	ln10Wide := decimalToFix(&d, fb+tableBits)
	c.invLn10 = new(big.Int).Lsh(big.NewInt(1), 2*(fb+tableBits))
	c.invLn10.Quo(c.invLn10, ln10Wide)
	c.invLn10.Rsh(c.invLn10, tableBits)

	step := func(steps int64, half int) []*big.Int {
		if _, err := ctx.Exp(&d, apd.New(1, 0)); err != nil {
			panic(err)
		}
		var x apd.Decimal
		if _, err := ctx.Quo(&x, apd.New(1, 0), apd.New(steps, 0)); err != nil {
			panic(err)
		}
		if _, err := ctx.Exp(&d, &x); err != nil {
			panic(err)
		}
		up := decimalToFix(&d, fb+tableBits)
		if _, err := ctx.Neg(&x, &x); err != nil {
			panic(err)
		}
		if _, err := ctx.Exp(&d, &x); err != nil {
			panic(err)
		}
		down := decimalToFix(&d, fb+tableBits)
		one := new(big.Int).Lsh(big.NewInt(1), fb+tableBits)
		t := make([]*big.Int, 2*half+1)
		t[half] = new(big.Int).Lsh(big.NewInt(1), fb)
		cur := new(big.Int).Set(one)
		for j := 1; j <= half; j++ {
			cur.Mul(cur, up)
			cur.Rsh(cur, fb+tableBits)
			t[half+j] = new(big.Int).Rsh(cur, tableBits)
		}
		cur.Set(one)
		for j := 1; j <= half; j++ {
			cur.Mul(cur, down)
			cur.Rsh(cur, fb+tableBits)
			t[half-j] = new(big.Int).Rsh(cur, tableBits)
		}
		return t
	}
	for l := range expLevels {
		c.exp[l] = step(int64(1)<<expLevelBits[l], int(expLevelHalf[l]))
		c.half[l] = new(big.Int).Lsh(big.NewInt(1), fb-expLevelBits[l]-1)
	}

	c.pow10 = make([]*big.Int, maxPow10+1)
	p := big.NewInt(1)
	for n := range c.pow10 {
		c.pow10[n] = new(big.Int).Set(p)
		p.Mul(p, big.NewInt(10))
	}
	c.one = new(big.Int).Lsh(big.NewInt(1), fb)
	c.small = make([]*big.Int, 64)
	for k := range c.small {
		c.small[k] = big.NewInt(int64(k))
	}
	buildLnTables(c)
	return c
}

// decimalToFix returns floor(|d| · 2^fb) for a decimal d of moderate
// exponent.
func decimalToFix(d *apd.Decimal, fb uint) *big.Int {
	var coeff big.Int
	coeff.SetBytes(d.Coeff.MathBigInt().Bytes())
	coeff.Lsh(&coeff, fb)
	switch e := d.Exponent; {
	case e > 0:
		coeff.Mul(&coeff, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(e)), nil))
	case e < 0:
		coeff.Quo(&coeff, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-e)), nil))
	}
	return &coeff
}

// Func names one of the functions.
type Func int

// The functions.
const (
	Ln Func = iota
	Log10
	Exp
	Exp10 // 10^x
)

func (f Func) String() string { return [...]string{"ln", "log10", "exp", "exp10"}[f] }

// ErrBudget is returned when take refuses the work of a slow evaluation.
var ErrBudget = errors.New("work budget exceeded")

// Eval sets d to fn(x) correctly rounded (half-even) to c's precision. Its
// slow path asks take for every widened evaluation (take may be nil:
// unlimited) and fails with ErrBudget when it refuses. With fast set it
// tries the fixed-point accelerator first, which returns the same digits
// or declines. Inputs without a finite correctly rounded result (ln 0,
// overflow) keep apd's conditions and errors.
func Eval(c *apd.Context, d, x *apd.Decimal, fn Func, take func() bool, fast bool) (apd.Condition, error) {
	r := run{take: take, fast: fast}
	if fn == Exp || fn == Exp10 {
		return r.powCR(c, d, x, fn)
	}
	return r.logCR(c, d, x, fn)
}

// run is one evaluation's budget and choice of path.
type run struct {
	take func() bool
	fast bool
}

func (r run) spend() bool { return r.take == nil || r.take() }

// exact adds and subtracts without rounding.
var exact = func() *apd.Context {
	c := apd.BaseContext
	c.Rounding = apd.RoundHalfEven
	return &c
}()

// logCR is ln x or log10 x: exact at 1 and, for log10, at powers of ten.
func (r run) logCR(c *apd.Context, d, x *apd.Decimal, fn Func) (apd.Condition, error) {
	if x.Form != apd.Finite || x.Sign() <= 0 || c.Precision == 0 || c.Rounding != apd.RoundHalfEven {
		return apdFunction(c, d, x, fn)
	}
	if e, ok := PowerOfTen(x); ok {
		switch {
		case e == 0:
			d.SetInt64(0)
			return 0, nil
		case fn == Log10:
			// Exact, but a whole number may still have more digits
			// than the precision: log10 1e-22 is -2E+1 at one digit.
			d.SetInt64(e)
			return c.Round(d, d)
		}
	}
	return r.correctlyRounded(c, d, x, fn)
}

// powCR is e^x or 10^x: exact at 0 and, for 10^x, at whole x.
func (r run) powCR(c *apd.Context, d, x *apd.Decimal, fn Func) (apd.Condition, error) {
	if x.Form != apd.Finite || c.Precision == 0 || c.Rounding != apd.RoundHalfEven {
		return apdFunction(c, d, x, fn)
	}
	if x.IsZero() {
		d.SetInt64(1)
		return 0, nil
	}
	if fn == Exp10 {
		if n, ok := wholeNumber(x); ok && n > -1e6 && n < 1e6 {
			d.SetFinite(1, int32(n))
			return c.Round(d, d)
		}
	}
	// Beyond about 10^±4000 the result leaves every context the engine
	// uses; apd reports the overflow or underflow.
	if x.NumDigits()+int64(x.Exponent) > 4 {
		return apdFunction(c, d, x, fn)
	}
	return r.correctlyRounded(c, d, x, fn)
}

// PowerOfTen reports whether x is 10^e, and e.
func PowerOfTen(x *apd.Decimal) (int64, bool) {
	if x.Negative || x.Form != apd.Finite {
		return 0, false
	}
	if x.Coeff.IsInt64() {
		c := x.Coeff.Int64()
		e := int64(x.Exponent)
		for c >= 10 && c%10 == 0 {
			c /= 10
			e++
		}
		return e, c == 1
	}
	// A power of ten's coefficient is 10^(digits-1): one comparison, where
	// Reduce would divide by ten once per trailing zero.
	n := x.NumDigits()
	if n < 1 || n > maxPow10 {
		return 0, false
	}
	if x.Coeff.Cmp(&coeffPow10()[n-1]) != 0 {
		return 0, false
	}
	return int64(x.Exponent) + n - 1, true
}

var (
	coeffPow10Once sync.Once
	coeffPow10s    []apd.BigInt
)

// coeffPow10 returns 10^0 … 10^maxPow10 as apd coefficients.
func coeffPow10() []apd.BigInt {
	coeffPow10Once.Do(func() {
		coeffPow10s = make([]apd.BigInt, maxPow10+1)
		ten := apd.NewBigInt(10)
		coeffPow10s[0].SetInt64(1)
		for i := 1; i <= maxPow10; i++ {
			coeffPow10s[i].Mul(&coeffPow10s[i-1], ten)
		}
	})
	return coeffPow10s
}

// wholeNumber reports whether x is a whole number of int64 range, and
// which.
func wholeNumber(x *apd.Decimal) (int64, bool) {
	if x.Form != apd.Finite {
		return 0, false
	}
	if x.Exponent >= 0 {
		if x.NumDigits()+int64(x.Exponent) > 18 {
			return 0, false
		}
		n, err := x.Int64()
		return n, err == nil
	}
	if !x.Coeff.IsInt64() || x.Exponent < -18 {
		// Whole when the coefficient is a multiple of 10^-exponent: one
		// division, where Reduce would divide once per trailing zero.
		if x.IsZero() {
			return 0, true
		}
		if x.NumDigits()+int64(x.Exponent) <= 0 || x.NumDigits()+int64(x.Exponent) > 18 || -x.Exponent > maxPow10 {
			return 0, false
		}
		var q, r apd.BigInt
		q.QuoRem(&x.Coeff, &coeffPow10()[-x.Exponent], &r)
		if r.Sign() != 0 || !q.IsInt64() {
			return 0, false
		}
		if x.Negative {
			return -q.Int64(), true
		}
		return q.Int64(), true
	}
	c := x.Coeff.Int64()
	for e := x.Exponent; e < 0; e++ {
		if c%10 != 0 {
			return 0, false
		}
		c /= 10
	}
	if x.Negative {
		c = -c
	}
	return c, true
}

// correctlyRounded runs the accelerator when it is on and applies, and the
// plain path when the accelerator declines.
func (r run) correctlyRounded(c *apd.Context, d, x *apd.Decimal, fn Func) (apd.Condition, error) {
	if r.fast && c.Precision <= maxFastDigits {
		if fastFunction(d, x, fn, int(c.Precision), c) {
			return apd.Inexact | apd.Rounded, nil
		}
	}
	return r.zivFunction(c, d, x, fn)
}

// apdFunction is apd's own evaluation, used for the inputs that have no
// finite correctly rounded result (errors, overflow) so they keep apd's
// conditions and messages.
func apdFunction(c *apd.Context, d, x *apd.Decimal, fn Func) (apd.Condition, error) {
	switch fn {
	case Ln:
		return c.Ln(d, x)
	case Log10:
		return c.Log10(d, x)
	case Exp:
		return c.Exp(d, x)
	default:
		return c.Pow(d, apd.New(10, 0), x)
	}
}

// zivFunction is the plain path: evaluate with apd at a precision well
// above the target, allow 10 units in the last place of error (apd works
// with guard digits of its own), and widen until both ends of that
// interval round to the same result.
func (r run) zivFunction(c *apd.Context, d, x *apd.Decimal, fn Func) (apd.Condition, error) {
	q := c.Precision
	target := c.WithPrecision(q)
	target.Rounding = apd.RoundHalfEven
	var v, lo, hi, ulp, rlo, rhi apd.Decimal
	for extra := uint32(12); ; extra = 2*extra + 12 {
		if !r.spend() {
			return 0, ErrBudget
		}
		p := q + extra
		wide := apd.BaseContext.WithPrecision(p)
		wide.MaxExponent, wide.MinExponent = c.MaxExponent, c.MinExponent
		if err := wideFunction(wide, &v, x, fn); err != nil {
			return apdFunction(c, d, x, fn)
		}
		// ulp of v at p digits, times ten.
		ulp.SetFinite(10, v.Exponent+int32(v.NumDigits())-int32(p))
		if _, err := exact.Sub(&lo, &v, &ulp); err != nil {
			return 0, err
		}
		if _, err := exact.Add(&hi, &v, &ulp); err != nil {
			return 0, err
		}
		if _, err := target.Round(&rlo, &lo); err != nil {
			return 0, err
		}
		if _, err := target.Round(&rhi, &hi); err != nil {
			return 0, err
		}
		if rlo.Cmp(&rhi) == 0 || extra >= maxExtraDigits {
			cond, err := target.Round(d, &v)
			return cond | apd.Inexact | apd.Rounded, err
		}
	}
}

// maxExtraDigits ends the widening: at 12, 36, 84 and 180 digits beyond the
// target (at most maxWidenings evaluations) the rounding of the last one is
// taken. A transcendental result within 10^-(target+170) of a rounding
// boundary would be needed to make that wrong.
const (
	maxExtraDigits = 180
	maxWidenings   = 4
)

// wideFunction evaluates fn with apd at wide's precision, within a few
// units in its last place.
func wideFunction(wide *apd.Context, d, x *apd.Decimal, fn Func) error {
	var err error
	switch fn {
	case Ln:
		_, err = wide.Ln(d, x)
	case Log10:
		_, err = wide.Log10(d, x)
	case Exp:
		_, err = wide.Exp(d, x)
	default:
		// 10^x = 10^k · e^(f·ln 10), k = floor(x), f in [0, 1): the scaling
		// is exact and the exponential's argument stays small.
		var k, f, t, l10 apd.Decimal
		if _, err = wide.Floor(&k, x); err != nil {
			return err
		}
		if _, err = exact.Sub(&f, x, &k); err != nil {
			return err
		}
		w := wide.WithPrecision(wide.Precision + 5)
		if _, err = w.Round(&l10, ln10Wide()); err != nil {
			return err
		}
		if _, err = w.Mul(&t, &f, &l10); err != nil {
			return err
		}
		if _, err = w.Exp(&t, &t); err != nil {
			return err
		}
		n, ierr := k.Int64()
		if ierr != nil {
			return ierr
		}
		t.Exponent += int32(n)
		_, err = wide.Round(d, &t)
	}
	return err
}

// scratch holds the accelerator's integers, reused across calls so that
// a conversion allocates little.
type scratch struct {
	x, m, y, z, r, j, s, t, u, v, w, lo, hi, num, den big.Int
	coeff, a, b                                       big.Int
}

var scratches = sync.Pool{New: func() any { return new(scratch) }}

// ln10Digits is how far ln 10 is known for the plain path of 10^x: beyond
// any precision the widening asks for (50 + 180 + 5 digits).
const ln10Digits = 300

var (
	ln10Once sync.Once
	ln10Dec  apd.Decimal
)

// ln10Wide is ln 10 to ln10Digits digits, computed once.
func ln10Wide() *apd.Decimal {
	ln10Once.Do(func() {
		c := apd.BaseContext.WithPrecision(ln10Digits + 5)
		if _, err := c.Ln(&ln10Dec, apd.New(10, 0)); err != nil {
			panic(err)
		}
	})
	return &ln10Dec
}

// fastFunction is the accelerator: fn(x) in fixed point with an error
// bound, rounded to q digits when the bound decides the rounding. It
// reports whether it set d.
func fastFunction(d, x *apd.Decimal, fn Func, q int, c *apd.Context) bool {
	k := lnexpTables()
	if q <= narrowDigits {
		k = lnexpNarrow()
	}
	sc := scratches.Get().(*scratch)
	defer scratches.Put(sc)
	mag := &sc.v
	var err uint64
	var e2 int
	neg := false
	switch fn {
	case Ln, Log10:
		e, ok := fixLn(k, sc, mag, x)
		if !ok {
			return false
		}
		if fn == Log10 {
			// log10 x = ln x / ln 10: the error shrinks by ln 10 > 2;
			// invLn10's ulp times |ln x|, and the product's floor, add.
			whole := mulFix(k, sc, mag, k.invLn10)
			e = e/2 + 1 + 2*(whole+1)
		}
		neg = mag.Sign() < 0
		mag.Abs(mag)
		err, e2 = e, -int(k.fb)
	case Exp, Exp10:
		y := &sc.y
		e, ok := decimalToFixSigned(k, y, x)
		if !ok {
			return false
		}
		if fn == Exp10 {
			whole := mulFix(k, sc, y, k.ln10)
			e = 3*e + whole + 3 // times ln 10 < 3, plus ln 10's ulp
		}
		bexp, em, ok := fixExp(k, sc, mag, y, e)
		if !ok {
			return false
		}
		err, e2 = em, bexp-int(k.fb)
	}
	return roundFix(k, sc, d, mag, err, e2, q, neg, c)
}

// mulFix sets v to v·c in fixed point (truncated) and returns the whole
// part of |v| before the product, which the error bounds scale with.
func mulFix(k *lnexpConsts, sc *scratch, v, c *big.Int) uint64 {
	sc.t.Abs(v)
	whole := sc.t.Rsh(&sc.t, k.fb).Uint64()
	sc.a.Set(v)
	v.Mul(&sc.a, c)
	v.Rsh(v, k.fb)
	return whole
}

// decimalToFixSigned sets y to x · 2^fixBits in fixed point, within 1 ulp.
func decimalToFixSigned(k *lnexpConsts, y *big.Int, x *apd.Decimal) (uint64, bool) {
	setCoeff(y, x)
	y.Lsh(y, k.fb)
	switch e := int(x.Exponent); {
	case e > 0:
		if e > maxPow10 {
			return 0, false
		}
		y.Mul(new(big.Int).Set(y), k.pow10[e])
	case e < 0:
		if -e > maxPow10 {
			return 0, false
		}
		y.Quo(y, k.pow10[-e])
	}
	if x.Negative {
		y.Neg(y)
	}
	return 1, true
}

// setCoeff sets z to x's coefficient without allocating when it fits a
// word.
func setCoeff(z *big.Int, x *apd.Decimal) {
	if x.Coeff.IsUint64() {
		z.SetUint64(x.Coeff.Uint64())
		return
	}
	z.Set(x.Coeff.MathBigInt())
}

// fixLn sets v to ln x in fixed point and returns its error bound in ulps.
//
// With x = C · 10^E and C = 2^(n-1) · m, m in [1, 2):
// ln x = E·ln 10 + (n-1)·ln 2 + ln m. Three table steps bring m within
// 2^-24 of 1 (see lnLevels): each multiplies m by a short constant K/2^s
// near 1/m and adds ln(2^s/K) from a table. What is left, m3, is close
// enough to 1 that ln m3 = 2·atanh(s) with s = (m3-1)/(m3+1) needs only
// a few odd powers of |s| < 2^-25.
func fixLn(k *lnexpConsts, sc *scratch, v *big.Int, x *apd.Decimal) (uint64, bool) {
	C := &sc.coeff
	setCoeff(C, x)
	n := C.BitLen()
	m := &sc.m
	if fb := int(k.fb); n-1 <= fb {
		m.Lsh(C, uint(fb-(n-1)))
	} else {
		m.Rsh(C, uint(n-1-fb))
	}
	// m is within 1 ulp of its true value (truncation), in [1, 2)·2^fb.
	sum := v.SetInt64(0)
	j := &sc.j
	for l := range lnLevels {
		lv := &lnLevelSpec[l]
		// The index: the top bits of m (level 0) or of m-1 rounded
		// (later levels), in steps of 2^-lv.bits.
		if l == 0 {
			j.Rsh(m, k.fb-lv.bits)
			j.Sub(j, lnFirstBase)
		} else {
			j.Sub(m, k.one)
			j.Add(j, k.lnHalf[l])
			j.Rsh(j, k.fb-lv.bits)
		}
		if !j.IsInt64() || j.Int64() < lv.lo || j.Int64() > lv.hi {
			return 0, false
		}
		i := j.Int64() - lv.lo
		sc.b.Mul(m, k.lnK[l][i])
		m.Rsh(&sc.b, lv.shift)
		sum.Add(sum, k.lnL[l][i])
	}
	// s = (m3 - 1)/(m3 + 1), truncated.
	S, t, spare := &sc.x, &sc.t, &sc.a
	S.Sub(m, k.one)
	S.Lsh(S, k.fb)
	t.Add(m, k.one)
	S.Quo(S, t)
	// atanh is odd: work on |s| so that the powers shrink to zero.
	negS := S.Sign() < 0
	S.Abs(S)
	S2 := &sc.y
	S2.Mul(S, S)
	S2.Rsh(S2, k.fb)
	// atanh s = s + s³/3 + s⁵/5 + …
	acc := &sc.z
	acc.Set(S)
	pow := sc.u.Set(S)
	terms := uint64(0)
	for i := 3; i < len(k.small); i += 2 {
		spare.Mul(pow, S2)
		pow, spare = spare, pow
		pow.Rsh(pow, k.fb)
		if pow.Sign() == 0 {
			break
		}
		t.Quo(pow, k.small[i])
		acc.Add(acc, t)
		terms++
	}
	acc.Lsh(acc, 1)
	if negS {
		acc.Neg(acc)
	}
	sum.Add(sum, acc)
	t.SetInt64(int64(n - 1))
	sum.Add(sum, spare.Mul(t, k.ln2))
	E := int64(x.Exponent)
	t.SetInt64(E)
	sum.Add(sum, spare.Mul(t, k.ln10))
	absE := uint64(E)
	if E < 0 {
		absE = uint64(-E)
	}
	// In ulps: the normalisation and each level's truncation (1 each, a
	// hair more through the factor m3/m), the three table entries (1
	// each), the quotient s (1, doubled), each term's two truncations
	// (doubled), the tail of the series (1, doubled), and |E| and n-1
	// units from ln 10 and ln 2 being within an ulp.
	return absE + uint64(n) + 2*lnLevels + lnLevels + 2 + 4*terms + 2 + 4, true
}

// The table steps of ln m. Level 0 takes the top 7 fraction bits of m in
// [1, 2) and multiplies by about the inverse of the middle of that
// interval, leaving m within 2^-8 (and a hair) of 1; each later level
// rounds m-1 to a step of 2^-bits, |index| ≤ 129, and multiplies by about
// the inverse of 1 + index·2^-bits, leaving m within half a step. The
// constants K/2^shift are short, so each step multiplies by one word.
const lnLevels = 3

type lnLevel struct {
	bits   uint  // the index steps by 2^-bits
	lo, hi int64 // the range of the index
	shift  uint  // K is scaled by 2^shift
}

var (
	lnLevelSpec = [lnLevels]lnLevel{
		{bits: 7, lo: 0, hi: 127, shift: 16},
		{bits: 15, lo: -132, hi: 132, shift: 32},
		{bits: 23, lo: -132, hi: 132, shift: 48},
	}
	// lnFirstBase is 2^7: level 0's index is m's top 8 bits minus it.
	lnFirstBase = big.NewInt(1 << 7)
)

// buildLnTables fills c.lnK, c.lnL and c.lnHalf: for each level and
// index, K = round(2^shift / centre) and L = ln(2^shift / K) within one
// ulp of 2^-fb.
func buildLnTables(c *lnexpConsts) {
	for l := range lnLevels {
		lv := &lnLevelSpec[l]
		size := lv.hi - lv.lo + 1
		c.lnK[l] = make([]*big.Int, size)
		c.lnL[l] = make([]*big.Int, size)
		c.lnHalf[l] = new(big.Int).Lsh(big.NewInt(1), c.fb-lv.bits-1)
		for i := range size {
			// centre = num / den: 1 + (2i+1)/2^8 for level 0,
			// 1 + index/2^bits later.
			var num, den *big.Int
			if l == 0 {
				num = big.NewInt(int64(1<<8 + 2*i + 1))
				den = big.NewInt(1 << 8)
			} else {
				idx := i + lv.lo
				num = new(big.Int).Add(new(big.Int).Lsh(big.NewInt(1), lv.bits), big.NewInt(idx))
				den = new(big.Int).Lsh(big.NewInt(1), lv.bits)
			}
			// K = round(2^shift · den / num).
			K := new(big.Int).Lsh(den, lv.shift)
			K.Add(K, new(big.Int).Rsh(num, 1))
			K.Quo(K, num)
			c.lnK[l][i] = K
			c.lnL[l][i] = lnOfRatio(new(big.Int).Lsh(big.NewInt(1), lv.shift), K, c.fb)
		}
	}
}

// lnOfRatio returns ln(a/b) for 1/2 < a/b < 2 in fixed point with fb
// fraction bits, within one ulp: 2·atanh((a-b)/(a+b)) summed with 64
// guard bits, where the quotient is at most 1/3 and each term costs at
// most two ulps of the guarded sum.
func lnOfRatio(a, b *big.Int, fb uint) *big.Int {
	const guard = 64
	w := fb + guard
	s := new(big.Int).Sub(a, b)
	s.Lsh(s, w)
	s.Quo(s, new(big.Int).Add(a, b))
	neg := s.Sign() < 0 // atanh is odd: sum the powers of |s|
	s.Abs(s)
	s2 := new(big.Int).Mul(s, s)
	s2.Rsh(s2, w)
	sum := new(big.Int).Set(s)
	pow := new(big.Int).Set(s)
	var t big.Int
	for i := int64(3); ; i += 2 {
		pow.Mul(pow, s2)
		pow.Rsh(pow, w)
		if pow.Sign() == 0 {
			break
		}
		sum.Add(sum, t.Quo(pow, big.NewInt(i)))
	}
	sum.Lsh(sum, 1)
	sum.Rsh(sum, guard) // within one ulp with the guard bits' error
	if neg {
		sum.Neg(sum)
	}
	return sum
}

// fixExp sets s so that e^y = s · 2^(bexp - fixBits), with s in about
// [0.7, 1.42]·2^fixBits, for y in fixed point known within errIn ulps, and
// returns bexp and the bound in ulps of s. y is left unchanged.
//
// y = b·ln 2 + r with |r| ≤ ln2/2, then r = j1/2^6 + j2/2^13 + j3/2^20 + r3
// with |r3| ≤ 2^-21 (see expLevels), e^r3 by its Taylor series (13 terms
// reach 2^-256, 10 reach 2^-192), and each e^(j/2^bits) from its table.
func fixExp(k *lnexpConsts, sc *scratch, s, y *big.Int, errIn uint64) (int, uint64, bool) {
	if y.BitLen() > int(k.fb)+14 {
		return 0, 0, false
	}
	// b = round(y / ln 2), from the top bits of y.
	top := sc.r.Rsh(y, k.fb-40).Int64()
	b := int64(math.Round(math.Ldexp(float64(top), -40) / math.Ln2))
	absB := uint64(b)
	if b < 0 {
		absB = uint64(-b)
	}
	r := &sc.r
	sc.a.SetInt64(b)
	r.Mul(&sc.a, k.ln2)
	r.Sub(y, r)
	// At each level j = round(r / step) = floor((r + half) / step).
	var js [expLevels]int64
	j := &sc.j
	for l := range expLevels {
		shift := k.fb - expLevelBits[l]
		j.Add(r, k.half[l])
		j.Rsh(j, shift)
		if !j.IsInt64() || j.Int64() < -expLevelHalf[l] || j.Int64() > expLevelHalf[l] {
			return 0, 0, false
		}
		js[l] = j.Int64()
		r.Sub(r, j.Lsh(j, shift))
	}
	// e^r3 = 1 + r3 + r3²/2! + …
	sum := sc.s.Add(k.one, r)
	term, spare := sc.u.Set(r), &sc.a
	var errT uint64
	for i := 2; i < len(k.small); i++ {
		// Mul allocates when its result aliases an operand: alternate.
		spare.Mul(term, r)
		term, spare = spare, term
		term.Rsh(term, k.fb)
		term.Quo(term, k.small[i])
		if term.Sign() == 0 {
			break
		}
		sum.Add(sum, term)
		errT += 2
	}
	for l := range expLevels {
		spare.Mul(sum, k.exp[l][js[l]+expLevelHalf[l]])
		sum, spare = spare, sum
		sum.Rsh(sum, k.fb)
	}
	s.Set(sum)
	// Relative error, in ulps: the argument's (errIn + |b| from b·ln 2),
	// the series', and a table entry and a truncation per level (4 ulps
	// each, as before); ×2 covers the factor up to 1.42 between relative
	// and absolute ulps of s.
	return int(b), 2*(errIn+absB+errT+4*expLevels) + 2, true
}

// roundFix rounds the value (mag ± err) · 2^e2 to q significant digits,
// half-even, into d, when both ends of the interval give the same
// digits. It reports whether it did.
//
// In units of half a unit in the q-th digit the value is mag·2·10^s·2^e2
// for the right s: one division of that by its denominator gives the
// half-units below mag and the remainder, and the ends of the interval
// are in the same half-unit when err, scaled alike, fits on both sides
// of the remainder.
func roundFix(k *lnexpConsts, sc *scratch, d *apd.Decimal, mag *big.Int, err uint64, e2, q int, neg bool, c *apd.Context) bool {
	if mag.Sign() <= 0 || mag.Cmp(sc.t.SetUint64(err)) <= 0 {
		return false
	}
	// log10 of the value, within one: (bitlen - 1 + e2) · log10 2.
	est := int(math.Floor(float64(mag.BitLen()-1+e2) * math.Log10(2)))
	s := q - 1 - est
	pq := k.pow10[q]
	pq1 := k.pow10[q-1]
	num, den, off, h, rem := &sc.num, &sc.den, &sc.lo, &sc.w, &sc.hi
	for range 3 {
		if s > maxPow10 || -s > maxPow10 {
			return false
		}
		// num/den = mag·2·10^s·2^e2 and off/den = err·2·10^s·2^e2.
		off.SetUint64(err)
		if s >= 0 {
			num.Mul(mag, k.pow10[s])
			off.Mul(off, k.pow10[s])
			den.SetInt64(1)
		} else {
			num.Set(mag)
			den.Set(k.pow10[-s])
		}
		num.Lsh(num, 1)
		off.Lsh(off, 1)
		if e2 >= 0 {
			num.Lsh(num, uint(e2))
			off.Lsh(off, uint(e2))
		} else {
			den.Lsh(den, uint(-e2))
		}
		h.QuoRem(num, den, rem)
		// Both ends in the half-unit [h, h+1): rem - off >= 0 and
		// rem + off < den.
		if rem.Cmp(off) < 0 || num.Add(rem, off).Cmp(den) >= 0 {
			return false
		}
		n := sc.u.Rsh(h, 1)
		switch {
		case n.Cmp(pq) >= 0:
			s--
			continue
		case n.Cmp(pq1) < 0:
			s++
			continue
		}
		if h.Bit(0) == 1 {
			n.Add(n, bigOne)
		}
		exp := -s
		if n.Cmp(pq) == 0 {
			n.Set(pq1)
			exp++
		}
		if c.MaxExponent != 0 && (int64(exp)+int64(q)-1 > int64(c.MaxExponent) || int64(exp) < int64(c.MinExponent)) {
			return false
		}
		if n.IsUint64() {
			d.Coeff.SetUint64(n.Uint64())
		} else {
			d.Coeff.SetMathBigInt(n)
		}
		d.Exponent = int32(exp)
		d.Negative = neg
		d.Form = apd.Finite
		return true
	}
	return false
}

var bigOne = big.NewInt(1)
