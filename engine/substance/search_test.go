package substance_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/unitd/unitd/catalog"
	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/engine/substance"
)

// searchResult writes a search's answer as "id:rank:field" items, so that
// a table can say what it expects in one string.
func searchResult(ms []substance.Match) string {
	var parts []string
	for _, m := range ms {
		parts = append(parts, fmt.Sprintf("%s:%s:%s", m.Substance.ID, rankName[m.Rank], m.Field))
	}
	return strings.Join(parts, " ")
}

var rankName = map[substance.Rank]string{
	substance.Exact: "exact", substance.Prefix: "prefix", substance.Contains: "contains",
	substance.Words: "words", substance.Fuzzy: "fuzzy",
}

// TestSubstanceSearchRules ranks a small fixed list of substances, one
// rule a row: exact before prefix before part before words, fuzzy only
// when nothing else matches; the formula case-sensitive when exact; ties
// by the shorter spelling, then ID, name, formula, alias, food, CAS
// number, then the list's order.
func TestSubstanceSearchRules(t *testing.T) {
	subs := []*substance.Substance{
		{ID: "carbon-monoxide", Name: "carbon monoxide", Formula: "CO", CAS: "630-08-0"},
		{ID: "carbon-dioxide", Name: "carbon dioxide", Formula: "CO2", Aliases: []string{"CO2 gas"}, CAS: "124-38-9"},
		{ID: "bicarbonate", Name: "bicarbonate", Aliases: []string{"HCO3-", "total CO2", "CO2 content"}},
		{ID: "cholesterol", Name: "cholesterol", Formula: "C27H46O", Aliases: []string{"TC"}},
		{ID: "hdl-cholesterol", Name: "HDL cholesterol", Formula: "C27H46O", Aliases: []string{"HDL"}},
		{ID: "brown-sugar-packed", Name: "brown sugar, packed", Aliases: []string{"packed brown sugar"}, Kind: "food", Food: "brown sugar", State: "packed"},
		{ID: "brown-sugar-unpacked", Name: "brown sugar, unpacked", Aliases: []string{"unpacked brown sugar"}, Kind: "food", Food: "brown sugar", State: "unpacked"},
		{ID: "sugar", Name: "sugar, granulated", Aliases: []string{"sugar", "white sugar"}, Kind: "food", Food: "sugar"},
		{ID: "abcd", Name: "abcd"},
	}
	x := substance.NewIndex(subs)
	for _, tt := range []struct{ q, want string }{
		// The formula exactly, as written; another case is a prefix.
		{"CO2", "carbon-dioxide:exact:formula bicarbonate:prefix:alias"},
		{"co2", "carbon-dioxide:prefix:formula bicarbonate:prefix:alias"},
		{"CO", "carbon-monoxide:exact:formula carbon-dioxide:prefix:formula bicarbonate:prefix:alias"},
		// A formula several substances share names each, in list order.
		{"C27H46O", "cholesterol:exact:formula hdl-cholesterol:exact:formula"},
		// Names and aliases without regard to case or spacing.
		{"  HDL   Cholesterol ", "hdl-cholesterol:exact:name"},
		{"hdl", "hdl-cholesterol:exact:alias"},
		{"630-08-0", "carbon-monoxide:exact:cas"},
		// The food names each of its states; a shorter spelling first.
		{"brown sugar", "brown-sugar-packed:exact:food brown-sugar-unpacked:exact:food"},
		{"sugar", "sugar:exact:id brown-sugar-packed:contains:food brown-sugar-unpacked:contains:food"},
		{"chol", "cholesterol:prefix:id hdl-cholesterol:contains:id"},
		// Every word within one spelling, in any order.
		{"sugar brown packed", "brown-sugar-packed:words:id brown-sugar-unpacked:words:id"},
		// Nothing matches: the closest spellings, a swap one edit.
		{"carbon dioxyde", "carbon-dioxide:fuzzy:name"},
		{"abdc", "abcd:fuzzy:id"},
		{"bicarbonat", "bicarbonate:prefix:id"},
		{"bicarbnoate", "bicarbonate:fuzzy:id"},
		// Too short or too far for a suggestion, or nothing at all.
		{"zz", ""},
		{"zzzz", ""},
		{"NaCl", ""},
		{"", ""},
		{"   ", ""},
	} {
		if got := searchResult(x.Search(tt.q)); got != tt.want {
			t.Errorf("%q:\n got %s\nwant %s", tt.q, got, tt.want)
		}
	}
	if ms := x.Search("carbon dioxyde"); ms[0].Matched != "carbon dioxide" || ms[0].Distance != 1 {
		t.Errorf("carbon dioxyde: %+v", ms[0])
	}
	var nilIndex *substance.Index
	if ms := nilIndex.Search("CO"); ms != nil {
		t.Errorf("a nil index found %v", ms)
	}
}

// TestSubstanceSearchSuggestionsBounded: a fuzzy answer holds at most
// MaxSuggestions substances, the closest, while a part matches
// every substance it is part of.
func TestSubstanceSearchSuggestionsBounded(t *testing.T) {
	var subs []*substance.Substance
	for i := range 8 {
		id := fmt.Sprintf("salt%d", i)
		subs = append(subs, &substance.Substance{ID: id, Name: id})
	}
	x := substance.NewIndex(subs)
	if ms := x.Search("salt"); len(ms) != 8 {
		t.Errorf("salt: %d matches, want 8", len(ms))
	}
	ms := x.Search("slat3")
	if len(ms) != substance.MaxSuggestions || ms[0].Substance.ID != "salt3" || ms[0].Distance != 1 {
		t.Errorf("slat3: %s", searchResult(ms))
	}
	for _, m := range ms[1:] {
		if m.Rank != substance.Fuzzy || m.Distance != 2 {
			t.Errorf("slat3: %+v after salt3", m)
		}
	}
}

// TestSubstanceSearchShipped: what people type for the shipped substances
// and measurands finds them first, by name, alias, abbreviation, CAS
// number and formula.
func TestSubstanceSearchShipped(t *testing.T) {
	g := shipped(t)
	x := substance.NewIndex(g.Substances())
	for _, tt := range []struct {
		q, first string
		rank     substance.Rank
		field    string
		count    int // the number of matches, or -1 for any
	}{
		{"glucose", "glucose", substance.Exact, substance.FieldID, 1},
		{"Blood Sugar", "glucose", substance.Exact, substance.FieldAlias, -1},
		{"50-99-7", "glucose", substance.Exact, substance.FieldCAS, 1},
		{"C6H12O6", "glucose", substance.Exact, substance.FieldFormula, -1},
		{"CO2", "carbon-dioxide", substance.Exact, substance.FieldFormula, -1},
		{"CO", "carbon-monoxide", substance.Exact, substance.FieldFormula, -1},
		{"BUN", "urea-nitrogen", substance.Exact, substance.FieldAlias, 1},
		{"LDL", "ldl-cholesterol", substance.Exact, substance.FieldAlias, 1},
		{"HbA1c", "hba1c", substance.Exact, substance.FieldID, 1},
		{"A1C", "hba1c", substance.Exact, substance.FieldAlias, 1},
		{"a1c", "hba1c", substance.Exact, substance.FieldAlias, 1},
		{"hemoglobin", "hemoglobin", substance.Exact, substance.FieldID, 3},
		{"haemoglobin", "hemoglobin", substance.Exact, substance.FieldAlias, 3},
		{"Hb", "hemoglobin", substance.Exact, substance.FieldAlias, 3},
		{"glycated", "hba1c", substance.Prefix, substance.FieldAlias, 1},
		{"hemoglobn", "hemoglobin", substance.Fuzzy, substance.FieldID, -1},
		{"petrol", "gasoline", substance.Exact, substance.FieldAlias, -1},
		{"brown sugar", "brown-sugar-brownulated", substance.Exact, substance.FieldFood, 3},
		{"gluc", "glucose", substance.Prefix, substance.FieldID, -1},
		{"glucsoe", "glucose", substance.Fuzzy, substance.FieldID, 1},
		{"NaCl", "", 0, "", 0},
	} {
		ms := x.Search(tt.q)
		if tt.count >= 0 && len(ms) != tt.count {
			t.Errorf("%q: %d matches (%s), want %d", tt.q, len(ms), searchResult(ms), tt.count)
		}
		if tt.first == "" {
			continue
		}
		if len(ms) == 0 || ms[0].Substance.ID != tt.first || ms[0].Rank != tt.rank || ms[0].Field != tt.field {
			t.Errorf("%q: %s, want %s first (%s by %s)", tt.q, searchResult(ms), tt.first, rankName[tt.rank], tt.field)
		}
	}
	// Every spelling of every substance finds it exactly.
	for _, s := range g.Substances() {
		for _, sp := range append([]string{s.ID, s.Name, s.CAS, s.Formula}, s.Aliases...) {
			if sp == "" {
				continue
			}
			found := false
			for _, m := range x.Search(sp) {
				found = found || m.Substance == s && m.Rank == substance.Exact
			}
			if !found {
				t.Errorf("%s: %q does not find it exactly", s.ID, sp)
			}
		}
	}
}

// BenchmarkSubstanceSearch measures a search of the shipped substances:
// one that matches by part, and an unknown name that computes suggestions.
func BenchmarkSubstanceSearch(b *testing.B) {
	g := shipped(b)
	x := substance.NewIndex(g.Substances())
	for _, q := range []string{"sugar", "glucsoe", "an unknown substance name"} {
		b.Run(q, func(b *testing.B) {
			for b.Loop() {
				x.Search(q)
			}
		})
	}
}

// FuzzSubstanceSearch: whatever the text, a search of the shipped
// substances answers without panicking, each substance at most once, best
// first, and fuzzy matches only alone and at most MaxSuggestions.
func FuzzSubstanceSearch(f *testing.F) {
	for _, q := range []string{"glucose", "CO2", "glucsoe", "brown sugar", "sugar brown packed", " ", "\xff\xfe", "HCO₃⁻", strings.Repeat("ab", 40)} {
		f.Add(q)
	}
	x := substance.NewIndex(shipped(f).Substances())
	f.Fuzz(func(t *testing.T, q string) {
		ms := x.Search(q)
		seen := map[*substance.Substance]bool{}
		for i, m := range ms {
			if seen[m.Substance] {
				t.Fatalf("%q: %s twice", q, m.Substance.ID)
			}
			seen[m.Substance] = true
			if i > 0 && m.Rank < ms[i-1].Rank {
				t.Fatalf("%q: %s", q, searchResult(ms))
			}
			if (m.Rank == substance.Fuzzy) != (ms[0].Rank == substance.Fuzzy) {
				t.Fatalf("%q: fuzzy matches beside others: %s", q, searchResult(ms))
			}
		}
		if len(ms) > 0 && ms[0].Rank == substance.Fuzzy && len(ms) > substance.MaxSuggestions {
			t.Fatalf("%q: %d suggestions", q, len(ms))
		}
	})
}

// shipped compiles the shipped catalog once per test binary.
func shipped(t testing.TB) interface{ Substances() []*substance.Substance } {
	t.Helper()
	g, errs := shippedOnce()
	if len(errs) > 0 || g == nil {
		t.Fatalf("the shipped catalog does not compile: %v", errs)
	}
	return g
}

var shippedOnce = sync.OnceValues(func() (*engine.Graph, []error) { return catalog.Load(catalog.Embedded()) })
