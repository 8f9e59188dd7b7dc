package web

import (
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/unitd/unitd/catalog"
	"github.com/unitd/unitd/engine"
)

// shippedGraph is the shipped catalog, compiled once for the tests of the
// package: a graph is immutable, and compiling it takes seconds under the
// race detector.
func shippedGraph(t *testing.T) *engine.Graph {
	t.Helper()
	g, errs := loadShipped()
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return g
}

var loadShipped = sync.OnceValues(func() (*engine.Graph, []error) { return catalog.Load(catalog.Embedded()) })

var unitRowRe = regexp.MustCompile(`<tr data-unit="([^"]+)">`)

// TestCatalogSearchPages: a search's matches come 50 to a page, and the
// pages together hold every match once, in the order of catalogSearch (its
// ranks, then catalog order).
func TestCatalogSearchPages(t *testing.T) {
	g := shippedGraph(t)
	p := New(Config{Graph: func() *engine.Graph { return g }})
	var want []string
	for _, u := range g.Units() {
		for _, s := range slices.Concat([]string{u.Symbol, u.Name, u.Plural}, u.Symbols, u.Aliases) {
			if strings.Contains(strings.ToLower(s), "ton") {
				want = append(want, u.Symbol)
				break
			}
		}
	}
	if len(want) <= 2*perPage {
		t.Fatalf("only %d units match ton: the test needs three pages or more", len(want))
	}
	pages := (len(want) + perPage - 1) / perPage
	var got []string
	for n := 1; n <= pages; n++ {
		rec := get(t, p, "/catalog?q=ton&page="+strconv.Itoa(n))
		body := rec.Body.String()
		if rec.Code != 200 || !strings.Contains(body, strconv.Itoa(len(want))+" matching units") ||
			!strings.Contains(body, "page "+strconv.Itoa(n)+" of "+strconv.Itoa(pages)) {
			t.Fatalf("page %d: %d\n%.2000s", n, rec.Code, body)
		}
		rows := unitRowRe.FindAllStringSubmatch(body, -1)
		if n < pages && len(rows) != perPage {
			t.Errorf("page %d has %d rows", n, len(rows))
		}
		for _, m := range rows {
			got = append(got, strings.ReplaceAll(m[1], "&#43;", "+"))
		}
		if hasNext := strings.Contains(body, `rel="next"`); hasNext != (n < pages) {
			t.Errorf("page %d: next link %v", n, hasNext)
		}
		if hasPrev := strings.Contains(body, `rel="prev"`); hasPrev != (n > 1) {
			t.Errorf("page %d: previous link %v", n, hasPrev)
		}
	}
	var ranked []string
	for _, row := range catalogSearch(newView(g), "ton", "", "") {
		ranked = append(ranked, row.Symbol)
	}
	if !slices.Equal(got, ranked) {
		t.Errorf("the pages hold %d units, not the %d matches in the order of the search", len(got), len(ranked))
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("the pages hold %d units, want the %d units whose spellings contain ton", len(got), len(want))
	}
	for _, bad := range []string{"0", "-1", "x", "1001", strconv.Itoa(pages + 1), "99999999999999999999"} {
		if rec := get(t, p, "/catalog?q=ton&page="+bad); rec.Code != 404 {
			t.Errorf("page %q: %d, want 404", bad, rec.Code)
		}
	}
}

// TestPublicPagesAreBounded: no catalog page, whatever its query, is larger
// than a modest bound, nor costs less than its size says.
func TestPublicPagesAreBounded(t *testing.T) {
	g := shippedGraph(t)
	var mu sync.Mutex
	charged := map[string]int{}
	p := New(Config{Graph: func() *engine.Graph { return g }, Charge: func(r *http.Request, n int) {
		mu.Lock()
		charged[r.URL.RequestURI()] += n
		mu.Unlock()
	}})
	for _, target := range []string{"/catalog?q=e", "/catalog?q=a", "/catalog?system=SI", "/catalog?category=length",
		"/catalog?q=met&system=SI", "/catalog", "/catalog/length", "/catalog/data", "/web/units?q=e", "/", "/docs"} {
		rec := get(t, p, target)
		if rec.Code != 200 || rec.Body.Len() > 64<<10 {
			t.Errorf("%s: %d, %d bytes; want at most 64 KiB", target, rec.Code, rec.Body.Len())
		}
		if want := cost(&cachedPage{body: rec.Body.Bytes()}, 0) - 1; charged[target] < want {
			t.Errorf("%s: %d bytes charged %d tokens beyond the first, want at least %d", target, rec.Body.Len(), charged[target], want)
		}
	}
	if charged["/catalog?q=e"] < 10 {
		t.Errorf("a fresh search of every unit cost %d tokens beyond the first", charged["/catalog?q=e"])
	}
}

// TestPagesAreCachedPerCatalog: an answer is rendered once per catalog and
// then served from the cache at the cost of an ordinary request; a new
// catalog renders afresh.
func TestPagesAreCachedPerCatalog(t *testing.T) {
	g1, g2 := shippedGraph(t), fixtureGraph(t) // g1 gets a view of its own: p is new
	var mu sync.Mutex
	cur := g1
	graph := func() *engine.Graph { mu.Lock(); defer mu.Unlock(); return cur }
	charged := 0
	p := New(Config{Graph: graph, Charge: func(_ *http.Request, n int) { charged += n }})
	for _, target := range []string{"/catalog?q=e&page=2", "/catalog/length", "/web/units?q=met", "/catalog/units/km%2Fh", "/"} {
		charged = 0
		first := get(t, p, target)
		paid := charged
		second := get(t, p, target)
		if first.Code != 200 || second.Body.String() != first.Body.String() || second.Header().Get("ETag") != first.Header().Get("ETag") {
			t.Fatalf("%s: the cached answer differs", target)
		}
		if charged != paid {
			t.Errorf("%s: the cached answer was charged %d more tokens", target, charged-paid)
		}
	}
	if n, _ := p.view().cache.len(); n != 5 {
		t.Errorf("%d pages cached, want 5", n)
	}
	// A reload: the same address shows the new catalog.
	before := get(t, p, "/catalog/length").Body.String()
	mu.Lock()
	cur = g2
	mu.Unlock()
	after := get(t, p, "/catalog/length").Body.String()
	if after == before || !strings.Contains(after, "web-test-1") {
		t.Error("a page of the old catalog was served after the catalog changed")
	}
}

func TestPageCacheBounds(t *testing.T) {
	c := newPageCache(1000, 3)
	for i := range 10 {
		c.put(&cachedPage{key: strconv.Itoa(i), body: make([]byte, 100)})
		if n, b := c.len(); n > 3 || b > 1000 {
			t.Fatalf("%d pages, %d bytes, bounds 3 and 1000", n, b)
		}
	}
	if _, ok := c.get("9"); !ok {
		t.Error("the newest page was dropped")
	}
	if _, ok := c.get("0"); ok {
		t.Error("the oldest page was kept")
	}
	c.put(&cachedPage{key: "big", body: make([]byte, 400)}) // over a quarter of the bound
	if _, ok := c.get("big"); ok {
		t.Error("a page over a quarter of the bound was kept")
	}
	c = newPageCache(1000, 100)
	for i := range 20 {
		c.put(&cachedPage{key: strconv.Itoa(i), body: make([]byte, 200)})
	}
	if n, b := c.len(); b > 1000 || n != 4 {
		t.Errorf("%d pages, %d bytes; want 4 pages within 1000 bytes", n, b)
	}
}
