package engine

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestExplain(t *testing.T) {
	g := testGraph(t)
	tests := []struct {
		from, to    string
		kind        string
		factor      string
		factorExact bool
		offset      string
		steps       []string // "unit^exponent: definition"
	}{
		{"ft", "m", "linear", "0.3048", true, "", []string{
			"ft: 1 ft = 12 in", "in: 1 in = 2.54 cm", "cm: 1 cm = 1/100 m", "m: m is the base unit of length"}},
		{"m", "ftUS", "linear", "3937/1200", true, "", []string{
			"m: m is the base unit of length", "ftUS: 1 ftUS = 1200/3937 m"}},
		{"degF", "degC", "affine", "5/9", true, "-160/9", []string{
			"degF: x degF = x*5/9 + 459.67*5/9 K", "K: K is the base unit of temperature", "degC: x degC = x*1 + 273.15 K"}},
		{"deg", "rad", "linear", "0.017453292519943295769236907684886127134428718885417", false, "", []string{
			"deg: 1 deg = pi/180 rad", "rad: rad is the base unit of angle"}},
		{"rpm", "deg/s", "linear", "6", true, "", []string{
			"rpm: 1 rpm = 1/60 Hz", "Hz: Hz is the base unit of frequency",
			"deg/s: 1 deg/s = pi/180 rad/s", "rad/s: rad/s is the base unit of angular_velocity",
			"Hz: 1 Hz = 2*pi rad/s (bridge from frequency to angular_velocity)"}},
		{"kg*m/s^2", "lbf", "linear", "2000000000000/8896443230521", true, "", []string{
			"kg^1: kg is the base unit of mass", "m^1: m is the base unit of length", "s^-2: s is the base unit of time",
			"lbf: 1 lbf = 4.4482216152605 N", "N: N is the base unit of force"}},
		{"W/ft2", "W/m2", "linear", "1562500/145161", true, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.from+"→"+tt.to, func(t *testing.T) {
			r, err := g.Convert(Request{Value: "1", From: tt.from, To: tt.to})
			if err != nil {
				t.Fatal(err)
			}
			ex := g.Explain(&r)
			if ex.CatalogVersion != "test-1" || ex.Kind != tt.kind || ex.Factor != tt.factor || ex.FactorExact != tt.factorExact || ex.Offset != tt.offset {
				t.Errorf("explain = %s factor %s (exact %v) offset %q, want %s %s (exact %v) %q",
					ex.Kind, ex.Factor, ex.FactorExact, ex.Offset, tt.kind, tt.factor, tt.factorExact, tt.offset)
			}
			if tt.steps == nil {
				return
			}
			var got []string
			for _, s := range ex.Steps {
				u := s.Unit
				if s.Exponent != 0 {
					u += fmt.Sprintf("^%d", s.Exponent)
				}
				got = append(got, u+": "+s.Definition)
				if s.Source == "" {
					t.Errorf("step %s has no source", s.Unit)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tt.steps, "\n") {
				t.Errorf("steps:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.steps, "\n"))
			}
		})
	}
	r, err := g.Convert(Request{Value: "20", From: "dBm", To: "W"})
	if err != nil {
		t.Fatal(err)
	}
	ex := g.Explain(&r)
	if ex.Kind != "formula" || len(ex.Formulas) != 1 || ex.Formulas[0] != (FormulaStep{Unit: "dBm", Reference: "mW", To: "10 ** (x / 10)", From: "10 * log10(x)"}) || ex.Factor != "" {
		t.Errorf("formula explain = %+v", ex)
	}
}

// TestInexactDefinitions: a result through a definition that is not exact
// (a unit's, an operand's, one further down its chain, a bridge's) is not
// exact, and Explain names that definition.
func TestInexactDefinitions(t *testing.T) {
	u := func(sym string, exact bool, def DefinitionSpec) UnitSpec {
		return UnitSpec{Symbol: sym, Name: "unit " + sym, Plural: "units " + sym, System: "t", Source: "t", Exact: exact, Definition: def}
	}
	g, errs := Build(Spec{
		Categories: []CategorySpec{
			{ID: "length", Name: "Length", Dimension: map[string]int{"L": 1}, Base: "m", Units: []UnitSpec{
				u("m", true, DefinitionSpec{}),
				u("mes", false, DefinitionSpec{Unit: "m", Factor: "2"}), // measured
				u("twomes", true, DefinitionSpec{Unit: "mes", Factor: "2"}),
			}},
			{ID: "time", Name: "Time", Dimension: map[string]int{"T": 1}, Base: "s", Units: []UnitSpec{u("s", true, DefinitionSpec{})}},
			{ID: "a", Name: "A", Dimension: map[string]int{"T": -1}, Base: "ha", Units: []UnitSpec{u("ha", true, DefinitionSpec{})}},
			{ID: "b", Name: "B", Dimension: map[string]int{"T": -1}, Base: "hb", Units: []UnitSpec{u("hb", true, DefinitionSpec{})}},
		},
		Bridges: []BridgeSpec{{From: "ha", To: "hb", Factor: "3", Exact: false, Source: "t"}},
	})
	if errs != nil {
		t.Fatal(errs)
	}
	for _, tt := range []struct {
		from, to, want string
		inexact        []string
	}{
		{"mes", "m", "2", []string{"mes"}},
		{"twomes", "m", "4", []string{"mes"}},
		{"m", "m", "1", nil},
		{"mes/s", "m/s", "2", []string{"mes"}},
		{"ha", "hb", "3", []string{"ha"}},
	} {
		r, err := g.Convert(Request{Value: "1", From: tt.from, To: tt.to})
		if err != nil || r.Value != tt.want || r.Exact != (tt.inexact == nil) {
			t.Errorf("1 %s → %s = %s (exact %v) %v; want %s, exact %v", tt.from, tt.to, r.Value, r.Exact, err, tt.want, tt.inexact == nil)
			continue
		}
		if ex := g.Explain(&r); !slices.Equal(ex.Inexact, tt.inexact) {
			t.Errorf("explain 1 %s → %s names %v as inexact, want %v", tt.from, tt.to, ex.Inexact, tt.inexact)
		}
	}
}
