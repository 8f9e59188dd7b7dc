package answer

import (
	"sync"

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

// kitchens caches each graph's foods and foreign names.
var kitchens sync.Map // Graph → *kitchen

type kitchen struct {
	pantry  *text.Pantry
	foreign *text.Foreign
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
		k, _ := kitchens.Load(g)
		if k == nil {
			k, _ = kitchens.LoadOrStore(g, &kitchen{pantry: text.NewPantry(g.Substances()), foreign: text.NewForeign(g)})
		}
		kk := k.(*kitchen)
		o = text.LocaleOptions(base, g, "", "", kk.foreign, kk.pantry)
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
