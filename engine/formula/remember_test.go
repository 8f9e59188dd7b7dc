package formula

import (
	"context"
	"fmt"
	"testing"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine/internal/exact"
)

// TestCompileRemembering checks that a pair compiled with remembered
// programs, the first time and the next, gives what Compile gives: the
// same errors, maps and values both ways; and that what is remembered
// stays within maxRemembered.
func TestCompileRemembering(t *testing.T) {
	pairs := []struct{ to, from string }{
		{"10 * log10(x)", "10 ** (x / 10)"},
		{"20 * log10(x / 2)", "2 * 10 ** (x / 20)"},
		{"x * 9 / 5 + 32", "(x - 32) * 5 / 9"}, // exact maps, no programs
		{"ln(x)", "exp(x)"},
		{"y * 2", "x / 2"},                                   // an unknown name
		{"log10(x", "x"},                                     // a syntax error
		{"x * 1.2345678901234567", "x / 1.2345678901234567"}, // too many digits
	}
	x, _, _ := apd.NewFromString("3")
	describe := func(p *Pair, errTo, errFrom error) string {
		out := fmt.Sprintf("to: %v; from: %v", errTo, errFrom)
		if p == nil || errTo != nil || errFrom != nil {
			return out
		}
		if p.ToMap != nil {
			a, b, c, d := p.ToMap.Coefficients()
			return out + fmt.Sprintf("; map %v %v %v %v", a, b, c, d)
		}
		to, _, err := p.RunTo(x, defaultWork, Env{})
		if err != nil {
			return out + "; run: " + err.Error()
		}
		from, _, err := p.RunFrom(x, defaultWork, Env{})
		if err != nil {
			return out + "; run: " + err.Error()
		}
		return out + "; " + exact.FormatDecimal(to) + " " + exact.FormatDecimal(from)
	}
	for _, pair := range pairs {
		want := describe(Compile(context.Background(), pair.to, pair.from))
		for i := range 2 {
			if got := describe(CompileRemembering(context.Background(), pair.to, pair.from)); got != want {
				t.Errorf("%q, %q (time %d): %s, want %s", pair.to, pair.from, i+1, got, want)
			}
		}
	}
	for i := range maxRemembered + 10 {
		if _, errTo, _ := CompileRemembering(context.Background(), fmt.Sprintf("ln(x + %d)", i), "exp(x)"); errTo != nil {
			t.Fatal(errTo)
		}
	}
	remembered.Lock()
	n := len(remembered.m)
	remembered.Unlock()
	if n > maxRemembered {
		t.Errorf("%d formulas remembered, more than %d", n, maxRemembered)
	}
}
