package catalog

import (
	"errors"
	"strings"
	"testing"

	"github.com/unitd/unitd/engine"
)

// TestShippedHints: the shipped hints.yaml guesses what the common
// mistakes meant, and the conversion still fails.
func TestShippedHints(t *testing.T) {
	g := shipped(t)
	for _, tt := range []struct {
		value, from, to string
		code            engine.Code
		has             []string
		hasNot          []string
	}{
		{"37", "C", "F", engine.CodeIncompatibleUnits, []string{"coulomb", "farad", "did you mean degC → degF"}, nil},
		{"98.6", "F", "C", engine.CodeIncompatibleUnits, []string{"did you mean degF → degC"}, nil},
		{"9.8", "m/s²", "g", engine.CodeIncompatibleUnits, []string{"gram", "g0"}, nil},
		{"1", "g", "m/s^2", engine.CodeIncompatibleUnits, []string{"gram", "g0"}, nil},
		{"100", "USD", "EUR", engine.CodeUnknownUnit, []string{"USD and EUR", "currency codes", "not units of measurement"}, nil},
		{"5", "L/100km", "m2", engine.CodeIncompatibleUnits, []string{"L/100km measures fuel use per distance", "mpg"}, []string{"is a length"}},
		{"5", "m", "L/100km", engine.CodeIncompatibleUnits, []string{"L/100km measures fuel use per distance"}, nil},
		{"1", "m", "kg", engine.CodeIncompatibleUnits, nil, nil}, // no hint fits
	} {
		_, err := g.Convert(engine.Request{Value: tt.value, From: tt.from, To: tt.to})
		var e *engine.Error
		if !errors.As(err, &e) || e.Code != tt.code {
			t.Errorf("%s %s → %s: %v, want %s", tt.value, tt.from, tt.to, err, tt.code)
			continue
		}
		if len(tt.has) == 0 && e.Hint != "" {
			t.Errorf("%s → %s: hint %q, want none", tt.from, tt.to, e.Hint)
		}
		for _, s := range tt.has {
			if !strings.Contains(e.Hint, s) {
				t.Errorf("%s → %s: hint %q lacks %q", tt.from, tt.to, e.Hint, s)
			}
		}
		for _, s := range tt.hasNot {
			if strings.Contains(e.Hint, s) {
				t.Errorf("%s → %s: hint %q says %q", tt.from, tt.to, e.Hint, s)
			}
		}
	}
}
