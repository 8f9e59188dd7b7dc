package engine

import (
	"errors"
	"testing"

	"github.com/cockroachdb/apd/v3"
)

// FuzzParseValue checks that parsing never panics, that everything
// rejected is INVALID_VALUE, and that a parsed value survives a round trip
// through FormatDecimal.
func FuzzParseValue(f *testing.F) {
	for _, s := range []string{"12.5", "-0", "1e1000", "1e-1000", ".5", "5.", "NaN", "1,5", "0x1p3", "+1E+3", "١"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseValue(s)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Code != CodeInvalidValue {
				t.Fatalf("ParseValue(%q) error %v is not INVALID_VALUE", s, err)
			}
			return
		}
		// The parser must agree with apd's own.
		if ref, _, err := apd.NewFromString(s); err != nil || ref.Cmp(&d) != 0 {
			t.Fatalf("ParseValue(%q) = %s, apd reads %s (%v)", s, d.String(), ref, err)
		}
		text := FormatDecimal(&d)
		// The exponent limit applies to what callers write, so read the
		// output back with apd itself ("10e1000" prints as "1e+1001").
		again, _, err := apd.NewFromString(text)
		if err != nil {
			t.Fatalf("FormatDecimal output %q (from %q) does not parse: %v", text, s, err)
		}
		if again.Cmp(&d) != 0 {
			t.Fatalf("round trip of %q: %s != %s", s, text, FormatDecimal(again))
		}
	})
}

// FuzzLookup checks that any name either resolves or fails with
// UNKNOWN_UNIT or AMBIGUOUS_UNIT, never panicking.
func FuzzLookup(f *testing.F) {
	g := testGraph(f)
	for _, s := range []string{"m", "METERS", "µm", "foots", "", "km/h", "degree   celsius", "\xff", "°C"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		u, err := g.Lookup(name)
		if err == nil {
			if u == nil {
				t.Fatal("nil unit without error")
			}
			return
		}
		var e *Error
		if !errors.As(err, &e) || (e.Code != CodeUnknownUnit && e.Code != CodeAmbiguousUnit) || len(e.Suggestions) > 5 {
			t.Fatalf("Lookup(%q) = %v", name, err)
		}
	})
}

// FuzzConvertRoundTrip converts a value from one unit to another and back
// at full precision and checks it returns within the reported rounding.
func FuzzConvertRoundTrip(f *testing.F) {
	g := testGraph(f)
	units := g.Units()
	f.Add("12.5", uint8(0), uint8(3))
	f.Add("-40", uint8(7), uint8(8))
	f.Add("1e-30", uint8(1), uint8(5))
	f.Fuzz(func(t *testing.T, v string, i, j uint8) {
		from, to := units[int(i)%len(units)], units[int(j)%len(units)]
		if from.Category != to.Category {
			return
		}
		there, err := g.Convert(Request{Value: v, From: from.Symbol, To: to.Symbol, Precision: MaxPrecision})
		if err != nil {
			return // invalid values and out-of-range inputs are fine
		}
		if _, err := ParseValue(there.Value); err != nil {
			return // a formula can leave the input range (1e6 dBm is 1e+99997 mW)
		}
		back, err := g.Convert(Request{Value: there.Value, From: to.Symbol, To: from.Symbol, Precision: 30})
		if err != nil {
			t.Fatalf("%s %s → %s = %s, but converting back fails: %v", v, from.Symbol, to.Symbol, there.Value, err)
		}
		want, _ := g.Convert(Request{Value: v, From: from.Symbol, To: from.Symbol, Precision: 30})
		if back.Value != want.Value && !closeEnough(back.Value, want.Value) {
			t.Fatalf("%s %s → %s → %s: %s, want %s", v, from.Symbol, to.Symbol, from.Symbol, back.Value, want.Value)
		}
		if there.Exact && back.Value != want.Value {
			t.Fatalf("exact conversion %s %s → %s = %s did not round-trip: %s", v, from.Symbol, to.Symbol, there.Value, back.Value)
		}
	})
}

// closeEnough allows the last of 30 digits to differ after two roundings,
// plus a tiny absolute slack for affine maps, where rounding the
// intermediate (an offset of hundreds) shows up near zero.
func closeEnough(a, b string) bool {
	x, err1 := ParseValue(a)
	y, err2 := ParseValue(b)
	if err1 != nil || err2 != nil {
		return false
	}
	var diff, bound = x, y
	exactCtx.Sub(&diff, &x, &y)
	diff.Abs(&diff)
	bound.Abs(&y)
	exactCtx.Mul(&bound, &bound, mustDecimal("1e-28"))
	exactCtx.Add(&bound, &bound, mustDecimal("1e-40"))
	return diff.Cmp(&bound) <= 0
}

func mustDecimal(s string) *apd.Decimal {
	d, _, err := apd.NewFromString(s)
	if err != nil {
		panic(err)
	}
	return d
}
