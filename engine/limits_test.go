package engine

import (
	"errors"
	"testing"
)

// TestExactNumbersAreBounded: factor expressions whose exact value would
// have millions of digits are refused at once instead of being computed.
func TestExactNumbersAreBounded(t *testing.T) {
	for _, tt := range []struct {
		src string
		ok  bool
	}{
		{"0.3048", true},
		{"0.0254^3", true},
		{"2^99", true},
		{"(((9^99)^99)^99)^99", false},
		{"(9^99)^99", false},
		{"(2^99*3^99)^9", true}, // about 700 digits
		{"(2^99*3^99)^15", false},
		{"10^99/3^99*7^99*(11^99)", true}, // about 400 digits: within the bound
		{"(10^99/3^99*7^99*(11^99))^4", false},
	} {
		_, err := parseExact(tt.src)
		if tt.ok && err != nil {
			t.Errorf("parseExact(%q): %v", tt.src, err)
		}
		if !tt.ok && !errors.Is(err, errExactTooLarge) {
			t.Errorf("parseExact(%q) = %v, want errExactTooLarge", tt.src, err)
		}
	}
}
