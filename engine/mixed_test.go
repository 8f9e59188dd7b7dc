package engine

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine/internal/cache"
	"github.com/unitd/unitd/engine/internal/paircache"
	"github.com/unitd/unitd/engine/mixed"
)

func TestMixedTarget(t *testing.T) {
	g := prefGraph(t)
	tests := []struct {
		name, value, from, to string
		p                     int
		want                  string // parts as "5 ft 3.5 in"
		exact                 bool
	}{
		{"feet and inches", "1.6129", "m", "ft+in", 0, "5 ft 3.5 in", true},
		{"last part rounds up to a whole foot", "5.99999166666", "ft", "ft+in", 3, "6 ft 0 in", false},
		{"5 ft 11.9999 in at 3 digits", "5 11.9999", "ft+in", "ft+in", 3, "6 ft 0 in", false},
		{"5 ft 11.9999 in at 6 digits", "5 11.9999", "ft+in", "ft+in", 6, "5 ft 11.9999 in", true},
		{"5 ft 11.9999 in at 5 digits", "5 11.9999", "ft+in", "ft+in", 5, "6 ft 0 in", false},
		{"carries cascade", "7199.9999", "s", "h+min+s", 3, "2 h 0 min 0 s", false},
		{"no carry below the step", "7199.9", "s", "h+min+s", 5, "1 h 59 min 59.9 s", true},
		{"zero", "0", "m", "ft+in", 0, "0 ft 0 in", true},
		{"negative zero", "-0", "m", "ft+in", 0, "0 ft 0 in", true},
		{"negative: sign on the first part", "-1.6129", "m", "ft+in", 0, "-5 ft 3.5 in", true},
		{"negative below one foot: sign on the inches", "-0.0889", "m", "ft+in", 0, "0 ft -3.5 in", true},
		{"negative carrying into the first part", "-11.9999", "in", "ft+in", 3, "-1 ft 0 in", false},
		{"three parts, middle zero", "3601", "s", "h+min+s", 0, "1 h 0 min 1 s", true},
		{"very large", "1e30", "ft", "ft+in", 0, "1e+30 ft 0 in", true},
		{"very large, not whole", "1e30", "in", "ft+in", 0, "8.3333333333333333333333333333e+28 ft 4 in", true},
		{"very small", "1e-30", "m", "ft+in", 5, "0 ft 3.937e-29 in", false},
		{"precision 1", "1.6129", "m", "ft+in", 1, "5 ft 4 in", false},
		{"a third", "1", "yd", "ft+in", 0, "3 ft 0 in", true},
		{"repeating last part", "1", "m", "ft+in", 10, "3 ft 3.37007874 in", false},
		{"stone and pounds", "70", "kg", "st+lb", 4, "11 st 0.3236 lb", false},
		{"pounds and ounces", "1", "kg", "lb+oz", 5, "2 lb 3.274 oz", false},
		{"degrees through pi", "1", "rad", "deg+arcmin+arcsec", 5, "57 deg 17 arcmin 44.806 arcsec", false},
		{"degrees without pi", "1.5", "deg", "deg+arcmin+arcsec", 0, "1 deg 30 arcmin 0 arcsec", true},
		{"CLDR identifier", "1.6129", "m", "foot-and-inch", 0, "5 ft 3.5 in", true},
		{"CLDR identifier with prefix", "1.6129", "m", "cldr:foot-and-inch", 0, "5 ft 3.5 in", true},
		{"spaces around parts", "1.6129", "m", " ft + in ", 0, "5 ft 3.5 in", true},
		{"mixed to mixed", "1 2 3", "h+min+s", "min+s", 0, "62 min 3 s", true},
		{"mixed to one unit", "5 3.5", "ft+in", "cm", 0, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := g.Convert(Request{Value: tt.value, From: tt.from, To: tt.to, Precision: tt.p})
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == "" {
				if len(res.Parts()) > 0 || res.Value != "161.29" {
					t.Fatalf("got %q %v", res.Value, res.Parts())
				}
				return
			}
			got := PartsText(res.Parts())
			if got != tt.want || res.Exact != tt.exact || res.Value != "" {
				t.Fatalf("got %q exact=%v value=%q, want %q exact=%v", got, res.Exact, res.Value, tt.want, tt.exact)
			}
			if want := strings.ReplaceAll(strings.Join(symbols(res.Parts()), "+"), " ", ""); res.Unit != want {
				t.Fatalf("unit %s, want %s", res.Unit, want)
			}
		})
	}
}

func symbols(parts []Part) []string {
	var s []string
	for _, p := range parts {
		s = append(s, p.Unit.Symbol)
	}
	return s
}

func TestMixedErrors(t *testing.T) {
	g := prefGraph(t)
	tests := []struct {
		name, value, from, to string
		code                  Code
		says                  string
	}{
		{"parts of different kinds", "1", "m", "ft+lb", CodeIncompatibleUnits, "different kinds"},
		{"source parts of different kinds", "1 1", "ft+lb", "m", CodeIncompatibleUnits, "different kinds"},
		{"not a whole number of the next", "1", "m", "m+ft", CodeInvalidUnitExpression, "whole number"},
		{"smallest first", "1", "m", "in+ft", CodeInvalidUnitExpression, "largest to the smallest"},
		{"same part twice", "1", "m", "ft+ft", CodeInvalidUnitExpression, "largest to the smallest"},
		{"an affine part", "1", "K", "K+degC", CodeInvalidUnitExpression, "not a linear unit"},
		{"an expression as a part", "1", "m2", "ft*ft+in*in", CodeInvalidUnitExpression, "not a catalog unit"},
		{"an empty part", "1", "m", "ft+", CodeInvalidUnitExpression, "empty"},
		{"one part", "1", "m", "cldr:foot-and-", CodeInvalidUnitExpression, "empty"},
		{"too many parts", "1", "s", "h+min+s+h+min+s+h", CodeInvalidUnitExpression, "at most 6"},
		{"unknown part", "1", "m", "ft+furlong", CodeUnknownUnit, "furlong"},
		{"incompatible source", "1", "kg", "ft+in", CodeIncompatibleUnits, ""},
		{"one value for two parts", "5", "ft+in", "cm", CodeInvalidValue, "one value per part"},
		{"three values for two parts", "5 3 1", "ft+in", "cm", CodeInvalidValue, "one value per part"},
		{"a bad value", "5 x", "ft+in", "cm", CodeInvalidValue, "part 2 of ft+in"},
		{"sign on a later part", "5 -3", "ft+in", "cm", CodeInvalidValue, "first part that is not zero"},
		{"sign on a zero part", "-0 3", "ft+in", "cm", CodeInvalidValue, "first part that is not zero"},
		{"value too long", strings.Repeat("1", 300), "ft+in", "cm", CodeInvalidValue, "longer than"},
		{"level to parts", "1", "dBm", "W+mW", CodeInvalidUnitExpression, "cannot be split"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := g.Convert(Request{Value: tt.value, From: tt.from, To: tt.to})
			e, ok := err.(*Error)
			if !ok || e.Code != tt.code || !strings.Contains(e.Message, tt.says) {
				t.Fatalf("got %v, want %s saying %q", err, tt.code, tt.says)
			}
		})
	}
}

// TestMixedSource checks that a value per part is summed exactly.
func TestMixedSource(t *testing.T) {
	g := prefGraph(t)
	tests := []struct{ value, from, to, want string }{
		{"5 3.5", "ft+in", "in", "63.5"},
		{"-5 3.5", "ft+in", "in", "-63.5"},
		{"0 -3.5", "ft+in", "in", "-3.5"},
		{"+5 0", "ft+in", "in", "60"},
		{"1e2 1e-2", "ft+in", "in", "1200.01"},
		{"11 4", "st+lb", "kg", "71.66759446"},
		{"1 30 0", "h+min+s", "min", "90"},
		{"0 0", "ft+in", "m", "0"},
		{"5    3.5", "ft+in", "in", "63.5"},
	}
	for _, tt := range tests {
		res, err := g.Convert(Request{Value: tt.value, From: tt.from, To: tt.to})
		if err != nil || res.Value != tt.want {
			t.Errorf("%s %s → %s: %q %v, want %s", tt.value, tt.from, tt.to, res.Value, err, tt.want)
		}
	}
}

// TestMixedSplitProperty checks random values at every precision: each
// part but the last is a whole number, the last is below one unit of the
// part before it and has at most p significant digits, and the parts add
// up to the exact value within the rounding of the last part (half a unit
// in its last place, or, after a carry, the whole last place).
func TestMixedSplitProperty(t *testing.T) {
	g := prefGraph(t)
	rng := rand.New(rand.NewPCG(26, 3))
	m, err := g.resolveMixed("h+min+s")
	if err != nil {
		t.Fatal(err)
	}
	for p := 1; p <= MaxPrecision; p++ {
		for range 20 {
			// A value in seconds with up to 12 digits and 0 to 8 decimals.
			whole := rng.Int64N(1_000_000_000_000)
			dec := rng.IntN(9)
			value := fmt.Sprintf("%d", whole)
			if dec > 0 {
				value = fmt.Sprintf("%s.%0*d", value, dec, rng.Int64N(tenPow64(dec)))
			}
			res, err := g.Convert(Request{Value: value, From: "s", To: "h+min+s", Precision: p})
			if err != nil {
				t.Fatal(err)
			}
			exact, _ := new(big.Rat).SetString(value)
			sum := new(big.Rat)
			for i, part := range res.Parts() {
				v, ok := new(big.Rat).SetString(part.Value)
				if !ok || v.Sign() < 0 {
					t.Fatalf("%s s at %d: part %q", value, p, part.Value)
				}
				if i < len(res.Parts())-1 && !v.IsInt() {
					t.Fatalf("%s s at %d: part %d is %s, not whole", value, p, i, part.Value)
				}
				if i > 0 && v.Cmp(new(big.Rat).Quo(perLast(m, i-1), perLast(m, i))) >= 0 {
					t.Fatalf("%s s at %d: part %d is %s, a whole %s or more", value, p, i, part.Value, m.parts[i-1].Symbol)
				}
				sum.Add(sum, new(big.Rat).Mul(v, perLast(m, i)))
			}
			last := res.Parts()[len(res.Parts())-1].Value
			var d apd.Decimal
			if _, _, err := d.SetString(last); err != nil {
				t.Fatal(err)
			}
			d.Reduce(&d)
			if d.NumDigits() > int64(p) {
				t.Fatalf("%s s at %d: last part %s has more than %d digits", value, p, last, p)
			}
			diff := new(big.Rat).Sub(sum, exact)
			diff.Abs(diff)
			// The rest rounded to p digits errs by at most half a unit in
			// the p-th digit of the rest (below 60 s): 60·10^(2-p) bounds
			// it generously; a carry errs by at most that as well.
			bound := new(big.Rat).SetFrac(big.NewInt(60), big.NewInt(1))
			bound.Mul(bound, ratPow10(2-p))
			if diff.Cmp(bound) > 0 {
				t.Fatalf("%s s at %d: parts %s sum to %s", value, p, PartsText(res.Parts()), sum.FloatString(20))
			}
			if res.Exact && diff.Sign() != 0 {
				t.Fatalf("%s s at %d: exact but off by %s", value, p, diff.RatString())
			}
		}
	}
}

// perLast is part i of m in units of the last.
func perLast(m *mixedUnit, i int) *big.Rat {
	r, _ := new(big.Rat).SetString(m.PerLast(i))
	return r
}

func tenPow64(n int) int64 {
	r := int64(1)
	for range n {
		r *= 10
	}
	return r
}

func ratPow10(n int) *big.Rat {
	r := big.NewRat(1, 1)
	ten := big.NewRat(10, 1)
	if n < 0 {
		ten = big.NewRat(1, 10)
		n = -n
	}
	for range n {
		r.Mul(r, ten)
	}
	return r
}

// TestSplitWordsMatchesSplit checks the word accelerator of mixed results
// against the plain split on random values, units and precisions.
func TestSplitWordsMatchesSplit(t *testing.T) {
	g := prefGraph(t)
	rng := rand.New(rand.NewPCG(26, 1))
	cases := []struct{ from, to string }{
		{"m", "ft+in"}, {"in", "ft+in"}, {"s", "h+min+s"}, {"h", "h+min+s"}, {"kg", "st+lb"}, {"g", "lb+oz"}, {"km", "mi+yd+ft+in"}, {"cm", "m+cm"},
	}
	served := 0
	for range 3000 {
		c := cases[rng.IntN(len(cases))]
		m, err := g.resolveMixed(c.to)
		if err != nil {
			t.Fatal(err)
		}
		src, err := g.mixedPairOf(c.from, c.to, m)
		if err != nil {
			t.Fatal(err)
		}
		pe := src.pe
		if !src.words {
			t.Fatalf("%s → %s has no word factor", c.from, c.to)
		}
		var x apd.Decimal
		x.Coeff.SetUint64(rng.Uint64() >> uint(rng.IntN(64)))
		x.Exponent = int32(rng.IntN(30) - 20)
		x.Negative = rng.IntN(3) == 0
		p := rng.IntN(MaxPrecision) + 1
		var fast, plain mixed.Parts
		fastInexact, ok := m.SplitWords(&fast, &x, src.num, src.den, p)
		if !ok {
			continue
		}
		served++
		v, err := pe.Plan.ValueAt(&x)
		if err != nil {
			t.Fatal(err)
		}
		plainInexact := m.Split(&plain, &v, p, false)
		if fast.String(m.Unit) != plain.String(m.Unit) || fastInexact != plainInexact {
			t.Fatalf("%s %s → %s at %d: words %s (inexact %v), plain %s (inexact %v)", x.String(), c.from, c.to, p,
				fast.String(m.Unit), fastInexact, plain.String(m.Unit), plainInexact)
		}
	}
	if served < 1000 {
		t.Fatalf("the word path served only %d of 3000", served)
	}
}

// TestMixedCaches checks the caches of mixed units against names a
// request can make up: names that differ only in white space are one
// mixed unit, and conversions to mixed units are kept in a table of fixed
// size, however many sources and mixed units requests name.
func TestMixedCaches(t *testing.T) {
	g := prefGraph(t)
	a, err := g.resolveMixed("ft+in")
	if err != nil {
		t.Fatal(err)
	}
	for _, variant := range []string{" ft+in", "ft + in", "\tft+in\t"} {
		if b, err := g.resolveMixed(variant); err != nil || b != a {
			t.Fatalf("%q resolves apart from ft+in (%v)", variant, err)
		}
	}
	// Resolved mixed units count against the caches' memory budget.
	budget := cache.NewBudget(16 << 10)
	g.mixed = mixedCache{m: cache.New[string, *mixedUnit](budget)}
	seen := 0
	for _, big := range []string{"mi", "yd", "ft", "fur", "ch"} {
		for _, small := range []string{"in", "ft", "yd", "cm", "mm", "m"} {
			for sp := range 8 {
				name := big + strings.Repeat(" ", sp) + "+" + small
				if _, err := g.resolveMixed(name); err == nil {
					seen++
				}
				if used := budget.Used(); used > budget.Limit() {
					t.Fatalf("after %s the mixed units cached hold %d bytes, more than the budget %d", name, used, budget.Limit())
				}
			}
		}
	}
	if seen == 0 || budget.Used() == 0 {
		t.Fatalf("%d mixed units resolved, %d bytes cached", seen, budget.Used())
	}
	targets := []string{"ft+in", "yd+ft+in", "mi+yd", "m+cm", " ft + in "}
	units := []string{"m", "km", "cm", "ft", "in", "yd"}
	n := 0
	for _, u1 := range units {
		for _, u2 := range units {
			for _, u3 := range units {
				for _, u4 := range units {
					from := u1 + "*" + u2 + "/" + u3 + "*" + u4 + "/m"
					to := targets[n%len(targets)]
					res, err := g.Convert(Request{Value: "1.5", From: from, To: to})
					if err != nil || len(res.Parts()) < 2 {
						t.Fatalf("%s → %s: %v %v", from, to, res.Parts(), err)
					}
					n++
				}
			}
		}
	}
	kept := 0
	for i := range g.mixedPairs.sets {
		for j := range g.mixedPairs.sets[i] {
			if g.mixedPairs.sets[i][j].Load() != nil {
				kept++
			}
		}
	}
	if max := paircache.Sets * paircache.Ways; kept > max || optimize && (n <= max || kept < max/2) || !optimize && kept != 0 {
		t.Fatalf("%d conversions to mixed units, %d kept (the table holds %d)", n, kept, max)
	}
}

// TestReadableConcurrent converts to auto and to mixed units from several
// goroutines at once, adding to the caches of decisions, parsed locales,
// mixed units and their sources while others read them: every answer is
// the one a lone conversion gives.
func TestReadableConcurrent(t *testing.T) {
	g := prefGraph(t)
	var reqs []Request
	for i, from := range []string{"m", "km", "ft", "in", "yd", "cm", "mi"} {
		for j, to := range []string{"ft+in", "yd+ft+in", "m+cm", " ft + in", Auto} {
			for k, region := range []string{"", "US", "GB", "SE", "419", "NO"} {
				reqs = append(reqs, Request{Value: fmt.Sprint(i*7+j*3+k, ".25"), From: from, To: to, Usage: "road", Region: region, Precision: 5 + k})
			}
		}
	}
	want := make([]string, len(reqs))
	for i, r := range reqs {
		res, err := g.Convert(r)
		want[i] = fmt.Sprint(res.Unit, PartsText(res.Parts()), res.Value, res.Exact, err)
	}
	errs := make(chan string, 4)
	for w := range 4 {
		go func() {
			for round := range 10 {
				for i := range reqs {
					i := (i*(w+1) + round) % len(reqs)
					res, err := g.Convert(reqs[i])
					if got := fmt.Sprint(res.Unit, PartsText(res.Parts()), res.Value, res.Exact, err); got != want[i] {
						errs <- fmt.Sprintf("%+v: %s, want %s", reqs[i], got, want[i])
						return
					}
				}
				// New names for the caches: a fresh source and locale.
				from := fmt.Sprintf("m*s^%d/s^%d", 1+(w+round)%9, 1+(w+round)%9)
				if _, err := g.Convert(Request{Value: "1.5", From: from, To: "ft+in"}); err != nil {
					errs <- err.Error()
					return
				}
				if _, err := g.Convert(Request{Value: "1.5", From: from, To: Auto, Usage: "road", Locale: fmt.Sprintf("en-GB-x-r%d", w*10+round)}); err != nil {
					errs <- err.Error()
					return
				}
			}
			errs <- ""
		}()
	}
	for range 4 {
		if e := <-errs; e != "" {
			t.Error(e)
		}
	}
}
