package lnexp

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/internal/race"
)

// reference evaluates fn far beyond the target precision with apd's own
// functions (not this package's) and rounds once: the correctly rounded
// result unless the true value lies within 10^-60 relative of a rounding
// boundary.
func reference(t *testing.T, fn Func, x *apd.Decimal, q uint32) *apd.Decimal {
	t.Helper()
	wide := apd.BaseContext.WithPrecision(q + 60)
	var v apd.Decimal
	var err error
	switch fn {
	case Ln:
		_, err = wide.Ln(&v, x)
	case Log10:
		_, err = wide.Log10(&v, x)
	case Exp:
		_, err = wide.Exp(&v, x)
	default:
		_, err = wide.Pow(&v, apd.New(10, 0), x)
	}
	if err != nil {
		t.Fatalf("reference %v(%s): %v", fn, x, err)
	}
	target := apd.BaseContext.WithPrecision(q)
	target.Rounding = apd.RoundHalfEven
	var r apd.Decimal
	if _, err := target.Round(&r, &v); err != nil {
		t.Fatal(err)
	}
	return &r
}

func randomDecimal(r *rand.Rand, fn Func) *apd.Decimal {
	digits := 1 + r.IntN(30)
	coeff := ""
	for i := 0; i < digits; i++ {
		coeff += string(rune('0' + r.IntN(10)))
	}
	var exp int
	switch fn {
	case Ln, Log10:
		exp = r.IntN(80) - 40 - digits
	default:
		exp = -digits + r.IntN(4) - r.IntN(8) // |x| below about 10^3
	}
	d, _, err := apd.NewFromString(fmt.Sprintf("%s%se%d", []string{"", "-"}[r.IntN(2)], coeff, exp))
	if err != nil {
		panic(err)
	}
	if fn == Ln || fn == Log10 {
		d.Negative = false
		if d.IsZero() {
			d.SetInt64(7)
		}
	}
	return d
}

// TestCorrectlyRoundedProperty compares ln, log10, exp and 10^x, on random
// inputs and precisions 1–66, with apd evaluated 60 digits wider: both
// the accelerator and the plain path must give the correctly rounded
// digits, and every result is flagged inexact. It checks 600 inputs of
// each function each way; 100 under the race detector (and -short), and
// make test runs it in full without it.
func TestCorrectlyRoundedProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 600
	if testing.Short() || race.Enabled {
		n = 100
	}
	for _, fast := range []bool{true, false} {
		testCorrectlyRounded(t, r, n, fast)
	}
}

func testCorrectlyRounded(t *testing.T, r *rand.Rand, n int, fast bool) {
	decided, total := 0, 0
	for _, fn := range []Func{Ln, Log10, Exp, Exp10} {
		for i := 0; i < n; i++ {
			x := randomDecimal(r, fn)
			q := uint32(1 + r.IntN(maxFastDigits))
			c := apd.BaseContext.WithPrecision(q)
			c.Rounding = apd.RoundHalfEven
			want := reference(t, fn, x, q)
			var got apd.Decimal
			cond, err := Eval(c, &got, x, fn, nil, fast)
			if err != nil {
				t.Fatalf("%v(%s) at %d: %v", fn, x, q, err)
			}
			if got.Cmp(want) != 0 {
				t.Errorf("%v(%s) at %d digits (fast %v) = %s, want %s", fn, x, q, fast, &got, want)
			}
			var red apd.Decimal
			red.Reduce(x)
			trivial := red.IsZero() || fn == Exp10 && red.Exponent >= 0 ||
				(fn == Log10 || fn == Ln) && red.Coeff.Cmp(apd.NewBigInt(1)) == 0 && (fn == Log10 || red.Exponent == 0)
			if !trivial && !cond.Inexact() {
				t.Errorf("%v(%s) flagged exact", fn, x)
			}
			var probe apd.Decimal
			if fast && fastFunction(&probe, x, fn, int(q), c) {
				decided++
			}
			total++
		}
	}
	if fast && decided < total*9/10 {
		t.Errorf("the accelerator decided only %d of %d cases", decided, total)
	}
}

// TestCorrectlyRoundedExactPoints checks the points where the functions are
// exact: ln 1, log10 of powers of ten, e^0 and whole powers of ten.
func TestCorrectlyRoundedExactPoints(t *testing.T) {
	for _, fast := range []bool{true, false} {
		testExactPoints(t, fast)
	}
}

func testExactPoints(t *testing.T, fast bool) {
	c := apd.BaseContext.WithPrecision(42)
	c.Rounding = apd.RoundHalfEven
	for _, tt := range []struct {
		fn   Func
		x    string
		want string
	}{
		{Ln, "1", "0"},
		{Ln, "1.000", "0"},
		{Log10, "1000", "3"},
		{Log10, "0.001", "-3"},
		{Log10, "100.00", "2"},
		{Exp, "0", "1"},
		{Exp10, "3", "1000"},
		{Exp10, "-2", "0.01"},
		{Exp10, "2.000", "100"},
	} {
		x, _, _ := apd.NewFromString(tt.x)
		var got apd.Decimal
		cond, err := Eval(c, &got, x, tt.fn, nil, fast)
		want, _, _ := apd.NewFromString(tt.want)
		if err != nil || got.Cmp(want) != 0 || cond.Inexact() {
			t.Errorf("%v(%s) = %s (inexact %v, err %v), want exactly %s", tt.fn, tt.x, &got, cond.Inexact(), err, tt.want)
		}
	}
	// An exact whole result is still rounded to the precision.
	c1 := apd.BaseContext.WithPrecision(1)
	c1.Rounding = apd.RoundHalfEven
	x, _, _ := apd.NewFromString("1e-22")
	var got apd.Decimal
	cond, err := Eval(c1, &got, x, Log10, nil, fast)
	if err != nil || got.String() != "-2E+1" || !cond.Inexact() {
		t.Errorf("log10(1e-22) at 1 digit = %s (inexact %v, err %v), want -2E+1, inexact", &got, cond.Inexact(), err)
	}
}

// TestCorrectlyRoundedHard runs inputs whose results lie close to a
// rounding boundary at some precision, where the accelerator must decline
// and the plain path decide.
func TestCorrectlyRoundedHard(t *testing.T) {
	for _, fast := range []bool{true, false} {
		testHard(t, fast)
	}
}

func testHard(t *testing.T, fast bool) {
	// ln(1 + 10^-90): the value is about 10^-90, far below the
	// accelerator's absolute error, so only the plain path can answer.
	x, _, _ := apd.NewFromString("1." + fmt.Sprintf("%089d", 0) + "1")
	for _, q := range []uint32{5, 34, 50} {
		c := apd.BaseContext.WithPrecision(q)
		c.Rounding = apd.RoundHalfEven
		var got apd.Decimal
		if _, err := Eval(c, &got, x, Ln, nil, fast); err != nil {
			t.Fatal(err)
		}
		if want := reference(t, Ln, x, q); got.Cmp(want) != 0 {
			t.Errorf("ln(%s) at %d = %s, want %s", x, q, &got, want)
		}
		var probe apd.Decimal
		if fastFunction(&probe, x, Ln, int(q), c) {
			t.Errorf("the accelerator decided ln(1+1e-90), below its error bound")
		}
	}
}

// BenchmarkCorrectlyRounded times the functions alone at the default
// working precision (42 digits), with the accelerator.
func BenchmarkCorrectlyRounded(b *testing.B) {
	c := apd.BaseContext.WithPrecision(42)
	c.Rounding = apd.RoundHalfEven
	for _, bc := range []struct {
		name string
		fn   Func
		x    string
	}{
		{"ln", Ln, "250"},
		{"log10", Log10, "250"},
		{"exp", Exp, "-3.15"},
		{"exp10", Exp10, "-1.37"},
	} {
		x, _, _ := apd.NewFromString(bc.x)
		b.Run(bc.name, func(b *testing.B) {
			var d apd.Decimal
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Eval(c, &d, x, bc.fn, nil, true); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
