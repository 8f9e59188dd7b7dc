package web

import (
	"container/list"
	"sync"
)

// Bounds of a view's page cache.
const (
	pageCacheBytes   = 16 << 20
	pageCacheEntries = 4096
)

// pageCache keeps rendered pages of one catalog view, least recently used
// first out, within a bound on their bytes and their number. It is safe for
// concurrent use.
type pageCache struct {
	maxBytes, maxEntries int

	mu    sync.Mutex // guards the fields below
	bytes int
	order *list.List // of *cachedPage, most recently used first
	index map[string]*list.Element
}

// cachedPage is a rendered answer.
type cachedPage struct {
	key    string
	status int
	ctype  string
	etag   string // "" when the answer has none
	body   []byte
}

func newPageCache(maxBytes, maxEntries int) *pageCache {
	return &pageCache{maxBytes: maxBytes, maxEntries: maxEntries, order: list.New(), index: map[string]*list.Element{}}
}

func (c *pageCache) get(key string) (*cachedPage, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.index[key]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*cachedPage), true
}

// put keeps p, dropping the least recently used pages to make room. A page
// larger than a quarter of the bound is not kept.
func (c *pageCache) put(p *cachedPage) {
	size := len(p.body) + len(p.key)
	if size > c.maxBytes/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.index[p.key]; ok {
		c.bytes -= len(e.Value.(*cachedPage).body) + len(p.key)
		c.order.Remove(e)
		delete(c.index, p.key)
	}
	for c.order.Len() > 0 && (c.bytes+size > c.maxBytes || c.order.Len() >= c.maxEntries) {
		last := c.order.Back()
		old := last.Value.(*cachedPage)
		c.bytes -= len(old.body) + len(old.key)
		c.order.Remove(last)
		delete(c.index, old.key)
	}
	c.index[p.key] = c.order.PushFront(p)
	c.bytes += size
}

// len returns the number of pages kept and their bytes.
func (c *pageCache) len() (int, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len(), c.bytes
}
