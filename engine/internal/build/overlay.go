package build

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"sync"

	"github.com/unitd/unitd/engine/dimension"
	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/internal/fold"
	"github.com/unitd/unitd/engine/internal/graph"
	"github.com/unitd/unitd/engine/internal/suggest"
	"github.com/unitd/unitd/engine/spec"
)

// Overlay is an account's compiled units, over the core of the graph
// it overlays: the engine's graph of an account holds one, and looks up
// its names in it before the catalog's.
type Overlay struct {
	parent  *Overlay
	version string
	// root is the catalog's core, under every overlay.
	root *Core
	// units are the account's compiled units in declaration order (a
	// prefixed unit after its unit); categories its own categories.
	units      []*graph.Unit
	categories []*graph.Category
	catByID    map[string]*graph.Category // own categories by plain id
	// bySymbol and byWord index the units' plain spellings: symbols as
	// written, words folded (fold.Key).
	bySymbol, byWord map[string]*graph.Unit
	// clashSym and clashWord are the plain spellings the catalog (or the
	// parent overlay) has too: ambiguous, by symbol and by folded word.
	clashSym, clashWord map[string]*graph.Ambiguity
	// broken says why a unit left out (Lenient) is, by its spellings.
	broken   map[string]string
	problems []error
	maxName  int
	// suggester indexes the plain spellings for suggestions, built on
	// the first unknown name (SuggestIndex).
	suggester     *suggest.Index
	suggesterOnce sync.Once

	// What a later compilation reuses (Account.Previous): the
	// graph overlaid, whether lenient, the spec of each declared unit
	// and of each own category (a copy), and the account's units each
	// unit depends on, by the plain symbol of their declared unit.
	base    *Core
	lenient bool
	specs   map[*graph.Unit]*spec.Unit
	catSpec map[*graph.Category]*spec.Category
	deps    map[*graph.Unit][]string

	// mine holds the units being compiled; nil once compiled.
	mine map[*graph.Unit]bool
}

// Account says what an overlay is compiled over, and how.
type Account struct {
	// Base is the core of the graph overlaid (a catalog's, or an
	// account's for the units of one request), Parent that graph's
	// overlay (nil for a catalog's), Root the catalog's core.
	Base, Root *Core
	Parent     *Overlay
	// Find finds a name in the graph overlaid: a unit, or the names it
	// is ambiguous between.
	Find func(name string) (*graph.Unit, *graph.Ambiguity)
	// Version identifies the definitions.
	Version string
	// Lenient keeps what compiles and leaves out what does not, with
	// its problems; a name the graph overlaid has too is ambiguous
	// instead of refused.
	Lenient bool
	Limits  Limits
	// Previous is the account's overlay compiled before over the same
	// Base, or nil: what did not change is taken from it as it is.
	Previous *Overlay
}

// Limits bound what one account may define.
type Limits struct {
	Units      int // spec.DefaultMaxAccountUnits
	Categories int // spec.DefaultMaxAccountCategories
}

// NewOverlay returns the empty overlay of an account's units and
// categories, defs, to be compiled by Compile; or, when defs declare
// more than categories and units or more units than a.Limits allow, a
// *fault.SpecError.
func NewOverlay(a Account, defs *spec.Catalog) (*Overlay, error) {
	if msg := onlyUnits(defs); msg != "" {
		return nil, &fault.SpecError{Subject: "account units", Message: msg}
	}
	units, _ := spec.CountUnits(defs.Categories)
	if units > a.Limits.Units {
		return nil, &fault.SpecError{Subject: "account units", Message: fmt.Sprintf("define %d units, prefixed ones included; an account may have at most %d", units, a.Limits.Units)}
	}
	return &Overlay{
		parent: a.Parent, version: a.Version, base: a.Base, root: a.Root, lenient: a.Lenient,
		specs: make(map[*graph.Unit]*spec.Unit, units), catSpec: map[*graph.Category]*spec.Category{}, deps: make(map[*graph.Unit][]string, units),
		catByID:  map[string]*graph.Category{},
		bySymbol: make(map[string]*graph.Unit, 2*units), byWord: make(map[string]*graph.Unit, 3*units),
		clashSym: map[string]*graph.Ambiguity{}, clashWord: map[string]*graph.Ambiguity{},
		broken: map[string]string{},
		mine:   map[*graph.Unit]bool{},
	}, nil
}

// Compile compiles the account's units and categories, defs, into ov
// and t, the core of the account's graph (a copy of a.Base), whose Names
// opt reads. a and defs are those NewOverlay was given: ov keeps no
// reference to a.Previous or a.Find, so that an account's graph does not
// hold the graphs compiled before it. It reports every problem, each a
// *fault.SpecError at its origin, and ok is false when ctx was done
// before it finished.
func (ov *Overlay) Compile(ctx context.Context, t *Core, defs *spec.Catalog, a Account, opt Options) (errs []error, ok bool) {
	b := newBuilder(ctx, t, opt)
	b.ov = ov
	n, _ := spec.CountUnits(defs.Categories) // checked by NewOverlay
	c := &overlayCompiler{b: b, ov: ov, account: a, why: map[*graph.Unit]string{}, reused: make(map[*graph.Unit]bool, n), order: make([]*graph.Unit, 0, n)}
	if p := a.Previous; p != nil && p.base == a.Base && len(p.problems) == 0 &&
		(p.lenient == a.Lenient || len(p.clashSym)+len(p.clashWord) == 0) {
		c.prev = p
	}
	c.compile(*defs)
	ov.problems = b.errs
	ov.mine = nil
	return b.errs, !b.stopped
}

// Parent is the overlay under ov, or nil.
func (ov *Overlay) Parent() *Overlay { return ov.parent }

// Version is Account.Version.
func (ov *Overlay) Version() string { return ov.version }

// Units are the account's compiled units in declaration order (a
// prefixed unit after its unit).
func (ov *Overlay) Units() []*graph.Unit { return ov.units }

// Categories are the account's own categories.
func (ov *Overlay) Categories() []*graph.Category { return ov.categories }

// Category finds one of the account's own categories by its plain id.
func (ov *Overlay) Category(id string) (*graph.Category, bool) {
	c, ok := ov.catByID[id]
	return c, ok
}

// Problems are the problems of the units a lenient overlay left out.
func (ov *Overlay) Problems() []error { return ov.problems }

// overlayCompiler compiles one overlay.
type overlayCompiler struct {
	b       *builder
	ov      *Overlay
	account Account
	// created are the units made, in order; bad those that failed, and
	// why says why, with the first problem of each.
	created []*graph.Unit
	bad     map[*graph.Unit]bool
	why     map[*graph.Unit]string
	// byCategory are the created units of each category; baseSym the
	// declared base of each own category.
	byCategory map[*graph.Category][]*graph.Unit
	baseSym    map[*graph.Category]string
	// plain are the symbols of each unit as declared (its symbol, then
	// its further symbols), before "my:" is put before its symbol;
	// ref the unit each definition refers to.
	plain map[*graph.Unit][]string
	ref   map[*graph.Unit]*graph.Unit

	// prev is the overlay compiled before (Account.Previous), or
	// nil; reused are its units taken as they are, order every unit in
	// declaration order, created or reused.
	prev   *Overlay
	reused map[*graph.Unit]bool
	order  []*graph.Unit
	// indexed is how many units had failed when the spellings were last
	// indexed.
	indexed int
}

// failSince marks units as failed when problems were reported since
// mark, and reports whether they were.
func (c *overlayCompiler) failSince(mark int, units ...*graph.Unit) bool {
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
func (c *overlayCompiler) markBad(u *graph.Unit, why string) {
	if c.bad[u] {
		return
	}
	c.b.errorf(c.b.origins[u], unitSubject(c.plain[u][0]), "left out: %s", why)
	c.bad[u] = true
	c.why[u] = why
}

func (c *overlayCompiler) compile(defs spec.Catalog) {
	b, ov := c.b, c.ov
	c.bad, c.byCategory, c.baseSym = map[*graph.Unit]bool{}, map[*graph.Category][]*graph.Unit{}, map[*graph.Category]string{}
	c.plain, c.ref = map[*graph.Unit][]string{}, map[*graph.Unit]*graph.Unit{}
	keep := c.reusable(&defs)
	// Declared categories first: any spec may add units to them.
	declared := 0
	for i := range defs.Categories {
		cs := &defs.Categories[i]
		if !declares(cs) {
			continue
		}
		if declared++; declared > c.account.Limits.Categories {
			b.errorf(cs.Origin, fmt.Sprintf("category %q", cs.ID), "an account may declare at most %d categories", c.account.Limits.Categories)
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
			b.errorf(b.categoryOrigins[cat], fmt.Sprintf("category %q", strings.TrimPrefix(cat.ID, graph.AccountPrefix)), "base unit %q is not one of its units", c.baseSym[cat])
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
func declares(cs *spec.Category) bool {
	return cs.Name != "" || cs.Base != "" || cs.Dimension != nil || cs.Description != "" ||
		cs.Minimum != "" || cs.SIFactor != "" || cs.Preferred || cs.Logarithmic
}

// brokenSpecs records why the units of cs are left out.
func (c *overlayCompiler) brokenSpecs(cs *spec.Category, why string) {
	for _, us := range cs.Units {
		if us.Symbol != "" {
			c.ov.broken[us.Symbol] = why
		}
	}
}

// declare creates one of the account's own categories.
func (c *overlayCompiler) declare(cs *spec.Category) {
	b, ov := c.b, c.ov
	subject := fmt.Sprintf("category %q", cs.ID)
	mark := len(b.errs)
	if msg := spec.CheckCategoryID(cs.ID); msg != "" {
		b.errorf(cs.Origin, subject, "%s", msg)
	}
	if _, dup := ov.catByID[cs.ID]; dup {
		b.errorf(cs.Origin, subject, "declared twice")
	}
	if !c.account.Lenient {
		if _, ok := c.ov.root.ByID[cs.ID]; ok {
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
	cat := &graph.Category{ID: graph.AccountPrefix + cs.ID, Name: cs.Name, Description: cs.Description, Minimum: cs.Minimum, Dim: dimension.Of(cs.Dimension), Coherent: exact.One()}
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
func (c *overlayCompiler) categoryOf(cs *spec.Category) *graph.Category {
	id := cs.ID
	if graph.HasAccountPrefix(id) {
		id = id[len(graph.AccountPrefix):]
	}
	for ov := c.ov; ov != nil; ov = ov.parent {
		if cat, ok := ov.catByID[id]; ok {
			return cat
		}
	}
	if declares(cs) {
		return nil // refused by declare
	}
	if cat, ok := c.ov.root.ByID[cs.ID]; ok {
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
func (c *overlayCompiler) unit(cat *graph.Category, us *spec.Unit) {
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
	tmp := &graph.Category{}
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
func (c *overlayCompiler) checkUnitSpec(us *spec.Unit) {
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
func (c *overlayCompiler) clash(u *graph.Unit, s string, word, report bool) {
	found, amb := c.account.Find(s)
	if found == nil && amb == nil {
		return
	}
	if !c.account.Lenient {
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
			what = "an ambiguous name of the catalog (" + amb.CandidateList() + ")"
		}
		kind := "symbol"
		if word {
			kind = "name"
		}
		c.b.errorf(c.b.origins[u], unitSubject(c.plain[u][0]), "%s %q already names %s: a unit of an account may not shadow it; choose another", kind, s, what)
		return
	}
	var cands []*graph.Unit
	if found != nil {
		cands = append(cands, found)
	} else {
		cands = append(cands, amb.Candidates...)
	}
	a := &graph.Ambiguity{Name: s, Candidates: append(cands, u), Note: "The catalog has added this name since your account defined it; your unit stays " + graph.AccountPrefix + c.plain[u][0]}
	if word {
		c.ov.clashWord[fold.Key(s)] = a
	} else {
		c.ov.clashSym[s] = a
	}
}

// resolve compiles every definition, as Catalog does, but only those of
// the account's units: the catalog's (and an enclosing overlay's) are
// compiled already.
func (c *overlayCompiler) resolve() {
	b := c.b
	const (
		unvisited = iota
		visiting
		done
	)
	state := map[*graph.Unit]int{}
	var visit func(u *graph.Unit) bool
	visit = func(u *graph.Unit) bool {
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
	// What Catalog checks of compiled units.
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
			} else if err := f.CheckInverse(c.b.fast); err != nil {
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

// checkPi refuses, as Catalog does, a unit whose map carries π in a
// category with a unit with an offset or a formula, or the reverse.
func (c *overlayCompiler) checkPi(cat *graph.Category, units []*graph.Unit) {
	if cat.MinimumRat != nil {
		return // π is refused against the minimum
	}
	kind := func(u *graph.Unit) int { // 1: π, 2: offset or formula
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
	var withPi, other *graph.Unit
	all := units
	if !cat.Account() {
		all = append(append([]*graph.Unit(nil), cat.Units...), units...)
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
	c.b.errorf(c.b.origins[culprit], unitSubject(c.plain[culprit][0]), "a factor with pi and an offset or a formula cannot share category %s (%s)", strings.TrimPrefix(cat.ID, graph.AccountPrefix), with.Symbol)
	c.failSince(mark, culprit)
}

// frames sets what conversions across categories need: the coherent
// factor and SI map of every unit, the intervals of scales.
func (c *overlayCompiler) frames() {
	b := c.b
	good := func(units []*graph.Unit) []*graph.Unit {
		var out []*graph.Unit
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
				if i := c.ov.root.ByDimension[cat.Dim]; i != nil {
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
		u.Symbol = graph.AccountPrefix + c.plain[u][0]
		u.Symbols = c.plain[u]
	}
	for _, u := range c.created {
		if c.bad[u] {
			continue
		}
		if r := c.ref[u]; r != nil {
			u.Doc().Definition.Unit = r.Symbol
		}
		for i := range u.Doc().Examples {
			ex := &u.Doc().Examples[i]
			ex.From, ex.To = c.ov.canonical(ex.From), c.ov.canonical(ex.To)
		}
	}
}

// canonical writes an example's unit name with the symbol of the
// account's unit it names, if it names one.
func (ov *Overlay) canonical(name string) string {
	if graph.HasAccountPrefix(name) {
		return graph.AccountPrefix + name[len(graph.AccountPrefix):]
	}
	for o := ov; o != nil; o = o.parent {
		if u := o.Find(name); u != nil {
			return u.Symbol
		}
	}
	return name
}

// examples checks every worked example, as Catalog does.
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
		for j, ex := range u.Doc().Examples {
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
			delete(ov.catByID, strings.TrimPrefix(cat.ID, graph.AccountPrefix))
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
			if ov.Find(s) == nil {
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
	c.b.t.MaxName = max(c.b.t.MaxName, len(graph.AccountPrefix)+ov.maxName)
}

// SuggestIndex returns the index of the plain spellings of the units,
// building it on first use: most accounts' graphs are compiled and serve
// long before a name is unknown.
func (ov *Overlay) SuggestIndex() *suggest.Index {
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

// Find returns the unit of a plain spelling, or nil.
func (ov *Overlay) Find(name string) *graph.Unit {
	if u, ok := ov.bySymbol[name]; ok {
		return u
	}
	if len(ov.byWord) == 0 {
		return nil
	}
	return ov.byWord[fold.Key(name)]
}

// Clash returns the ambiguity of a plain spelling the catalog has too,
// or nil.
func (ov *Overlay) Clash(name string) *graph.Ambiguity {
	if len(ov.clashSym)+len(ov.clashWord) == 0 {
		return nil
	}
	if a, ok := ov.clashSym[name]; ok {
		return a
	}
	return ov.clashWord[fold.Key(name)]
}

// BrokenWhy says why a unit left out by a lenient overlay is.
func (ov *Overlay) BrokenWhy(name string) (string, bool) {
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
func (ov *Overlay) reference(root *Core, name string) (*graph.Unit, bool) {
	if graph.HasAccountPrefix(name) {
		rest := name[len(graph.AccountPrefix):]
		for o := ov; o != nil; o = o.parent {
			if u := o.Find(rest); u != nil {
				return u, true
			}
		}
		return nil, false
	}
	for o := ov; o != nil; o = o.parent {
		if u := o.Find(name); u != nil {
			return u, true
		}
	}
	if u, ok := root.BySymbol.Get(name); ok {
		return u, true
	}
	u, ok := root.ByWord.Get(fold.Key(name))
	return u, ok
}

// onlyUnits says what, beyond categories and units, spec declares, or "".
func onlyUnits(defs *spec.Catalog) string {
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
