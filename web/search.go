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

// rank says how well q (and its lower-case form lq) names u, and which
// spelling matched.
func rank(u *engine.Unit, q, lq string) (int, string) {
	if u.Symbol == q {
		return rankSymbol, ""
	}
	spellings := slices.Concat([]string{u.Name, u.Plural}, u.Symbols, u.Aliases)
	best, which := noMatch, ""
	consider := func(r int, s string) {
		if r < best {
			best, which = r, s
		}
	}
	ls := strings.ToLower(u.Symbol)
	if ls == lq {
		consider(rankSpelling, u.Symbol)
	} else if strings.HasPrefix(ls, lq) {
		consider(rankSymbolPrefix, "")
	} else if strings.Contains(ls, lq) {
		consider(rankContains, "")
	}
	for _, s := range spellings {
		l := strings.ToLower(s)
		switch {
		case s == "":
		case l == lq:
			consider(rankSpelling, s)
		case strings.HasPrefix(l, lq):
			consider(rankPrefix, s)
		case strings.Contains(l, lq):
			consider(rankContains, s)
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
func search(g *engine.Graph, q, prefer string, lc *locale.Locale) searchAnswer {
	ans := searchAnswer{Data: []match{}}
	q = strings.TrimSpace(q)
	if q == "" {
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
	for i, u := range g.Units() {
		r, which := rank(u, q, lq)
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
	for _, a := range g.Ambiguities() {
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
	body, err := json.Marshal(search(p.cfg.Graph(), truncate(q.Get("q"), 100), truncate(q.Get("category"), 100), readerLocale(r)))
	if err != nil {
		http.Error(w, "the search could not be rendered", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-cache")
	h.Set("Vary", "Accept-Language")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(append(body, '\n'))
	}
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
