package formula

import (
	"errors"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine/internal/pi"
)

// tan and atan for the formulas of UCUM's special units [p'diop] and
// %[slope] (100·tan of an angle). Both are computed in apd decimals and
// rounded correctly in Ziv's manner: evaluate at a working precision with
// guard digits, evaluate again with more, and accept the rounding to the
// requested precision only when both agree; otherwise raise the working
// precision and try again, up to a limit. tan(0) and atan(0) are the only
// exact values at a rational argument; every other result is inexact.

// maxTrigDigits bounds the working precision of one evaluation.
const maxTrigDigits = 400

var errTrig = errors.New("tan/atan did not settle within the working precision limit")

// tanCR sets d to tan(x) correctly rounded to c.Precision digits, a
// formula function (runUnary): every widening after the first is charged
// to the conversion's budget, like lnexp's slow paths.
func tanCR(c *apd.Context, d, x *apd.Decimal, r Env) (apd.Condition, error) {
	return zivRound(c, d, x, r.Budget, tanAt)
}

// atanCR sets d to atan(x) correctly rounded to c.Precision digits.
func atanCR(c *apd.Context, d, x *apd.Decimal, r Env) (apd.Condition, error) {
	return zivRound(c, d, x, r.Budget, atanAt)
}

// piDecimal is π to digits decimal places (truncated), from package pi.
func piDecimal(digits int) *apd.Decimal {
	var d apd.Decimal
	d.Coeff.SetMathBigInt(pi.Scaled(digits))
	d.Exponent = -int32(digits)
	return &d
}

// zivRound rounds f(x) to c.Precision digits once two evaluations at
// different working precisions round alike.
func zivRound(c *apd.Context, d, x *apd.Decimal, b *Budget, f func(*apd.Decimal, *apd.Decimal, uint32) error) (apd.Condition, error) {
	if x.IsZero() {
		d.SetInt64(0)
		return 0, nil
	}
	p := c.Precision
	if p == 0 {
		p = 34
	}
	round := c.WithPrecision(p)
	// A huge argument needs its reduction modulo π to as many digits as
	// its integer part has.
	w := p + 12 + uint32(max(0, x.NumDigits()+int64(x.Exponent)))
	var lo, hi, rlo, rhi apd.Decimal
	for first := true; w <= maxTrigDigits; w *= 2 {
		if !first && b != nil && !b.take() {
			return 0, ErrBudget
		}
		first = false
		if err := f(&lo, x, w); err != nil {
			return 0, err
		}
		if err := f(&hi, x, w+16); err != nil {
			return 0, err
		}
		round.Round(&rlo, &lo)
		round.Round(&rhi, &hi)
		if rlo.Cmp(&rhi) == 0 {
			d.Set(&rhi)
			return apd.Inexact | apd.Rounded, nil
		}
	}
	return 0, errTrig
}

// tanAt sets d to tan(x) computed at w digits: x reduced modulo π, then
// sin/cos by their series.
func tanAt(d, x *apd.Decimal, w uint32) error {
	ctx := exactCtx.WithPrecision(w + 10)
	piw := piDecimal(int(w) + 10)
	var k, r, t apd.Decimal
	if _, err := ctx.Quo(&k, x, piw); err != nil {
		return err
	}
	if _, err := ctx.RoundToIntegralValue(&k, &k); err != nil {
		return err
	}
	ctx.Mul(&t, &k, piw)
	ctx.Sub(&r, x, &t)
	var s, co apd.Decimal
	if err := sinCos(&s, &co, &r, ctx); err != nil {
		return err
	}
	if co.IsZero() {
		return ErrDomain
	}
	_, err := ctx.Quo(d, &s, &co)
	return err
}

// sinCos sets s and c to sin(r) and cos(r) for |r| ≤ π/2 by their Taylor
// series, after halving r until it is small and doubling back.
func sinCos(s, c, r *apd.Decimal, ctx *apd.Context) error {
	var y apd.Decimal
	y.Set(r)
	halvings := 0
	limit := apd.New(1, -2)
	var a apd.Decimal
	for a.Abs(&y); a.Cmp(limit) > 0; a.Abs(&y) {
		ctx.Quo(&y, &y, apd.New(2, 0))
		halvings++
	}
	// sin y = y - y³/3! + …, cos y = 1 - y²/2! + …
	var y2, term, n apd.Decimal
	ctx.Mul(&y2, &y, &y)
	eps := apd.New(1, -int32(ctx.Precision)-2)
	s.Set(&y)
	term.Set(&y)
	for i := int64(1); ; i++ {
		ctx.Mul(&term, &term, &y2)
		n.SetInt64(-(2 * i) * (2*i + 1))
		ctx.Quo(&term, &term, &n)
		ctx.Add(s, s, &term)
		if a.Abs(&term); a.Cmp(eps) < 0 {
			break
		}
	}
	c.SetInt64(1)
	term.SetInt64(1)
	for i := int64(1); ; i++ {
		ctx.Mul(&term, &term, &y2)
		n.SetInt64(-(2*i - 1) * (2 * i))
		ctx.Quo(&term, &term, &n)
		ctx.Add(c, c, &term)
		if a.Abs(&term); a.Cmp(eps) < 0 {
			break
		}
	}
	// sin 2y = 2 sin y cos y, cos 2y = 1 - 2 sin² y.
	var t apd.Decimal
	two := apd.New(2, 0)
	for range halvings {
		ctx.Mul(&t, s, c)
		ctx.Mul(&t, &t, two)
		ctx.Mul(c, s, s)
		ctx.Mul(c, c, two)
		ctx.Sub(c, apd.New(1, 0), c)
		s.Set(&t)
	}
	return nil
}

// atanAt sets d to atan(x) computed at w digits: atan x = π/2 - atan(1/x)
// beyond 1, argument halving atan x = 2 atan(x / (1 + √(1+x²))) below, and
// the series x - x³/3 + x⁵/5 - ….
func atanAt(d, x *apd.Decimal, w uint32) error {
	ctx := exactCtx.WithPrecision(w + 10)
	var y, a apd.Decimal
	y.Set(x)
	neg := y.Negative
	y.Negative = false
	one := apd.New(1, 0)
	invert := y.Cmp(one) > 0
	if invert {
		ctx.Quo(&y, one, &y)
	}
	doublings := 0
	limit := apd.New(1, -2)
	var t apd.Decimal
	for y.Cmp(limit) > 0 {
		ctx.Mul(&t, &y, &y)
		ctx.Add(&t, &t, one)
		ctx.Sqrt(&t, &t)
		ctx.Add(&t, &t, one)
		ctx.Quo(&y, &y, &t)
		doublings++
	}
	var y2, term, sum, n apd.Decimal
	ctx.Mul(&y2, &y, &y)
	eps := apd.New(1, -int32(ctx.Precision)-2)
	sum.Set(&y)
	term.Set(&y)
	for i := int64(1); ; i++ {
		ctx.Mul(&term, &term, &y2)
		term.Negative = !term.Negative
		n.SetInt64(2*i + 1)
		var q apd.Decimal
		ctx.Quo(&q, &term, &n)
		ctx.Add(&sum, &sum, &q)
		if a.Abs(&q); a.Cmp(eps) < 0 {
			break
		}
	}
	for range doublings {
		ctx.Add(&sum, &sum, &sum)
	}
	if invert {
		half := piDecimal(int(w) + 10)
		ctx.Quo(half, half, apd.New(2, 0))
		ctx.Sub(&sum, half, &sum)
	}
	sum.Negative = neg && !sum.IsZero()
	d.Set(&sum)
	return nil
}
