package catalog

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/unitd/unitd/engine"
	"go.yaml.in/yaml/v3"
)

// siUnits are the units of the SI with a symbol of their own (the base
// units, the gram for the kilogram, and the derived units with special
// names), and the non-SI units the contract also prefixes: tonne, litre,
// electronvolt, bar. The contract: each takes all 24 SI prefixes unless a
// prefixed symbol would collide, and each exclusion says why.
var siUnits = []string{
	"m", "g", "s", "A", "K", "mol", "cd",
	"rad", "sr", "Hz", "N", "Pa", "J", "W", "C", "V", "F", "ohm", "S",
	"Wb", "T", "H", "lm", "lx", "Bq", "Gy", "Sv", "kat",
	"t", "L", "eV", "bar",
}

func TestSIPrefixRule(t *testing.T) {
	g := shipped(t)
	spec := shippedSpec(t)
	declared := map[string]engine.UnitSpec{}
	file := map[string]string{}
	for _, c := range spec.Categories {
		for _, u := range c.Units {
			declared[u.Symbol] = u
			file[u.Symbol] = c.ID + ".yaml"
		}
	}
	for _, sym := range siUnits {
		us, ok := declared[sym]
		if !ok {
			t.Errorf("SI unit %q is not in the catalog", sym)
			continue
		}
		ps := us.Prefixes
		if ps == nil || ps.Set != "si" || len(ps.Only) > 0 {
			t.Errorf("%s: unit %q must take the SI prefixes with at most an except list, has %+v", file[sym], sym, ps)
			continue
		}
		excluded := map[string]bool{}
		for _, p := range ps.Except {
			excluded[p] = true
		}
		if len(ps.Except) > 0 && !prefixesCommented(t, file[sym], sym) {
			t.Errorf("%s: unit %q excludes prefixes %v without a comment saying why", file[sym], sym, ps.Except)
		}
		for _, p := range siPrefixSymbols {
			if excluded[p] {
				continue
			}
			u, err := g.Lookup(p + sym)
			if err != nil {
				t.Errorf("%s%s: %v", p, sym, err)
				continue
			}
			if u.Prefixed == nil || u.Prefixed.Symbol != sym {
				t.Errorf("%s%s resolves to %q, not to the prefixed %s", p, sym, u.Symbol, sym)
			}
		}
	}
}

// siPrefixSymbols are the 24 prefixes of the SI Brochure (2022), typed
// here independently of the engine's table.
var siPrefixSymbols = strings.Fields("Q R Y Z E P T G M k h da d c m u n p f a z y r q")

// prefixesCommented reports whether the prefixes key of the unit has a
// comment on its line or just above it.
func prefixesCommented(t *testing.T, name, symbol string) bool {
	t.Helper()
	src, err := fs.ReadFile(Embedded(), name)
	if err != nil {
		t.Fatal(err)
	}
	var root yaml.Node
	if err := yaml.Unmarshal(src, &root); err != nil {
		t.Fatal(err)
	}
	units := mappingValue(root.Content[0], "units")
	for _, u := range units.Content {
		if s := mappingValue(u, "symbol"); s == nil || s.Value != symbol {
			continue
		}
		for i := 0; i+1 < len(u.Content); i += 2 {
			if k := u.Content[i]; k.Value == "prefixes" {
				v := u.Content[i+1]
				return strings.TrimSpace(k.HeadComment+k.LineComment+v.LineComment) != ""
			}
		}
	}
	return false
}

func mappingValue(n *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

func TestQuettaAndRonna(t *testing.T) {
	g := shipped(t)
	for _, tt := range []struct{ value, from, to, want string }{
		{"1", "Qm", "Rm", "1000"},
		{"1", "qg", "rg", "0.001"},
		{"1", "RW", "YW", "1000"},
		{"1", "QL", "m3", "1e+27"},
		{"1", "daN", "N", "10"},
		{"1", "PeV", "TeV", "1000"},
	} {
		r, err := g.Convert(engine.Request{Value: tt.value, From: tt.from, To: tt.to, Precision: engine.MaxPrecision})
		if err != nil {
			t.Errorf("%s %s → %s: %v", tt.value, tt.from, tt.to, err)
			continue
		}
		if r.Value != tt.want || !r.Exact {
			t.Errorf("%s %s → %s = %s (exact %v), want exactly %s", tt.value, tt.from, tt.to, r.Value, r.Exact, tt.want)
		}
	}
}
