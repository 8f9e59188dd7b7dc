package engine

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/cockroachdb/apd/v3"
)

// FuzzQuo128 checks the 128-bit quotient against apd's correctly rounded
// division: whenever quo128 answers, it gives apd's digits and apd's
// inexact flag.
func FuzzQuo128(f *testing.F) {
	f.Add(uint64(0), uint64(381), uint64(1250), int32(-1), false, uint8(34))
	f.Add(uint64(0), uint64(1), uint64(3), int32(0), true, uint8(50))
	f.Add(uint64(7), uint64(12345678901234567), uint64(3937), int32(-20), false, uint8(36))
	f.Add(uint64(0), uint64(25), uint64(10), int32(5), false, uint8(1))
	f.Add(uint64(0), uint64(15), uint64(10), int32(0), false, uint8(1))
	f.Add(uint64(1<<40), uint64(0), uint64(1<<58), int32(-3), true, uint8(20))
	f.Fuzz(func(t *testing.T, hi, lo, m uint64, exp int32, neg bool, p8 uint8) {
		p := 1 + int(p8)%MaxPrecision
		exp %= 1000
		var q quotient
		inexact, ok := quo128(&q, hi, lo, m, exp, neg, p)
		if !ok {
			return
		}
		num := new(big.Int).Lsh(new(big.Int).SetUint64(hi), 64)
		num.Or(num, new(big.Int).SetUint64(lo))
		var n, d, want apd.Decimal
		n.Coeff.SetMathBigInt(num)
		n.Exponent = exp
		n.Negative = neg
		d.SetFinite(int64(m), 0)
		cond, err := rounding[p].Quo(&want, &n, &d)
		if err != nil {
			t.Fatal(err)
		}
		var got apd.Decimal
		q.decimal(&got)
		if got.Cmp(&want) != 0 || inexact != cond.Inexact() {
			t.Fatalf("(%d·2^64+%d)e%d/%d at %d digits: quo128 %s (inexact %v), apd %s (inexact %v)",
				hi, lo, exp, m, p, got.String(), inexact, want.String(), cond.Inexact())
		}
	})
}

// TestRationalFormulaProperty converts random values through formula units
// made of + - * / and checks each result against big.Rat: correctly
// rounded, and exact exactly when it equals the rational value.
func TestRationalFormulaProperty(t *testing.T) {
	u := func(sym string, def DefinitionSpec) UnitSpec {
		return UnitSpec{Symbol: sym, Name: "unit " + sym, Plural: "units " + sym, System: "t", Exact: true, Source: "t", Definition: def}
	}
	g, errs := Build(Spec{Categories: []CategorySpec{{ID: "x", Name: "X", Base: "b", Units: []UnitSpec{
		u("b", DefinitionSpec{}),
		u("c", DefinitionSpec{Unit: "b", Factor: "1/3"}),
		u("f", DefinitionSpec{Unit: "b", To: "(x - 32) * 5 / 9", From: "x * 9 / 5 + 32"}),
		u("r", DefinitionSpec{Unit: "c", To: "100 / (x + 1)", From: "100 / x - 1"}),
		u("n", DefinitionSpec{Unit: "b", To: "-x + 0.25", From: "0.25 - x"}),
	}}}})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, sym := range []string{"f", "r", "n"} {
		if un, _ := g.Lookup(sym); un.conv.formula == nil || !un.conv.formula.rational {
			t.Fatalf("%s is not a rational formula unit", sym)
		}
	}
	rat := func(s string) *big.Rat { r, _ := new(big.Rat).SetString(s); return r }
	// toBase and fromBase mirror the definitions above in big.Rat.
	toBase := map[string]func(x *big.Rat) *big.Rat{
		"b": func(x *big.Rat) *big.Rat { return x },
		"c": func(x *big.Rat) *big.Rat { return new(big.Rat).Quo(x, rat("3")) },
		"f": func(x *big.Rat) *big.Rat {
			y := new(big.Rat).Sub(x, rat("32"))
			return y.Mul(y, rat("5/9"))
		},
		"r": func(x *big.Rat) *big.Rat {
			y := new(big.Rat).Add(x, rat("1"))
			if y.Sign() == 0 {
				return nil
			}
			return y.Quo(rat("100"), y).Quo(y, rat("3"))
		},
		"n": func(x *big.Rat) *big.Rat { return new(big.Rat).Add(new(big.Rat).Neg(x), rat("0.25")) },
	}
	fromBase := map[string]func(y *big.Rat) *big.Rat{
		"b": func(y *big.Rat) *big.Rat { return y },
		"c": func(y *big.Rat) *big.Rat { return new(big.Rat).Mul(y, rat("3")) },
		"f": func(y *big.Rat) *big.Rat {
			x := new(big.Rat).Mul(y, rat("9/5"))
			return x.Add(x, rat("32"))
		},
		"r": func(y *big.Rat) *big.Rat {
			c := new(big.Rat).Mul(y, rat("3"))
			if c.Sign() == 0 {
				return nil
			}
			return c.Quo(rat("100"), c).Sub(c, rat("1"))
		},
		"n": func(y *big.Rat) *big.Rat { return new(big.Rat).Sub(rat("0.25"), y) },
	}
	syms := []string{"b", "c", "f", "r", "n"}
	values := []string{"0", "1", "-1", "32", "-40", "2.5", "0.1", "1e-9", "123456789.123", "-0.333", "7e20", "99", "18446744073709551615"}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 4000 {
		from, to := syms[rng.IntN(len(syms))], syms[rng.IntN(len(syms))]
		v := values[rng.IntN(len(values))]
		p := 1 + rng.IntN(MaxPrecision)
		name := fmt.Sprintf("%s %s → %s (p=%d)", v, from, to, p)
		var want *big.Rat
		if base := toBase[from](rat(v)); base != nil {
			want = fromBase[to](base)
		}
		r, err := g.Convert(Request{Value: v, From: from, To: to, Precision: p})
		if want == nil {
			if e, ok := err.(*Error); !ok || e.Code != CodeValueOutOfRange {
				t.Fatalf("%s: err = %v, want VALUE_OUT_OF_RANGE (division by zero)", name, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if rounded := roundRat(want, p); rounded != r.Value {
			t.Fatalf("%s = %s, correctly rounded is %s", name, r.Value, rounded)
		}
		got := rat(r.Value)
		if r.Exact != (got.Cmp(want) == 0) {
			t.Fatalf("%s = %s exact=%v, but the exact value is %s", name, r.Value, r.Exact, want.FloatString(40))
		}
	}
}

// TestRoundWords checks the word-sized rounding against apd's over random
// coefficients of up to three words, every precision it serves, and the
// carries and ties at the edges.
func TestRoundWords(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 21))
	coeffs := []string{
		"0", "5", "15", "25", "995", "9999999999999999999999999999999999999999999",
		"123450000000000000000000000000000000000000000000", "6277101735386680763835789423207666416102355444464034512895",
		"99999999999999999999999999999999999950000000000", "1000000000000000000000000000000000000000000000000000000000",
	}
	for range 3000 {
		n := 1 + r.IntN(57)
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('0' + r.IntN(10))
		}
		if r.IntN(4) == 0 { // ties and near-ties
			for i := n / 2; i < n; i++ {
				b[i] = '0'
			}
			if n > 1 {
				b[n/2] = '5'
			}
		}
		coeffs = append(coeffs, string(b))
	}
	var checked int
	for i, c := range coeffs {
		var d apd.Decimal
		if _, ok := d.Coeff.SetString(c, 10); !ok {
			t.Fatal(c)
		}
		d.Exponent = int32(r.IntN(80) - 40)
		d.Negative = i%3 == 0
		for _, p := range []int{1, 2, 15, 16, 17, 33, 34, 35, 36, 1 + r.IntN(maxFastPrecision)} {
			var q quotient
			inexact, ok := roundWords(&q, &d, p)
			if !ok {
				if d.Coeff.BitLen() <= 192 {
					t.Fatalf("roundWords(%s, %d) declined a coefficient of three words", &d, p)
				}
				continue
			}
			checked++
			var want apd.Decimal
			cond, err := rounding[p].Round(&want, &d)
			if err != nil {
				t.Fatal(err)
			}
			var got apd.Decimal
			q.decimal(&got)
			if FormatDecimal(&got) != FormatDecimal(&want) || inexact != cond.Inexact() {
				t.Fatalf("roundWords(%s, %d) = %s (inexact %v), want %s (inexact %v)", &d, p, &got, inexact, &want, cond.Inexact())
			}
		}
	}
	if checked < len(coeffs)*5 {
		t.Errorf("checked only %d roundings", checked)
	}
}

// TestAcceleratorsMatchPlain converts every pair of units of a category,
// through the graph as served (pair cache, word-sized paths, π in words,
// composite rational maps), at random values of every shape (signs,
// exponents above and below zero, long coefficients) and precisions, and
// compares each answer or error with the plain path's.
func TestAcceleratorsMatchPlain(t *testing.T) {
	g, errs := Build(rationalSpec())
	if errs != nil {
		t.Fatal(errs)
	}
	r := rand.New(rand.NewPCG(43, 47))
	value := func() string {
		digits := make([]byte, 1+r.IntN(22))
		for i := range digits {
			digits[i] = byte('0' + r.IntN(10))
		}
		s := string(digits)
		if r.IntN(2) == 0 && len(s) > 1 {
			cut := 1 + r.IntN(len(s)-1)
			s = s[:cut] + "." + s[cut:]
		}
		if r.IntN(3) == 0 {
			s += "e" + strconv.Itoa(r.IntN(40)-20)
		}
		if r.IntN(3) == 0 {
			s = "-" + s
		}
		return s
	}
	compared := 0
	for _, c := range g.Categories() {
		for _, from := range c.Units {
			for _, to := range c.Units {
				for range 40 {
					req := Request{Value: value(), From: from.Symbol, To: to.Symbol, Precision: 1 + r.IntN(MaxPrecision)}
					fast := withOptimize(true, func() string { r, err := g.Convert(req); return fmt.Sprint(r.Value, r.Exact, err) })
					plain := withOptimize(false, func() string { r, err := g.Convert(req); return fmt.Sprint(r.Value, r.Exact, err) })
					if fast != plain {
						t.Errorf("%s %s → %s at %d: %s; plain path %s", req.Value, req.From, req.To, req.Precision, fast, plain)
					}
					compared++
				}
			}
		}
	}
	if compared < 10000 {
		t.Errorf("compared only %d conversions", compared)
	}
}
