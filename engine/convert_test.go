package engine

import (
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cockroachdb/apd/v3"
	"github.com/expr-lang/expr"
	"github.com/unitd/unitd/engine/formula"
	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/internal/graph"
	piref "github.com/unitd/unitd/engine/internal/pi"
	"github.com/unitd/unitd/engine/internal/plan"
)

func TestConvert(t *testing.T) {
	g := testGraph(t)
	tests := []struct {
		name      string
		value     string
		from, to  string
		precision int
		want      string
		exact     bool
	}{
		{"third of a foot in yards", "1", "ft", "yd", 0, "0.3333333333333333333333333333333333", false},
		{"three feet are one yard", "3", "ft", "yd", 0, "1", true},
		{"tenth of a foot", "0.1", "ft", "in", 0, "1.2", true},
		{"body temperature", "100", "degF", "degC", 0, "37.77777777777777777777777777777778", false},
		{"boiling point", "212", "degF", "degC", 0, "100", true},
		{"minus forty", "-40", "degC", "degF", 0, "-40", true},
		{"absolute zero", "0", "K", "degF", 0, "-459.67", true},
		{"just above absolute zero", "-273.149", "degC", "K", 0, "0.001", true},
		{"fahrenheit near zero", "-459.669", "degF", "K", 0, "0.0005555555555555555555555555555555556", false},
		{"feet to metres", "12.5", "ft", "m", 0, "3.81", true},
		{"rounded half even", "1", "ft", "yd", 3, "0.333", false},
		{"precision 1", "2.5", "m", "m", 1, "2", false},
		{"precision 50", "1", "m", "third", 50, "3", true},
		{"survey foot", "1", "ftUS", "m", 10, "0.3048006096", false},
		{"exact survey feet", "3937", "ftUS", "m", 0, "1200", true},
		{"same unit", "12.50", "m", "m", 0, "12.5", true},
		{"negative zero", "-0", "m", "ft", 0, "0", true},
		{"scientific small", "1", "um", "km", 0, "1e-9", true},
		{"plain large", "1e20", "m", "m", 0, "100000000000000000000", true},
		{"scientific large", "1e21", "m", "m", 0, "1e+21", true},
		{"huge exponent", "1e1000", "km", "m", 0, "1e+1003", true},
		{"formula reciprocal", "5", "L/100km", "km/L", 0, "20", true},
		{"formula inexact", "3", "L/100km", "km/L", 0, "33.33333333333333333333333333333333", false},
		{"formula to linear", "10", "L/100km", "mpg", 10, "23.52145833", false},
		{"linear over a formula", "5", "L/1000km", "km/L", 0, "200", true},
		{"back over a formula", "200", "km/L", "L/1000km", 0, "5", true},
		{"decibels exact", "20", "dBm", "mW", 0, "100", true},
		{"decibels", "30", "dBm", "W", 0, "1", true},
		{"decibels inexact", "1", "dBm", "mW", 10, "1.258925412", false},
		{"watts to decibels", "0.001", "W", "dBm", 0, "0", true},
		{"horsepower", "1", "hp", "W", 0, "745.69987158227022", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := g.Convert(Request{Value: tt.value, From: tt.from, To: tt.to, Precision: tt.precision})
			if err != nil {
				t.Fatal(err)
			}
			if r.Value != tt.want || r.Exact != tt.exact {
				t.Errorf("%s %s → %s = %s (exact %v); want %s (exact %v)", tt.value, tt.from, tt.to, r.Value, r.Exact, tt.want, tt.exact)
			}
			if r.Unit != r.To.Symbol {
				t.Errorf("result unit %q, want the canonical %q", r.Unit, r.To.Symbol)
			}
		})
	}
}

func TestConvertErrors(t *testing.T) {
	g := testGraph(t)
	tests := []struct {
		name            string
		value, from, to string
		precision       int
		code            Code
		message         string
	}{
		{"bad value", "12,5", "m", "ft", 0, CodeInvalidValue, `value "12,5" is not a decimal number (expected digits, optional fraction and exponent, e.g. 12.5 or 1.5e3)`},
		{"unknown from", "1", "mtr", "ft", 0, CodeUnknownUnit, `unknown unit "mtr"; did you mean m?`},
		{"unknown to", "1", "m", "fet", 0, CodeUnknownUnit, `unknown unit "fet"; did you mean ft`},
		{"incompatible", "1", "m", "K", 0, CodeIncompatibleUnits, "cannot convert m (length) to K (temperature): dimension L is not Θ"},
		{"ambiguous", "1", "foots", "m", 0, CodeAmbiguousUnit, `"foots" is ambiguous: it could mean ft (foot), ftUS (US survey foot); name one by its symbol`},
		{"below absolute zero", "-274", "degC", "K", 0, CodeValueOutOfRange, "-274 degC is out of range: below the minimum of Temperature (0 K)"},
		{"below absolute zero F", "-460", "degF", "degC", 0, CodeValueOutOfRange, "-460 degF is out of range: below the minimum of Temperature (0 K)"},
		{"negative kelvin", "-0.5", "K", "K", 0, CodeValueOutOfRange, "-0.5 K is out of range: below the minimum of Temperature (0 K)"},
		{"negative kelvin to celsius", "-1e-3", "K", "degC", 0, CodeValueOutOfRange, "-0.001 K is out of range: below the minimum of Temperature (0 K)"},
		{"reciprocal of zero", "0", "L/100km", "mpg", 0, CodeValueOutOfRange, "0 L/100km is out of range: outside the domain of L/100km, which takes only positive values"},
		{"negative consumption", "-5", "L/100km", "mpg", 0, CodeValueOutOfRange, "-5 L/100km is out of range: outside the domain of L/100km, which takes only positive values"},
		{"negative economy to consumption", "-5", "km/L", "L/100km", 0, CodeValueOutOfRange, "-5 km/L is out of range: outside the domain of L/100km, which takes only positive values"},
		{"log of zero", "0", "W", "dBm", 0, CodeValueOutOfRange, "0 W is out of range: outside the domain of the conversion"},
		{"log of negative", "-1", "mW", "dBm", 0, CodeValueOutOfRange, "-1 mW is out of range: outside the domain of the conversion"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := g.Convert(Request{Value: tt.value, From: tt.from, To: tt.to, Precision: tt.precision})
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v, want *Error", err)
			}
			// Suggestions may continue after the first, closest one.
			if e.Code != tt.code || !strings.HasPrefix(e.Message, tt.message) || tt.code != CodeUnknownUnit && e.Message != tt.message {
				t.Errorf("got %s %q\nwant %s %q", e.Code, e.Message, tt.code, tt.message)
			}
		})
	}
	for _, p := range []int{-1, 51} {
		if _, err := g.Convert(Request{Value: "1", From: "m", To: "m", Precision: p}); !errors.Is(err, ErrPrecision) {
			t.Errorf("precision %d: err = %v, want ErrPrecision", p, err)
		}
	}
}

// TestExactFlagProperty converts random values between random affine
// units and checks the result against exact rational arithmetic: the
// digits are the correctly rounded value, and Exact is true exactly when
// they equal it.
func TestExactFlagProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	factors := []string{"1", "0.3048", "1/3", "5/9", "1200/3937", "2.54", "1e-7", "4.4482216152605", "7/8", "1000", "0.45359237*9.80665"}
	piFactors := []string{"pi/180", "2*pi", "648000/pi", "(pi/180)^2"}
	offsets := []string{"273.15", "-459.67*5/9", "1/7", "32"}
	// Offsets and π never share a category (Build refuses it): units
	// with offsets are in x, units with π in y.
	units := map[string][]UnitSpec{
		"x": {{Symbol: "b", Name: "base", Plural: "bases", System: "t", Source: "t", Exact: true}},
		"y": {{Symbol: "c", Name: "base c", Plural: "bases c", System: "t", Source: "t", Exact: true}},
	}
	catOf := map[int]string{}
	for i := range 40 {
		cat := []string{"x", "y"}[i%2]
		base := map[string]string{"x": "b", "y": "c"}[cat]
		def := DefinitionSpec{Unit: base, Factor: factors[rng.IntN(len(factors))]}
		sym := fmt.Sprintf("u%d", i)
		switch {
		case cat == "x" && i%4 == 0: // affine, onto the base: never with pi
			def.Offset = offsets[rng.IntN(len(offsets))]
		case cat == "y" && i%4 == 1: // a factor with pi, perhaps through an earlier one
			def.Factor = piFactors[rng.IntN(len(piFactors))]
			if j := rng.IntN(i + 1); j < i && catOf[j] == "y" {
				def.Unit = fmt.Sprintf("u%d", j)
			}
		case i > 5: // linear, chained through an earlier linear unit
			if j := rng.IntN(i); catOf[j] == cat && j%4 > 1 {
				def.Unit = fmt.Sprintf("u%d", j)
			}
		}
		catOf[i] = cat
		units[cat] = append(units[cat], UnitSpec{Symbol: sym, Name: fmt.Sprintf("unit %d", i), Plural: fmt.Sprintf("units %d", i), System: "t", Source: "t", Exact: true, Definition: def})
	}
	g, errs := Build(Spec{Categories: []CategorySpec{
		{ID: "x", Name: "X", Base: "b", Units: units["x"]},
		{ID: "y", Name: "Y", Base: "c", Units: units["y"]},
	}})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	values := []string{"0", "1", "-2.5", "3", "0.1", "12345.678", "1e-30", "7e25", "0.333", "-0.0001",
		"0.000000123", "123456789012345678", "9999999999999999999", "18446744073709551615", "98765432109876543210.5", "5e-1000"}
	cats := g.Categories()
	for range 10000 {
		all := cats[rng.IntN(len(cats))].Units
		from, to := all[rng.IntN(len(all))], all[rng.IntN(len(all))]
		v := values[rng.IntN(len(values))]
		p := 1 + rng.IntN(MaxPrecision)
		r, err := g.Convert(Request{Value: v, From: from.Symbol, To: to.Symbol, Precision: p})
		if err != nil {
			t.Fatal(err)
		}
		want, k := exactRational(t, from, to, v)
		got, ok := new(big.Rat).SetString(r.Value)
		if !ok {
			t.Fatalf("unparsable result %q", r.Value)
		}
		if k != 0 {
			// Irrational unless zero: compare with π to 400 digits.
			if r.Exact != (want.Sign() == 0) {
				t.Fatalf("%s %s → %s (p=%d) = %s exact=%v through π^%d", v, from.Symbol, to.Symbol, p, r.Value, r.Exact, k)
			}
			want = new(big.Rat).Mul(want, testPiPow(k))
		} else if r.Exact != (got.Cmp(want) == 0) {
			t.Fatalf("%s %s → %s (p=%d) = %s exact=%v, but exact value is %s", v, from.Symbol, to.Symbol, p, r.Value, r.Exact, want.FloatString(60))
		}
		if rounded := roundRat(want, p); rounded != r.Value {
			t.Fatalf("%s %s → %s (p=%d) = %s, correctly rounded is %s", v, from.Symbol, to.Symbol, p, r.Value, rounded)
		}
	}
}

// testPiPow is π^k with π to 400 decimal places (package pi checks its
// digits against published ones).
func testPiPow(k int) *big.Rat {
	if r, ok := testPiPows[k]; ok {
		return r
	}
	scale := new(big.Int).Exp(big.NewInt(10), big.NewInt(400), nil)
	pi := new(big.Rat).SetFrac(piref.Scaled(400), scale)
	out := big.NewRat(1, 1)
	for range abs(k) {
		out.Mul(out, pi)
	}
	if k < 0 {
		out.Inv(out)
	}
	testPiPows[k] = out
	return out
}

var testPiPows = map[int]*big.Rat{}

// exactRational computes the conversion with big.Rat from the build-time
// maps: the result is the returned rational times π^k.
func exactRational(t *testing.T, from, to *Unit, v string) (*big.Rat, int) {
	x, ok := new(big.Rat).SetString(v)
	if !ok {
		t.Fatalf("bad value %q", v)
	}
	fa, oa, _ := graph.MapFactor(&from.Conv)
	fb, ob, _ := graph.MapFactor(&to.Conv)
	base := new(big.Rat).Mul(x, fa.R)
	base.Add(base, oa)
	y := base.Sub(base, ob)
	return y.Quo(y, fb.R), fa.K - fb.K
}

// roundRat rounds r half-even to p significant digits, formatted like
// FormatDecimal, using only big.Int arithmetic.
func roundRat(r *big.Rat, p int) string {
	if r.Sign() == 0 {
		return "0"
	}
	neg := r.Sign() < 0
	a := new(big.Rat).Abs(r)
	// Find e with 10^e <= a < 10^(e+1): the digit counts of numerator
	// and denominator put it within one of their difference, and integer
	// comparisons settle it (multiplying big.Rats by ten, each a GCD,
	// took minutes for values such as 5e-1000 under the race detector).
	num, den := a.Num(), a.Denom()
	atLeast := func(e int) bool { // a >= 10^e
		p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(e))), nil)
		if e >= 0 {
			return num.Cmp(p.Mul(p, den)) >= 0
		}
		return p.Mul(p, num).Cmp(den) >= 0
	}
	e := len(num.String()) - len(den.String())
	for !atLeast(e) {
		e--
	}
	for atLeast(e + 1) {
		e++
	}
	// scaled = a * 10^(p-1-e), rounded half-even to an integer.
	shift := p - 1 - e
	scale := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(shift))), nil))
	s := new(big.Rat).Set(a)
	if shift >= 0 {
		s.Mul(s, scale)
	} else {
		s.Quo(s, scale)
	}
	q, m := new(big.Int).QuoRem(s.Num(), s.Denom(), new(big.Int))
	twice := new(big.Int).Mul(m, big.NewInt(2))
	if c := twice.Cmp(s.Denom()); c > 0 || c == 0 && q.Bit(0) == 1 {
		q.Add(q, big.NewInt(1))
	}
	d := apd.NewWithBigInt(new(apd.BigInt).SetMathBigInt(q), int32(-shift))
	d.Negative = neg
	return FormatDecimal(d)
}

// TestRunInternalError checks that a fault of the engine's own (here a
// formula that yields text, not a number) is not reported as the value's
// fault: it comes back as a plain error, which callers report as an
// internal error, while a value outside a formula's domain stays
// VALUE_OUT_OF_RANGE.
func TestRunInternalError(t *testing.T) {
	prog, err := expr.Compile(`"not a number"`)
	if err != nil {
		t.Fatal(err)
	}
	g := testGraph(t)
	ft, _ := g.t.BySymbol.Get("ft")
	bad := graph.Conversion{Pre: exact.Identity(), Post: ft.Conv.Map, FormulaUnit: true,
		Formula: formula.Programs(prog, prog, "text", "text")}
	pl := plan.Plan{From: &bad, To: &ft.Conv, FromName: "bad", Unit: "ft", Compiled: plan.Compile(&bad, &ft.Conv)}
	var out exact.Decimal
	_, err = pl.Run(&out, apd.New(1, 0), 10, nil, accelerated())
	var e *Error
	if err == nil || errors.As(err, &e) {
		t.Fatalf("run with a formula yielding text: error %v; want a plain (internal) error", err)
	}
	if !strings.Contains(err.Error(), "formula returned string") {
		t.Errorf("error %q does not say what went wrong", err)
	}

	_, err = g.Convert(Request{Value: "-1", From: "W", To: "dBm"})
	if !errors.As(err, &e) || e.Code != CodeValueOutOfRange {
		t.Errorf("-1 W → dBm: error %v; want %s", err, CodeValueOutOfRange)
	}
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
