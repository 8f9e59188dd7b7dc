package web

import (
	"slices"
	"strings"
	"testing"

	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/locale"
)

// TestCatalogSearchRanksExactMatchesFirst: on the shipped catalog, the
// catalog page's search lists the unit a text names before the units whose
// spellings merely contain it, and keeps every match.
func TestCatalogSearchRanksExactMatchesFirst(t *testing.T) {
	g := shippedGraph(t)
	for _, tt := range []struct {
		q     string
		first []string // in any order
	}{
		{"gallon", []string{"gal", "gal_imp"}}, // an ambiguous name: its candidates
		{"ft", []string{"ft"}},                 // a symbol
		{"foot", []string{"ft"}},               // a name
		{"metre", []string{"m"}},               // a name
		{"Feet", []string{"ft"}},               // a plural, in another case
		{"mph", []string{"mph"}},
	} {
		units := catalogSearch(newView(g), tt.q, "", "")
		if len(units) < len(tt.first) {
			t.Fatalf("%q: %d matches", tt.q, len(units))
		}
		var got []string
		for _, u := range units[:len(tt.first)] {
			got = append(got, u.Symbol)
		}
		slices.Sort(got)
		want := slices.Sorted(slices.Values(tt.first))
		if !slices.Equal(got, want) {
			t.Errorf("%q: first %v, want %v", tt.q, got, want)
		}
		// The same units as a plain substring filter, in another order.
		n := 0
		lq := strings.ToLower(tt.q)
		for _, u := range g.Units() {
			for _, s := range slices.Concat([]string{u.Symbol, u.Name, u.Plural}, u.Symbols, u.Aliases) {
				if strings.Contains(strings.ToLower(s), lq) {
					n++
					break
				}
			}
		}
		if len(units) != n {
			t.Errorf("%q: %d matches, want the %d units whose spellings contain it", tt.q, len(units), n)
		}
	}
}

// TestFavicon: /favicon.ico, which browsers ask for by themselves, is an
// icon, and every page names it.
func TestFavicon(t *testing.T) {
	p := newPages(t)
	rec := get(t, p, "/favicon.ico")
	body := rec.Body.Bytes()
	if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "image/") || len(body) < 22 || string(body[:4]) != "\x00\x00\x01\x00" {
		t.Errorf("/favicon.ico: %d %q, %d bytes", rec.Code, rec.Header().Get("Content-Type"), len(body))
	}
	if page := get(t, p, "/catalog").Body.String(); !strings.Contains(page, `<link rel="icon" href="/static/favicon.ico?v=`) {
		t.Error("the catalog page does not name the icon")
	}
}

// TestSearchesRankAsTheAPI: the catalog page and the converter list the
// units a text names in the order of engine.Graph.SearchUnits, which
// GET /v1/units?q= lists them in too; the converter with the reader's
// names.
func TestSearchesRankAsTheAPI(t *testing.T) {
	g := shippedGraph(t)
	v := newView(g)
	de, err := locale.Match("de")
	if err != nil {
		t.Fatal(err)
	}
	de = de.In(g)
	for _, tt := range []struct {
		q, first string
		lc       *locale.Locale
	}{
		{"foot", "ft", nil},
		{"m", "m", nil},
		{"ton", "t", nil},
		{"Zoll", "in", de},
		{"meter", "m", de},
	} {
		var words engine.UnitWords
		if tt.lc != nil {
			words = tt.lc
		}
		var want []string
		for _, m := range g.SearchUnits(tt.q, words) {
			want = append(want, m.Unit.Symbol)
		}
		if len(want) == 0 || want[0] != tt.first {
			t.Fatalf("%q: SearchUnits gives %v, want %s first", tt.q, want[:min(len(want), 5)], tt.first)
		}
		var conv []string
		for _, m := range search(v, tt.q, "", tt.lc).Data {
			conv = append(conv, m.Symbol)
		}
		if !slices.Equal(conv, want[:min(len(want), maxMatches)]) {
			t.Errorf("%q: the converter lists %v, want %v", tt.q, conv, want[:min(len(want), maxMatches)])
		}
		if tt.lc != nil {
			continue // the catalog page searches the catalog's own names
		}
		var rows []string
		for _, r := range catalogSearch(v, tt.q, "", "") {
			rows = append(rows, r.Symbol)
		}
		if !slices.Equal(rows, want) {
			t.Errorf("%q: the catalog page lists %v, want %v", tt.q, rows[:min(len(rows), 10)], want[:min(len(want), 10)])
		}
	}
}
