// Package prefs chooses the unit a reader expects (UTS #35 Part 6 unit
// preferences): the unit people use for a quantity, for a usage, where
// they are, from Unicode CLDR's data (Spec). The algorithm is UTS #35's:
//
//  1. The quantity is the source unit's: its catalog category is the
//     category of the units of CLDR's quantity (length, mass, duration,
//     consumption, …). Where several quantities share a category (duration
//     and year-duration), those whose preferences name the source unit come
//     first, then the first that has the usage.
//  2. The usage is tried as given, then without its last "-part", part by
//     part, then "default". A usage the quantity lacks falls back this way
//     (weather on a length is length's default), and the answer says so
//     (Preference.MatchedUsage, Preference.Reason). A usage that neither it
//     nor any shortening of it names anywhere in the data is unknown: it is
//     refused (INVALID_REQUEST) with the quantity's usages.
//  3. The region is the request's, else the locale's (its -u-mu- unit for
//     temperatures, -u-ms- measurement system, -u-rg- region override, its
//     region subtag, else its language's likely region), else 001. The list
//     of preferences is the region's, else that of the nearest region that
//     contains it, up to 001, which every quantity and usage has. A region
//     the data's tree lacks but UN M.49 knows (419, Latin America; EU) falls
//     back through the regions of the tree that contain it, else to 001.
//     Locale tags and region codes are read by package locale/tag, the one
//     parser of them.
//  4. In the list, the first unit whose threshold (geq, in that unit, or its
//     largest part; 1 when not given) the magnitude of the value reaches is
//     chosen, else the last.
//
// The package knows the catalog only through a Resolver, which the engine
// implements: what a CLDR unit converts to (Target) and what a value is
// converted from (Source), with their exact maps onto the category's base
// unit. It compares magnitudes with thresholds through the kernel's exact
// comparisons (engine/internal/exact): exactly, given the magnitude of the
// value in the base unit (Decision.PickExact), or, as an accelerator, with
// the thresholds written as decimals in the source unit (Decision.Pick,
// with fast set) for values clear of them. The engine passes fast from its
// one gate; with it off, decisions are neither cached nor accelerated.
package prefs

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/internal/cache"
	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/locale/tag"
)

// Resolver is what the preferences ask of the catalog of units; the engine
// implements it.
type Resolver interface {
	// Target resolves what a preference converts to: a catalog unit, a
	// unit expression or a mixed unit ("ft+in", or CLDR's identifier).
	Target(name string) (Target, error)
	// Source resolves the unit a value to convert is in.
	Source(name string) (Source, error)
	// CLDR resolves a CLDR unit identifier the data does not map itself
	// (Spec.Units): what cldr:<id> names in the catalog, the unit that
	// claims it. The catalog's claims are the one mapping between CLDR
	// and the catalog.
	CLDR(id string) (Target, error)
}

// Target is a unit, unit expression or mixed unit a preference converts
// to, as the Resolver found it.
type Target struct {
	// Name is its canonical name: "cm", "ft+in", "entity/m3".
	Name string
	// Category is the catalog category of its values, "" for none.
	Category string
	// Units are the catalog units it is made of: the unit, or each part
	// of a mixed unit; none for an expression.
	Units []string
	// Largest is the unit its thresholds are written in: the unit, or
	// the first part of a mixed unit.
	Largest string
	// ToBase maps a value of Largest onto the category's base unit
	// exactly, when Largest is a linear or affine catalog unit; else nil.
	ToBase *exact.Map
	// Value is the engine's own form of the target, handed back as it is.
	Value any
}

// Source is the unit a value to convert is in, as the Resolver found it.
type Source struct {
	// Name is its canonical name ("m", "km*m/m").
	Name string
	// Unit is the catalog unit's symbol, "" for an expression.
	Unit string
	// Category is the catalog category, "" for none; Base is the symbol
	// of that category's base unit.
	Category, Base string
	// Kind names what it measures in messages: "length", or "the
	// dimension L T^-1" for an expression of no category.
	Kind string
	// Factor is the catalog unit's exact factor onto Base when the unit
	// is linear with a positive factor (no offset, no formula): Linear
	// is then set.
	Factor exact.Factor
	Linear bool
}

// Data is the compiled preference data: immutable but for its caches,
// and safe for concurrent use.
type Data struct {
	source, version, licence string
	units                    map[string]*unit // by CLDR identifier
	quantities               []*quantity
	byID                     map[string]*quantity
	byCategory               map[string][]*quantity
	// usages holds every usage of the data, and "default".
	usages map[string]bool
	// parent maps a region to the region that contains it, known holds
	// every region of the containment tree and depth its distance from
	// 001.
	parent  map[string]string
	known   map[string]bool
	depth   map[string]int
	aliases map[string]string
	likely  map[string]string
	// regionList is every known region, sorted, for messages.
	regionList string
	// locales caches parsed locales (region.go), and decisions the
	// decisions of conversions to auto (choose.go): accelerators, used
	// only with fast set.
	locales   *cache.Map[string, tag.Tag] // against the caches' memory budget
	decisions *decisions
}

// quantity is one of CLDR's quantities with its preferences.
type quantity struct {
	id       string
	category string
	usages   map[string]*usage
	order    []string // usage names in data order
	// units holds the catalog units its preferences name (each part of
	// a mixed unit too): a source unit among them is of this quantity
	// rather than of another of its category (a year is a year-duration,
	// a day a duration).
	units map[string]bool
}

type usage struct {
	name     string
	lists    []*list
	byRegion map[string]*list
}

// substance is what the usage measures when one of its units says so
// (CLDR's milligram-ofglucose-per-deciliter makes blood-glucose a
// measure of glucose), or "": a conversion to auto that crosses kinds
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

// list is the preferences of one quantity, usage and set of regions.
type list struct {
	quantity *quantity
	usage    *usage
	regions  []string
	entries  []entry
	view     []Entry // entries as the API shows them
	// bySource caches the thresholds as Bounds in each linear source
	// unit (choose.go): keys are catalog units, so the catalog bounds it.
	bySource sync.Map // unit symbol → []*exact.Bound
	nSource  atomic.Int64
}

// entry is one unit of a list and its threshold.
type entry struct {
	unit *unit
	geq  string // as the data writes it; "" is the implicit 1
	// threshold is geq in the unit (the largest part of a mixed unit),
	// mapped onto the category's base unit.
	threshold exact.Factor
}

// unit is a CLDR unit identifier resolved in the catalog.
type unit struct {
	id        string
	name      string // what it is in the catalog: "cm", "ft+in", "entity/m3"
	substance string
	target    Target
}

// Compile checks the preference data against the catalog (through r) and
// compiles it, reporting every problem it finds, each with its origin.
func Compile(spec *Spec, r Resolver) (*Data, []error) {
	c := &compiler{spec: spec, r: r, d: &Data{
		source: spec.Source, version: spec.Version, licence: spec.Licence,
		units:      map[string]*unit{},
		byID:       map[string]*quantity{},
		byCategory: map[string][]*quantity{},
		usages:     map[string]bool{"default": true},
		parent:     map[string]string{},
		known:      map[string]bool{"001": true},
		depth:      map[string]int{},
		aliases:    spec.Aliases,
		likely:     spec.Likely,
		decisions:  newDecisions(),
		locales:    cache.New[string, tag.Tag](nil),
	}}
	c.units()
	c.regions()
	for _, ls := range spec.Lists {
		c.list(ls)
	}
	// The units of the -u-mu- key (choose.go) are the catalog's, where it
	// has them: a catalog without one has no override to it.
	for _, mu := range slices.Sorted(maps.Values(muUnits)) {
		_, _ = c.cldr(mu)
	}
	c.quantities()
	if len(c.errs) > 0 {
		return nil, c.errs
	}
	return c.d, nil
}

type compiler struct {
	spec *Spec
	r    Resolver
	d    *Data
	errs []error
}

func (c *compiler) errorf(o fault.Origin, subject, format string, args ...any) {
	c.errs = append(c.errs, &fault.SpecError{Origin: o, Subject: subject, Message: fmt.Sprintf(format, args...)})
}

// units resolves the CLDR unit identifiers the data maps.
func (c *compiler) units() {
	for _, us := range c.spec.Units {
		subject := fmt.Sprintf("preference unit %q", us.ID)
		if _, dup := c.d.units[us.ID]; dup {
			c.errorf(us.Origin, subject, "declared twice")
			continue
		}
		t, err := c.r.Target(us.Unit)
		if err != nil {
			c.errorf(us.Origin, subject, "%s", errorText(err))
			continue
		}
		c.d.units[us.ID] = &unit{id: us.ID, name: t.Name, substance: us.Substance, target: t}
	}
}

// regions reads the containment tree, which must lead every region up to
// 001, and the aliases, which must name regions of it.
func (c *compiler) regions() {
	d, ps := c.d, c.spec
	for region, inside := range ps.Contains {
		d.known[region] = true
		for _, r := range inside {
			if old, ok := d.parent[r]; ok && old != region {
				c.errorf(ps.Origin, "regions", "region %s is contained in both %s and %s", r, old, region)
			}
			d.parent[r] = region
			d.known[r] = true
		}
	}
	for r := range d.known {
		seen := map[string]bool{}
		n := 0
		for x := r; x != "001"; x = d.parent[x] {
			if seen[x] || d.parent[x] == "" {
				c.errorf(ps.Origin, "regions", "region %s does not lead up to 001", r)
				break
			}
			seen[x] = true
			n++
		}
		d.depth[r] = n
	}
	for from, to := range ps.Aliases {
		if !d.known[to] {
			c.errorf(ps.Origin, "regions", "alias %s names the unknown region %s", from, to)
		}
	}
	regions := make([]string, 0, len(d.known))
	for r := range d.known {
		regions = append(regions, r)
	}
	sort.Strings(regions)
	d.regionList = strings.Join(regions, " ")
}

// list compiles one list of the data.
func (c *compiler) list(ls ListSpec) {
	d := c.d
	subject := fmt.Sprintf("preferences %s/%s/%s", ls.Quantity, ls.Usage, strings.Join(ls.Regions, " "))
	if len(ls.Entries) == 0 || len(ls.Regions) == 0 {
		c.errorf(ls.Origin, subject, "needs regions and at least one unit")
		return
	}
	q := d.byID[ls.Quantity]
	if q == nil {
		q = &quantity{id: ls.Quantity, usages: map[string]*usage{}, units: map[string]bool{}}
		d.byID[ls.Quantity] = q
		d.quantities = append(d.quantities, q)
	}
	u := q.usages[ls.Usage]
	if u == nil {
		u = &usage{name: ls.Usage, byRegion: map[string]*list{}}
		q.usages[ls.Usage] = u
		q.order = append(q.order, ls.Usage)
		d.usages[ls.Usage] = true
	}
	l := &list{quantity: q, usage: u, regions: ls.Regions}
	for _, r := range ls.Regions {
		if !d.known[r] {
			c.errorf(ls.Origin, subject, "unknown region %s", r)
		}
		if u.byRegion[r] != nil {
			c.errorf(ls.Origin, subject, "region %s has two lists (UTS #35: the sets of regions of a usage do not overlap)", r)
		}
		u.byRegion[r] = l
	}
	u.lists = append(u.lists, l)
	for i, es := range ls.Entries {
		pu := d.units[es.Unit]
		if pu == nil && strings.Contains(es.Unit, "-and-") {
			var err error
			if pu, err = c.mixed(es.Unit); err != nil {
				c.errorf(ls.Origin, subject, "mixed unit %q: %s", es.Unit, errorText(err))
				continue
			}
		}
		if pu == nil {
			var err error
			if pu, err = c.cldr(es.Unit); err != nil {
				c.errorf(ls.Origin, subject, "unit %q is not mapped to a catalog unit: %s", es.Unit, errorText(err))
				continue
			}
		}
		cat := pu.target.Category
		if pu.substance == "" {
			switch {
			case cat == "":
				c.errorf(ls.Origin, subject, "unit %q (%s) belongs to no catalog category", es.Unit, pu.name)
			case q.category == "":
				q.category = cat
			case q.category != cat:
				c.errorf(ls.Origin, subject, "unit %q (%s) is of %s, not of %s like the quantity's other units", es.Unit, pu.name, cat, q.category)
			}
		}
		for _, s := range pu.target.Units {
			q.units[s] = true
		}
		e := entry{unit: pu, geq: es.Geq}
		if i < len(ls.Entries)-1 { // the last unit takes whatever is left
			geq := es.Geq
			if geq == "" {
				geq = "1"
			}
			t, err := threshold(pu.target, geq)
			if err != nil {
				c.errorf(ls.Origin, subject, "threshold of %q: %v", es.Unit, err)
				continue
			}
			e.threshold = t
		}
		l.entries = append(l.entries, e)
	}
	l.view = l.entriesView()
	for i := 1; i+1 < len(l.entries); i++ {
		prev := exact.NewValue(l.entries[i-1].threshold.R, l.entries[i-1].threshold.K)
		if exact.CmpAbs(&prev, l.entries[i].threshold) < 0 {
			c.errorf(ls.Origin, subject, "thresholds are not in descending order at %q (UTS #35: largest first)", l.entries[i].unit.id)
		}
	}
}

// cldr resolves a CLDR unit identifier the data does not map itself,
// through the catalog's claims (Resolver.CLDR), and keeps it.
func (c *compiler) cldr(id string) (*unit, error) {
	if pu := c.d.units[id]; pu != nil {
		return pu, nil
	}
	t, err := c.r.CLDR(id)
	if err != nil {
		return nil, err
	}
	pu := &unit{id: id, name: t.Name, target: t}
	c.d.units[id] = pu
	return pu, nil
}

// mixed resolves one of CLDR's mixed units ("foot-and-inch") through the
// units its parts name in the catalog ("ft+in"), or, where a part names
// none, as the catalog reads the identifier itself.
func (c *compiler) mixed(id string) (*unit, error) {
	parts := strings.Split(id, "-and-")
	name := id
	for i, p := range parts {
		pu, err := c.cldr(p)
		if err != nil || len(pu.target.Units) != 1 {
			parts = nil
			break
		}
		parts[i] = pu.target.Units[0]
	}
	if parts != nil {
		name = strings.Join(parts, "+")
	}
	t, err := c.r.Target(name)
	if err != nil {
		return nil, err
	}
	pu := &unit{id: id, name: t.Name, target: t}
	c.d.units[id] = pu
	return pu, nil
}

// quantities checks that every quantity has a default usage and every
// usage a list for 001, and files the quantities by category.
func (c *compiler) quantities() {
	d := c.d
	for _, q := range d.quantities {
		subject := fmt.Sprintf("quantity %q", q.id)
		if _, ok := q.usages["default"]; !ok {
			c.errorf(c.spec.Origin, subject, `has no "default" usage`)
		}
		for _, name := range q.order {
			if q.usages[name].byRegion["001"] == nil {
				c.errorf(c.spec.Origin, subject, "usage %q has no preferences for 001", name)
			}
		}
		if q.category != "" {
			d.byCategory[q.category] = append(d.byCategory[q.category], q)
		}
	}
	// A category reached through a substance (mass concentration of
	// glucose) also has the quantities whose units name it that way,
	// after its own.
	for _, q := range d.quantities {
		for _, name := range q.order {
			for _, l := range q.usages[name].lists {
				for _, e := range l.entries {
					cat := e.unit.target.Category
					if e.unit.substance != "" && cat != "" && cat != q.category && !slices.Contains(d.byCategory[cat], q) {
						d.byCategory[cat] = append(d.byCategory[cat], q)
					}
				}
			}
		}
	}
}

// threshold maps geq (a non-negative decimal) in the target's largest
// unit onto its category's base unit, exactly.
func threshold(t Target, geq string) (exact.Factor, error) {
	var g apd.Decimal
	if exact.ParseValue(&g, geq) != nil || g.Negative && !g.IsZero() {
		return exact.Factor{}, fmt.Errorf("%q is not a non-negative decimal", geq)
	}
	if len(t.Units) == 0 {
		return exact.Factor{}, fmt.Errorf("%s is not a catalog unit", t.Largest)
	}
	if t.ToBase == nil {
		return exact.Factor{}, fmt.Errorf("%s converts through a formula; thresholds need a linear or affine unit", t.Largest)
	}
	v, err := t.ToBase.At(&g)
	if err != nil {
		return exact.Factor{}, fmt.Errorf("%s: %v", geq, err)
	}
	return exact.Factor{R: v.Rat(), K: v.K}, nil
}

// errorText is the message of an API error, or the error's text.
func errorText(err error) string {
	if e, ok := err.(*fault.Error); ok {
		return e.Message
	}
	return err.Error()
}
