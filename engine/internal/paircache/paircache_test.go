package paircache

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/unitd/unitd/engine/internal/graph"
	"github.com/unitd/unitd/engine/internal/plan"
)

type props struct{ name string }

// TestCache: a pair is found by both names and its properties, keeps
// copies of its names, and is not kept when a name is too long; a full
// set takes a new pair over an old one.
func TestCache(t *testing.T) {
	c := New[props]()
	ft, m := &graph.Unit{Symbol: "ft"}, &graph.Unit{Symbol: "m"}
	fs, ts := plan.Side{Unit: ft}, plan.Side{Unit: m}
	pl := &plan.Plan{Unit: "m"}
	glucose := &props{"glucose"}
	buf := []byte("ft")
	from := string(buf)
	c.Put(from, "m", fs, ts, pl, nil, 0)
	c.Put("ft", "m", fs, ts, pl, glucose, 42)
	buf[0] = 'x'
	if e := c.Get("ft", "m", nil, 0); e == nil || e.Props != nil || e.Plan.Unit != "m" || e.FromSide.Unit != ft {
		t.Errorf("ft → m: %+v", e)
	}
	if e := c.Get("ft", "m", glucose, 42); e == nil || e.Props != glucose {
		t.Errorf("ft → m for glucose: %+v", e)
	}
	if e := c.Get("m", "ft", nil, 0); e != nil {
		t.Errorf("m → ft found: %+v", e)
	}
	if e := c.Get("ft", "m", &props{"glucose"}, 42); e != nil {
		t.Error("other properties found the pair")
	}
	long := strings.Repeat("f", MaxName+1)
	c.Put(long, "m", fs, ts, pl, nil, 0)
	if c.Get(long, "m", nil, 0) != nil || c.Len() != 2 {
		t.Errorf("a name past %d bytes was kept (%d pairs)", MaxName, c.Len())
	}
	// Names of one length and outer bytes share a set: Ways+1 of them
	// leave Ways in it, the last one among them.
	d := New[props]()
	var names []string
	for i := range Ways + 1 {
		n := "a" + strings.Repeat("x", 20) + string(rune('a'+i)) + strings.Repeat("x", 20) + "z"
		names = append(names, n)
		d.Put(n, "m", fs, ts, pl, nil, 0)
	}
	if d.Len() != Ways || d.Get(names[Ways], "m", nil, 0) == nil {
		t.Errorf("a full set holds %d pairs, the last one found %v", d.Len(), d.Get(names[Ways], "m", nil, 0) != nil)
	}
}

// TestOuterBytesWholeBelow: below wholeBelow bytes, two names of one
// length that differ in any one byte have different outer bytes, so that
// Get may tell them apart by their words; and a pair is found by its own
// names only, longer names that share their outer bytes among them.
func TestOuterBytesWholeBelow(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	for n := range wholeBelow {
		for range 2000 {
			a := make([]byte, n)
			for i := range a {
				a[i] = byte(r.IntN(256))
			}
			if n == 0 {
				continue
			}
			b := slices.Clone(a)
			i := r.IntN(n)
			b[i] ^= byte(1 + r.IntN(255))
			a0, a1 := outerBytes(string(a))
			b0, b1 := outerBytes(string(b))
			if a0 == b0 && a1 == b1 {
				t.Fatalf("%q and %q (byte %d differs) have the same outer bytes", a, b, i)
			}
		}
	}
	pl := &plan.Plan{}
	// The last two names share their first and last eight bytes.
	names := []string{"", "m", "ft", "in", "kg", "lbf", "degF", "degC", "L/100km", "L/100kn", "kilogram", "kilograx",
		"kg*m/s^2", "ft*lb/s^2", "ft*lb/s^3", "kilometre_per_hour", "kilometre_per_hoor", "kilometreXper_hour", "kilometreYper_hour"}
	for _, from := range names {
		for _, to := range names {
			c := New[props]()
			c.Put(from, to, plan.Side{}, plan.Side{}, pl, nil, 0)
			for _, f := range names {
				for _, tn := range names {
					e := c.Get(f, tn, nil, 0)
					if found := e != nil; found != (f == from && tn == to) {
						t.Fatalf("cache of %q → %q: Get(%q, %q) found %v", from, to, f, tn, found)
					}
				}
			}
		}
	}
}
