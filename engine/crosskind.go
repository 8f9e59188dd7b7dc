package engine

import (
	"errors"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/internal/cache"
	"github.com/unitd/unitd/engine/substance"
)

// Conversions across kinds of quantity
//
// When two units' dimensions differ by a property of what is measured (a
// molar mass, a density, a charge number, a gas's molar volume: package
// substance, Between), the conversion divides by that property between
// the source's coherent SI unit and the target's. A dimensionless side
// converts so only when its category holds mixing ratios of a gas
// (amount or volume fractions; not mass fractions).
//
// The factor enters the plan through the kernel's seam, Plan.WithFactor,
// so the conversion stays one exact map and one rounding; the answer is
// not exact, since the properties are measured or rounded values.

// PropertyQuery is what a request says about the substance measured, as
// text: a substance's name, alias, CAS number or formula, and explicit
// values that win over the substance's.
type PropertyQuery struct {
	Substance  string
	MolarMass  string // "180.156 g/mol"
	Density    string // "0.745 kg/L"
	Charge     string // a non-zero whole number
	Conditions string // "25 degC, 101.325 kPa" or a named set (STP)
}

// IsZero reports whether the query says nothing.
func (q PropertyQuery) IsZero() bool { return q == PropertyQuery{} }

// Properties are the resolved properties of what a request measures. They
// are immutable and may be shared by the conversions of a batch.
type Properties struct {
	// Substance is the catalog substance named, or nil.
	Substance *Substance
	// Formula is a formula that names no catalog substance, or "".
	Formula string
	substance.Values
	gasCondition bool
	key          string
	// shared marks a catalog substance's own properties, which live as
	// long as the graph; seed tells them apart in the pair cache.
	shared bool
	seed   uint64
	// interned marks properties kept by the graph's cache of resolved
	// queries (propertiesCache): one pointer per query, so that planned
	// pairs are found by it.
	interned bool
	// measurand is the measurand named, whose equations relate the units
	// of its scales (measurand.go), or nil.
	measurand *measurandInfo
}

// hashSeed mixes a catalog substance into a pair's hash; 0 for none.
func (p *Properties) hashSeed() uint64 {
	if p == nil {
		return 0
	}
	return p.seed
}

// ResolveProperties reads a query: a substance by name, alias, CAS number
// or formula (UNKNOWN_SUBSTANCE when it is none of these, with
// suggestions or the position of the fault), and the explicit values
// (*FieldError when one does not read). A nil result with a nil error
// means the query was empty.
func (g *Graph) ResolveProperties(q PropertyQuery) (*Properties, error) {
	if q.IsZero() {
		return nil, nil
	}
	if q.Substance != "" && q.MolarMass == "" && q.Density == "" && q.Charge == "" && q.Conditions == "" {
		// The common case, without copying: a catalog substance alone.
		x := g.extras()
		if s := x.sub.Find(q.Substance); s != nil {
			return x.own[s], nil
		}
	}
	if p := g.resolved.get(q); p != nil {
		return p, nil
	}
	// The texts may be views of a request's pooled buffer; what resolves
	// from them may be cached beyond the request.
	q = PropertyQuery{strings.Clone(q.Substance), strings.Clone(q.MolarMass), strings.Clone(q.Density), strings.Clone(q.Charge), strings.Clone(q.Conditions)}
	x := g.extras()
	var p Properties
	if q.Substance != "" {
		s, formula, err := x.sub.Lookup(q.Substance)
		if err != nil {
			return nil, err
		}
		if s != nil {
			p = *x.own[s]
			p.shared = false
		} else {
			p.Formula = q.Substance
			p.MolarMass = formula.MolarMass()
			if z := formula.Charge(); z != 0 {
				p.Charge = substance.ChargeProperty(z, "the charge of the formula "+q.Substance)
			}
		}
	}
	if q.MolarMass != "" {
		m, err := x.sub.Property("molar_mass", q.MolarMass, substance.MolarMassDim)
		if err != nil {
			return nil, err
		}
		m.Source = "the request"
		p.MolarMass = m
	}
	if q.Density != "" {
		d, err := x.sub.Property("density", q.Density, substance.DensityDim)
		if err != nil {
			return nil, err
		}
		d.Source = "the request"
		p.Density, p.DensityStated = d, true
	}
	if q.Charge != "" {
		z, err := strconv.Atoi(strings.TrimPrefix(q.Charge, "+"))
		if err != nil || z == 0 || z < -99 || z > 99 || len(q.Charge) > 4 {
			return nil, substance.FieldErrorf("charge", "expected a non-zero whole number from -99 to 99, found %q", fault.Truncate(q.Charge, 64))
		}
		p.Charge = substance.ChargeProperty(z, "the request")
	}
	if q.Conditions != "" {
		t, pr, err := x.sub.Conditions(q.Conditions)
		if err != nil {
			return nil, err
		}
		p.Temperature, p.Pressure, p.gasCondition = t, pr, true
	}
	p.key = p.makeKey()
	return g.resolved.put(q, &p), nil
}

// propertiesCache keeps resolved queries that name more than a catalog
// substance (explicit values, formulas, conditions), against the caches'
// memory budget (package cache): resolving reads quantities and formulas,
// ten times the cost of a conversion, and the answer depends only on the
// query and the graph. Failed queries are not kept.
type propertiesCache struct {
	m *cache.Map[PropertyQuery, *Properties]
	// seq numbers the kept properties, for their seed in the pair cache.
	seq atomic.Uint64
}

func newPropertiesCache() *propertiesCache {
	return &propertiesCache{m: cache.New[PropertyQuery, *Properties](nil)}
}

// maxCachedQuery bounds the texts of a query the cache keeps.
const maxCachedQuery = 512

func (c *propertiesCache) get(q PropertyQuery) *Properties {
	p, _ := c.m.Get(q)
	return p
}

// put keeps p for q, whose texts must be the caller's own, and returns
// the properties to use: p, marked interned when kept.
func (c *propertiesCache) put(q PropertyQuery, p *Properties) *Properties {
	if len(q.Substance)+len(q.MolarMass)+len(q.Density)+len(q.Charge)+len(q.Conditions) > maxCachedQuery {
		return p
	}
	if old := c.get(q); old != nil {
		return old
	}
	p.interned = true
	p.seed = c.seq.Add(1) * 0xbf58476d1ce4e5b9 // apart from the substances' seeds
	c.m.Put(q, p, int64(len(q.Substance)+len(q.MolarMass)+len(q.Density)+len(q.Charge)+len(q.Conditions)+len(p.key))+512)
	return p
}

// makeKey writes everything the properties say, so that two with one key
// convert and explain alike.
func (p *Properties) makeKey() string {
	var b strings.Builder
	if p.Substance != nil {
		b.WriteString("s=" + p.Substance.ID)
	}
	b.WriteString("|f=" + p.Formula)
	for _, q := range []*Property{p.MolarMass, p.Density, p.Charge, p.Temperature, p.Pressure} {
		b.WriteByte('|')
		if q != nil {
			b.WriteString(q.Name + "=" + q.Value + "@" + q.Conditions + "#" + q.Source)
		}
	}
	if p.DensityStated {
		b.WriteString("|ds")
	}
	return b.String()
}

// crossCache remembers planned conversions across kinds by the two names
// and the properties' key, against the caches' memory budget.
type crossCache struct {
	m *cache.Map[crossKey, *pairEntry]
}

func newCrossCache() *crossCache { return &crossCache{m: cache.New[crossKey, *pairEntry](nil)} }

// crossKey names a planned pair: by the properties' identity when they
// are a catalog substance's own or interned (shared by every request that
// names them, and cheap to hash), else by their key.
type crossKey struct {
	from, to string
	p        *Properties
	props    string
}

func newCrossKey(from, to string, p *Properties) crossKey {
	if p.shared || p.interned {
		return crossKey{from: from, to: to, p: p}
	}
	return crossKey{from: from, to: to, props: p.key}
}

// maxCrossKey bounds the keys the cache keeps.
const maxCrossKey = 1024

func (c *crossCache) get(k crossKey) *pairEntry {
	e, _ := c.m.Get(k)
	return e
}

func (c *crossCache) put(k crossKey, e *pairEntry) {
	if len(k.from)+len(k.to)+len(k.props) > maxCrossKey {
		return
	}
	k.from, k.to = strings.Clone(k.from), strings.Clone(k.to)
	c.m.Put(k, e, int64(len(k.from)+len(k.to)+len(k.props))+512)
}

// resolveCross resolves a pair that did not convert as is, with the
// request's properties: the planned pair, or the error to report.
func (g *Graph) resolveCross(e *pairEntry, fromName, toName string, p *Properties) error {
	from, err := g.resolve(fromName)
	if err != nil {
		return err
	}
	to, err := g.resolve(toName)
	if err != nil {
		return err
	}
	pl, err := g.crossPlan(from, to, p)
	if err != nil {
		return err
	}
	e.FromSide, e.ToSide, e.Plan = from, to, pl
	e.SetRoute()
	switch {
	case p != nil && (p.shared || p.interned) && g.pairs != nil:
		g.pairs.Put(fromName, toName, from, to, &pl, p, p.hashSeed())
	case p != nil:
		g.cross.put(newCrossKey(fromName, toName, p), &pairEntry{FromSide: from, ToSide: to, Plan: pl, Route: e.Route})
	}
	return nil
}

// isIncompatible reports whether err is INCOMPATIBLE_UNITS.
func isIncompatible(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == CodeIncompatibleUnits
}
