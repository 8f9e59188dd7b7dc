package engine

import (
	"errors"
	"math/big"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/internal/graph"
	"github.com/unitd/unitd/engine/internal/plan"
	"github.com/unitd/unitd/engine/mixed"
	"github.com/unitd/unitd/engine/prefs"
)

// Readable answers
//
// A conversion to Auto chooses its unit from the unit preferences
// (package prefs), and a mixed unit on either side is split or summed by
// package mixed. This file is their orchestration: appendReadable reads
// the value (summing a mixed source), asks prefs for the target or
// resolves it, and converts: through the pair cache to one unit, or to
// the last part of a mixed unit and split from there. The engine resolves
// names for prefs (prefResolver) and gives it the magnitude of a value in
// its category's base unit, exactly, when the thresholds in the source
// unit cannot decide.

// Auto is the target that asks the engine to choose the unit from the
// unit preferences (package prefs).
const Auto = "auto"

// The unit preferences' data and answers (package prefs).
type (
	PreferencesSpec     = prefs.Spec
	PreferenceUnitSpec  = prefs.UnitSpec
	PreferenceListSpec  = prefs.ListSpec
	PreferenceEntrySpec = prefs.EntrySpec
	Preference          = prefs.Preference
	PreferenceUnit      = prefs.Entry
	PreferenceSet       = prefs.Set
	PreferenceList      = prefs.List
	PreferenceInfo      = prefs.Info
)

// preferences compiles the preference data once the units are built.
func (b *extrasBuilder) preferences(ps *PreferencesSpec) {
	p, errs := prefs.Compile(ps, prefResolver{b.g})
	b.errs = append(b.errs, errs...)
	b.x.prefs = p
}

// Preferences lists the unit preferences, by quantity and usage in the
// data's order, for the category given (all when it is ""). With a
// region or a locale, each set holds the one list that applies there
// (through the containment of regions); else every list. ok is false when
// the graph has no preferences. Unknown regions and malformed locales are
// INVALID_REQUEST.
func (g *Graph) Preferences(category, region, locale string) (info PreferenceInfo, sets []PreferenceSet, ok bool, err error) {
	p := g.extras().prefs
	if p == nil {
		return info, nil, false, nil
	}
	info, sets, err = p.Sets(category, region, locale)
	return info, sets, true, err
}

// isReadable reports whether a request needs the readable path: a target
// to choose, or a mixed unit on either side. It is only asked once the
// pair cache has missed, so ordinary conversions never pay for it.
func isReadable(req *Request) bool {
	return req.To == Auto || mixed.IsName(req.To) || mixed.IsName(req.From)
}

// appendReadable converts a request with a mixed source, a mixed target or
// the target Auto. parsed, when not nil, is req.Value already parsed.
func (g *Graph) appendReadable(dst []byte, req *Request, res *Result, p int, parsed *apd.Decimal) ([]byte, error) {
	var v apd.Decimal
	from := req.From
	switch {
	case mixed.IsName(from):
		m, err := g.resolveMixed(from)
		if err != nil {
			return dst, err
		}
		if err := m.Sum(&v, req.Value); err != nil {
			return dst, err
		}
		from = m.parts[len(m.parts)-1].Symbol
	case parsed != nil:
		v.Set(parsed)
	default:
		if err := exact.ParseValue(&v, req.Value); err != nil {
			return dst, err
		}
	}
	if req.To != Auto {
		if mp := g.cachedMixed(from, req.To); mp != nil {
			return dst, g.splitMixed(&v, mp, p, res)
		}
	}
	var t target
	var pref *Preference
	if req.To == Auto {
		// The choice is written into storage res keeps (Result.more),
		// which a caller may reuse: no allocation per request. (Not a
		// field of res itself: a pointer from res into res would move
		// every Result to the heap, auto or not.)
		pref = &res.extra().pref
		var err error
		if t, err = g.choose(from, &v, nil, req, pref); err != nil {
			return dst, err
		}
	} else {
		var err error
		if t, err = g.resolveTarget(req.To); err != nil {
			return dst, err
		}
	}
	if t.mixed == nil {
		props := req.Properties
		if props == nil && pref != nil && pref.Substance() != "" {
			// The chosen unit may be of another kind (mmol/L for mg/dL):
			// it converts through what the usage measures.
			if s := g.catalogSubstance(pref.Substance()); s != nil {
				props = g.extras().own[s]
			}
		}
		out, err := g.convertParsed(dst, &v, from, t.side.Symbol(), p, req.Budget, res, props)
		if err != nil {
			return dst, err
		}
		if pref != nil {
			res.more.preference = pref
		}
		return out, nil
	}
	to := req.To
	if pref != nil {
		to = t.mixed.Symbol
	}
	if err := g.convertMixed(&v, from, to, t.mixed, p, res); err != nil {
		return dst, err
	}
	res.more.preference = pref
	return dst, nil
}

// choose picks the target of a conversion of v (in the unit from) to
// Auto, and says why in *pref: package prefs decides from the names, and
// picks by the value, given its magnitude in the category's base unit
// when the thresholds in the source unit do not decide it. A value given
// as a rational (r, not nil; Request.Exact) is always compared exactly.
func (g *Graph) choose(from string, v *apd.Decimal, r *big.Rat, req *Request, pref *Preference) (target, error) {
	p := g.extras().prefs
	if p == nil {
		return target{}, errorf(CodeInvalidRequest, `to "auto" needs unit preferences, and this catalog has none (the shipped catalog has CLDR's in preferences.yaml)`)
	}
	fast := accelerated()
	c, err := p.Decide(prefResolver{g}, prefs.Request{From: from, Usage: req.Usage, Region: req.Region, Locale: req.Locale}, fast)
	if err != nil {
		return target{}, err
	}
	c.Describe(pref, req.Locale)
	if t := c.Override(); t != nil {
		return t.Value.(target), nil
	}
	var i int
	var reached, ok bool
	if r == nil {
		i, reached, ok = c.Pick(v)
	}
	if !ok {
		pe, err := g.pair(c.Source.Name, c.Source.Base)
		if err != nil {
			return target{}, err
		}
		var m exact.Value
		if r != nil {
			m, err = pe.Plan.ValueAtRat(r)
		} else {
			m, err = pe.Plan.ValueAt(v)
		}
		if err != nil {
			var e *Error
			if errors.As(err, &e) {
				return target{}, e
			}
			return target{}, errorf(CodeInvalidRequest, "%s values cannot be compared with the thresholds of the unit preferences: %v", c.Source.Name, err)
		}
		i, reached = c.PickExact(&m)
	}
	pref.Chosen, pref.Reached = i, reached
	return c.Target(i).Value.(target), nil
}

// prefResolver resolves the names of the unit preferences in the graph
// (prefs.Resolver).
type prefResolver struct{ g *Graph }

func (r prefResolver) Target(name string) (prefs.Target, error) {
	t, err := r.g.resolveTarget(name)
	if err != nil {
		return prefs.Target{}, err
	}
	return prefTarget(t), nil
}

// CLDR resolves a CLDR unit identifier as cldr:<id> names it: the catalog
// unit that claims it, else its CLDR definition read through the
// catalog's units (Graph.cldrTarget). The catalog's claims are the one
// mapping between CLDR and the catalog.
func (r prefResolver) CLDR(id string) (prefs.Target, error) {
	s, err := r.g.cldrTarget(id)
	if err != nil {
		return prefs.Target{}, err
	}
	return prefTarget(target{side: s}), nil
}

// prefTarget describes t to package prefs.
func prefTarget(t target) prefs.Target {
	pt := prefs.Target{Name: t.symbol(), Largest: t.largest().Symbol(), Value: t}
	if c := t.category(); c != nil {
		pt.Category = c.ID
	}
	switch {
	case t.mixed != nil:
		for _, u := range t.mixed.parts {
			pt.Units = append(pt.Units, u.Symbol)
		}
	case t.side.Unit != nil:
		pt.Units = []string{t.side.Unit.Symbol}
	}
	if u := t.largest().Unit; u != nil {
		if _, _, ok := graph.MapFactor(&u.Conv); ok {
			pt.ToBase = u.Conv.Map
		}
	}
	return pt
}

func (r prefResolver) Source(name string) (prefs.Source, error) {
	s, err := r.g.resolve(name)
	if err != nil {
		return prefs.Source{}, err
	}
	ps := prefs.Source{Name: s.Symbol(), Kind: "the dimension " + s.Dim().String()}
	if c := s.Category(); c != nil {
		ps.Category, ps.Base, ps.Kind = c.ID, c.Base.Symbol, strings.ToLower(c.Name)
	}
	if u := s.Unit; u != nil {
		ps.Unit = u.Symbol
		if f, o, ok := graph.MapFactor(&u.Conv); ok && o.Sign() == 0 && f.R.Sign() > 0 {
			ps.Factor, ps.Linear = f, true
		}
	}
	return ps, nil
}

// convertParsed is the ordinary conversion of an already parsed value,
// across kinds through props where the two units need them.
func (g *Graph) convertParsed(dst []byte, v *apd.Decimal, from, to string, p int, budget *Budget, res *Result, props *Properties) ([]byte, error) {
	if pe := g.cachedAcross(from, to, props); pe != nil {
		res.Properties = props
		return convertPair(pe, dst, v, p, budget, res)
	}
	if pe := g.cachedPair(from, to); pe != nil {
		return convertPair(pe, dst, v, p, budget, res)
	}
	var pe pairEntry
	across, err := g.resolveWith(&pe, from, to, props)
	if err != nil {
		return dst, err
	}
	if across {
		res.Properties = props
	}
	return convertPair(&pe, dst, v, p, budget, res)
}

// pair resolves and plans a pair of names, through the pair cache.
func (g *Graph) pair(from, to string) (*pairEntry, error) {
	if pe := g.cachedPair(from, to); pe != nil {
		return pe, nil
	}
	pe := new(pairEntry)
	if err := g.resolvePair(pe, from, to); err != nil {
		return nil, err
	}
	return pe, nil
}

// convertMixed converts v in the unit from to the parts of m, asked for
// as to: the pair from → the last part, evaluated exactly and split
// (package mixed), or, as accelerators, the conversion kept by its names
// (mixedPairs) and split in machine words from the value as written.
func (g *Graph) convertMixed(v *apd.Decimal, from, to string, m *mixedUnit, p int, res *Result) error {
	if accelerated() {
		mp := g.cachedMixed(from, to)
		if mp == nil {
			var err error
			if mp, err = g.mixedPairOf(from, to, m); err != nil {
				return err
			}
		}
		return g.splitMixed(v, mp, p, res)
	}
	pe, err := g.pair(from, m.parts[len(m.parts)-1].Symbol)
	if err != nil {
		return err
	}
	return g.splitMixed(v, &mixedPair{m: m, pe: pe}, p, res)
}

// splitMixed converts v along mp and splits it into the parts of its
// mixed unit: in words when mp has a word factor and they serve (only
// with the gate open), else exactly.
func (g *Graph) splitMixed(v *apd.Decimal, mp *mixedPair, p int, res *Result) error {
	m := mp.m
	var parts mixed.Parts
	var inexact, done bool
	if mp.words {
		inexact, done = m.SplitWords(&parts, v, mp.num, mp.den, p)
	}
	pe := mp.pe
	if !done {
		val, err := pe.Plan.ValueAt(v)
		if err != nil {
			return g.exactError(err, v, pe, m)
		}
		inexact = m.Split(&parts, &val, p, accelerated())
	}
	pl := &pe.Plan
	res.From, res.To = pe.FromSide.Unit, m.parts[len(m.parts)-1]
	res.Unit, res.Category, res.CategoryID = m.Symbol, pl.Category, pl.CategoryID
	res.Exact = !inexact && pl.Exact
	res.setMixed(m, &parts, pe)
	return nil
}

// exactError reports a failure to evaluate a value exactly for a split in
// the API's terms.
func (g *Graph) exactError(err error, v *apd.Decimal, pe *pairEntry, m *mixedUnit) error {
	var e *Error
	switch {
	case errors.As(err, &e):
		return e
	case errors.Is(err, plan.ErrNotExactMap):
		return errorf(CodeInvalidUnitExpression, "%s cannot be split into the parts of %s: %v", pe.Plan.FromName, m.Symbol, err)
	}
	return pe.Plan.ConvertError(v, err)
}

func (r *Result) mixedExplanation() *MixedExplanation {
	m := r.mixedUnit()
	if m == nil {
		return nil
	}
	x := &MixedExplanation{Unit: m.Symbol, LastPart: m.parts[len(m.parts)-1].Symbol}
	for i, u := range m.parts {
		x.Parts = append(x.Parts, MixedPart{Unit: u.Symbol, PerLast: m.PerLast(i)})
	}
	return x
}
