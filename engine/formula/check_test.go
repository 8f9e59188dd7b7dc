package formula

import (
	"context"
	"strings"
	"testing"
)

// TestCheckInverse: a pair of formulas that inverts itself passes, at
// sample points or exactly for Möbius maps; one that does not says where,
// and one whose domain holds no sample point says so.
func TestCheckInverse(t *testing.T) {
	for _, c := range []struct {
		to, from string
		want     string // a part of the error, "" for none
	}{
		{"10 * log10(x)", "10 ^ (x / 10)", ""},
		{"100 / x", "100 / x", ""},
		{"(x - 32) * 5 / 9", "x * 9 / 5 + 32", ""},
		{"10 * log10(x)", "10 ^ (x / 20)", "formulas do not invert each other: to(0.5) = "},
		{"100 / x", "10 / x", "formulas do not invert each other: to(0.5) = 200"},
		{"log10(x - 1000)", "10 ^ x + 1000", "no sample point (0.5, 2, 10, 100) is in their domain"},
	} {
		for _, fast := range []bool{false, true} {
			p, errTo, errFrom := Compile(context.Background(), c.to, c.from)
			if errTo != nil || errFrom != nil {
				t.Fatal(c.to, errTo, errFrom)
			}
			err := p.CheckInverse(fast)
			if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
				t.Errorf("%s and %s (fast %v): %v, want %q", c.to, c.from, fast, err, c.want)
			}
		}
	}
}
