package format

import (
	"bytes"
	"fmt"
	"io/fs"
	"reflect"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/unitd/unitd/catalog"
	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/internal/race"
	"go.yaml.in/yaml/v3"
)

func TestFormat(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"key order, flow and block",
			"units:\n- examples: [1 m = 100 cm]\n  symbol: m\n  aliases:\n  - meter\n  name: metre\ncategory: {base: m, id: length}\n",
			"category:\n  id: length\n  base: m\n\nunits:\n  - symbol: m\n    name: metre\n    aliases: [meter]\n    examples:\n      - 1 m = 100 cm\n"},
		{"definition keys",
			"units:\n  - definition: {unit: cm, factor: 2.54}\n  - definition:\n      from: 100 / x\n      to: 100 / x\n      unit: km/L\n",
			"units:\n  - definition: {factor: 2.54, unit: cm}\n\n  - definition: {unit: km/L, to: 100 / x, from: 100 / x}\n"},
		{"quoting",
			"units:\n  - symbol: '1'\n    name: \"metre\"\n    source: \"a: b\"\n    symbols: [°C, 'x']\n    exact: true\n    aliases: [\"a, b\", 'it''s']\n",
			"units:\n  - symbol: \"1\"\n    name: metre\n    aliases: [\"a, b\", it's]\n    symbols: [\"°C\", \"x\"]\n    exact: true\n    source: \"a: b\"\n"},
		{"comments kept",
			"# file comment\n\ncategory:\n  id: x # the id\n\n# before units\nunits:\n  # first unit\n  - symbol: m\n    aliases: [a, # why a\n      b]\n",
			"# file comment\n\ncategory:\n  id: x  # the id\n\n# before units\nunits:\n  # first unit\n  - symbol: m\n    aliases:\n      - a  # why a\n      - b\n"},
		{"ambiguous entries in flow",
			"ambiguous:\n  - name: ton\n    candidates:\n      - t\n      - ton_us\n    note: short, long\n",
			"ambiguous:\n  - {name: ton, candidates: [t, ton_us], note: \"short, long\"}\n"},
		{"anchors stay on their node",
			"units:\n  - &u\n    symbol: 'on'\n    name: x\n",
			"units:\n  - &u\n    symbol: \"on\"\n    name: x\n"},
		{"block scalars become quoted",
			"category:\n  description: |\n    two\n    lines\n",
			"category:\n  description: \"two\\nlines\\n\"\n"},
		{"unknown keys keep their order and style",
			"zeta: 1\nalpha: {b: 1, a: 2}\ncategory:\n  id: x\n",
			"category:\n  id: x\n\nzeta: 1\n\nalpha: {b: 1, a: 2}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Source([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("Format:\n%s\nwant:\n%s", got, tt.want)
			}
			again, err := Source(got)
			if err != nil || !bytes.Equal(again, got) {
				t.Errorf("not idempotent (%v):\n%s", err, again)
			}
		})
	}
}

func TestFormatErrors(t *testing.T) {
	for _, in := range []string{"", "a: [", "a: 1\n---\nb: 2\n"} {
		if _, err := Source([]byte(in)); err == nil {
			t.Errorf("Source(%q) succeeded", in)
		}
	}
}

// comments lists every comment line of a YAML text as the parser sees
// them, sorted.
func comments(t *testing.T, src []byte) []string {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		t.Fatal(err)
	}
	var out []string
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		for _, c := range []string{n.HeadComment, n.LineComment, n.FootComment} {
			for _, line := range strings.Split(c, "\n") {
				if line = strings.TrimSpace(line); line != "" {
					out = append(out, line)
				}
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(&doc)
	sort.Strings(out)
	return out
}

// commentLines lists the lines of src that are whole-line comments, as
// text, without relying on the parser.
func commentLines(src []byte) []string {
	var out []string
	for _, line := range strings.Split(string(src), "\n") {
		if line = strings.TrimSpace(line); strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	sort.Strings(out)
	return out
}

// TestShippedCatalog is the property over the shipped catalog: formatting
// is idempotent, keeps every comment, and the catalog loads to the same
// graph before and after. Under the race detector it formats every fourth
// file (the others load as they are), and make test runs it in full
// without the detector.
func TestShippedCatalog(t *testing.T) {
	shipped := catalog.Embedded()
	names, err := fs.Glob(shipped, "*.yaml")
	if err != nil || len(names) == 0 {
		t.Fatalf("no catalog files: %v", err)
	}
	formatted := fstest.MapFS{}
	for i, name := range names {
		src, err := fs.ReadFile(shipped, name)
		if err != nil {
			t.Fatal(err)
		}
		if race.Enabled && i%4 != 0 {
			formatted[name] = &fstest.MapFile{Data: src}
			continue
		}
		out, err := File(name, src)
		if err != nil {
			t.Fatal(err)
		}
		formatted[name] = &fstest.MapFile{Data: out}
		if name == catalog.PreferencesFile {
			// Generated, and left in the generator's layout.
			if !bytes.Equal(out, src) {
				t.Errorf("%s: FormatFile changed the generated file", name)
			}
			continue
		}
		if again, err := Source(out); err != nil || !bytes.Equal(again, out) {
			t.Errorf("%s: formatting is not idempotent (%v)", name, err)
		}
		if got, want := comments(t, out), comments(t, src); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: comments changed:\n got %q\nwant %q", name, got, want)
		}
		if got, want := commentLines(out), commentLines(src); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: comment lines changed:\n got %q\nwant %q", name, got, want)
		}
	}
	before, errs := catalog.Load(shipped)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	after, errs := catalog.Load(formatted)
	if len(errs) > 0 {
		t.Fatalf("formatted catalog does not load: %v", errs)
	}
	if got, want := graphText(after), graphText(before); got != want {
		t.Errorf("formatted catalog compiles to another graph")
	}
}

// graphText prints everything a graph says about its categories and
// units, with each unit's exact map onto its base unit.
func graphText(g *engine.Graph) string {
	var b strings.Builder
	for _, c := range g.Categories() {
		b.WriteString(c.ID + "|" + c.Name + "|" + c.Description + "|" + c.DimensionText() + "|" + c.Base.Symbol + "|" + c.Minimum + "\n")
	}
	for _, u := range g.Units() {
		f, o, ok := u.BaseMap()
		prefixed := ""
		if u.Prefixed != nil {
			prefixed = u.Prefixed.Symbol
		}
		b.WriteString(strings.Join([]string{u.Symbol, u.Name, u.Plural, strings.Join(u.Aliases, ","), strings.Join(u.Symbols, ","),
			u.Category.ID, u.System, u.Doc().Description, u.Doc().Source, prefixed}, "|"))
		fmt.Fprintf(&b, "|%+v", u.Doc().Definition)
		if ok {
			b.WriteString("|" + f.RatString() + "|" + o.RatString())
		}
		for _, ex := range u.Doc().Examples {
			b.WriteString("|" + ex.String())
		}
		if u.Exact {
			b.WriteString("|exact")
		}
		b.WriteString("\n")
	}
	for _, a := range g.Ambiguities() {
		b.WriteString(a.Name + "|" + a.Note)
		for _, c := range a.Candidates {
			b.WriteString("|" + c.Symbol)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func TestFormatFileRefusesAChange(t *testing.T) {
	// A comment inside a plain scalar's flow context is fine; this checks
	// the guard itself by comparing two different specs.
	a, _ := catalog.ParseFile("x.yaml", []byte("category: {id: x}\n"))
	b, _ := catalog.ParseFile("x.yaml", []byte("category: {id: y}\n"))
	if reflect.DeepEqual(withoutOrigins(a), withoutOrigins(b)) {
		t.Error("withoutOrigins hides a difference")
	}
	c, _ := catalog.ParseFile("x.yaml", []byte("\n\ncategory: {id: x}\n"))
	if !reflect.DeepEqual(withoutOrigins(a), withoutOrigins(c)) {
		t.Error("withoutOrigins keeps a position")
	}
}

// TestFormatIsIdempotent: a second pass writes what the first wrote, for
// the inputs that once changed again (an empty value gained a space at
// every pass).
func TestFormatIsIdempotent(t *testing.T) {
	for _, src := range []string{"0:", "0:\n", "units:\n  - 0:\n", "a: ~\n", "a: null\n", "0: !!null \"\"\n",
		"k: !!null\n", "k: [!!int 1, !!float \"\"]\n", "k: {a: !!null \"\", b:}\n"} {
		out, err := Source([]byte(src))
		if err != nil {
			t.Errorf("%q: %v", src, err)
			continue
		}
		again, err := Source(out)
		if err != nil || string(again) != string(out) {
			t.Errorf("%q: %q, then %q (%v)", src, out, again, err)
		}
	}
}
