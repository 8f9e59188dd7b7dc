package engine

import (
	"github.com/unitd/unitd/engine/dimension"
	"github.com/unitd/unitd/engine/internal/fold"
	"github.com/unitd/unitd/engine/internal/graph"
	"github.com/unitd/unitd/engine/unitexpr"
)

// A unit expression and its operands (package unitexpr).
type (
	Expression = unitexpr.Expression
	Term       = unitexpr.Term
)

// parseExpression parses s into an Expression against the graph's units
// (unitexpr.Parse). Errors are *Error: INVALID_UNIT_EXPRESSION naming the
// position, or the UNKNOWN_UNIT or AMBIGUOUS_UNIT of one operand.
func (g *Graph) parseExpression(s string) (*Expression, error) {
	return unitexpr.Parse(exprCatalog{g}, s, nil)
}

// parseExpressionExcluding parses s without taking the unit exclude as an
// operand, to read a base unit's symbol as an expression of others.
func (g *Graph) parseExpressionExcluding(s string, exclude *Unit) (*Expression, error) {
	return unitexpr.Parse(exprCatalog{g}, s, exclude)
}

// exprCatalog is a graph as the catalog of an expression's operands.
type exprCatalog struct{ g *Graph }

func (c exprCatalog) LookupName(name string) (*Unit, error, bool) { return c.g.lookupName(name) }
func (c exprCatalog) Lookup(name string) (*Unit, error)           { return c.g.Lookup(name) }
func (c exprCatalog) Symbol(s string) (*Unit, bool)               { return c.g.t.BySymbol.Get(s) }
func (c exprCatalog) MaxName() int                                { return c.g.t.MaxName }
func (c exprCatalog) CategoryOf(d dimension.Vector) *Category     { return c.g.t.ByDimension[d] }

// lookupName is Lookup that also says whether name is in the catalog at
// all (a unit, or a declared ambiguous name), without building suggestions
// when it is not.
func (g *Graph) lookupName(name string) (*Unit, error, bool) {
	if g.ov != nil || graph.HasAccountPrefix(name) { // an account's units first (overlay.go)
		if u, err, ok := g.lookupAccount(name); ok && (err == nil || !graph.HasAccountPrefix(name)) {
			return u, err, true
		} else if ok {
			return nil, nil, false // a shorter operand may be one
		}
	}
	if u, ok := g.t.BySymbol.Get(name); ok {
		return u, nil, true
	}
	if len(name) <= 64 && isASCIIWord(name) {
		// Lower-case on the stack: the map lookup does not keep the key.
		var buf [64]byte
		for i := 0; i < len(name); i++ {
			c := name[i]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			buf[i] = c
		}
		if u, ok := g.t.ByWord.GetBytes(buf[:len(name)]); ok {
			return u, nil, true
		}
		if _, ok := g.t.Ambiguous[string(buf[:len(name)])]; !ok {
			return nil, nil, false
		}
	}
	key := fold.Key(name)
	if u, ok := g.t.ByWord.Get(key); ok {
		return u, nil, true
	}
	if _, ok := g.t.Ambiguous[key]; ok {
		_, err := g.Lookup(name)
		return nil, err, true
	}
	return nil, nil, false
}

// isASCIIWord reports whether s is ASCII without white space, so that its
// word key is just its lower case.
func isASCIIWord(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x80 || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' {
			return false
		}
	}
	return true
}
