package answer

import (
	"sync"
	"sync/atomic"

	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/engine/text"
	"github.com/unitd/unitd/locale"
)

// readers caches the free-text options of each locale, for the graph
// they were made for: a query over another graph (a reloaded catalog, an
// account's units) replaces them.
var readers sync.Map // *locale.Locale → reader

type reader struct {
	g Graph
	o *text.Options
}

// kitchens caches the foods and foreign names of the few catalogs whose
// free text was read last, in a table of fixed size: an account's overlay,
// even one made for a single request, reads them from its catalog's graph
// (engine.Graph.Catalog: they are the catalog's substances and claims), and
// a reloaded catalog takes the slot of an older one, which is then free to
// go.
var kitchens struct {
	slots [4]atomic.Pointer[kitchen]
	next  atomic.Uint32
}

type kitchen struct {
	g       Graph // the catalog's graph they were made from
	pantry  *text.Pantry
	foreign *text.Foreign
}

// kitchenOf returns the foods and foreign names of g's catalog.
func kitchenOf(g Graph) *kitchen {
	if eg, ok := g.(*engine.Graph); ok {
		g = eg.Catalog()
	}
	for i := range kitchens.slots {
		if k := kitchens.slots[i].Load(); k != nil && k.g == g {
			return k
		}
	}
	k := &kitchen{g: g, pantry: text.NewPantry(g.Substances()), foreign: text.NewForeign(g)}
	kitchens.slots[kitchens.next.Add(1)%uint32(len(kitchens.slots))].Store(k)
	return k
}

var english = sync.OnceValue(func() *locale.Locale {
	l, _ := locale.Match("en")
	return l
})

// options are the free-text options of the locale l (English words with
// no region when l is nil), reading the locale's unit names as the units
// of g that claim them, and a unit whose meaning depends on the region as
// the region of tag.
func options(g Graph, l *locale.Locale, tag string) *text.Options {
	base := l
	if base == nil {
		if base = english(); base == nil {
			return nil
		}
	}
	var o *text.Options
	if v, ok := readers.Load(base); ok && v.(reader).g == g {
		o = v.(reader).o
	} else {
		k := kitchenOf(g)
		o = text.LocaleOptions(base, g, "", "", k.foreign, k.pantry)
		readers.Store(base, reader{g, o})
	}
	if l == nil || tag == "" {
		return o
	}
	region, how, err := g.LocaleRegion(tag)
	if err != nil || region == "" {
		return o
	}
	withRegion := *o
	withRegion.Region, withRegion.RegionHow = region, how
	return &withRegion
}
