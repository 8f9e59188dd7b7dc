package engine

import (
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine/internal/digits"
	"github.com/unitd/unitd/engine/internal/exact"
)

func TestParseValue(t *testing.T) {
	valid := []struct{ in, want string }{
		{"12.5", "12.5"}, {"+12.5", "12.5"}, {"-12.5", "-12.5"}, {"0", "0"}, {"-0", "0"},
		{"1e3", "1000"}, {"1E-3", "0.001"}, {"1.5e+2", "150"}, {".5", "0.5"}, {"5.", "5"},
		{"1e1000", "1e+1000"}, {"1e-1000", "1e-1000"}, {"0001.2300", "1.23"},
		{strings.Repeat("9", 100), "9." + strings.Repeat("9", 99) + "e+99"},
		{"0." + strings.Repeat("1", 98), "0." + strings.Repeat("1", 98)},
	}
	for _, tt := range valid {
		t.Run("valid "+tt.in, func(t *testing.T) {
			d, err := ParseValue(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := FormatDecimal(&d); got != tt.want {
				t.Errorf("FormatDecimal(ParseValue(%q)) = %s, want %s", tt.in, got, tt.want)
			}
		})
	}
	invalid := []string{
		"", " ", " 1", "1 ", "NaN", "nan", "Infinity", "-Inf", "inf", "0x10", "1,000", "1_000",
		"1e", "1e+", "e5", ".", "-", "+", "1.2.3", "--1", "1e1001", "1e-1001", "1e99999999999",
		strings.Repeat("1", 101), "١٢", "1\x00", "12abc", "½",
	}
	for _, in := range invalid {
		t.Run("invalid "+in, func(t *testing.T) {
			_, err := ParseValue(in)
			e, ok := err.(*Error)
			if !ok || e.Code != CodeInvalidValue {
				t.Fatalf("ParseValue(%q) err = %v, want INVALID_VALUE", in, err)
			}
		})
	}
}

func TestFormatDecimal(t *testing.T) {
	tests := []struct{ in, want string }{
		{"0", "0"}, {"-0", "0"}, {"0.000", "0"}, {"1.500", "1.5"}, {"100", "100"}, {"1E+2", "100"},
		{"-3.81", "-3.81"}, {"0.0000001", "0.0000001"}, {"0.00000001", "1e-8"}, {"0.000001", "0.000001"}, {"1.602176634E-19", "1.602176634e-19"},
		{"123456789012345678901", "123456789012345678901"}, {"9999999999999999999999", "9.999999999999999999999e+21"},
		{"1E+21", "1e+21"}, {"12345E+17", "1.2345e+21"}, {"1.2345E+20", "123450000000000000000"},
		{"-1.5E-8", "-1.5e-8"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			d, _, err := apd.NewFromString(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := FormatDecimal(d); got != tt.want {
				t.Errorf("FormatDecimal(%s) = %s, want %s", tt.in, got, tt.want)
			}
		})
	}
}

func TestParseExact(t *testing.T) {
	tests := []struct {
		in, want string
		pi       int
	}{
		{"0.3048", "381/1250", 0}, {"1/3", "1/3", 0}, {"101325/760", "20265/152", 0}, {"9.80665*0.45359237", "444822161526050/100000000000000", 0},
		{"0.0254^3", "2048383/125000000000", 0}, {"-459.67*5/9", "-45967/180", 0}, {"(1/3)^-2", "9", 0}, {"1.602176634e-19", "801088317/5000000000000000000000000000", 0},
		{"2 * 3", "6", 0}, {"1e+3", "1000", 0},
		{"pi/180", "1/180", 1}, {"2*pi", "2", 1}, {"648000/pi", "648000", -1}, {"(pi/180)^2", "1/32400", 2}, {"pi/pi", "1", 0},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			r, err := exact.ParseFactor(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if want, _ := new(big.Rat).SetString(tt.want); r.R.Cmp(want) != 0 || r.K != tt.pi {
				t.Errorf("exact.ParseFactor(%q) = %s·π^%d, want %s·π^%d", tt.in, r.R, r.K, tt.want, tt.pi)
			}
		})
	}
	for _, in := range []string{"", "abc", "1/0", "0^-1", "1**2", "(1", "1)", "2^1000", "1,5", "NaN"} {
		if _, err := exact.ParseFactor(in); err == nil {
			t.Errorf("exact.ParseFactor(%q) succeeded, want an error", in)
		}
	}
}

// TestAppendDecimalTwoWords checks the two-word formatting of
// coefficients against math/big's conversion, around the word and 10^38
// boundaries and at random.
func TestAppendDecimalTwoWords(t *testing.T) {
	coeffs := []string{
		"18446744073709551615", "18446744073709551616", "18446744073709551617",
		"99999999999999999999999999999999999999", "100000000000000000000000000000000000000",
		"340282366920938463463374607431768211455", "340282366920938463463374607431768211456",
		"10000000000000000000000000000000000000", "12345678901234567890123456789012345678",
	}
	r := rand.New(rand.NewPCG(3, 5))
	for range 500 {
		n := 1 + r.IntN(45)
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('0' + r.IntN(10))
		}
		b[0] = byte('1' + r.IntN(9))
		coeffs = append(coeffs, string(b))
	}
	for _, c := range coeffs {
		for _, exp := range []int32{-40, -3, 0, 5} {
			var d apd.Decimal
			if _, ok := d.Coeff.SetString(c, 10); !ok {
				t.Fatal(c)
			}
			d.Exponent = exp
			d.Negative = len(c)%2 == 0
			want := string(digits.Format(nil, d.Negative, []byte(d.Coeff.String()), int(exp)))
			if got := string(exact.AppendDecimal(nil, &d)); got != want {
				t.Errorf("exact.AppendDecimal(%se%d) = %s, want %s", c, exp, got, want)
			}
		}
	}
}

// TestParseValueMatchesApd: whatever parseValue accepts, apd reads to the
// same coefficient, exponent and sign, long values and exponents among
// them; and what it refuses is INVALID_VALUE.
func TestParseValueMatchesApd(t *testing.T) {
	r := rand.New(rand.NewPCG(37, 41))
	alphabet := "0123456789.+-eE "
	cases := []string{"0", "-0", "+0", "00012.50", ".5", "5.", ".", "-", "", "1..2", "12345678901234567890", "1234567890123456789",
		"0.0000000000000000000000001", "-.0", "1e5", "123456789012345678901234567890.5e-7", "99999999999999999999", "1E+1000", "0000000000000000000000000001"}
	for range 20000 {
		b := make([]byte, 1+r.IntN(30))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
			if r.IntN(3) > 0 {
				b[i] = alphabet[r.IntN(10)]
			}
		}
		cases = append(cases, string(b))
	}
	taken := 0
	for _, s := range cases {
		var got apd.Decimal
		err := exact.ParseValue(&got, s)
		if err != nil {
			if e, ok := err.(*Error); !ok || e.Code != CodeInvalidValue {
				t.Fatalf("exact.ParseValue(%q): %v", s, err)
			}
			continue
		}
		taken++
		want, _, err := apd.NewFromString(s)
		if err != nil {
			t.Fatalf("parseValue took %q, which apd refuses: %v", s, err)
		}
		if got.Coeff.Cmp(&want.Coeff) != 0 || got.Exponent != want.Exponent || got.Negative != want.Negative && !want.IsZero() {
			t.Fatalf("%q: parseValue %s, apd %s", s, &got, want)
		}
	}
	if taken < 2000 {
		t.Errorf("parseValue took only %d values", taken)
	}
}
