package engine

import (
	"math/big"
	"testing"

	"github.com/unitd/unitd/engine/internal/exact"
)

// TestCompiledSize checks that a compiled pair's size, which the cache's
// budget counts, is the same with the accelerators on and off, for maps
// whose factor fits words and maps whose coefficients do not, with and
// without an offset, π or a sign.
func TestCompiledSize(t *testing.T) {
	rat := func(s string) *big.Rat {
		r, ok := new(big.Rat).SetString(s)
		if !ok {
			t.Fatalf("bad rational %q", s)
		}
		return r
	}
	linear := func(f string, k int) *exact.Map {
		m, err := exact.Linear(rat(f), k)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	affine := func(f, o string) *exact.Map {
		m, err := exact.Affine(rat(f), rat(o), 0)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	type pair struct {
		name string
		c    compiled
	}
	var words []pair // factors of every length in words
	for bits := 1; bits < 62; bits += 3 {
		num := new(big.Int).Lsh(big.NewInt(1), uint(bits))
		num.Add(num, big.NewInt(1))
		f := num.String() + "/" + big.NewInt(int64(2*bits+1)).String()
		words = append(words, pair{f, compiled{m: linear(f, 0)}})
	}
	for _, tc := range append(words, []pair{
		{"none", compiled{}},
		{"ft", compiled{m: linear("381/1250", 0)}},
		{"negative", compiled{m: linear("-3/7", 0)}},
		{"pi", compiled{m: linear("1/180", 1)}},
		{"big factor", compiled{m: linear("123456789012345678901234567890/7", 0)}},
		{"degF", compiled{m: affine("5/9", "-160/9")}},
		{"link and preInv", compiled{link: linear("1000", 0), preInv: affine("1", "27315/100")}},
		{"pole", compiled{m: exact.Reciprocal()}},
	}...) {
		sizes := [2]int64{}
		for i, on := range []bool{false, true} {
			func() {
				saved := optimize
				defer func() { optimize = saved }()
				optimize = on
				sizes[i] = tc.c.size()
			}()
		}
		if sizes[0] != sizes[1] {
			t.Errorf("%s: size %d plain, %d accelerated", tc.name, sizes[0], sizes[1])
		}
		if tc.c.m != nil && sizes[0] <= 128 {
			t.Errorf("%s: size %d counts nothing for the map", tc.name, sizes[0])
		}
	}
}
