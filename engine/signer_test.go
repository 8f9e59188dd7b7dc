package engine

import (
	"math/big"
	"testing"

	"github.com/unitd/unitd/engine/internal/exact"
)

// TestSignerMatchesMap: the sign a signer finds for a map's value at x is
// the sign of the exact value the map gives there (0 at its pole), for
// maps whose factors have roots at zero (the shortcut, 100/x) and
// elsewhere (the general product), at values on either side of each root
// and on it.
func TestSignerMatchesMap(t *testing.T) {
	coefs := []int64{-3, -1, 0, 2, 5}
	values := []string{"-7.5", "-2.5", "-1", "-0.4", "-1e-30", "0", "1e-30", "0.4", "1", "2.5", "7.5", "1e30"}
	shortcut := 0
	for _, a := range coefs {
		for _, b := range coefs {
			for _, c := range coefs {
				for _, d := range coefs {
					m, err := exact.FromCoefficients(big.NewInt(a), big.NewInt(b), big.NewInt(c), big.NewInt(d), 0)
					if err != nil {
						continue // constant maps are no conversion's
					}
					s := newSigner(m)
					if s.zeroRoots {
						shortcut++
					}
					for _, v := range values {
						x := mustDecimal(v)
						want := 0
						if val, err := m.At(x); err == nil {
							want = val.Sign() // the denominators At returns are positive
						} else if err != exact.ErrPole {
							t.Fatalf("(%d·x + %d)/(%d·x + %d) at %s: %v", a, b, c, d, v, err)
						}
						if got := s.sign(x); got != want {
							t.Errorf("(%d·x + %d)/(%d·x + %d) at %s: sign %d, want %d (shortcut %v)", a, b, c, d, v, got, want, s.zeroRoots)
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
