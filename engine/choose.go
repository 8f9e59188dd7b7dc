package engine

import (
	"math/big"
	"slices"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/internal/pi"
)

// Request fields of the unit preferences are bounded before they are
// read.
const maxPreferenceField = 64

// choose picks the target of a conversion of v (in the unit from) to
// Auto, and says why in *pref.
func (g *Graph) choose(from string, v *apd.Decimal, req *Request, pref *Preference) (target, error) {
	p := g.prefs
	if p == nil {
		return target{}, errorf(CodeInvalidRequest, `to "auto" needs unit preferences, and this catalog has none (the shipped catalog has CLDR's in preferences.yaml)`)
	}
	key := choiceKey{from, req.Usage, req.Region, req.Locale}
	var c *choice
	if optimize {
		if x, ok := p.choices.Load(key); ok {
			c = x.(*choice)
		}
	}
	if c == nil {
		var err error
		if c, err = g.decide(from, req); err != nil {
			return target{}, err
		}
		if optimize {
			p.remember(key, c)
		}
	}
	*pref = Preference{
		Quantity: c.q.id, Usage: c.asked, MatchedUsage: c.u.name,
		Region: c.region, RegionFrom: c.how, MatchedRegion: c.matched,
		Units: c.l.units, Source: p.source, substance: c.substance,
	}
	if c.how != "region" && c.how != "default" {
		pref.Locale = req.Locale
	}
	if c.override != nil {
		pref.Override = c.override.id
		pref.Chosen = -1
		return c.override.target, nil
	}
	if c.st != nil {
		if i, reached, ok := c.st.pick(v, len(c.l.entries)); ok {
			pref.Chosen, pref.Reached = i, reached
			return c.l.entries[i].unit.target, nil
		}
	}
	i, reached, err := g.pick(c.s, v, c.l)
	if err != nil {
		return target{}, err
	}
	pref.Chosen, pref.Reached = i, reached
	return c.l.entries[i].unit.target, nil
}

// choice is what a conversion to Auto decides before it looks at the
// value: the source, the quantity, usage, region and list of preferences.
// It depends on the names alone, so it is cached by them (an accelerator:
// choose decides afresh with the gate closed).
type choice struct {
	s        side
	q        *quantity
	u        *usage
	asked    string
	region   string
	how      string
	matched  string
	l        *prefList
	override *prefUnit // a -u-mu- unit of a temperature
	// st are the list's thresholds in the source unit, or nil.
	st *sourceThresholds
	// substance is what the usage measures, or "" (usage.substance).
	substance string
}

type choiceKey struct{ from, usage, region, locale string }

// maxChoices bounds the cache of choices.
const maxChoices = 4096

// remember caches c by key, copying the key's strings: they may be views
// of a request's buffer.
func (p *preferences) remember(key choiceKey, c *choice) {
	if p.nChoices.Add(1) > maxChoices {
		p.choices.Clear()
		p.nChoices.Store(1)
	}
	key = choiceKey{strings.Clone(key.from), strings.Clone(key.usage), strings.Clone(key.region), strings.Clone(key.locale)}
	c.asked = strings.Clone(c.asked)
	p.choices.Store(key, c)
}

// decide makes the choice of a conversion to Auto from the names.
func (g *Graph) decide(from string, req *Request) (*choice, error) {
	p := g.prefs
	s, err := g.resolve(from)
	if err != nil {
		return nil, err
	}
	cat := s.category()
	qs := p.byCategory[cat]
	if len(qs) == 0 {
		what := "the dimension " + s.dim().String()
		if cat != nil {
			what = strings.ToLower(cat.Name)
		}
		return nil, errorf(CodeInvalidRequest, `to "auto" has no unit preferences for %s (%s); CLDR has them for %s`, what, s.symbol(), p.categoryList())
	}
	q, u, asked, err := p.matchUsage(qs, req.Usage, s.unit)
	if err != nil {
		return nil, err
	}
	region, how, mu, err := p.region(req.Region, req.Locale)
	if err != nil {
		return nil, err
	}
	l, matched := u.listFor(region, p)
	c := &choice{s: s, q: q, u: u, asked: asked, region: region, how: how, matched: matched, l: l, substance: u.substance()}
	if mu != "" && q.id == "temperature" {
		if pu := p.units[muUnits[mu]]; pu != nil && pu.target.category() == q.category {
			c.override = pu
		}
	}
	if optimize && s.unit != nil && cat == q.category && len(l.entries) > 1 {
		c.st = l.sourceThresholds(s.unit)
	}
	return c, nil
}

// muUnits maps the values of the -u-mu- key of a locale (UTS #35 Part 1,
// "Measurement unit override") to CLDR units.
var muUnits = map[string]string{"celsius": "celsius", "fahrenhe": "fahrenheit", "kelvin": "kelvin"}

// pick returns the index of the first entry of l whose threshold the
// magnitude of v reaches, else the last.
func (g *Graph) pick(s side, v *apd.Decimal, l *prefList) (int, bool, error) {
	last := len(l.entries) - 1
	if last == 0 {
		return 0, false, nil
	}
	c := s.category()
	if c != l.quantity.category {
		// Only a list of one unit may be reached across a substance.
		return last, false, nil
	}
	if optimize && s.unit != nil {
		if i, reached, ok := l.pickFast(s.unit, v); ok {
			return i, reached, nil
		}
	}
	pe, err := g.pair(s.symbol(), c.Base.Symbol)
	if err != nil {
		return 0, false, err
	}
	val, err := pe.plan.valueAt(v)
	if err != nil {
		var e *Error
		if asEngineError(err, &e) {
			return 0, false, e
		}
		return 0, false, errorf(CodeInvalidRequest, "%s values cannot be compared with the thresholds of the unit preferences: %v", s.symbol(), err)
	}
	N := new(big.Int).Abs(val.Num)
	D := val.Den
	if val.Exp >= 0 {
		N.Mul(N, tenTo(val.Exp))
	} else {
		D = new(big.Int).Mul(D, tenTo(-val.Exp))
	}
	for i := range l.entries[:last] {
		if l.entries[i].reached(N, D, val.K) {
			return i, true, nil
		}
	}
	return last, false, nil
}

// sourceThresholds are a list's thresholds in one source unit, as
// decimals lo <= t <= hi (equal when t terminates), and their negations:
// an accelerator of pick, which then compares the submitted value as it
// is, without mapping it anywhere.
type sourceThresholds struct {
	lo, hi, nlo, nhi []apd.Decimal
	// words holds lo and hi as coefficients and exponents when all of
	// them fit a machine word, for values that do too.
	words []thresholdWords
}

type thresholdWords struct {
	lo, hi       uint64
	loExp, hiExp int
}

// maxSourceThresholds bounds the cache of each list.
const maxSourceThresholds = 512

// pickFast is pick for a linear catalog unit, when the value is clear of
// every threshold's bracket; ok is false otherwise.
func (l *prefList) pickFast(u *Unit, v *apd.Decimal) (int, bool, bool) {
	st := l.sourceThresholds(u)
	if st == nil {
		return 0, false, false
	}
	return st.pick(v, len(l.entries))
}

// pick compares v with the thresholds of a list of n entries.
func (st *sourceThresholds) pick(v *apd.Decimal, n int) (int, bool, bool) {
	if st.words != nil && v.Form == apd.Finite && v.Coeff.IsUint64() {
		x, ex := v.Coeff.Uint64(), int(v.Exponent)
		if x == 0 {
			return n - 1, false, true // below every positive threshold
		}
		for i, w := range st.words {
			// The magnitude of v against [lo, hi].
			if cmpMagnitude(x, ex, w.hi, w.hiExp) >= 0 {
				return i, true, true
			}
			if cmpMagnitude(x, ex, w.lo, w.loExp) >= 0 {
				return 0, false, false // inside the bracket: the exact way decides
			}
		}
		return n - 1, false, true
	}
	for i := range st.lo {
		var reached, below bool
		if v.Negative {
			reached, below = cmpDecimal(v, &st.nhi[i]) <= 0, cmpDecimal(v, &st.nlo[i]) > 0
		} else {
			reached, below = cmpDecimal(v, &st.hi[i]) >= 0, cmpDecimal(v, &st.lo[i]) < 0
		}
		switch {
		case reached:
			return i, true, true
		case !below:
			return 0, false, false // inside the bracket: the exact way decides
		}
	}
	return n - 1, false, true
}

// cmpDecimal is a.Cmp(b) for finite decimals, in machine words when
// both coefficients fit one (apd's Cmp counts digits the slow way).
func cmpDecimal(a, b *apd.Decimal) int {
	if a.Form != apd.Finite || b.Form != apd.Finite || !a.Coeff.IsUint64() || !b.Coeff.IsUint64() {
		return a.Cmp(b)
	}
	x, y := a.Coeff.Uint64(), b.Coeff.Uint64()
	sa, sb := signOf(x, a.Negative), signOf(y, b.Negative)
	switch {
	case sa != sb:
		return cmpInt(sa, sb)
	case sa == 0:
		return 0
	}
	// Same sign, both non-zero: compare the magnitudes, then flip for
	// negatives.
	c := cmpMagnitude(x, int(a.Exponent), y, int(b.Exponent))
	if sa < 0 {
		return -c
	}
	return c
}

func signOf(c uint64, neg bool) int {
	switch {
	case c == 0:
		return 0
	case neg:
		return -1
	}
	return 1
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// cmpMagnitude compares x·10^ex with y·10^ey, x and y non-zero.
func cmpMagnitude(x uint64, ex int, y uint64, ey int) int {
	dx, dy := digitCount(x)+ex, digitCount(y)+ey // the position of the leading digit
	if dx != dy {
		return cmpInt(dx, dy)
	}
	// Same leading position: align the shorter coefficient (at most 20
	// digits each, so a shift stays below 10^20 only when it fits).
	for ex > ey {
		if x > maxUint64/10 {
			return 1 // x·10 overflows, so it exceeds y
		}
		x *= 10
		ex--
	}
	for ey > ex {
		if y > maxUint64/10 {
			return -1
		}
		y *= 10
		ey--
	}
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

const maxUint64 = 1<<64 - 1

// digitCount returns the number of decimal digits of x > 0.
func digitCount(x uint64) int {
	n := 1
	for x >= 10 {
		x /= 10
		n++
	}
	return n
}

// sourceThresholds returns the list's thresholds in u, computing them
// once; nil when u has an offset, a formula or another power of π.
func (l *prefList) sourceThresholds(u *Unit) *sourceThresholds {
	if v, ok := l.bySource.Load(u); ok {
		return v.(*sourceThresholds)
	}
	var st *sourceThresholds
	if f, o, ok := mapFactor(&u.conv); ok && o.Sign() == 0 && f.R.Sign() > 0 {
		st = &sourceThresholds{}
		down := apd.BaseContext.WithPrecision(40)
		down.Rounding = apd.RoundFloor
		up := apd.BaseContext.WithPrecision(40)
		up.Rounding = apd.RoundCeiling
		for _, e := range l.entries[:len(l.entries)-1] {
			if e.threshold.K != f.K {
				st = nil
				break
			}
			t := new(big.Rat).Quo(e.threshold.R, f.R)
			var lo, hi apd.Decimal
			if d, exact := exact.ToDecimal(t); exact {
				lo.Set(&d)
				hi.Set(&d)
			} else {
				var n, q apd.Decimal
				n.Coeff.SetMathBigInt(t.Num())
				q.Coeff.SetMathBigInt(t.Denom())
				if _, err := down.Quo(&lo, &n, &q); err != nil {
					st = nil
					break
				}
				if _, err := up.Quo(&hi, &n, &q); err != nil {
					st = nil
					break
				}
			}
			var nlo, nhi apd.Decimal
			nlo.Neg(&lo)
			nhi.Neg(&hi)
			st.lo, st.hi, st.nlo, st.nhi = append(st.lo, lo), append(st.hi, hi), append(st.nlo, nlo), append(st.nhi, nhi)
		}
	}
	if st != nil {
		st.words = make([]thresholdWords, len(st.lo))
		for i := range st.lo {
			lo, hi := &st.lo[i], &st.hi[i]
			if !lo.Coeff.IsUint64() || !hi.Coeff.IsUint64() || lo.IsZero() {
				st.words = nil
				break
			}
			st.words[i] = thresholdWords{lo.Coeff.Uint64(), hi.Coeff.Uint64(), int(lo.Exponent), int(hi.Exponent)}
		}
	}
	if l.nSource.Add(1) > maxSourceThresholds {
		l.bySource.Clear()
		l.nSource.Store(1)
	}
	l.bySource.Store(u, st)
	return st
}

// reached reports whether N/D·π^k >= the entry's threshold.
func (e *prefEntry) reached(N, D *big.Int, k int) bool {
	if k == e.threshold.K {
		// N/D >= tn/td, all positive: N·td >= tn·D.
		var a, b big.Int
		a.Mul(N, e.threshold.R.Denom())
		b.Mul(e.threshold.R.Num(), D)
		return a.Cmp(&b) >= 0
	}
	return atLeast(new(big.Rat).SetFrac(N, D), k, e.threshold)
}

// atLeast reports whether x·π^k >= t.
func atLeast(x *big.Rat, k int, t exact.Factor) bool {
	if k == t.K {
		return x.Cmp(t.R) >= 0
	}
	if x.Sign() == 0 || t.R.Sign() == 0 {
		return x.Sign() >= t.R.Sign()
	}
	// x·π^(k-t.k) against t.r: π^n is irrational, so the two differ and
	// a fine enough bracket of π decides.
	for digits := 40; ; digits *= 2 {
		lo, w, scale := pi.Bracket(k-t.K, digits)
		den := new(big.Rat).SetInt(tenTo(scale))
		plo := new(big.Rat).Quo(new(big.Rat).SetInt(lo), den)
		phi := new(big.Rat).Quo(new(big.Rat).SetInt(new(big.Int).Add(lo, w)), den)
		if new(big.Rat).Mul(x, plo).Cmp(t.R) >= 0 {
			return true
		}
		if new(big.Rat).Mul(x, phi).Cmp(t.R) < 0 {
			return false
		}
	}
}

func asEngineError(err error, e **Error) bool {
	x, ok := err.(*Error)
	if ok {
		*e = x
	}
	return ok
}

// matchUsage finds the quantity and usage of the preferences for usage
// (UTS #35: as given, then without its last part, part by part, then
// "default"), among the quantities of one category: first those whose
// preferences name the source unit src, then the others.
func (p *preferences) matchUsage(qs []*quantity, asked string, src *Unit) (*quantity, *usage, string, error) {
	if asked == "" || asked == "default" {
		// The common case: no usage.
		for _, q := range qs {
			if q.units[src] {
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
	if len(name) > maxPreferenceField || !p.knownUsage(name) {
		return nil, nil, "", p.unknownUsage(qs, asked)
	}
	first := qs[0]
	for _, q := range qs {
		if q.units[src] {
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
func (p *preferences) knownUsage(name string) bool {
	for n := name; n != ""; n = shorterUsage(n) {
		if p.usages[n] {
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

func (p *preferences) unknownUsage(qs []*quantity, asked string) *Error {
	var names []string
	for _, q := range qs {
		for _, n := range q.order {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	e := errorf(CodeInvalidRequest, "unknown usage %q for %s: its usages are %s", fault.Truncate(asked, 40), strings.ToLower(qs[0].category.Name), quoteList(names))
	e.Details = map[string]string{"usages": strings.Join(names, " ")}
	return e
}

// categoryList names the categories that have preferences.
func (p *preferences) categoryList() string {
	var ids []string
	for c := range p.byCategory {
		ids = append(ids, c.ID)
	}
	slices.Sort(ids)
	return quoteList(ids)
}

// listFor returns the usage's list for region, falling back through the
// regions that contain it up to 001, and the region whose list it is.
func (u *usage) listFor(region string, p *preferences) (*prefList, string) {
	for r := region; r != ""; r = p.parent[r] {
		if l := u.byRegion[r]; l != nil {
			return l, r
		}
		if r == "001" {
			break
		}
	}
	return u.byRegion["001"], "001"
}

// view lists the entries as the API shows them.
func (l *prefList) view() []PreferenceUnit {
	out := make([]PreferenceUnit, len(l.entries))
	for i, e := range l.entries {
		geq := e.geq
		if geq == "" && i < len(l.entries)-1 {
			geq = "1"
		}
		out[i] = PreferenceUnit{Unit: e.unit.name, CLDR: e.unit.id, Geq: geq, Substance: e.unit.substance}
		if geq != "" {
			out[i].GeqUnit = e.unit.target.largest().symbol()
		}
	}
	return out
}

// PreferenceSet is the unit preferences of one quantity and usage: a list
// per set of regions, or, for a region, the one list that applies there.
type PreferenceSet struct {
	// Category is the catalog category of the quantity's units.
	Category string
	Quantity string
	Usage    string
	Lists    []PreferenceList
}

// PreferenceList is the units of one set of regions, largest first.
// MatchedRegion is set when the list was looked up for a region.
type PreferenceList struct {
	Regions       []string
	MatchedRegion string
	Units         []PreferenceUnit
}

// PreferenceInfo describes the unit preferences of a graph.
type PreferenceInfo struct {
	Source, Version, Licence string
	// Region and RegionFrom are the region the lists were looked up
	// for and how it was found (see Preference), when one was asked.
	Region, RegionFrom string
}

// Preferences lists the unit preferences, by quantity and usage in the
// data's order, for the categories given (all when none is). With a region
// or a locale, each set holds the one list that applies there (through the
// containment of regions); else every list. ok is false when the graph has
// no preferences. Unknown regions and malformed locales are
// INVALID_REQUEST.
func (g *Graph) Preferences(category, region, locale string) (info PreferenceInfo, sets []PreferenceSet, ok bool, err error) {
	p := g.prefs
	if p == nil {
		return info, nil, false, nil
	}
	info = PreferenceInfo{Source: p.source, Version: p.version, Licence: p.licence}
	lookup := region != "" || locale != ""
	if lookup {
		if info.Region, info.RegionFrom, _, err = p.region(region, locale); err != nil {
			return info, nil, true, err
		}
	}
	for _, q := range p.quantities {
		if q.category == nil || (category != "" && q.category.ID != category) {
			continue
		}
		for _, name := range q.order {
			u := q.usages[name]
			set := PreferenceSet{Category: q.category.ID, Quantity: q.id, Usage: name}
			if lookup {
				l, matched := u.listFor(info.Region, p)
				set.Lists = []PreferenceList{{Regions: l.regions, MatchedRegion: matched, Units: l.units}}
			} else {
				for _, l := range u.lists {
					set.Lists = append(set.Lists, PreferenceList{Regions: l.regions, Units: l.units})
				}
			}
			sets = append(sets, set)
		}
	}
	return info, sets, true, nil
}
