package engine

import (
	"fmt"

	"github.com/cockroachdb/apd/v3"
	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"
)

// frac is an exact fraction n/d with d > 0, for rational formulas and the
// exact steps around them.
type frac struct {
	n, d apd.Decimal
}

// ratEnv is the environment of a rational formula.
type ratEnv struct {
	X frac `expr:"x"`
}

var (
	fracOne      = *apd.New(1, 0)
	ratBinarySig = new(func(frac, frac) frac)
	ratUnarySig  = new(func(frac) frac)
)

func ratBinary(op func(a, b frac) (frac, error)) func(params ...any) (any, error) {
	return func(params ...any) (any, error) {
		return op(params[0].(frac), params[1].(frac))
	}
}

// mulExact sets d = x·y exactly. It is apd's Mul without the rounding
// machinery, which an exact product of finite values never needs (their
// exponents stay far inside int32: values and factors are bounded).
func mulExact(d, x, y *apd.Decimal) {
	neg := x.Negative != y.Negative
	d.Exponent = x.Exponent + y.Exponent
	d.Coeff.Mul(&x.Coeff, &y.Coeff)
	d.Negative = neg && d.Coeff.Sign() != 0
	d.Form = apd.Finite
}

// addExact sets d = x + y exactly, as exact.Add does, without apd's
// rounding machinery: the coefficients are aligned to the smaller
// exponent and added as integers. d may alias x or y.
func addExact(d, x, y *apd.Decimal) {
	switch {
	case y.IsZero():
		neg := x.Negative && y.Negative // -0 + 0 is 0, as in apd
		d.Set(x)
		if d.IsZero() {
			d.Negative = neg
		}
		return
	case x.IsZero():
		d.Set(y)
		return
	}
	e := min(x.Exponent, y.Exponent)
	if int(x.Exponent-e) > maxPow10 || int(y.Exponent-e) > maxPow10 {
		exact.Add(d, x, y) //nolint:errcheck // finite operands of bounded exponents
		return
	}
	pow := coeffPow10()
	var xc, yc apd.BigInt
	xc.Mul(&x.Coeff, &pow[x.Exponent-e])
	yc.Mul(&y.Coeff, &pow[y.Exponent-e])
	neg := x.Negative
	if x.Negative == y.Negative {
		d.Coeff.Add(&xc, &yc)
	} else if xc.Cmp(&yc) >= 0 {
		d.Coeff.Sub(&xc, &yc)
	} else {
		d.Coeff.Sub(&yc, &xc)
		neg = y.Negative
	}
	d.Exponent = e
	d.Negative = neg && d.Coeff.Sign() != 0
	d.Form = apd.Finite
}

// ratAdd returns a + b (or a - b when sign is -1) exactly.
func ratAdd(a, b frac, sign int) frac {
	var r frac
	var t apd.Decimal
	mulExact(&r.n, &a.n, &b.d)
	mulExact(&t, &b.n, &a.d)
	if sign < 0 {
		exact.Sub(&r.n, &r.n, &t)
	} else {
		exact.Add(&r.n, &r.n, &t)
	}
	mulExact(&r.d, &a.d, &b.d)
	return r
}

func ratMul(a, b frac) (frac, error) {
	var r frac
	mulExact(&r.n, &a.n, &b.n)
	mulExact(&r.d, &a.d, &b.d)
	return r, checkFracSize(&r)
}

func ratQuo(a, b frac) (frac, error) {
	if b.n.IsZero() {
		return frac{}, fmt.Errorf("division by zero: %w", errDomain)
	}
	var r frac
	mulExact(&r.n, &a.n, &b.d)
	mulExact(&r.d, &a.d, &b.n)
	if r.d.Negative {
		r.d.Negative = false
		r.n.Negative = !r.n.Negative
	}
	return r, checkFracSize(&r)
}

// rationalOptions compile formulas made only of + - * / on x and
// literals; anything else (powers, functions) fails to compile, and the
// formula is compiled with formulaOptions instead.
var rationalOptions = []expr.Option{
	expr.Env(ratEnv{}),
	expr.DisableAllBuiltins(),
	expr.Patch(literalPatcher{constant: func(d *apd.Decimal) any { return frac{n: *d, d: fracOne} }, operators: map[string]string{
		"+": "_add", "-": "_sub", "*": "_mul", "/": "_quo",
	}}),
	expr.Function("_add", ratBinary(func(a, b frac) (frac, error) { return ratAdd(a, b, 1), nil }), ratBinarySig),
	expr.Function("_sub", ratBinary(func(a, b frac) (frac, error) { return ratAdd(a, b, -1), nil }), ratBinarySig),
	expr.Function("_mul", ratBinary(ratMul), ratBinarySig),
	expr.Function("_quo", ratBinary(ratQuo), ratBinarySig),
	expr.Function("_neg", func(params ...any) (any, error) {
		a := params[0].(frac)
		a.n.Negative = !a.n.Negative && !a.n.IsZero()
		return a, nil
	}, ratUnarySig),
}

var rationalMode = formulaMode{
	opts: rationalOptions,
	env:  func(x *apd.Decimal) any { return ratEnv{X: frac{n: *x, d: fracOne}} },
}

// runRationalMobius runs a rational formula through its Möbius map when
// it has one and the accelerators are on, and through its program
// otherwise.
func runRationalMobius(prog *vm.Program, m *mobius, x frac) (frac, error) {
	if optimize && m != nil {
		return m.apply(x)
	}
	return runRational(prog, x)
}

func runRational(prog *vm.Program, x frac) (frac, error) {
	out, err := runProgram(prog, ratEnv{X: x})
	if err != nil {
		return frac{}, err
	}
	r, ok := out.(frac)
	if !ok {
		return frac{}, fmt.Errorf("formula returned %T, not a number", out)
	}
	return r, nil
}

// applyExact is affine.apply on fractions: (x*a + b)/c, exactly.
func (p *affine) applyExact(x frac) frac {
	var r frac
	var t apd.Decimal
	mulExact(&r.n, &x.n, &p.a)
	if p.hasOffset {
		mulExact(&t, &p.b, &x.d)
		exact.Add(&r.n, &r.n, &t)
	}
	mulExact(&r.d, &x.d, &p.c)
	return r
}

// invertExact is affine.invert on fractions: (y*c - b)/a, exactly.
func (p *affine) invertExact(y frac) frac {
	var r frac
	var t apd.Decimal
	mulExact(&r.n, &y.n, &p.c)
	if p.hasOffset {
		mulExact(&t, &p.b, &y.d)
		exact.Sub(&r.n, &r.n, &t)
	}
	mulExact(&r.d, &y.d, &p.a)
	return r
}

// evalRational converts exactly through rational formulas (or none) and
// rounds once at the end.
func evalRational(out *number, x *apd.Decimal, A, B *conversion, p int) (bool, error) {
	v := frac{n: *x, d: fracOne}
	var ref frac
	if f := A.formula; f != nil {
		y, err := runRationalMobius(f.to, f.toMob, A.pre.applyExact(v))
		if err != nil {
			return false, err
		}
		ref = A.post.applyExact(y)
	} else {
		ref = A.post.applyExact(v)
	}
	var y frac
	if f := B.formula; f != nil {
		r, err := runRationalMobius(f.from, f.fromMob, B.post.invertExact(ref))
		if err != nil {
			return false, err
		}
		y = B.pre.invertExact(r)
	} else {
		y = B.post.invertExact(ref)
	}
	if y.d.IsZero() {
		return false, fmt.Errorf("division by zero: %w", errDomain)
	}
	if y.d.Negative {
		y.d.Negative, y.n.Negative = false, !y.n.Negative && !y.n.IsZero()
	}
	return roundExact(out, &y.n, &y.d, A.pi-B.pi, p)
}
