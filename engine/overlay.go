package engine

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/big"
	"strings"
	"sync"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine/dimension"
	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/formula"
	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/internal/fold"
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

// overlay is an account's compiled units.
type overlay struct {
	parent  *overlay
	version string
	// units are the account's compiled units in declaration order (a
	// prefixed unit after its unit); categories its own categories.
	units      []*Unit
	categories []*Category
	catByID    map[string]*Category // own categories by plain id
	// bySymbol and byWord index the units' plain spellings: symbols as
	// written, words folded (fold.Key).
	bySymbol, byWord map[string]*Unit
	// clashSym and clashWord are the plain spellings the catalog (or the
	// parent overlay) has too: ambiguous, by symbol and by folded word.
	clashSym, clashWord map[string]*Ambiguity
	// broken says why a unit left out (Lenient) is, by its spellings.
	broken   map[string]string
	problems []error
	maxName  int
	// suggester indexes the plain spellings for suggestions, built on
	// the first unknown name (suggestIndex).
	suggester     *suggest.Index
	suggesterOnce sync.Once
	// bytes is the static size of the compiled units (OverlayBytes).
	bytes int64

	// What a later compilation reuses (OverlayOptions.Previous): the
	// graph overlaid, whether lenient, the spec of each declared unit
	// and of each own category (a copy), and the account's units each
	// unit depends on, by the plain symbol of their declared unit.
	base    *Graph
	lenient bool
	specs   map[*Unit]*UnitSpec
	catSpec map[*Category]*CategorySpec
	deps    map[*Unit][]string

	// mine holds the units being compiled; nil once compiled.
	mine map[*Unit]bool
}

// hasAccountPrefix reports whether name starts with "my:", in either
// case, as system prefixes are read.
func hasAccountPrefix(name string) bool {
	return len(name) > 3 && name[0]|0x20 == 'm' && name[1]|0x20 == 'y' && name[2] == ':'
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
	for ov := g.ov; ov != nil; ov = ov.parent {
		out = append(out, ov.units...)
	}
	return out
}

// AccountCategories lists the categories an overlay's graph adds.
func (g *Graph) AccountCategories() []*Category {
	var out []*Category
	for ov := g.ov; ov != nil; ov = ov.parent {
		out = append(out, ov.categories...)
	}
	return out
}

// AccountCategory finds one of the account's own categories by its id,
// with or without "my:".
func (g *Graph) AccountCategory(id string) (*Category, bool) {
	id = strings.TrimPrefix(id, AccountPrefix)
	for ov := g.ov; ov != nil; ov = ov.parent {
		if c, ok := ov.catByID[id]; ok {
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
	return g.ov.problems
}

// AccountVersion is OverlayOptions.Version of an overlay's graph.
func (g *Graph) AccountVersion() string {
	if g.ov == nil {
		return ""
	}
	return g.ov.version
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
	lim := opt.Limits
	if lim.Units <= 0 {
		lim.Units = spec.DefaultMaxAccountUnits
	}
	if lim.Categories <= 0 {
		lim.Categories = spec.DefaultMaxAccountCategories
	}
	if msg := onlyUnits(&defs); msg != "" {
		return nil, []error{&SpecError{Subject: "account units", Message: msg}}
	}
	n, _ := spec.CountUnits(defs.Categories)
	if n > lim.Units {
		return nil, []error{&SpecError{Subject: "account units", Message: fmt.Sprintf("define %d units, prefixed ones included; an account may have at most %d", n, lim.Units)}}
	}
	ov := &overlay{
		parent: base.ov, version: opt.Version, base: base, lenient: opt.Lenient,
		specs: make(map[*Unit]*UnitSpec, n), catSpec: map[*Category]*CategorySpec{}, deps: make(map[*Unit][]string, n),
		catByID:  map[string]*Category{},
		bySymbol: make(map[string]*Unit, 2*n), byWord: make(map[string]*Unit, 3*n),
		clashSym: map[string]*Ambiguity{}, clashWord: map[string]*Ambiguity{},
		broken: map[string]string{},
		mine:   map[*Unit]bool{},
	}
	g := base.derive(ov, !opt.NoCache)
	b := &builder{
		ctx:             ctx,
		g:               g,
		origins:         map[*Unit]Origin{},
		categoryOrigins: map[*Category]Origin{},
		dropped:         map[*Unit]bool{},
		prefixCodes:     map[*Unit]Origin{},
		defs:            map[*Unit]DefinitionSpec{},
		specs:           map[*Unit]*UnitSpec{},
		wordOf:          map[string]*Unit{},
		formulas:        map[*Unit]*formula.Pair{},
		exacts:          map[string]exact.Factor{},
		ov:              ov,
	}
	c := &overlayCompiler{b: b, ov: ov, base: base, lenient: opt.Lenient, limits: lim, why: map[*Unit]string{}, reused: make(map[*Unit]bool, n), order: make([]*Unit, 0, n)}
	if p := opt.Previous; p != nil && p.ov != nil && p.ov.base == base && len(p.ov.problems) == 0 &&
		(p.ov.lenient == opt.Lenient || len(p.ov.clashSym)+len(p.ov.clashWord) == 0) {
		c.prev = p.ov
	}
	c.compile(defs)
	if b.stopped || len(b.errs) > 0 && !opt.Lenient {
		return nil, b.errs
	}
	ov.problems = b.errs
	ov.mine = nil
	return g, b.errs
}

// onlyUnits says what, beyond categories and units, spec declares, or "".
func onlyUnits(defs *Spec) string {
	switch {
	case len(defs.Bridges) > 0:
		return "an account declares units and categories, not bridges"
	case len(defs.Elements)+len(defs.Substances)+len(defs.Conditions)+len(defs.Measurands)+len(defs.Gas.MixingRatios) > 0:
		return "an account declares units and categories, not substances"
	case len(defs.Hints) > 0 || defs.Preferences != nil || defs.Codes != nil || len(defs.UnclaimedCodes) > 0:
		return "an account declares units and categories only"
	}
	return ""
}

// derive returns a graph that shares base's catalog and has caches of
// its own, for ov.
func (base *Graph) derive(ov *overlay, cache bool) *Graph {
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

// overlayCompiler compiles one overlay.
type overlayCompiler struct {
	b       *builder
	ov      *overlay
	base    *Graph
	lenient bool
	limits  OverlayLimits
	// created are the units made, in order; bad those that failed, and
	// why says why, with the first problem of each.
	created []*Unit
	bad     map[*Unit]bool
	why     map[*Unit]string
	// byCategory are the created units of each category; baseSym the
	// declared base of each own category.
	byCategory map[*Category][]*Unit
	baseSym    map[*Category]string
	// plain are the symbols of each unit as declared (its symbol, then
	// its further symbols), before "my:" is put before its symbol;
	// ref the unit each definition refers to.
	plain map[*Unit][]string
	ref   map[*Unit]*Unit

	// prev is the overlay compiled before (OverlayOptions.Previous), or
	// nil; reused are its units taken as they are, order every unit in
	// declaration order, created or reused.
	prev   *overlay
	reused map[*Unit]bool
	order  []*Unit
	// indexed is how many units had failed when the spellings were last
	// indexed.
	indexed int
}

// failSince marks units as failed when problems were reported since
// mark, and reports whether they were.
func (c *overlayCompiler) failSince(mark int, units ...*Unit) bool {
	if len(c.b.errs) == mark {
		return false
	}
	for _, u := range units {
		if !c.bad[u] {
			c.bad[u] = true
			c.why[u] = c.b.errs[mark].Error()
		}
	}
	return true
}

// markBad fails u for a reason no other problem states, and reports it.
func (c *overlayCompiler) markBad(u *Unit, why string) {
	if c.bad[u] {
		return
	}
	c.b.errorf(c.b.origins[u], unitSubject(c.plain[u][0]), "left out: %s", why)
	c.bad[u] = true
	c.why[u] = why
}

func (c *overlayCompiler) compile(defs Spec) {
	b, ov := c.b, c.ov
	c.bad, c.byCategory, c.baseSym = map[*Unit]bool{}, map[*Category][]*Unit{}, map[*Category]string{}
	c.plain, c.ref = map[*Unit][]string{}, map[*Unit]*Unit{}
	keep := c.reusable(&defs)
	// Declared categories first: any spec may add units to them.
	declared := 0
	for i := range defs.Categories {
		cs := &defs.Categories[i]
		if !declares(cs) {
			continue
		}
		if declared++; declared > c.limits.Categories {
			b.errorf(cs.Origin, fmt.Sprintf("category %q", cs.ID), "an account may declare at most %d categories", c.limits.Categories)
			c.brokenSpecs(cs, "its account declares too many categories")
			continue
		}
		if pc := keep.categories[cs.ID]; pc != nil {
			ov.catByID[cs.ID] = pc
			ov.categories = append(ov.categories, pc)
			ov.catSpec[pc] = c.prev.catSpec[pc]
			continue
		}
		c.declare(cs)
	}
	for i := range defs.Categories {
		cs := &defs.Categories[i]
		cat := c.categoryOf(cs)
		if cat == nil {
			continue
		}
		for j := range cs.Units {
			if b.cancelled() {
				return
			}
			if pu := keep.units[cs.Units[j].Symbol]; pu != nil {
				c.reuse(pu, keep.children[pu])
				continue
			}
			c.unit(cat, &cs.Units[j])
		}
	}
	for _, cat := range ov.categories {
		if cat.Base == nil {
			b.errorf(b.categoryOrigins[cat], fmt.Sprintf("category %q", strings.TrimPrefix(cat.ID, AccountPrefix)), "base unit %q is not one of its units", c.baseSym[cat])
			for _, u := range c.byCategory[cat] {
				c.bad[u], c.why[u] = true, "its category has no base unit"
			}
		}
	}
	c.index(true)
	c.resolve()
	if b.stopped {
		return
	}
	c.frames()
	c.dropBad()
	c.rename()
	c.examples()
	c.dropBad()
	c.finish()
}

// declares reports whether cs declares a category rather than adding
// units to one.
func declares(cs *CategorySpec) bool {
	return cs.Name != "" || cs.Base != "" || cs.Dimension != nil || cs.Description != "" ||
		cs.Minimum != "" || cs.SIFactor != "" || cs.Preferred || cs.Logarithmic
}

// brokenSpecs records why the units of cs are left out.
func (c *overlayCompiler) brokenSpecs(cs *CategorySpec, why string) {
	for _, us := range cs.Units {
		if us.Symbol != "" {
			c.ov.broken[us.Symbol] = why
		}
	}
}

// declare creates one of the account's own categories.
func (c *overlayCompiler) declare(cs *CategorySpec) {
	b, ov := c.b, c.ov
	subject := fmt.Sprintf("category %q", cs.ID)
	mark := len(b.errs)
	if msg := spec.CheckCategoryID(cs.ID); msg != "" {
		b.errorf(cs.Origin, subject, "%s", msg)
	}
	if _, dup := ov.catByID[cs.ID]; dup {
		b.errorf(cs.Origin, subject, "declared twice")
	}
	if !c.lenient {
		if _, ok := c.base.Catalog().t.ByID[cs.ID]; ok {
			b.errorf(cs.Origin, subject, "is a category of the catalog: add units to it with category: %s, or give yours another id", cs.ID)
		}
		for p := ov.parent; p != nil; p = p.parent {
			if _, ok := p.catByID[cs.ID]; ok {
				b.errorf(cs.Origin, subject, "is a category of your account already")
			}
		}
	}
	for _, msg := range spec.CheckAccountCategory(cs) {
		b.errorf(cs.Origin, subject, "%s", msg)
	}
	cat := &Category{ID: AccountPrefix + cs.ID, Name: cs.Name, Description: cs.Description, Minimum: cs.Minimum, Dim: dimension.Of(cs.Dimension), Coherent: exact.One()}
	cat.Dimensionless = cat.Dim.IsZero()
	for _, f := range [...]struct{ key, text string }{{"si_factor", cs.SIFactor}, {"minimum", cs.Minimum}} {
		if f.text == "" {
			continue
		}
		if len(f.text) > spec.MaxAccountNumber {
			b.errorf(cs.Origin, subject, "%s is longer than %d bytes", f.key, spec.MaxAccountNumber)
			continue
		}
		v, err := exact.ParseFactor(f.text)
		switch {
		case err != nil:
			b.errorf(cs.Origin, subject, "%s: %v", f.key, err)
		case f.key == "si_factor" && v.R.Sign() <= 0:
			b.errorf(cs.Origin, subject, "si_factor must be positive, not %s", f.text)
		case f.key == "si_factor":
			cat.SIFactor = &v
			cat.Coherent = v
		case v.K != 0:
			b.errorf(cs.Origin, subject, "minimum: %s involves pi, which no decimal can state exactly", f.text)
		default:
			cat.MinimumRat = v.R
		}
	}
	if cs.Base == "" {
		b.errorf(cs.Origin, subject, "missing base unit")
	}
	if len(b.errs) > mark {
		c.brokenSpecs(cs, b.errs[mark].Error())
		return
	}
	b.categoryOrigins[cat] = cs.Origin
	c.baseSym[cat] = cs.Base
	decl := *cs
	decl.Units, decl.Dimension = nil, maps.Clone(cs.Dimension)
	ov.catSpec[cat] = &decl
	ov.catByID[cs.ID] = cat
	ov.categories = append(ov.categories, cat)
}

// categoryOf finds the category cs adds its units to: the account's own
// (declared by cs or another spec) first, then an enclosing overlay's,
// then the catalog's.
func (c *overlayCompiler) categoryOf(cs *CategorySpec) *Category {
	id := cs.ID
	if hasAccountPrefix(id) {
		id = id[len(AccountPrefix):]
	}
	for ov := c.ov; ov != nil; ov = ov.parent {
		if cat, ok := ov.catByID[id]; ok {
			return cat
		}
	}
	if declares(cs) {
		return nil // refused by declare
	}
	if cat, ok := c.base.Catalog().t.ByID[cs.ID]; ok {
		return cat
	}
	subject := "category"
	if cs.ID != "" {
		subject = fmt.Sprintf("category %q", cs.ID)
	}
	c.b.errorf(cs.Origin, subject, "unknown category: neither one of the catalog's (GET /v1/categories lists them) nor one of your account's")
	c.brokenSpecs(cs, "its category "+cs.ID+" is unknown")
	return nil
}

// unit creates one declared unit and those its prefixes generate.
func (c *overlayCompiler) unit(cat *Category, us *UnitSpec) {
	b := c.b
	mark := len(b.errs)
	c.checkUnitSpec(us)
	if len(b.errs) > mark {
		if us.Symbol != "" {
			c.ov.broken[us.Symbol] = b.errs[mark].Error()
		}
		return
	}
	// Made in a category of its own first: a catalog's category never
	// holds an account's unit.
	tmp := &Category{}
	b.unit(tmp, us)
	for _, u := range tmp.Units {
		u.Category = cat
		c.ov.mine[u] = true
		c.created = append(c.created, u)
		c.order = append(c.order, u)
		c.byCategory[cat] = append(c.byCategory[cat], u)
		c.plain[u] = append([]string{u.Symbol}, u.Symbols...)
	}
	if cat.Account() {
		cat.Units = append(cat.Units, tmp.Units...)
		for _, u := range tmp.Units {
			if cat.Base == nil && u.Symbol == c.baseSym[cat] {
				cat.Base = u
			}
		}
	}
	c.failSince(mark, tmp.Units...)
}

// checkUnitSpec applies the rules an account's unit meets beyond a
// catalog's (spec.CheckAccountUnit).
func (c *overlayCompiler) checkUnitSpec(us *UnitSpec) {
	subject := unitSubject(us.Symbol)
	if len(us.Symbol) > spec.MaxAccountSymbol {
		subject = unitSubject(fault.Truncate(us.Symbol, spec.MaxAccountSymbol))
	}
	for _, p := range spec.CheckAccountUnit(us) {
		c.b.errorf(p.Origin, subject, "%s", p.Message)
	}
}

// index indexes the plain spellings of the units that have not failed.
// With report, a spelling another unit of the account has is reported,
// and so, unless lenient, is one the catalog (or the account, for a
// request's units) has; lenient, such a spelling is ambiguous.
func (c *overlayCompiler) index(report bool) {
	b, ov := c.b, c.ov
	if !report && len(c.bad) == c.indexed {
		return // nothing failed since: the index stands
	}
	defer func() { c.indexed = len(c.bad) }()
	clear(ov.bySymbol)
	clear(ov.byWord)
	clear(ov.clashSym)
	clear(ov.clashWord)
	c.indexReused()
	for _, u := range c.created {
		if c.bad[u] {
			continue
		}
		mark := len(b.errs)
		o, subject := b.origins[u], unitSubject(c.plain[u][0])
		for _, s := range c.plain[u] {
			if other, dup := ov.bySymbol[s]; dup && other != u {
				if report {
					b.errorf(o, subject, "symbol %q is already used by your unit %q", s, c.plain[other][0])
				}
				continue
			}
			ov.bySymbol[s] = u
			c.clash(u, s, false, report)
		}
		for _, w := range append([]string{u.Name, u.Plural}, u.Aliases...) {
			key := fold.Key(w)
			if key == "" {
				continue
			}
			if other, dup := ov.byWord[key]; dup && other != u {
				if report {
					b.errorf(o, subject, "name %q is already used by your unit %q; names are compared case-insensitively", w, c.plain[other][0])
				}
				continue
			}
			if other, ok := ov.bySymbol[w]; ok && other != u {
				if report {
					b.errorf(o, subject, "name %q is the symbol of your unit %q", w, c.plain[other][0])
				}
				continue
			}
			ov.byWord[key] = u
			c.clash(u, w, true, report)
		}
		if report {
			c.failSince(mark, u)
		}
	}
}

// clash looks the spelling s of u up in the graph overlaid: refused when
// found there (reported when report), or, lenient, ambiguous.
func (c *overlayCompiler) clash(u *Unit, s string, word, report bool) {
	found, amb := c.base.Find(s)
	if found == nil && amb == nil {
		return
	}
	if !c.lenient {
		if !report {
			return
		}
		what := ""
		switch {
		case found != nil && found.Account():
			what = fmt.Sprintf("your account's unit %s", found.Symbol)
		case found != nil:
			what = fmt.Sprintf("the catalog's unit %s (%s)", found.Symbol, found.Name)
		default:
			what = "an ambiguous name of the catalog (" + candidateList(amb.Candidates) + ")"
		}
		kind := "symbol"
		if word {
			kind = "name"
		}
		c.b.errorf(c.b.origins[u], unitSubject(c.plain[u][0]), "%s %q already names %s: a unit of an account may not shadow it; choose another", kind, s, what)
		return
	}
	var cands []*Unit
	if found != nil {
		cands = append(cands, found)
	} else {
		cands = append(cands, amb.Candidates...)
	}
	a := &Ambiguity{Name: s, Candidates: append(cands, u), Note: "The catalog has added this name since your account defined it; your unit stays " + AccountPrefix + c.plain[u][0]}
	if word {
		c.ov.clashWord[fold.Key(s)] = a
	} else {
		c.ov.clashSym[s] = a
	}
}

// resolve compiles every definition, as Build does, but only those of
// the account's units: the catalog's (and an enclosing overlay's) are
// compiled already.
func (c *overlayCompiler) resolve() {
	b := c.b
	const (
		unvisited = iota
		visiting
		done
	)
	state := map[*Unit]int{}
	var visit func(u *Unit) bool
	visit = func(u *Unit) bool {
		if !c.ov.mine[u] {
			return true
		}
		switch state[u] {
		case done:
			return !c.bad[u]
		case visiting:
			b.errorf(b.defs[u].Origin, unitSubject(c.plain[u][0]), "definition refers back to itself through a cycle")
			c.bad[u], c.why[u] = true, "its definition refers back to itself through a cycle"
			return false
		}
		if c.bad[u] {
			state[u] = done
			return false
		}
		state[u] = visiting
		mark := len(b.errs)
		ok := u.Category.Base != nil && b.define(u, visit)
		state[u] = done
		if !ok && !c.failSince(mark, u) && !c.bad[u] {
			if r := c.ref[u]; r != nil && c.ov.mine[r] {
				c.markBad(u, "it is defined through "+c.plain[r][0]+", which was left out")
			} else {
				c.markBad(u, "its definition refers to a unit that was left out")
			}
		}
		return ok && !c.bad[u]
	}
	for _, u := range c.created {
		if d := b.defs[u]; d.Unit != "" {
			if r, ok := b.reference(d.Unit); ok {
				c.ref[u] = r
			}
		}
	}
	for i, u := range c.created {
		if i%64 == 0 && b.cancelled() {
			return
		}
		visit(u)
	}
	// What Build checks of compiled units.
	for _, u := range c.created {
		if c.bad[u] {
			continue
		}
		mark := len(b.errs)
		o := b.defs[u].Origin
		if o.File == "" {
			o = b.origins[u]
		}
		if f := b.formulas[u]; f != nil {
			if f.ToMap == nil {
				b.errorf(o, unitSubject(c.plain[u][0]), "an account's formula is made of + - * / on x and numbers, so that it compiles into one exact map; logarithms and exponentials are the catalog's")
			} else if err := f.CheckInverse(accelerated()); err != nil {
				b.errorf(o, unitSubject(u.Symbol), "%v", err)
			}
		}
		if u.Category.MinimumRat != nil {
			b.setMinimum(u)
		}
		c.failSince(mark, u)
	}
	for cat, units := range c.byCategory {
		c.checkPi(cat, units)
	}
}

// checkPi refuses, as Build does, a unit whose map carries π in a
// category with a unit with an offset or a formula, or the reverse.
func (c *overlayCompiler) checkPi(cat *Category, units []*Unit) {
	if cat.MinimumRat != nil {
		return // π is refused against the minimum
	}
	kind := func(u *Unit) int { // 1: π, 2: offset or formula
		cv := &u.Conv
		switch {
		case cv.Map == nil && cv.Post == nil:
			return 0
		case cv.Map != nil && cv.Map.K() != 0 || cv.Post != nil && cv.Post.K() != 0:
			return 1
		case cv.FormulaUnit || !cv.Map.IsLinear():
			return 2
		}
		return 0
	}
	var withPi, other *Unit
	all := units
	if !cat.Account() {
		all = append(append([]*Unit(nil), cat.Units...), units...)
	}
	for _, u := range all {
		if c.bad[u] {
			continue
		}
		switch kind(u) {
		case 1:
			if withPi == nil || u.Account() || c.ov.mine[u] {
				withPi = u
			}
		case 2:
			if other == nil || c.ov.mine[u] {
				other = u
			}
		}
	}
	if withPi == nil || other == nil {
		return
	}
	culprit, with := withPi, other
	if !c.ov.mine[withPi] {
		culprit, with = other, withPi
	}
	if !c.ov.mine[culprit] {
		return
	}
	mark := len(c.b.errs)
	c.b.errorf(c.b.origins[culprit], unitSubject(c.plain[culprit][0]), "a factor with pi and an offset or a formula cannot share category %s (%s)", strings.TrimPrefix(cat.ID, AccountPrefix), with.Symbol)
	c.failSince(mark, culprit)
}

// frames sets what conversions across categories need: the coherent
// factor and SI map of every unit, the intervals of scales.
func (c *overlayCompiler) frames() {
	b := c.b
	good := func(units []*Unit) []*Unit {
		var out []*Unit
		for _, u := range units {
			if !c.bad[u] {
				out = append(out, u)
			}
		}
		return out
	}
	for cat, units := range c.byCategory {
		mark := len(b.errs)
		units := good(units)
		b.setCoherent(cat, units)
		c.failSince(mark, units...)
		if !cat.Account() {
			continue
		}
		for _, u := range units {
			if m := u.Conv.Map; m != nil && !u.Conv.FormulaUnit && !m.IsLinear() {
				if i := c.base.Catalog().t.ByDimension[cat.Dim]; i != nil {
					cat.Interval = i
				}
				break
			}
		}
	}
	for _, u := range c.created {
		if c.bad[u] || u.Category.Interval == nil || u.SI == nil || u.Conv.FormulaUnit || u.SI.Map == nil || !u.SI.Map.IsLinear() {
			continue
		}
		iv := *u.SI
		iv.Bound = nil // an interval may be negative
		u.AsInterval = &iv
	}
}

// dropBad fails every unit defined through a unit that failed, and
// every prefixed form of one, then indexes what is left.
func (c *overlayCompiler) dropBad() {
	for changed := true; changed; {
		changed = false
		for _, u := range c.created {
			if c.bad[u] {
				continue
			}
			if r := c.ref[u]; r != nil && c.bad[r] {
				c.markBad(u, "it is defined through "+c.plain[r][0]+", which was left out")
				changed = true
			} else if p := u.Prefixed; p != nil && c.bad[p] {
				c.markBad(u, "it is a prefixed form of "+c.plain[p][0]+", which was left out")
				changed = true
			}
		}
	}
	c.index(false)
}

// rename gives each unit its symbol "my:<symbol>", keeps the plain one
// as a further spelling, and writes every definition and example with
// the symbols of the units it names, so that it means what it meant
// whatever the catalog adds later.
func (c *overlayCompiler) rename() {
	for _, u := range c.created {
		if c.bad[u] {
			continue
		}
		u.Symbol = AccountPrefix + c.plain[u][0]
		u.Symbols = c.plain[u]
	}
	for _, u := range c.created {
		if c.bad[u] {
			continue
		}
		if r := c.ref[u]; r != nil {
			u.Definition.Unit = r.Symbol
		}
		for i := range u.Examples {
			ex := &u.Examples[i]
			ex.From, ex.To = c.ov.canonical(ex.From), c.ov.canonical(ex.To)
		}
	}
}

// canonical writes an example's unit name with the symbol of the
// account's unit it names, if it names one.
func (ov *overlay) canonical(name string) string {
	if hasAccountPrefix(name) {
		return AccountPrefix + name[len(AccountPrefix):]
	}
	for o := ov; o != nil; o = o.parent {
		if u := o.find(name); u != nil {
			return u.Symbol
		}
	}
	return name
}

// examples checks every worked example, as Build does.
func (c *overlayCompiler) examples() {
	b := c.b
	for i, u := range c.created {
		if i%64 == 0 && b.cancelled() {
			return
		}
		us := b.specs[u]
		if c.bad[u] || us == nil {
			continue
		}
		mark := len(b.errs)
		for j, ex := range u.Examples {
			if err := b.checkExample(u, ex, us.Examples[j].Origin); err != nil {
				b.errs = append(b.errs, err)
			}
		}
		c.failSince(mark, u)
	}
	c.dependencies()
}

// finish keeps what compiled: the units, the own categories whose base
// compiled, what the names left out were, and the suggestions.
func (c *overlayCompiler) finish() {
	ov := c.ov
	for _, u := range c.order {
		if !c.bad[u] {
			ov.units = append(ov.units, u)
		}
	}
	for _, u := range c.created {
		if us := c.b.specs[u]; us != nil && !c.bad[u] {
			ov.specs[u] = us.Clone()
		}
	}
	cats := ov.categories[:0]
	for _, cat := range ov.categories {
		if cat.Base == nil || c.bad[cat.Base] {
			delete(ov.catByID, strings.TrimPrefix(cat.ID, AccountPrefix))
			continue
		}
		kept := cat.Units[:0]
		for _, u := range cat.Units {
			if !c.bad[u] {
				kept = append(kept, u)
			}
		}
		cat.Units = kept
		cats = append(cats, cat)
	}
	ov.categories = cats
	for _, u := range c.created {
		if !c.bad[u] {
			continue
		}
		for _, s := range c.plain[u] {
			if ov.find(s) == nil {
				ov.broken[s] = c.why[u]
			}
		}
	}
	if ov.parent != nil {
		ov.maxName = ov.parent.maxName
	}
	for _, u := range ov.units {
		for _, s := range u.Symbols {
			ov.maxName = max(ov.maxName, len(s))
		}
		ov.maxName = max(ov.maxName, len(u.Name), len(u.Plural))
		for _, w := range u.Aliases {
			ov.maxName = max(ov.maxName, len(w))
		}
	}
	g := c.b.g
	g.t.MaxName = max(g.t.MaxName, len(AccountPrefix)+ov.maxName)
	ov.bytes = overlayStaticBytes(len(ov.units), len(ov.categories))
}

// suggestIndex returns the index of the plain spellings of the units,
// building it on first use: most accounts' graphs are compiled and serve
// long before a name is unknown.
func (ov *overlay) suggestIndex() *suggest.Index {
	ov.suggesterOnce.Do(func() {
		x := &suggest.Index{}
		for _, u := range ov.units {
			for _, s := range u.Symbols {
				x.Add(s, u.Symbol)
			}
			for _, w := range append([]string{u.Name, u.Plural}, u.Aliases...) {
				if w != "" {
					x.Add(w, u.Symbol)
				}
			}
		}
		ov.suggester = x
	})
	return ov.suggester
}

// find returns the unit of a plain spelling, or nil.
func (ov *overlay) find(name string) *Unit {
	if u, ok := ov.bySymbol[name]; ok {
		return u
	}
	if len(ov.byWord) == 0 {
		return nil
	}
	return ov.byWord[fold.Key(name)]
}

// clash returns the ambiguity of a plain spelling the catalog has too,
// or nil.
func (ov *overlay) clash(name string) *Ambiguity {
	if len(ov.clashSym)+len(ov.clashWord) == 0 {
		return nil
	}
	if a, ok := ov.clashSym[name]; ok {
		return a
	}
	return ov.clashWord[fold.Key(name)]
}

// brokenWhy says why a unit left out by a lenient overlay is.
func (ov *overlay) brokenWhy(name string) (string, bool) {
	if len(ov.broken) == 0 {
		return "", false
	}
	if why, ok := ov.broken[name]; ok {
		return why, true
	}
	why, ok := ov.broken[fold.Key(name)]
	return why, ok
}

// reference finds the unit an account's definition refers to: "my:"
// names and the account's own names first (what the account meant when
// it wrote the definition, whatever the catalog added since), then the
// catalog's.
func (ov *overlay) reference(g *Graph, name string) (*Unit, bool) {
	if hasAccountPrefix(name) {
		rest := name[len(AccountPrefix):]
		for o := ov; o != nil; o = o.parent {
			if u := o.find(rest); u != nil {
				return u, true
			}
		}
		return nil, false
	}
	for o := ov; o != nil; o = o.parent {
		if u := o.find(name); u != nil {
			return u, true
		}
	}
	root := g.Catalog()
	if u, ok := root.t.BySymbol.Get(name); ok {
		return u, true
	}
	u, ok := root.t.ByWord.Get(fold.Key(name))
	return u, ok
}

// lookupAccount resolves name among the account's units: a "my:" name
// always (found or not), a plain one when the account has it (or the
// catalog has it too: then it is ambiguous). ok is false when the
// catalog's names decide.
func (g *Graph) lookupAccount(name string) (*Unit, error, bool) {
	if hasAccountPrefix(name) {
		rest := name[len(AccountPrefix):]
		for ov := g.ov; ov != nil; ov = ov.parent {
			if u := ov.find(rest); u != nil {
				return u, nil, true
			}
		}
		return nil, g.unknownAccount(name, rest), true
	}
	for ov := g.ov; ov != nil; ov = ov.parent {
		if a := ov.clash(name); a != nil {
			return nil, ambiguityError(name, a), true
		}
		if u := ov.find(name); u != nil {
			return u, nil, true
		}
	}
	for ov := g.ov; ov != nil; ov = ov.parent {
		if why, ok := ov.brokenWhy(name); ok {
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
	if hasAccountPrefix(name) {
		rest := name[len(AccountPrefix):]
		for ov := g.ov; ov != nil; ov = ov.parent {
			if u := ov.find(rest); u != nil {
				return u, nil, true
			}
		}
		return nil, nil, true
	}
	for ov := g.ov; ov != nil; ov = ov.parent {
		if a := ov.clash(name); a != nil {
			return nil, a, true
		}
		if u := ov.find(name); u != nil {
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
	case !hasAccountPrefix(name) || !unitexpr.IsExpressionSyntax(name):
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
	for ov := g.ov; ov != nil; ov = ov.parent {
		if why, ok := ov.brokenWhy(rest); ok {
			return errorf(CodeUnknownUnit, "unknown unit %q: your account's unit is left out: %s", fault.Truncate(name, 64), why)
		}
	}
	e := errorf(CodeUnknownUnit, "unknown unit %q: %s names a unit of your account, and it has none called %q", fault.Truncate(name, 64), AccountPrefix, fault.Truncate(rest, 64))
	var xs []*suggest.Index
	for ov := g.ov; ov != nil; ov = ov.parent {
		xs = append(xs, ov.suggestIndex())
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
	e := errorf(CodeAmbiguousUnit, "%q is ambiguous: it could mean %s; name one by its symbol. %s", fault.Truncate(name, 64), candidateList(a.Candidates), a.Note)
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
	for ov := g.ov; ov != nil; ov = ov.parent {
		xs = append(xs, ov.suggestIndex())
	}
	return suggest.SuggestIn(name, 5, xs...)
}

// definitionRef returns the unit u's definition refers to, for Explain:
// an account's definitions name its units by their "my:" symbols.
func (g *Graph) definitionRef(u *Unit) *Unit {
	name := u.Definition.Unit
	if hasAccountPrefix(name) {
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
			if _, _, ok := g.lookupAccount(part); ok || hasAccountPrefix(part) {
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
	return g.ov.bytes + n*overlayBytesPerEntry
}
