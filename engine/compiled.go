package engine

import (
	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/internal/graph"
	"github.com/unitd/unitd/engine/internal/plan"
)

// compiledPair returns the pair's compiled maps (plan.Compiler.Compile),
// which the cache of pairs of names (engine/internal/paircache) and that
// of expressions share.
func (g *Graph) compiledPair(from, to *graph.Conversion) *plan.Compiled {
	return g.compiledPairs.Compile(from, to, accelerated())
}

// roundValue is the one rounding of the engine: v half-even to p
// significant digits, and whether that changed it. Print the result with
// exact.Decimal.Append, as conversions do.
func roundValue(v *exact.Value, p int) (exact.Decimal, bool) {
	return exact.RoundWith(v, p, accelerated())
}
