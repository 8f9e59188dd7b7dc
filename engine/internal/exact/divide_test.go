package exact

import (
	"math/rand/v2"
	"testing"
)

// TestStripZeros compares stripZeros with a loop of single divisions by
// ten, on every count of trailing zeros a word below 10^19 can have.
func TestStripZeros(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for zeros := 0; zeros <= 18; zeros++ {
		for range 2000 {
			// A coefficient not divisible by ten, times 10^zeros, below 10^19.
			limit := pow10[19-zeros]
			x := r.Uint64N(limit-1) + 1
			if x%10 == 0 {
				x++
				if x >= limit {
					x = 1
				}
			}
			if x%10 == 0 {
				continue
			}
			v := x * pow10[zeros]
			got, n := stripZeros(v)
			want, m := v, 0
			for want%10 == 0 {
				want, m = want/10, m+1
			}
			if got != want || n != m {
				t.Fatalf("stripZeros(%d) = %d, %d; want %d, %d", v, got, n, want, m)
			}
		}
	}
}
