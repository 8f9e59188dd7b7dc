package catalog

import (
	"strings"
	"testing"

	"github.com/unitd/unitd/engine"
)

const smootYAML = `category: length
symbol: smoot
name: smoot
plural: smoots
system: MIT
definition: {factor: 1.7018, unit: m}
exact: true
source: Oliver R. Smoot's height, Harvard Bridge, 1958
examples: ["1 smoot = 1.7018 m", "364.4 smoot ≈ 620.1 m"]
`

const smootJSON = `{"category": "length", "symbol": "smoot", "name": "smoot", "plural": "smoots", "system": "MIT",
 "definition": {"factor": 1.7018, "unit": "m"}, "exact": true,
 "source": "Oliver R. Smoot's height, Harvard Bridge, 1958",
 "examples": ["1 smoot = 1.7018 m", "364.4 smoot ≈ 620.1 m"]}`

func TestParseAccountUnitYAMLAndJSON(t *testing.T) {
	for name, src := range map[string]string{"yaml": smootYAML, "json": smootJSON} {
		au, errs := ParseAccountUnit("smoot", []byte(src))
		if errs != nil {
			t.Fatalf("%s: %v", name, errs)
		}
		u := au.Unit
		if au.Category != "length" || au.Declares != nil || u.Symbol != "smoot" || u.Definition.Factor != "1.7018" || u.Definition.Unit != "m" ||
			!u.Exact || len(u.Examples) != 2 || !u.Examples[1].Approx || u.Source == "" {
			t.Errorf("%s: %+v", name, au)
		}
	}
}

func TestParseAccountUnitDeclaresCategory(t *testing.T) {
	src := "category: {id: track, name: Track lengths, dimension: {L: 1}, si_factor: 400}\nsymbol: lap\nname: lap\nplural: laps\nsystem: club\nexact: true\nsource: the club's track\n"
	au, errs := ParseAccountUnit("lap", []byte(src))
	if errs != nil {
		t.Fatal(errs)
	}
	d := au.Declares
	if d == nil || d.ID != "track" || d.Base != "lap" || d.SIFactor != "400" || d.Dimension["L"] != 1 || au.Category != "track" {
		t.Errorf("%+v %+v", au, d)
	}
}

// TestParseAccountUnitProblems checks that every problem of a document
// is reported at its position, in the loader's words.
func TestParseAccountUnitProblems(t *testing.T) {
	for _, tt := range []struct{ name, src, want string }{
		{"unknown key", "category: length\nsymbol: x\nfactor: 2\n", `x:3:1: unit "x": unknown key "factor" (known: aliases, category, codes, definition,`},
		{"no category", "symbol: x\nname: x\n", `x:1:1: unit "x": missing key "category"`},
		{"category list", "category: [length]\nsymbol: x\n", "x:1:11: unit: category: expected a category's id or a mapping"},
		{"yaml syntax", "category: length\nsymbol: [x\n", "x:2:1: YAML syntax:"},
		{"json syntax", `{"category": "length", "symbol": }`, "x:1:"},
		{"not a mapping", "- x\n", "x:1:1: expected a mapping of the unit's keys"},
		{"bad example", "category: length\nsymbol: x\nexamples: [\"one x is two m\"]\n", `x:3:12: unit "x": example "one x is two m": expected`},
		{"base of another", "category: {id: k, name: K, dimension: 1, base: y}\nsymbol: x\n", `category "k": base "y": the base of a category of yours is the unit that declares it`},
		{"too large", "category: length\nsource: " + strings.Repeat("x", 9000) + "\n", "a unit's document is at most 8192 bytes"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, errs := ParseAccountUnit("x", []byte(tt.src))
			var all []string
			for _, err := range errs {
				all = append(all, err.Error())
			}
			if !strings.Contains(strings.Join(all, "\n"), tt.want) {
				t.Errorf("problems:\n%s\nwant one containing %q", strings.Join(all, "\n"), tt.want)
			}
		})
	}
}

func TestParseDefinitionLine(t *testing.T) {
	au, err := ParseDefinitionLine("define[0]", "smoot = 1.7018 m")
	if err != nil {
		t.Fatal(err)
	}
	if u := au.Unit; u.Symbol != "smoot" || !u.Exact || u.Definition.Factor != "1.7018" || u.Definition.Unit != "m" || u.Source != "defined in the request: smoot = 1.7018 m" {
		t.Errorf("%+v", au.Unit)
	}
	if au, err := ParseDefinitionLine("d", "pace ≈ 0.762 m"); err != nil || au.Unit.Exact {
		t.Errorf("≈: %+v, %v", au.Unit, err)
	}
	for _, bad := range []string{"smoot", "smoot = m", "smoot is 1.7 m", "a = 1 m extra"} {
		if _, err := ParseDefinitionLine("define[2]", bad); err == nil || !strings.HasPrefix(err.Error(), "define[2]:1:1: expected") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// TestAccountSpecCompiles gathers documents and one-line definitions
// into a spec and compiles it over the shipped catalog.
func TestAccountSpecCompiles(t *testing.T) {
	g := shipped(t)
	var units []AccountUnit
	for name, src := range map[string]string{
		"smoot": smootYAML,
		"lap":   "category: {id: track, name: Track lengths, dimension: {L: 1}, si_factor: 400}\nsymbol: lap\nname: lap\nplural: laps\nsystem: club\nexact: true\nsource: the club's track\n",
		"relay": "category: track\nsymbol: relay\nname: relay\nplural: relays\nsystem: club\ndefinition: {factor: 4, unit: lap}\nexact: true\nsource: the club\nexamples: [\"1 relay = 1.6 km\"]\n",
	} {
		au, errs := ParseAccountUnit(name, []byte(src))
		if errs != nil {
			t.Fatal(errs)
		}
		units = append(units, au)
	}
	for i, line := range []string{"decismoot = 0.1 smoot", "centismoot = 0.1 decismoot", "halflap = 0.5 lap"} {
		au, err := ParseDefinitionLine("define["+string(rune('0'+i))+"]", line)
		if err != nil {
			t.Fatal(err)
		}
		units = append(units, au)
	}
	spec, errs := AccountSpec(g, units)
	if errs != nil {
		t.Fatal(errs)
	}
	og, errs := engine.Overlay(g, spec, engine.OverlayOptions{})
	if errs != nil {
		t.Fatal(errs)
	}
	for _, tt := range []struct{ from, to, want string }{
		{"centismoot", "cm", "1.7018"},
		{"halflap", "m", "200"},
		{"relay", "halflap", "8"},
	} {
		res, err := og.Convert(engine.Request{Value: "1", From: tt.from, To: tt.to})
		if err != nil || res.Value != tt.want {
			t.Errorf("1 %s → %s = %s, %v; want %s", tt.from, tt.to, res.Value, err, tt.want)
		}
	}
	_, errs = AccountSpec(g, []AccountUnit{func() AccountUnit {
		au, _ := ParseDefinitionLine("define[0]", "x = 2 nosuch")
		return au
	}()})
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), `define[0]:1:1: unit "x": definition refers to unknown unit "nosuch"`) {
		t.Errorf("unknown reference: %v", errs)
	}
}

// TestCatalogKeepsMyForAccounts refuses a catalog unit whose name starts
// with "my:".
func TestCatalogKeepsMyForAccounts(t *testing.T) {
	src := "category:\n  id: length\n  name: Length\n  dimension: {L: 1}\n  base: m\nunits:\n  - {symbol: m, name: metre, plural: metres, system: SI, exact: true, source: x}\n  - {symbol: \"My:x\", name: x, plural: xs, system: SI, exact: true, source: x, definition: {factor: 2, unit: m}}\n"
	_, errs := ParseFile("length.yaml", []byte(src))
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), `"My:x": names starting with my: are kept for the units of accounts`) {
		t.Errorf("%v", errs)
	}
}
