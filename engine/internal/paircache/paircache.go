// Package paircache remembers recent pairs of unit names resolved and
// planned, for the engine's kernel.
//
// Most traffic repeats a few conversions (ft → m, °F → °C) many times.
// Resolving both names (one to three map look-ups each, more for an
// alias) and planning the pair cost about a third of a simple conversion,
// and their result depends only on the two names and the graph, which
// never changes. A Cache remembers the outcome of recent pairs in a small
// set-associative table: a seeded hash of the two names chooses a set of
// Ways slots, a hit is confirmed by comparing the names (a name of up to
// 16 bytes by the words the hash read of it), and a miss is resolved the
// plain way and stored in a free slot of its set, or over one of them. It
// is an accelerator (behind the engine's gate: its cachedPair): a hit
// yields exactly what resolving and planning would.
package paircache

import (
	"math/bits"
	"math/rand/v2"
	"strings"
	"sync/atomic"

	"github.com/unitd/unitd/engine/internal/plan"
)

// Sets and Ways size a pair cache: 1024 pairs, in sets of four, so that a
// few pairs whose hashes meet do not evict each other on every request.
const (
	Sets = 256 // a power of two
	Ways = 4
)

// MaxName bounds the names a pair cache keeps, so that its memory stays
// small whatever clients send.
const MaxName = 64

// Cache is a graph's pair cache, of pairs planned with the properties
// P of what is measured (nil for none). It is safe for concurrent use.
type Cache[P any] struct {
	k0, k1 uint64 // the seed of hash, random per graph
	sets   [Sets][Ways]atomic.Pointer[Entry[P]]
}

// Entry is a resolved and planned pair. Its names are copies: the
// request's may be views of a pooled buffer.
type Entry[P any] struct {
	From, To string
	// key is keyOf(From, To), which the hash read.
	key              key
	FromSide, ToSide plan.Side
	Plan             plan.Plan
	// Props are the catalog substance's properties a pair across kinds
	// was planned with (crosskind.go), nil for a plain pair.
	Props *P
	// Route is what a Result of the pair holds beyond its units (see
	// setRoute).
	Route *plan.Route
}

// SetRoute sets e.Route from its sides and plan, once they are final.
func (e *Entry[P]) SetRoute() { e.Route = plan.NewRoute(e.FromSide, e.ToSide, &e.Plan) }

// New returns an empty pair cache with a random seed of its hash.
func New[P any]() *Cache[P] {
	return &Cache[P]{k0: rand.Uint64(), k1: rand.Uint64()}
}

// hash mixes the two names' lengths and outer bytes (their key k) with
// the cache's seed. It reads at most 16 bytes of each name: maphash over
// whole names cost as much as the rest of a cache hit. Names that share
// their length and outer bytes share a set, where longer ones than
// wholeBelow are told apart by comparing them whole; a client that sends
// many such names only evicts its own pairs, which then take the plain
// path.
func (c *Cache[P]) hash(from, to string, k key) uint64 {
	return mix(c.k0, c.k1, from, to, k)
}

// Hash is the hash of a pair of names with the seed k0, k1.
func Hash(k0, k1 uint64, from, to string) uint64 {
	return mix(k0, k1, from, to, keyOf(from, to))
}

func mix(k0, k1 uint64, from, to string, k key) uint64 {
	h := (k[0]^bits.RotateLeft64(k[1], 31)^k0)*0x9e3779b97f4a7c15 ^
		(k[2]^bits.RotateLeft64(k[3], 31)^k1)*0xc2b2ae3d27d4eb4f
	h ^= uint64(len(from))<<32 | uint64(len(to))
	return h ^ h>>29
}

// A key is the outer bytes of two names (outerBytes): two words of the
// first, then two of the second.
type key [4]uint64

func keyOf(from, to string) key {
	f0, f1 := outerBytes(from)
	t0, t1 := outerBytes(to)
	return key{f0, f1, t0, t1}
}

// wholeBelow is the length below which outerBytes holds a whole name, so
// that two names of one such length are equal when their words are.
const wholeBelow = 17

// outerBytes packs the first and the last bytes of s into two words: up
// to eight of each, or up to four of each in the first word of a name
// under eight bytes. Below wholeBelow bytes they hold every byte of s.
func outerBytes(s string) (first, last uint64) {
	n := len(s)
	switch {
	case n >= 8:
		return le64(s), le64(s[n-8:])
	case n >= 4:
		return uint64(le32(s)) | uint64(le32(s[n-4:]))<<32, 0
	case n > 0:
		return uint64(s[0]) | uint64(s[n/2])<<8 | uint64(s[n-1])<<16, 0
	}
	return 0, 0
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

// Get returns the entry of the pair planned with the properties p (nil
// for none), whose own seed, mixed into the pair's hash, is seed (0 for
// none), or nil.
func (c *Cache[P]) Get(from, to string, p *P, seed uint64) *Entry[P] {
	// keyOf and comparing keys whole, written out: the compiler makes
	// them a copy and a call, a tenth of a cache hit.
	f0, f1 := outerBytes(from)
	t0, t1 := outerBytes(to)
	set := &c.sets[(c.hash(from, to, key{f0, f1, t0, t1})^seed)%Sets]
	for i := range set {
		e := set[i].Load()
		if e != nil && e.Props == p && e.key[0] == f0 && e.key[1] == f1 && e.key[2] == t0 && e.key[3] == t1 && e.names(from, to) {
			return e
		}
	}
	return nil
}

// names reports whether e's names are from and to, whose key is e's: by
// their lengths alone when the key holds them whole (most unit names and
// short expressions), else by comparing them.
func (e *Entry[P]) names(from, to string) bool {
	if len(e.From) != len(from) || len(e.To) != len(to) {
		return false
	}
	return (len(from) < wholeBelow || e.From == from) && (len(to) < wholeBelow || e.To == to)
}

// Put remembers a pair that resolved and planned without error, with the
// properties p and their seed (as Get): in a free slot of its set, or
// else over the slot its hash picks.
func (c *Cache[P]) Put(from, to string, fs, ts plan.Side, pl *plan.Plan, p *P, seed uint64) {
	if len(from) > MaxName || len(to) > MaxName {
		return
	}
	k := keyOf(from, to)
	e := &Entry[P]{From: strings.Clone(from), To: strings.Clone(to), key: k, FromSide: fs, ToSide: ts, Plan: *pl, Props: p}
	e.SetRoute()
	h := c.hash(from, to, k) ^ seed
	set := &c.sets[h%Sets]
	for i := range set {
		if set[i].CompareAndSwap(nil, e) {
			return
		}
	}
	set[(h/Sets)%Ways].Store(e)
}

// Len counts the pairs cached.
func (c *Cache[P]) Len() int {
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
