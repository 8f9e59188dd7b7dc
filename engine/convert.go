package engine

import (
	"errors"
	"fmt"
	"math/bits"

	"github.com/cockroachdb/apd/v3"
)

// Contexts shared by all conversions; none is ever modified.
var (
	// exact multiplies and adds without rounding.
	exact = func() *apd.Context {
		c := apd.BaseContext
		c.Rounding = apd.RoundHalfEven
		return &c
	}()
	// rounding[p] rounds half-even to p significant digits.
	rounding = func() (cs [MaxPrecision + 1]*apd.Context) {
		for p := 1; p <= MaxPrecision; p++ {
			cs[p] = exact.WithPrecision(uint32(p))
		}
		return cs
	}()
	// defaultWork is the working context of formulas at the default
	// precision.
	defaultWork = workContext(DefaultPrecision)
	workings    = func() (cs [MaxPrecision + 1]*apd.Context) {
		for p := 1; p <= MaxPrecision; p++ {
			cs[p] = workContext(p)
		}
		return cs
	}()
)

// workContext is the precision formulas and multi-step conversions run at:
// well above the requested precision, so the one final rounding decides the
// printed digits.
func workContext(p int) *apd.Context {
	return exact.WithPrecision(uint32(max(p, DefaultPrecision) + 8))
}

// ErrPrecision reports a precision outside 1..MaxPrecision.
var ErrPrecision = fmt.Errorf("precision must be a whole number from 1 to %d", MaxPrecision)

// conversion maps a unit's values onto its category's base unit:
// base = post(formula(pre(x))). Without a formula, pre is unused and post
// is the whole exact map.
type conversion struct {
	pre     affine
	formula *formula
	post    affine
	// preMap and postMap are pre and post as exact rationals, for Build.
	preMap, postMap ratMap
	// minimum is the category minimum times post.c, so that for a unit
	// without formula x is in range when x*post.a + post.b >= minimum.
	minimum *apd.Decimal
}

// Request asks for a conversion of Value (decimal text) from one unit to
// another, rounded to Precision significant digits (0 means the default).
type Request struct {
	Value     string
	From, To  string
	Precision int
}

// Result is a successful conversion.
type Result struct {
	// Value is the converted value, formatted by FormatDecimal.
	Value    string
	From, To *Unit
	Category *Category
	// Exact is true when Value is the mathematically exact result.
	Exact bool
}

// Convert converts req.Value from req.From to req.To. Errors are *Error
// with the API's codes, or ErrPrecision.
func (g *Graph) Convert(req Request) (Result, error) {
	var buf [64]byte
	text, res, err := g.AppendConvert(buf[:0], req)
	if err == nil {
		res.Value = string(text)
	}
	return res, err
}

// AppendConvert is Convert that appends the converted value's text to dst
// instead of setting Result.Value, for callers that write it straight into
// a response.
func (g *Graph) AppendConvert(dst []byte, req Request) ([]byte, Result, error) {
	p := req.Precision
	if p == 0 {
		p = DefaultPrecision
	}
	if p < 1 || p > MaxPrecision {
		return dst, Result{}, ErrPrecision
	}
	v, err := ParseValue(req.Value)
	if err != nil {
		return dst, Result{}, err
	}
	from, err := g.Lookup(req.From)
	if err != nil {
		return dst, Result{}, err
	}
	to, err := g.Lookup(req.To)
	if err != nil {
		return dst, Result{}, err
	}
	var out number
	inexact, err := convertUnits(&out, &v, from, to, p)
	if err != nil {
		return dst, Result{}, err
	}
	return out.appendText(dst), Result{From: from, To: to, Category: to.Category, Exact: !inexact}, nil
}

// convertDecimal converts v between two units of one graph, correctly rounded
// to p significant digits, and reports whether rounding happened.
func convertDecimal(v *apd.Decimal, from, to *Unit, p int) (apd.Decimal, bool, error) {
	var out number
	inexact, err := convertUnits(&out, v, from, to, p)
	return out.decimal(), inexact, err
}

// number is a conversion result: an apd decimal, or the 128-bit quotient
// of the fast division path, kept as is until it is printed.
type number struct {
	dec  apd.Decimal
	q    quotient
	fast bool
}

func (n *number) appendText(dst []byte) []byte {
	if n.fast {
		var buf [48]byte
		return appendFormatted(dst, n.q.neg, n.q.appendDigits(buf[:0]), int(n.q.exp))
	}
	return appendDecimal(dst, &n.dec)
}

func (n *number) decimal() apd.Decimal {
	if n.fast {
		var d apd.Decimal
		n.q.decimal(&d)
		return d
	}
	return n.dec
}

func convertUnits(out *number, v *apd.Decimal, from, to *Unit, p int) (inexact bool, err error) {
	if from.Category != to.Category {
		return false, errorf(CodeIncompatibleUnits,
			"cannot convert %s (%s) to %s (%s): %s and %s are different categories",
			from.Symbol, from.Category.Name, to.Symbol, to.Category.Name, from.Category.ID, to.Category.ID)
	}
	switch ff, tf := from.conv.formula, to.conv.formula; {
	case ff == nil && tf == nil:
		inexact, err = convertLinear(out, v, from, to, p)
	case (ff == nil || ff.rational) && (tf == nil || tf.rational):
		inexact, err = convertRational(out, v, from, to, p)
	default:
		inexact, err = convertStepwise(&out.dec, v, from, to, p)
	}
	if err != nil {
		var e *Error
		if errors.As(err, &e) {
			return false, e
		}
		return false, errorf(CodeValueOutOfRange, "%s %s cannot be converted to %s: %v", FormatDecimal(v), from.Symbol, to.Symbol, err)
	}
	if out.dec.IsZero() {
		out.dec.Negative = false
	}
	return inexact, nil
}

// convertLinear converts between units without formulas in one exact
// expression and a single rounding:
//
//	base = (x*aA + bA)/cA   and   y = (base*cB - bB)/aB
//	so y = (x*aA*cB + bA*cB - bB*cA) / (cA*aB).
func convertLinear(out *number, x *apd.Decimal, from, to *Unit, p int) (inexact bool, err error) {
	A, B := &from.conv.post, &to.conv.post
	// Most conversions: a word-sized value times word-sized factors, in
	// 128-bit integers: y = x·aA·cB / (cA·aB).
	if A.word && B.word && x.Coeff.IsUint64() && (from.conv.minimum == nil || from.conv.minimum.IsZero() && !x.Negative) {
		hi, lo, ok := mul128(x.Coeff.Uint64(), A.aWord, B.cWord)
		dhi, den := bits.Mul64(A.cWord, B.aWord)
		if ok && dhi == 0 {
			if inexact, ok := quo128(&out.q, hi, lo, den, x.Exponent+A.aExp-B.aExp, x.Negative, p); ok {
				out.fast = true
				return inexact, nil
			}
		}
	}
	if (A.hasOffset || B.hasOffset) && A.ints.ok && B.ints.ok {
		if inexact, ok := affineWords(&out.q, x, from, A, B, p); ok {
			out.fast = true
			return inexact, nil
		}
	}
	if from.conv.minimum != nil {
		if err := checkMinimum(x, from); err != nil {
			return false, err
		}
	}
	var num, k, den apd.Decimal
	kp := &A.a
	if !B.cIsOne {
		mulExact(&k, &A.a, &B.c)
		kp = &k
	}
	mulExact(&num, x, kp)
	if A.hasOffset || B.hasOffset {
		var t1, t2 apd.Decimal
		mulExact(&t1, &A.b, &B.c)
		mulExact(&t2, &B.b, &A.c)
		exact.Sub(&t1, &t1, &t2)
		exact.Add(&num, &num, &t1)
	}
	denp := &B.a
	if !A.cIsOne {
		mulExact(&den, &A.c, &B.a)
		denp = &den
	}
	if A.cIsOne && B.aIsOne {
		cond, err := rounding[p].Round(&out.dec, &num)
		return cond.Inexact(), err
	}
	if inexact, ok := quoFast(&out.q, &num, denp, p); ok {
		out.fast = true
		return inexact, nil
	}
	cond, err := rounding[p].Quo(&out.dec, &num, denp)
	return cond.Inexact(), err
}

// affineWords converts between affine units in 128-bit integers. With
// x = xc·10^-e and integer maps y = (x·A + B)/C,
//
//	y_B = (xc·A_A·C_B + (B_A·C_B - B_B·C_A)·10^e) / (C_A·A_B) · 10^-e.
//
// It declines (ok=false) whenever a number would not fit, and for inputs
// below a category minimum, which the general path reports.
func affineWords(q *quotient, x *apd.Decimal, from *Unit, A, B *affine, p int) (inexact, ok bool) {
	a, b := &A.ints, &B.ints
	if !x.Coeff.IsUint64() || x.Exponent > 0 || x.Exponent < -19 {
		return false, false
	}
	xc, scale := x.Coeff.Uint64(), pow10[-x.Exponent]
	if m := from.conv.minimum; m != nil {
		// Only a minimum of zero is checked here: x·A_A + B_A >= 0.
		base, ok1 := product(xc, a.A, 1, x.Negative)
		off, ok2 := product(a.B, scale, 1, a.bNeg)
		sum, ok3 := base.add(off)
		if !m.IsZero() || !ok1 || !ok2 || !ok3 || sum.neg {
			return false, false
		}
	}
	t, ok1 := product(xc, a.A, b.C, x.Negative)
	k1, ok2 := product(a.B, b.C, scale, a.bNeg)
	k2, ok3 := product(b.B, a.C, scale, !b.bNeg)
	num, ok4 := t.add(k1)
	num, ok5 := num.add(k2)
	dhi, den := bits.Mul64(a.C, b.A)
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || dhi != 0 {
		return false, false
	}
	return quo128(q, num.hi, num.lo, den, x.Exponent, num.neg, p)
}

func checkMinimum(x *apd.Decimal, u *Unit) error {
	var t apd.Decimal
	exact.Mul(&t, x, &u.conv.post.a)
	exact.Add(&t, &t, &u.conv.post.b)
	if t.Cmp(u.conv.minimum) < 0 {
		return outOfRange(x, u, "below the minimum of "+u.Category.Name+" ("+u.Category.Minimum+" "+u.Category.Base.Symbol+")")
	}
	return nil
}

func outOfRange(x *apd.Decimal, u *Unit, why string) *Error {
	return errorf(CodeValueOutOfRange, "%s %s is out of range: %s", FormatDecimal(x), u.Symbol, why)
}

// convertStepwise converts through the base unit step by step at a
// working precision, then rounds once.
func convertStepwise(out, x *apd.Decimal, from, to *Unit, p int) (bool, error) {
	work := workings[p]
	var inexact bool
	step := func(i bool, err error) error {
		inexact = inexact || i
		return err
	}
	var base apd.Decimal
	if f := from.conv.formula; f != nil {
		var in apd.Decimal
		if err := step(from.conv.pre.apply(&in, x, work)); err != nil {
			return false, err
		}
		y, i, err := runFormula(f.to, &in, work)
		if err != nil {
			return false, formulaError(x, from, err)
		}
		inexact = inexact || i
		if err := step(from.conv.post.apply(&base, y, work)); err != nil {
			return false, err
		}
	} else {
		if from.conv.minimum != nil {
			if err := checkMinimum(x, from); err != nil {
				return false, err
			}
		}
		if err := step(from.conv.post.apply(&base, x, work)); err != nil {
			return false, err
		}
	}
	var y apd.Decimal
	if f := to.conv.formula; f != nil {
		var in apd.Decimal
		if err := step(to.conv.post.invert(&in, &base, work)); err != nil {
			return false, err
		}
		r, i, err := runFormula(f.from, &in, work)
		if err != nil {
			return false, formulaError(x, from, err)
		}
		inexact = inexact || i
		if err := step(to.conv.pre.invert(&y, r, work)); err != nil {
			return false, err
		}
	} else if err := step(to.conv.post.invert(&y, &base, work)); err != nil {
		return false, err
	}
	cond, err := rounding[p].Round(out, &y)
	return inexact || cond.Inexact(), err
}

func formulaError(x *apd.Decimal, u *Unit, err error) error {
	if errors.Is(err, errDomain) {
		return outOfRange(x, u, "outside the domain of the conversion")
	}
	return err
}
