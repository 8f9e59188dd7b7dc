package engine

import (
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"github.com/unitd/unitd/engine/internal/paircache"
)

// pairCases are pairs of every kind the cache may hold: units of one
// category, aliases, affine, formulas, a bridge, intervals, expressions.
var pairCases = [][2]string{
	{"ft", "m"}, {"feet", "Meters"}, {"degF", "degC"}, {"K", "delta_degF"},
	{"L/100km", "mpg"}, {"W", "dBm"}, {"rpm", "deg/s"}, {"deg", "rad"},
	{"kg*m/s^2", "N"}, {"ft*lb/s^2", "kg*m/s^2"}, {"km/h", "m/s"}, {"J", "W*s"},
}

// TestPairCacheHitsMatchPlain: a conversion served from the pair cache
// (the second of two) has the digits and the whole Result of a conversion
// resolved and planned the plain way.
func TestPairCacheHitsMatchPlain(t *testing.T) {
	g := testGraph(t)
	for _, pc := range pairCases {
		req := Request{Value: "12.5", From: pc[0], To: pc[1]}
		first, err1 := g.Convert(req)
		second, err2 := g.Convert(req)
		if err1 != nil || err2 != nil {
			t.Fatalf("%v: %v / %v", pc, err1, err2)
		}
		if optimize && g.pairs.Get(pc[0], pc[1], nil, 0) == nil {
			t.Errorf("%v: not cached after a conversion", pc)
		}
		plain := withOptimize(false, func() Result { r, _ := g.Convert(req); return r })
		for _, r := range []Result{first, second} {
			if resultText(r) != resultText(plain) {
				t.Errorf("%v: %s, plain path %s", pc, resultText(r), resultText(plain))
			}
		}
	}
}

// withOptimize runs f with the accelerators set to on.
func withOptimize[T any](on bool, f func() T) T {
	saved := optimize
	optimize = on
	defer func() { optimize = saved }()
	return f()
}

// TestPairCacheKeepsItsOwnNames: the names a request hands over may be
// views of a buffer that is reused (the server's JSON scanner returns
// such strings); the cache keeps copies, so rewriting the buffer neither
// changes what is cached nor makes another pair hit it.
func TestPairCacheKeepsItsOwnNames(t *testing.T) {
	g := testGraph(t)
	buf := []byte("ftm")
	from, to := unsafe.String(&buf[0], 2), unsafe.String(&buf[2], 1)
	if _, err := g.Convert(Request{Value: "1", From: from, To: to}); err != nil {
		t.Fatal(err)
	}
	copy(buf, "kgg") // the same bytes now spell kg → g
	r, err := g.Convert(Request{Value: "1", From: from, To: to})
	if err != nil || r.Unit != "g" || r.Value != "1000" {
		t.Fatalf("kg → g after the buffer changed: %v %v %v", r.Unit, r.Value, err)
	}
	if !optimize {
		return // the cache is an accelerator; the conversions above are the plain path's
	}
	if e := g.pairs.Get("ft", "m", nil, 0); e == nil || e.From != "ft" || e.To != "m" || e.Plan.Unit != "m" {
		t.Fatalf("ft → m entry after the buffer changed: %+v", e)
	}
}

// TestPairCacheFull: many more pairs than the cache holds, converted
// twice over, all give the plain path's answers; names longer than
// paircache.MaxName are served but not kept.
func TestPairCacheFull(t *testing.T) {
	g := testGraph(t)
	units := []string{"m", "in", "ft", "yd", "ftUS", "km/h", "m/s", "s", "min", "h", "kg", "g", "lb"}
	var reqs []Request
	for _, u := range units {
		for _, v := range units {
			for k := 1; k <= 9; k++ {
				// Distinct expressions that all mean u: u*v^k/v^k.
				reqs = append(reqs, Request{Value: "3", From: fmt.Sprintf("%s*(%s)^%d/(%s)^%d", u, v, k, v, k), To: u})
			}
		}
	}
	if len(reqs) <= paircache.Sets*paircache.Ways {
		t.Fatalf("%d pairs do not fill the cache", len(reqs))
	}
	for round := range 2 {
		for _, req := range reqs {
			r, err := g.Convert(req)
			if err != nil || r.Value != "3" {
				t.Fatalf("round %d, %s → %s: %v %v", round, req.From, req.To, r.Value, err)
			}
		}
	}
	long := "m" + strings.Repeat("*(h/h)", paircache.MaxName/6+1)
	if r, err := g.Convert(Request{Value: "2", From: long, To: "ft"}); err != nil || r.Unit != "ft" {
		t.Fatalf("long name: %v %v", r.Unit, err)
	}
	if optimize && g.pairs.Get(long, "ft", nil, 0) != nil {
		t.Error("a name longer than paircache.MaxName was cached")
	}
}

// TestPairCacheConcurrent: goroutines converting overlapping pairs, in
// different orders, all get the plain path's answers while they fill the
// cache (run with -race; TestPairCacheFull covers eviction).
func TestPairCacheConcurrent(t *testing.T) {
	g := testGraph(t)
	var reqs []Request
	for _, pc := range pairCases {
		reqs = append(reqs, Request{Value: "7.25", From: pc[0], To: pc[1]})
	}
	for k := 1; k <= 9; k++ {
		for _, u := range []string{"m", "ft", "kg", "s", "h", "lb"} {
			reqs = append(reqs, Request{Value: "7.25", From: fmt.Sprintf("%s*(m/s)^%d/(m/s)^%d", u, k, k), To: u})
		}
	}
	want := withOptimize(false, func() []string {
		var w []string
		for _, req := range reqs {
			r, err := g.Convert(req)
			w = append(w, resultText(r)+" "+fmt.Sprint(err))
		}
		return w
	})
	errs := make(chan string, 8)
	for w := range 4 {
		go func() {
			for round := range 20 {
				for i := range reqs {
					i := (i*(w+1) + round) % len(reqs)
					r, err := g.Convert(reqs[i])
					if got := resultText(r) + " " + fmt.Sprint(err); got != want[i] {
						errs <- fmt.Sprintf("%s → %s: %s, want %s", reqs[i].From, reqs[i].To, got, want[i])
						return
					}
				}
			}
			errs <- ""
		}()
	}
	for range 4 {
		if e := <-errs; e != "" {
			t.Error(e)
		}
	}
}

// TestPairCacheSpreads: for a few seeds, the pairs of the test catalog's
// units fall into nearly every set, none crowded, and a pair's set
// depends on which name is which.
func TestPairCacheSpreads(t *testing.T) {
	g := testGraph(t)
	for _, seed := range [][2]uint64{{1, 2}, {0x9e3779b97f4a7c15, 7}, {0, 0}} {
		hash := func(from, to string) uint64 { return paircache.Hash(seed[0], seed[1], from, to) }
		used := map[uint64]int{}
		n := 0
		for _, a := range g.Units() {
			for _, b := range g.Units() {
				used[hash(a.Symbol, b.Symbol)%paircache.Sets]++
				n++
			}
		}
		if n < 4*paircache.Sets || len(used) < paircache.Sets*9/10 {
			t.Errorf("seed %x: %d pairs fill %d of %d sets", seed, n, len(used), paircache.Sets)
		}
		for set, k := range used {
			if k > 5*n/paircache.Sets {
				t.Errorf("seed %x: set %d holds %d of %d pairs", seed, set, k, n)
			}
		}
		if hash("ft", "m") == hash("m", "ft") {
			t.Errorf("seed %x: ft → m and m → ft hash alike", seed)
		}
	}
}

// resultText prints r with what its pointers to storage of its own or of
// its pair hold, which two equal results of two pairs planned apart share
// in value only.
func resultText(r Result) string {
	rt, m, hint := r.route, r.more, r.Hint()
	r.route, r.more, r.hint = nil, nil, nil
	s := fmt.Sprintf("%+v hint %q", r, hint)
	if rt != nil {
		s += fmt.Sprintf(" route %+v", *rt)
	}
	if m != nil {
		s += fmt.Sprintf(" parts %v mixed %p", m.parts, m.mixed)
		if m.preference != nil {
			s += fmt.Sprintf(" preference %+v", *m.preference)
		}
	}
	return s
}
