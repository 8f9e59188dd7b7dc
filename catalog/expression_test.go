package catalog

import (
	"errors"
	"strings"
	"testing"

	"github.com/unitd/unitd/engine"
)

// TestContractExpressions converts the examples of the contract's
// sections on unit expressions, intervals and bridges with the shipped
// catalog.
func TestContractExpressions(t *testing.T) {
	g := shipped(t)
	tests := []struct {
		value, from, to string
		want            string
		exact           bool
		unit, category  string
	}{
		{"1", "kg*m/s^2", "N", "1", true, "N", "force"},
		{"60", "mi/h", "km/h", "96.56064", true, "km/h", "speed"},
		{"60", "mile/hour", "km/h", "96.56064", true, "km/h", "speed"},
		{"1", "N", "kg·m·s⁻²", "1", true, "kg*m*s^-2", "force"},
		{"1", "N", "mile*kg/hour^2", "8052.970651395848246241947029348604", false, "mi*kg/h^2", "force"},
		{"1", "kg*m^2/s^2", "J", "1", true, "J", "energy"},
		{"1", "kg*m^2/s^2", "N*m", "1", true, "N*m", "torque"},
		{"1", "W/(m2*K)", "BTU/(h*ft2*degF)", "0.1761101836823058407309515389966389", false, "BTU/(h*ft2*degF)", "heat_transfer_coefficient"},
		{"1", "W/m2/K", "W/(m2*K)", "1", true, "W/(m2*K)", "heat_transfer_coefficient"},
		{"1", "N/mm²", "MPa", "1", true, "MPa", "pressure"},
		{"1", "ft·lbf", "J", "1.3558179483314004", true, "J", "energy"},
		{"1", "ft^3/min", "L/s", "0.4719474432", true, "L/s", "flow"},
		{"1", "m/s²", "m/s2", "1", true, "m/s2", "acceleration"},
		{"50", "1/s", "Hz", "50", true, "Hz", "frequency"},
		{"3600", "kg/h", "kg/s", "1", true, "kg/s", "mass_flow_rate"},
		{"1", "km/L", "m^-2", "1000000", true, "m^-2", "fuel_economy"},
		{"1", "delta_degC", "K", "1", true, "K", "temperature_interval"},
		{"1", "K", "delta_degF", "1.8", true, "delta_degF", "temperature_interval"},
		{"1", "rpm", "rad/s", "0.1047197551196597746154214461093168", false, "rad/s", "angular_velocity"},
		{"1", "rpm", "Hz", "0.01666666666666666666666666666666667", false, "Hz", "frequency"},
		{"1", "rpm", "deg/s", "6", true, "deg/s", "angular_velocity"},
		{"1", "rev/min", "deg/s", "6", true, "deg/s", "angular_velocity"},
		{"1", "rpm/s", "deg/s^2", "6", true, "deg/s^2", "angular_acceleration"},
	}
	for _, tt := range tests {
		t.Run(tt.value+" "+tt.from+"→"+tt.to, func(t *testing.T) {
			r, err := g.Convert(engine.Request{Value: tt.value, From: tt.from, To: tt.to})
			if err != nil {
				t.Fatal(err)
			}
			if r.Value != tt.want || r.Exact != tt.exact || r.Unit != tt.unit || r.CategoryID != tt.category {
				t.Errorf("= %s %s (exact %v, %s), want %s %s (exact %v, %s)", r.Value, r.Unit, r.Exact, r.CategoryID, tt.want, tt.unit, tt.exact, tt.category)
			}
		})
	}
	bad := []struct {
		from, to string
		code     engine.Code
		message  string
	}{
		{"J", "N*m", engine.CodeIncompatibleUnits, "energy and torque are different kinds of quantity"},
		{"Hz", "Bq", engine.CodeIncompatibleUnits, "frequency and radioactivity are different kinds of quantity"},
		{"W", "J", engine.CodeIncompatibleUnits, "dimension M L^2 T^-3 is not M L^2 T^-2; multiply by a time"},
		{"degC", "delta_K", engine.CodeIncompatibleUnits, "degC is a point on a scale with an offset"},
		{"dBm*s", "J", engine.CodeInvalidUnitExpression, "dBm at position 1 is defined by a formula"},
		{"L/100km*km", "L", engine.CodeInvalidUnitExpression, "L/100km at position 1 is defined by a formula"},
		{"m^99", "m", engine.CodeInvalidUnitExpression, "position 2"},
		{"kg*/m", "kg", engine.CodeInvalidUnitExpression, "position 4"},
		{"gallon/min", "L/s", engine.CodeAmbiguousUnit, `"gallon" is ambiguous`},
		{"kg/metr", "kg/m", engine.CodeUnknownUnit, `unknown unit "metr"`},
	}
	for _, tt := range bad {
		t.Run(tt.from+"→"+tt.to, func(t *testing.T) {
			_, err := g.Convert(engine.Request{Value: "1", From: tt.from, To: tt.to})
			var e *engine.Error
			if !errors.As(err, &e) || e.Code != tt.code || !strings.Contains(e.Message, tt.message) {
				t.Errorf("err = %v, want %s containing %q", err, tt.code, tt.message)
			}
		})
	}
}
