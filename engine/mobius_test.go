package engine

import (
	"errors"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/cockroachdb/apd/v3"
)

// TestMobiusMatchesProgram checks that each formula of an accepted shape
// gives, through its Möbius map, exactly what its program gives on exact
// fractions, and fails where the program fails: at the zero of a divisor.
func TestMobiusMatchesProgram(t *testing.T) {
	formulas := []string{
		"100 / x", "x", "-x", "+x", "100 - x * 2 / 3", "(100 - x) * 3 / 2",
		"235.214583 / x", "1 / (x + 2) * 3 - 4", "-(7 / (0.5 - x / 4))",
		"x * 1.8 + 32", "(x - 32) / 1.8", "3 - 5 / (2 * x - 1)", "0 / (x - 1)",
		"(100 / x) * 0", "2 * x + x / 3 - 1", "1 / (x - 0.001) + 0.5",
	}
	r := rand.New(rand.NewPCG(5, 8))
	for _, src := range formulas {
		m, ok := mobiusOf(src)
		if !ok {
			t.Errorf("mobiusOf(%q) refused an accepted shape", src)
			continue
		}
		prog, err := compileFormula(src, rationalMode)
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		// Random values, and the points where these formulas divide by
		// zero.
		inputs := []string{"0", "1", "-2", "0.5", "2", "0.001", "1e-30", "-1e25"}
		for range 200 {
			inputs = append(inputs, strconv.Itoa(r.IntN(2000000)-1000000)+"e"+strconv.Itoa(r.IntN(40)-20))
		}
		for _, in := range inputs {
			x, _, _ := apd.NewFromString(in)
			u := frac{n: *x, d: fracOne}
			want, wantErr := runRational(prog, u)
			got, gotErr := m.apply(u)
			if (wantErr != nil) != (gotErr != nil) {
				t.Fatalf("%q at %s: program error %v, Möbius error %v", src, in, wantErr, gotErr)
			}
			if wantErr != nil {
				if !errors.Is(gotErr, errDomain) || !errors.Is(wantErr, errDomain) {
					t.Fatalf("%q at %s: errors %v and %v, want both a domain error", src, in, wantErr, gotErr)
				}
				continue
			}
			if c := fracCmp(want, got); c != 0 {
				t.Fatalf("%q at %s: program %s/%s, Möbius %s/%s", src, in, &want.n, &want.d, &got.n, &got.d)
			}
		}
	}
}

// fracCmp compares a and b as rationals (both denominators non-zero).
func fracCmp(a, b frac) int {
	var l, r apd.Decimal
	mulExact(&l, &a.n, &b.d)
	mulExact(&r, &b.n, &a.d)
	if (a.d.Negative) != (b.d.Negative) {
		r.Negative = !r.Negative && !r.IsZero()
	}
	return l.Cmp(&r)
}

// TestMobiusRefuses checks that formulas whose programs could divide by
// zero somewhere other than at the final denominator's zero, or that are
// not Möbius maps at all, are left to their programs.
func TestMobiusRefuses(t *testing.T) {
	for _, src := range []string{
		"x * x", "x / x", "1 / (1 / x)", "1 / (x * x)", "(1 / x) + (1 / x)",
		"x / (x + 1)", "1 / (1 / x + 1)", "x / 0", "y", "let a = x; a", "x ** 2", "abs(x)",
		"(1 / x) * x", "1 / (2 - 2)",
	} {
		if _, ok := mobiusOf(src); ok {
			t.Errorf("mobiusOf(%q) accepted it; want it left to the program", src)
		}
	}
}

// TestAddExact checks addExact against apd's exact addition, with
// aliasing, signs, zeros and exponents far apart.
func TestAddExact(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 4))
	vals := []string{"0", "-0", "1", "-1", "1e200", "-3e-150", "12345678901234567890123", "-0.5"}
	for range 300 {
		vals = append(vals, strconv.Itoa(r.IntN(2000000)-1000000)+"e"+strconv.Itoa(r.IntN(80)-40))
	}
	for i, xs := range vals {
		for _, ys := range vals[max(0, i-20) : i+1] {
			x, _, _ := apd.NewFromString(xs)
			y, _, _ := apd.NewFromString(ys)
			var want apd.Decimal
			if _, err := exact.Add(&want, x, y); err != nil {
				t.Fatal(err)
			}
			var got apd.Decimal
			addExact(&got, x, y)
			alias := *x
			addExact(&alias, &alias, y)
			if got.Cmp(&want) != 0 || alias.Cmp(&want) != 0 || got.Negative != want.Negative {
				t.Fatalf("%s + %s: addExact %s (aliased %s), want %s", xs, ys, &got, &alias, &want)
			}
		}
	}
}
