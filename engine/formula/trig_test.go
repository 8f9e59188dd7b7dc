package formula

import (
	"math/rand/v2"
	"testing"

	"github.com/cockroachdb/apd/v3"
)

// trigReference evaluates f with 80 more digits than asked and rounds
// once: the correctly rounded result unless the true value lies within
// 10^-80 relative of a rounding boundary.
func trigReference(t *testing.T, f func(*apd.Decimal, *apd.Decimal, uint32) error, x *apd.Decimal, p uint32) *apd.Decimal {
	t.Helper()
	var v, r apd.Decimal
	if err := f(&v, x, p+80); err != nil {
		t.Fatal(err)
	}
	c := apd.BaseContext.WithPrecision(p)
	c.Rounding = apd.RoundHalfEven
	c.Round(&r, &v)
	return &r
}

// TestTrigCorrectlyRounded checks tan and atan against evaluations 80
// digits wider, at random arguments and precisions.
func TestTrigCorrectlyRounded(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 120; i++ {
		var x apd.Decimal
		x.SetFinite(int64(r.IntN(2000000)-1000000), -int32(r.IntN(7)))
		if x.IsZero() {
			continue
		}
		p := uint32(1 + r.IntN(50))
		c := exactCtx.WithPrecision(p)
		for _, fn := range []struct {
			name string
			cr   runUnary
			at   func(*apd.Decimal, *apd.Decimal, uint32) error
		}{{"tan", tanCR, tanAt}, {"atan", atanCR, atanAt}} {
			var got apd.Decimal
			cond, err := fn.cr(c, &got, &x, Env{})
			if err != nil {
				t.Fatalf("%s(%s) at %d digits: %v", fn.name, &x, p, err)
			}
			if !cond.Inexact() {
				t.Errorf("%s(%s) says exact", fn.name, &x)
			}
			if want := trigReference(t, fn.at, &x, p); got.Cmp(want) != 0 {
				t.Errorf("%s(%s) at %d digits = %s, want %s", fn.name, &x, p, &got, want)
			}
		}
	}
}

// TestTrigKnownValues checks atan against π computed on its own
// (package pi's digits, by Machin's formula) and tan against atan.
func TestTrigKnownValues(t *testing.T) {
	c := exactCtx.WithPrecision(50)
	var got, four apd.Decimal
	if _, err := atanCR(c, &got, apd.New(1, 0), Env{}); err != nil {
		t.Fatal(err)
	}
	four.SetInt64(4)
	c.Mul(&got, &got, &four)
	var want apd.Decimal
	c.Round(&want, piDecimal(70))
	if got.Cmp(&want) != 0 {
		t.Errorf("4·atan(1) = %s, π = %s", &got, &want)
	}
	// tan(atan(x)) = x to within the rounding of both.
	for _, s := range []string{"0.01", "1", "100", "-3.5", "1e-9"} {
		x, _, _ := apd.NewFromString(s)
		var a, back, diff apd.Decimal
		wide := exactCtx.WithPrecision(60)
		atanCR(wide, &a, x, Env{})
		tanCR(c, &back, &a, Env{})
		c.Sub(&diff, &back, x)
		diff.Abs(&diff)
		bound := apd.New(1, -45)
		bound.Exponent += int32(x.NumDigits()) + x.Exponent
		if diff.Cmp(bound) > 0 {
			t.Errorf("tan(atan(%s)) = %s", s, &back)
		}
	}
	var z apd.Decimal
	if cond, err := tanCR(c, &got, &z, Env{}); err != nil || cond.Inexact() || !got.IsZero() {
		t.Errorf("tan(0) = %s, %v, %v; want an exact 0", &got, cond, err)
	}
}
