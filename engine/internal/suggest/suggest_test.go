package suggest

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
	if name == "" || len(name) > MaxName {
		return []string{}
	}
	q := []rune(strings.ToLower(name))
	limit := Limit(len(q))
	best := map[string]int{}
	for _, s := range spellings {
		sp := []rune(strings.ToLower(s.text))
		d := refDistance(q, sp)
		if len(q) > 2 && len(sp) > 1 && (isSubsequence(q, sp) || isSubsequence(sp, q)) {
			d--
		}
		if d > limit {
			continue
		}
		if old, ok := best[s.symbol]; !ok || d < old {
			best[s.symbol] = d
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

func refDistance(a, b []rune) int {
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
	spellings := slices.Clone(unitSpellings)
	for i := range 500 {
		sym := "u" + string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + string(rune('a'+i/676))
		spellings = append(spellings, spelling{mutate(rng, "kilogram metre second", rng.IntN(12)), sym})
	}
	x := index(spellings)
	var queries []string
	for _, s := range spellings[:80] {
		for k := range 4 {
			queries = append(queries, mutate(rng, s.text, k))
		}
	}
	for l := 1; l <= MaxName+2; l++ {
		queries = append(queries, mutate(rng, strings.Repeat("x", l), l))
	}
	queries = append(queries, "metr", "feett", "mtr", "Kilometrs", "DEGC", "°c", "µm", "fet")
	for _, q := range queries {
		got, want := x.Suggest(q, 5), scanSuggest(spellings, q, 5)
		if !slices.Equal(got, want) {
			t.Fatalf("suggest(%q) = %v, a scan gives %v", q, got, want)
		}
	}
}

// TestSuggestCostIsBounded: an unknown name computes few edit distances,
// and a name longer than the cap none at all, whatever the catalog holds.
func TestSuggestCostIsBounded(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	var spellings []spelling
	for range 5000 {
		spellings = append(spellings, spelling{mutate(rng, "abcdefghijklmnopqrstuvwxyz", 40), "x"})
	}
	x := index(spellings)
	for _, tt := range []struct {
		name string
		max  int
	}{
		{strings.Repeat("q", MaxName+1), 0},
		{strings.Repeat("zq", MaxName/2), 0},
		{"metre", 50},
		{"qwertyuiopasdfghjklzxcv", 250},
	} {
		_, n := x.search(tt.name, 5)
		if n > tt.max {
			t.Errorf("%q computed %d distances among %d spellings, want at most %d", tt.name, n, len(spellings), tt.max)
		}
	}
}

type spelling struct{ text, symbol string }

func index(spellings []spelling) *Index {
	x := &Index{}
	for _, s := range spellings {
		x.Add(s.text, s.symbol)
	}
	return x
}

// unitSpellings are spellings of a small catalog: symbols, names, plurals
// and aliases of common units, prefixed ones included.
var unitSpellings = func() []spelling {
	var out []spelling
	for _, u := range [][]string{
		{"m", "metre", "metres", "meter", "meters"}, {"km", "kilometre", "kilometres", "kilometer"},
		{"cm", "centimetre", "centimetres"}, {"mm", "millimetre", "millimetres"},
		{"ft", "foot", "feet"}, {"in", "inch", "inches"}, {"yd", "yard", "yards"}, {"mi", "mile", "miles"},
		{"g", "gram", "grams"}, {"kg", "kilogram", "kilograms"}, {"mg", "milligram"}, {"lb", "pound", "pounds"},
		{"s", "second", "seconds"}, {"ms", "millisecond"}, {"min", "minute", "minutes"}, {"h", "hour", "hours"},
		{"degC", "°C", "degree Celsius", "degrees Celsius"}, {"degF", "°F", "degree Fahrenheit"}, {"K", "kelvin"},
		{"µm", "um", "micrometre", "micron"}, {"L", "l", "litre", "liter", "litres"}, {"mL", "ml", "millilitre"},
		{"Pa", "pascal"}, {"kPa", "kilopascal"}, {"bar", "bars"}, {"psi", "pound per square inch"},
	} {
		for _, s := range u {
			out = append(out, spelling{s, u[0]})
		}
	}
	return out
}()

// TestShortNamesAreCheap: a name of one or two characters is refused at
// about the cost of a look-up, whatever the catalog's short symbols.
func TestShortNamesAreCheap(t *testing.T) {
	var spellings []spelling
	for a := 'a'; a <= 'z'; a++ {
		for b := 'a'; b <= 'z'; b++ {
			spellings = append(spellings, spelling{string([]rune{a, b}), string([]rune{a, b})})
			for c := 'a'; c <= 'z'; c++ {
				s := string([]rune{a, b, c})
				spellings = append(spellings, spelling{s, s})
			}
		}
		spellings = append(spellings, spelling{string(a), string(a)})
	}
	x := index(spellings)
	for _, name := range []string{"1", "x", "zz", "#", "1m"} {
		got, want := x.Suggest(name, 5), scanSuggest(spellings, name, 5)
		if !slices.Equal(got, want) {
			t.Errorf("Suggest(%q) = %v, a scan gives %v", name, got, want)
		}
		if _, n := x.search(name, 5); n > len(spellings)/8 {
			t.Errorf("%q computed %d distances among %d spellings, want at most an eighth of them", name, n, len(spellings))
		}
	}
}

func TestDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		d    int
	}{
		{"", "", 0}, {"a", "", 1}, {"kitten", "sitting", 3}, {"°C", "°F", 1}, {"metre", "meter", 2},
		{strings.Repeat("a", 70), strings.Repeat("a", 69) + "b", 1},
	} {
		if d := Distance(tt.a, tt.b); d != tt.d {
			t.Errorf("Distance(%q, %q) = %d, want %d", tt.a, tt.b, d, tt.d)
		}
		if d := Distance(tt.b, tt.a); d != tt.d {
			t.Errorf("Distance(%q, %q) = %d, want %d", tt.b, tt.a, d, tt.d)
		}
	}
}
