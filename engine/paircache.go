package engine

import "github.com/unitd/unitd/engine/internal/paircache"

// The pair cache of a graph (package paircache), of pairs planned with a
// catalog substance's properties or none.
type (
	pairCache = paircache.Cache[Properties]
	pairEntry = paircache.Entry[Properties]
)

// resolvePair resolves both names and plans the conversion into e, and
// remembers the result in the pair cache.
func (g *Graph) resolvePair(e *pairEntry, fromName, toName string) error {
	from, err := g.resolve(fromName)
	if err != nil {
		return err
	}
	to, err := g.resolve(toName)
	if err != nil {
		return err
	}
	pl, err := g.planner().Plan(from, to, accelerated())
	if err != nil {
		return err
	}
	e.FromSide, e.ToSide, e.Plan = from, to, pl
	e.SetRoute()
	if g.pairs != nil {
		g.pairs.Put(fromName, toName, from, to, &pl, nil, 0)
	}
	return nil
}
