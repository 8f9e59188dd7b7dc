package prefs

import (
	"hash/maphash"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/internal/exact"
)

// Request is what a conversion to auto asks: the unit it converts from,
// and the usage ("" is "default"), region and locale that choose among
// the preferences.
type Request struct {
	From, Usage, Region, Locale string
}

// Decision is what a conversion to auto decides before it looks at the
// value: the source, the quantity, usage, region and list of preferences.
// It depends on the names alone. It is immutable and shared.
type Decision struct {
	// Source is the unit converted from.
	Source   Source
	q        *quantity
	u        *usage
	asked    string
	region   string
	how      string
	matched  string
	l        *list
	override *unit // a -u-mu- unit of a temperature
	// bounds are the list's thresholds in the source unit, or nil
	// (an accelerator of PickExact: set only with fast).
	bounds []*exact.Bound
	// substance is what the usage measures, or "" (usage.substance);
	// across is set when the source is of another category than the
	// quantity, which it reaches through that substance.
	substance string
	across    bool
	source    string // the data's
}

// Decide makes the decision of a conversion to auto from the names of a
// request, resolving its source through r. With fast set it keeps
// decisions by the names and gives them the thresholds in the source unit
// (Pick): accelerators, which decide as the plain way does.
func (d *Data) Decide(r Resolver, req Request, fast bool) (*Decision, error) {
	var h uint64
	if fast {
		h = d.decisions.hash(&req)
		if c := d.decisions.get(h, &req); c != nil {
			return c, nil
		}
	}
	c, err := d.decide(r, req, fast)
	if err != nil {
		return nil, err
	}
	if fast {
		d.decisions.put(h, req, c)
	}
	return c, nil
}

// decisions keeps decisions by the names of their requests, an
// accelerator (Decide with fast): a set-associative table like the
// engine's pair cache, fixed in size whatever names requests send. A
// seeded hash of the four names picks a set of decisionWays slots; a hit
// is confirmed by comparing the names.
type decisions struct {
	seeds [4]maphash.Seed
	sets  [decisionSets][decisionWays]atomic.Pointer[keptDecision]
}

// decisionSets and decisionWays size the table: 1024 decisions.
const (
	decisionSets = 256 // a power of two
	decisionWays = 4
)

// keptDecision is a decision in the table with the names it was asked by
// (copies: a request's may be views of its buffer).
type keptDecision struct {
	req Request
	d   *Decision
}

func newDecisions() *decisions {
	return &decisions{seeds: [4]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed(), maphash.MakeSeed(), maphash.MakeSeed()}}
}

// hash hashes the four names, each with a seed of its own.
func (c *decisions) hash(req *Request) uint64 {
	return maphash.String(c.seeds[0], req.From) ^ maphash.String(c.seeds[1], req.Usage) ^
		maphash.String(c.seeds[2], req.Region) ^ maphash.String(c.seeds[3], req.Locale)
}

// get returns the decision kept for req, whose hash is h, or nil.
func (c *decisions) get(h uint64, req *Request) *Decision {
	set := &c.sets[h%decisionSets]
	for i := range set {
		if k := set[i].Load(); k != nil && k.req == *req {
			return k.d
		}
	}
	return nil
}

// put keeps d for req in a free slot of its set, or over the slot its
// hash picks. Names longer than a request may send are not kept.
func (c *decisions) put(h uint64, req Request, d *Decision) {
	if len(req.From) > maxKeptName || len(req.Usage) > maxField || len(req.Region) > maxField || len(req.Locale) > maxField {
		return
	}
	k := &keptDecision{req: Request{strings.Clone(req.From), strings.Clone(req.Usage), strings.Clone(req.Region), strings.Clone(req.Locale)}, d: d}
	set := &c.sets[h%decisionSets]
	for i := range set {
		if set[i].CompareAndSwap(nil, k) {
			return
		}
	}
	set[(h/decisionSets)%decisionWays].Store(k)
}

// maxKeptName bounds the source names the table keeps.
const maxKeptName = 256

func (d *Data) decide(r Resolver, req Request, fast bool) (*Decision, error) {
	s, err := r.Source(req.From)
	if err != nil {
		return nil, err
	}
	qs := d.byCategory[s.Category]
	if s.Category == "" || len(qs) == 0 {
		return nil, fault.Errorf(fault.InvalidRequest, `to "auto" has no unit preferences for %s (%s); CLDR has them for %s`, s.Kind, s.Name, d.categoryList())
	}
	q, u, asked, err := d.matchUsage(qs, req.Usage, s)
	if err != nil {
		return nil, err
	}
	region, how, mu, err := d.region(req.Region, req.Locale, fast)
	if err != nil {
		return nil, err
	}
	l, matched := d.listFor(u, region)
	c := &Decision{Source: s, q: q, u: u, asked: strings.Clone(asked), region: region, how: how, matched: matched, l: l,
		substance: u.substance(), across: s.Category != q.category, source: d.source}
	if mu != "" && q.id == "temperature" {
		if pu := d.units[muUnits[mu]]; pu != nil && pu.target.Category == q.category {
			c.override = pu
		}
	}
	if fast && s.Unit != "" && s.Linear && s.Category == q.category && len(l.entries) > 1 {
		c.bounds = l.boundsIn(s)
	}
	return c, nil
}

// muUnits maps the values of the -u-mu- key of a locale (UTS #35 Part 1,
// "Measurement unit override") to CLDR units.
var muUnits = map[string]string{"celsius": "celsius", "fahrenhe": "fahrenheit", "kelvin": "kelvin"}

// Describe writes what was decided into *p, the locale the region came
// from among it; Chosen and Reached are for the caller to set once the
// value decided.
func (c *Decision) Describe(p *Preference, locale string) {
	*p = Preference{
		Quantity: c.q.id, Usage: c.asked, MatchedUsage: c.u.name,
		Region: c.region, RegionFrom: c.how, MatchedRegion: c.matched,
		Units: c.l.view, Source: c.source, substance: c.substance,
	}
	if c.how != "region" && c.how != "default" {
		p.Locale = locale
	}
	if c.override != nil {
		p.Override, p.Chosen = c.override.id, -1
	}
}

// Override returns the unit a locale's -u-mu- key chose for a
// temperature, which wins over the list, or nil.
func (c *Decision) Override() *Target {
	if c.override == nil {
		return nil
	}
	return &c.override.target
}

// Target returns the target of entry i of the list.
func (c *Decision) Target(i int) *Target { return &c.l.entries[i].unit.target }

// Pick chooses the entry for the value v, in the source unit, where it
// can without the value's magnitude in the category's base unit: a list of
// one unit, a source across a substance (which may reach only the last
// unit), or, with the thresholds in the source unit (Decide with fast), a
// value clear of every threshold's bracket. ok is false otherwise, and
// PickExact decides.
func (c *Decision) Pick(v *apd.Decimal) (i int, reached, ok bool) {
	last := len(c.l.entries) - 1
	switch {
	case last == 0:
		return 0, false, true
	case c.across:
		// Only a list of one unit may be reached across a substance.
		return last, false, true
	case c.bounds == nil:
		return 0, false, false
	}
	for i, b := range c.bounds {
		switch b.Reach(v) {
		case 1:
			return i, true, true
		case 0:
			return 0, false, false // inside the bracket: the exact way decides
		}
	}
	return last, false, true
}

// PickExact chooses the entry for a value whose magnitude in the
// category's base unit is m: the first whose threshold m reaches, compared
// exactly (exact.CmpAbs), else the last.
func (c *Decision) PickExact(m *exact.Value) (i int, reached bool) {
	last := len(c.l.entries) - 1
	for i := range c.l.entries[:last] {
		if exact.CmpAbs(m, c.l.entries[i].threshold) >= 0 {
			return i, true
		}
	}
	return last, false
}

// Substance is what the chosen usage measures when its units say so
// (blood-glucose measures glucose), or "".
func (c *Decision) Substance() string { return c.substance }

// maxSourceBounds bounds the thresholds each list keeps by source unit.
const maxSourceBounds = 512

// boundsIn returns the list's thresholds in the source unit s (linear),
// computing them once; nil when a threshold carries another power of π.
func (l *list) boundsIn(s Source) []*exact.Bound {
	if v, ok := l.bySource.Load(s.Unit); ok {
		return v.([]*exact.Bound)
	}
	bs := make([]*exact.Bound, 0, len(l.entries)-1)
	for _, e := range l.entries[:len(l.entries)-1] {
		b, ok := exact.NewBound(e.threshold, s.Factor)
		if !ok {
			bs = nil
			break
		}
		bs = append(bs, b)
	}
	if l.nSource.Add(1) > maxSourceBounds {
		l.bySource.Clear()
		l.nSource.Store(1)
	}
	l.bySource.Store(s.Unit, bs)
	return bs
}

// matchUsage finds the quantity and usage of the preferences for usage
// (UTS #35: as given, then without its last part, part by part, then
// "default"), among the quantities of one category: first those whose
// preferences name the source unit, then the others.
func (d *Data) matchUsage(qs []*quantity, asked string, s Source) (*quantity, *usage, string, error) {
	if asked == "" || asked == "default" {
		// The common case: no usage.
		for _, q := range qs {
			if q.units[s.Unit] {
				return q, q.usages["default"], "default", nil
			}
		}
		return qs[0], qs[0].usages["default"], "default", nil
	}
	if len(qs) == 1 {
		if u := qs[0].usages[asked]; u != nil {
			return qs[0], u, asked, nil // a usage of the category as written
		}
	}
	name := asked
	if hasUpper(name) {
		name = strings.ToLower(name)
	}
	if len(name) > maxField || !d.knownUsage(name) {
		return nil, nil, "", unknownUsage(qs, asked, s.Kind)
	}
	first := qs[0]
	for _, q := range qs {
		if q.units[s.Unit] {
			first = q
			break
		}
	}
	for n := name; n != ""; n = shorterUsage(n) {
		if u := first.usages[n]; u != nil {
			return first, u, name, nil
		}
		for _, q := range qs {
			if u := q.usages[n]; u != nil {
				return q, u, name, nil
			}
		}
	}
	return first, first.usages["default"], name, nil
}

func hasUpper(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 'A' && s[i] <= 'Z' || s[i] >= 0x80 {
			return true
		}
	}
	return false
}

// knownUsage reports whether name, or a shortening of it, is a usage of
// the data.
func (d *Data) knownUsage(name string) bool {
	for n := name; n != ""; n = shorterUsage(n) {
		if d.usages[n] {
			return true
		}
	}
	return false
}

// shorterUsage drops the last "-part" of a usage, or returns "".
func shorterUsage(u string) string {
	i := strings.LastIndexByte(u, '-')
	if i <= 0 {
		return ""
	}
	return u[:i]
}

func unknownUsage(qs []*quantity, asked, kind string) *fault.Error {
	var names []string
	for _, q := range qs {
		for _, n := range q.order {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	e := fault.Errorf(fault.InvalidRequest, "unknown usage %q for %s: its usages are %s (a usage of other quantities falls back to default)", fault.Truncate(asked, 40), kind, strings.Join(names, ", "))
	e.Details = map[string]string{"usages": strings.Join(names, " ")}
	return e
}

// categoryList names the categories that have preferences.
func (d *Data) categoryList() string {
	var ids []string
	for c := range d.byCategory {
		ids = append(ids, c)
	}
	slices.Sort(ids)
	return strings.Join(ids, ", ")
}
