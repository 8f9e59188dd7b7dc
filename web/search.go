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

// Ranks of a match, best first.
const (
	rankSymbol       = iota // the symbol, exactly
	rankSpelling            // another spelling, exactly (case-insensitive for words)
	rankSymbolPrefix        // the symbol starts with the text
	rankPrefix              // a name or alias starts with the text
	rankContains            // some spelling contains the text
	noMatch
)

// rank says how well q (and its lower-case form lq) names the unit, and
// which spelling matched.
func rank(vu *viewUnit, q, lq string) (int, string) {
	u := vu.u
	if u.Symbol == q {
		return rankSymbol, ""
	}
	best, which := noMatch, ""
	consider := func(r int, s string) {
		if r < best {
			best, which = r, s
		}
	}
	// The symbol first (spellings[0]), then every other spelling.
	ls := vu.spellings[0].lower
	if ls == lq {
		consider(rankSpelling, u.Symbol)
	} else if strings.HasPrefix(ls, lq) {
		consider(rankSymbolPrefix, "")
	} else if strings.Contains(ls, lq) {
		consider(rankContains, "")
	}
	for _, sp := range vu.spellings[1:] {
		switch l := sp.lower; {
		case l == lq:
			consider(rankSpelling, sp.s)
		case strings.HasPrefix(l, lq):
			consider(rankPrefix, sp.s)
		case strings.Contains(l, lq):
			consider(rankContains, sp.s)
		}
	}
	if which == u.Name || which == u.Symbol {
		which = ""
	}
	return best, which
}

func newMatch(u *engine.Unit, matched string) match {
	return match{Symbol: u.Symbol, Name: u.Name, Category: u.Category.ID, CategoryName: u.Category.Name, Matched: matched}
}

// search ranks the units of g for the text q: exact symbol, exact
// spelling, symbol prefix, name or alias prefix, substring. Within a rank,
// units of the category prefer (the other side's, say) come first, then
// the units the catalog lists before those made by a prefix, then catalog
// order.
func search(v *view, q, prefer string, lc *locale.Locale) searchAnswer {
	ans := searchAnswer{Data: []match{}}
	q = strings.TrimSpace(q)
	if q == "" || strings.ContainsRune(q, 0) {
		return ans
	}
	lq := strings.ToLower(q)
	type hit struct {
		rank, order int
		other       bool // not of the preferred category
		prefixed    bool
		m           match
	}
	var hits []hit
	fq := ""
	if lc != nil {
		fq = locale.Fold(q)
	}
	for i := range v.units {
		vu := &v.units[i]
		u := vu.u
		r, which := noMatch, ""
		if vu.matches(lq) { // one substring test rules out most units
			r, which = rank(vu, q, lq)
		}
		if r == noMatch && lc != nil {
			// The reader's own names of the unit ("Zoll", "pouces").
			if n, ok := localMatch(lc, u, fq); ok {
				r, which = rankContains, n
				if locale.Fold(n) == fq {
					r = rankSpelling
				}
			}
		}
		if r != noMatch {
			m := newMatch(u, which)
			if lc != nil {
				m.Local, _ = lc.DisplayName(u.Symbol, locale.Long)
			}
			hits = append(hits, hit{r, i, prefer != "" && u.Category.ID != prefer, u.Prefixed != nil, m})
		}
	}
	slices.SortFunc(hits, func(a, b hit) int {
		if a.rank != b.rank {
			return a.rank - b.rank
		}
		if a.other != b.other {
			if a.other {
				return 1
			}
			return -1
		}
		if a.prefixed != b.prefixed {
			if a.prefixed {
				return 1
			}
			return -1
		}
		return a.order - b.order
	})
	for _, h := range hits[:min(len(hits), maxMatches)] {
		ans.Data = append(ans.Data, h.m)
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
