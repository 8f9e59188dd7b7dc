package engine_test

import (
	"math/big"
	"testing"

	"github.com/unitd/unitd/engine"
)

// TestExactValue converts rational values (Request.Exact) and checks each
// answer against the same conversion in big.Rat, written by hand from the
// catalog's definitions: a third of a cup is five and a third US
// tablespoons, rounded once; a third of a yard is one foot, exactly.
func TestExactValue(t *testing.T) {
	g := shipped(t)
	r := big.NewRat
	for _, c := range []struct {
		name      string
		exact     []*big.Rat
		from, to  string
		precision int
		want      string
		wantExact bool
	}{
		{"⅓ cup", []*big.Rat{r(1, 3)}, "cup", "tbsp", 0, "5.333333333333333333333333333333333", false},
		{"⅓ yd", []*big.Rat{r(1, 3)}, "yd", "ft", 0, "1", true},
		{"⅔ yd", []*big.Rat{r(2, 3)}, "yd", "in", 0, "24", true},
		// 11/6 yd is 5.5 ft: on the boundary, half to even.
		{"1 5/6 yd", []*big.Rat{r(11, 6)}, "yd", "ft", 1, "6", false},
		{"7/6 yd", []*big.Rat{r(7, 6)}, "yd", "ft", 1, "4", false},
		{"-1 5/6 yd", []*big.Rat{r(-11, 6)}, "yd", "ft", 1, "-6", false},
		{"⅓ h", []*big.Rat{r(1, 3)}, "h", "s", 0, "1200", true},
		{"1/3 degF", []*big.Rat{r(1, 3)}, "degF", "degR", 5, "460", false},
		// 1/3 °C + 273.15 = 273.48333… K
		{"1/3 degC", []*big.Rat{r(1, 3)}, "degC", "K", 8, "273.48333", false},
		{"¾ cup (terminating)", []*big.Rat{r(3, 4)}, "cup", "floz", 0, "6", true},
		{"5 ft 3⅓ in", []*big.Rat{r(5, 1), r(10, 3)}, "ft+in", "in", 0, "63.33333333333333333333333333333333", false},
		{"5 ft 4½ in (terminating)", []*big.Rat{r(5, 1), r(9, 2)}, "ft+in", "in", 0, "64.5", true},
		{"⅓ mi/gal", []*big.Rat{r(1, 3)}, "mpg", "L/100km", 6, "705.644", false},
	} {
		res, err := g.Convert(engine.Request{Exact: c.exact, From: c.from, To: c.to, Precision: c.precision})
		if err != nil {
			t.Errorf("%s → %s: %v", c.name, c.to, err)
			continue
		}
		if res.Value != c.want || res.Exact != c.wantExact {
			t.Errorf("%s → %s: %s (exact %v), want %s (exact %v)", c.name, c.to, res.Value, res.Exact, c.want, c.wantExact)
		}
	}
}

// TestExactValueTargets: a rational into a mixed unit and into auto.
func TestExactValueTargets(t *testing.T) {
	g := shipped(t)
	res, err := g.Convert(engine.Request{Exact: []*big.Rat{big.NewRat(1, 3)}, From: "h", To: "h+min"})
	if err != nil {
		t.Fatal(err)
	}
	if got := engine.PartsText(res.Parts()); got != "0 h 20 min" || !res.Exact {
		t.Errorf("⅓ h → h+min: %s (exact %v), want 0 h 20 min exactly", got, res.Exact)
	}
	// ⅓ mi in the US is 586.666… yd, where a mile is chosen from 1 mi up.
	res, err = g.Convert(engine.Request{Exact: []*big.Rat{big.NewRat(1, 3)}, From: "mi", To: engine.Auto, Region: "US", Precision: 5})
	if err != nil {
		t.Fatal(err)
	}
	if res.Preference() == nil || res.Value == "" {
		t.Fatalf("⅓ mi → auto: %+v", res)
	}
	plain, err := g.Convert(engine.Request{Value: "0.33333333333333333333333333333333333333333", From: "mi", To: res.Unit, Precision: 5})
	if err != nil || plain.Value != res.Value {
		t.Errorf("⅓ mi → auto (%s): %s, the decimal gives %s %v", res.Unit, res.Value, plain.Value, err)
	}
	// Below absolute zero and at a pole, as decimals are refused.
	if _, err := g.Convert(engine.Request{Exact: []*big.Rat{big.NewRat(-1, 3)}, From: "K", To: "degC"}); err == nil {
		t.Error("-⅓ K converted")
	}
	if _, err := g.Convert(engine.Request{Exact: []*big.Rat{big.NewRat(-1, 3)}, From: "mpg", To: "L/100km"}); err == nil {
		t.Error("-⅓ mpg converted")
	}
	if _, err := g.Convert(engine.Request{Exact: []*big.Rat{big.NewRat(1, 3), big.NewRat(1, 3)}, From: "m", To: "ft"}); err == nil {
		t.Error("two values for one unit converted")
	}
}

// TestCompareUnits compares units by their exact sizes.
func TestCompareUnits(t *testing.T) {
	g := shipped(t)
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"ft", "in", 1}, {"in", "ft", -1}, {"ft", "ft", 0}, {"h", "min", 1}, {"deg", "arcmin", 1},
		{"rad", "deg", 1}, {"arcsec", "rad", -1}, {"lb", "oz", 1}, {"st", "lb", 1}, {"m", "cm", 1},
	} {
		a, _ := g.Lookup(c.a)
		b, _ := g.Lookup(c.b)
		got, err := g.CompareUnits(a, b)
		if err != nil || got != c.want {
			t.Errorf("%s vs %s: %d %v, want %d", c.a, c.b, got, err, c.want)
		}
	}
	a, _ := g.Lookup("degC")
	b, _ := g.Lookup("K")
	if _, err := g.CompareUnits(a, b); err == nil {
		t.Error("degC compared with K")
	}
}
