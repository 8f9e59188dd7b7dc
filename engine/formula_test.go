package engine

import (
	"strings"
	"testing"

	"github.com/cockroachdb/apd/v3"
)

// TestFormulaOperatorsInArguments checks that operators work inside a
// function's arguments (expr's operator overloading does not reach
// there; literalPatcher rewrites them), with exact results where the
// mathematics is exact.
func TestFormulaOperatorsInArguments(t *testing.T) {
	for _, tt := range []struct{ src, x, want string }{
		{"10 * log10(x / 20)", "2000", "20"},
		{"log10(x * 10) - 1", "1000", "3"},
		{"20 * log10(x) - 20 * log10(20)", "2000", "40"},
		{"sqrt(x + 7) * 2", "9", "8"},
		{"10 ** (x / 10 - 1)", "30", "100"},
		{"abs(-x - 1)", "4", "5"},
		{"let y = x * 2; log10(y / 2)", "100", "2"},
	} {
		prog, err := compileFormula(tt.src, decimalMode)
		if err != nil {
			t.Errorf("compile %q: %v", tt.src, err)
			continue
		}
		x, _, _ := apd.NewFromString(tt.x)
		got, _, err := runFormula(prog, x, defaultWork, nil)
		if err != nil {
			t.Errorf("%q at %s: %v", tt.src, tt.x, err)
			continue
		}
		if FormatDecimal(got) != tt.want {
			t.Errorf("%q at %s = %s, want %s", tt.src, tt.x, FormatDecimal(got), tt.want)
		}
	}
}

// TestFormulaUnknownName checks that a name other than x, a function or a
// let name is refused at compile time with its position, also inside a
// function's arguments.
func TestFormulaUnknownName(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{"y * 2", "unknown name y (1:1)"},
		{"log10(x / z)", "unknown name z (1:11)"},
		{"let a = 2; a * b", "unknown name b (1:16)"},
	} {
		_, err := compileFormula(tt.src, decimalMode)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("compile %q: error %v, want %q", tt.src, err, tt.want)
		}
	}
}
