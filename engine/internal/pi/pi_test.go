package pi

import (
	"math/big"
	"strings"
	"testing"
)

// The first 100 decimals of π, as published (OEIS A000796).
const published = "31415926535897932384626433832795028841971693993751058209749445923078164062862089986280348253421170679"

func TestScaled(t *testing.T) {
	for _, n := range []int{1, 2, 10, 50, 100} {
		if got := Scaled(n).String(); got != published[:n+1] {
			t.Errorf("Scaled(%d) = %s, want %s", n, got, published[:n+1])
		}
	}
	// Computing more digits later keeps the earlier ones.
	long := Scaled(1000).String()
	if !strings.HasPrefix(long, published) || len(long) != 1001 {
		t.Errorf("Scaled(1000) does not start with the published digits or has %d digits", len(long))
	}
}

// TestBracket checks every bracket against π to 600 places: the ends
// enclose π^k, they are close, and lo has about the digits asked for.
func TestBracket(t *testing.T) {
	ref := new(big.Rat).SetFrac(Scaled(600), new(big.Int).Exp(big.NewInt(10), big.NewInt(600), nil))
	for k := -6; k <= 6; k++ {
		if k == 0 {
			continue
		}
		want := big.NewRat(1, 1)
		for range abs(k) {
			want.Mul(want, ref)
		}
		if k < 0 {
			want.Inv(want)
		}
		for _, digits := range []int{17, 40, 66, 200} {
			lo, w, scale := Bracket(k, digits)
			unit := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil)
			l := new(big.Rat).SetFrac(lo, unit)
			h := new(big.Rat).SetFrac(new(big.Int).Add(lo, w), unit)
			if l.Cmp(want) >= 0 || h.Cmp(want) <= 0 {
				t.Errorf("Bracket(%d, %d) does not enclose π^%d", k, digits, k)
			}
			if w.Sign() <= 0 || w.Cmp(big.NewInt(4)) > 0 {
				t.Errorf("Bracket(%d, %d) has width %s", k, digits, w)
			}
			if n := len(lo.String()); n < digits-2 || n > digits+1 {
				t.Errorf("Bracket(%d, %d): lo has %d digits", k, digits, n)
			}
		}
	}
}

// TestWords checks the word table against Bracket.
func TestWords(t *testing.T) {
	for k := -MaxWordsPow; k <= MaxWordsPow; k++ {
		for p := 1; p <= 50; p++ {
			br := Words(k, p)
			if k == 0 {
				if br.OK {
					t.Errorf("Words(0, %d) is OK", p)
				}
				continue
			}
			lo, w, scale := Bracket(k, p+Guard)
			if lo.BitLen() <= 256 != br.OK {
				t.Errorf("Words(%d, %d).OK = %v for a %d-bit lo", k, p, br.OK, lo.BitLen())
			}
			if !br.OK {
				continue
			}
			got := new(big.Int)
			for i := 3; i >= 0; i-- {
				got.Lsh(got, 64).Or(got, new(big.Int).SetUint64(br.Lo[i]))
			}
			if got.Cmp(lo) != 0 || br.Width != w.Uint64() || br.Scale != scale {
				t.Errorf("Words(%d, %d) = %s+%d e-%d, Bracket gives %s+%s e-%d", k, p, got, br.Width, br.Scale, lo, w, scale)
			}
		}
	}
	if Words(5, 10).OK || Words(1, 51).OK || Words(1, 0).OK {
		t.Error("Words answers outside its bounds")
	}
}
