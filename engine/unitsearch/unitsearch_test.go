package unitsearch_test

import (
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/unitd/unitd/catalog"
	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/locale"
)

// TestSearchUnitsRanks: on the shipped catalog, the unit a text names
// comes first: by its symbol, then a symbol in another case, then a
// name, alias or the reader's word, then a prefix, then a part; ties go
// to the shorter name, then the symbol.
func TestSearchUnitsRanks(t *testing.T) {
	g := shipped(t)
	de := wordsOf(t, g, "de")
	fr := wordsOf(t, g, "fr")
	for _, tt := range []struct {
		q      string
		words  engine.UnitWords
		first  []string // the first matches, in order
		rank   engine.UnitRank
		reason string
	}{
		{"m", nil, []string{"m"}, engine.UnitSymbol, "a symbol"},
		{"foot", nil, []string{"ft"}, engine.UnitWord, "a name"},
		{"Feet", nil, []string{"ft"}, engine.UnitWord, "a plural in another case"},
		{"°C", nil, []string{"degC"}, engine.UnitSymbol, "another symbol"},
		{"MPH", nil, []string{"mph"}, engine.UnitSymbolCase, "a symbol in another case"},
		{"gallon", nil, []string{"gal", "gal_imp"}, engine.UnitWord, "an ambiguous name: its candidates, the shorter name first"},
		{"Zoll", de, []string{"in"}, engine.UnitWord, "the reader's word"},
		{"zoll", de, []string{"in"}, engine.UnitWord, "the reader's word in another case"},
		{"pouces", fr, []string{"in"}, engine.UnitWord, "the reader's plural"},
	} {
		got := g.SearchUnits(tt.q, tt.words)
		if len(got) < len(tt.first) {
			t.Fatalf("%q (%s): %d matches", tt.q, tt.reason, len(got))
		}
		for i, sym := range tt.first {
			if got[i].Unit.Symbol != sym || got[i].Rank != tt.rank {
				t.Errorf("%q (%s): match %d is %s (rank %d, by %q), want %s (rank %d)", tt.q, tt.reason, i, got[i].Unit.Symbol, got[i].Rank, got[i].Matched, sym, tt.rank)
			}
		}
		checkOrder(t, tt.q, got)
	}
}

// checkOrder fails unless the matches are in rank order, ties by the
// shorter name and then the symbol, each unit once.
func checkOrder(t *testing.T, q string, got []engine.UnitMatch) {
	t.Helper()
	seen := map[*engine.Unit]bool{}
	for i, m := range got {
		if seen[m.Unit] {
			t.Errorf("%q: %s twice", q, m.Unit.Symbol)
		}
		seen[m.Unit] = true
		if i == 0 {
			continue
		}
		p := got[i-1]
		lp, lm := len([]rune(p.Unit.Name)), len([]rune(m.Unit.Name))
		if p.Rank > m.Rank || p.Rank == m.Rank && (lp > lm || lp == lm && p.Unit.Symbol > m.Unit.Symbol) {
			t.Errorf("%q: %s (rank %d) before %s (rank %d)", q, p.Unit.Symbol, p.Rank, m.Unit.Symbol, m.Rank)
		}
	}
}

// TestSearchUnitsMatchesSubstrings: the search finds exactly the units
// one of whose spellings (or the reader's names) contains the text, case
// aside, whatever their ranks.
func TestSearchUnitsMatchesSubstrings(t *testing.T) {
	g := shipped(t)
	de := wordsOf(t, g, "de")
	for _, tt := range []struct {
		q     string
		words engine.UnitWords
	}{{"ton", nil}, {"M", nil}, {"per h", nil}, {"Zoll", de}, {"meter", de}, {"gallon", nil}} {
		want := map[string]bool{}
		lq := strings.ToLower(tt.q)
		for _, u := range g.Units() {
			spellings := slices.Concat([]string{u.Symbol, u.Name, u.Plural}, u.Symbols, u.Aliases)
			if tt.words != nil {
				for _, n := range tt.words.Names(u.Symbol) {
					if strings.Contains(tt.words.Fold(n), tt.words.Fold(tt.q)) {
						want[u.Symbol] = true
					}
				}
			}
			for _, s := range spellings {
				if s != "" && strings.Contains(strings.ToLower(s), lq) {
					want[u.Symbol] = true
				}
			}
		}
		got := g.SearchUnits(tt.q, tt.words)
		if len(got) != len(want) {
			t.Errorf("%q: %d matches, want the %d units with a spelling that holds it", tt.q, len(got), len(want))
		}
		for _, m := range got {
			if !want[m.Unit.Symbol] {
				t.Errorf("%q: %s matched, but none of its spellings holds the text", tt.q, m.Unit.Symbol)
			}
		}
		checkOrder(t, tt.q, got)
	}
	for _, q := range []string{"", "m\x00"} {
		if got := g.SearchUnits(q, nil); len(got) != 0 {
			t.Errorf("%q: %d matches, want none", q, len(got))
		}
	}
}

func wordsOf(t *testing.T, g *engine.Graph, tag string) engine.UnitWords {
	t.Helper()
	l, err := locale.Match(tag)
	if err != nil {
		t.Fatal(err)
	}
	return l.In(g)
}

// shipped is the shipped catalog's graph, restored once for the tests.
func shipped(t *testing.T) *engine.Graph {
	t.Helper()
	g, errs := loadShipped()
	if len(errs) > 0 {
		t.Fatalf("the shipped catalog does not load: %v", errs)
	}
	return g
}

var loadShipped = sync.OnceValues(catalog.LoadEmbedded)
