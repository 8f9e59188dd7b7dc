package text

import (
	"sort"
	"sync"

	"github.com/unitd/unitd/locale"
)

// LocaleOptions are the options of free text in the locale l (nil:
// English with no region) over the catalog whose claims c are: its
// decimal and grouping separators and unit names, its language's spelled
// numbers, region (region and how, as engine.Graph.LocaleRegion finds
// it), and the names of foreign, the other languages' unit names for the
// message that refuses them.
func LocaleOptions(l *locale.Locale, c locale.Claims, region, how string, foreign *Foreign, pantry *Pantry) *Options {
	o := &Options{Region: region, RegionHow: how, Pantry: pantry}
	if en, err := locale.Match("en"); err == nil {
		o.Named = en.In(c).Named
	}
	if foreign != nil {
		o.Foreign = foreign.Lookup
	}
	if l == nil {
		return o
	}
	l = l.In(c)
	n := l.Numbers()
	o.Locale, o.Language = l.Tag, l.Language()
	o.Decimal, o.Group, o.Primary, o.Secondary = n.Decimal, n.Group, n.Primary, n.Secondary
	o.Names = l.Lookup
	return o
}

// foreignLanguages are the languages whose unit names a text without
// their locale is checked against, for the message that refuses them:
// the languages of the free-text cases (testdata/free_text.tsv).
var foreignLanguages = []string{"de", "fr", "es", "it", "pt", "nl", "sv", "da", "nb", "fi", "pl", "cs", "ru", "tr", "ar", "ja", "zh", "ko", "hi"}

// Foreign finds what a unit name means in other languages.
type Foreign struct {
	c       locale.Claims
	once    sync.Once
	locales []*locale.Locale
}

// NewForeign returns the foreign names of the catalog whose claims c are.
func NewForeign(c locale.Claims) *Foreign { return &Foreign{c: c} }

// Lookup returns the catalog symbols name means in any of the languages.
func (f *Foreign) Lookup(name string) []string {
	f.once.Do(func() {
		for _, tag := range foreignLanguages {
			if l, err := locale.Match(tag); err == nil {
				f.locales = append(f.locales, l.In(f.c))
			}
		}
	})
	var out []string
	for _, l := range f.locales {
		for _, s := range l.Lookup(name) {
			if !contains(out, s) {
				out = append(out, s)
			}
		}
	}
	sort.Strings(out)
	return out
}
