// Package diff compares two versions of a unit catalog and reports
// what the change does to the numbers: categories and units added, removed
// or renamed, spellings that moved to another unit, definitions that
// changed (with the exact old and new values and the relative change of one
// unit in its base unit), exactness and source changes, and names that
// became ambiguous; and in the substance catalog, substances added or
// removed, their values, sources and names changed, atomic weights and
// reference conditions changed. Each change says whether it breaks API
// consumers.
//
// Both versions are loaded with catalog.Load, the loader unitd serve uses;
// the comparison is of the compiled graphs, so a change reaches every unit
// defined through the one that changed.
package diff

import (
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"path"
	"sort"
	"strings"

	"github.com/unitd/unitd/catalog"
	"github.com/unitd/unitd/engine"
)

// Catalog is one loaded version of a catalog.
type Catalog struct {
	// Dir is the catalog's directory: file paths of changes are Dir
	// joined with the file name.
	Dir string
	// Name names the catalog in reports ("main:catalog/data"); Dir when
	// empty.
	Name  string
	Graph *engine.Graph

	units     map[string]engine.Origin // unit symbol → where it is declared
	defs      map[string]engine.Origin // unit symbol → its definition
	cats      map[string]engine.Origin // category ID → its category key
	ambiguous map[string]engine.Origin // folded name → its entry
	// The substance catalog's declarations (substances.go).
	substances map[string]engine.Origin // substance ID → its entry
	elements   map[string]engine.Origin // element symbol → its entry
	conditions map[string]engine.Origin // conditions name → its entry
}

// Load loads the catalog of fsys with catalog.Load. dir names it in reports.
func Load(fsys fs.FS, dir string) (*Catalog, []error) {
	g, errs := catalog.Load(fsys)
	if len(errs) > 0 {
		return nil, errs
	}
	// The positions of declarations, which the graph does not keep.
	spec, errs := catalog.LoadSpec(fsys)
	if len(errs) > 0 {
		return nil, errs
	}
	c := &Catalog{Dir: dir, Graph: g, units: map[string]engine.Origin{}, defs: map[string]engine.Origin{},
		cats: map[string]engine.Origin{}, ambiguous: map[string]engine.Origin{},
		substances: map[string]engine.Origin{}, elements: map[string]engine.Origin{}, conditions: map[string]engine.Origin{}}
	for _, ss := range spec.Substances {
		c.substances[ss.ID] = ss.Origin
	}
	for _, es := range spec.Elements {
		c.elements[es.Symbol] = es.Origin
	}
	for _, cs := range spec.Conditions {
		c.conditions[cs.Name] = cs.Origin
	}
	for _, cs := range spec.Categories {
		c.cats[cs.ID] = cs.Origin
		for _, us := range cs.Units {
			c.units[us.Symbol] = us.Origin
			c.defs[us.Symbol] = us.Definition.Origin
		}
		for _, as := range cs.Ambiguous {
			c.ambiguous[fold(as.Name)] = as.Origin
		}
	}
	return c, nil
}

func (c *Catalog) name() string {
	if c.Name != "" {
		return c.Name
	}
	return c.Dir
}

// Kind names a kind of change.
type Kind string

// The kinds of change, in the order a report lists them within a unit.
const (
	CategoryAdded       Kind = "category added"
	CategoryRemoved     Kind = "category removed"
	DimensionChanged    Kind = "dimension changed"
	BaseChanged         Kind = "base unit changed"
	MinimumChanged      Kind = "minimum changed"
	UnitAdded           Kind = "unit added"
	UnitRemoved         Kind = "unit removed"
	UnitRenamed         Kind = "unit renamed"
	UnitMoved           Kind = "unit moved to another category"
	PrefixedAdded       Kind = "prefixed units added"
	PrefixedRemoved     Kind = "prefixed units removed"
	ConversionChanged   Kind = "definition changed"
	ValueChanged        Kind = "value changed through its reference"
	DefinitionRewritten Kind = "definition rewritten, same value"
	ExactChanged        Kind = "exactness changed"
	SourceChanged       Kind = "source changed"
	NameRemoved         Kind = "name removed"
	NameMoved           Kind = "name moved to another unit"
	NameAdded           Kind = "name added"
	AmbiguousAdded      Kind = "name became ambiguous"
	AmbiguousRemoved    Kind = "name no longer ambiguous"
	AmbiguousChanged    Kind = "ambiguous candidates changed"
)

var kindOrder = map[Kind]int{}

func init() {
	for i, k := range []Kind{CategoryAdded, CategoryRemoved, DimensionChanged, BaseChanged, MinimumChanged,
		UnitAdded, UnitRemoved, UnitRenamed, UnitMoved, PrefixedAdded, PrefixedRemoved, ConversionChanged,
		ValueChanged, DefinitionRewritten, ExactChanged, SourceChanged, NameRemoved, NameMoved, NameAdded,
		AmbiguousAdded, AmbiguousRemoved, AmbiguousChanged} {
		kindOrder[k] = i
	}
}

// Change is one difference between two catalogs.
type Change struct {
	Kind Kind `json:"kind"`
	// Breaking is true when API consumers can notice: a symbol or name
	// that no longer resolves or resolves elsewhere, a changed value, a
	// name that became ambiguous.
	Breaking bool   `json:"breaking"`
	Category string `json:"category,omitempty"`
	// Unit is the unit's symbol (for a rename, the new one).
	Unit string `json:"unit,omitempty"`
	// Name is the spelling concerned by a name change.
	Name string `json:"name,omitempty"`
	// Old and New are the values before and after, as declared.
	Old string `json:"old,omitempty"`
	New string `json:"new,omitempty"`
	// OldValue and NewValue are 1 Unit in Base, before and after;
	// Relative is (new − old) / old, computed exactly and printed as a
	// decimal.
	Base     string `json:"base,omitempty"`
	OldValue string `json:"old_value,omitempty"`
	NewValue string `json:"new_value,omitempty"`
	Relative string `json:"relative_change,omitempty"`
	// Summary says the change in one line.
	Summary string `json:"summary"`
	// File and Line locate the change in the new catalog (for a removal,
	// the category it was removed from), when known.
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
}

// Report is the list of changes from one catalog to another.
type Report struct {
	Old     string   `json:"old"`
	New     string   `json:"new"`
	Changes []Change `json:"changes"`
}

// Breaking counts the changes that break API consumers.
func (r Report) Breaking() int {
	n := 0
	for _, c := range r.Changes {
		if c.Breaking {
			n++
		}
	}
	return n
}

// Compare lists the changes from old to new.
func Compare(old, new *Catalog) Report {
	d := &differ{old: old, new: new, renamed: map[string]string{}, changed: map[string]bool{}}
	d.categories()
	d.units()
	d.names()
	d.ambiguities()
	d.substances()
	d.elements()
	d.conditions()
	sort.SliceStable(d.changes, func(i, j int) bool {
		a, b := d.changes[i], d.changes[j]
		if a.Category != b.Category {
			return a.Category < b.Category
		}
		if a.Unit != b.Unit {
			return a.Unit < b.Unit
		}
		if a.Kind != b.Kind {
			return kindOrder[a.Kind] < kindOrder[b.Kind]
		}
		return a.Name < b.Name
	})
	if d.changes == nil {
		d.changes = []Change{}
	}
	return Report{Old: old.name(), New: new.name(), Changes: d.changes}
}

type differ struct {
	old, new *Catalog
	changes  []Change
	renamed  map[string]string // old symbol → new symbol
	changed  map[string]bool   // units whose conversion changed
}

func (d *differ) add(c Change, at engine.Origin) {
	if at.File != "" {
		c.File = path.Join(d.new.Dir, at.File)
		c.Line = at.Line
	}
	d.changes = append(d.changes, c)
}

func (d *differ) categories() {
	for _, oc := range d.old.Graph.Categories() {
		if _, ok := d.new.Graph.Category(oc.ID); !ok {
			d.add(Change{Kind: CategoryRemoved, Breaking: true, Category: oc.ID,
				Summary: fmt.Sprintf("category %s removed with its %d units", oc.ID, len(oc.Units))}, engine.Origin{})
		}
	}
	for _, nc := range d.new.Graph.Categories() {
		at := d.new.cats[nc.ID]
		oc, ok := d.old.Graph.Category(nc.ID)
		if !ok {
			d.add(Change{Kind: CategoryAdded, Category: nc.ID,
				Summary: fmt.Sprintf("category %s added with %d units", nc.ID, len(nc.Units))}, at)
			continue
		}
		if o, n := oc.DimensionText(), nc.DimensionText(); o != n {
			d.add(Change{Kind: DimensionChanged, Category: nc.ID, Old: o, New: n,
				Summary: fmt.Sprintf("category %s: dimension %s → %s", nc.ID, o, n)}, at)
		}
		if o, n := oc.Base.Symbol, nc.Base.Symbol; o != n {
			d.add(Change{Kind: BaseChanged, Category: nc.ID, Old: o, New: n,
				Summary: fmt.Sprintf("category %s: base unit %s → %s", nc.ID, o, n)}, at)
		}
		if o, n := oc.Minimum, nc.Minimum; o != n {
			d.add(Change{Kind: MinimumChanged, Category: nc.ID, Old: o, New: n,
				Summary: fmt.Sprintf("category %s: minimum %q → %q", nc.ID, o, n)}, at)
		}
	}
}

// unitOrigin is where a unit is declared; a prefixed unit is declared by
// its parent's prefixes.
func (c *Catalog) unitOrigin(u *engine.Unit) engine.Origin {
	for u.Prefixed != nil {
		u = u.Prefixed
	}
	return c.units[u.Symbol]
}

func (c *Catalog) unit(symbol string) *engine.Unit {
	u, err := c.Graph.Lookup(symbol)
	if err != nil || u.Symbol != symbol {
		return nil
	}
	return u
}

func (d *differ) units() {
	var removed, added []*engine.Unit
	for _, u := range d.old.Graph.Units() {
		if d.new.unit(u.Symbol) == nil {
			removed = append(removed, u)
		}
	}
	for _, u := range d.new.Graph.Units() {
		if d.old.unit(u.Symbol) == nil {
			added = append(added, u)
		}
	}
	d.renames(removed, added)

	prefixedRemoved := map[*engine.Unit][]string{}
	for _, u := range removed {
		if _, ok := d.renamed[u.Symbol]; ok {
			continue
		}
		if _, ok := d.new.Graph.Category(u.Category.ID); !ok {
			continue // reported with its category
		}
		if u.Prefixed != nil {
			prefixedRemoved[u.Prefixed] = append(prefixedRemoved[u.Prefixed], u.Symbol)
			continue
		}
		d.add(Change{Kind: UnitRemoved, Breaking: true, Category: u.Category.ID, Unit: u.Symbol, Old: u.Symbol,
			Summary: fmt.Sprintf("%s (%s) removed", u.Symbol, u.Name)}, d.new.cats[u.Category.ID])
	}
	for parent, symbols := range prefixedRemoved {
		d.add(Change{Kind: PrefixedRemoved, Breaking: true, Category: parent.Category.ID, Unit: parent.Symbol,
			Old:     strings.Join(symbols, ", "),
			Summary: fmt.Sprintf("prefixed units of %s removed: %s", parent.Symbol, strings.Join(symbols, ", "))},
			d.newOriginOf(parent))
	}
	renamedTo := map[string]bool{}
	for _, n := range d.renamed {
		renamedTo[n] = true
	}
	prefixedAdded := map[*engine.Unit][]string{}
	for _, u := range added {
		if renamedTo[u.Symbol] {
			continue
		}
		if _, ok := d.old.Graph.Category(u.Category.ID); !ok {
			continue
		}
		if u.Prefixed != nil {
			prefixedAdded[u.Prefixed] = append(prefixedAdded[u.Prefixed], u.Symbol)
			continue
		}
		c := Change{Kind: UnitAdded, Category: u.Category.ID, Unit: u.Symbol, New: u.Symbol,
			Summary: fmt.Sprintf("%s (%s) added", u.Symbol, u.Name)}
		d.value(&c, nil, u)
		if c.NewValue != "" {
			c.Summary += fmt.Sprintf(": 1 %s = %s %s", u.Symbol, c.NewValue, c.Base)
		}
		d.add(c, d.new.unitOrigin(u))
	}
	for parent, symbols := range prefixedAdded {
		d.add(Change{Kind: PrefixedAdded, Category: parent.Category.ID, Unit: parent.Symbol,
			New:     strings.Join(symbols, ", "),
			Summary: fmt.Sprintf("prefixed units of %s added: %s", parent.Symbol, strings.Join(symbols, ", "))},
			d.new.unitOrigin(parent))
	}

	// Units in both: first find every changed conversion, then report, so
	// that a prefixed unit is not reported beside its parent.
	var both [][2]*engine.Unit
	for _, ou := range d.old.Graph.Units() {
		nu := d.new.unit(ou.Symbol)
		if nu == nil {
			continue
		}
		if ou.Category.ID != nu.Category.ID {
			d.add(Change{Kind: UnitMoved, Breaking: true, Category: nu.Category.ID, Unit: nu.Symbol,
				Old: ou.Category.ID, New: nu.Category.ID,
				Summary: fmt.Sprintf("%s moved from category %s to %s", nu.Symbol, ou.Category.ID, nu.Category.ID)},
				d.new.unitOrigin(nu))
			continue
		}
		both = append(both, [2]*engine.Unit{ou, nu})
		if !d.sameConversion(ou, nu) {
			d.changed[nu.Symbol] = true
		}
	}
	for _, p := range both {
		d.unitChanges(p[0], p[1])
	}
	for old, new := range d.renamed {
		ou, nu := d.old.unit(old), d.new.unit(new)
		d.add(Change{Kind: UnitRenamed, Breaking: true, Category: nu.Category.ID, Unit: new, Old: old, New: new,
			Summary: fmt.Sprintf("%s (%s) renamed to %s (%s), same definition", old, ou.Name, new, nu.Name)},
			d.new.unitOrigin(nu))
	}
}

// newOriginOf locates an old unit in the new catalog: its own declaration
// when it still exists, else its category.
func (d *differ) newOriginOf(u *engine.Unit) engine.Origin {
	if nu := d.new.unit(u.Symbol); nu != nil {
		return d.new.unitOrigin(nu)
	}
	return d.new.cats[u.Category.ID]
}

// renames pairs removed and added hand-defined units of one category that
// convert the same: the same unit under a new symbol. A pair with the
// same name is preferred.
func (d *differ) renames(removed, added []*engine.Unit) {
	taken := map[*engine.Unit]bool{}
	for pass := 0; pass < 2; pass++ {
		for _, r := range removed {
			if r.Prefixed != nil || d.renamed[r.Symbol] != "" {
				continue
			}
			for _, a := range added {
				if a.Prefixed != nil || taken[a] || a.Category.ID != r.Category.ID {
					continue
				}
				if pass == 0 && !strings.EqualFold(a.Name, r.Name) {
					continue
				}
				if d.sameConversion(r, a) {
					d.renamed[r.Symbol] = a.Symbol
					taken[a] = true
					break
				}
			}
		}
	}
}

// sameConversion reports whether ou of the old catalog and nu of the new
// one convert the same way.
func (d *differ) sameConversion(ou, nu *engine.Unit) bool {
	od, nd := ou.Doc().Definition, nu.Doc().Definition
	if (od.Kind == "formula") != (nd.Kind == "formula") {
		return false
	}
	if od.Kind == "formula" && (od.To != nd.To || od.From != nd.From) {
		return false
	}
	_, ov := d.oldValue(ou)
	_, nv := d.newValue(nu)
	if ov == nil || nv == nil {
		return ov == nil && nv == nil
	}
	return ov.f.Cmp(nv.f) == 0 && ov.o.Cmp(nv.o) == 0
}

// linearMap is base = x·f + o; for a formula unit, f is the value of 1
// unit and o is the value of 2 units (samples, not a map).
type linearMap struct{ f, o *big.Rat }

// oldValue is the map of an old unit onto its category's old base unit.
func (d *differ) oldValue(u *engine.Unit) (string, *linearMap) {
	return u.Category.Base.Symbol, mapOf(d.old.Graph, u, u.Category.Base)
}

// newValue is the map of a new unit onto the old base unit of its
// category, so that a change of base unit does not show as a change of
// every value; it falls back to the new base unit.
func (d *differ) newValue(u *engine.Unit) (string, *linearMap) {
	ref := u.Category.Base
	if oc, ok := d.old.Graph.Category(u.Category.ID); ok {
		if r := d.new.unit(oc.Base.Symbol); r != nil && r.Category == u.Category {
			ref = r
		}
	}
	return ref.Symbol, mapOf(d.new.Graph, u, ref)
}

// mapOf is the exact map of u onto ref. For formula units it holds the
// converted values of 1 and 2 at full precision (nil if they fail).
func mapOf(g *engine.Graph, u, ref *engine.Unit) *linearMap {
	uf, uo, uok := u.BaseMap()
	rf, ro, rok := ref.BaseMap()
	if uok && rok {
		f := new(big.Rat).Quo(uf, rf)
		o := new(big.Rat).Sub(uo, ro)
		o.Quo(o, rf)
		return &linearMap{f, o}
	}
	sample := func(v string) *big.Rat {
		res, err := g.Convert(engine.Request{Value: v, From: u.Symbol, To: ref.Symbol, Precision: engine.MaxPrecision})
		if err != nil {
			return nil
		}
		r, ok := new(big.Rat).SetString(res.Value)
		if !ok {
			return nil
		}
		return r
	}
	one, two := sample("1"), sample("2")
	if one == nil || two == nil {
		return nil
	}
	return &linearMap{one, two}
}

// value fills in the base values of a change of unit nu (ou, if given, is
// the unit before).
func (d *differ) value(c *Change, ou, nu *engine.Unit) {
	base, nm := d.newValue(nu)
	if nm == nil {
		return
	}
	c.Base = base
	nv := oneOf(nu, nm)
	c.NewValue = decimalText(nv)
	if ou == nil {
		return
	}
	_, om := d.oldValue(ou)
	if om == nil {
		return
	}
	ov := oneOf(ou, om)
	c.OldValue = decimalText(ov)
	if ov.Sign() != 0 {
		rel := new(big.Rat).Sub(nv, ov)
		rel.Quo(rel, ov)
		c.Relative = relativeText(rel)
	}
}

// oneOf is the value of 1 unit under m.
func oneOf(u *engine.Unit, m *linearMap) *big.Rat {
	if u.Doc().Definition.Kind == "formula" {
		return m.f
	}
	return new(big.Rat).Add(m.f, m.o)
}

func (d *differ) unitChanges(ou, nu *engine.Unit) {
	c := Change{Category: nu.Category.ID, Unit: nu.Symbol}
	at := d.new.unitOrigin(nu)
	defAt := at
	if o, ok := d.new.defs[nu.Symbol]; ok && o.Line > 0 {
		defAt = o
	}
	od, nd := ou.Doc(), nu.Doc()
	sameDef := od.Definition == nd.Definition
	if nu.Prefixed != nil && ou.Prefixed != nil {
		// Generated from its parent: what changes is reported there.
		sameDef = true
	}
	switch {
	case d.changed[nu.Symbol] && !sameDef:
		c.Kind, c.Breaking = ConversionChanged, true
		c.Old, c.New = definitionText(od.Definition), definitionText(nd.Definition)
		d.value(&c, ou, nu)
		c.Summary = fmt.Sprintf("%s: definition %s → %s", nu.Symbol, c.Old, c.New)
		d.add(withValues(c), defAt)
	case d.changed[nu.Symbol]:
		if nu.Prefixed != nil && d.changed[nu.Prefixed.Symbol] {
			return // reported with its parent, by the same ratio
		}
		c.Kind, c.Breaking = ValueChanged, true
		c.Old, c.New = definitionText(od.Definition), definitionText(nd.Definition)
		d.value(&c, ou, nu)
		c.Summary = fmt.Sprintf("%s: value changed through %s (its definition %s is unchanged)", nu.Symbol, refOf(nu), c.New)
		d.add(withValues(c), defAt)
	case !sameDef:
		c.Kind = DefinitionRewritten
		c.Old, c.New = definitionText(od.Definition), definitionText(nd.Definition)
		c.Summary = fmt.Sprintf("%s: definition %s → %s, same value", nu.Symbol, c.Old, c.New)
		d.add(c, defAt)
	}
	if nu.Prefixed != nil {
		return // exactness and source are the parent's
	}
	if ou.Exact != nu.Exact {
		c := Change{Kind: ExactChanged, Category: nu.Category.ID, Unit: nu.Symbol,
			Old: fmt.Sprint(ou.Exact), New: fmt.Sprint(nu.Exact),
			Summary: fmt.Sprintf("%s: exact %v → %v", nu.Symbol, ou.Exact, nu.Exact)}
		d.add(c, at)
	}
	if od.Source != nd.Source {
		c := Change{Kind: SourceChanged, Category: nu.Category.ID, Unit: nu.Symbol, Old: od.Source, New: nd.Source,
			Summary: fmt.Sprintf("%s: source %q → %q", nu.Symbol, od.Source, nd.Source)}
		d.add(c, at)
	}
}

func withValues(c Change) Change {
	if c.OldValue != "" && c.NewValue != "" {
		c.Summary += fmt.Sprintf("; 1 %s = %s %s → %s %s", c.Unit, c.OldValue, c.Base, c.NewValue, c.Base)
		if c.Relative != "" {
			c.Summary += " (relative change " + c.Relative + ")"
		}
	}
	return c
}

func refOf(u *engine.Unit) string {
	if u.Doc().Definition.Unit != "" {
		return u.Doc().Definition.Unit
	}
	return u.Category.Base.Symbol
}

// definitionText prints a definition as declared.
func definitionText(def engine.Definition) string {
	var parts []string
	add := func(k, v string) {
		if v != "" {
			parts = append(parts, k+" "+v)
		}
	}
	add("factor", def.Factor)
	add("offset", def.Offset)
	add("to", def.To)
	add("from", def.From)
	add("unit", def.Unit)
	if len(parts) == 0 {
		return "(base unit)"
	}
	return strings.Join(parts, ", ")
}

// spelling is a name a unit is looked up by, other than its symbol.
type spelling struct {
	text string
	kind string // "alias" (word, case-insensitive) or "symbol"
}

// spellings lists u's names once each: words compared case-insensitively.
func spellings(u *engine.Unit) []spelling {
	var out []spelling
	seen := map[string]bool{}
	for _, w := range append([]string{u.Name, u.Plural}, u.Aliases...) {
		if !seen[fold(w)] {
			seen[fold(w)] = true
			out = append(out, spelling{w, "alias"})
		}
	}
	for _, s := range u.Symbols {
		if !seen[s] {
			seen[s] = true
			out = append(out, spelling{s, "symbol"})
		}
	}
	return out
}

// names reports spellings (names, plurals, aliases, further symbols) of
// hand-defined units that were removed, moved or added. Prefixed units'
// spellings follow their parent's and are not listed.
func (d *differ) names() {
	for _, ou := range d.old.Graph.Units() {
		if ou.Prefixed != nil {
			continue
		}
		want := ou.Symbol
		if r, ok := d.renamed[want]; ok {
			want = r
		}
		nu := d.new.unit(want)
		if nu == nil {
			continue // the unit is gone: reported already
		}
		for _, s := range spellings(ou) {
			got, err := d.new.Graph.Lookup(s.text)
			var ee *engine.Error
			switch {
			case errors.As(err, &ee) && ee.Code == engine.CodeAmbiguousUnit:
				// reported as a newly ambiguous name
			case err != nil:
				d.add(Change{Kind: NameRemoved, Breaking: true, Category: nu.Category.ID, Unit: nu.Symbol, Name: s.text, Old: ou.Symbol,
					Summary: fmt.Sprintf("%s %q of %s removed: it no longer resolves", s.kind, s.text, ou.Symbol)},
					d.new.unitOrigin(nu))
			case got.Symbol != want:
				d.add(Change{Kind: NameMoved, Breaking: true, Category: got.Category.ID, Unit: got.Symbol, Name: s.text,
					Old: ou.Symbol, New: got.Symbol,
					Summary: fmt.Sprintf("%s %q moved from %s to %s", s.kind, s.text, ou.Symbol, got.Symbol)},
					d.new.unitOrigin(got))
			}
		}
	}
	renamedFrom := map[string]string{}
	for o, n := range d.renamed {
		renamedFrom[n] = o
	}
	for _, nu := range d.new.Graph.Units() {
		if nu.Prefixed != nil {
			continue
		}
		was := nu.Symbol
		if o, ok := renamedFrom[was]; ok {
			was = o
		}
		if d.old.unit(was) == nil {
			continue // a new unit: its names come with it
		}
		for _, s := range spellings(nu) {
			if _, err := d.old.Graph.Lookup(s.text); err == nil {
				continue // resolved before: a move, reported above
			} else if ee := (*engine.Error)(nil); errors.As(err, &ee) && ee.Code == engine.CodeAmbiguousUnit {
				continue // reported as no longer ambiguous
			}
			d.add(Change{Kind: NameAdded, Category: nu.Category.ID, Unit: nu.Symbol, Name: s.text, New: nu.Symbol,
				Summary: fmt.Sprintf("%s %q added to %s", s.kind, s.text, nu.Symbol)}, d.new.unitOrigin(nu))
		}
	}
}

func (d *differ) ambiguities() {
	type amb struct {
		category   string
		candidates string
	}
	index := func(g *engine.Graph) map[string]amb {
		m := map[string]amb{}
		for _, a := range g.Ambiguities() {
			var cs []string
			for _, c := range a.Candidates {
				cs = append(cs, c.Symbol)
			}
			m[fold(a.Name)] = amb{a.Candidates[0].Category.ID, strings.Join(cs, ", ")}
		}
		return m
	}
	old, new := index(d.old.Graph), index(d.new.Graph)
	for name, o := range old {
		if _, ok := new[name]; !ok {
			d.add(Change{Kind: AmbiguousRemoved, Category: o.category, Name: name, Old: o.candidates,
				Summary: fmt.Sprintf("%q is no longer ambiguous (was %s)", name, o.candidates)}, d.new.cats[o.category])
		}
	}
	for name, n := range new {
		o, ok := old[name]
		at := d.new.ambiguous[name]
		switch {
		case !ok:
			d.add(Change{Kind: AmbiguousAdded, Breaking: true, Category: n.category, Name: name, New: n.candidates,
				Summary: fmt.Sprintf("%q became ambiguous: %s", name, n.candidates)}, at)
		case o.candidates != n.candidates:
			d.add(Change{Kind: AmbiguousChanged, Category: n.category, Name: name, Old: o.candidates, New: n.candidates,
				Summary: fmt.Sprintf("%q: candidates %s → %s", name, o.candidates, n.candidates)}, at)
		}
	}
}

// fold is the case-insensitive key of a word: lower case, white space
// folded, as lookups compare words.
func fold(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

// decimalText prints r exactly when it is a decimal of at most 40
// fractional digits, else to 30 significant digits followed by "…".
func decimalText(r *big.Rat) string {
	den := new(big.Int).Set(r.Denom())
	digits := 0
	for _, p := range []int64{2, 5} {
		n := 0
		for m := new(big.Int); ; n++ {
			q, rem := new(big.Int).QuoRem(den, big.NewInt(p), m)
			if rem.Sign() != 0 {
				break
			}
			den = q
		}
		digits = max(digits, n)
	}
	if den.Cmp(big.NewInt(1)) == 0 && digits <= 40 {
		return r.FloatString(digits)
	}
	f := new(big.Float).SetPrec(256).SetRat(r)
	return f.Text('g', 30) + "…"
}

// relativeText prints a relative change to 7 significant digits.
func relativeText(r *big.Rat) string {
	if r.Sign() == 0 {
		return "0"
	}
	f := new(big.Float).SetPrec(256).SetRat(r)
	s := f.Text('g', 7)
	if r.Sign() > 0 {
		s = "+" + s
	}
	return s
}
