// Package cache is the memory a graph spends remembering the names that
// requests send: parsed expressions, resolved codes, planned pairs,
// resolved substances, choices of preferences. Each is a Map whose
// entries all count, by an estimate of their bytes, against one Budget;
// when an entry would take the budget past its limit, every map that
// counts against it is emptied. A flood of distinct names, whatever cache
// it lands in, so costs at most the budget, and what it evicts is only
// ever work done again.
//
// Keys are normalised by their callers before they are used (white space
// folded), so that names which mean the same count once.
package cache

import (
	"sync"
	"sync/atomic"
	"weak"
)

// DefaultLimit is the budget of Default: 64 MiB.
const DefaultLimit = 64 << 20

// Default is the process's budget, which every graph's caches count
// against unless given another.
var Default = NewBudget(DefaultLimit)

// Budget bounds the memory of the maps that count against it. It is safe
// for concurrent use.
type Budget struct {
	limit atomic.Int64
	used  atomic.Int64
	// mu guards maps, which holds the maps counting against the budget
	// weakly: a graph's caches go with the graph.
	mu   sync.Mutex
	maps []weak.Pointer[clearer]
	// resets counts the times the budget emptied its maps.
	resets atomic.Int64
}

// clearer is what a budget needs of a map: to empty it.
type clearer struct{ clear func() }

// NewBudget returns a budget of limit bytes.
func NewBudget(limit int64) *Budget {
	b := &Budget{}
	b.limit.Store(limit)
	return b
}

// SetLimit changes the budget's limit; the maps are emptied when they
// hold more.
func (b *Budget) SetLimit(limit int64) {
	b.limit.Store(limit)
	if b.used.Load() > limit {
		b.reset()
	}
}

// Limit is the budget's limit in bytes.
func (b *Budget) Limit() int64 { return b.limit.Load() }

// Used is the estimate of the bytes its maps hold.
func (b *Budget) Used() int64 { return b.used.Load() }

// Resets counts the times the budget emptied its maps.
func (b *Budget) Resets() int64 { return b.resets.Load() }

// spend counts cost bytes, emptying every map first when they would pass
// the limit. It reports false for an entry larger than the whole budget,
// which is not kept.
func (b *Budget) spend(cost int64) bool {
	limit := b.limit.Load()
	if cost > limit/16 {
		return false
	}
	if b.used.Add(cost) > limit {
		b.reset()
		b.used.Add(cost)
	}
	return true
}

// reset empties every live map and forgets the dead ones.
func (b *Budget) reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	live := b.maps[:0]
	for _, w := range b.maps {
		if c := w.Value(); c != nil {
			c.clear()
			live = append(live, w)
		}
	}
	clear(b.maps[len(live):])
	b.maps = live
	b.used.Store(0)
	b.resets.Add(1)
}

func (b *Budget) register(c *clearer) {
	b.mu.Lock()
	b.maps = append(b.maps, weak.Make(c))
	b.mu.Unlock()
}

// Map is a concurrent map whose entries count against a Budget. The zero
// Map is not usable: make one with New.
type Map[K comparable, V any] struct {
	budget *Budget
	m      sync.Map
	n      atomic.Int64
	// clearer is what the budget holds of the map, weakly.
	clearer *clearer
}

// New returns a map counting against b (Default when nil).
func New[K comparable, V any](b *Budget) *Map[K, V] {
	if b == nil {
		b = Default
	}
	m := &Map[K, V]{budget: b}
	m.clearer = &clearer{clear: func() {
		m.m.Clear()
		m.n.Store(0)
	}}
	b.register(m.clearer)
	return m
}

// Get returns the value kept for k.
func (m *Map[K, V]) Get(k K) (V, bool) {
	v, ok := m.m.Load(k)
	if !ok {
		var zero V
		return zero, false
	}
	return v.(V), true
}

// Put keeps v for k, counting cost bytes (an estimate of the key's and
// the value's size) against the budget.
func (m *Map[K, V]) Put(k K, v V, cost int64) {
	if !m.budget.spend(cost) {
		return
	}
	m.m.Store(k, v)
	m.n.Add(1)
}

// Len counts the entries kept (at most a few more than are, while they
// are being put).
func (m *Map[K, V]) Len() int { return int(m.n.Load()) }
