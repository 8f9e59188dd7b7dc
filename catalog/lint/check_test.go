package lint

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/unitd/unitd/catalog"
	"github.com/unitd/unitd/engine"
)

var update = flag.Bool("update", false, "rewrite testdata/*/trips/want.txt")

func check(t *testing.T, dir string) []Finding {
	t.Helper()
	fsys := os.DirFS(dir)
	g, errs := catalog.Load(fsys)
	if len(errs) > 0 {
		t.Fatalf("%s does not load: %v", dir, errs)
	}
	spec, _ := catalog.LoadSpec(fsys)
	return Check(spec, g)
}

// TestRules runs each rule's fixtures: testdata/RULE/trips must give
// findings of that rule only, exactly those of want.txt; testdata/RULE/
// passes, a near miss, none at all.
func TestRules(t *testing.T) {
	rules := []Rule{PowerOfTen, NoExamples, ExampleDirection, SourceCitation, WellKnownSymbol}
	for _, rule := range rules {
		t.Run(string(rule), func(t *testing.T) {
			dir := filepath.Join("testdata", string(rule))
			found := check(t, filepath.Join(dir, "trips"))
			var lines []string
			for _, f := range found {
				if f.Rule != rule {
					t.Errorf("trips: finding of another rule: %v", f)
				}
				lines = append(lines, f.Error())
			}
			if len(found) == 0 {
				t.Error("trips: no finding")
			}
			got := strings.Join(lines, "\n") + "\n"
			golden := filepath.Join(dir, "trips", "want.txt")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("trips: findings\n%s\nwant (%s)\n%s", got, golden, want)
			}
			for _, f := range check(t, filepath.Join(dir, "passes")) {
				t.Errorf("passes: unexpected finding %v", f)
			}
		})
	}
}

func TestPowerOfTenApart(t *testing.T) {
	for _, tt := range []struct {
		x, y string
		k    int
		ok   bool
	}{
		{"3.048006096", "0.3048", 1, true},
		{"0.3048", "3.048", -1, true},
		{"1", "1", 0, false},
		{"1000", "1", 3, true},
		{"1000.5", "1", 3, true},
		{"1001", "1", 0, false},
		{"1002", "1", 0, false},
		{"5", "1", 0, false},
	} {
		x, y := rat(t, tt.x), rat(t, tt.y)
		k, ok := powerOfTenApart(x, y)
		if ok != tt.ok || (ok && k != tt.k) {
			t.Errorf("powerOfTenApart(%s, %s) = %d, %v; want %d, %v", tt.x, tt.y, k, ok, tt.k, tt.ok)
		}
	}
}

func rat(t *testing.T, s string) *big.Rat {
	t.Helper()
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		t.Fatalf("bad rational %q", s)
	}
	return r
}

func TestSimilarNames(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"foot", "US survey foot", true},
		{"pascal", "pascals", true},
		{"hectare", "decare", false},                 // prefixes, elided before a vowel
		{"ohm", "megohm", false},                     // the same
		{"newton metre", "newton millimetre", false}, // a prefix inside the name
		{"part per million", "part per billion", false},
		{"ampere", "abampere", false},
		{"bar", "barye", false},
		{"barn", "are", false},
	} {
		a, b := &engine.Unit{Name: tt.a}, &engine.Unit{Name: tt.b}
		if got := similarNames(a, b); got != tt.want {
			t.Errorf("similarNames(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestCitesDocument(t *testing.T) {
	for _, tt := range []struct {
		source string
		want   bool
	}{
		{"NIST SP 811 (2008), Appendix B.8", true},
		{"SEMI E12 (standard conditions)", true},
		{"Gregorian calendar (bull Inter gravissimas, 1582)", true},
		{"https://www.bipm.org/en/publications/si-brochure", true},
		{"common usage", false},
		{"Geometric definition (one quarter of a revolution)", false},
	} {
		if got := document().MatchString(tt.source); got != tt.want {
			t.Errorf("cites a document: %q = %v, want %v", tt.source, got, tt.want)
		}
	}
}

// TestPowerOfTenScales: the check of factors a power of ten apart looks at
// neighbours only, not every pair of a category's units, so a catalog at
// the unit limit validates in about a second; and it still finds the slip
// among them.
func TestPowerOfTenScales(t *testing.T) {
	const n = 5000
	units := []engine.UnitSpec{{Symbol: "b", Name: "base", Plural: "bases", System: "t", Exact: true, Source: "t"}}
	// Names far apart from each other (a hash of the index), factors
	// that are often a power of ten apart.
	name := func(i int) string {
		h := sha256.Sum256([]byte(strconv.Itoa(i)))
		return hex.EncodeToString(h[:6])
	}
	for i := range n {
		units = append(units, engine.UnitSpec{Symbol: "u" + strconv.Itoa(i), Name: name(i), Plural: name(i) + "s",
			System: "t", Exact: true, Source: "t", Definition: engine.DefinitionSpec{Unit: "b", Factor: strconv.Itoa(1000 + 7*i)}})
	}
	// A slip: unit 10's factor written ten times too large, under a similar name.
	units = append(units, engine.UnitSpec{Symbol: "slip", Name: name(10) + "x", Plural: name(10) + "xs", System: "t", Exact: true, Source: "t",
		Definition: engine.DefinitionSpec{Unit: "b", Factor: strconv.Itoa(10 * (1000 + 7*10))}})
	spec := engine.Spec{Categories: []engine.CategorySpec{{ID: "x", Name: "X", Base: "b", Units: units}}}
	g, errs := engine.Build(spec)
	if errs != nil {
		t.Fatal(errs)
	}
	c := &checker{g: g, specs: map[string]engine.UnitSpec{}, order: map[*engine.Unit]int{}}
	for _, us := range units {
		c.specs[us.Symbol] = us
	}
	for i, u := range g.Units() {
		c.order[u] = i
	}
	c.powerOfTen()
	if c.compared > 20*n {
		t.Errorf("compared %d pairs of %d units", c.compared, n)
	}
	if len(c.findings) != 1 || !strings.Contains(c.findings[0].Message, `unit "slip": its factor is 10^1 times that of "u10"`) {
		t.Errorf("findings %v, want the slip of u10", c.findings)
	}
}
