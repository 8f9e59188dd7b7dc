package engine

import (
	"fmt"
	"maps"
	"math/big"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/unitd/unitd/engine/internal/exact"
)

// Unit preferences choose the unit of a conversion to "auto": the unit
// people use for the quantity, for a usage, where they are. The data is
// CLDR's (PreferencesSpec) and the algorithm UTS #35 Part 6, section
// "Unit Preferences":
//
//  1. The quantity is the source unit's: its category, found through its
//     dimension, is the catalog category of the units of CLDR's quantity
//     (length, mass, duration, consumption, …). Where several quantities
//     share a category (duration and year-duration), the first that has
//     the usage is taken.
//  2. The usage is tried as given, then without its last "-part", part by
//     part, then "default". A usage that neither it nor any shortening of
//     it names anywhere in the data is unknown (INVALID_REQUEST).
//  3. The region is the request's, else the locale's (its -u-mu- unit for
//     temperatures, -u-ms- measurement system, -u-rg- region override, its
//     region subtag, else its language's likely region), else 001. The
//     list of preferences is the region's, else that of the region that
//     contains it, up to 001, which every quantity and usage has.
//  4. In the list, the first unit whose threshold (geq, in that unit, or
//     its largest part; 1 when not given) the magnitude of the value
//     reaches is chosen, else the last.

// preferences is the compiled PreferencesSpec.
type preferences struct {
	source, version, licence string
	units                    map[string]*prefUnit // by CLDR identifier
	quantities               []*quantity
	byID                     map[string]*quantity
	byCategory               map[*Category][]*quantity
	// usages holds every usage of the data, and "default".
	usages map[string]bool
	// parent maps a region to the region that contains it; known holds
	// every region of the containment tree.
	parent  map[string]string
	known   map[string]bool
	aliases map[string]string
	likely  map[string]string
	// regionList is every known region, sorted, for messages.
	regionList string
	// locales caches parsed locales (region.go).
	locales  sync.Map // string → *localeTag
	nLocales atomic.Int64
	// choices caches the choices of conversions to Auto (choose.go).
	choices  sync.Map // choiceKey → *choice
	nChoices atomic.Int64
}

// quantity is one of CLDR's quantities with its preferences.
type quantity struct {
	id       string
	category *Category
	usages   map[string]*usage
	order    []string // usage names in data order
	// units holds the catalog units its preferences name (each part of
	// a mixed unit too): a source unit among them is of this quantity
	// rather than of another of its category (a year is a year-duration,
	// a day a duration).
	units map[*Unit]bool
}

type usage struct {
	name     string
	lists    []*prefList
	byRegion map[string]*prefList
}

// substance is what the usage measures when one of its units says so
// (CLDR's milligram-ofglucose-per-deciliter makes blood-glucose a
// measure of glucose), or "": a conversion to Auto that crosses kinds
// (mg/dL to mmol/L) converts through it unless the request names a
// substance of its own.
func (u *usage) substance() string {
	found := ""
	for _, l := range u.lists {
		for _, e := range l.entries {
			switch s := e.unit.substance; {
			case s == "":
			case found == "":
				found = s
			case s != found:
				return "" // two substances: the usage names none
			}
		}
	}
	return found
}

// prefList is the preferences of one quantity, usage and set of regions.
type prefList struct {
	quantity *quantity
	usage    *usage
	regions  []string
	entries  []prefEntry
	units    []PreferenceUnit // entries as the API shows them
	// bySource caches the thresholds in each source unit (choose.go).
	bySource sync.Map // *Unit → *sourceThresholds
	nSource  atomic.Int64
}

// prefEntry is one unit of a list and its threshold.
type prefEntry struct {
	unit *prefUnit
	geq  string // as the data writes it; "" is the implicit 1
	// threshold is geq in the unit (the largest part of a mixed unit),
	// mapped onto the category's base unit.
	threshold exact.Factor
}

// prefUnit is a CLDR unit identifier resolved in the catalog.
type prefUnit struct {
	id        string
	name      string // what it is in the catalog: "cm", "ft+in", "entity/m3"
	substance string
	target    target
	spec      PreferenceUnitSpec
}

// target is what a conversion converts to: one unit (or expression), or a
// mixed unit.
type target struct {
	side  side
	mixed *mixedUnit
}

func (t target) symbol() string {
	if t.mixed != nil {
		return t.mixed.symbol
	}
	return t.side.symbol()
}

// largest is the unit thresholds are written in: the target's unit, or
// the first part of a mixed unit.
func (t target) largest() side {
	if t.mixed != nil {
		return side{unit: t.mixed.parts[0]}
	}
	return t.side
}

func (t target) category() *Category {
	if t.mixed != nil {
		return t.mixed.category
	}
	return t.side.category()
}

// preferences compiles the preference data once the units are built.
func (b *builder) preferences(ps *PreferencesSpec) {
	g := b.g
	p := &preferences{
		source: ps.Source, version: ps.Version, licence: ps.Licence,
		units:      map[string]*prefUnit{},
		byID:       map[string]*quantity{},
		byCategory: map[*Category][]*quantity{},
		usages:     map[string]bool{"default": true},
		parent:     map[string]string{},
		known:      map[string]bool{"001": true},
		aliases:    ps.Aliases,
		likely:     ps.Likely,
	}
	g.prefs = p // mixed units of the lists read the units below
	for _, us := range ps.Units {
		subject := fmt.Sprintf("preference unit %q", us.ID)
		if _, dup := p.units[us.ID]; dup {
			b.errorf(us.Origin, subject, "declared twice")
			continue
		}
		t, err := g.resolveTarget(us.Unit)
		if err != nil {
			b.errorf(us.Origin, subject, "%s", errorText(err))
			continue
		}
		p.units[us.ID] = &prefUnit{id: us.ID, name: t.symbol(), substance: us.Substance, target: t, spec: us}
	}
	for region, inside := range ps.Contains {
		p.known[region] = true
		for _, r := range inside {
			if old, ok := p.parent[r]; ok && old != region {
				b.errorf(ps.Origin, "regions", "region %s is contained in both %s and %s", r, old, region)
			}
			p.parent[r] = region
			p.known[r] = true
		}
	}
	for r := range p.known {
		seen := map[string]bool{}
		for x := r; x != "001"; x = p.parent[x] {
			if seen[x] || (x != "001" && p.parent[x] == "") {
				b.errorf(ps.Origin, "regions", "region %s does not lead up to 001", r)
				break
			}
			seen[x] = true
		}
	}
	for from, to := range ps.Aliases {
		if !p.known[to] {
			b.errorf(ps.Origin, "regions", "alias %s names the unknown region %s", from, to)
		}
	}
	for _, ls := range ps.Lists {
		b.preferenceList(p, ls)
	}
	// The units of the -u-mu- key (choose.go) are the catalog's, where it
	// has them: a catalog without one has no override to it.
	for _, mu := range slices.Sorted(maps.Values(muUnits)) {
		_, _ = p.cldrUnit(g, mu)
	}
	for _, q := range p.quantities {
		subject := fmt.Sprintf("quantity %q", q.id)
		if _, ok := q.usages["default"]; !ok {
			b.errorf(ps.Origin, subject, `has no "default" usage`)
		}
		for _, name := range q.order {
			if q.usages[name].byRegion["001"] == nil {
				b.errorf(q.usages[name].lists[0].origin(ps), subject, "usage %q has no preferences for 001", name)
			}
		}
		if q.category != nil {
			p.byCategory[q.category] = append(p.byCategory[q.category], q)
		}
	}
	// A category reached through a substance (mass concentration of
	// glucose) also has the quantities whose units name it that way, after
	// its own.
	for _, q := range p.quantities {
		for _, name := range q.order {
			for _, l := range q.usages[name].lists {
				for _, e := range l.entries {
					c := e.unit.target.category()
					if e.unit.substance != "" && c != nil && c != q.category && !slices.Contains(p.byCategory[c], q) {
						p.byCategory[c] = append(p.byCategory[c], q)
					}
				}
			}
		}
	}
	regions := make([]string, 0, len(p.known))
	for r := range p.known {
		regions = append(regions, r)
	}
	sort.Strings(regions)
	p.regionList = strings.Join(regions, " ")
}

func (l *prefList) origin(ps *PreferencesSpec) Origin { return ps.Origin }

// cldrUnit is the preference unit of a CLDR unit identifier that the data
// does not map itself: what cldr:<id> names in the catalog, the unit that
// claims it, or else its CLDR definition read through the catalog's units
// (Graph.cldrTarget). The catalog's claims are the one mapping between
// CLDR and the catalog.
func (p *preferences) cldrUnit(g *Graph, id string) (*prefUnit, error) {
	if pu := p.units[id]; pu != nil {
		return pu, nil
	}
	s, err := g.cldrTarget(id)
	if err != nil {
		return nil, err
	}
	pu := &prefUnit{id: id, name: s.symbol(), target: target{side: s}}
	p.units[id] = pu
	return pu, nil
}

// preferenceList compiles one list of the data.
func (b *builder) preferenceList(p *preferences, ls PreferenceListSpec) {
	subject := fmt.Sprintf("preferences %s/%s/%s", ls.Quantity, ls.Usage, strings.Join(ls.Regions, " "))
	if len(ls.Entries) == 0 || len(ls.Regions) == 0 {
		b.errorf(ls.Origin, subject, "needs regions and at least one unit")
		return
	}
	q := p.byID[ls.Quantity]
	if q == nil {
		q = &quantity{id: ls.Quantity, usages: map[string]*usage{}, units: map[*Unit]bool{}}
		p.byID[ls.Quantity] = q
		p.quantities = append(p.quantities, q)
	}
	u := q.usages[ls.Usage]
	if u == nil {
		u = &usage{name: ls.Usage, byRegion: map[string]*prefList{}}
		q.usages[ls.Usage] = u
		q.order = append(q.order, ls.Usage)
		p.usages[ls.Usage] = true
	}
	l := &prefList{quantity: q, usage: u, regions: ls.Regions}
	for _, r := range ls.Regions {
		if !p.known[r] {
			b.errorf(ls.Origin, subject, "unknown region %s", r)
		}
		if u.byRegion[r] != nil {
			b.errorf(ls.Origin, subject, "region %s has two lists (UTS #35: the sets of regions of a usage do not overlap)", r)
		}
		u.byRegion[r] = l
	}
	u.lists = append(u.lists, l)
	for i, es := range ls.Entries {
		pu := p.units[es.Unit]
		if pu == nil && strings.Contains(es.Unit, "-and-") {
			// A mixed unit of CLDR: its parts are mapped.
			m, err := b.g.parseMixed(es.Unit)
			if err != nil {
				b.errorf(ls.Origin, subject, "mixed unit %q: %s", es.Unit, errorText(err))
				continue
			}
			pu = &prefUnit{id: es.Unit, name: m.symbol, target: target{mixed: m}}
			p.units[es.Unit] = pu
		}
		if pu == nil {
			var err error
			if pu, err = p.cldrUnit(b.g, es.Unit); err != nil {
				b.errorf(ls.Origin, subject, "unit %q is not mapped to a catalog unit: %s", es.Unit, errorText(err))
				continue
			}
		}
		c := pu.target.category()
		if pu.substance == "" {
			switch {
			case c == nil:
				b.errorf(ls.Origin, subject, "unit %q (%s) belongs to no catalog category", es.Unit, pu.name)
			case q.category == nil:
				q.category = c
			case q.category != c:
				b.errorf(ls.Origin, subject, "unit %q (%s) is of %s, not of %s like the quantity's other units", es.Unit, pu.name, c.ID, q.category.ID)
			}
		}
		if m := pu.target.mixed; m != nil {
			for _, part := range m.parts {
				q.units[part] = true
			}
		} else if u := pu.target.side.unit; u != nil {
			q.units[u] = true
		}
		e := prefEntry{unit: pu, geq: es.Geq}
		if i < len(ls.Entries)-1 { // the last unit takes whatever is left
			geq := es.Geq
			if geq == "" {
				geq = "1"
			}
			t, err := thresholdOf(pu.target.largest(), geq)
			if err != nil {
				b.errorf(ls.Origin, subject, "threshold of %q: %v", es.Unit, err)
				continue
			}
			e.threshold = t
		}
		l.entries = append(l.entries, e)
	}
	l.units = l.view()
	for i := 1; i+1 < len(l.entries); i++ {
		a, c := l.entries[i-1].threshold, l.entries[i].threshold
		if a.K == c.K && a.R.Cmp(c.R) < 0 {
			b.errorf(ls.Origin, subject, "thresholds are not in descending order at %q (UTS #35: largest first)", l.entries[i].unit.id)
		}
	}
}

// thresholdOf maps geq (a decimal, non-negative) in unit s onto its
// category's base unit, exactly.
func thresholdOf(s side, geq string) (exact.Factor, error) {
	g, ok := new(big.Rat).SetString(geq)
	if !ok || g.Sign() < 0 || exact.CheckSyntax(geq) != nil {
		return exact.Factor{}, fmt.Errorf("%q is not a non-negative decimal", geq)
	}
	if s.unit == nil {
		return exact.Factor{}, fmt.Errorf("%s is not a catalog unit", s.symbol())
	}
	f, o, ok := mapFactor(&s.unit.conv)
	if !ok {
		return exact.Factor{}, fmt.Errorf("%s converts through a formula; thresholds need a linear or affine unit", s.symbol())
	}
	v := new(big.Rat).Mul(g, f.R)
	if o.Sign() != 0 {
		v.Add(v, o)
	}
	return exact.Factor{R: v, K: f.K}, nil
}

// errorText is the message of an engine error, or the error's text.
func errorText(err error) string {
	if e, ok := err.(*Error); ok {
		return e.Message
	}
	return err.Error()
}
