package catalog

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/unitd/unitd/engine"
)

// TestFastYAMLMatchesPlain decodes the shipped catalog and every fixture
// of testdata/errors with the gate of the fast YAML parser open and
// closed: the specs, and the errors, are the same.
func TestFastYAMLMatchesPlain(t *testing.T) {
	defer func(open bool) { fastYAML = open }(fastYAML)
	decode := func(fsys fs.FS, open bool) (any, []string) {
		fastYAML = open
		spec, errs, complete := loadSpec(fsys, nil)
		msgs := make([]string, len(errs))
		for i, err := range errs {
			msgs[i] = err.Error()
		}
		return struct {
			Spec     any
			Complete bool
		}{spec, complete}, msgs
	}
	catalogs := map[string]fs.FS{"the shipped catalog": Embedded()}
	paths, err := filepath.Glob("testdata/errors/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, path := range paths {
		catalogs[path] = readFixture(t, path).files
	}
	for name, fsys := range catalogs {
		fast, fastErrs := decode(fsys, true)
		plain, plainErrs := decode(fsys, false)
		if !reflect.DeepEqual(fast, plain) {
			t.Errorf("%s: the decoded catalogs differ", name)
		}
		if !reflect.DeepEqual(fastErrs, plainErrs) {
			t.Errorf("%s: errors\n  fast:  %q\n  plain: %q", name, fastErrs, plainErrs)
		}
	}

	// An account's unit documents, good and bad, in YAML and in JSON
	// (which the fast parser leaves to yaml.v3).
	for _, src := range []string{
		smootYAML,
		smootJSON,
		"category: {id: track, name: Track lengths, dimension: {L: 1}, si_factor: 400}\nsymbol: lap\nname: lap\nplural: laps\nsystem: club\nexact: true\nsource: the club's track\n",
		"category: length\nsymbol: x\nfactor: 2\n",
		"category: [length]\nsymbol: x\n",
		"category: length\nsymbol: [x\n",
		"- x\n",
		"category: length\nsymbol: x\nexamples: [\"one x is two m\"]\n",
		"category: {id: k, name: K, dimension: 1, base: y}\nsymbol: x\n",
		"symbol: 'my:x'\ncategory: length\naliases: [\"\\u00b5x\"]\nexact: yes\n",
	} {
		fastYAML = true
		fast, fastErrs := ParseAccountUnit("x", []byte(src))
		fastYAML = false
		plain, plainErrs := ParseAccountUnit("x", []byte(src))
		if !reflect.DeepEqual(fast, plain) || !reflect.DeepEqual(fmt.Sprint(fastErrs), fmt.Sprint(plainErrs)) {
			t.Errorf("%q:\n  fast:  %+v %v\n  plain: %+v %v", src, fast, fastErrs, plain, plainErrs)
		}
	}
}

// TestFastYAMLConcurrentDecodes decodes the shipped catalog in several
// loads at once, whose files share the pool of fast parsers (each file's
// tree released once decoded): every load gives the spec yaml.v3 gives.
func TestFastYAMLConcurrentDecodes(t *testing.T) {
	defer func(open bool) { fastYAML = open }(fastYAML)
	fastYAML = false
	want, errs, _ := loadSpec(Embedded(), nil)
	if errs != nil {
		t.Fatal(errs)
	}
	fastYAML = true
	const loads = 4
	got := make([]engine.Spec, loads)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() {
			for range 2 {
				got[i], _, _ = loadSpec(Embedded(), nil)
			}
		})
	}
	wg.Wait()
	for i, spec := range got {
		if !reflect.DeepEqual(spec, want) {
			t.Errorf("load %d: the decoded catalog differs from yaml.v3's", i)
		}
	}
}

// TestCommentsAreNotRead checks why the fast YAML parser may leave
// comments out of its trees: no code of the package reads a node's
// comments, and the one file that encodes YAML (writing comments back)
// encodes trees of its own yaml.Unmarshal, not parseYAML's.
func TestCommentsAreNotRead(t *testing.T) {
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	files := 0
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files++
		var encodes, parses bool
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				switch n.Sel.Name {
				case "HeadComment", "LineComment", "FootComment":
					t.Errorf("%s: reads a node's %s", fset.Position(n.Pos()), n.Sel.Name)
				case "NewEncoder", "Marshal":
					if x, ok := n.X.(*ast.Ident); ok && x.Name == "yaml" {
						encodes = true
					}
				}
			case *ast.Ident:
				if n.Name == "parseYAML" {
					parses = true
				}
			}
			return true
		})
		if encodes && parses {
			t.Errorf("%s: encodes YAML and reads parseYAML's trees, whose comments the fast parser leaves out", name)
		}
	}
	if files < 10 {
		t.Fatalf("only %d files read", files)
	}
}

// TestDecoderMessages checks the messages of keys the decoder reads from
// tables and switches rather than maps of closures: what each names, and
// the keys it lists as known.
func TestDecoderMessages(t *testing.T) {
	src := []byte(`substances:
  - id: w
    name: w
    kind: liquid
    density: {value: [1], temperature: {}, source: x, colour: blue}
    molar_mass: {value: 18 g/mol, temperature: 20 degC, source: ~}
    charge: {value: x}
    flavour: none
`)
	_, errs := parseSubstanceFile("s.yaml", src)
	want := []string{
		`s.yaml:5:22: substance "w": density value: expected a single value, found a list`,
		`s.yaml:5:40: substance "w": density temperature: expected a single value, found a mapping`,
		`s.yaml:5:55: substance "w": unknown key "colour" (known: source, temperature, value)`,
		`s.yaml:6:35: substance "w": unknown key "temperature" (known: source, value)`,
		`s.yaml:6:65: substance "w": molar_mass source: expected a single value, found the value "~"`,
	}
	var got []string
	for _, err := range errs {
		got = append(got, err.Error())
	}
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("missing %s\n  got %q", w, got)
		}
	}
	unknown := `s.yaml:8:5: substance "w": unknown key "flavour" (known: aliases, cas, charge, density, description, food, formula, id, kind, molar_mass, name, portions, state)`
	if !slices.Contains(got, unknown) {
		t.Errorf("missing %s\n  got %q", unknown, got)
	}

	fsys := fstest.MapFS{"length.yaml": {Data: []byte(`category: {id: length, name: Length, base: m, dimension: {L: 1, Q: 2, T: x}}
units:
  - symbol: m
    name: metre
    plural: metres
    system: SI
    exact: true
    source: s
    definition: {unit: m, factor: [2], per: 3}
    codes: {ucum: [m], klingon: m}
`)}}
	_, errs, _ = loadSpec(fsys, nil)
	got = got[:0]
	for _, err := range errs {
		got = append(got, err.Error())
	}
	for _, w := range []string{
		`length.yaml:1:65: category: unknown key "Q" (known: ` + strings.Join(slices.Sorted(slices.Values(dimensionSymbols)), ", ") + `)`,
		`length.yaml:1:74: category: dimension T: expected a non-zero whole exponent, found the value "x"`,
		`length.yaml:9:35: unit "m": definition factor: expected a single value, found a list`,
		`length.yaml:9:40: unit "m": unknown key "per" (known: factor, from, offset, to, unit)`,
		`length.yaml:10:19: unit "m": codes ucum: expected a single value, found a list`,
		`length.yaml:10:24: unit "m": unknown key "klingon" (known: ` + strings.Join(slices.Sorted(maps.Keys(codeLabels)), ", ") + `)`,
	} {
		if !slices.Contains(got, w) {
			t.Errorf("missing %s\n  got %q", w, got)
		}
	}
}
