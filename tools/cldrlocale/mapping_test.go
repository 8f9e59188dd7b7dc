package main

import (
	"math/big"
	"testing"

	"github.com/unitd/unitd/catalog"
)

// TestReduce reads CLDR identifiers and factors from a small copy of
// cldr-core's units.json: constants, "/" dividing the whole product,
// prefixes, powers, -per-, numbers and offsets.
func TestReduce(t *testing.T) {
	d, err := readConversions("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		id, factor string
		dims       map[string]int
		approx     bool
	}{
		{"foot", "3048/10000", map[string]int{"meter": 1}, false},
		{"acre", "316160658/78125", map[string]int{"meter": 2}, false},
		{"arc-minute", "1/21600", map[string]int{"revolution": 1}, false},
		{"kilometer-per-hour", "5/18", map[string]int{"meter": 1, "second": -1}, false},
		{"square-centimeter", "1/10000", map[string]int{"meter": 2}, false},
		{"liter-per-100-kilometer", "1/100000000", map[string]int{"meter": 2}, false},
		{"gram-per-cubic-foot", "1/(1000*0.3048^3)", map[string]int{"kilogram": 1, "meter": -3}, false},
		{"radian", "65501488/411557987", map[string]int{"revolution": 1}, true},
		{"fahrenheit-per-second", "5/9", map[string]int{"kelvin": 1, "second": -1}, false},
	} {
		f, dims, approx, err := d.reduce(c.id)
		if err != nil {
			t.Fatalf("%s: %v", c.id, err)
		}
		want, ok := new(big.Rat).SetString(c.factor)
		if !ok {
			want = big.NewRat(1, 1000)
			cube := new(big.Rat).SetFrac64(3048, 10000)
			want.Quo(want, new(big.Rat).Mul(cube, new(big.Rat).Mul(cube, cube)))
		}
		if f.Cmp(want) != 0 || approx != c.approx || len(dims) != len(c.dims) {
			t.Errorf("%s: %s %v %v, want %s %v %v", c.id, f.RatString(), dims, approx, want.RatString(), c.dims, c.approx)
		}
		for k, v := range c.dims {
			if dims[k] != v {
				t.Errorf("%s: %s^%d, want ^%d", c.id, k, dims[k], v)
			}
		}
	}
	if _, _, _, err := d.reduce("square-furlong"); err == nil {
		t.Error("an unknown unit reduced")
	}
}

// TestAgrees checks catalog units against CLDR's factors: the catalog's
// foot, acre and degree Fahrenheit agree; the pint is not CLDR's point.
func TestAgrees(t *testing.T) {
	d, err := readConversions("testdata")
	if err != nil {
		t.Fatal(err)
	}
	g, errs := catalog.Load(catalog.Embedded())
	if len(errs) > 0 {
		t.Fatal(errs[0])
	}
	for _, c := range []struct {
		sym, id string
		ok      bool
	}{
		{"ft", "foot", true}, {"acre", "acre", true}, {"degF", "fahrenheit", true}, {"km/h", "kilometer-per-hour", true},
		{"pt", "point", false}, {"m", "foot", false}, {"degC", "fahrenheit", false},
	} {
		if ok, why := d.agrees(g, c.sym, c.id); ok != c.ok {
			t.Errorf("%s as %s: %v (%s), want %v", c.sym, c.id, ok, why, c.ok)
		}
	}
}
