package engine

import (
	"hash/maphash"
	"strings"
	"sync/atomic"
)

// The pair cache
//
// Most traffic repeats a few conversions (ft → m, °F → °C) many times.
// Resolving both names (one to three map look-ups each, more for an
// alias) and planning the pair cost about a third of a simple conversion,
// and their result depends only on the two names and the graph, which
// never changes. pairCache remembers the outcome of recent pairs in a
// small set-associative table: a seeded hash of the two names chooses a
// set of pairWays slots, a hit is confirmed by comparing the names, and a
// miss is resolved the plain way and stored in a free slot of its set, or
// over one of them. It is an accelerator (behind optimize): a hit yields
// exactly what resolving and planning would.

// pairSets and pairWays size a graph's pair cache: 1024 pairs, in sets of
// four, so that a few pairs whose hashes meet do not evict each other on
// every request.
const (
	pairSets = 256 // a power of two
	pairWays = 4
)

// maxCachedName bounds the names a pair cache keeps, so that its memory
// stays small whatever clients send.
const maxCachedName = 64

type pairCache struct {
	seed maphash.Seed
	sets [pairSets][pairWays]atomic.Pointer[pairEntry]
}

// pairEntry is a resolved and planned pair. Its names are copies: the
// request's may be views of a pooled buffer.
type pairEntry struct {
	from, to         string
	fromSide, toSide side
	plan             plan
}

func newPairCache() *pairCache {
	return &pairCache{seed: maphash.MakeSeed()}
}

func (c *pairCache) hash(from, to string) uint64 {
	return maphash.String(c.seed, from) ^ maphash.String(c.seed, to)*0x9e3779b97f4a7c15
}

// get returns the entry of the pair, or nil.
func (c *pairCache) get(from, to string) *pairEntry {
	set := &c.sets[c.hash(from, to)%pairSets]
	for i := range set {
		if e := set[i].Load(); e != nil && e.from == from && e.to == to {
			return e
		}
	}
	return nil
}

// put remembers a pair that resolved and planned without error: in a
// free slot of its set, or else over the slot its hash picks.
func (c *pairCache) put(from, to string, fs, ts side, pl *plan) {
	if len(from) > maxCachedName || len(to) > maxCachedName {
		return
	}
	e := &pairEntry{from: strings.Clone(from), to: strings.Clone(to), fromSide: fs, toSide: ts, plan: *pl}
	e.plan.rat = composeRational(pl.from, pl.to)
	h := c.hash(from, to)
	set := &c.sets[h%pairSets]
	for i := range set {
		if set[i].CompareAndSwap(nil, e) {
			return
		}
	}
	set[(h/pairSets)%pairWays].Store(e)
}

// cachedPair returns the cached resolution of the pair, or nil.
func (g *Graph) cachedPair(from, to string) *pairEntry {
	if !optimize || g.pairs == nil {
		return nil
	}
	return g.pairs.get(from, to)
}

// resolvePair resolves both names and plans the conversion into e, and
// remembers the result in the pair cache.
func (g *Graph) resolvePair(e *pairEntry, fromName, toName string) error {
	from, err := g.resolve(fromName)
	if err != nil {
		return err
	}
	to, err := g.resolve(toName)
	if err != nil {
		return err
	}
	pl, err := g.plan(from, to)
	if err != nil {
		return err
	}
	e.fromSide, e.toSide, e.plan = from, to, pl
	if optimize && g.pairs != nil {
		g.pairs.put(fromName, toName, from, to, &pl)
	}
	return nil
}
