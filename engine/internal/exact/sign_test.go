package exact

import (
	"math/big"
	"testing"

	"github.com/cockroachdb/apd/v3"
)

// TestSignerMatchesMap: the sign a signer finds, of a decimal and of a
// rational, for a map's value at x is the sign of the exact value the
// map gives there (0 at its pole), for maps whose factors have roots at
// zero (the shortcut, 100/x) and elsewhere (the general product), at
// values on either side of each root and on it.
func TestSignerMatchesMap(t *testing.T) {
	coefs := []int64{-3, -1, 0, 2, 5}
	values := []string{"-7.5", "-2.5", "-1", "-0.4", "-1e-30", "0", "1e-30", "0.4", "1", "2.5", "7.5", "1e30"}
	shortcut := 0
	for _, a := range coefs {
		for _, b := range coefs {
			for _, c := range coefs {
				for _, d := range coefs {
					m, err := FromCoefficients(big.NewInt(a), big.NewInt(b), big.NewInt(c), big.NewInt(d), 0)
					if err != nil {
						continue // constant maps are no conversion's
					}
					s := NewSigner(m)
					if s.zeroRoots {
						shortcut++
					}
					for _, v := range values {
						x, _, err := apd.NewFromString(v)
						if err != nil {
							t.Fatal(err)
						}
						want := 0
						if val, err := m.At(x); err == nil {
							want = val.Sign() // the denominators At returns are positive
						} else if err != ErrPole {
							t.Fatalf("(%d·x + %d)/(%d·x + %d) at %s: %v", a, b, c, d, v, err)
						}
						if got := s.Sign(x); got != want {
							t.Errorf("(%d·x + %d)/(%d·x + %d) at %s: sign %d, want %d (shortcut %v)", a, b, c, d, v, got, want, s.zeroRoots)
						}
						if got := s.SignRat(DecimalRat(x)); got != want {
							t.Errorf("(%d·x + %d)/(%d·x + %d) at %s as a rational: sign %d, want %d", a, b, c, d, v, got, want)
						}
					}
				}
			}
		}
	}
	if shortcut == 0 {
		t.Error("no map took the shortcut for roots at zero")
	}
}
