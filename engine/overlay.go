package engine

import (
	"context"
	"errors"
	"math/big"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/internal/build"
	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/internal/fold"
	"github.com/unitd/unitd/engine/internal/graph"
	"github.com/unitd/unitd/engine/internal/paircache"
	"github.com/unitd/unitd/engine/internal/plan"
	"github.com/unitd/unitd/engine/internal/suggest"
	"github.com/unitd/unitd/engine/mixed"
	"github.com/unitd/unitd/engine/spec"
	"github.com/unitd/unitd/engine/substance"
	"github.com/unitd/unitd/engine/unitexpr"
)

// Units of an account
//
// An account (an API consumer) defines units of its own, and categories
// where it needs them, in the catalog's schema: a Spec of categories and
// units, checked by the rules Build applies to a catalog (every example
// converts as it says, no cycle, a source for every definition) and a
// few more that keep one account's units from changing what another's
// requests mean. Overlay compiles only those units, against the graph of
// a catalog (their definitions may refer to catalog units), into a graph
// that shares everything of the catalog's and adds them:
//
//   - an account unit is always "my:<symbol>" (AccountPrefix), and that is
//     its symbol in answers; its plain symbol and names work too where
//     the catalog has no such name;
//   - a definition that would shadow a catalog name is refused. When a
//     later catalog release adds the name, the overlay is compiled again
//     with Lenient set, and the plain name becomes AMBIGUOUS_UNIT with
//     both candidates: a name never changes meaning silently;
//   - a unit added to a catalog category converts through that
//     category's base like the category's own units; a unit of one of the
//     account's own categories converts to any unit of its dimension, as
//     a unit expression does (a category of an account is no kind of
//     quantity of the catalog's);
//   - an account's formulas are limited to what compiles into one exact
//     map (+ - * / on x and numbers): logarithms and exponentials, the
//     costly kind, stay the catalog's.
//
// Lookups of an overlay's graph ask the account's units first (the hooks
// at the top of Lookup, Find, resolve and lookupName, each one nil check
// of Graph.ov on a catalog's graph), then the catalog's. The graph shares
// the catalog's maps, tables and code index, and has caches of its own
// (pairs, expressions, mixed units, properties): what one account's names
// resolve to is never remembered where another's requests look. The unit
// preferences of to=auto are the catalog's and remember choices by name,
// so an overlay's graph chooses through the catalog's graph with the
// value in a catalog unit (appendAccountAuto).
//
// An overlay of an overlay (the units one request defines, over its
// account's) looks up its own units, then its parent's, then the
// catalog's.
//
// Package build compiles an overlay (build.Overlay); this file makes its
// graph and looks names up in it.

// OverlayLimits bound what one account may define; zero fields take the
// defaults.
type OverlayLimits struct {
	Units      int // spec.DefaultMaxAccountUnits
	Categories int // spec.DefaultMaxAccountCategories
}

// OverlayOptions say how Overlay compiles.
type OverlayOptions struct {
	// Lenient serves what compiles: a unit that fails (a catalog release
	// removed the unit it refers to, say) is left out with its problems
	// (Graph.AccountProblems), and so is every unit that depends on it,
	// instead of failing the whole overlay; a name the catalog has too
	// is ambiguous instead of refused. Definitions being written are
	// compiled strictly; those stored are served leniently.
	Lenient bool
	Limits  OverlayLimits
	// Version identifies the definitions (Graph.AccountVersion).
	Version string
	// NoCache leaves the graph without a pair cache, for a graph that
	// serves one request only.
	NoCache bool
	// Previous, when set, is the account's graph compiled before, on the
	// same graph: the units whose definitions did not change, nor those
	// of the units they depend on (by definition or example), are taken
	// from it as they are, so that a change to one unit of many compiles
	// that unit. A Previous of another graph, or with problems, is not
	// used.
	Previous *Graph
	// Context, when set, stops compiling when done.
	Context context.Context
}

// Catalog returns the catalog's graph an overlay's graph was made on, or
// g itself for a catalog's graph.
func (g *Graph) Catalog() *Graph {
	if g.root != nil {
		return g.root
	}
	return g
}

// AccountUnits lists the units an overlay's graph adds (a request's, then
// its account's), in declaration order; none for a catalog's graph.
func (g *Graph) AccountUnits() []*Unit {
	var out []*Unit
	for ov := g.ov; ov != nil; ov = ov.Parent() {
		out = append(out, ov.Units()...)
	}
	return out
}

// AccountCategories lists the categories an overlay's graph adds.
func (g *Graph) AccountCategories() []*Category {
	var out []*Category
	for ov := g.ov; ov != nil; ov = ov.Parent() {
		out = append(out, ov.Categories()...)
	}
	return out
}

// AccountCategory finds one of the account's own categories by its id,
// with or without "my:".
func (g *Graph) AccountCategory(id string) (*Category, bool) {
	id = strings.TrimPrefix(id, AccountPrefix)
	for ov := g.ov; ov != nil; ov = ov.Parent() {
		if c, ok := ov.Category(id); ok {
			return c, true
		}
	}
	return nil, false
}

// AccountProblems are the problems of the units a Lenient overlay left
// out, each located at its origin.
func (g *Graph) AccountProblems() []error {
	if g.ov == nil {
		return nil
	}
	return g.ov.Problems()
}

// AccountVersion is OverlayOptions.Version of an overlay's graph.
func (g *Graph) AccountVersion() string {
	if g.ov == nil {
		return ""
	}
	return g.ov.Version()
}

// Overlay compiles the account units and categories of spec against the
// graph base (a catalog's, or an account's for the units of one request)
// into a new graph, leaving base as it was. spec holds categories only:
// a CategorySpec that names a category of base (its ID alone, no name,
// base or dimension) adds its units to it; one with a name, a dimension
// and a base declares a category of the account's own, "my:<id>". Every
// problem is reported, each a *SpecError at its origin; without Lenient
// the graph is nil when there is any.
func Overlay(base *Graph, defs Spec, opt OverlayOptions) (*Graph, []error) {
	if base == nil {
		return nil, []error{errors.New("overlay: no graph to overlay")}
	}
	ctx := opt.Context
	if ctx == nil {
		ctx = context.Background()
	}
	a := build.Account{
		Base: &base.t, Root: &base.Catalog().t, Parent: base.ov, Find: base.Find,
		Version: opt.Version, Lenient: opt.Lenient,
		Limits: build.Limits{Units: opt.Limits.Units, Categories: opt.Limits.Categories},
	}
	if a.Limits.Units <= 0 {
		a.Limits.Units = spec.DefaultMaxAccountUnits
	}
	if a.Limits.Categories <= 0 {
		a.Limits.Categories = spec.DefaultMaxAccountCategories
	}
	if p := opt.Previous; p != nil {
		a.Previous = p.ov
	}
	ov, err := build.NewOverlay(a, &defs)
	if err != nil {
		return nil, []error{err}
	}
	g := base.derive(ov, !opt.NoCache)
	errs, ok := ov.Compile(ctx, &g.t, &defs, a, g.buildOptions())
	if !ok || len(errs) > 0 && !opt.Lenient {
		return nil, errs
	}
	return g, errs
}

// derive returns a graph that shares base's catalog and has caches of
// its own, for ov.
func (base *Graph) derive(ov *build.Overlay, cache bool) *Graph {
	root := base.Catalog()
	// The suggestions and substance search of the catalog are built once
	// and shared (never per account). The code tables are the catalog's
	// too: a restored catalog's deferred tables compile once, on the
	// catalog's graph, which keeps their errors (deferredErrs stays the
	// overlay's own, empty).
	sugg := root.suggestIndex()
	// The catalog's hints, preferences, substances and measurands are
	// shared as they are (compiled first, in a restored catalog).
	x := root.extras()
	root.subIndexOnce.Do(func() {
		if x.sub != nil {
			root.subIndex = substance.NewIndex(x.sub.Substances())
		}
	})
	g := &Graph{
		t:             root.t,
		compiledPairs: plan.NewCompiler(),
		exprs:         newExprCache(),
		cross:         newCrossCache(),
		resolved:      newPropertiesCache(),
		mixedPairs:    newMixedPairs(),
		mixed:         newMixedCache(),
		codeSides:     root.codeSides, // codes never name an account's units
		ov:            ov,
		root:          root,
	}
	// A restored catalog decodes its spellings first.
	g.t.Spellings = root.spellingList()
	g.x.Store(x)
	if cache {
		g.pairs = paircache.New[Properties]()
	}
	g.suggesterOnce.Do(func() { g.suggester = sugg })
	g.subIndexOnce.Do(func() { g.subIndex = root.subIndex })
	// Unit search is over the catalog's units (SearchUnits): its index is
	// the catalog's.
	idx := root.unitSearchIndex()
	g.unitIndexOnce.Do(func() { g.unitIndex = idx })
	return g
}

// lookupAccount resolves name among the account's units: a "my:" name
// always (found or not), a plain one when the account has it (or the
// catalog has it too: then it is ambiguous). ok is false when the
// catalog's names decide.
func (g *Graph) lookupAccount(name string) (*Unit, error, bool) {
	if graph.HasAccountPrefix(name) {
		rest := name[len(AccountPrefix):]
		for ov := g.ov; ov != nil; ov = ov.Parent() {
			if u := ov.Find(rest); u != nil {
				return u, nil, true
			}
		}
		return nil, g.unknownAccount(name, rest), true
	}
	for ov := g.ov; ov != nil; ov = ov.Parent() {
		if a := ov.Clash(name); a != nil {
			return nil, ambiguityError(name, a), true
		}
		if u := ov.Find(name); u != nil {
			return u, nil, true
		}
	}
	for ov := g.ov; ov != nil; ov = ov.Parent() {
		if why, ok := ov.BrokenWhy(name); ok {
			if u, a := g.Catalog().Find(name); u == nil && a == nil {
				return nil, errorf(CodeUnknownUnit, "unknown unit %q: your account's unit of that name is left out: %s", fault.Truncate(name, 64), why), true
			}
		}
	}
	return nil, nil, false
}

// findAccount is lookupAccount for Find: nothing for a "my:" name the
// account lacks.
func (g *Graph) findAccount(name string) (*Unit, *Ambiguity, bool) {
	if graph.HasAccountPrefix(name) {
		rest := name[len(AccountPrefix):]
		for ov := g.ov; ov != nil; ov = ov.Parent() {
			if u := ov.Find(rest); u != nil {
				return u, nil, true
			}
		}
		return nil, nil, true
	}
	for ov := g.ov; ov != nil; ov = ov.Parent() {
		if a := ov.Clash(name); a != nil {
			return nil, a, true
		}
		if u := ov.Find(name); u != nil {
			return u, nil, true
		}
	}
	return nil, nil, false
}

// resolveAccount is the account's part of resolve: a "my:" name, a
// plain name of the account's, or an expression that starts with a "my:"
// name (m/my:smoot starts with a catalog name and parses as any other).
func (g *Graph) resolveAccount(name string) (plan.Side, error, bool) {
	u, err, ok := g.lookupAccount(name)
	switch {
	case !ok:
		return plan.Side{}, nil, false
	case err == nil:
		return plan.Side{Unit: u}, nil, true
	case !graph.HasAccountPrefix(name) || !unitexpr.IsExpressionSyntax(name):
		return plan.Side{}, err, true
	}
	if e, ok := g.exprs.get(name); ok {
		return plan.Side{Expr: e}, nil, true
	}
	e, err := g.parseExpression(name)
	if err != nil {
		return plan.Side{}, err, true
	}
	g.exprs.put(name, e)
	return plan.Side{Expr: e}, nil, true
}

// unknownAccount is UNKNOWN_UNIT for a "my:" name the account lacks,
// with suggestions among the account's units only.
func (g *Graph) unknownAccount(name, rest string) *Error {
	for ov := g.ov; ov != nil; ov = ov.Parent() {
		if why, ok := ov.BrokenWhy(rest); ok {
			return errorf(CodeUnknownUnit, "unknown unit %q: your account's unit is left out: %s", fault.Truncate(name, 64), why)
		}
	}
	e := errorf(CodeUnknownUnit, "unknown unit %q: %s names a unit of your account, and it has none called %q", fault.Truncate(name, 64), AccountPrefix, fault.Truncate(rest, 64))
	var xs []*suggest.Index
	for ov := g.ov; ov != nil; ov = ov.Parent() {
		xs = append(xs, ov.SuggestIndex())
	}
	e.Suggestions = suggest.SuggestIn(rest, 5, xs...)
	if len(e.Suggestions) > 0 {
		e.Message += "; did you mean " + strings.Join(e.Suggestions, ", ") + "?"
	}
	return e
}

// ambiguityError is AMBIGUOUS_UNIT for a name the catalog and the
// account both have.
func ambiguityError(name string, a *Ambiguity) *Error {
	e := errorf(CodeAmbiguousUnit, "%q is ambiguous: it could mean %s; name one by its symbol. %s", fault.Truncate(name, 64), a.CandidateList(), a.Note)
	for _, c := range a.Candidates {
		e.Candidates = append(e.Candidates, c.Symbol)
	}
	return e
}

// suggestions are the close matches of an unknown name: the catalog's
// and, in an overlay's graph, the account's.
func (g *Graph) suggestions(name string) []string {
	if g.ov == nil {
		return g.suggestIndex().Suggest(name, 5)
	}
	xs := []*suggest.Index{g.suggestIndex()}
	for ov := g.ov; ov != nil; ov = ov.Parent() {
		xs = append(xs, ov.SuggestIndex())
	}
	return suggest.SuggestIn(name, 5, xs...)
}

// definitionRef returns the unit u's definition refers to, for Explain:
// an account's definitions name its units by their "my:" symbols.
func (g *Graph) definitionRef(u *Unit) *Unit {
	name := u.Doc().Definition.Unit
	if graph.HasAccountPrefix(name) {
		r, _, _ := g.lookupAccount(name)
		return r
	}
	root := g.Catalog()
	if r, ok := root.t.BySymbol.Get(name); ok {
		return r
	}
	r, _ := root.t.ByWord.Get(fold.Key(name))
	return r
}

// appendAccountAuto converts to Auto in an overlay's graph. The unit
// preferences and their caches are the catalog's, shared by every
// account, and remember choices by the names converted from: so a name
// that involves none of the account's units converts through the
// catalog's graph as it is, and one that does converts through it with
// the value in a unit of the catalog (exactly, a rational), the answer
// then naming the account's unit as its source again.
func (g *Graph) appendAccountAuto(dst []byte, req *Request, res *Result, p int) ([]byte, error) {
	root := g.Catalog()
	if mixed.IsName(req.From) {
		for part := range strings.SplitSeq(req.From, "+") {
			part = strings.TrimSpace(part)
			if _, _, ok := g.lookupAccount(part); ok || graph.HasAccountPrefix(part) {
				return dst, errorf(CodeInvalidRequest, `to "auto" converts from a mixed unit of the catalog's units only; convert from %s to a unit instead`, fault.Truncate(req.From, 64))
			}
		}
		return root.appendCatalogConvert(dst, req, res)
	}
	s, err := g.resolve(req.From)
	if err != nil {
		return dst, err
	}
	if !s.Account() {
		return root.appendCatalogConvert(dst, req, res)
	}
	cat := s.Category()
	if cat == nil || cat.Account() {
		return dst, errorf(CodeInvalidRequest, `to "auto" has no unit preferences for %s: the preferences are CLDR's, for the catalog's kinds of quantity`, s.Describe())
	}
	var x apd.Decimal
	var r *big.Rat
	switch {
	case len(req.Exact) == 1 && req.Exact[0] != nil:
		r = req.Exact[0]
	case req.Exact != nil:
		return dst, errorf(CodeInvalidValue, "%s takes one value; got %d", s.Symbol(), len(req.Exact))
	default:
		if err := exact.ParseValue(&x, req.Value); err != nil {
			return dst, err
		}
	}
	// The value in a catalog unit of the category, exactly: the base,
	// or the first unit whose ratio to s has no π.
	for _, ref := range append([]*Unit{cat.Base}, cat.Units...) {
		if ref == nil || ref.Conv.FormulaUnit {
			continue
		}
		pl, err := g.planner().Plan(s, plan.Side{Unit: ref}, accelerated())
		if err != nil {
			continue
		}
		var v exact.Value
		if r != nil {
			v, err = pl.ValueAtRat(r)
		} else {
			v, err = pl.ValueAt(&x)
		}
		if err != nil {
			if errors.Is(err, plan.ErrNotExactMap) {
				continue
			}
			return dst, err
		}
		if v.K != 0 {
			continue
		}
		sub := *req
		sub.From, sub.Value, sub.Exact = ref.Symbol, "", []*big.Rat{v.Rat()}
		out, err := root.appendCatalogConvert(dst, &sub, res)
		if err != nil {
			return dst, err
		}
		res.setFrom(s)
		res.Exact = res.Exact && pl.Exact
		return out, nil
	}
	return dst, errorf(CodeInvalidRequest, `to "auto" cannot choose for %s: its value has no exact form in a unit of %s`, s.Describe(), cat.ID)
}

// The memory of an overlay's graph, estimated from what it holds: the
// sizes below were measured with runtime.MemStats on the shipped catalog
// (TestOverlayBytesEstimate checks the estimate against the heap's
// growth), each rounded up.
const (
	// overlayBytesFixed is a graph with its caches empty: the Graph, the
	// pair cache's table, the maps of the overlay.
	overlayBytesFixed = 16 << 10
	// overlayBytesPerUnit is one compiled unit of an account: the Unit,
	// its maps, spellings, index entries and suggestions.
	overlayBytesPerUnit = 3 << 10
	// overlayBytesPerCategory is one category of an account's own.
	overlayBytesPerCategory = 1 << 10
	// overlayBytesPerEntry is one entry of a cache of the graph (a
	// parsed expression, a planned pair, a compiled pair, a mixed unit,
	// resolved properties), on average.
	overlayBytesPerEntry = 1 << 10
)

// overlayStaticBytes estimates the compiled units and categories.
func overlayStaticBytes(units, categories int) int64 {
	return overlayBytesFixed + int64(units)*overlayBytesPerUnit + int64(categories)*overlayBytesPerCategory
}

// OverlayBytes estimates the memory an overlay's graph holds beyond the
// catalog's: its compiled units and what its caches hold now (each cache
// is bounded, as the catalog's are). 0 for a catalog's graph.
func (g *Graph) OverlayBytes() int64 {
	if g.ov == nil {
		return 0
	}
	n := int64(g.exprs.m.Len() + g.cross.m.Len() + g.resolved.m.Len() + g.compiledPairs.Len() + g.mixed.m.Len())
	if g.pairs != nil {
		n += int64(g.pairs.Len())
	}
	return overlayStaticBytes(len(g.ov.Units()), len(g.ov.Categories())) + n*overlayBytesPerEntry
}
