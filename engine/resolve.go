package engine

import (
	"strings"

	"github.com/unitd/unitd/engine/internal/cache"
	"github.com/unitd/unitd/engine/internal/graph"
	"github.com/unitd/unitd/engine/internal/plan"
	"github.com/unitd/unitd/engine/substance"
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
	if g.ov != nil || graph.HasAccountPrefix(name) { // an account's units first (overlay.go)
		if s, err, ok := g.resolveAccount(name); ok {
			return s, err
		}
	}
	if u, ok := g.t.BySymbol.Get(name); ok {
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

// planner plans conversions in the graph's catalog (package plan).
func (g *Graph) planner() plan.Planner {
	return plan.Planner{Bridges: g.t.Bridges, Bridged: g.t.Bridged, Compiler: g.compiledPairs}
}

// crossPlan plans from → to across kinds through the values of p
// (plan.Planner.Across).
func (g *Graph) crossPlan(from, to plan.Side, p *Properties) (plan.Plan, error) {
	var values substance.Values
	if p != nil {
		values = p.Values
	}
	return g.planner().Across(from, to, values, accelerated())
}
