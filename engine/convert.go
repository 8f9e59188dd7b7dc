package engine

import (
	"errors"
	"fmt"

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

// conversion maps a unit's values onto a reference unit (its category's
// base, or the coherent SI unit of its dimension):
// ref = post(formula(pre(x))) · π^pi. Without a formula, pre is unused and
// post is the whole exact map.
type conversion struct {
	pre     affine
	formula *formula
	post    affine
	pi      int
	// preMap and postMap are pre and post as exact rationals, for Build.
	preMap, postMap ratMap
	// minimum is the category minimum times post.c, so that for a unit
	// without formula x is in range when x*post.a + post.b >= minimum.
	minimum *apd.Decimal
}

// Request asks for a conversion of Value (decimal text) from one unit to
// another, rounded to Precision significant digits (0 means the default).
// From and To are catalog units or unit expressions.
type Request struct {
	Value     string
	From, To  string
	Precision int
	// Budget, when set, bounds the slow work of the conversion and is
	// shared by every conversion of one request (see Budget).
	Budget *Budget
	// Usage, Region and Locale choose the unit when To is Auto: CLDR's
	// usage ("person-height"; "default" when empty), and the region (ISO
	// 3166-1 or UN M.49), else the locale (BCP 47) it is found from.
	Usage, Region, Locale string
}

// Result is a successful conversion.
type Result struct {
	// Value is the converted value, formatted by FormatDecimal.
	Value string
	// From and To are the catalog units converted between; nil for a
	// unit expression, which FromExpression or ToExpression hold instead.
	From, To                     *Unit
	FromExpression, ToExpression *Expression
	// Unit is the canonical symbol of the target unit or expression.
	Unit string
	// Category is the category of the result, nil for an expression of a
	// dimension no category has; CategoryID names it either way (then by
	// its dimension, "M T^-3 Θ^-1").
	Category   *Category
	CategoryID string
	// Exact is true when Value is the mathematically exact result.
	Exact bool
	// Bridge is the catalog bridge the conversion went through, or nil.
	Bridge *Bridge
	// Parts is the result in a mixed unit (Unit is then "ft+in" and Value
	// empty): whole numbers of each part but the last, which carries the
	// precision. To is then the last part.
	Parts []Part
	// Preference says how the unit was chosen when To was Auto, else nil.
	Preference *Preference
	mixed      *mixedUnit
}

// Convert converts req.Value from req.From to req.To. Errors are *Error
// with the API's codes, or ErrPrecision.
func (g *Graph) Convert(req Request) (res Result, err error) {
	var buf [64]byte
	text, err := g.appendConvert(buf[:0], &req, &res)
	if err != nil {
		return Result{}, err
	}
	if res.Parts == nil {
		res.Value = string(text)
	}
	return res, nil
}

// AppendConvert is Convert that appends the converted value's text to dst
// instead of setting Result.Value, for callers that write it straight into
// a response; it fills in *res, leaving res.Value alone. Request and
// Result go by pointer: a batch converts a hundred of them in a row, and
// copying them in and out cost about a tenth of a conversion. On error dst is
// returned unchanged and *res is zero.
//
// Every conversion takes the same steps: resolve both units (catalog
// units or expressions) and map them onto one reference unit; check the
// input against the source unit's domain, once; evaluate the result
// exactly; round it once.
func (g *Graph) AppendConvert(dst []byte, req *Request, res *Result) ([]byte, error) {
	out, err := g.appendConvert(dst, req, res)
	if err != nil {
		*res = Result{}
		return dst, err
	}
	return out, nil
}

// appendConvert is AppendConvert filling in *res, which it leaves
// incomplete on error.
func (g *Graph) appendConvert(dst []byte, req *Request, res *Result) ([]byte, error) {
	res.Parts, res.Preference, res.mixed = nil, nil, nil // a caller may reuse res
	p := req.Precision
	if p == 0 {
		p = DefaultPrecision
	}
	if p < 1 || p > MaxPrecision {
		return dst, ErrPrecision
	}
	var v apd.Decimal
	if err := parseValue(&v, req.Value); err != nil {
		if isMixedName(req.From) {
			return g.appendReadable(dst, req, res, p)
		}
		return dst, err
	}
	if pe := g.cachedPair(req.From, req.To); pe != nil {
		return pe.convert(dst, &v, p, req.Budget, res)
	}
	if isReadable(req) {
		return g.appendReadable(dst, req, res, p)
	}
	var pe pairEntry
	if err := g.resolvePair(&pe, req.From, req.To); err != nil {
		return dst, err
	}
	return pe.convert(dst, &v, p, req.Budget, res)
}

// convert runs a resolved pair on x and appends the result.
func (pe *pairEntry) convert(dst []byte, x *apd.Decimal, p int, budget *Budget, res *Result) ([]byte, error) {
	var out number
	inexact, err := pe.plan.run(&out, x, p, budget)
	if err != nil {
		return dst, err
	}
	from, to, pl := &pe.fromSide, &pe.toSide, &pe.plan
	res.From, res.To, res.FromExpression, res.ToExpression = from.unit, to.unit, from.expr, to.expr
	res.Unit, res.Category, res.CategoryID = pl.unit, pl.category, pl.categoryID
	res.Exact, res.Bridge = !inexact, pl.bridge
	return out.appendText(dst), nil
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

// run converts x along the plan, rounded to p significant digits, and
// reports whether rounding happened: the domain check, then the exact
// evaluation and its one rounding.
func (pl *plan) run(out *number, x *apd.Decimal, p int, budget *Budget) (inexact bool, err error) {
	A, B := pl.from, pl.to
	if A.minimum != nil {
		if err := checkMinimum(x, A, pl.fromUnit); err != nil {
			return false, err
		}
	}
	if optimize {
		if pl.rat != nil {
			if inexact, ok := pl.rat.apply(&out.q, x, p); ok {
				out.fast = true
				return inexact, nil
			}
		}
		if inexact, ok := accelerate(out, x, A, B, p); ok {
			return inexact, nil
		}
	}
	switch ff, tf := A.formula, B.formula; {
	case ff == nil && tf == nil:
		inexact, err = evalLinear(out, x, A, B, p)
	case (ff == nil || ff.rational) && (tf == nil || tf.rational):
		inexact, err = evalRational(out, x, A, B, p)
	default:
		inexact, err = evalStepwise(out, x, A, B, p, budget)
	}
	if err != nil {
		var e *Error
		if errors.As(err, &e) {
			return false, e
		}
		if errors.Is(err, errBudget) {
			return false, errorf(CodeWorkBudgetExceeded, "converting %s %s to %s needs more exact-rounding work than this request has left (%d slow evaluations per request); send it in a request of its own", FormatDecimal(x), pl.fromName, pl.unit, DefaultBudget)
		}
		if errors.Is(err, errDomain) {
			return false, errorf(CodeValueOutOfRange, "%s %s is out of range: outside the domain of the conversion", FormatDecimal(x), pl.fromName)
		}
		if errors.Is(err, errArithmetic) || errors.Is(err, errFormulaTooLarge) {
			return false, errorf(CodeValueOutOfRange, "%s %s cannot be converted to %s: %v", FormatDecimal(x), pl.fromName, pl.unit, err)
		}
		// Anything else is a fault of the engine or the catalog, not of
		// the value: the caller reports it as an internal error.
		return false, fmt.Errorf("convert %s %s to %s: %w", FormatDecimal(x), pl.fromName, pl.unit, err)
	}
	if !out.fast && out.dec.IsZero() {
		out.dec.Negative = false
	}
	return inexact, nil
}

// evalLinear converts between maps without formulas in one exact
// expression:
//
//	ref = (x*aA + bA)/cA   and   y = (ref*cB - bB)/aB
//	so y = (x*aA*cB + bA*cB - bB*cA) / (cA*aB) · π^(piA-piB).
func evalLinear(out *number, x *apd.Decimal, A, B *conversion, p int) (inexact bool, err error) {
	a, b := &A.post, &B.post
	var num, k, den apd.Decimal
	kp := &a.a
	if !b.cIsOne {
		mulExact(&k, &a.a, &b.c)
		kp = &k
	}
	mulExact(&num, x, kp)
	if a.hasOffset || b.hasOffset {
		var t1, t2 apd.Decimal
		mulExact(&t1, &a.b, &b.c)
		mulExact(&t2, &b.b, &a.c)
		exact.Sub(&t1, &t1, &t2)
		exact.Add(&num, &num, &t1)
	}
	denp := &b.a
	if !a.cIsOne {
		mulExact(&den, &a.c, &b.a)
		denp = &den
	}
	return roundExact(out, &num, denp, A.pi-B.pi, p)
}

// roundExact sets out to num/den·π^k rounded half-even to p significant
// digits: the one rounding of every exact conversion.
func roundExact(out *number, num, den *apd.Decimal, k int, p int) (inexact bool, err error) {
	if k != 0 {
		// π^k is irrational: never exact.
		if optimize && piWords(&out.q, num, den, k, p) {
			out.fast = true
			return true, nil
		}
		if optimize && piFast(&out.dec, num, den, k, p) {
			return true, nil
		}
		return roundPi(&out.dec, num, den, k, p)
	}
	if den.Coeff.Cmp(bigOne) == 0 && den.Exponent == 0 && !den.Negative {
		cond, err := arith(rounding[p].Round(&out.dec, num))
		return cond.Inexact(), err
	}
	if optimize {
		if inexact, ok := quoFast(&out.q, num, den, p); ok {
			out.fast = true
			return inexact, nil
		}
	}
	cond, err := arith(rounding[p].Quo(&out.dec, num, den))
	return cond.Inexact(), err
}

// checkMinimum refuses x below the category minimum of the source unit
// (absolute zero).
func checkMinimum(x *apd.Decimal, c *conversion, u *Unit) error {
	a := &c.post
	if c.minimum.IsZero() && !x.Negative && !a.a.Negative && !a.b.Negative {
		return nil // x·a + b >= 0 at a glance
	}
	var t apd.Decimal
	mulExact(&t, x, &a.a)
	exact.Add(&t, &t, &a.b)
	if t.Cmp(c.minimum) < 0 {
		return outOfRange(x, u, "below the minimum of "+u.Category.Name+" ("+u.Category.Minimum+" "+u.Category.Base.Symbol+")")
	}
	return nil
}

func outOfRange(x *apd.Decimal, u *Unit, why string) *Error {
	return errorf(CodeValueOutOfRange, "%s %s is out of range: %s", FormatDecimal(x), u.Symbol, why)
}

// evalStepwise converts through formulas, for formulas beyond + - * /:
// each formula runs at a working precision, and the linear maps on either
// side of the reference unit are joined into one exact map with a single
// rounding, so a value such as 1.000…001 mW reaches log10 whole. The
// result is then rounded to p digits.
func evalStepwise(out *number, x *apd.Decimal, A, B *conversion, p int, budget *Budget) (bool, error) {
	work := workings[p]
	var inexact bool
	step := func(i bool, err error) error {
		inexact = inexact || i
		return err
	}
	var y apd.Decimal
	src := x // in the unit A.post starts from
	if f := A.formula; f != nil {
		var in apd.Decimal
		if err := step(A.pre.apply(&in, x, work)); err != nil {
			return false, err
		}
		r, i, err := runFormula(f.to, &in, work, budget)
		if err != nil {
			return false, err
		}
		inexact = inexact || i
		src = r
	}
	if f := B.formula; f != nil {
		var in apd.Decimal
		if err := step(link(&in, src, &A.post, &B.post, A.pi-B.pi, work)); err != nil {
			return false, err
		}
		r, i, err := runFormula(f.from, &in, work, budget)
		if err != nil {
			return false, err
		}
		inexact = inexact || i
		if err := step(B.pre.invert(&y, r, work)); err != nil {
			return false, err
		}
	} else if err := step(link(&y, src, &A.post, &B.post, A.pi-B.pi, work)); err != nil {
		return false, err
	}
	if optimize {
		if i, ok := roundWords(&out.q, &y, p); ok {
			out.fast = true
			return inexact || i, nil
		}
	}
	cond, err := arith(rounding[p].Round(&out.dec, &y))
	return inexact || cond.Inexact(), err
}

// link maps x through a onto the reference unit and back through b, as
// one exact expression rounded once at work:
//
//	y = (x*aA*cB + bA*cB - bB*cA) / (cA*aB) · π^pi
func link(y, x *apd.Decimal, a, b *affine, pi int, work *apd.Context) (inexact bool, err error) {
	var num, den, t1, t2 apd.Decimal
	mulExact(&num, x, &a.a)
	if !b.cIsOne {
		mulExact(&num, &num, &b.c)
	}
	if a.hasOffset || b.hasOffset {
		mulExact(&t1, &a.b, &b.c)
		mulExact(&t2, &b.b, &a.c)
		if _, err := arith(exact.Sub(&t1, &t1, &t2)); err != nil {
			return false, err
		}
		if _, err := arith(exact.Add(&num, &num, &t1)); err != nil {
			return false, err
		}
	}
	mulExact(&den, &a.c, &b.a)
	// A quotient that terminates is kept whole (an input of 100 digits
	// reaches the formula as it was written); one that does not is rounded
	// at the working precision.
	if den.Coeff.IsUint64() && den.Coeff.Uint64() == 1 {
		// A power of ten: the quotient is num, shifted.
		y.Set(&num)
		y.Exponent -= den.Exponent
		y.Negative = num.Negative != den.Negative && !num.IsZero()
	} else {
		ctx := work
		if n := uint32(num.NumDigits()) + 2; n > work.Precision {
			ctx = work.WithPrecision(n)
		}
		cond, err := arith(ctx.Quo(y, &num, &den))
		if err != nil {
			return false, err
		}
		inexact = cond.Inexact()
	}
	if pi != 0 && !y.IsZero() {
		if _, err := arith(work.Mul(y, y, piDecimal(pi, int(work.Precision)+5))); err != nil {
			return false, err
		}
		inexact = true
	}
	return inexact, nil
}
