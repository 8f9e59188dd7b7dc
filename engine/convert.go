package engine

import (
	"fmt"
	"math/big"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine/formula"
	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/internal/plan"
	"github.com/unitd/unitd/engine/mixed"
)

// ErrPrecision reports a precision outside 1..MaxPrecision.
var ErrPrecision = fmt.Errorf("precision must be a whole number from 1 to %d", MaxPrecision)

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
	// Properties, when set, are what is measured (ResolveProperties), for
	// conversions across kinds such as mg/dL to mmol/L.
	Properties *Properties
	// Usage, Region and Locale choose the unit when To is Auto: CLDR's
	// usage ("person-height"; "default" when empty), and the region (ISO
	// 3166-1 or UN M.49), else the locale (BCP 47) it is found from.
	Usage, Region, Locale string
	// Exact, when set, is the value as exact rationals and is used instead
	// of Value: one per part of From (one for a unit or an expression, one
	// per part of a mixed unit such as ft+in, the sign on the first part
	// that is not zero). A fraction whose decimal does not terminate (⅓
	// cup, as free text reads it) so converts exactly and is rounded once.
	Exact []*big.Rat
}

// Result is a successful conversion. What only some conversions have (an
// expression's side, a bridge, a substance's properties or a measurand's
// equations, a hint, a mixed unit's parts, a chosen unit's reasons) is
// read through its methods, so that the struct a conversion returns stays
// small: Convert copies it out, and most conversions need none of them.
type Result struct {
	// Value is the converted value, formatted by FormatDecimal.
	Value string
	// From and To are the catalog units converted between; nil for a
	// unit expression, which FromExpression or ToExpression return
	// instead.
	From, To *Unit
	// Unit is the canonical symbol of the target unit or expression.
	Unit string
	// Category is the category of the result, nil for an expression of a
	// dimension no category has; CategoryID names it either way (then by
	// its dimension, "M T^-3 Θ^-1").
	Category   *Category
	CategoryID string
	// Exact is true when Value is the mathematically exact result and
	// every definition used is exact (Explanation.Inexact names those
	// that are not).
	Exact bool
	// Properties is what the request said was measured, when the
	// conversion went across kinds through it (for Explain), else nil.
	Properties *Properties
	// route is what the pair converted along holds beyond its units (its
	// expressions, bridge, properties used, equations), shared by every
	// conversion of the pair and never written through; nil when it
	// holds none of them.
	route *plan.Route
	// hint is the text Hint returns, the graph's, or nil.
	hint *string
	// more is storage of the result's own for what few conversions
	// have, kept by a Result that is reused (see AppendConvert); nil
	// until a conversion needs it.
	more *resultMore
}

// resultMore is what a result has beyond its route in a few conversions.
type resultMore struct {
	parts []Part
	// preference points to pref when To was Auto, else is nil.
	preference *Preference
	pref       Preference
	mixed      *mixedUnit
	// route is the route of a mixed result, which names no target
	// expression and no properties or equations.
	route plan.Route
	// partsBuf is the parts' first storage: a mixed unit has few.
	partsBuf [3]Part
}

// FromExpression is the unit expression converted from, or nil for a
// catalog unit (From).
func (r *Result) FromExpression() *Expression {
	if r.route == nil {
		return nil
	}
	return r.route.FromExpr
}

// ToExpression is the unit expression converted to, or nil for a catalog
// unit (To).
func (r *Result) ToExpression() *Expression {
	if r.route == nil {
		return nil
	}
	return r.route.ToExpr
}

// Bridge is the catalog bridge the conversion went through, or nil.
func (r *Result) Bridge() *Bridge {
	if r.route == nil {
		return nil
	}
	return r.route.Bridge
}

// Used are the substance properties the conversion used, in order (the
// request's are Properties). An answer that used any is not exact.
func (r *Result) Used() []*Property {
	if r.route == nil {
		return nil
	}
	return r.route.Used
}

// Equations are the route of a measurand's published equations the
// conversion followed (HbA1c % → mmol/mol with the measurand named), or
// nil; an answer through an equation fitted to data is not exact.
func (r *Result) Equations() []EquationStep {
	if r.route == nil {
		return nil
	}
	return r.route.Equations
}

// Hint, on an answer that followed no equation, names a measurand whose
// equation relates the two units differently from the plain ratio
// answered (% → mmol/mol: HbA1c); "" for most answers.
func (r *Result) Hint() string {
	if r.hint == nil {
		return ""
	}
	return *r.hint
}

// Parts is the result in a mixed unit (Unit is then "ft+in" and Value
// empty): whole numbers of each part but the last, which carries the
// precision. To is then the last part. It is empty for any other result.
// It is storage of r's, which the next conversion into r overwrites.
func (r *Result) Parts() []Part {
	if r.more == nil {
		return nil
	}
	return r.more.parts
}

// Preference says how the unit was chosen when To was Auto, else nil. It
// is storage of r's, which the next conversion into r overwrites.
func (r *Result) Preference() *Preference {
	if r.more == nil {
		return nil
	}
	return r.more.preference
}

// mixedUnit is the mixed unit of a result in one, else nil.
func (r *Result) mixedUnit() *mixedUnit {
	if r.more == nil {
		return nil
	}
	return r.more.mixed
}

// setMixed records a result in the mixed unit m, split into parts,
// converted along pe: its route names the source expression and the
// bridge, no target expression.
func (r *Result) setMixed(m *mixedUnit, parts *mixed.Parts, pe *pairEntry) {
	x := r.extra()
	x.parts, x.mixed = m.partsOf(x.parts, parts), m
	x.route = plan.Route{FromExpr: pe.FromSide.Expr, Bridge: pe.Plan.Bridge}
	r.route = nil
	if x.route.FromExpr != nil || x.route.Bridge != nil {
		r.route = &x.route
	}
}

// setFrom makes s the side r was converted from.
func (r *Result) setFrom(s plan.Side) {
	r.From = s.Unit
	if r.FromExpression() == s.Expr {
		return
	}
	x := r.extra()
	if r.route == nil {
		x.route = plan.Route{}
	} else if r.route != &x.route {
		x.route = *r.route
	}
	x.route.FromExpr = s.Expr
	r.route = &x.route
}

// extra returns r's storage for what few conversions have, made on first
// use.
func (r *Result) extra() *resultMore {
	if r.more == nil {
		r.more = new(resultMore)
		r.more.parts = r.more.partsBuf[:0]
	}
	return r.more
}

// Convert converts req.Value from req.From to req.To. Errors are *Error
// with the API's codes, or ErrPrecision.
func (g *Graph) Convert(req Request) (res Result, err error) {
	var buf [64]byte
	text, err := g.appendConvert(buf[:0], &req, &res)
	if err != nil {
		return Result{}, g.withHint(err, &req)
	}
	g.successHint(&res)
	if len(res.Parts()) == 0 {
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
		return dst, g.withHint(err, req)
	}
	g.successHint(res)
	return out, nil
}

// appendConvert is AppendConvert filling in *res, which it leaves
// incomplete on error.
func (g *Graph) appendConvert(dst []byte, req *Request, res *Result) ([]byte, error) {
	p, err := startConvert(req, res)
	if err != nil {
		return dst, err
	}
	if req.To == Auto && g.ov != nil {
		// The unit preferences are the catalog's, shared: an account's
		// names never reach them (overlay.go).
		return g.appendAccountAuto(dst, req, res, p)
	}
	// appendInGraph written out: every conversion takes this step, and
	// the compiler inlines no function of a cycle of calls.
	if req.Exact != nil {
		return g.appendExact(dst, req, res, p)
	}
	// appendValue written out up to a pair the cache holds, the way most
	// conversions go: each call between parsing and the plan costs a
	// frame and its arguments.
	var v apd.Decimal
	if err := exact.ParseValue(&v, req.Value); err != nil {
		return g.appendUnparsed(dst, req, res, p, err)
	}
	if req.To != Auto && req.Properties == nil {
		if pe := g.cachedPair(req.From, req.To); pe != nil {
			return convertPair(pe, dst, &v, p, req.Budget, res)
		}
	}
	return g.appendParsed(dst, req, res, p, &v)
}

// appendCatalogConvert is appendConvert in the catalog's own graph (one
// without an overlay), for appendAccountAuto. It is apart from
// appendConvert, as appendValue is, so that no call leads back to its
// caller: such a cycle makes the compiler's escape analysis move every
// caller's dst to the heap (Convert's buffer among them: one allocation
// per conversion).
func (g *Graph) appendCatalogConvert(dst []byte, req *Request, res *Result) ([]byte, error) {
	p, err := startConvert(req, res)
	if err != nil {
		return dst, err
	}
	return g.appendInGraph(dst, req, res, p)
}

// startConvert clears what a reused res holds from an earlier conversion
// and returns the precision of req.
func startConvert(req *Request, res *Result) (int, error) {
	// A caller may reuse res: keep its storage, drop the rest.
	res.Properties, res.route, res.hint = nil, nil, nil
	if m := res.more; m != nil {
		m.parts, m.preference, m.mixed, m.route = m.parts[:0], nil, nil, plan.Route{}
	}
	p := req.Precision
	if p == 0 {
		p = DefaultPrecision
	}
	if p < 1 || p > MaxPrecision {
		return 0, ErrPrecision
	}
	return p, nil
}

// appendInGraph converts req in g, at precision p: its exact value, or
// the one written in Request.Value.
func (g *Graph) appendInGraph(dst []byte, req *Request, res *Result, p int) ([]byte, error) {
	if req.Exact != nil {
		return g.appendExact(dst, req, res, p)
	}
	return g.appendValue(dst, req, res, p)
}

// appendValue is appendConvert for a request whose value is written in
// Request.Value, at precision p. It is apart from appendConvert so that
// appendExact, which hands a terminating rational on as such a request,
// calls it and not appendConvert: a call back into its caller would make
// the two one recursive cycle, through which the compiler's escape
// analysis moves every caller's dst to the heap (Convert's buffer among
// them: one allocation per conversion).
func (g *Graph) appendValue(dst []byte, req *Request, res *Result, p int) ([]byte, error) {
	var v apd.Decimal
	if err := exact.ParseValue(&v, req.Value); err != nil {
		return g.appendUnparsed(dst, req, res, p, err)
	}
	return g.appendParsed(dst, req, res, p, &v)
}

// appendUnparsed is appendValue for a value that did not parse, with the
// error err: free text in a mixed unit ("5 ft 3 in") is read as such.
func (g *Graph) appendUnparsed(dst []byte, req *Request, res *Result, p int, err error) ([]byte, error) {
	if mixed.IsName(req.From) {
		return g.appendReadable(dst, req, res, p, nil)
	}
	return dst, err
}

// appendParsed is appendValue once the value has parsed as v.
func (g *Graph) appendParsed(dst []byte, req *Request, res *Result, p int, v *apd.Decimal) ([]byte, error) {
	if req.To == Auto {
		return g.appendReadable(dst, req, res, p, v)
	}
	props := req.Properties
	if props != nil {
		if pe := g.cachedAcross(req.From, req.To, props); pe != nil {
			res.Properties = props
			return convertPair(pe, dst, v, p, req.Budget, res)
		}
	}
	if pe := g.cachedPair(req.From, req.To); pe != nil {
		return convertPair(pe, dst, v, p, req.Budget, res)
	}
	if isReadable(req) {
		return g.appendReadable(dst, req, res, p, v)
	}
	var pe pairEntry
	across, err := g.resolveWith(&pe, req.From, req.To, props)
	if err != nil {
		return dst, err
	}
	if across {
		res.Properties = props
	}
	return convertPair(&pe, dst, v, p, req.Budget, res)
}

// cachedAcross returns the pair planned across kinds with props (nil for
// none), when a cache holds it: the pair cache for a catalog substance's
// own properties or a query's kept ones, the cross cache for others. With
// a measurand it returns a pair its equations relate, planned now when no
// cache holds it (measurandPair): such a pair must not convert as the
// plain one of the same names does.
func (g *Graph) cachedAcross(from, to string, props *Properties) *pairEntry {
	var pe *pairEntry
	switch {
	case props == nil:
		return nil
	case props.shared || props.interned:
		pe = g.cachedPairWith(from, to, props)
	default:
		pe = g.cross.get(newCrossKey(from, to, props))
	}
	if pe == nil && props.measurand != nil {
		pe = g.measurandPair(from, to, props)
	}
	return pe
}

// resolveWith resolves and plans a pair, across kinds through props when
// the two do not convert as they are (or with the error that says what
// such a conversion needs); across reports which.
func (g *Graph) resolveWith(pe *pairEntry, from, to string, props *Properties) (across bool, err error) {
	err = g.resolvePair(pe, from, to)
	if err == nil || !isIncompatible(err) {
		return false, err
	}
	if cerr := g.resolveCross(pe, from, to, props); cerr != nil {
		if cerr == plan.ErrNotAcrossKinds {
			return false, err
		}
		return false, cerr
	}
	return true, nil
}

// convertPair runs a resolved pair on x and appends the result.
func convertPair(pe *pairEntry, dst []byte, x *apd.Decimal, p int, budget *Budget, res *Result) ([]byte, error) {
	var out exact.Decimal
	inexact, err := pe.Plan.Run(&out, x, p, budget, accelerated())
	if err != nil {
		return dst, err
	}
	from, to, pl := &pe.FromSide, &pe.ToSide, &pe.Plan
	res.From, res.To, res.route = from.Unit, to.Unit, pe.Route
	res.Unit, res.Category, res.CategoryID = pl.Unit, pl.Category, pl.CategoryID
	res.Exact = !inexact && pl.Exact
	return out.Append(dst), nil
}

// exactCtx adds without rounding; it is shared and never modified.
var exactCtx = formula.ExactContext
