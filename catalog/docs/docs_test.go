package docs

import (
	"bytes"
	"flag"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/unitd/unitd/catalog"
	"github.com/unitd/unitd/engine"
)

var update = flag.Bool("update", false, "rewrite testdata/want.md")

func TestGolden(t *testing.T) {
	g, errs := catalog.Load(os.DirFS("testdata/catalog"))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var buf bytes.Buffer
	if err := Write(&buf, g); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("testdata/want.md", buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile("testdata/want.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("output differs from testdata/want.md (go test ./catalog/docs -update rewrites it):\n%s", buf.Bytes())
	}
	// Facts the golden must keep, whatever its wording.
	for _, have := range []string{
		"### `ft`: foot", "- Definition: 1 ft = 12 in; exact", "`L/100km`", "x degC = (x × 1 + 273.15) K",
		"- With prefixes: `km`, `cm`, `mm`, `um`", "| foots | `ft` (foot), `ftUS` (US survey foot) |", "  - `1 fur = 201.168 m`",
	} {
		if !strings.Contains(buf.String(), have) {
			t.Errorf("reference lacks %q", have)
		}
	}
}

// TestShippedReferenceIsCurrent fails when docs/units.md no longer matches
// the shipped catalog, so that CI catches a catalog change without it.
func TestShippedReferenceIsCurrent(t *testing.T) {
	g := shipped(t)
	var buf bytes.Buffer
	if err := Write(&buf, g); err != nil {
		t.Fatal(err)
	}
	shipped, err := os.ReadFile("../../docs/units.md")
	if err != nil {
		t.Fatalf("%v; generate it with: make docs (go run ./cmd/unitd docs --out docs/units.md)", err)
	}
	if !bytes.Equal(buf.Bytes(), shipped) {
		t.Error("docs/units.md is stale: the catalog changed. Regenerate it with: make docs (go run ./cmd/unitd docs --out docs/units.md)")
	}
}

// TestDeterministic: the reference of the shipped catalog compiled twice
// is the same.
func TestDeterministic(t *testing.T) {
	g := shipped(t)
	var a, b bytes.Buffer
	Write(&a, g)
	g2, _ := catalog.Load(catalog.Embedded()) // compiled again
	Write(&b, g2)
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two runs over the same catalog differ")
	}
}

// TestShippedSubstances: the reference lists every substance with its
// values' sources, the reference conditions and the atomic weights.
func TestShippedSubstances(t *testing.T) {
	g := shipped(t)
	var buf bytes.Buffer
	if err := Write(&buf, g); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, s := range g.Substances() {
		if !strings.Contains(out, "| "+cell(s.Name)+" `"+s.ID+"` |") {
			t.Errorf("substance %s is not listed", s.ID)
		}
		if d := s.Density; d != nil && !strings.Contains(out, cell(d.Source)) {
			t.Errorf("%s: the density's source is missing", s.ID)
		}
	}
	for _, have := range []string{
		"## Substances", "## Reference conditions for gases", "## Atomic weights",
		"`180.156 g/mol` (6 × C 12.011 + 12 × H 1.008 + 6 × O 15.999 = 180.156 g/mol)", "| STP | `273.15 K` | `100 kPa` |", "| 6 | `C` | carbon | 12.011 |",
	} {
		if !strings.Contains(out, have) {
			t.Errorf("reference lacks %q", have)
		}
	}
}

// shipped is the shipped catalog, compiled once for the package's tests:
// a graph is immutable.
func shipped(t *testing.T) *engine.Graph {
	t.Helper()
	g, errs := loadShipped()
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return g
}

var loadShipped = sync.OnceValues(func() (*engine.Graph, []error) { return catalog.Load(catalog.Embedded()) })
