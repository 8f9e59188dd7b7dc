package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/unitd/unitd/tools/debian"
)

// knownOf is a catalog that knows the English names given.
func knownOf(names ...string) func(string) bool {
	return func(s string) bool { return slices.Contains(names, s) }
}

// TestDingWords: which words of Ding's lines are a food's, by their
// markup.
func TestDingWords(t *testing.T) {
	known := knownOf("sugar", "brown sugar", "flour", "wheat flour", "salt", "nutmeg", "applesauce", "ginger", "onions", "cream cheese", "jam", "date")
	for _, tt := range []struct {
		line string
		want []string // "word=english"
	}{
		// A noun, its plural and a phrase, in parallel parts.
		{"Zucker {m} | brauner Zucker | Hagelzucker {m} :: sugar | brown sugar | white sugar crystals",
			[]string{"Zucker=sugar", "brauner Zucker=brown sugar"}},
		// Every German synonym of a part, regional ones too; the markup
		// goes, the abbreviation too.
		{"Mehl {n} [cook.] | Weizenmehl /WM/ {n}; Auszugsmehl {n} [Ös.] :: flour | wheat flour; wheaten flour",
			[]string{"Mehl=flour", "Weizenmehl=wheat flour", "Auszugsmehl=wheat flour"}},
		// A field other than the kitchen's, unless the kitchen's too.
		{"Beinschuss {m} (Fußball) [sport] :: nutmeg (football)", nil},
		{"Salz {n} [min.] [chem.] [cook.] | Salze {pl} :: salt | salts", []string{"Salz=salt"}},
		// Only the first English word of a part is its translation.
		{"dummes Zeug {n}; Quatsch {m} :: baloney; applesauce [Am.]", nil},
		// Labels of use, in either language.
		{"Quark {m} [Dt.]; Schotten {m} [veraltend] [cook.] :: cream cheese; quark", []string{"Quark=cream cheese"}},
		{"Gelee {n} [ugs.] :: jam [coll.]", nil},
		// A taxon is no food.
		{"Lauch {m} (Allium) (botanische Gattung) [bot.] :: onions (botanical genus)", nil},
		// A line about a verb or an adjective gives nothing, nor do
		// parts marked so in a noun's line.
		{"blockieren {vt} | blockierend | blockiert :: to jam | jamming | jams", nil},
		{"Termin {m} | terminlich {adj} :: date | date", []string{"Termin=date"}},
		// An elision, a part count that differs, a comment.
		{"Zucker… {m} :: sugar", nil},
		{"Zucker {m} | Zuckerl {n} :: sugar", nil},
		{"# Zucker {m} :: sugar", nil},
	} {
		var got []string
		for _, p := range dingWords([]byte(tt.line+"\n"), known) {
			if p.lang != "de" {
				t.Errorf("%q: language %q", tt.line, p.lang)
			}
			got = append(got, p.word+"="+p.english)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q:\n got %q\nwant %q", tt.line, got, tt.want)
		}
	}
}

// TestDingExcerpt: the excerpt keeps the head comments and the lines with
// an English word the catalog knows, wherever in the line.
func TestDingExcerpt(t *testing.T) {
	src := "# Version :: devel\n# License :: GPL\nAal {m} :: eel\nHonig {m} :: honey\nQuatsch {m} :: baloney; applesauce\n# later comment\n"
	got := string(dingExcerpt([]byte(src), knownOf("honey", "applesauce")))
	want := "# Version :: devel\n# License :: GPL\nHonig {m} :: honey\nQuatsch {m} :: baloney; applesauce\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// dictd builds a dictd dictionary of the entries.
func dictd(t *testing.T, entries ...entry) (index, dz []byte) {
	t.Helper()
	var data, idx bytes.Buffer
	for _, e := range entries {
		fmt.Fprintf(&idx, "%s\t%s\t%s\n", e.Headword, dictdNumber(data.Len()), dictdNumber(len(e.Text)))
		data.WriteString(e.Text)
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(data.Bytes()) //nolint:errcheck // a bytes.Buffer does not fail
	zw.Close()
	return idx.Bytes(), z.Bytes()
}

func dictdNumber(n int) string {
	if n == 0 {
		return "A"
	}
	var s []byte
	for ; n > 0; n /= 64 {
		s = append([]byte{dictdDigits[n%64]}, s...)
	}
	return string(s)
}

// TestFreeDictWords: a pair is a food's word when both directions give
// it and neither entry is another part of speech than a noun.
func TestFreeDictWords(t *testing.T) {
	toIdx, toDZ := dictd(t,
		entry{"00-database-info", "about the dictionary"},
		entry{"sucre", "sucre /sykʀ/ <n, masc>\nsugar\n"},
		entry{"farine", "farine /faʀin/ <n, fem>\nflour, meal\n      \"farine de blé\"  - wheat flour\n"},
		entry{"saler", "saler /sale/ <v>\n1. pickle\n2. salt\n"},
		entry{"sel", "sel /sɛl/\n1. salt (cooking)\n"},
		entry{"azucarero", "azucarero\nsugar\n"},
	)
	fromIdx, fromDZ := dictd(t,
		entry{"sugar", "sugar /ʃugər/\nsucre\n"},
		entry{"flour", "flour /flauər/\n1. Farine\n see: {meal}\n"},
		entry{"salt", "salt /sɔlt/\n1. sel\n2. saler\n"},
	)
	to, err := readDictd(toIdx, toDZ)
	if err != nil {
		t.Fatal(err)
	}
	if len(to) != 5 || to[0].Headword != "sucre" {
		t.Fatalf("read %+v", to)
	}
	from, err := readDictd(fromIdx, fromDZ)
	if err != nil {
		t.Fatal(err)
	}
	known := knownOf("sugar", "flour", "salt")
	var got []string
	for _, p := range freeDictWords("fr", to, from, known) {
		got = append(got, p.lang+" "+p.word+"="+p.english)
	}
	// saler is a verb; azucarero is not given back by sugar's entry.
	want := []string{"fr sucre=sugar", "fr farine=flour", "fr sel=salt"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	// The excerpts keep what may matter, and read back the same.
	ex, err := freeDictExcerpt(to, true, known)
	if err != nil {
		t.Fatal(err)
	}
	back, err := readEntries(ex)
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != 5 || !slices.Equal(back, to) {
		t.Errorf("excerpt of the entries to English: %+v", back)
	}
	ex, err = freeDictExcerpt(from, false, knownOf("sugar"))
	if err != nil {
		t.Fatal(err)
	}
	if back, _ := readEntries(ex); len(back) != 1 || back[0].Headword != "sugar" {
		t.Errorf("excerpt of the entries from English: %+v", back)
	}
}

func TestReadDictdRefusesBadIndex(t *testing.T) {
	_, dz := dictd(t, entry{"a", "a\nb\n"})
	for _, idx := range []string{"a\tA\n", "a\tA\tZZZZ\n", "a\t!\tB\n"} {
		if _, err := readDictd([]byte(idx), dz); err == nil {
			t.Errorf("index %q: no error", idx)
		}
	}
}

// TestShippedTable: engine/text/foodwords.go is what the generator writes
// from the excerpts in testdata for the shipped catalog.
func TestShippedTable(t *testing.T) {
	ex, err := debian.ReadTestData("testdata")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{dingExcerptName}
	for _, l := range FreeDict {
		want = append(want, freeDictExcerptName(l.Code+"-eng"), freeDictExcerptName("eng-"+l.Code))
	}
	slices.Sort(want)
	if got := sortedNames(ex); !slices.Equal(got, want) {
		t.Fatalf("testdata holds %v, want %v", got, want)
	}
	pantry, err := catalogPantry()
	if err != nil {
		t.Fatal(err)
	}
	src, err := Generate(ex, func(e string) bool { return len(pantry.Find(e, "")) > 0 })
	if err != nil {
		t.Fatal(err)
	}
	shipped, err := os.ReadFile("../../engine/text/foodwords.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(src, shipped) {
		gl, sl := strings.Split(string(src), "\n"), strings.Split(string(shipped), "\n")
		for i := range min(len(gl), len(sl)) {
			if gl[i] != sl[i] {
				t.Fatalf("engine/text/foodwords.go differs from the generator's output at line %d:\n got %q\nwant %q\n(go run ./tools/foodwords)", i+1, sl[i], gl[i])
			}
		}
		t.Fatalf("engine/text/foodwords.go has %d lines, the generator writes %d (go run ./tools/foodwords)", len(sl), len(gl))
	}
	if !strings.Contains(string(shipped), `{"Zucker", "sugar"}`) || !strings.Contains(string(shipped), `{"farine", "flour"}`) {
		t.Error("the table lacks Zucker or farine")
	}
}
