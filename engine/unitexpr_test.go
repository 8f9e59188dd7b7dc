package engine

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/unitd/unitd/engine/internal/cache"
)

func TestExpressionConvert(t *testing.T) {
	g := testGraph(t)
	tests := []struct {
		value, from, to string
		want            string
		exact           bool
		unit, category  string
	}{
		{"1", "kg*m/s^2", "N", "1", true, "N", "force"},
		{"1", "N", "kg*m/s^2", "1", true, "kg*m/s^2", "force"},
		{"1", "kg·m·s⁻²", "N", "1", true, "N", "force"},
		{"2", "N", "kg⋅m⋅s⁻²", "2", true, "kg*m*s^-2", "force"},
		{"1", "N", "kg * m / s ** 2", "1", true, "kg*m/s^2", "force"},
		{"60", "m/h", "km/h", "0.06", true, "km/h", "speed"},
		{"60", "ft/min", "m/s", "0.3048", true, "m/s", "speed"},
		{"1", "kilograms*meters/s^2", "N", "1", true, "N", "force"},
		{"1", "kg*m^2/s^2", "J", "1", true, "J", "energy"},
		{"1", "kg*m^2/s^2", "N*m", "1", true, "N*m", "torque"},
		{"1", "N*m", "kg*m^2*s^-2", "1", true, "kg*m^2*s^-2", "torque"},
		{"3", "m*N", "kg*m^2/s^2", "3", true, "kg*m^2/s^2", "energy"},
		{"1", "1/s", "Hz", "1", true, "Hz", "frequency"},
		{"1", "1/min", "1/s", "0.01666666666666666666666666666666667", false, "1/s", "frequency"},
		{"120", "1/min", "s^-1", "2", true, "s^-1", "frequency"},
		{"1", "W/m2/K", "W/(m2*K)", "1", true, "W/(m2*K)", "M T^-3 Θ^-1"},
		{"1", "W/m2*K", "W*K/m2", "1", true, "W*K/m2", "M T^-3 Θ"},
		{"1", "W/(m2*K)", "BTU/h/(ft2*degF)", "0.1761101836823058407309515389966389", false, "BTU/h/(ft2*degF)", "M T^-3 Θ^-1"},
		{"1", "BTU/h*ft2", "W*m2", "0.027227193355052768", true, "W*m2", "M L^4 T^-3"},
		{"1", "ft^3", "m^3", "0.028316846592", true, "m^3", "L^3"},
		{"1", "ft³", "in^3", "1728", true, "in^3", "L^3"},
		{"1", "(ft/s)^2", "m^2/s^2", "0.09290304", true, "m^2/s^2", "L^2 T^-2"},
		{"1", "rpm", "deg/s", "6", true, "deg/s", "angular_velocity"},
		{"1", "rpm", "rad/s", "0.1047197551196597746154214461093168", false, "rad/s", "angular_velocity"},
		{"1", "rpm", "Hz", "0.01666666666666666666666666666666667", false, "Hz", "frequency"},
		{"6", "deg/s", "rpm", "1", true, "rpm", "frequency"},
		{"1", "rev/min", "deg/s", "6", true, "deg/s", "angular_velocity"},
		{"1", "rpm", "rev/min", "1", true, "rev/min", "angular_velocity"},
		{"360", "deg/min", "rev/s", "0.01666666666666666666666666666666667", false, "rev/s", "angular_velocity"},
		{"0", "rpm", "rad/s", "0", true, "rad/s", "angular_velocity"},
		{"1", "delta_degC", "K", "1", true, "K", "temperature_interval"},
		{"1", "K", "delta_degF", "1.8", true, "delta_degF", "temperature_interval"},
		{"-5", "K", "delta_degC", "-5", true, "delta_degC", "temperature_interval"},
		{"1", "degF/s", "K/s", "0.5555555555555555555555555555555556", false, "K/s", "T^-1 Θ"},
		{"1", "K", "K*s/min", "60", true, "K*s/min", "temperature_interval"},
		{"1", "m/s²", "km/h/s", "3.6", true, "km/h/s", "L T^-2"},
		{"2", "lbf*ft", "J", "2.7116358966628008", true, "J", "energy"},
	}
	for _, tt := range tests {
		name := tt.value + " " + tt.from + " → " + tt.to
		t.Run(name, func(t *testing.T) {
			r, err := g.Convert(Request{Value: tt.value, From: tt.from, To: tt.to})
			if err != nil {
				t.Fatal(err)
			}
			if r.Value != tt.want || r.Exact != tt.exact || r.Unit != tt.unit || r.CategoryID != tt.category {
				t.Errorf("= %s %s (exact %v, category %s); want %s %s (exact %v, category %s)",
					r.Value, r.Unit, r.Exact, r.CategoryID, tt.want, tt.unit, tt.exact, tt.category)
			}
		})
	}
}

func TestExpressionErrors(t *testing.T) {
	g := testGraph(t)
	long := strings.Repeat("m*", 10000) + "m"
	tests := []struct {
		from, to string
		code     Code
		message  string // a part of the message
	}{
		{"m^99", "m", CodeInvalidUnitExpression, `exponent 99 at position 2 is out of range`},
		{"m^0", "m", CodeInvalidUnitExpression, `exponent 0 at position 2 is out of range`},
		{"m^-10", "m", CodeInvalidUnitExpression, `exponent -10 at position 2`},
		{"m^", "m", CodeInvalidUnitExpression, `expected a whole number after the exponent at position 2, found the end`},
		{"kg*/m", "kg", CodeInvalidUnitExpression, `expected a unit at position 4, found '/'`},
		{"dBm*s", "J", CodeInvalidUnitExpression, `dBm at position 1 is defined by a formula`},
		{"m/L/100km", "m", CodeInvalidUnitExpression, `L/100km at position 3 is defined by a formula`},
		{"m*", "m", CodeInvalidUnitExpression, `expected a unit at the end (position 3)`},
		{"*", "m", CodeInvalidUnitExpression, `expected a unit at position 1, found '*'`},
		{"*/^", "m", CodeInvalidUnitExpression, `position 1`},
		{"()", "m", CodeInvalidUnitExpression, `expected a unit at position 2, found ')'`},
		{"(m", "m", CodeInvalidUnitExpression, `the parenthesis at position 1 is not closed`},
		{"m)", "m", CodeInvalidUnitExpression, `unexpected ')' at position 2`},
		{"m//s", "m", CodeInvalidUnitExpression, `expected a unit at position 3`},
		{"2*m", "m", CodeInvalidUnitExpression, `the number 2 at position 1 is not a unit`},
		{strings.Repeat("(", 50) + "m" + strings.Repeat(")", 50), "m", CodeInvalidUnitExpression, `nested deeper than 8`},
		{long, "m", CodeInvalidUnitExpression, `longer than 256 bytes`},
		{strings.Repeat("m*", 40) + "m", "m", CodeInvalidUnitExpression, `more than 32 operands`},
		{"((m^9)^9)^9", "m", CodeInvalidUnitExpression, `to the power 81`},
		{"xyz*m", "m", CodeUnknownUnit, `unknown unit "xyz"`},
		{"m/fet", "m", CodeUnknownUnit, `did you mean ft`},
		{"foots/s", "m/s", CodeAmbiguousUnit, `"foots" is ambiguous`},
		{"W", "J", CodeIncompatibleUnits, `dimension M L^2 T^-3 is not M L^2 T^-2; multiply by a time`},
		{"J", "N*m", CodeIncompatibleUnits, `both have dimension M L^2 T^-2, but energy and torque are different kinds of quantity`},
		{"Hz", "Bq", CodeIncompatibleUnits, `frequency and radioactivity are different kinds`},
		{"kg*m/s^3", "W", CodeIncompatibleUnits, `multiply by a length`},
		{"m/s", "m/s^3", CodeIncompatibleUnits, `divide by (a time)^2`},
		{"degC", "delta_K", CodeIncompatibleUnits, `degC is a point on a scale with an offset`},
		{"degC", "K*m/m", CodeIncompatibleUnits, `degC is a point on a scale with an offset`},
		{"m", "K", CodeIncompatibleUnits, `dimension L is not Θ`},
	}
	for _, tt := range tests {
		t.Run(tt.from+" → "+tt.to, func(t *testing.T) {
			_, err := g.Convert(Request{Value: "1", From: tt.from, To: tt.to})
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v, want *Error", err)
			}
			if e.Code != tt.code || !strings.Contains(e.Message, tt.message) {
				t.Errorf("got %s %q\nwant %s containing %q", e.Code, e.Message, tt.code, tt.message)
			}
			if e.Code == CodeIncompatibleUnits && (e.Details["from_dimension"] == "" || e.Details["to_dimension"] == "") {
				t.Errorf("details = %v, want both dimensions", e.Details)
			}
			if e.Code == CodeUnknownUnit && len(e.Suggestions) > 5 {
				t.Errorf("suggestions = %v", e.Suggestions)
			}
		})
	}
}

func TestIncompatibleDetails(t *testing.T) {
	g := testGraph(t)
	_, err := g.Convert(Request{Value: "1", From: "W", To: "J"})
	e := err.(*Error)
	if e.Details["from_dimension"] != "M L^2 T^-3" || e.Details["to_dimension"] != "M L^2 T^-2" {
		t.Errorf("details = %v", e.Details)
	}
}

func TestResolveExpression(t *testing.T) {
	g := testGraph(t)
	u, e, err := g.Resolve("km/h")
	if err != nil || u == nil || e != nil || u.Symbol != "km/h" {
		t.Fatalf("km/h: %v %v %v, want the catalog unit", u, e, err)
	}
	u, e, err = g.Resolve("mile*kg/h^2")
	if err == nil {
		t.Fatalf("mile is not in the test catalog, got %v %v", u, e)
	}
	u, e, err = g.Resolve("ft*lb/s^2")
	if err != nil || u != nil || e == nil {
		t.Fatalf("ft*lb/s^2: %v %v %v", u, e, err)
	}
	if e.Symbol != "ft*lb/s^2" || e.DimensionText() != "M L T^-2" || e.CategoryID() != "force" {
		t.Errorf("expression = %q %s %s", e.Symbol, e.DimensionText(), e.CategoryID())
	}
	unit := func(symbol string) *Unit { u, _ := g.t.BySymbol.Get(symbol); return u }
	want := []Term{{Unit: unit("ft"), Exponent: 1}, {Unit: unit("lb"), Exponent: 1}, {Unit: unit("s"), Exponent: -2}}
	if fmt.Sprint(e.Terms) != fmt.Sprint(want) {
		t.Errorf("terms = %v, want %v", e.Terms, want)
	}
	if f, exact := e.Factor(); f != "0.138254954376" || !exact {
		t.Errorf("factor = %s exact %v", f, exact)
	}
}

// TestExpressionCacheBound floods the cache with distinct expressions and
// checks that it never holds more than its memory budget, while still
// answering.
func TestExpressionCacheBound(t *testing.T) {
	g := testGraph(t)
	budget := cache.NewBudget(256 << 10)
	g.exprs = &exprCache{m: cache.New[string, *Expression](budget)}
	for i := range 3 * 4096 { // far more than the budget holds
		expr := fmt.Sprintf("m^%d*s^%d*kg^%d*ft^%d", 1+i%9, 1+i/9%9, 1+i/81%9, 1+i/729%9)
		if _, _, err := g.Resolve(expr); err != nil {
			t.Fatal(err)
		}
		if used := budget.Used(); used > budget.Limit() {
			t.Fatalf("after %d expressions the cache holds %d bytes, more than its budget %d", i+1, used, budget.Limit())
		}
	}
	if budget.Resets() == 0 || g.exprs.size() == 0 {
		t.Errorf("%d resets, %d entries: the flood neither filled the budget nor left entries", budget.Resets(), g.exprs.size())
	}
	// Spaces do not make a new entry.
	_, e0, _ := g.Resolve("kg * m")
	_, e3, _ := g.Resolve("kg  *   m")
	if e0 != e3 {
		t.Error("an expression that differs only in its runs of spaces was parsed again")
	}
	// A cached expression is the same value each time.
	_, e1, _ := g.Resolve("kg*m/s^2")
	_, e2, _ := g.Resolve("kg*m/s^2")
	if e1 != e2 {
		t.Error("a repeated expression was parsed again")
	}
}

// FuzzParseExpression checks that any text either resolves or fails with
// one of the contract's codes, never panicking, and that a parsed
// expression's canonical symbol parses again to the same dimension and
// factor.
func FuzzParseExpression(f *testing.F) {
	g := testGraph(f)
	for _, s := range []string{
		"kg*m/s^2", "kg·m·s⁻²", "W/(m2*K)", "m/s²", "1/s", "(ft/s)**2", "BTU/h*ft2", "m^99", "kg*/m", "dBm*s",
		"((((m))))", "m^-9", "s⁻¹", "*", "", "(", ")", "m^", "m**-2", "degF/s", "1/1/1", "m^−2", "µm/s", "foots/s",
		strings.Repeat("m*", 40) + "m", "\xff*m", "m^+3", "kilograms * meters",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, e, err := g.Resolve(s)
		if err != nil {
			var ee *Error
			if !errors.As(err, &ee) {
				t.Fatalf("Resolve(%q) error %v is not *Error", s, err)
			}
			switch ee.Code {
			case CodeInvalidUnitExpression, CodeUnknownUnit, CodeAmbiguousUnit:
			default:
				t.Fatalf("Resolve(%q) code %s", s, ee.Code)
			}
			return
		}
		if (u == nil) == (e == nil) {
			t.Fatalf("Resolve(%q) = %v, %v", s, u, e)
		}
		if e == nil {
			return
		}
		_, again, err := g.Resolve(e.Symbol)
		if err != nil {
			t.Fatalf("canonical %q of %q does not resolve: %v", e.Symbol, s, err)
		}
		if again == nil {
			return // the canonical text happens to be a catalog name
		}
		if again.Dim != e.Dim || again.Coherent.K != e.Coherent.K || again.Coherent.R.Cmp(e.Coherent.R) != 0 {
			t.Fatalf("canonical %q of %q means something else", e.Symbol, s)
		}
	})
}
