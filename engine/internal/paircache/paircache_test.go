package paircache

import (
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
