package web

import (
	"net/http"
	"sort"
	"strings"

	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/locale"
)

// Pages follow the browser's Accept-Language for unit names: the catalog
// shows each unit's name in the reader's language (CLDR's), the unit
// page lists its names in every language CLDR has them in, and the
// converter's unit search also finds units by those names. The answers of
// the converter carry result.text in the same language (the API adds it
// for the Accept-Language the browser sends).

// readerLocale is the best CLDR locale for the request's Accept-Language,
// naming the units of g by their claims, or nil when it names none.
// English readers get nil too: the catalog's own names are English.
func readerLocale(r *http.Request, g *engine.Graph) *locale.Locale {
	l, ok := locale.MatchAcceptLanguage(r.Header.Get("Accept-Language"))
	if !ok || l.Language() == "en" {
		return nil
	}
	return l.In(g)
}

// localName is a unit's name in a locale, for a page.
type localName struct {
	Tag, Long, Short, Narrow string
}

func newLocalName(l *locale.Locale, u *engine.Unit) (localName, bool) {
	long, ok := l.DisplayName(u.Symbol, locale.Long)
	if !ok {
		return localName{}, false
	}
	short, _ := l.DisplayName(u.Symbol, locale.Short)
	narrow, _ := l.DisplayName(u.Symbol, locale.Narrow)
	return localName{Tag: l.Tag, Long: long, Short: short, Narrow: narrow}, true
}

// allNames lists u's long name in every language CLDR rates modern (one
// locale per language, its default region), by tag.
func allNames(g *engine.Graph, u *engine.Unit) []localName {
	var out []localName
	for _, tag := range locale.Tags() {
		if strings.Contains(tag, "-") || tag == "und" {
			continue
		}
		l, err := locale.Get(tag, "")
		if err != nil {
			continue
		}
		l = l.In(g)
		if n, ok := newLocalName(l, u); ok {
			out = append(out, n)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Tag < out[j].Tag })
	return out
}
