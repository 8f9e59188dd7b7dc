package plan

import (
	"errors"

	"math/big"
	"strings"
	"testing"

	"github.com/cockroachdb/apd/v3"

	"github.com/unitd/unitd/engine/dimension"
	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/internal/graph"
)

// catalogUnit makes a unit of c whose map onto the category's base, and
// onto the coherent SI unit, is x·f.
func catalogUnit(t *testing.T, symbol, f string, c *graph.Category) *graph.Unit {
	r, ok := new(big.Rat).SetString(f)
	if !ok {
		t.Fatalf("bad factor %q", f)
	}
	m, err := exact.Linear(r, 0)
	if err != nil {
		t.Fatal(err)
	}
	u := &graph.Unit{Symbol: symbol, Category: c, Conv: graph.Conversion{Map: m, Exact: true}, Coherent: exact.Factor{R: r}}
	u.SI = &u.Conv
	c.Units = append(c.Units, u)
	return u
}

// TestPlannerPlan: units of one category meet at its base; units of two
// categories only through a bridge, else INCOMPATIBLE_UNITS with both
// dimensions; a level converts only to its own category's units.
func TestPlannerPlan(t *testing.T) {
	length := &graph.Category{ID: "length", Name: "Length", Dim: dimension.Product("L")}
	energy := &graph.Category{ID: "energy", Name: "Energy", Dim: dimension.Of(map[string]int{"M": 1, "L": 2, "T": -2})}
	torque := &graph.Category{ID: "torque", Name: "Torque", Dim: dimension.Of(map[string]int{"M": 1, "L": 2, "T": -2})}
	level := &graph.Category{ID: "level", Name: "Level", Dim: dimension.Vector{}, Logarithmic: true}
	m, ft := catalogUnit(t, "m", "1", length), catalogUnit(t, "ft", "381/1250", length)
	j, nm := catalogUnit(t, "J", "1", energy), catalogUnit(t, "N·m", "1", torque)
	b := catalogUnit(t, "B", "1", level)
	pr := Planner{Compiler: NewCompiler()}
	for _, words := range []bool{false, true} {
		pl, err := pr.Plan(Side{Unit: ft}, Side{Unit: m}, words)
		if err != nil || pl.Category != length || pl.Unit != "m" || !pl.Exact || pl.M == nil {
			t.Fatalf("ft → m: %+v %v", pl, err)
		}
		var out exact.Decimal
		x, _, _ := apd.NewFromString("12.5")
		if _, err := pl.Run(&out, x, 10, nil, words); err != nil || string(out.Append(nil)) != "3.81" {
			t.Errorf("12.5 ft → m: %s %v", out.Append(nil), err)
		}
		for _, c := range []struct {
			from, to *graph.Unit
			want     string
		}{
			{j, nm, "but energy and torque are different kinds of quantity"},
			{m, j, "dimension L is not"},
			{b, m, "B is a level on a logarithmic scale and converts only to the other units of Level (B)"},
		} {
			_, err := pr.Plan(Side{Unit: c.from}, Side{Unit: c.to}, words)
			var e *fault.Error
			if !errors.As(err, &e) || e.Code != fault.Incompatible || e.Details["from_dimension"] == "" {
				t.Errorf("%s → %s: %v", c.from.Symbol, c.to.Symbol, err)
			} else if !strings.Contains(e.Message, c.want) {
				t.Errorf("%s → %s: %q, want %q", c.from.Symbol, c.to.Symbol, e.Message, c.want)
			}
		}
	}
	r, _ := new(big.Rat).SetString("1")
	br := &graph.Bridge{From: j, To: nm, Exact: true, SI: exact.Factor{R: r}}
	pr.Bridges = map[graph.CategoryPair]*graph.Bridge{{From: energy, To: torque}: br}
	if pl, err := pr.Plan(Side{Unit: j}, Side{Unit: nm}, true); err != nil || pl.Bridge != br || pl.Category != torque {
		t.Errorf("J → N·m through a bridge: %+v %v", pl, err)
	}
}
