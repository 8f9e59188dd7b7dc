package catalog

import (
	"errors"
	"strings"
	"testing"

	"github.com/unitd/unitd/engine"
)

// TestLevels checks the logarithmic category of the shipped catalog: its
// units convert among themselves (exactly between decibel and bel), and
// nothing else converts into or out of it, neither a ratio nor a unit
// expression nor a level against a reference, and no level is part of a
// unit expression.
func TestLevels(t *testing.T) {
	g := shipped(t)
	for _, tt := range []struct {
		value, from, to, want string
		exact                 bool
	}{
		{"10", "dB", "bel", "1", true},
		{"3", "bel", "dB", "30", true},
		{"1", "Np", "dB", "8.685889638065036553022578378332102", false},
		{"1", "bel", "Np", "1.151292546497022842008995727342182", false},
		{"0", "Np", "dB", "0", true},
		{"-6", "dB", "Np", "-0.6907755278982137052053974364053093", false},
	} {
		res, err := g.Convert(engine.Request{Value: tt.value, From: tt.from, To: tt.to})
		if err != nil || res.Value != tt.want || res.Exact != tt.exact {
			t.Errorf("%s %s → %s = %s (exact %v, %v), want %s (exact %v)", tt.value, tt.from, tt.to, res.Value, res.Exact, err, tt.want, tt.exact)
		}
	}
	for _, tt := range []struct{ from, to string }{
		{"V/V", "dB"}, {"dB", "%"}, {"ratio", "Np"}, {"dB", "m/m"}, {"dBm", "dB"}, {"dB", "rad"},
	} {
		_, err := g.Convert(engine.Request{Value: "10", From: tt.from, To: tt.to})
		var e *engine.Error
		if !errors.As(err, &e) || e.Code != engine.CodeIncompatibleUnits || !strings.Contains(e.Message, "logarithmic") {
			t.Errorf("%s → %s: error %v, want INCOMPATIBLE_UNITS saying why", tt.from, tt.to, err)
		}
	}
	for _, expr := range []string{"dB/km", "Np*m", "bel^2"} {
		_, err := g.Convert(engine.Request{Value: "1", From: expr, To: expr})
		var e *engine.Error
		if !errors.As(err, &e) || e.Code != engine.CodeInvalidUnitExpression {
			t.Errorf("%s: error %v, want INVALID_UNIT_EXPRESSION", expr, err)
		}
	}
}
