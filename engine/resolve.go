package engine

import (
	"strings"

	"github.com/unitd/unitd/engine/dimension"
	"github.com/unitd/unitd/engine/internal/cache"
	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/internal/graph"
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

// side is one resolved end of a conversion: a catalog unit or a unit
// expression.
type side struct {
	unit *Unit
	expr *Expression
}

func (s side) symbol() string {
	if s.unit != nil {
		return s.unit.Symbol
	}
	return s.expr.Symbol
}

func (s side) dim() dimension.Vector {
	if s.unit != nil {
		return s.unit.Category.Dim
	}
	return s.expr.Dim
}

// category is the side's catalog category, or nil.
func (s side) category() *Category {
	if s.unit != nil {
		return s.unit.Category
	}
	return s.expr.Category
}

// describe names the side and its kind for messages: "J (energy)".
func (s side) describe() string {
	if c := s.category(); c != nil {
		return s.symbol() + " (" + c.ID + ")"
	}
	return s.symbol() + " (dimension " + s.dim().String() + ")"
}

// Resolve finds what name stands for: a catalog unit (by symbol or alias,
// as Lookup), or else a unit expression. Exactly one of the two results
// is non-nil when the error is nil.
func (g *Graph) Resolve(name string) (*Unit, *Expression, error) {
	s, err := g.resolve(name)
	return s.unit, s.expr, err
}

func (g *Graph) resolve(name string) (side, error) {
	if g.ov != nil || hasAccountPrefix(name) { // an account's units first (overlay.go)
		if s, err, ok := g.resolveAccount(name); ok {
			return s, err
		}
	}
	if u, ok := g.bySymbol.Get(name); ok {
		return side{unit: u}, nil
	}
	u, err, found := g.lookupName(name)
	if found {
		return side{unit: u}, err
	}
	if s, err, ok := g.resolveCode(name); ok {
		return s, err
	}
	if !unitexpr.IsExpressionSyntax(name) {
		_, err := g.Lookup(name) // the error, with suggestions
		return side{}, err
	}
	if e, ok := g.exprs.get(name); ok {
		return side{expr: e}, nil
	}
	e, err := g.parseExpression(name)
	if err != nil {
		return side{}, err
	}
	g.exprs.put(name, e)
	return side{expr: e}, nil
}

// plan is a resolved conversion: both sides mapped onto one reference
// unit, what the result is called, and the pair's compiled maps.
type plan struct {
	from, to *graph.Conversion
	// fromUnit is the catalog unit converted from, for messages; nil for
	// an expression.
	fromUnit *Unit
	fromName string
	category *Category
	// categoryID is category's ID, or the dimension of an expression
	// that no category has.
	categoryID string
	unit       string // the target's canonical symbol
	bridge     *Bridge
	// used are the substance properties a conversion across kinds
	// divides by (crosskind.go).
	used []*Property
	// equations are the route of a measurand's equations the conversion
	// follows (measurand.go), or nil.
	equations []EquationStep
	// exact is false when a definition used is not exact.
	exact bool
	// reciprocal is the catalog unit whose pole makes the pair take only
	// positive values (compiled.positive), for messages; or nil.
	reciprocal *Unit
	*compiled  // shared by every plan of the pair: never written through
}

// plan maps both sides onto a common reference: the category base when
// both are catalog units of one category, else the coherent SI unit of
// their dimension (through a bridge or as an interval where the catalog
// says so). Sides that cannot meet are INCOMPATIBLE_UNITS.
func (g *Graph) plan(from, to side) (plan, error) {
	pl := plan{fromUnit: from.unit, fromName: from.symbol(), unit: to.symbol()}
	if e := checkArbitrary(from, to); e != nil {
		return pl, e
	}
	fu, tu := from.unit, to.unit
	if fu != nil && tu != nil && fu.Category == tu.Category {
		pl.from, pl.to, pl.category = &fu.Conv, &tu.Conv, tu.Category
		pl.categoryID = pl.category.ID
		g.finish(&pl, from, to)
		return pl, nil
	}
	if lc := logarithmicCategory(fu, tu); lc != nil {
		e := errorf(CodeIncompatibleUnits, "cannot convert %s to %s: %s is a level on a logarithmic scale and converts only to the other units of %s (%s)",
			from.describe(), to.describe(), levelSide(from, to).symbol(), lc.Name, unitSymbols(lc))
		e.Details = dimensionDetails(from.dim(), to.dim())
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
	fd, td := from.dim(), to.dim()
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
		pl.bridge = br
	case fd == td:
	case fd == td.Inverse() && (from.isReciprocal() || to.isReciprocal()):
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
		pl.bridge = br
	}
	if pl.bridge != nil {
		bc, ok := g.bridged[graph.UnitBridge{Unit: fu, Bridge: pl.bridge}]
		if !ok || fu == nil {
			bc, ok = bridged(fc, pl.bridge)
		}
		if !ok {
			return pl, incompatible(from, to, fd, td)
		}
		fc = bc
	}
	pl.from, pl.to = fc, tc
	// The category of the catalog unit, the target's first.
	switch {
	case tu != nil:
		pl.category = tcat
	case fu != nil && pl.bridge == nil:
		pl.category = fcat
	default:
		pl.category = tcat
	}
	if pl.category != nil {
		pl.categoryID = pl.category.ID
	} else {
		pl.categoryID = td.String()
	}
	g.finish(&pl, from, to)
	return pl, nil
}

// finish compiles the plan's pair of maps (once per pair of conversions,
// see compiledPair) and says whether its definitions are exact.
func (g *Graph) finish(pl *plan, from, to side) {
	pl.compiled = g.compiledPair(pl.from, pl.to)
	pl.exact = pl.from.Exact && pl.to.Exact
	if pl.positive != nil {
		for _, s := range [2]side{from, to} {
			if s.unit != nil && s.unit.Conv.Map != nil && s.unit.Conv.Map.HasPole() {
				pl.reciprocal = s.unit
				break
			}
		}
	}
}

// frameOf maps s onto the coherent SI unit of its dimension, given the
// other side; it returns the map and the category s then belongs to. A
// scale unit (degC, K) meets an expression or an interval unit only as an
// interval: K and degR, which have no offset, can; degC cannot.
func frameOf(s, other side) (*graph.Conversion, *Category, error) {
	if s.unit == nil {
		return &s.expr.Conv, s.expr.Category, nil
	}
	u := s.unit
	c := u.Category
	// An expression is an interval, unless it is a lone unit in
	// parentheses, which keeps its own map ((degC) is a point).
	otherInterval := other.unit == nil && !other.expr.Point || other.unit != nil && other.unit.Category == c.Interval
	asInterval := c.Interval != nil && otherInterval
	if !asInterval {
		return u.SI, c, nil
	}
	if u.AsInterval == nil {
		return nil, nil, incompatibleScale(s, other)
	}
	return u.AsInterval, c.Interval, nil
}

// isReciprocal reports whether the side is a code defined as an inverse.
func (s side) isReciprocal() bool { return s.expr != nil && s.expr.Reciprocal }

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
func incompatible(from, to side, fd, td dimension.Vector) *Error {
	var e *Error
	if fd == td {
		e = errorf(CodeIncompatibleUnits, "cannot convert %s to %s: both have dimension %s, but %s and %s are different kinds of quantity",
			from.describe(), to.describe(), fd, kindOf(from), kindOf(to))
	} else {
		e = errorf(CodeIncompatibleUnits, "cannot convert %s to %s: dimension %s is not %s", from.describe(), to.describe(), fd, td)
		if m := dimension.Missing(fd, td); m != "" {
			e.Message += "; " + m
		}
	}
	e.Details = dimensionDetails(fd, td)
	return e
}

func kindOf(s side) string {
	if c := s.category(); c != nil {
		return strings.ToLower(c.Name)
	}
	return "a unit expression"
}

// incompatibleScale refuses a point on a scale with an offset (degC) where
// an interval is meant.
func incompatibleScale(s, other side) *Error {
	e := errorf(CodeIncompatibleUnits, "cannot convert between %s and %s: %s is a point on a scale with an offset, which never converts to a %s",
		s.describe(), other.describe(), s.symbol(), strings.ToLower(s.unit.Category.Interval.Name))
	e.Details = dimensionDetails(s.dim(), other.dim())
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
func levelSide(from, to side) side {
	if from.unit != nil && from.unit.Category.Logarithmic {
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
