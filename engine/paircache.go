package engine

import (
	"math/bits"
	"math/rand/v2"
	"strings"
	"sync/atomic"

	"github.com/unitd/unitd/engine/internal/plan"
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
// over one of them. It is an accelerator (behind optimize, see cachedPair):
// a hit yields exactly what resolving and planning would.

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
	k0, k1 uint64 // the seed of hash, random per graph
	sets   [pairSets][pairWays]atomic.Pointer[pairEntry]
}

// pairEntry is a resolved and planned pair. Its names are copies: the
// request's may be views of a pooled buffer.
type pairEntry struct {
	from, to         string
	fromSide, toSide plan.Side
	plan             plan.Plan
	// props are the catalog substance's properties a pair across kinds
	// was planned with (crosskind.go), nil for a plain pair.
	props *Properties
	// route is what a Result of the pair holds beyond its units (see
	// setRoute).
	route *route
}

// setRoute sets e.route from its sides and plan, once they are final.
func (e *pairEntry) setRoute() { e.route = newRoute(e.fromSide, e.toSide, &e.plan) }

func newPairCache() *pairCache {
	return &pairCache{k0: rand.Uint64(), k1: rand.Uint64()}
}

// hash mixes the two names' lengths and outer bytes with the cache's
// seed. It reads at most 16 bytes of each name: maphash over whole names
// cost as much as the rest of a cache hit. Names that share their length
// and outer bytes share a set; they are told apart by comparing them
// whole, and a client that sends many such names only evicts its own
// pairs, which then take the plain path.
func (c *pairCache) hash(from, to string) uint64 { return pairHash(c.k0, c.k1, from, to) }

// pairHash is the hash of a pair of names with the seed k0, k1.
func pairHash(k0, k1 uint64, from, to string) uint64 {
	h := (outerBytes(from) ^ k0) * 0x9e3779b97f4a7c15
	h ^= (outerBytes(to) ^ k1) * 0xc2b2ae3d27d4eb4f
	h ^= uint64(len(from))<<32 | uint64(len(to))
	return h ^ h>>29
}

// outerBytes packs the first and last bytes of s (up to eight of each)
// into a word.
func outerBytes(s string) uint64 {
	n := len(s)
	switch {
	case n >= 8:
		return le64(s) ^ bits.RotateLeft64(le64(s[n-8:]), 31)
	case n >= 4:
		return uint64(le32(s)) | uint64(le32(s[n-4:]))<<32
	case n > 0:
		return uint64(s[0]) | uint64(s[n/2])<<8 | uint64(s[n-1])<<16
	}
	return 0
}

func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

func le32(s string) uint32 {
	_ = s[3]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// get returns the entry of the pair, or nil.
func (c *pairCache) get(from, to string) *pairEntry { return c.getWith(from, to, nil) }

// getWith returns the entry of the pair planned with a catalog
// substance's properties p (nil for none), or nil.
func (c *pairCache) getWith(from, to string, p *Properties) *pairEntry {
	set := &c.sets[(c.hash(from, to)^p.hashSeed())%pairSets]
	for i := range set {
		if e := set[i].Load(); e != nil && e.props == p && e.from == from && e.to == to {
			return e
		}
	}
	return nil
}

// put remembers a pair that resolved and planned without error: in a
// free slot of its set, or else over the slot its hash picks.
func (c *pairCache) put(from, to string, fs, ts plan.Side, pl *plan.Plan) {
	c.putWith(from, to, fs, ts, pl, nil)
}

// putWith is put for a pair planned with a catalog substance's
// properties p.
func (c *pairCache) putWith(from, to string, fs, ts plan.Side, pl *plan.Plan, p *Properties) {
	if len(from) > maxCachedName || len(to) > maxCachedName {
		return
	}
	e := &pairEntry{from: strings.Clone(from), to: strings.Clone(to), fromSide: fs, toSide: ts, plan: *pl, props: p}
	e.setRoute()
	h := c.hash(from, to) ^ p.hashSeed()
	set := &c.sets[h%pairSets]
	for i := range set {
		if set[i].CompareAndSwap(nil, e) {
			return
		}
	}
	set[(h/pairSets)%pairWays].Store(e)
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
	e.setRoute()
	if g.pairs != nil {
		g.pairs.put(fromName, toName, from, to, &pl)
	}
	return nil
}

// len counts the pairs cached.
func (c *pairCache) len() int {
	n := 0
	for i := range c.sets {
		for j := range c.sets[i] {
			if c.sets[i][j].Load() != nil {
				n++
			}
		}
	}
	return n
}
