package plan

import (
	"fmt"
	"math/big"
	"sync"
	"testing"

	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/internal/graph"
)

// TestCompiledSize checks that a compiled pair's size, which the cache's
// budget counts, is the same read in words and not, for maps
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
		c    Compiled
	}
	var words []pair // factors of every length in words
	for bits := 1; bits < 62; bits += 3 {
		num := new(big.Int).Lsh(big.NewInt(1), uint(bits))
		num.Add(num, big.NewInt(1))
		f := num.String() + "/" + big.NewInt(int64(2*bits+1)).String()
		words = append(words, pair{f, Compiled{M: linear(f, 0)}})
	}
	for _, tc := range append(words, []pair{
		{"none", Compiled{}},
		{"ft", Compiled{M: linear("381/1250", 0)}},
		{"negative", Compiled{M: linear("-3/7", 0)}},
		{"pi", Compiled{M: linear("1/180", 1)}},
		{"big factor", Compiled{M: linear("123456789012345678901234567890/7", 0)}},
		{"degF", Compiled{M: affine("5/9", "-160/9")}},
		{"link and preInv", Compiled{Link: linear("1000", 0), PreInv: affine("1", "27315/100")}},
		{"pole", Compiled{M: exact.Reciprocal()}},
	}...) {
		sizes := [2]int64{tc.c.Size(false), tc.c.Size(true)}
		if sizes[0] != sizes[1] {
			t.Errorf("%s: size %d plain, %d accelerated", tc.name, sizes[0], sizes[1])
		}
		if tc.c.M != nil && sizes[0] <= 128 {
			t.Errorf("%s: size %d counts nothing for the map", tc.name, sizes[0])
		}
	}
}

// TestInversesMatchPair compiles every pair of a set of conversions
// (linear, with π, affine, reciprocal, through a formula's sides), with
// one store of inverses shared by all of them, from goroutines at once:
// each pair's maps are those exact.Pair composes, and its errors the
// same; and the inverses are shared.
func TestInversesMatchPair(t *testing.T) {
	rat := func(s string) *big.Rat {
		r, ok := new(big.Rat).SetString(s)
		if !ok {
			t.Fatalf("bad rational %q", s)
		}
		return r
	}
	var convs []*graph.Conversion
	for _, f := range []string{"1", "1000", "381/1250", "1/3", "-2", "1609344/1000"} {
		m, err := exact.Linear(rat(f), 0)
		if err != nil {
			t.Fatal(err)
		}
		convs = append(convs, &graph.Conversion{Map: m})
	}
	for _, fo := range [][2]string{{"1", "27315/100"}, {"5/9", "45967/180"}} {
		m, err := exact.Affine(rat(fo[0]), rat(fo[1]), 0)
		if err != nil {
			t.Fatal(err)
		}
		convs = append(convs, &graph.Conversion{Map: m})
	}
	deg, _ := exact.Linear(rat("1/180"), 1)
	convs = append(convs, &graph.Conversion{Map: deg}, &graph.Conversion{Map: exact.Reciprocal()},
		&graph.Conversion{Pre: exact.Identity(), Post: convs[1].Map}, &graph.Conversion{Pre: convs[3].Map, Post: convs[2].Map})
	type pair struct{ a, b *graph.Conversion }
	var pairs []pair
	for _, a := range convs {
		for _, b := range convs {
			pairs = append(pairs, pair{a, b})
		}
	}
	describe := func(c *Compiled) string {
		out := ""
		for _, m := range [3]*exact.Map{c.M, c.Link, c.PreInv} {
			if m == nil {
				out += "-; "
				continue
			}
			a, b, cc, d := m.Coefficients()
			out += fmt.Sprintf("%v %v %v %v π^%d; ", a, b, cc, d, m.K())
		}
		return fmt.Sprintf("%s err %v, positive %v", out, c.Err, c.Positive != nil)
	}
	inv := new(inverses)
	got := make([]string, len(pairs))
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := w; i < len(pairs); i += 4 {
				got[i] = describe(compileWith(pairs[i].a, pairs[i].b, inv))
			}
		})
	}
	wg.Wait()
	hits := 0
	inv.m.Range(func(any, any) bool { hits++; return true })
	for i, p := range pairs {
		if want := describe(Compile(p.a, p.b)); got[i] != want {
			t.Errorf("pair %d: %s, want %s", i, got[i], want)
		}
	}
	if hits == 0 || hits >= len(pairs) {
		t.Errorf("%d inverses kept for %d pairs: none shared", hits, len(pairs))
	}
}

// TestCompilerKeepsPairs: a compiler composes a pair once, and shares
// inverses only until it is told to stop.
func TestCompilerKeepsPairs(t *testing.T) {
	ft, _ := exact.Linear(big.NewRat(381, 1250), 0)
	yd, _ := exact.Linear(big.NewRat(1143, 1250), 0)
	a, b := &graph.Conversion{Map: ft}, &graph.Conversion{Map: yd}
	c := NewCompiler()
	done := c.ShareInverses()
	first := c.Compile(a, b, true)
	if c.Compile(a, b, false) != first || c.Len() != 1 || c.inverses == nil {
		t.Errorf("the pair was composed again, or not kept (%d kept)", c.Len())
	}
	done()
	if c.inverses != nil {
		t.Error("the inverses are still shared")
	}
}
