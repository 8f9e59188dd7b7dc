package exact

import (
	"math/big"
	"testing"

	"github.com/cockroachdb/apd/v3"
)

// TestEvalAt: a map's value for a formula is exact when it is a
// decimal, else rounded at the working precision (or the input's length
// and two) and said to be; the word-sized paths give the same value.
func TestEvalAt(t *testing.T) {
	third, _ := Linear(big.NewRat(1, 3), 0)
	fahrenheit, _ := Affine(big.NewRat(5, 9), big.NewRat(-160, 9), 0)
	for _, c := range []struct {
		name    string
		m       *Map
		x       string
		work    int
		want    string
		inexact bool
	}{
		{"x", Identity(), "12.5", 10, "12.5", false},
		{"x/3", third, "3", 10, "1", false},
		{"x/3", third, "1", 10, "0.3333333333", true},
		{"x/3", third, "1", 4, "0.3333", true},
		// The input's length and two win over a smaller working precision.
		{"x/3", third, "1.000000001", 4, "0.333333333667", true},
		{"(x-32)·5/9", fahrenheit, "212", 10, "100", false},
		{"(x-32)·5/9", fahrenheit, "0", 6, "-17.7778", true},
	} {
		x, _, err := apd.NewFromString(c.x)
		want, _, err2 := apd.NewFromString(c.want)
		if err != nil || err2 != nil {
			t.Fatal(err, err2)
		}
		for _, words := range []bool{false, true} {
			y, inexact, err := c.m.EvalAt(x, c.work, words)
			if err != nil || y.Cmp(want) != 0 || inexact != c.inexact {
				t.Errorf("%s at %s (work %d, words %v) = %s, %v, %v; want %s, %v", c.name, c.x, c.work, words, y.String(), inexact, err, c.want, c.inexact)
			}
		}
	}
}
