package exact

import (
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cockroachdb/apd/v3"
)

// radixes are mixed radixes as factors onto a common unit: feet and
// inches (in metres), hours, minutes and seconds, stones and pounds and
// ounces, miles to inches, degrees to arcseconds through π, and one whose
// units are beyond a word.
var radixes = [][]string{
	{"0.3048", "0.0254"},
	{"3600", "60", "1"},
	{"6.35029318", "0.45359237", "0.028349523125"},
	{"1609.344", "0.9144", "0.3048", "0.0254"},
	{"pi/180", "pi/10800", "pi/648000"},
	{"1e30", "1e10", "1"},
	{"86400", "3600", "60", "1", "0.001", "0.000001"},
}

func radixOf(t *testing.T, factors []string) (*Radix, []Factor) {
	t.Helper()
	fs := make([]Factor, len(factors))
	for i, s := range factors {
		f, err := ParseFactor(s)
		if err != nil {
			t.Fatal(err)
		}
		fs[i] = f
	}
	r, err := NewRadix(fs)
	if err != nil {
		t.Fatalf("NewRadix(%v): %v", factors, err)
	}
	return r, fs
}

// refSplit is Split in big.Rat: whole parts by floor division, the rest
// rounded by roundRat, a carry when it rounds up to a whole unit of the
// part before it.
func refSplit(r *Radix, x *big.Rat, p int) string {
	text, _ := refSplitCarry(r, x, p)
	return text
}

// refSplitCarry is refSplit that also says whether the rest carried.
func refSplitCarry(r *Radix, x *big.Rat, p int) (string, bool) {
	n := r.Len()
	rest := new(big.Rat).Abs(x)
	whole := make([]*big.Int, n-1)
	for i := range n - 1 {
		u := new(big.Rat).SetInt(r.inLast[i])
		q := new(big.Rat).Quo(rest, u)
		whole[i] = new(big.Int).Quo(q.Num(), q.Denom())
		rest.Sub(rest, new(big.Rat).Mul(new(big.Rat).SetInt(whole[i]), u))
	}
	last := roundRat(rest, p)
	lr, _ := new(big.Rat).SetString(last)
	carried := lr.Cmp(new(big.Rat).SetInt(r.step[n-2])) >= 0
	if carried {
		last = "0"
		whole[n-2].Add(whole[n-2], big.NewInt(1))
		for i := n - 2; i > 0; i-- {
			if whole[i].Cmp(r.step[i-1]) >= 0 {
				whole[i].Sub(whole[i], r.step[i-1])
				whole[i-1].Add(whole[i-1], big.NewInt(1))
			}
		}
	}
	var parts []string
	for _, w := range whole {
		d := new(apd.Decimal)
		d.Coeff.SetMathBigInt(w)
		parts = append(parts, FormatDecimal(d))
	}
	return strings.Join(append(parts, last), " "), carried
}

func partsText(text []byte, ends [MaxRadixUnits]int, n int) string {
	var parts []string
	start := 0
	for i := range n {
		parts = append(parts, string(text[start:ends[i]]))
		start = ends[i]
	}
	return strings.Join(parts, " ")
}

// TestRadixSplit splits random values (small and huge, values just under
// a carry among them) into random radixes at random precisions, with and
// without words, through π too, and compares the parts with big.Rat's; the
// word path gives the same parts and flag wherever it serves, and serves
// most of the values it is meant for.
func TestRadixSplit(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 8))
	served, eligible, throughPi, carries := 0, 0, 0, 0
	for range 6000 {
		rs := radixes[rng.IntN(len(radixes))]
		r, fs := radixOf(t, rs)
		last := fs[len(fs)-1]
		x := randomDecimal(rng)
		num, den := uint64(1+rng.IntN(1000)), uint64(1+rng.IntN(1000))
		if rng.IntN(3) == 0 {
			num, den = 1, 1
			// Just under a whole unit of the part before the last: a carry
			// at most precisions.
			s := new(big.Rat).SetInt(r.step[len(fs)-2])
			s.Sub(s, new(big.Rat).SetFrac(big.NewInt(1), pow10Big(1+rng.IntN(12))))
			d, _ := ToDecimal(s)
			x.Set(&d)
		}
		p := 1 + rng.IntN(50)
		xr := decimalRat(x)
		// The value in the last unit: x·num/den, as a linear map gives it.
		inLast := new(big.Rat).Mul(xr, big.NewRat(int64(num), int64(den)))
		v := valueOf(rng, inLast, 0)
		k := 0
		if last.K != 0 && rng.IntN(2) == 0 {
			// A value in radians split into degrees: v·π^-1 in the
			// last unit's terms (the factors carry π^1).
			k = -1
			v.K = k
		}
		want := ""
		if k == 0 {
			var carried bool
			want, carried = refSplitCarry(r, inLast, p)
			if carried {
				carries++
			}
		} else {
			throughPi++
			lo := refSplit(r, new(big.Rat).Mul(inLast, piPow(k)), p)
			// π^-1 to 600 places errs far below anything a split of
			// these values sees, unless they sit on a boundary.
			hi := refSplit(r, new(big.Rat).Mul(inLast, new(big.Rat).Mul(piPow(k), new(big.Rat).SetFrac(new(big.Int).Add(pow10Big(550), bigOne), pow10Big(550)))), p)
			if lo != hi {
				continue
			}
			want = lo
		}
		for _, words := range []bool{true, false} {
			var ends [MaxRadixUnits]int
			text, inexact := r.Split([]byte("prefix:"), &ends, &v, p, words)
			if !strings.HasPrefix(string(text), "prefix:") {
				t.Fatalf("Split dropped what dst held: %q", text)
			}
			got := partsText(text[len("prefix:"):], shift(ends, -len("prefix:")), r.Len())
			if got != want {
				t.Fatalf("%s·%d/%d·π^%d split in %v at %d (words %v): %s, want %s", x, num, den, k, rs, p, words, got, want)
			}
			if k != 0 && inLast.Sign() != 0 && !inexact {
				t.Fatalf("%s through π split exactly", x)
			}
			if k == 0 {
				sum := sumParts(r, got)
				if inexact != (sum.Cmp(new(big.Rat).Abs(inLast)) != 0) {
					t.Fatalf("%s split in %v at %d: %s, inexact %v", x, rs, p, got, inexact)
				}
			}
		}
		if k == 0 && r.words && x.Coeff.IsUint64() {
			eligible++
			var ends, plainEnds [MaxRadixUnits]int
			text, inexact, ok := r.SplitWords(nil, &ends, x, num, den, p)
			if !ok {
				continue
			}
			served++
			_, plainInexact := r.Split(nil, &plainEnds, &v, p, false)
			if got := partsText(text, ends, r.Len()); got != want || inexact != plainInexact {
				t.Fatalf("%s·%d/%d in %v at %d: words %s (inexact %v), want %s (inexact %v)", x, num, den, rs, p, got, inexact, want, plainInexact)
			}
		}
	}
	if throughPi < 300 || carries < 250 {
		t.Fatalf("%d splits through π and %d carries: too few to trust", throughPi, carries)
	}
	if eligible < 1000 || served < eligible/3 {
		t.Fatalf("the word path served %d of %d eligible splits", served, eligible)
	}
}

func shift(ends [MaxRadixUnits]int, by int) [MaxRadixUnits]int {
	for i := range ends {
		ends[i] += by
	}
	return ends
}

// sumParts adds parts written as "5 3.5" back up in the last unit.
func sumParts(r *Radix, text string) *big.Rat {
	sum := new(big.Rat)
	for i, f := range strings.Fields(text) {
		v, _ := new(big.Rat).SetString(f)
		sum.Add(sum, new(big.Rat).Mul(v, new(big.Rat).SetInt(r.inLast[i])))
	}
	return sum
}

// TestRadixAddPart sums random parts exactly, against big.Rat.
func TestRadixAddPart(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 9))
	for range 2000 {
		r, _ := radixOf(t, radixes[rng.IntN(len(radixes))])
		var sum apd.Decimal
		want := new(big.Rat)
		for i := range r.Len() {
			x := randomDecimal(rng)
			if err := r.AddPart(&sum, i, x); err != nil {
				t.Fatal(err)
			}
			want.Add(want, new(big.Rat).Mul(decimalRat(x), new(big.Rat).SetInt(r.inLast[i])))
		}
		if got := decimalRat(&sum); got.Cmp(want) != 0 {
			t.Fatalf("sum %s, want %s", sum.String(), want.RatString())
		}
	}
}

// TestNewRadix checks the rules of a mixed radix: largest first, each a
// whole number of the last and of the next, two to six units.
func TestNewRadix(t *testing.T) {
	tests := []struct {
		factors []string
		err     *RadixError
	}{
		{[]string{"0.0254", "0.3048"}, &RadixError{Unit: 1, Of: 0}},
		{[]string{"0.3048", "0.3048"}, &RadixError{Unit: 1, Of: 0}},
		{[]string{"1", "0.3048"}, &RadixError{Unit: 0, Of: 1, NotWhole: true}},
		{[]string{"6", "4", "1"}, &RadixError{Unit: 0, Of: 1, NotWhole: true}},
		{[]string{"pi", "1"}, &RadixError{Unit: 0, Of: 1, NotWhole: true}},
		{[]string{"12", "1"}, nil},
	}
	for _, tt := range tests {
		fs := make([]Factor, len(tt.factors))
		for i, s := range tt.factors {
			fs[i], _ = ParseFactor(s)
		}
		_, err := NewRadix(fs)
		var re *RadixError
		switch {
		case tt.err == nil && err != nil:
			t.Errorf("%v: %v", tt.factors, err)
		case tt.err != nil && (!errors.As(err, &re) || *re != *tt.err):
			t.Errorf("%v: %v, want %v", tt.factors, err, tt.err)
		}
	}
	if _, err := NewRadix([]Factor{One()}); err != ErrRadixSize {
		t.Errorf("one unit: %v", err)
	}
}

func ExampleRadix_Split() {
	ft, _ := ParseFactor("0.3048")
	in, _ := ParseFactor("0.0254")
	r, _ := NewRadix([]Factor{ft, in})
	v := NewValue(big.NewRat(719999, 10000), 0) // 71.9999 in
	for _, p := range []int{6, 3} {
		var ends [MaxRadixUnits]int
		text, inexact := r.Split(nil, &ends, &v, p, true)
		fmt.Println(string(text[:ends[0]]), "ft", string(text[ends[0]:ends[1]]), "in", inexact)
	}
	// Output:
	// 5 ft 11.9999 in false
	// 6 ft 0 in true
}
