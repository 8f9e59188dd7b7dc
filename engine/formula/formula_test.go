package formula

import (
	"strings"
	"testing"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine/internal/exact"
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
		prog, err := compile(tt.src)
		if err != nil {
			t.Errorf("compile %q: %v", tt.src, err)
			continue
		}
		x, _, _ := apd.NewFromString(tt.x)
		got, _, err := Run(prog, x, defaultWork, Env{})
		if err != nil {
			t.Errorf("%q at %s: %v", tt.src, tt.x, err)
			continue
		}
		if exact.FormatDecimal(got) != tt.want {
			t.Errorf("%q at %s = %s, want %s", tt.src, tt.x, exact.FormatDecimal(got), tt.want)
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
		_, err := compile(tt.src)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("compile %q: error %v, want %q", tt.src, err, tt.want)
		}
	}
}

// TestPowerOfTenShift checks that multiplying or dividing by a power of
// ten through the exponent gives apd's value and inexact flag, including
// where the shortcut must not apply (too many digits for the precision).
func TestPowerOfTenShift(t *testing.T) {
	c := apd.BaseContext.WithPrecision(12)
	c.Rounding = apd.RoundHalfEven
	for _, xs := range []string{"1.37", "-13.7", "0", "123456789012", "1234567890123", "9.99e-50", "-4.5e30"} {
		for _, ys := range []string{"10", "1", "0.001", "1e20", "100.0", "20", "-10"} {
			x, _, _ := apd.NewFromString(xs)
			y, _, _ := apd.NewFromString(ys)
			for _, op := range []struct {
				name string
				fast runBinary
				apd  func(c *apd.Context, d, x, y *apd.Decimal) (apd.Condition, error)
			}{
				{"mul", mulDecimal, (*apd.Context).Mul},
				{"div", quoDecimal, (*apd.Context).Quo},
			} {
				var got, want apd.Decimal
				gc, gerr := op.fast(c, &got, x, y, Env{Fast: true})
				wc, werr := op.apd(c, &want, x, y)
				if gerr != nil || werr != nil || got.Cmp(&want) != 0 || gc.Inexact() != wc.Inexact() {
					t.Errorf("%s(%s, %s) = %s (inexact %v, %v), apd %s (inexact %v, %v)", op.name, xs, ys, &got, gc.Inexact(), gerr, &want, wc.Inexact(), werr)
				}
			}
		}
	}
}

// TestEveryCallTakesTheEnv: the conversion's Env reaches the result of
// every call, a call of literals among them (literalPatcher gives those
// x, whose Env they take), and of every call computed from x.
func TestEveryCallTakesTheEnv(t *testing.T) {
	for _, src := range []string{
		"2 * 3", "ln(2)", "-5", "exp(1) ^ 2", "sqrt(2 + 2)", "atan(1)",
		"x + 1", "ln(x)", "-x", "x * ln(2)", "ln(2) * x", "let y = x * 2; y / 3",
		// One function called on x and on literals, in one formula and
		// in two (UCUM's ld: expr's checker once kept a function's
		// type from one compilation to the next).
		"ln(x) / ln(2)", "ln(2) / ln(x)", "2 ^ x + 2 ^ 3", "exp(x * ln(2))", "ln(x) / ln(2)",
	} {
		prog, err := compile(src)
		if err != nil {
			t.Fatalf("compile %q: %v", src, err)
		}
		for _, fast := range []bool{false, true} {
			budget := NewBudget(100)
			x := num{d: apd.New(3, 0), ctx: defaultWork, budget: budget, fast: fast, carries: true}
			out, err := runProgram(prog, formulaEnv{X: x})
			if err != nil {
				t.Fatalf("%q: %v", src, err)
			}
			if r := out.(num); r.budget != budget || r.fast != fast || !r.carries {
				t.Errorf("%q (fast %v): the result carries budget %p, fast %v, carries %v; want %p, %v, true",
					src, fast, r.budget, r.fast, r.carries, budget, fast)
			}
		}
	}
}

// TestIsTen: 10 however it is written, and nothing else.
func TestIsTen(t *testing.T) {
	for _, tt := range []struct {
		x    string
		want bool
	}{
		{"10", true}, {"1e1", true}, {"10.000", true}, {"0.01e3", true}, {"1000e-2", true},
		{"-10", false}, {"1", false}, {"100", false}, {"10.0001", false}, {"9.99999", false},
		{"0", false}, {"Infinity", false}, {"NaN", false}, {"1e10", false},
	} {
		x, _, err := apd.NewFromString(tt.x)
		if err != nil {
			t.Fatal(err)
		}
		if got := isTen(x); got != tt.want {
			t.Errorf("isTen(%s) = %v, want %v", tt.x, got, tt.want)
		}
	}
}
