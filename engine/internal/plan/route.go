package plan

import (
	"github.com/unitd/unitd/engine/internal/graph"
	"github.com/unitd/unitd/engine/substance"
	"github.com/unitd/unitd/engine/unitexpr"
)

// Route is what a conversion went along beyond its two catalog units.
type Route struct {
	FromExpr, ToExpr *unitexpr.Expression
	Bridge           *graph.Bridge
	Used             []*substance.Property
	Equations        []substance.Step
}

// NewRoute returns the route of a conversion between the sides from and
// to along pl, or nil when it has nothing to say.
func NewRoute(from, to Side, pl *Plan) *Route {
	if from.Expr == nil && to.Expr == nil && pl.Bridge == nil && pl.Used == nil && pl.Equations == nil {
		return nil
	}
	return &Route{FromExpr: from.Expr, ToExpr: to.Expr, Bridge: pl.Bridge, Used: pl.Used, Equations: pl.Equations}
}
