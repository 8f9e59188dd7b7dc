package catalog

import (
	"errors"
	"strings"
	"testing"

	"github.com/unitd/unitd/engine"
)

// TestWellKnownSymbols fails when a catalog name means another unit than
// it does in GNU units, pint, UCUM or UnitsNet (catalog/wellknown.tsv)
// without a decision in the README's table.
func TestWellKnownSymbols(t *testing.T) {
	g := shipped(t)
	for _, w := range CheckWellKnown(g) {
		t.Error(w)
	}
}

// TestWellKnownList keeps the reference list and the decisions honest:
// every unitd symbol it names is a catalog unit, and every decision in the
// README is about a name of the list.
func TestWellKnownList(t *testing.T) {
	g := shipped(t)
	list := WellKnownList()
	if len(list) < 100 {
		t.Errorf("reference list has %d rows, want at least 100", len(list))
	}
	names := map[string]bool{}
	seen := map[[2]string]bool{}
	for _, wk := range list {
		names[wk.Name] = true
		if wk.Unit == "" {
			continue
		}
		if key := [2]string{wk.Name, wk.Unit}; seen[key] {
			t.Errorf("wellknown.tsv: %q meaning %q is listed twice", wk.Name, wk.Unit)
		} else {
			seen[key] = true
		}
		u, err := g.Lookup(wk.Unit)
		if err != nil || u.Symbol != wk.Unit {
			t.Errorf("wellknown.tsv: %q (%s) names %q, which is not the symbol of a catalog unit", wk.Name, wk.Meaning, wk.Unit)
		}
	}
	decided := Decided()
	if len(decided) < 30 {
		t.Errorf("README lists %d symbol decisions, want the whole table", len(decided))
	}
	for name := range decided {
		if !names[name] {
			t.Errorf("README decides about %q, which is not in wellknown.tsv", name)
		}
	}
}

// TestCheckWellKnownWarns builds a catalog whose h is the hand, as in
// UnitsNet, and checks that the clash with the hour is reported until a
// decision is recorded.
func TestCheckWellKnownWarns(t *testing.T) {
	g, errs := engine.Build(engine.Spec{Categories: []engine.CategorySpec{{
		ID: "length", Name: "Length", Dimension: map[string]int{"L": 1}, Base: "m",
		Units: []engine.UnitSpec{
			{Symbol: "m", Name: "metre", Plural: "metres", System: "SI", Exact: true, Source: "SI"},
			{Symbol: "h", Name: "hand", Plural: "hands", System: "US", Exact: true, Source: "4 in",
				Definition: engine.DefinitionSpec{Factor: "0.1016", Unit: "m"}},
		},
	}}})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	list := []WellKnown{
		{Name: "h", Meaning: "hour", Unit: "h_time", Systems: "SI"},
		{Name: "m", Meaning: "metre", Unit: "m", Systems: "SI"},
		{Name: "ft", Meaning: "foot", Unit: "", Systems: "NIST"},
	}
	ws := checkWellKnown(g, list, nil)
	if len(ws) != 1 || ws[0].Name != "h" || ws[0].Unit != "h" || !strings.Contains(ws[0].String(), "hour") {
		t.Fatalf("warnings %v, want one about h meaning the hour", ws)
	}
	if ws := checkWellKnown(g, list, map[string]bool{"h": true}); len(ws) != 0 {
		t.Errorf("a decided name still warns: %v", ws)
	}
}

func TestParseDecided(t *testing.T) {
	md := "# x\n### Symbol decisions\n\n| name | decision |\n|---|---|\n| `b` | keep |\n| `C`, `F` | keep |\n| plain | x |\n\n### Next\n| `zz` | no |\n"
	got := parseDecided(md)
	if len(got) != 3 || !got["b"] || !got["C"] || !got["F"] || got["zz"] {
		t.Errorf("parseDecided = %v, want b, C, F", got)
	}
}

func TestParseWellKnownRejectsBadRows(t *testing.T) {
	for _, src := range []string{
		"name\tmeaning\tunitd\tsystems\nb\tbarn\tb\n",
		"name\tmeaning\tunitd\tsystems\nb\t\tb\tUCUM\n",
		"name\tmeaning\tunitd\tsystems\nb \tbarn\tb\tUCUM\n",
	} {
		if _, err := parseWellKnown(src); err == nil {
			t.Errorf("parseWellKnown(%q) accepted a bad row", src)
		}
	}
}

// TestNamesThatMustNotMislead pins the naming decisions of the README.
func TestNamesThatMustNotMislead(t *testing.T) {
	g := shipped(t)
	for _, tt := range []struct{ name, want string }{
		// "" means AMBIGUOUS_UNIT.
		{"kb", ""}, {"Kb", ""}, {"KB", ""}, {"Mb", ""}, {"mb", ""}, {"Gb", ""}, {"Tb", ""},
		{"a", ""}, {"MBtu", ""}, {"league", ""},
		{"b", "b"}, {"kbit", "kbit"}, {"Mbit", "Mbit"}, {"mbarn", "mbarn"}, {"Mbarn", "Mbarn"},
		{"o", "B"}, {"ko", "kB"}, {"Mo", "MB"}, {"Go", "GB"}, {"To", "TB"}, {"Gio", "GiB"},
		{"rad", "rad"}, {"g", "g"}, {"h", "h"}, {"C", "C"}, {"F", "F"}, {"bbl", "bbl"},
		{"t", "t"}, {"kt", "kt"}, {"nm", "nm"}, {"NM", "nmi"}, {"pt", "pt"}, {"ct", "ct"},
		{"min", "min"}, {"st", "st"}, {"mo", "mo"}, {"″", "in"}, {"′", "ft"},
		{"ΔK", "delta_K"}, {"∆K", "delta_K"}, {"∆°C", "delta_degC"}, {"Δ°F", "delta_degF"},
		{"N/mm²", "N/mm2"}, {"cm/s²", "Gal"}, {"l/100km", "L/100km"}, {"km/l", "km/L"},
		{"Ns/m²", "Pa*s"}, {"lb/ft²", "psf"}, {"ft-lb", "ft_lbf"}, {"Ws", "J"}, {"kWs", "kJ"},
		{"°Ré", "degRe"}, {"°R", "degR"}, {"daN", "daN"}, {"Qm", "Qm"},
	} {
		u, err := g.Lookup(tt.name)
		if tt.want == "" {
			var e *engine.Error
			if !errors.As(err, &e) || e.Code != engine.CodeAmbiguousUnit {
				t.Errorf("%q: got %v, %v; want AMBIGUOUS_UNIT", tt.name, u, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tt.name, err)
			continue
		}
		if u.Symbol != tt.want {
			t.Errorf("%q resolves to %q, want %q", tt.name, u.Symbol, tt.want)
		}
	}
	// nM is the nanomolar, never the nautical mile (NM) by case folding.
	if u, err := g.Lookup("nM"); err == nil && u.Symbol == "nmi" {
		t.Errorf("nM resolves to the nautical mile")
	}
	// s⁻¹ is no catalog name: Hz and Bq are both s⁻¹, so it is left to
	// unit expressions.
	if u, err := g.Lookup("s⁻¹"); err == nil {
		t.Errorf("s⁻¹ resolves to %q; it must stay a unit expression", u.Symbol)
	}
}
