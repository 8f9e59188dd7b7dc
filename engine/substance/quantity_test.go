package substance

import (
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/unitd/unitd/engine/dimension"
	"github.com/unitd/unitd/engine/internal/exact"
)

// fakeUnits knows a few units of this test by their maps onto SI.
type fakeUnits map[string]struct {
	m   *exact.Map
	dim dimension.Vector
}

func (f fakeUnits) SIMap(name string) (*exact.Map, string, dimension.Vector, error) {
	u, ok := f[name]
	if !ok {
		return nil, "", dimension.Vector{}, errors.New("unknown unit " + name)
	}
	return u.m, name, u.dim, nil
}

// TestQuantity: "VALUE UNIT" reads exactly into coherent SI units, with
// or without a space, and every refusal names the field's text and why.
func TestQuantity(t *testing.T) {
	linear := func(num, den int64) *exact.Map {
		m, err := exact.Linear(big.NewRat(num, den), 0)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	celsius, err := exact.Affine(big.NewRat(1, 1), big.NewRat(27315, 100), 0)
	if err != nil {
		t.Fatal(err)
	}
	pi, err := exact.Linear(big.NewRat(1, 180), 1)
	if err != nil {
		t.Fatal(err)
	}
	units := fakeUnits{
		"g/mol": {linear(1, 1000), MolarMassDim},
		"degC":  {celsius, TemperatureDim},
		"kPa":   {linear(1000, 1), PressureDim},
		"deg":   {pi, dimension.Vector{}},
		"eq":    {linear(1, 1), MolarMassDim},
		"dB":    {nil, MolarMassDim},
		"/x":    {exact.Reciprocal(), MolarMassDim},
	}
	for _, c := range []struct {
		text string
		want dimension.Vector
		si   string // the value in SI units, or a part of the error
	}{
		{"180.156 g/mol", MolarMassDim, "45039/250000"},
		{"  25degC ", TemperatureDim, "5963/20"},
		{"101.325 kPa", PressureDim, "101325"},
		{"5eq", MolarMassDim, "5"},
		{"1e2 g/mol", MolarMassDim, "1/10"},
		{"180.156", MolarMassDim, `expected a value and a unit, such as`},
		{"x g/mol", MolarMassDim, `"x g/mol": `},
		{"1 furlong", MolarMassDim, "unknown unit furlong"},
		{"1 dB", MolarMassDim, "dB converts through a formula; name a linear unit"},
		{"1 kPa", MolarMassDim, "kPa has dimension"},
		{"90 deg", dimension.Vector{}, "a unit through π cannot state an exact value"},
		{"2 /x", MolarMassDim, "/x is a reciprocal unit"},
	} {
		got, err := Quantity(units, "molar_mass", c.text, c.want)
		switch {
		case err == nil && got.RatString() != c.si:
			t.Errorf("%q = %s, want %s", c.text, got.RatString(), c.si)
		case err != nil:
			var fe *FieldError
			if !errors.As(err, &fe) || fe.Field != "molar_mass" || !strings.Contains(fe.Message, c.si) {
				t.Errorf("%q: %v, want a molar_mass error with %q", c.text, err, c.si)
			}
		}
	}
}
