package digits

import (
	"math/big"
	"math/rand/v2"
	"strconv"
	"testing"
)

func cases() []uint64 {
	out := []uint64{0, 1, 9, 10, 99, 100, 1e7 - 1, 1e7, 1e8 - 1, 1e8, 1e8 + 1, 1e16, 1e19 - 1, 1e19, 1<<64 - 1}
	for p := uint64(1); p < 1e19; p *= 10 {
		out = append(out, p-1, p, p+1)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		out = append(out, r.Uint64()>>r.IntN(64))
	}
	return out
}

// TestAppendUint compares the printer with strconv on edges and random
// words.
func TestAppendUint(t *testing.T) {
	for _, x := range cases() {
		if got, want := string(AppendUint([]byte("x"), x)), "x"+strconv.FormatUint(x, 10); got != want {
			t.Fatalf("AppendUint(%d) = %s, want %s", x, got, want)
		}
	}
}

// TestAppendUint128 compares the two-word printer with math/big.
func TestAppendUint128(t *testing.T) {
	limit := new(big.Int).Exp(big.NewInt(10), big.NewInt(38), nil)
	r := rand.New(rand.NewPCG(3, 4))
	for _, hi := range append(cases()[:40], 1<<62, 5421010862427522170) {
		for range 20 {
			lo := r.Uint64()
			v := new(big.Int).Lsh(new(big.Int).SetUint64(hi), 64)
			v.Or(v, new(big.Int).SetUint64(lo))
			if v.Cmp(limit) >= 0 {
				continue
			}
			if got, want := string(AppendUint128(nil, hi, lo)), v.String(); got != want {
				t.Fatalf("AppendUint128(%d, %d) = %s, want %s", hi, lo, got, want)
			}
		}
	}
}

func FuzzAppendUint128(f *testing.F) {
	f.Add(uint64(0), uint64(0))
	f.Add(uint64(5421010862427522169), uint64(1<<64-1))
	f.Fuzz(func(t *testing.T, hi, lo uint64) {
		v := new(big.Int).Lsh(new(big.Int).SetUint64(hi), 64)
		v.Or(v, new(big.Int).SetUint64(lo))
		if v.Cmp(new(big.Int).Exp(big.NewInt(10), big.NewInt(38), nil)) >= 0 {
			return
		}
		if got, want := string(AppendUint128(nil, hi, lo)), v.String(); got != want {
			t.Fatalf("AppendUint128(%d, %d) = %s, want %s", hi, lo, got, want)
		}
	})
}

func TestFormat(t *testing.T) {
	for _, tt := range []struct {
		neg    bool
		digits string
		exp    int
		want   string
	}{
		{false, "0", 0, "0"},
		{true, "0", 5, "0"},
		{false, "381", -2, "3.81"},
		{false, "38100", -4, "3.81"},
		{true, "5", 0, "-5"},
		{false, "1", 20, "100000000000000000000"},
		{false, "1", 21, "1e+21"},
		{false, "1602176634", -28, "1.602176634e-19"},
		{false, "1", -7, "0.0000001"},
		{false, "1", -8, "1e-8"},
		{false, "12", -8, "0.00000012"},
		{false, "123", -2, "1.23"},
		{false, "5", -3, "0.005"},
		{false, "1", 1003, "1e+1003"},
	} {
		if got := string(Format(nil, tt.neg, []byte(tt.digits), tt.exp)); got != tt.want {
			t.Errorf("Format(%v, %s, %d) = %s, want %s", tt.neg, tt.digits, tt.exp, got, tt.want)
		}
	}
}
