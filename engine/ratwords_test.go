package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/cockroachdb/apd/v3"
)

// rationalSpec is the test catalog with more rational formula units:
// Möbius maps with a pole away from zero, with both a pole and an affine
// part, an affine formula with no pole, and a factor and an offset on top
// of formulas.
func rationalSpec() Spec {
	spec := testSpec()
	u := func(sym string, def DefinitionSpec) UnitSpec {
		return UnitSpec{Symbol: sym, Name: sym, Plural: sym + "s", System: "test", Exact: true, Source: "test", Definition: def}
	}
	for i := range spec.Categories {
		switch c := &spec.Categories[i]; c.ID {
		case "fuel_economy":
			c.Units = append(c.Units,
				u("rev5", DefinitionSpec{Unit: "km/L", To: "5 / (x + 3)", From: "5 / x - 3"}),
				u("twist", DefinitionSpec{Unit: "km/L", To: "2 - 7 / (x * 4 - 1)", From: "(7 / (2 - x) + 1) / 4"}),
				u("rev5x3", DefinitionSpec{Unit: "rev5", Factor: "3/7"}),
			)
		case "temperature":
			c.Units = append(c.Units,
				u("De", DefinitionSpec{Unit: "K", To: "373.15 - x * 2 / 3", From: "(373.15 - x) * 3 / 2"}),
				u("DeOff", DefinitionSpec{Unit: "De", Factor: "2", Offset: "-15.5"}),
			)
		}
	}
	return spec
}

// TestRationalPairsMatchPlain: for every pair the rational accelerator
// takes, at random values (poles, zero and negatives among them) and
// precisions 1 to 50, it either declines or gives the plain path's digits
// and exact flag; and it never answers where the plain path refuses.
func TestRationalPairsMatchPlain(t *testing.T) {
	g, errs := Build(rationalSpec())
	if errs != nil {
		t.Fatal(errs)
	}
	r := rand.New(rand.NewPCG(5, 6))
	values := []string{"0", "-0", "1", "-3", "0.25", "-0.25", "4e1", "2", "1e19", "123456789012345678", "-7.5e-3", "373.15", "-1.5"}
	for range 40 {
		values = append(values, fmt.Sprintf("%d.%de%d", r.IntN(2000)-1000, r.IntN(1000), r.IntN(12)-6))
	}
	pairs, taken, fast := 0, 0, 0
	for _, c := range g.Categories() {
		for _, from := range c.Units {
			for _, to := range c.Units {
				pl, err := g.plan(side{unit: from}, side{unit: to})
				if err != nil {
					continue
				}
				pairs++
				m := composeRational(pl.from, pl.to)
				if m == nil {
					continue
				}
				taken++
				pl.rat = m
				for _, v := range values {
					x, err := ParseValue(v)
					if err != nil {
						t.Fatal(err)
					}
					for p := 1; p <= MaxPrecision; p += 1 + r.IntN(4) {
						got, gotErr := runText(&pl, &x, p, true)
						want, wantErr := runText(&pl, &x, p, false)
						if got != want || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
							t.Errorf("%s %s → %s at %d: %s %v, plain %s %v", v, from.Symbol, to.Symbol, p, got, gotErr, want, wantErr)
						}
						var q quotient
						if _, ok := m.apply(&q, &x, p); ok && wantErr == nil {
							fast++
						}
					}
				}
			}
		}
	}
	if taken < 20 || fast < 2000 {
		t.Errorf("the accelerator took %d of %d pairs and answered %d times: too few to test", taken, pairs, fast)
	}
}

// runText runs the plan with the accelerators on or off and returns the
// result as printed, with its exact flag, or the error.
func runText(pl *plan, x *apd.Decimal, p int, on bool) (string, error) {
	saved := optimize
	optimize = on
	defer func() { optimize = saved }()
	var out number
	inexact, err := pl.run(&out, x, p, nil)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s exact=%v", out.appendText(nil), !inexact), nil
}

// TestRationalCompositeOncePerUnitPair: spellings of one pair of units are
// cached apart by name, but share one composite map, built once; a pair
// with an expression side gets none.
func TestRationalCompositeOncePerUnitPair(t *testing.T) {
	if !optimize {
		return // the composite is an accelerator; the plain path has none
	}
	g := testGraph(t)
	spellings := []string{"L/100km", "litre per 100 kilometres", "Litres per 100 kilometres", "LITRES PER 100 KILOMETRES", "litres PER 100 kilometres"}
	var first *mobiusWords
	for _, s := range spellings {
		if _, err := g.Convert(Request{Value: "5", From: s, To: "mpg"}); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		e := g.pairs.get(s, "mpg")
		if e == nil || e.plan.rat == nil {
			t.Fatalf("%s → mpg: not cached with a composite: %+v", s, e)
		}
		if first == nil {
			first = e.plan.rat
		} else if e.plan.rat != first {
			t.Errorf("%s → mpg: a composite of its own, built again", s)
		}
	}
	n := 0
	g.rationals.Range(func(any, any) bool { n++; return true })
	if n != 1 {
		t.Errorf("%d composites for one pair of units", n)
	}
	if _, err := g.Convert(Request{Value: "5", From: "L/100km", To: "km/L"}); err != nil {
		t.Fatal(err)
	}
	if e := g.pairs.get("L/100km", "km/L"); e == nil || e.plan.rat == nil {
		t.Error("L/100km → km/L: no composite")
	}
}
