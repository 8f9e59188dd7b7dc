package prefix

import (
	"math/big"
	"testing"
)

// TestFactors: every prefix's factor is its base to its power, written
// as an integer or as 1/integer; no two prefixes of all the sets share a
// symbol or a spelling, and every set cites its source.
func TestFactors(t *testing.T) {
	seen := map[string]string{}
	for name, set := range Sets {
		if Sources[name] == "" {
			t.Errorf("set %s cites no source", name)
		}
		for _, p := range set {
			want := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(int64(p.Base)), big.NewInt(int64(max(p.Power, -p.Power))), nil))
			if p.Power < 0 {
				want.Inv(want)
			}
			got, ok := new(big.Rat).SetString(p.Factor())
			if !ok || got.Cmp(want) != 0 {
				t.Errorf("%s: factor %q, want %v", p.Name, p.Factor(), want.RatString())
			}
			for _, s := range append([]string{p.Symbol}, p.Symbols...) {
				if other, dup := seen[s]; dup {
					t.Errorf("%s and %s are both spelled %q", other, p.Name, s)
				}
				seen[s] = p.Name
			}
		}
	}
}
