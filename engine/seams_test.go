package engine

import (
	"math/big"
	"testing"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine/internal/plan"
)

// TestSeams exercises what substance factors, mixed-unit output and
// thresholds build on: a factor between the two sides of a pair, the exact
// value of a pair's map, and the one rounding.
func TestSeams(t *testing.T) {
	g := testGraph(t)
	planOf := func(from, to string) *plan.Plan {
		t.Helper()
		f, err := g.resolve(from)
		if err != nil {
			t.Fatal(err)
		}
		tt, err := g.resolve(to)
		if err != nil {
			t.Fatal(err)
		}
		pl, err := g.planner().Plan(f, tt, accelerated())
		if err != nil {
			t.Fatal(err)
		}
		return &pl
	}
	x := apd.New(125, -1)
	// 12.5 ft with a factor 2 is 7.62 m, not exact: a factor is a
	// measured value.
	pl, err := planOf("ft", "m").WithFactor(big.NewRat(2, 1), 0)
	if err != nil {
		t.Fatal(err)
	}
	r, inexact, err := pl.M.Round(x, 34, false)
	if err != nil || r.String() != "7.62" || inexact || pl.Exact {
		t.Errorf("12.5 ft with a factor 2 = %s (inexact %v, plan exact %v) %v, want 7.62 from a plan not exact", r.String(), inexact, pl.Exact, err)
	}
	// A factor 180/π between deg and rad cancels π: 12.5 exactly.
	pl, err = planOf("deg", "rad").WithFactor(big.NewRat(180, 1), -1)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := pl.ValueAt(x); err != nil || v.K != 0 || v.Rat().RatString() != "25/2" {
		t.Errorf("12.5 deg·180/π in rad = %v·π^%d %v, want 25/2", v.Rat(), v.K, err)
	}
	// 12.5 ft in yd is exactly 25/6; rounded to 5 digits 4.1667, both ways.
	v, err := planOf("ft", "yd").ValueAt(x)
	if err != nil || v.K != 0 || v.Rat().RatString() != "25/6" {
		t.Fatalf("12.5 ft in yd = %v %v, want 25/6", v.Rat(), err)
	}
	d, inexact := roundValue(&v, 5)
	if d.String() != "4.1667" || !inexact {
		t.Errorf("roundValue(25/6, 5) = %s (inexact %v), want 4.1667, inexact", d.String(), inexact)
	}
	// Through π the value keeps its power: 12.5 deg in rad is 5/72·π.
	v, err = planOf("deg", "rad").ValueAt(x)
	if err != nil || v.K != 1 || v.Rat().RatString() != "5/72" {
		t.Errorf("12.5 deg in rad = %v·π^%d %v, want 5/72·π", v.Rat(), v.K, err)
	}
	if d, inexact := roundValue(&v, 10); d.String() != "0.2181661565" || !inexact {
		t.Errorf("roundValue(5/72·π, 10) = %s (inexact %v)", d.String(), inexact)
	}
	// The domain is checked as a conversion checks it.
	if _, err := planOf("L/100km", "mpg").ValueAt(apd.New(-5, 0)); err == nil {
		t.Error("valueAt(-5 L/100km) did not refuse a negative consumption")
	}
	if _, err := planOf("W", "dBm").ValueAt(x); err != plan.ErrNotExactMap {
		t.Errorf("valueAt through a logarithm: %v, want plan.ErrNotExactMap", err)
	}
}
