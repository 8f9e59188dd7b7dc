package engine

import (
	"fmt"
	"math/big"
	"sync"
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

// TestInversesMatchPair compiles every pair of units of a category of the
// test graph, and every unit's pair with itself, with one store of
// inverses shared by all of them, from goroutines at once: each pair's
// maps are those exact.Pair composes, and its errors the same.
func TestInversesMatchPair(t *testing.T) {
	g := testGraph(t)
	type pair struct{ a, b *Unit }
	var pairs []pair
	for _, c := range g.categories {
		for _, a := range c.Units {
			for _, b := range c.Units {
				pairs = append(pairs, pair{a, b})
			}
		}
	}
	if len(pairs) < 100 {
		t.Fatalf("only %d pairs", len(pairs))
	}
	describe := func(c *compiled) string {
		out := ""
		for _, m := range [3]*exact.Map{c.m, c.link, c.preInv} {
			if m == nil {
				out += "-; "
				continue
			}
			a, b, cc, d := m.Coefficients()
			out += fmt.Sprintf("%v %v %v %v π^%d; ", a, b, cc, d, m.K())
		}
		return fmt.Sprintf("%s err %v, positive %v", out, c.err, c.positive != nil)
	}
	inv := new(inverses)
	got := make([]string, len(pairs))
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := w; i < len(pairs); i += 4 {
				got[i] = describe(compilePairWith(&pairs[i].a.Conv, &pairs[i].b.Conv, inv))
			}
		})
	}
	wg.Wait()
	hits := 0
	inv.m.Range(func(any, any) bool { hits++; return true })
	for i, p := range pairs {
		if want := describe(compilePair(&p.a.Conv, &p.b.Conv)); got[i] != want {
			t.Errorf("%s → %s: %s, want %s", p.a.Symbol, p.b.Symbol, got[i], want)
		}
	}
	if hits == 0 || hits >= len(pairs) {
		t.Errorf("%d inverses kept for %d pairs: none shared", hits, len(pairs))
	}
}
