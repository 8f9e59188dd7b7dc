package engine

import (
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/unitd/unitd/engine/hint"
	"github.com/unitd/unitd/engine/internal/build"
	"github.com/unitd/unitd/engine/internal/cache"
	"github.com/unitd/unitd/engine/internal/fold"
	"github.com/unitd/unitd/engine/internal/graph"
	"github.com/unitd/unitd/engine/internal/paircache"
	"github.com/unitd/unitd/engine/internal/plan"
	"github.com/unitd/unitd/engine/internal/suggest"
	"github.com/unitd/unitd/engine/prefs"
	"github.com/unitd/unitd/engine/substance"
	"github.com/unitd/unitd/engine/unitsearch"
)

// Graph is a compiled catalog: categories, units and the exact map of every
// unit onto its category's base unit. What it says is fixed at Build; it
// has caches that remember work done since (parsed expressions, resolved
// pairs of names, compiled pairs of maps), each bounded, and it is safe
// for concurrent use.
type Graph struct {
	// t is the compiled core: categories, units, names, bridges, claims.
	t build.Core
	// A restored graph decodes its spellings (t.Spellings) on first
	// use, with decodeSpellings (spellingList).
	spellingsOnce   sync.Once
	decodeSpellings func() []graph.Spelling
	// suggester indexes the spellings for suggestions, built on the
	// first unknown name (suggestIndex).
	suggester     *suggest.Index
	suggesterOnce sync.Once
	// unitIndex holds the units' spellings for SearchUnits, built on
	// the first search.
	unitIndex     *unitsearch.Index
	unitIndexOnce sync.Once

	// exprs caches parsed unit expressions.
	exprs *exprCache
	// pairs caches resolved and planned pairs of names (paircache.go).
	pairs *pairCache
	// compiledPairs caches the compiled maps of pairs of conversions
	// (plan.Compiler).
	compiledPairs *plan.Compiler
	// mixed caches resolved mixed units, mixedPairs conversions to them
	// (mixed.go).
	mixed      mixedCache
	mixedPairs *mixedPairs
	// codeSides caches resolutions of namespaced names, against the
	// process's cache budget.
	codeSides *cache.Map[string, plan.Side]

	// The index of substances for searches, and the conversions across
	// kinds planned with their properties (crosskind.go).
	subIndex     *substance.Index
	subIndexOnce sync.Once
	cross        *crossCache
	resolved     *propertiesCache

	// x holds what the catalog adds to its units: hints, preferences,
	// substances and measurands (extras). Build compiles it with the
	// units; a restored graph on first use (Restore).
	x        atomic.Pointer[extras]
	xMu      sync.Mutex
	xCompile func() (*extras, []error)

	// ov holds an account's own units when the graph is an overlay of a
	// catalog's (overlay.go), and is nil for the catalog's own graph;
	// root is then the catalog's graph.
	ov   *build.Overlay
	root *Graph

	// deferredErrs are the errors of parts a restored graph compiled on
	// first use (Restore, Warm).
	deferredErrs atomic.Pointer[[]error]
}

// newCaches gives a new graph, built or restored, its empty caches.
func (g *Graph) newCaches() {
	g.pairs = paircache.New[Properties]()
	g.mixed = newMixedCache()
	g.mixedPairs = newMixedPairs()
	g.compiledPairs = plan.NewCompiler()
	g.exprs = newExprCache()
	g.cross = newCrossCache()
	g.resolved = newPropertiesCache()
	g.codeSides = cache.New[string, plan.Side](nil)
}

// extras are the parts of a catalog beyond its units and categories.
type extras struct {
	// hints is the catalog's table of hints for failed conversions (hint.go).
	hints hint.Table
	// prefs are the unit preferences (package prefs), or nil.
	prefs *prefs.Data
	// The substance catalog (package substance) and each substance's own
	// properties.
	sub *substance.Catalog
	own map[*Substance]*Properties
	// measurandHints are the hints of conversions between two units that
	// a measurand relates by an equation (measurand.go).
	measurandHints []measurandHint
}

// extras returns the graph's extras, compiling them first in a restored
// graph. The compilation reads only the graph's units: nothing it calls
// asks for the extras.
func (g *Graph) extras() *extras {
	if x := g.x.Load(); x != nil {
		return x
	}
	g.xMu.Lock()
	defer g.xMu.Unlock()
	if x := g.x.Load(); x != nil {
		return x
	}
	x := new(extras)
	if g.xCompile != nil {
		var errs []error
		if x, errs = g.xCompile(); len(errs) > 0 {
			g.addDeferredErrs(errs)
		}
	}
	g.x.Store(x)
	return x
}

// addDeferredErrs records errors of a part compiled on first use.
func (g *Graph) addDeferredErrs(errs []error) {
	for {
		old := g.deferredErrs.Load()
		var all []error
		if old != nil {
			all = append(all, *old...)
		}
		all = append(all, errs...)
		if g.deferredErrs.CompareAndSwap(old, &all) {
			return
		}
	}
}

// suggestIndex returns the index of spellings for suggestions, building
// it on first use: most graphs serve long before a name is unknown, and
// Build need not pay for it.
func (g *Graph) suggestIndex() *suggest.Index {
	g.suggesterOnce.Do(func() {
		x := &suggest.Index{}
		for _, s := range g.spellingList() {
			x.Add(s.Text, s.Unit.Symbol)
		}
		g.suggester = x
	})
	return g.suggester
}

// spellingList returns every spelling of the graph's units, decoding
// them first in a restored graph.
func (g *Graph) spellingList() []graph.Spelling {
	if g.decodeSpellings != nil {
		g.spellingsOnce.Do(func() { g.t.Spellings = g.decodeSpellings() })
	}
	return g.t.Spellings
}

// Version identifies the sources the graph was built from.
func (g *Graph) Version() string { return g.t.Version }

// Categories lists the categories sorted by ID, in a new slice.
func (g *Graph) Categories() []*Category { return slices.Clone(g.t.Categories) }

// Category finds a category by ID.
func (g *Graph) Category(id string) (*Category, bool) {
	c, ok := g.t.ByID[id]
	return c, ok
}

// Units lists every unit, by category and then in catalog order, in a new
// slice.
func (g *Graph) Units() []*Unit { return slices.Clone(g.t.Units) }

// Ambiguities lists the declared ambiguous names, sorted.
func (g *Graph) Ambiguities() []*Ambiguity {
	out := make([]*Ambiguity, 0, len(g.t.Ambiguous))
	for _, a := range g.t.Ambiguous {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup resolves a unit by symbol (case-sensitive), by another spelling
// such as °C, or by a word alias, name or plural (case-insensitive). An
// unknown name is an UNKNOWN_UNIT error with up to five suggestions; a
// declared ambiguous name is AMBIGUOUS_UNIT with its candidates.
func (g *Graph) Lookup(name string) (*Unit, error) {
	if g.ov != nil || graph.HasAccountPrefix(name) { // an account's units first (overlay.go)
		if u, err, ok := g.lookupAccount(name); ok {
			return u, err
		}
	}
	if u, ok := g.t.BySymbol.Get(name); ok {
		return u, nil
	}
	key := fold.Key(name)
	if a, ok := g.t.Ambiguous[key]; ok {
		e := errorf(CodeAmbiguousUnit, "%q is ambiguous: it could mean %s; name one by its symbol", name, a.CandidateList())
		for _, c := range a.Candidates {
			e.Candidates = append(e.Candidates, c.Symbol)
		}
		if a.Note != "" {
			e.Message += ". " + strings.TrimSuffix(a.Note, ".")
		}
		return nil, e
	}
	if u, ok := g.t.ByWord.Get(key); ok {
		return u, nil
	}
	shown := name
	if len(shown) > 64 {
		shown = shown[:64] + "…"
	}
	e := errorf(CodeUnknownUnit, "unknown unit %q", shown)
	e.Suggestions = g.suggestions(name)
	if len(e.Suggestions) > 0 {
		e.Message += "; did you mean " + strings.Join(e.Suggestions, ", ") + "?"
	}
	return nil, e
}

// Find is Lookup without the error: the unit a catalog name stands for,
// or the declared ambiguity it is, or neither. It computes no
// suggestions, so it costs a map look-up or two, for callers that try
// many readings of a text (package quantity).
func (g *Graph) Find(name string) (*Unit, *Ambiguity) {
	if g.ov != nil || graph.HasAccountPrefix(name) { // an account's units first (overlay.go)
		if u, a, ok := g.findAccount(name); ok {
			return u, a
		}
	}
	if u, ok := g.t.BySymbol.Get(name); ok {
		return u, nil
	}
	key := fold.Key(name)
	if a, ok := g.t.Ambiguous[key]; ok {
		return nil, a
	}
	u, _ := g.t.ByWord.Get(key)
	return u, nil
}
