package exact

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestAgreeWordsMatchesAgree compares the word path of AgreeWords with
// Agree on pairs of factors that agree to every number of digits, or
// nearly do, or differ in sign, size or power of π.
func TestAgreeWordsMatchesAgree(t *testing.T) {
	cases := []struct{ a, b string }{
		{"1", "1"}, {"0", "0"}, {"0", "1"}, {"1", "0"}, {"-1", "1"}, {"-1", "-1"},
		{"0.3048", "0.3048"}, {"0.3048", "0.30480000001"}, {"1200/3937", "0.3048006096"},
		{"1200/3937", "0.304800609601219"}, {"1/3", "0.333333333333"}, {"2/3", "0.6666666666667"},
		{"18446744073709551615", "18446744073709551614"}, {"1/18446744073709551615", "1/18446744073709551614"},
		{"18446744073709551616", "18446744073709551615"}, // beyond a word: through Agree
		{"4.184", "4.1868"}, {"1e-30", "1.0000000000000000001e-30"}, {"-4.184", "-4.18400000000000000001"},
		{"9.80665", "9.806650000000000000000000000000001"},
	}
	check := func(a, b Factor) {
		t.Helper()
		for d := -1; d <= 42; d++ {
			if got, want := AgreeWords(a, b, d, true), Agree(a, b, d); got != want {
				t.Errorf("AgreeWords(%s·π^%d, %s·π^%d, %d) = %v; Agree says %v", a.R.RatString(), a.K, b.R.RatString(), b.K, d, got, want)
			}
			if got, want := AgreeWords(a, b, d, false), Agree(a, b, d); got != want {
				t.Errorf("AgreeWords(…, words off) differs from Agree at %d digits", d)
			}
		}
	}
	for _, c := range cases {
		a, err1 := ParseFactor(c.a)
		b, err2 := ParseFactor(c.b)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s, %s: %v %v", c.a, c.b, err1, err2)
		}
		check(a, b)
		check(b, a)
		check(Factor{R: a.R, K: 1}, Factor{R: b.R, K: 1})
		check(Factor{R: a.R, K: 1}, b)
	}
	// Random ratios of words and factors near them, one part in 10^k off.
	r := rand.New(rand.NewPCG(5, 7))
	word := func() *big.Int {
		switch r.IntN(3) {
		case 0:
			return new(big.Int).SetUint64(r.Uint64()>>r.IntN(64) | 1)
		case 1:
			return new(big.Int).SetUint64(uint64(r.IntN(1000) + 1))
		}
		return new(big.Int).SetUint64(r.Uint64() | 1<<63)
	}
	for range 3000 {
		a := new(big.Rat).SetFrac(word(), word())
		if r.IntN(4) == 0 {
			a.Neg(a)
		}
		eps := new(big.Rat).SetFrac(big.NewInt(int64(r.IntN(11)-5)), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(r.IntN(36))), nil))
		b := new(big.Rat).Mul(a, new(big.Rat).Add(big.NewRat(1, 1), eps))
		if !b.Num().IsInt64() || !b.Denom().IsUint64() {
			b = new(big.Rat).SetFrac(word(), word()) // keep it in words
		}
		check(Factor{R: a}, Factor{R: b})
	}
}
