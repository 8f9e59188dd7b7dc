package web

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"

	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/locale"
)

// maxMatches bounds the answer of GET /web/units.
const maxMatches = 10

// match is one unit offered by the converter's search.
type match struct {
	Symbol       string `json:"symbol"`
	Name         string `json:"name"`
	Category     string `json:"category"`
	CategoryName string `json:"category_name"`
	// Matched is the spelling that matched when it is not the symbol or
	// the name (an alias such as "miles per hour").
	Matched string `json:"matched,omitempty"`
	// Local is the unit's name in the reader's language (CLDR's), when
	// the browser asks for one other than English.
	Local string `json:"local,omitempty"`
	// Suggested marks a substance offered because it is spelled close to
	// a text that matches none.
	Suggested bool `json:"suggested,omitempty"`
}

type ambiguousMatch struct {
	Name       string  `json:"name"`
	Note       string  `json:"note"`
	Candidates []match `json:"candidates"`
}

type searchAnswer struct {
	Data      []match         `json:"data"`
	Ambiguous *ambiguousMatch `json:"ambiguous"`
}

func newMatch(u *engine.Unit, matched string) match {
	return match{Symbol: u.Symbol, Name: u.Name, Category: u.Category.ID, CategoryName: u.Category.Name, Matched: matched}
}

// search ranks the units of v for the text q as engine.Graph.SearchUnits
// does (the ranking of GET /v1/units?q= and the catalog page), with the
// reader's names of lc, then lists first, within each rank, the units of
// the category prefer (the other side's, say).
func search(v *view, q, prefer string, lc *locale.Locale) searchAnswer {
	ans := searchAnswer{Data: []match{}}
	q = strings.TrimSpace(q)
	if q == "" || strings.ContainsRune(q, 0) {
		return ans
	}
	var words engine.UnitWords
	if lc != nil {
		words = lc
	}
	found := v.g.SearchUnits(q, words)
	if prefer != "" {
		slices.SortStableFunc(found, func(a, b engine.UnitMatch) int {
			if a.Rank != b.Rank {
				return int(a.Rank - b.Rank)
			}
			return other(a.Unit, prefer) - other(b.Unit, prefer)
		})
	}
	for _, f := range found[:min(len(found), maxMatches)] {
		which := f.Matched
		if which == f.Unit.Name || which == f.Unit.Symbol {
			which = ""
		}
		m := newMatch(f.Unit, which)
		if lc != nil {
			m.Local, _ = lc.DisplayName(f.Unit.Symbol, locale.Long)
		}
		ans.Data = append(ans.Data, m)
	}
	for _, a := range v.g.Ambiguities() {
		if strings.EqualFold(a.Name, q) {
			am := &ambiguousMatch{Name: a.Name, Note: a.Note, Candidates: []match{}}
			for _, u := range a.Candidates {
				am.Candidates = append(am.Candidates, newMatch(u, ""))
			}
			ans.Ambiguous = am
			break
		}
	}
	return ans
}

// other is 1 when u is not of the category prefer, else 0.
func other(u *engine.Unit, prefer string) int {
	if u.Category.ID != prefer {
		return 1
	}
	return 0
}

// searchUnits serves GET /web/units?q=text[&category=id] for the
// converter's unit fields; category names the category to list first.
func (p *Pages) searchUnits(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	text, prefer := truncate(q.Get("q"), 100), truncate(q.Get("category"), 100)
	v := p.view()
	lc := readerLocale(r, v.g)
	p.cached(w, r, v, "units\x00"+text+"\x00"+prefer+"\x00"+localeKey(lc), func() (*cachedPage, int) {
		body, err := json.Marshal(search(v, text, prefer, lc))
		if err != nil {
			return &cachedPage{status: http.StatusInternalServerError, ctype: "text/plain; charset=utf-8",
				body: []byte("the search could not be rendered\n")}, 0
		}
		return &cachedPage{status: http.StatusOK, ctype: "application/json", body: append(body, '\n')}, len(v.units)
	})
}

// truncate cuts s to at most n bytes on a rune boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
