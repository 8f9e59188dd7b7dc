package engine

import (
	"math/big"
	"math/bits"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// digitCases are words at every length and at the edges of the groups
// appendUint prints: 10^k and 10^k − 1 for every k, and the largest word.
func digitCases() []uint64 {
	xs := []uint64{0, 1, 9, 10, 99, 100, 1<<64 - 1, 1<<63 + 12345}
	for k := 1; k < len(pow10); k++ {
		xs = append(xs, pow10[k], pow10[k]-1, pow10[k]+1, pow10[k]*9/10)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		xs = append(xs, r.Uint64()>>r.IntN(64))
	}
	return xs
}

// TestAppendUint: the digits of strconv.AppendUint, appended to what the
// buffer holds.
func TestAppendUint(t *testing.T) {
	for _, x := range digitCases() {
		got := string(appendUint([]byte("x"), x))
		if want := "x" + strconv.FormatUint(x, 10); got != want {
			t.Errorf("appendUint(%d) = %q, want %q", x, got, want)
		}
	}
}

// TestAppend19: exactly 19 digits, zero-padded.
func TestAppend19(t *testing.T) {
	for _, x := range digitCases() {
		if x >= 1e19 {
			continue
		}
		got := string(append19([]byte("x"), x))
		s := strconv.FormatUint(x, 10)
		want := "x" + strings.Repeat("0", 19-len(s)) + s
		if got != want {
			t.Errorf("append19(%d) = %q, want %q", x, got, want)
		}
	}
}

// TestQuotientDigits: a 128-bit coefficient below 10^38 prints as
// math/big prints it.
func TestQuotientDigits(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	limit := new(big.Int).Exp(big.NewInt(10), big.NewInt(38), nil)
	for i := range 3000 {
		var q quotient
		q.hi, q.lo = r.Uint64()>>r.IntN(64), r.Uint64()
		if i%3 == 0 {
			// Around a multiple of 10^19, where the two halves meet.
			hi, lo := bits.Mul64(r.Uint64()%1e18, 1e19)
			q.hi, q.lo = hi, lo+uint64(r.IntN(3))-1
		}
		v := new(big.Int).Lsh(new(big.Int).SetUint64(q.hi), 64)
		v.Or(v, new(big.Int).SetUint64(q.lo))
		if v.Cmp(limit) >= 0 {
			continue
		}
		if got, want := string(q.appendDigits(nil)), v.String(); got != want {
			t.Errorf("digits of %d·2^64+%d = %s, want %s", q.hi, q.lo, got, want)
		}
	}
}

// FuzzQuotientDigits compares appendDigits with math/big.
func FuzzQuotientDigits(f *testing.F) {
	f.Add(uint64(0), uint64(0))
	f.Add(uint64(542101086242752217), uint64(68739154)) // near 10^37
	f.Fuzz(func(t *testing.T, hi, lo uint64) {
		v := new(big.Int).Lsh(new(big.Int).SetUint64(hi), 64)
		v.Or(v, new(big.Int).SetUint64(lo))
		if v.Cmp(new(big.Int).Exp(big.NewInt(10), big.NewInt(38), nil)) >= 0 {
			return
		}
		q := quotient{hi: hi, lo: lo}
		if got, want := string(q.appendDigits(nil)), v.String(); got != want {
			t.Errorf("digits of %d·2^64+%d = %s, want %s", hi, lo, got, want)
		}
	})
}
