package engine

import (
	"strings"

	"github.com/unitd/unitd/engine/dimension"
	"github.com/unitd/unitd/engine/internal/cache"
	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/internal/graph"
	"github.com/unitd/unitd/engine/internal/plan"
	"github.com/unitd/unitd/engine/unitexpr"
)

// exprCache holds parsed expressions by their text, white space folded.
// Parsing is a pure function of the text and the graph, so entries never
// go stale; a graph built from another catalog version has its own cache.
// Its entries count against the process's cache budget.
type exprCache struct {
	m *cache.Map[string, *Expression]
}

func newExprCache() *exprCache { return &exprCache{m: cache.New[string, *Expression](nil)} }

func (c *exprCache) get(s string) (*Expression, bool) { return c.m.Get(foldSpaces(s)) }

func (c *exprCache) put(s string, e *Expression) {
	// The name may be a view of a request's pooled buffer (the server's
	// strict JSON scanner hands out such strings): the cache outlives the
	// request, so it keeps a copy of its own.
	k := strings.Clone(foldSpaces(s))
	c.m.Put(k, e, int64(len(k))+256+64*int64(len(e.Terms)))
}

// size counts the cached expressions.
func (c *exprCache) size() int { return c.m.Len() }

// foldSpaces folds runs of spaces into one: the grammars of expressions
// and codes skip spaces, so names that differ only there mean the same
// and are kept once.
func foldSpaces(s string) string {
	if !strings.Contains(s, "  ") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' {
			if space {
				continue
			}
			space = true
		} else {
			space = false
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// Resolve finds what name stands for: a catalog unit (by symbol or alias,
// as Lookup), or else a unit expression. Exactly one of the two results
// is non-nil when the error is nil.
func (g *Graph) Resolve(name string) (*Unit, *Expression, error) {
	s, err := g.resolve(name)
	return s.Unit, s.Expr, err
}

func (g *Graph) resolve(name string) (plan.Side, error) {
	if g.ov != nil || hasAccountPrefix(name) { // an account's units first (overlay.go)
		if s, err, ok := g.resolveAccount(name); ok {
			return s, err
		}
	}
	if u, ok := g.bySymbol.Get(name); ok {
		return plan.Side{Unit: u}, nil
	}
	u, err, found := g.lookupName(name)
	if found {
		return plan.Side{Unit: u}, err
	}
	if s, err, ok := g.resolveCode(name); ok {
		return s, err
	}
	if !unitexpr.IsExpressionSyntax(name) {
		_, err := g.Lookup(name) // the error, with suggestions
		return plan.Side{}, err
	}
	if e, ok := g.exprs.get(name); ok {
		return plan.Side{Expr: e}, nil
	}
	e, err := g.parseExpression(name)
	if err != nil {
		return plan.Side{}, err
	}
	g.exprs.put(name, e)
	return plan.Side{Expr: e}, nil
}

// plan maps both sides onto a common reference: the category base when
// both are catalog units of one category, else the coherent SI unit of
// their dimension (through a bridge or as an interval where the catalog
// says so). Sides that cannot meet are INCOMPATIBLE_UNITS.
func (g *Graph) plan(from, to plan.Side) (plan.Plan, error) {
	pl := plan.Plan{FromUnit: from.Unit, FromName: from.Symbol(), Unit: to.Symbol()}
	if e := checkArbitrary(from, to); e != nil {
		return pl, e
	}
	fu, tu := from.Unit, to.Unit
	if fu != nil && tu != nil && fu.Category == tu.Category {
		pl.From, pl.To, pl.Category = &fu.Conv, &tu.Conv, tu.Category
		pl.CategoryID = pl.Category.ID
		g.finish(&pl, from, to)
		return pl, nil
	}
	if lc := logarithmicCategory(fu, tu); lc != nil {
		e := errorf(CodeIncompatibleUnits, "cannot convert %s to %s: %s is a level on a logarithmic scale and converts only to the other units of %s (%s)",
			from.Describe(), to.Describe(), levelSide(from, to).Symbol(), lc.Name, unitSymbols(lc))
		e.Details = dimensionDetails(from.Dim(), to.Dim())
		return pl, e
	}
	// Across categories or with an expression: onto coherent SI units.
	fc, fcat, ferr := frameOf(from, to)
	tc, tcat, terr := frameOf(to, from)
	if ferr != nil {
		return pl, ferr
	}
	if terr != nil {
		return pl, terr
	}
	fd, td := from.Dim(), to.Dim()
	if fcat != nil {
		fd = fcat.Dim
	}
	if tcat != nil {
		td = tcat.Dim
	}
	switch {
	case fu != nil && tu != nil && fcat == tcat:
		// Two catalog units, one read as an interval of the other's kind.
	case fu != nil && tu != nil && !fcat.Account() && !tcat.Account():
		// Two kinds of the catalog (an account's own kinds convert by
		// dimension, as expressions do: overlay.go).
		br := g.bridges[graph.CategoryPair{From: fcat, To: tcat}]
		if br == nil {
			return pl, incompatible(from, to, fd, td)
		}
		pl.Bridge = br
	case fd == td:
	case fd == td.Inverse() && (from.IsReciprocal() || to.IsReciprocal()):
		// A unit defined as an inverse ([diop] = 1/m) meets the reciprocal
		// of its dimension by inversion: 37.5 [diop] is 1/37.5 m.
		inv, ok := inverted(fc)
		if !ok {
			return pl, incompatible(from, to, fd, td)
		}
		fc = inv
	default:
		var br *Bridge
		if fcat != nil && tcat != nil {
			br = g.bridges[graph.CategoryPair{From: fcat, To: tcat}]
		}
		if br == nil {
			return pl, incompatible(from, to, fd, td)
		}
		pl.Bridge = br
	}
	if pl.Bridge != nil {
		bc, ok := g.bridged[graph.UnitBridge{Unit: fu, Bridge: pl.Bridge}]
		if !ok || fu == nil {
			bc, ok = bridged(fc, pl.Bridge)
		}
		if !ok {
			return pl, incompatible(from, to, fd, td)
		}
		fc = bc
	}
	pl.From, pl.To = fc, tc
	// The category of the catalog unit, the target's first.
	switch {
	case tu != nil:
		pl.Category = tcat
	case fu != nil && pl.Bridge == nil:
		pl.Category = fcat
	default:
		pl.Category = tcat
	}
	if pl.Category != nil {
		pl.CategoryID = pl.Category.ID
	} else {
		pl.CategoryID = td.String()
	}
	g.finish(&pl, from, to)
	return pl, nil
}

// finish compiles the plan's pair of maps (once per pair of conversions,
// see compiledPair) and says whether its definitions are exact.
func (g *Graph) finish(pl *plan.Plan, from, to plan.Side) {
	pl.Compiled = g.compiledPair(pl.From, pl.To)
	pl.Exact = pl.From.Exact && pl.To.Exact
	if pl.Positive != nil {
		for _, s := range [2]plan.Side{from, to} {
			if s.Unit != nil && s.Unit.Conv.Map != nil && s.Unit.Conv.Map.HasPole() {
				pl.Reciprocal = s.Unit
				break
			}
		}
	}
}

// frameOf maps s onto the coherent SI unit of its dimension, given the
// other side; it returns the map and the category s then belongs to. A
// scale unit (degC, K) meets an expression or an interval unit only as an
// interval: K and degR, which have no offset, can; degC cannot.
func frameOf(s, other plan.Side) (*graph.Conversion, *Category, error) {
	if s.Unit == nil {
		return &s.Expr.Conv, s.Expr.Category, nil
	}
	u := s.Unit
	c := u.Category
	// An expression is an interval, unless it is a lone unit in
	// parentheses, which keeps its own map ((degC) is a point).
	otherInterval := other.Unit == nil && !other.Expr.Point || other.Unit != nil && other.Unit.Category == c.Interval
	asInterval := c.Interval != nil && otherInterval
	if !asInterval {
		return u.SI, c, nil
	}
	if u.AsInterval == nil {
		return nil, nil, incompatibleScale(s, other)
	}
	return u.AsInterval, c.Interval, nil
}

// inverted returns c followed by x ↦ 1/x: a value of the reciprocal
// dimension. It takes either sign (a diverging lens has a negative
// power and a negative focal length); only zero, its pole, is refused.
func inverted(c *graph.Conversion) (*graph.Conversion, bool) {
	if c.Map == nil {
		return nil, false
	}
	m, err := c.Map.Then(exact.Reciprocal())
	if err != nil {
		return nil, false
	}
	out := *c
	out.Map, out.Bound, out.AnySign = m, nil, true
	return &out, true
}

// bridged returns c followed by the bridge's factor.
func bridged(c *graph.Conversion, br *Bridge) (*graph.Conversion, bool) {
	if c.Map == nil {
		return nil, false
	}
	m, err := c.Map.Scale(br.SI.R, br.SI.K)
	if err != nil {
		return nil, false
	}
	out := *c
	out.Map, out.Bound, out.Exact = m, nil, c.Exact && br.Exact
	return &out, true
}

func dimensionDetails(from, to dimension.Vector) map[string]string {
	return map[string]string{"from_dimension": from.String(), "to_dimension": to.String()}
}

// incompatible explains why two sides do not convert.
func incompatible(from, to plan.Side, fd, td dimension.Vector) *Error {
	var e *Error
	if fd == td {
		e = errorf(CodeIncompatibleUnits, "cannot convert %s to %s: both have dimension %s, but %s and %s are different kinds of quantity",
			from.Describe(), to.Describe(), fd, kindOf(from), kindOf(to))
	} else {
		e = errorf(CodeIncompatibleUnits, "cannot convert %s to %s: dimension %s is not %s", from.Describe(), to.Describe(), fd, td)
		if m := dimension.Missing(fd, td); m != "" {
			e.Message += "; " + m
		}
	}
	e.Details = dimensionDetails(fd, td)
	return e
}

func kindOf(s plan.Side) string {
	if c := s.Category(); c != nil {
		return strings.ToLower(c.Name)
	}
	return "a unit expression"
}

// incompatibleScale refuses a point on a scale with an offset (degC) where
// an interval is meant.
func incompatibleScale(s, other plan.Side) *Error {
	e := errorf(CodeIncompatibleUnits, "cannot convert between %s and %s: %s is a point on a scale with an offset, which never converts to a %s",
		s.Describe(), other.Describe(), s.Symbol(), strings.ToLower(s.Unit.Category.Interval.Name))
	e.Details = dimensionDetails(s.Dim(), other.Dim())
	return e
}

// logarithmicCategory returns the category of levels one of two units of
// different categories belongs to, or nil.
func logarithmicCategory(fu, tu *Unit) *Category {
	for _, u := range [2]*Unit{fu, tu} {
		if u != nil && u.Category.Logarithmic {
			return u.Category
		}
	}
	return nil
}

// levelSide returns the side whose unit is a level.
func levelSide(from, to plan.Side) plan.Side {
	if from.Unit != nil && from.Unit.Category.Logarithmic {
		return from
	}
	return to
}

// unitSymbols lists a category's unit symbols, comma-separated.
func unitSymbols(c *Category) string {
	var b strings.Builder
	for i, u := range c.Units {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(u.Symbol)
	}
	return b.String()
}
