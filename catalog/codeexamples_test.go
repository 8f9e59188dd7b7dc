package catalog

import (
	"strings"
	"testing"

	"github.com/unitd/unitd/engine"
)

// TestCodeExamples converts the examples of the one identity of
// namespaced codes (API contract, Standard unit codes): a code a catalog
// unit claims is that unit, and any other is its owner's definition with
// the owner's conventions made explicit (UCUM's inverse units, equivalents
// and prefixed special units; QUDT's and CLDR's dimensionless radian and
// steradian; QUDT's rounded multipliers, not exact).
func TestCodeExamples(t *testing.T) {
	g := shipped(t)
	for _, c := range []struct {
		value, from, to string
		precision       int
		q               engine.PropertyQuery
		want, unit      string
		exact           bool
		// anyExact leaves exactness unchecked: a level converts through
		// its logarithmic formula, which unitd does not cancel.
		anyExact bool
	}{
		// UCUM's [diop] is 1/m (function inv): 37.5 diopters is a focal
		// length of 1/37.5 m, and 1/m converts to it directly.
		{value: "37.5", from: "ucum:[diop]", to: "m", precision: 4, want: "0.02667", unit: "m", exact: false},
		{value: "1", from: "ucum:[diop]", to: "1/m", want: "1", unit: "1/m", exact: true},
		// Bd is 1/s: a picobaud is a trillionth of a baud, 1e12 s.
		{value: "1", from: "ucum:pBd", to: "s", want: "1000000000000", unit: "s", exact: true},
		// QUDT counts the radian as 1: its REV-PER-MIN is an angular
		// velocity, the catalog's rpm through its bridge of cycles and
		// radians, exactly, for the catalog's rev and min claim REV and MIN.
		{value: "1", from: "qudt:REV-PER-MIN", to: "rpm", want: "1", unit: "rpm", exact: true},
		{value: "60", from: "rpm", to: "qudt:REV-PER-MIN", want: "60", unit: "qudt:REV-PER-MIN", exact: true},
		{value: "1", from: "qudt:RAD-PER-SEC", to: "rad/s", want: "1", unit: "rad/s", exact: true},
		// A multiplier QUDT rounds, of a unit no catalog unit claims and
		// not made of units that have exact definitions, is not exact.
		{value: "1", from: "qudt:PT", to: "m", want: "0.0000254", unit: "m", exact: false},
		// An equivalent is a mole of charges: with the charge 2 a
		// milliequivalent is half a millimole, and with calcium's molar
		// mass it is what the catalog's mEq/L gives.
		{value: "1", from: "ucum:meq/L", to: "ucum:mmol/L", q: engine.PropertyQuery{Charge: "2"}, want: "0.5", unit: "mmol/L", exact: false},
		{value: "1", from: "ucum:meq/L", to: "mg/dL", precision: 5, q: engine.PropertyQuery{Substance: "calcium"}, want: "2.0039", unit: "mg/dL", exact: false},
		{value: "1", from: "mEq/L", to: "mg/dL", precision: 5, q: engine.PropertyQuery{Substance: "calcium"}, want: "2.0039", unit: "mg/dL", exact: false},
		// CLDR's lux and lumen keep the steradian: the catalog's lx and lm.
		{value: "1", from: "cldr:lux", to: "lx", want: "1", unit: "lx", exact: true},
		{value: "1", from: "cldr:lumen", to: "lm", want: "1", unit: "lm", exact: true},
		// A prefixed neper is a hundredth of a neper, not a panic.
		{value: "1", from: "ucum:cNp", to: "ucum:Np", want: "0.01", unit: "Np", anyExact: true},
		// A deprecated CLDR identifier is its replacement.
		{value: "5", from: "cldr:liter-per-100kilometers", to: "L/100km", want: "5", unit: "L/100km", exact: true},
		// QUDT's thousandth of a degree Celsius is the catalog's degC in
		// thousandths of its reading.
		{value: "20000", from: "qudt:MilliDEG_C", to: "degC", want: "20", unit: "degC", exact: true},
	} {
		name := c.value + " " + c.from + " → " + c.to
		req := engine.Request{Value: c.value, From: c.from, To: c.to, Precision: c.precision}
		if !c.q.IsZero() {
			p, err := g.ResolveProperties(c.q)
			if err != nil {
				t.Errorf("%s: %+v: %v", name, c.q, err)
				continue
			}
			req.Properties = p
		}
		res, panicked, err := convertRecovering(g, req)
		switch {
		case panicked || err != nil:
			t.Errorf("%s: %v", name, err)
		case res.Value != c.want || res.Unit != c.unit || res.Exact != c.exact && !c.anyExact:
			t.Errorf("%s = %s %s (exact %v), want %s %s (exact %v)", name, res.Value, res.Unit, res.Exact, c.want, c.unit, c.exact)
		}
	}
}

// TestCodeClaimants: a code that a catalog unit claims is that unit, the
// unit to=auto answers in: cldr:year is the catalog's yr_greg, the year of
// CLDR's unit preferences, and cldr:mile-per-hour is mph.
func TestCodeClaimants(t *testing.T) {
	g := shipped(t)
	for code, symbol := range map[string]string{
		"cldr:year": "yr_greg", "cldr:month": "mo_greg", "cldr:mile-per-hour": "mph", "cldr:lux": "lx", "cldr:lumen": "lm",
		"qudt:REV": "rev", "qudt:MIN": "min", "qudt:RAD-PER-SEC": "rad/s", "qudt:DEG": "deg", "qudt:BYTE": "B",
		"ucum:eq": "Eq", "ucum:[psi]": "psi", "cldr:liter-per-100kilometers": "L/100km",
	} {
		u, _, err := g.Resolve(code)
		switch {
		case err != nil:
			t.Errorf("%s: %v", code, err)
		case u == nil || u.Symbol != symbol:
			t.Errorf("%s resolves to %v, want the catalog's %s", code, u, symbol)
		}
	}
	for _, c := range []struct{ usage, want string }{
		{"default", "1 yr_greg"},
		{"person-age", "1 yr_greg"},
	} {
		res, err := g.Convert(engine.Request{Value: "1", From: "cldr:year", To: engine.Auto, Usage: c.usage})
		if err != nil {
			t.Errorf("1 cldr:year to auto (%s): %v", c.usage, err)
			continue
		}
		got := res.Value + " " + res.Unit
		if len(res.Parts()) > 0 {
			var parts []string
			for _, p := range res.Parts() {
				if p.Value != "0" {
					parts = append(parts, p.Value+" "+p.Unit.Symbol)
				}
			}
			got = strings.Join(parts, " + ")
		}
		if got != c.want || !res.Exact {
			t.Errorf("1 cldr:year to auto (%s) = %q (exact %v), want %q exactly", c.usage, got, res.Exact, c.want)
		}
	}
}
