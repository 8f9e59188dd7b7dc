package build

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"sort"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine/dimension"
	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/formula"
	"github.com/unitd/unitd/engine/unitexpr"

	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/internal/fold"
	"github.com/unitd/unitd/engine/internal/graph"
	"github.com/unitd/unitd/engine/internal/parallel"
	"github.com/unitd/unitd/engine/internal/plan"
	"github.com/unitd/unitd/engine/prefix"
	"github.com/unitd/unitd/engine/spec"
)

// Options say what compiling needs besides a spec.
type Options struct {
	// Names reads a name or an expression as a request does, in the
	// graph being compiled: a worked example's units, a bridge's units, a
	// category's base as an expression.
	Names Names
	// Compiler composes the pairs of maps a worked example converts
	// with: the graph's own, which keeps them.
	Compiler *plan.Compiler
	// Fast takes the accelerated ways (the engine's gate); the plain ways
	// compile the same catalog.
	Fast bool
}

// Names is the engine's reading of names, over a Core being compiled.
type Names interface {
	// Lookup finds a unit by name.
	Lookup(name string) (*graph.Unit, error)
	// Resolve resolves a unit's name or a unit expression.
	Resolve(name string) (plan.Side, error)
	// ParseExpressionExcluding parses a unit expression without taking
	// exclude as an operand.
	ParseExpressionExcluding(s string, exclude *graph.Unit) (*unitexpr.Expression, error)
}

// Catalog checks cat as a whole and compiles it into t, replacing what
// t held. It reports every problem it finds, each a
// *fault.SpecError located at its origin; ok is false when ctx was done
// before it finished (the errors then end with ctx's).
func Catalog(ctx context.Context, t *Core, cat *spec.Catalog, opt Options) (errs []error, ok bool) {
	*t = Core{
		Version:     cat.Version,
		ByID:        map[string]*graph.Category{},
		BySymbol:    graph.Names{Map: map[string]*graph.Unit{}},
		ByWord:      graph.Names{Map: map[string]*graph.Unit{}},
		Ambiguous:   map[string]*graph.Ambiguity{},
		ByDimension: map[dimension.Vector]*graph.Category{},
		Bridges:     map[graph.CategoryPair]*graph.Bridge{},
		Bridged:     map[graph.UnitBridge]*graph.Conversion{},
	}
	b := newBuilder(ctx, t, opt)
	b.categories(cat.Categories)
	if b.stopped || b.cancelled() {
		return b.errs, false
	}
	b.spellings()
	b.ambiguities(cat.Categories)
	for _, s := range t.Spellings {
		t.MaxName = max(t.MaxName, len(s.Text))
	}
	for name := range t.Ambiguous {
		t.MaxName = max(t.MaxName, len(name))
	}
	b.resolve()
	if len(b.errs) == 0 && !b.cancelled() {
		b.frames(cat.Bridges)
	}
	if len(b.errs) == 0 && !b.cancelled() {
		b.compileCodes(cat.Codes, cat.UnclaimedCodes)
	}
	if len(b.errs) == 0 && !b.cancelled() {
		b.checkFormulas()
		b.checkExamples()
	}
	return b.errs, !b.cancelled()
}

func newBuilder(ctx context.Context, t *Core, opt Options) *builder {
	return &builder{
		ctx:             ctx,
		t:               t,
		names:           opt.Names,
		compiler:        opt.Compiler,
		fast:            opt.Fast,
		origins:         map[*graph.Unit]spec.Origin{},
		categoryOrigins: map[*graph.Category]spec.Origin{},
		dropped:         map[*graph.Unit]bool{},
		prefixCodes:     map[*graph.Unit]spec.Origin{},
		defs:            map[*graph.Unit]spec.Definition{},
		specs:           map[*graph.Unit]*spec.Unit{},
		wordOf:          map[string]*graph.Unit{},
		formulas:        map[*graph.Unit]*formula.Pair{},
		exacts:          map[string]exact.Factor{},
	}
}

// cancelled reports whether the build's context is done, recording its
// error once.
func (b *builder) cancelled() bool {
	if b.stopped {
		return true
	}
	if err := b.ctx.Err(); err != nil {
		b.stopped = true
		b.errs = append(b.errs, fmt.Errorf("catalog compilation stopped: %w", err))
		return true
	}
	return false
}

type builder struct {
	ctx             context.Context
	stopped         bool
	t               *Core
	names           Names
	compiler        *plan.Compiler
	fast            bool // the accelerated ways (Options.Fast)
	errs            []error
	origins         map[*graph.Unit]spec.Origin
	categoryOrigins map[*graph.Category]spec.Origin
	dropped         map[*graph.Unit]bool // units whose symbol clashed: not compiled further
	defs            map[*graph.Unit]spec.Definition
	specs           map[*graph.Unit]*spec.Unit
	wordOf          map[string]*graph.Unit
	formulas        map[*graph.Unit]*formula.Pair // each formula unit's pair
	exacts          map[string]exact.Factor       // parsed factors and offsets
	// prefixCodes marks generated units whose codes a prefix set
	// declared (checked like a unit's own), with where.
	prefixCodes map[*graph.Unit]spec.Origin
	// codes are the units' codes as declared or derived, until
	// compileCodes checks them and gives each unit those that hold.
	codes map[*graph.Unit]map[string]string
	// ov is the overlay being compiled (Overlay.Compile), nil for a catalog.
	ov *Overlay
}

func (b *builder) errorf(o spec.Origin, subject, format string, args ...any) {
	b.errs = append(b.errs, &fault.SpecError{Origin: o, Subject: subject, Message: fmt.Sprintf(format, args...)})
}

func unitSubject(symbol string) string { return fmt.Sprintf("unit %q", symbol) }

// categories creates every category and unit, expanding prefixes.
func (b *builder) categories(specs []spec.Category) {
	sorted := make([]*spec.Category, len(specs))
	for i := range specs {
		sorted[i] = &specs[i]
	}
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].ID < sorted[j].ID })
	n, names := spec.CountUnits(specs)
	switch {
	case n > MaxUnits:
		b.errorf(spec.Origin{}, "catalog", "compiles %d units, prefixed ones included; at most %d are compiled", n, MaxUnits)
		b.stopped = true
		return
	case names > MaxSpellings:
		b.errorf(spec.Origin{}, "catalog", "gives its units %d symbols and names, prefixed ones included; at most %d are indexed", names, MaxSpellings)
		b.stopped = true
		return
	}
	// What is kept by unit is sized for every unit at once.
	if len(b.origins) == 0 && len(b.t.Units) == 0 {
		b.origins, b.defs, b.specs = make(map[*graph.Unit]spec.Origin, n), make(map[*graph.Unit]spec.Definition, n), make(map[*graph.Unit]*spec.Unit, n)
		if b.codes == nil {
			b.codes = make(map[*graph.Unit]map[string]string, n)
		}
		b.t.Units = make([]*graph.Unit, 0, n)
	}
	for _, cs := range sorted {
		if b.cancelled() {
			return
		}
		subject := fmt.Sprintf("category %q", cs.ID)
		if cs.ID == "" {
			b.errorf(cs.Origin, "category", "missing id")
			continue
		}
		if _, dup := b.t.ByID[cs.ID]; dup {
			b.errorf(cs.Origin, subject, "declared twice")
			continue
		}
		if cs.Name == "" {
			b.errorf(cs.Origin, subject, "missing name")
		}
		for d := range cs.Dimension {
			if dimension.Index(d) < 0 {
				b.errorf(cs.Origin, subject, "unknown base dimension %q (known: M L T I Θ N J A D Z)", d)
			}
		}
		c := &graph.Category{ID: cs.ID, Name: cs.Name, Description: cs.Description, Minimum: cs.Minimum,
			Preferred: cs.Preferred, Logarithmic: cs.Logarithmic, Dim: dimension.Of(cs.Dimension)}
		c.Dimensionless = c.Dim.IsZero()
		if cs.Logarithmic && cs.Preferred {
			b.errorf(cs.Origin, subject, "a logarithmic category cannot be preferred: unit expressions never convert into it")
		}
		b.categoryOrigins[c] = cs.Origin
		if cs.SIFactor != "" {
			f, err := exact.ParseFactor(cs.SIFactor)
			switch {
			case err != nil:
				b.errorf(cs.Origin, subject, "si_factor: %v", err)
			case f.R.Sign() <= 0:
				b.errorf(cs.Origin, subject, "si_factor must be positive, not %s", cs.SIFactor)
			default:
				c.SIFactor = &f
			}
		}
		if cs.Minimum != "" {
			m, err := exact.ParseFactor(cs.Minimum)
			switch {
			case err != nil:
				b.errorf(cs.Origin, subject, "minimum: %v", err)
			case m.K != 0:
				b.errorf(cs.Origin, subject, "minimum: %s involves pi, which no decimal can state exactly", cs.Minimum)
			default:
				c.MinimumRat = m.R
			}
		}
		b.t.ByID[c.ID] = c
		b.t.Categories = append(b.t.Categories, c)
		for i := range cs.Units {
			b.unit(c, &cs.Units[i])
		}
		for _, u := range c.Units {
			if u.Symbol == cs.Base && c.Base == nil {
				c.Base = u
			}
		}
		switch {
		case cs.Base == "":
			b.errorf(cs.Origin, subject, "missing base unit")
		case c.Base == nil:
			b.errorf(cs.Origin, subject, "base unit %q is not one of its units", cs.Base)
		}
		b.t.Units = append(b.t.Units, c.Units...)
	}
}

// unit adds one declared unit and the units its prefixes generate.
func (b *builder) unit(c *graph.Category, us *spec.Unit) {
	if us.Symbol == "" {
		b.errorf(us.Origin, "unit", "missing symbol")
		return
	}
	for _, missing := range [...]struct{ field, value string }{
		{"name", us.Name}, {"plural", us.Plural}, {"system", us.System}, {"source", us.Source},
	} {
		if strings.TrimSpace(missing.value) == "" {
			b.errorf(us.Origin, unitSubject(us.Symbol), "missing %s", missing.field)
		}
	}
	u := &graph.Unit{
		Symbol: us.Symbol, Name: us.Name, Plural: us.Plural,
		Aliases: us.Aliases, Symbols: us.Symbols,
		Category: c, System: us.System, Exact: us.Exact,
	}
	doc := graph.Doc{Description: us.Description, Source: us.Source, Definition: definitionOf(us.Definition)}
	if len(us.Examples) > 0 {
		doc.Examples = make([]graph.Example, 0, len(us.Examples))
	}
	for _, ex := range us.Examples {
		from := ex.From
		if from == "" {
			from = us.Symbol
		}
		doc.Examples = append(doc.Examples, graph.Example{Value: ex.Value, From: from, To: ex.To, Result: ex.Result, Approx: ex.Approx})
	}
	u.SetDoc(doc)
	b.setCodes(u, us.Codes) // the spec's own map: compileCodes copies it before it drops a code
	b.add(c, u, us.Origin, us.Definition, us)
	if us.Prefixes == nil {
		return
	}
	b.prefixed(c, u, us)
}

// setCodes records the codes a unit declares or derives, none when m is
// empty.
func (b *builder) setCodes(u *graph.Unit, m map[string]string) {
	if len(m) == 0 {
		return
	}
	if b.codes == nil {
		b.codes = map[*graph.Unit]map[string]string{}
	}
	b.codes[u] = m
}

func (b *builder) add(c *graph.Category, u *graph.Unit, o spec.Origin, def spec.Definition, us *spec.Unit) {
	c.Units = append(c.Units, u)
	b.origins[u] = o
	b.defs[u] = def
	b.specs[u] = us
}

func definitionOf(d spec.Definition) graph.Definition {
	def := graph.Definition{Unit: d.Unit, Factor: d.Factor, Offset: d.Offset, To: d.To, From: d.From}
	switch {
	case d.To != "" || d.From != "":
		def.Kind = "formula"
	case d.Offset != "":
		def.Kind = "affine"
	case d.Factor != "" || d.Unit != "":
		def.Kind = "linear"
		if def.Factor == "" {
			def.Factor = "1"
		}
	default:
		def.Kind = "base"
	}
	return def
}

// prefixed generates the prefixed forms of u.
func (b *builder) prefixed(c *graph.Category, u *graph.Unit, us *spec.Unit) {
	ps := us.Prefixes
	set, ok := prefix.Sets[ps.Set]
	if !ok {
		b.errorf(ps.Origin, unitSubject(us.Symbol), "unknown prefix set %q (known: si, binary)", ps.Set)
		return
	}
	if len(ps.Only) > 0 && len(ps.Except) > 0 {
		b.errorf(ps.Origin, unitSubject(us.Symbol), "prefixes: use only or except, not both")
		return
	}
	listed := map[string]bool{}
	for _, s := range append(append([]string{}, ps.Only...), ps.Except...) {
		if !prefix.Known(ps.Set, s) {
			b.errorf(ps.Origin, unitSubject(us.Symbol), "prefix %q is not in the %s set", s, ps.Set)
		}
		listed[s] = true
	}
	for system, m := range ps.Codes {
		for s := range m {
			if !prefix.Known(ps.Set, s) {
				b.errorf(ps.Origin, unitSubject(us.Symbol), "prefixes codes %s: prefix %q is not in the %s set", system, s, ps.Set)
			}
		}
	}
	for _, p := range set {
		if len(ps.Only) > 0 && !listed[p.Symbol] || len(ps.Except) > 0 && listed[p.Symbol] {
			continue
		}
		factor := p.Factor()
		pu := &graph.Unit{
			Symbol:   p.Symbol + u.Symbol,
			Name:     p.Name + u.Name,
			Plural:   p.Name + u.Plural,
			Category: c, System: u.System,
			Exact:    u.Exact,
			Prefixed: u,
		}
		pu.SetDoc(graph.Doc{
			Source:     u.Doc().Source + "; prefix " + p.Name + ": " + prefix.Sources[ps.Set],
			Definition: graph.Definition{Kind: "linear", Unit: u.Symbol, Factor: factor},
		})
		pu.Aliases, pu.Symbols = p.Spellings(u.Symbol, u.Symbols, u.Aliases, pu.Symbol)
		codeOf := p.Codes(b.codes[u])
		for system, m := range ps.Codes {
			if code, ok := m[p.Symbol]; ok {
				if codeOf == nil {
					codeOf = map[string]string{}
				}
				codeOf[system] = code
				b.prefixCodes[pu] = ps.Origin
			}
		}
		b.setCodes(pu, codeOf)
		b.add(c, pu, ps.Origin, spec.Definition{Unit: u.Symbol, Factor: factor, Origin: ps.Origin}, nil)
	}
}

// spellings indexes every symbol and word, reporting clashes.
func (b *builder) spellings() {
	// Size the maps and the list for every spelling at once: at most a
	// unit's symbols, and its name, plural and aliases.
	symbols, words := 0, 0
	for _, u := range b.t.Units {
		symbols += 1 + len(u.Symbols)
		words += 2 + len(u.Aliases)
	}
	bySymbol, byWord := make(map[string]*graph.Unit, symbols), make(map[string]*graph.Unit, words)
	b.t.BySymbol, b.t.ByWord = graph.Names{Map: bySymbol}, graph.Names{Map: byWord}
	b.t.Spellings = make([]graph.Spelling, 0, symbols+words)
	for _, u := range b.t.Units {
		for i := -1; i < len(u.Symbols); i++ {
			s := u.Symbol
			if i >= 0 {
				s = u.Symbols[i]
			}
			if s == "" || strings.TrimSpace(s) != s {
				b.errorf(b.origins[u], unitSubject(u.Symbol), "symbol %q is empty or has surrounding white space", s)
				continue
			}
			if other, dup := bySymbol[s]; dup && other != u {
				b.errorf(b.origins[u], unitSubject(u.Symbol), "symbol %q is already used by unit %q (%s)", s, other.Symbol, describeOrigin(other, b.origins[other]))
				if s == u.Symbol {
					b.dropped[u] = true
				}
				continue
			}
			bySymbol[s] = u
			b.t.Spellings = append(b.t.Spellings, graph.Spelling{Text: s, Unit: u})
		}
	}
	for _, u := range b.t.Units {
		for i := -2; i < len(u.Aliases); i++ {
			var w string
			switch i {
			case -2:
				w = u.Name
			case -1:
				w = u.Plural
			default:
				w = u.Aliases[i]
			}
			key := fold.Key(w)
			if key == "" {
				continue
			}
			other, seen := byWord[key]
			if seen && other != u {
				b.errorf(b.origins[u], unitSubject(u.Symbol), "name %q is already used by unit %q (%s); word names are compared case-insensitively", w, other.Symbol, b.origins[other])
				continue
			}
			if other, clash := bySymbol[w]; clash && other != u {
				b.errorf(b.origins[u], unitSubject(u.Symbol), "name %q is the symbol of unit %q (%s)", w, other.Symbol, b.origins[other])
				continue
			}
			if !seen {
				b.t.Spellings = append(b.t.Spellings, graph.Spelling{Text: w, Unit: u})
				byWord[key] = u
			}
		}
	}
}

// ambiguities records names declared ambiguous.
func (b *builder) ambiguities(specs []spec.Category) {
	for _, cs := range specs {
		for _, as := range cs.Ambiguous {
			subject := fmt.Sprintf("ambiguous name %q", as.Name)
			key := fold.Key(as.Name)
			if key == "" {
				b.errorf(as.Origin, "ambiguous name", "missing name")
				continue
			}
			if _, dup := b.t.Ambiguous[key]; dup {
				b.errorf(as.Origin, subject, "declared twice")
				continue
			}
			if u, ok := b.t.ByWord.Get(key); ok {
				b.errorf(as.Origin, subject, "is also a name of unit %q (%s); an ambiguous name must not be an alias", u.Symbol, b.origins[u])
			}
			if u, ok := b.t.BySymbol.Get(as.Name); ok {
				b.errorf(as.Origin, subject, "is the symbol of unit %q; symbols keep their one meaning", u.Symbol)
			}
			if len(as.Candidates) < 2 {
				b.errorf(as.Origin, subject, "needs at least two candidates")
			}
			a := &graph.Ambiguity{Name: as.Name, Note: as.Note}
			for _, c := range as.Candidates {
				u, ok := b.t.BySymbol.Get(c)
				if !ok {
					b.errorf(as.Origin, subject, "candidate %q is not a unit symbol", c)
					continue
				}
				a.Candidates = append(a.Candidates, u)
			}
			b.t.Ambiguous[key] = a
		}
	}
}

// resolve reduces every unit to its map onto the category's base unit.
func (b *builder) resolve() {
	const (
		unvisited = iota
		visiting
		done
	)
	state := make(map[*graph.Unit]int, len(b.t.Units))
	failed := map[*graph.Unit]bool{}
	var visit func(u *graph.Unit) bool
	visit = func(u *graph.Unit) bool {
		switch state[u] {
		case done:
			return !failed[u]
		case visiting:
			b.errorf(b.defs[u].Origin, unitSubject(u.Symbol), "definition refers back to itself through a cycle")
			failed[u] = true
			return false
		}
		state[u] = visiting
		ok := !b.dropped[u] && u.Category.Base != nil && b.define(u, visit)
		state[u] = done
		if !ok {
			failed[u] = true
		}
		return ok
	}
	for i, u := range b.t.Units {
		if i%64 == 0 && b.cancelled() {
			return
		}
		visit(u)
	}
	for _, c := range b.t.Categories {
		b.checkPi(c, failed)
		if c.MinimumRat == nil {
			continue
		}
		for _, u := range c.Units {
			if !failed[u] {
				b.setMinimum(u)
			}
		}
	}
}

// setMinimum bounds the values of a compiled unit of a category with a
// minimum (absolute zero), or reports why it cannot.
func (b *builder) setMinimum(u *graph.Unit) {
	c := u.Category
	bd, err := graph.NewBound(c.MinimumRat, u.Conv.Map)
	switch {
	case errors.Is(err, exact.ErrPiInside):
		b.errorf(b.origins[u], unitSubject(u.Symbol), "a factor with pi cannot be checked against the minimum %s of %s exactly", c.Minimum, c.ID)
	case err != nil:
		b.errorf(b.origins[u], unitSubject(u.Symbol), "the minimum %s of %s cannot be enforced exactly in this unit: %v", c.Minimum, c.ID, err)
	case bd != nil:
		u.Conv.Bound = bd
	}
}

// checkPi refuses a category that has both a unit whose map carries π and
// a unit with an offset or a formula: a conversion between the two would
// apply the offset or formula to a multiple of π, which no exact map can
// state.
func (b *builder) checkPi(c *graph.Category, failed map[*graph.Unit]bool) {
	if c.MinimumRat != nil {
		return // a unit with pi is refused against the minimum
	}
	var withPi, other *graph.Unit
	for _, u := range c.Units {
		cv := &u.Conv
		if failed[u] || cv.Map == nil && cv.Post == nil {
			continue
		}
		switch {
		case cv.Map != nil && cv.Map.K() != 0 || cv.Post != nil && cv.Post.K() != 0:
			withPi = u
		case cv.FormulaUnit || !cv.Map.IsLinear():
			other = u
		}
	}
	if withPi != nil && other != nil {
		b.errorf(b.origins[withPi], unitSubject(withPi.Symbol), "a factor with pi cannot share category %s with %s, which has an offset or a formula", c.ID, other.Symbol)
	}
}

// define computes u.Conv, visiting the unit it refers to first.
func (b *builder) define(u *graph.Unit, visit func(*graph.Unit) bool) bool {
	def := b.defs[u]
	o := def.Origin
	if o.File == "" {
		o = b.origins[u]
	}
	c := u.Category
	if u.Doc().Definition.Kind == "base" {
		if c.Base != u {
			b.errorf(o, unitSubject(u.Symbol), "missing definition (only the base unit %q has none)", baseSymbol(c))
			return false
		}
		u.Conv = graph.Conversion{Map: exact.Identity(), Exact: u.Exact}
		return true
	}
	if c.Base == u {
		b.errorf(o, unitSubject(u.Symbol), "is the base unit of %s and must not have a definition", c.ID)
		return false
	}
	if def.Unit == "" {
		b.errorf(o, unitSubject(u.Symbol), "definition: missing unit (the unit it is defined relative to)")
		return false
	}
	ref, ok := b.reference(def.Unit)
	if !ok {
		b.errorf(o, unitSubject(u.Symbol), "definition refers to unknown unit %q", def.Unit)
		return false
	}
	if ref.Category != c {
		b.errorf(o, unitSubject(u.Symbol), "definition refers to %q of category %s; a definition must stay within category %s", def.Unit, ref.Category.ID, c.ID)
		return false
	}
	if ref == u {
		b.errorf(o, unitSubject(u.Symbol), "definition refers to the unit itself")
		return false
	}
	if !visit(ref) {
		return false
	}
	if u.Doc().Definition.Kind == "formula" {
		return b.defineFormula(u, ref, def, o)
	}
	f, err := b.parseFactor(def.Factor)
	if err != nil {
		b.errorf(o, unitSubject(u.Symbol), "factor: %v", err)
		return false
	}
	if f.R.Sign() <= 0 {
		b.errorf(o, unitSubject(u.Symbol), "factor must be positive, not %s", def.Factor)
		return false
	}
	off := new(big.Rat)
	if def.Offset != "" {
		v, err := b.parseFactor(def.Offset)
		if err != nil {
			b.errorf(o, unitSubject(u.Symbol), "offset: %v", err)
			return false
		}
		if v.K != 0 {
			b.errorf(o, unitSubject(u.Symbol), "offset: %s involves pi; an offset must be a rational number", def.Offset)
			return false
		}
		off = v.R
	}
	if off.Sign() != 0 && f.K != 0 {
		b.errorf(o, unitSubject(u.Symbol), "an offset cannot be combined with a factor involving pi")
		return false
	}
	rc := &ref.Conv
	if b.fast && off.Sign() == 0 && !rc.Transcendental() {
		// A factor onto a linear map, composed in words when they fit.
		if m, ok := exact.LinearThen(f.R, f.K, rc.Map); ok {
			u.Conv = graph.Conversion{FormulaUnit: rc.FormulaUnit, Exact: u.Exact && rc.Exact, Map: m}
			return true
		}
	}
	own, err := ownMap(f, off, b.fast)
	if err != nil {
		b.errorf(o, unitSubject(u.Symbol), "definition: %v", err)
		return false
	}
	u.Conv = graph.Conversion{FormulaUnit: rc.FormulaUnit, Exact: u.Exact && rc.Exact}
	if rc.Transcendental() {
		// Defined relative to a formula unit: this unit's map runs before
		// the formula.
		if f.K != 0 {
			b.errorf(o, unitSubject(u.Symbol), "a factor with pi cannot feed a formula (%s)", ref.Symbol)
			return false
		}
		u.Conv.Pre, err = own.Then(rc.Pre)
		u.Conv.Formula, u.Conv.Post = rc.Formula, rc.Post
	} else {
		u.Conv.Map, err = own.Then(rc.Map)
	}
	if err != nil {
		b.errorf(o, unitSubject(u.Symbol), "definition: %v", exact.DescribeMapError(err))
		return false
	}
	return true
}

// ownMap is the map x ↦ x·f + off of a definition. Without an offset
// the map is linear, and the accelerated way makes it as exact.Linear
// does, from f in lowest terms, rather than normalising it through
// exact.Affine: the same map, with none of the arithmetic.
func ownMap(f exact.Factor, off *big.Rat, fast bool) (*exact.Map, error) {
	if fast && off.Sign() == 0 {
		return exact.Linear(f.R, f.K)
	}
	return exact.Affine(f.R, off, f.K)
}

// reference finds the unit a definition refers to, by symbol or word;
// in an overlay, the account's own names come first (Overlay.reference).
func (b *builder) reference(name string) (*graph.Unit, bool) {
	if b.ov != nil {
		return b.ov.reference(b.ov.root, name)
	}
	if u, ok := b.t.BySymbol.Get(name); ok {
		return u, true
	}
	u, ok := b.t.ByWord.Get(fold.Key(name))
	return u, ok
}

// parseFactor is exact.ParseFactor remembering what it read: the factors of a
// catalog repeat (every prefix's, "0.3048"), and the maps built from them
// never modify them.
func (b *builder) parseFactor(s string) (exact.Factor, error) {
	if r, ok := b.exacts[s]; ok {
		return r, nil
	}
	r, err := exact.ParseFactor(s)
	if err == nil {
		b.exacts[s] = r
	}
	return r, err
}

// planner plans the conversions of worked examples.
func (b *builder) planner() plan.Planner {
	return plan.Planner{Bridges: b.t.Bridges, Bridged: b.t.Bridged, Compiler: b.compiler}
}

// describeOrigin says where u was declared, and how if it was generated.
func describeOrigin(u *graph.Unit, o spec.Origin) string {
	if u.Prefixed != nil {
		return fmt.Sprintf("prefixed %q, %s", u.Prefixed.Symbol, o)
	}
	return o.String()
}

func baseSymbol(c *graph.Category) string {
	if c.Base == nil {
		return "?"
	}
	return c.Base.Symbol
}

func (b *builder) defineFormula(u, ref *graph.Unit, def spec.Definition, o spec.Origin) bool {
	subject := unitSubject(u.Symbol)
	if def.Factor != "" || def.Offset != "" {
		b.errorf(o, subject, "definition: a formula definition takes to and from, not factor or offset")
		return false
	}
	if def.To == "" || def.From == "" {
		b.errorf(o, subject, "definition: a formula needs both to (into %s) and from (out of %s)", def.Unit, def.Unit)
		return false
	}
	rc := &ref.Conv
	if rc.FormulaUnit {
		b.errorf(o, subject, "formula refers to %q, which is itself defined by a formula; refer to a linear or affine unit", ref.Symbol)
		return false
	}
	if rc.Map.K() != 0 {
		b.errorf(o, subject, "formula refers to %q, whose factor involves pi; refer to a unit without pi", ref.Symbol)
		return false
	}
	compile := formula.Compile
	if b.fast && b.ov == nil {
		compile = formula.CompileRemembering // a catalog's formulas, not an account's
	}
	f, errTo, errFrom := compile(b.ctx, def.To, def.From)
	if errTo != nil {
		b.errorf(o, subject, "formula to: %v", formula.OneLine(errTo))
	}
	if errFrom != nil {
		b.errorf(o, subject, "formula from: %v", formula.OneLine(errFrom))
	}
	if errTo != nil || errFrom != nil {
		return false
	}
	u.Conv = graph.Conversion{FormulaUnit: true, Exact: u.Exact && rc.Exact}
	b.formulas[u] = f
	if f.ToMap != nil {
		// A Möbius map (100 / x): one exact map, like any other unit.
		m, err := f.ToMap.Then(rc.Map)
		if err != nil {
			b.errorf(o, subject, "formula: %v", exact.DescribeMapError(err))
			return false
		}
		u.Conv.Map = m
		return true
	}
	u.Conv.Pre, u.Conv.Formula, u.Conv.Post = exact.Identity(), f, rc.Map
	return true
}

// checkFormulas checks that each formula pair inverts itself
// (formula.Pair.CheckInverse).
func (b *builder) checkFormulas() {
	for i, u := range b.t.Units {
		if i%64 == 0 && b.cancelled() {
			return
		}
		f := b.formulas[u]
		if f == nil {
			continue
		}
		o := b.defs[u].Origin
		if o.File == "" {
			o = b.origins[u]
		}
		if err := f.CheckInverse(b.fast); err != nil {
			b.errorf(o, unitSubject(u.Symbol), "%v", err)
		}
	}
}

// checkExamples converts every worked example and compares the result.
// The units' examples are checked in parallel (parallel.For): the graph is
// compiled by now and only read, and each unit's problems are reported in
// the units' order.
func (b *builder) checkExamples() {
	if b.fast {
		// The examples' pairs share their targets' inverses.
		defer b.compiler.ShareInverses()()
	}
	units := b.t.Units
	found := make([][]error, len(units))
	done := parallel.For(b.ctx, len(units), func(i int) {
		u := units[i]
		us := b.specs[u]
		if us == nil {
			return
		}
		for j, ex := range u.Doc().Examples {
			if err := b.checkExample(u, ex, us.Examples[j].Origin); err != nil {
				found[i] = append(found[i], err)
			}
		}
	})
	for _, errs := range found[:done] {
		b.errs = append(b.errs, errs...)
	}
	if done < len(units) {
		b.cancelled()
	}
}

// checkExample converts one worked example of u, declared at o, and
// returns what is wrong with it, or nil. It only reads the builder and
// the graph.
func (b *builder) checkExample(u *graph.Unit, ex graph.Example, o spec.Origin) error {
	fail := func(format string, args ...any) error {
		subject := fmt.Sprintf("unit %q: example %q", u.Symbol, ex.String())
		return &fault.SpecError{Origin: o, Subject: subject, Message: fmt.Sprintf(format, args...)}
	}
	var v, want apd.Decimal
	err := exact.ParseValue(&v, ex.Value)
	if err != nil {
		return fail("value: %v", err)
	}
	err = exact.ParseValue(&want, ex.Result)
	if err != nil {
		return fail("result: %v", err)
	}
	from, err := b.names.Resolve(ex.From)
	if err != nil {
		return fail("%v", err)
	}
	to, err := b.names.Resolve(ex.To)
	if err != nil {
		return fail("%v", err)
	}
	pl, err := b.planner().Plan(from, to, b.fast)
	if err != nil {
		return fail("%v", err)
	}
	p := exact.MaxPrecision
	if ex.Approx {
		p = int(want.NumDigits())
	}
	var out exact.Decimal
	inexact, err := pl.Run(&out, &v, p, nil, b.fast)
	if err != nil {
		return fail("%v", err)
	}
	gotText, wantText := out.String(), exact.FormatDecimal(&want)
	switch {
	case gotText != wantText && ex.Approx:
		return fail("wrong result: rounded to %d significant digits it is %s %s", p, gotText, pl.Unit)
	case gotText != wantText:
		return fail("wrong result: it is %s %s%s", gotText, pl.Unit, map[bool]string{true: " (rounded)", false: ""}[inexact])
	case !ex.Approx && inexact:
		return fail("the result is rounded, not exact: write it with ≈")
	case ex.Approx && !inexact:
		return fail("the result is exact: write it with =")
	}
	return nil
}
