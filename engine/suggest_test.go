package engine

import (
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"
)

// scanSuggest is the plain definition of a suggestion, by a scan of every
// spelling: the index must give the same answers.
func scanSuggest(spellings []spelling, name string, n int) []string {
	if name == "" || len(name) > maxSuggestName {
		return []string{}
	}
	q := []rune(strings.ToLower(name))
	limit := 2
	if len(q) > 6 {
		limit = 3
	}
	best := map[string]int{}
	for _, s := range spellings {
		sp := []rune(strings.ToLower(s.text))
		d := levenshtein(q, sp)
		if len(q) > 1 && len(sp) > 1 && (isSubsequence(q, sp) || isSubsequence(sp, q)) {
			d--
		}
		if d > limit {
			continue
		}
		if old, ok := best[s.unit.Symbol]; !ok || d < old {
			best[s.unit.Symbol] = d
		}
	}
	syms := make([]string, 0, len(best))
	for s := range best {
		syms = append(syms, s)
	}
	sort.Slice(syms, func(i, j int) bool {
		if best[syms[i]] != best[syms[j]] {
			return best[syms[i]] < best[syms[j]]
		}
		return syms[i] < syms[j]
	})
	return append([]string{}, syms[:min(n, len(syms))]...)
}

func levenshtein(a, b []rune) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// mutate applies k random edits (insert, delete, substitute, swap).
func mutate(rng *rand.Rand, s string, k int) string {
	r := []rune(s)
	alphabet := []rune("abcdefghijklmnopqrstuvwxyz0123456789 °µ/-")
	for range k {
		p := rng.IntN(len(r) + 1)
		switch rng.IntN(4) {
		case 0:
			r = slices.Insert(r, p, alphabet[rng.IntN(len(alphabet))])
		case 1:
			if p < len(r) {
				r = slices.Delete(r, p, p+1)
			}
		case 2:
			if p < len(r) {
				r[p] = alphabet[rng.IntN(len(alphabet))]
			}
		case 3:
			if p+1 < len(r) {
				r[p], r[p+1] = r[p+1], r[p]
			}
		}
	}
	return string(r)
}

// TestSuggestIndexMatchesScan compares the index with a scan of every
// spelling on typos of real spellings, on random names of every length up
// to the cap, with a few hundred more spellings than the test catalog has.
func TestSuggestIndexMatchesScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	spellings := slices.Clone(testGraph(t).spellings)
	for i := range 500 {
		u := &Unit{Symbol: "u" + string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + string(rune('a'+i/676))}
		spellings = append(spellings, spelling{mutate(rng, "kilogram metre second", rng.IntN(12)), u})
	}
	x := newSuggestIndex(spellings)
	var queries []string
	for _, s := range spellings[:80] {
		for k := range 4 {
			queries = append(queries, mutate(rng, s.text, k))
		}
	}
	for l := 1; l <= maxSuggestName+2; l++ {
		queries = append(queries, mutate(rng, strings.Repeat("x", l), l))
	}
	queries = append(queries, "metr", "feett", "mtr", "Kilometrs", "DEGC", "°c", "µm", "fet")
	for _, q := range queries {
		got, want := x.suggest(q, 5), scanSuggest(spellings, q, 5)
		if !slices.Equal(got, want) {
			t.Fatalf("suggest(%q) = %v, a scan gives %v", q, got, want)
		}
	}
}

// TestSuggestionsAreGood: the suggestions a reader expects for common
// mistakes in the test catalog.
func TestSuggestionsAreGood(t *testing.T) {
	g := testGraph(t)
	for _, tt := range []struct {
		name  string
		first string
	}{
		{"metr", "m"},
		{"mtr", "m"},
		{"metrs", "m"},
		{"fet", "ft"},
		{"feett", "ft"},
		{"FEEET", "ft"},
		{"kilometrs", "km"},
		{"kilometre s", "km"},
	} {
		_, err := g.Lookup(tt.name)
		e, ok := err.(*Error)
		if !ok || e.Code != CodeUnknownUnit {
			t.Fatalf("Lookup(%q) = %v, want UNKNOWN_UNIT", tt.name, err)
		}
		if len(e.Suggestions) == 0 || e.Suggestions[0] != tt.first || len(e.Suggestions) > 5 {
			t.Errorf("suggestions for %q = %v, want %s first, at most 5", tt.name, e.Suggestions, tt.first)
		}
	}
}

// TestSuggestCostIsBounded: an unknown name computes few edit distances,
// and a name longer than the cap none at all, whatever the catalog holds.
func TestSuggestCostIsBounded(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	var spellings []spelling
	u := &Unit{Symbol: "x"}
	for range 5000 {
		spellings = append(spellings, spelling{mutate(rng, "abcdefghijklmnopqrstuvwxyz", 40), u})
	}
	x := newSuggestIndex(spellings)
	for _, tt := range []struct {
		name string
		max  int
	}{
		{strings.Repeat("q", maxSuggestName+1), 0},
		{strings.Repeat("zq", maxSuggestName/2), 0},
		{"metre", 50},
		{"qwertyuiopasdfghjklzxcv", 250},
	} {
		_, n := x.search(tt.name, 5)
		if n > tt.max {
			t.Errorf("%q computed %d distances among %d spellings, want at most %d", tt.name, n, len(spellings), tt.max)
		}
	}
}
