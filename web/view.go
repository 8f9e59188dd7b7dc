package web

import (
	"slices"
	"sync"
	"sync/atomic"

	"github.com/unitd/unitd/engine"
)

// view is what the pages need of one catalog, computed once when the
// catalog is first served rather than at every request: the category rows,
// the systems, each unit's row, and the substances' alike.
// A new graph (a reload) gets a new view, and with it an empty page cache.
type view struct {
	g          *engine.Graph
	categories []categoryRow
	systems    []string
	units      []viewUnit           // catalog order
	unitAt     map[*engine.Unit]int // index into units
	// substances are in the graph's order (by ID), which the index
	// keeps for ties; byKind lists them by kind, then ID.
	substances  []viewSubstance
	substanceOf map[*engine.Substance]*viewSubstance
	byKind      []*viewSubstance
	kinds       map[string]int // substances of each kind
	cache       *pageCache
}

// viewUnit is a unit with its row of the tables, ready.
type viewUnit struct {
	u   *engine.Unit
	row unitRow
}

func newView(g *engine.Graph) *view {
	v := &view{g: g, cache: newPageCache(pageCacheBytes, pageCacheEntries), unitAt: map[*engine.Unit]int{}}
	for _, c := range g.Categories() {
		v.categories = append(v.categories, newCategoryRow(c))
	}
	seen := map[string]bool{}
	for _, u := range g.Units() {
		if u.System != "" && !seen[u.System] {
			seen[u.System] = true
			v.systems = append(v.systems, u.System)
		}
		v.unitAt[u] = len(v.units)
		v.units = append(v.units, viewUnit{u: u, row: newUnitRow(u)})
	}
	slices.Sort(v.systems)
	subs := g.Substances()
	v.substances = make([]viewSubstance, len(subs))
	v.substanceOf = map[*engine.Substance]*viewSubstance{}
	v.kinds = map[string]int{}
	for i, s := range subs {
		vs := &v.substances[i]
		*vs = viewSubstance{s: s, kind: kindOf(s)}
		v.substanceOf[s] = vs
		v.byKind = append(v.byKind, vs)
		v.kinds[vs.kind]++
	}
	slices.SortStableFunc(v.byKind, func(a, b *viewSubstance) int { return kindRank(a.kind) - kindRank(b.kind) })
	return v
}

// views keeps the view of the graph being served.
type views struct {
	mu  sync.Mutex // serialises building
	cur atomic.Pointer[view]
}

// of returns the view of g, building it if g is new.
func (vs *views) of(g *engine.Graph) *view {
	if g == nil { // no catalog yet: nothing to search, nothing kept
		return &view{cache: newPageCache(0, 0)}
	}
	if v := vs.cur.Load(); v != nil && v.g == g {
		return v
	}
	vs.mu.Lock()
	defer vs.mu.Unlock()
	if v := vs.cur.Load(); v != nil && v.g == g {
		return v
	}
	v := newView(g)
	vs.cur.Store(v)
	return v
}
