package text

import (
	"sync"
	"testing"

	"github.com/unitd/unitd/catalog"
	"github.com/unitd/unitd/engine"
)

// LoadShipped compiles the shipped catalog once for the test binary, for
// this file and the package's external tests (text_test.go): a graph is
// immutable.
var LoadShipped = sync.OnceValues(func() (*engine.Graph, []error) { return catalog.Load(catalog.Embedded()) })

// TestFoodWordsFindFoods: every word of foodwords.go finds, in the
// shipped catalog, the foods its English name finds there, in its own
// language only; the catalog's own names come first.
func TestFoodWordsFindFoods(t *testing.T) {
	g, errs := LoadShipped()
	if len(errs) > 0 {
		t.Fatal(errs[0])
	}
	p := NewPantry(g.Substances())
	if len(foodWords["de"]) == 0 {
		t.Fatal("no German words for foods")
	}
	for lang, list := range foodWords {
		for _, w := range list {
			english := p.Find(w.english, "")
			if len(english) == 0 {
				t.Errorf("%s %q: its English name %q names no food of the catalog", lang, w.word, w.english)
				continue
			}
			got := p.Find(w.word, lang)
			if len(p.Find(w.word, "")) > 0 {
				continue // a catalog name too ("Butter"): read as the catalog's
			}
			for _, s := range english {
				found := false
				for _, x := range got {
					found = found || x == s
				}
				if !found {
					t.Errorf("%s %q finds %v, not %s, which %q finds", lang, w.word, ids(got), s.ID, w.english)
				}
			}
		}
	}
	for _, tt := range []struct {
		name, lang string
		want       string // the IDs found, "" for none
	}{
		{"Zucker", "de", "granulated-sugar"},
		{"zucker", "de", "granulated-sugar"},
		{"Zucker", "", ""},
		{"Zucker", "fr", ""},
		{"farine", "fr", "all-purpose-flour"},
		{"Mehl", "de", "all-purpose-flour"},
		{"sugar", "de", "granulated-sugar"}, // the catalog's names in every language
		{"plumes", "", ""},                  // no plural of plum
	} {
		if got := ids(p.Find(tt.name, tt.lang)); got != tt.want {
			t.Errorf("Find(%q, %q) = %q, want %q", tt.name, tt.lang, got, tt.want)
		}
	}
}

// TestSingular: an English plural loses "es" after o, s, x, z, ch and
// sh, else its "s".
func TestSingular(t *testing.T) {
	for in, want := range map[string]string{
		"tomatoes": "tomato", "peaches": "peach", "boxes": "box", "dishes": "dish",
		"olives": "olive", "plumes": "plume", "eggs": "egg", "flour": "", "s": "",
	} {
		if got := singular(in); got != want {
			t.Errorf("singular(%q) = %q, want %q", in, got, want)
		}
	}
}
