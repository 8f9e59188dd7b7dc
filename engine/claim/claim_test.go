package claim

import (
	"math/big"
	"strings"
	"testing"

	"github.com/unitd/unitd/engine/codes"
	"github.com/unitd/unitd/engine/dimension"
	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/internal/graph"
)

func rat(s string) *big.Rat {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		panic("bad rational " + s)
	}
	return r
}

// unit makes a unit of the dimension whose map onto the coherent SI unit
// is x·factor + offset.
func unit(symbol, dim, factor, offset string, c *graph.Category) *graph.Unit {
	if c == nil {
		c = &graph.Category{ID: dim, Dim: dimension.Product(dim)}
	}
	f, o := rat(factor), rat(offset)
	m, err := exact.Affine(f, o, 0)
	if err != nil {
		panic(err)
	}
	return &graph.Unit{Symbol: symbol, Category: c, SI: &graph.Conversion{Map: m}, Coherent: exact.Factor{R: f}}
}

func meaning(dim, factor string) codes.Meaning {
	return codes.Meaning{Dim: dimension.Product(dim), Factor: exact.Factor{R: rat(factor)}}
}

// TestProblem: a claim holds when the unit's dimension, factor (to the
// digits the table states) and offset are the code's; else the problem
// says which differs, or, without explain, only that one does.
func TestProblem(t *testing.T) {
	ft := unit("ft", "L", "0.3048", "0", nil)
	degC := unit("degC", "Θ", "1", "273.15", nil)
	level := unit("B", "", "1", "0", &graph.Category{ID: "level", Logarithmic: true})
	kelvin := meaning("Θ", "1")
	celsius := meaning("Θ", "1")
	celsius.Offset = rat("273.15")
	stated := meaning("L", "0.3048006")
	stated.Digits = 4
	for _, tt := range []struct {
		name string
		u    *graph.Unit
		m    codes.Meaning
		want string // "" or a part of the problem
	}{
		{"same", ft, meaning("L", "0.3048"), ""},
		{"to the table's digits", ft, stated, ""},
		{"beyond the table's digits", ft, meaning("L", "0.3048006"), "means 0.3048006 m, but the unit is 0.3048 m"},
		{"dimension", ft, meaning("M", "0.3048"), "has dimension M, but the unit's is L"},
		{"offset", degC, kelvin, "differ in offset"},
		{"with the offset", degC, celsius, ""},
		{"level", level, meaning("", "1"), "but B is a level"},
		{"arbitrary", ft, codes.Meaning{Dim: dimension.Product("L"), Factor: exact.Factor{R: rat("1")}, Arbitrary: "[IU]"}, "arbitrary unit"},
	} {
		for _, words := range []bool{false, true} {
			c := &Claimant{Unit: tt.u, Words: words}
			got := c.Problem("ucum", "x", tt.m, true)
			if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
				t.Errorf("%s (words %v): %q, want %q", tt.name, words, got, tt.want)
			}
			if quiet := c.Problem("ucum", "x", tt.m, false); (quiet == "") != (got == "") {
				t.Errorf("%s (words %v): without explain %q, with %q", tt.name, words, quiet, got)
			}
		}
	}
}

// TestCounterparts: of the units that can claim a code, those whose factor
// agrees to the most digits are its counterparts; none when one of them
// claims a code of the system already.
func TestCounterparts(t *testing.T) {
	m := unit("m", "L", "1", "0", nil)
	ft := unit("ft", "L", "0.3048", "0", m.Category)
	ftUS := unit("ft_us", "L", "1200/3937", "0", m.Category)
	kg := unit("kg", "M", "1", "0", nil)
	byDim := ByDimension([]*graph.Unit{m, ft, ftUS, kg}, true)
	stated := meaning("L", "0.3048")
	stated.Digits = 3 // the survey foot agrees to 3 digits too
	if got := counterparts(byDim, "qudt", "FT", stated); len(got) != 1 || got[0] != "ft" {
		t.Errorf("a foot stated to 3 digits: %v, want [ft]", got)
	}
	if got := counterparts(byDim, "qudt", "GM", meaning("M", "0.001")); len(got) != 0 {
		t.Errorf("a gram: %v, want none", got)
	}
	ft.Codes.Set("qudt", "FT")
	if got := counterparts(byDim, "qudt", "FOOT", stated); len(got) != 0 {
		t.Errorf("a synonym of a claimed code: %v, want none", got)
	}
}
