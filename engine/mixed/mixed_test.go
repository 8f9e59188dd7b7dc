package mixed

import (
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/internal/exact"
)

// factors are exact factors onto the metre, second or kilogram.
var factors = map[string]string{
	"mi": "1609.344", "yd": "0.9144", "ft": "0.3048", "in": "0.0254", "m": "1", "cm": "0.01",
	"h": "3600", "min": "60", "s": "1", "st": "6.35029318", "lb": "0.45359237", "oz": "0.028349523125",
	"deg": "pi/180", "arcmin": "pi/10800", "arcsec": "pi/648000",
}

func unit(t testing.TB, name string) *Unit {
	t.Helper()
	names, _, err := Names(name)
	if err != nil {
		t.Fatal(err)
	}
	parts := make([]Part, len(names))
	for i, n := range names {
		f, err := exact.ParseFactor(factors[n])
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		parts[i] = Part{Symbol: n, Factor: f}
	}
	m, err := New(name, parts)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestNames(t *testing.T) {
	tests := []struct {
		in, want string
		cldr     bool
		err      string
	}{
		{in: "ft+in", want: "ft in"},
		{in: " ft + in ", want: "ft in"},
		{in: "h+min+s", want: "h min s"},
		{in: "foot-and-inch", want: "foot inch", cldr: true},
		{in: "CLDR:foot-and-inch", want: "foot inch", cldr: true},
		{in: "ft+", err: "part 2 is empty"},
		{in: "cldr:foot-and-", err: "part 2 is empty"},
		{in: "h+min+s+h+min+s+h", err: "at most 6"},
		{in: strings.Repeat("ft+", 100) + "in", err: "longer than 256 bytes"},
	}
	for _, tt := range tests {
		names, cldr, err := Names(tt.in)
		switch {
		case tt.err != "":
			if e, ok := err.(*fault.Error); !ok || e.Code != fault.InvalidUnitExpression || !strings.Contains(e.Message, tt.err) {
				t.Errorf("%q: %v, want an error saying %q", tt.in, err, tt.err)
			}
		case err != nil || strings.Join(names, " ") != tt.want || cldr != tt.cldr:
			t.Errorf("%q: %q %v %v, want %q %v", tt.in, names, cldr, err, tt.want, tt.cldr)
		}
	}
}

// TestKey checks that names differing only in white space share a key,
// that other names keep theirs, and that a plain name costs nothing.
func TestKey(t *testing.T) {
	for _, variant := range []string{"ft+in", " ft+in", "ft +in", "ft+ in ", "\tft\t+\tin\t", "ft\u00a0+in"} {
		if got := Key(variant); got != "ft+in" {
			t.Errorf("Key(%q) = %q", variant, got)
		}
	}
	for _, name := range []string{"foot-and-inch", "cldr:foot-and-inch", "FT+IN", "in+ft"} {
		if got := Key(name); got != name {
			t.Errorf("Key(%q) = %q", name, got)
		}
	}
	if got := Key(" foot -and- inch "); got != "foot-and-inch" {
		t.Errorf("Key of a spaced CLDR name = %q", got)
	}
	if n := testing.AllocsPerRun(100, func() { Key("ft+in") }); n != 0 {
		t.Errorf("Key of a plain name allocates %v times", n)
	}
}

func TestIsName(t *testing.T) {
	for name, want := range map[string]bool{"ft+in": true, "foot-and-inch": true, "ucum:m+2": false, "UCUM:m+2": false, "m": false, "km/h": false, "+": true} {
		if got := IsName(name); got != want {
			t.Errorf("IsName(%q) = %v", name, got)
		}
	}
}

func TestNewRefuses(t *testing.T) {
	tests := []struct {
		parts []string
		says  string
	}{
		{[]string{"in", "ft"}, "largest to the smallest, but ft is not smaller than in"},
		{[]string{"ft", "ft"}, "largest to the smallest"},
		{[]string{"m", "ft"}, "m is not a whole number of ft; each part must be a whole number of the last"},
		{[]string{"deg", "s"}, "not a whole number"},
		{[]string{"ft"}, "a mixed unit has 2 to 6"},
	}
	for _, tt := range tests {
		parts := make([]Part, len(tt.parts))
		for i, n := range tt.parts {
			f, _ := exact.ParseFactor(factors[n])
			parts[i] = Part{Symbol: n, Factor: f}
		}
		_, err := New(strings.Join(tt.parts, "+"), parts)
		if e, ok := err.(*fault.Error); !ok || e.Code != fault.InvalidUnitExpression || !strings.Contains(e.Message, tt.says) {
			t.Errorf("%v: %v, want %q", tt.parts, err, tt.says)
		}
	}
}

func TestSum(t *testing.T) {
	ftin, hms := unit(t, "ft+in"), unit(t, "h+min+s")
	tests := []struct {
		m           *Unit
		value, want string
	}{
		{ftin, "5 3.5", "63.5"},
		{ftin, "-5 3.5", "-63.5"},
		{ftin, "0 -3.5", "-3.5"},
		{ftin, "+5 0", "60"},
		{ftin, "1e2 1e-2", "1200.01"},
		{ftin, "5    3.5", "63.5"},
		{ftin, "0 0", "0"},
		{hms, "1 30 0", "5400"},
	}
	for _, tt := range tests {
		var d apd.Decimal
		if err := tt.m.Sum(&d, tt.value); err != nil || exact.FormatDecimal(&d) != tt.want {
			t.Errorf("%s %q: %s %v, want %s", tt.m.Symbol, tt.value, exact.FormatDecimal(&d), err, tt.want)
		}
	}
	for value, says := range map[string]string{
		"5": "one value per part", "5 3 1": "one value per part", "5 x": "part 2 of ft+in (in)",
		"5 -3": "first part that is not zero", "-0 3": "first part that is not zero", strings.Repeat("1", 300): "longer than",
	} {
		var d apd.Decimal
		err := ftin.Sum(&d, value)
		if e, ok := err.(*fault.Error); !ok || e.Code != fault.InvalidValue || !strings.Contains(e.Message, says) {
			t.Errorf("%q: %v, want %q", value, err, says)
		}
	}
}

// TestSumRatAgreesWithSum: Sum, which reads text, and SumRat, which reads
// rationals, read signs by one rule, so the same parts give both the same
// quantity or are refused by both: a sign on the first part, on a part
// after zeros, after a part that is not zero, on two parts; zero parts.
func TestSumRatAgreesWithSum(t *testing.T) {
	for _, tt := range []struct {
		name  string
		parts []string
		want  string // "" when refused
	}{
		{"ft+in", []string{"5", "3.5"}, "63.5"},
		{"ft+in", []string{"-5", "3.5"}, "-63.5"},
		{"ft+in", []string{"-5", "0"}, "-60"},
		{"ft+in", []string{"0", "-3.5"}, "-3.5"},
		{"ft+in", []string{"0", "0"}, "0"},
		{"ft+in", []string{"5", "-3.5"}, ""},
		{"ft+in", []string{"-5", "-3.5"}, ""},
		{"h+min+s", []string{"0", "0", "-1"}, "-1"},
		{"h+min+s", []string{"0", "-1", "30"}, "-90"},
		{"h+min+s", []string{"-1", "0", "30"}, "-3630"},
		{"h+min+s", []string{"1", "0", "-30"}, ""},
		{"h+min+s", []string{"0", "1", "-30"}, ""},
	} {
		m := unit(t, tt.name)
		var d apd.Decimal
		errSum := m.Sum(&d, strings.Join(tt.parts, " "))
		rats := make([]*big.Rat, len(tt.parts))
		for i, p := range tt.parts {
			rats[i], _ = new(big.Rat).SetString(p)
		}
		r, errRat := m.SumRat(rats)
		if tt.want == "" {
			for _, err := range []error{errSum, errRat} {
				if e, ok := err.(*fault.Error); !ok || e.Code != fault.InvalidValue || !strings.Contains(e.Message, "that is not zero may carry a sign") {
					t.Errorf("%s %q: %v, want the sign refused", tt.name, tt.parts, err)
				}
			}
			continue
		}
		want, _ := new(big.Rat).SetString(tt.want)
		if errSum != nil || exact.FormatDecimal(&d) != tt.want {
			t.Errorf("Sum %s %q = %s, %v; want %s", tt.name, tt.parts, exact.FormatDecimal(&d), errSum, tt.want)
		}
		if errRat != nil || r.Cmp(want) != 0 {
			t.Errorf("SumRat %s %q = %v, %v; want %s", tt.name, tt.parts, r, errRat, tt.want)
		}
	}
}

// TestSplit checks the sign of a negative quantity, on its first part
// that is not zero, and the carries, at the precisions given.
func TestSplit(t *testing.T) {
	tests := []struct {
		name, value string // the value in the last part
		p           int
		want        string
		inexact     bool
	}{
		{"ft+in", "63.5", 34, "5 ft 3.5 in", false},
		{"ft+in", "-63.5", 34, "-5 ft 3.5 in", false},
		{"ft+in", "-3.5", 34, "0 ft -3.5 in", false},
		{"ft+in", "-11.9999", 3, "-1 ft 0 in", true},
		{"ft+in", "71.9999", 3, "6 ft 0 in", true},
		{"ft+in", "71.9999", 6, "5 ft 11.9999 in", false},
		{"ft+in", "-0", 34, "0 ft 0 in", false},
		{"h+min+s", "7199.9999", 3, "2 h 0 min 0 s", true},
		{"h+min+s", "3601", 34, "1 h 0 min 1 s", false},
	}
	for _, tt := range tests {
		m := unit(t, tt.name)
		x, _, _ := apd.NewFromString(tt.value)
		v := valueOf(x)
		for _, fast := range []bool{true, false} {
			var parts Parts
			inexact := m.Split(&parts, &v, tt.p, fast)
			if got := parts.String(m); got != tt.want || inexact != tt.inexact {
				t.Errorf("%s %s at %d (fast %v): %s (inexact %v), want %s (inexact %v)", tt.value, tt.name, tt.p, fast, got, inexact, tt.want, tt.inexact)
			}
		}
		var parts Parts
		if inexact, ok := m.SplitWords(&parts, x, 1, 1, tt.p); ok {
			if got := parts.String(m); got != tt.want || inexact != tt.inexact {
				t.Errorf("%s %s at %d in words: %s (inexact %v), want %s", tt.value, tt.name, tt.p, got, inexact, tt.want)
			}
		}
	}
}

func valueOf(x *apd.Decimal) exact.Value {
	n := x.Coeff.MathBigInt()
	if x.Negative {
		n.Neg(n)
	}
	return exact.Value{Num: n, Den: big.NewInt(1), Exp: int(x.Exponent)}
}

// TestSplitWordsMatchesSplit checks the word split against the plain one
// on random values, factors, units and precisions: the same parts, signs
// and flags wherever the words serve.
func TestSplitWordsMatchesSplit(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 11))
	names := []string{"ft+in", "h+min+s", "st+lb", "lb+oz", "mi+yd+ft+in", "m+cm"}
	served := 0
	for range 4000 {
		m := unit(t, names[rng.IntN(len(names))])
		var x apd.Decimal
		x.Coeff.SetUint64(rng.Uint64() >> uint(rng.IntN(64)))
		x.Exponent = int32(rng.IntN(30) - 20)
		x.Negative = rng.IntN(3) == 0
		num, den := uint64(1+rng.IntN(100000)), uint64(1+rng.IntN(100000))
		p := 1 + rng.IntN(exact.MaxPrecision)
		var fast, plain Parts
		fastInexact, ok := m.SplitWords(&fast, &x, num, den, p)
		if !ok {
			continue
		}
		served++
		v := valueOf(&x).Mul(big.NewRat(int64(num), int64(den)), 0)
		plainInexact := m.Split(&plain, &v, p, false)
		if fast.String(m) != plain.String(m) || fastInexact != plainInexact {
			t.Fatalf("%s·%d/%d in %s at %d: words %s (inexact %v), plain %s (inexact %v)", x.String(), num, den, m.Symbol, p,
				fast.String(m), fastInexact, plain.String(m), plainInexact)
		}
	}
	if served < 1500 {
		t.Fatalf("the word path served only %d of 4000", served)
	}
}
