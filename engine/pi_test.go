package engine

import (
	"math/big"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/cockroachdb/apd/v3"
)

// TestPiDigits checks the computed π against its published digits.
func TestPiDigits(t *testing.T) {
	const published = "31415926535897932384626433832795028841971693993751058209749445923078164062862089986280348253421170679821480865132823066470938446095505822317253594081284811174502841027019385211055596446229489549303819644288109756659334461284756482337867831652712019091456485669234603486104543266482133936072602491412737245870066063155881748815209209628292540917153643678925903600113305305488204665213841469519415116094330572703657595919530921861173819326117931051185480744623799627495673518857527248912279381830119491"
	for _, n := range []int{1, 50, 120, 400, len(published) - 1} {
		if got := piScaled(n).String(); got != published[:n+1] {
			t.Fatalf("piScaled(%d) = %s, want %s", n, got, published[:n+1])
		}
	}
}

// TestRoundPi checks values through π against their published digits.
func TestRoundPi(t *testing.T) {
	tests := []struct {
		num, den string
		k, p     int
		want     string
	}{
		{"1", "1", 1, 10, "3.141592654"},
		{"1", "180", 1, 34, "0.01745329251994329576923690768488613"},
		{"180", "1", -1, 34, "57.29577951308232087679815481410517"},
		{"1", "30", 1, 50, "0.1047197551196597746154214461093167628065723133125"},
		{"-2", "1", 2, 5, "-19.739"},
		{"0", "1", 1, 5, "0"},
	}
	for _, tt := range tests {
		num, _, _ := apd.NewFromString(tt.num)
		den, _, _ := apd.NewFromString(tt.den)
		var out apd.Decimal
		inexact, err := roundPi(&out, num, den, tt.k, tt.p)
		if err != nil {
			t.Fatal(err)
		}
		if got := FormatDecimal(&out); got != tt.want || inexact != (tt.num != "0") {
			t.Errorf("%s/%s·π^%d to %d digits = %s (inexact %v), want %s", tt.num, tt.den, tt.k, tt.p, got, inexact, tt.want)
		}
	}
}

// TestRatToDecimalWord checks the word-sized conversion of a rational to
// a decimal against the big-integer one.
func TestRatToDecimalWord(t *testing.T) {
	for _, s := range []string{"0", "1", "-1", "381/1250", "1/3", "5/9", "1000", "1/1024", "-7/8", "9223372036854775807/5", "123456789/4000000000", "1/1099511627776", "18446744073709551616/2"} {
		r, ok := new(big.Rat).SetString(s)
		if !ok {
			t.Fatal(s)
		}
		d, ok, decided := ratToDecimalWord(r)
		if !decided {
			continue
		}
		want, wantOK := ratToDecimalBig(r)
		if ok != wantOK || ok && (d.Cmp(&want) != 0 || d.Exponent != want.Exponent) {
			t.Errorf("%s: word %s %v, big %s %v", s, d.String(), ok, want.String(), wantOK)
		}
	}
}

// TestPiFastMatchesRoundPi checks the π accelerator against the plain
// path over random operands, powers and precisions: every rounding it
// decides is roundPi's, and it decides nearly all of them.
func TestPiFastMatchesRoundPi(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	digits := func(n int) string {
		b := make([]byte, n)
		b[0] = byte('1' + r.IntN(9))
		for i := 1; i < n; i++ {
			b[i] = byte('0' + r.IntN(10))
		}
		return string(b)
	}
	const runs = 4000
	decided := 0
	for range runs {
		num, _, _ := apd.NewFromString(digits(1+r.IntN(40)) + "e" + strconv.Itoa(r.IntN(60)-30))
		num.Negative = r.IntN(2) == 0
		den, _, _ := apd.NewFromString(digits(1+r.IntN(20)) + "e" + strconv.Itoa(r.IntN(20)-10))
		k := 1 + r.IntN(maxPiFastPow)
		if r.IntN(2) == 0 {
			k = -k
		}
		p := 1 + r.IntN(MaxPrecision)
		var fast, plain apd.Decimal
		if !piFast(&fast, num, den, k, p) {
			continue
		}
		decided++
		if _, err := roundPi(&plain, num, den, k, p); err != nil {
			t.Fatal(err)
		}
		if FormatDecimal(&fast) != FormatDecimal(&plain) {
			t.Fatalf("%s/%s·π^%d to %d digits: piFast %s, roundPi %s", num, den, k, p, &fast, &plain)
		}
	}
	if decided < runs*99/100 {
		t.Errorf("piFast decided %d of %d roundings, want at least 99%%", decided, runs)
	}
}

// TestPiFastDeclines checks the accelerator leaves to the plain path what
// its table does not cover.
func TestPiFastDeclines(t *testing.T) {
	one := apd.New(1, 0)
	var out apd.Decimal
	for _, tt := range []struct {
		num *apd.Decimal
		k   int
	}{
		{apd.New(0, 0), 1},
		{one, 0},
		{one, maxPiFastPow + 1},
		{one, -maxPiFastPow - 1},
		{apd.NewWithBigInt(new(apd.BigInt).Exp(apd.NewBigInt(10), apd.NewBigInt(maxPiFastDigits+1), nil), 0), 1},
	} {
		if piFast(&out, tt.num, one, tt.k, 10) {
			t.Errorf("piFast(%s, k=%d) decided; want it to decline", tt.num, tt.k)
		}
	}
}
