package explain

import (
	"math/big"
	"slices"
	"testing"

	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/internal/graph"
)

// TestChain: the definitions from a unit down to its base, each written
// for a person, and a base written as an expression (km/L) adds its
// coherent factor; a unit seen before ends the chain.
func TestChain(t *testing.T) {
	c := &graph.Category{ID: "fuel", Coherent: exact.Factor{R: big.NewRat(1000000, 1)}}
	defined := func(u *graph.Unit, d graph.Definition) *graph.Unit {
		u.SetDoc(graph.Doc{Definition: d})
		return u
	}
	base := defined(&graph.Unit{Symbol: "km/L", Category: c, Exact: true}, graph.Definition{Kind: "base"})
	mpg := defined(&graph.Unit{Symbol: "mpg", Category: c, Exact: true}, graph.Definition{Kind: "linear", Unit: "km/L", Factor: "0.425143707"})
	per := defined(&graph.Unit{Symbol: "L/100km", Category: c}, graph.Definition{Kind: "formula", Unit: "km/L", To: "100/x", From: "100/x"})
	ref := func(u *graph.Unit) *graph.Unit { return base }
	got := Chain(mpg, 0, nil, ref)
	want := []string{"1 mpg = 0.425143707 km/L", "km/L is the base unit of fuel", "1 km/L = 1000000 1 (coherent SI unit of fuel)"}
	if len(got) != len(want) {
		t.Fatalf("%d steps: %+v", len(got), got)
	}
	for i, s := range got {
		if s.Definition != want[i] {
			t.Errorf("step %d: %q, want %q", i, s.Definition, want[i])
		}
	}
	if d := Definition(per); d != "x L/100km = 100/x km/L; back: 100/x" {
		t.Errorf("a formula unit: %q", d)
	}
	seen := map[*graph.Unit]bool{base: true}
	if got := Chain(mpg, 2, seen, ref); len(got) != 1 || got[0].Exponent != 2 {
		t.Errorf("with the base seen: %+v", got)
	}
}

// TestClose: a step written twice is kept once, the bridge comes last,
// and every unit of an inexact step is named once in Inexact.
func TestClose(t *testing.T) {
	c1, c2 := &graph.Category{ID: "frequency"}, &graph.Category{ID: "angular_velocity"}
	br := &graph.Bridge{From: &graph.Unit{Symbol: "Hz", Category: c1}, To: &graph.Unit{Symbol: "rad/s", Category: c2}, Factor: "2*pi", Exact: true}
	a, b := Step{Unit: "ft", Definition: "1 ft = 0.3048 m", Exact: true}, Step{Unit: "lbf", Definition: "measured", Exact: false}
	ex := Explanation{Steps: []Step{a, b, a, b}}
	ex.Close(br)
	if len(ex.Steps) != 3 || ex.Steps[2].Definition != "1 Hz = 2*pi rad/s (bridge from frequency to angular_velocity)" {
		t.Errorf("steps: %+v", ex.Steps)
	}
	if !slices.Equal(ex.Inexact, []string{"lbf"}) {
		t.Errorf("inexact: %v", ex.Inexact)
	}
}

// TestSetMap: a map without an offset is linear, with one affine, and a
// factor through π is written rounded, not exact.
func TestSetMap(t *testing.T) {
	var ex Explanation
	ex.SetMap(exact.Factor{R: big.NewRat(5, 9)}, big.NewRat(-160, 9))
	if ex.Kind != "affine" || ex.Factor != "5/9" || !ex.FactorExact || ex.Offset != "-160/9" {
		t.Errorf("°F → °C: %+v", ex)
	}
	ex = Explanation{}
	ex.SetMap(exact.Factor{R: big.NewRat(1, 180), K: 1}, new(big.Rat))
	if ex.Kind != "linear" || ex.FactorExact || ex.Factor[:6] != "0.0174" {
		t.Errorf("deg → rad: %+v", ex)
	}
}
