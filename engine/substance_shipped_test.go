package engine_test

import (
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/unitd/unitd/engine"
)

// roundRat rounds r half-even to p significant digits and writes it as
// plain decimal digits with an exponent ("55507449099669..e-33"), by big
// integers alone: an account of the one rounding independent of the
// kernel.
func roundRat(r *big.Rat, p int) (digits string, exp int) {
	num, den := new(big.Int).Abs(r.Num()), new(big.Int).Set(r.Denom())
	// Scale so that num/den has exactly p digits before the point.
	ten := big.NewInt(10)
	exp = 0
	lo := new(big.Int).Exp(ten, big.NewInt(int64(p-1)), nil)
	hi := new(big.Int).Mul(lo, ten)
	for {
		q := new(big.Int).Quo(num, den)
		switch {
		case q.Cmp(lo) < 0:
			num.Mul(num, ten)
			exp--
			continue
		case q.Cmp(hi) >= 0:
			den.Mul(den, ten)
			exp++
			continue
		}
		break
	}
	q, m := new(big.Int).QuoRem(num, den, new(big.Int))
	switch c := new(big.Int).Mul(m, big.NewInt(2)).Cmp(den); {
	case c > 0, c == 0 && q.Bit(0) == 1:
		q.Add(q, big.NewInt(1))
	}
	return q.String(), exp
}

// sameDecimal reports whether the result text s is digits·10^exp.
func sameDecimal(s, digits string, exp int) bool {
	got, ok := new(big.Rat).SetString(s)
	if !ok {
		return false
	}
	want, _ := new(big.Rat).SetString(digits + "e" + fmt.Sprint(exp))
	return got.Cmp(want) == 0
}

// TestShippedSubstanceFactor: a conversion through a substance is the
// exact product of the two units' factors and the substance's value,
// rounded once, by the plain path and the accelerated one alike, the
// first time (planned) and the second (cached); and it is never exact.
func TestShippedSubstanceFactor(t *testing.T) {
	g := shipped(t)
	rat := func(s string) *big.Rat {
		r, ok := new(big.Rat).SetString(s)
		if !ok {
			t.Fatalf("bad rational %q", s)
		}
		return r
	}
	cases := []struct {
		q               engine.PropertyQuery
		value, from, to string
		// want is the exact result as a rational, from the units'
		// definitions and the substance's stated value.
		want *big.Rat
	}{
		// 100 mg/dL = 1 kg/m3; / 0.180156 kg/mol = 1/0.180156 mol/m3 = mmol/L.
		{engine.PropertyQuery{Substance: "glucose"}, "100", "mg/dL", "mmol/L", new(big.Rat).Inv(rat("0.180156"))},
		// 1 mmol/L back is 18.0156 mg/dL exactly: no rounding, still not exact.
		{engine.PropertyQuery{Substance: "glucose"}, "1", "mmol/L", "mg/dL", rat("18.0156")},
		// 1 L of a density of 0.745 kg/L is 0.745 kg.
		{engine.PropertyQuery{Density: "0.745 kg/L"}, "1", "L", "kg", rat("0.745")},
		// 2 mEq of a divalent ion are 1 mmol.
		{engine.PropertyQuery{Charge: "2"}, "2", "mEq", "mmol", rat("1")},
		// 1 ppm of CO2 (44.009 g/mol) at 298.15 K and 101325 Pa:
		// 1e-6 · M · p / (R · T) kg/m3 with M in kg/mol, which in mg/m3 is M·p/(R·T).
		{engine.PropertyQuery{Substance: "CO2", Conditions: "25 degC, 101.325 kPa"}, "1", "ppm", "mg/m3",
			new(big.Rat).Quo(new(big.Rat).Mul(rat("0.044009"), rat("101325")), new(big.Rat).Mul(new(big.Rat).Mul(rat("6.02214076e23"), rat("1.380649e-23")), rat("298.15")))},
	}
	for _, c := range cases {
		props, err := g.ResolveProperties(c.q)
		if err != nil {
			t.Fatalf("%+v: %v", c.q, err)
		}
		for _, on := range []bool{false, true} {
			restore := engine.SetOptimize(on)
			for _, p := range []int{3, 15, 34, 50} {
				digits, exp := roundRat(c.want, p)
				for pass := range 2 {
					res, err := g.Convert(engine.Request{Value: c.value, From: c.from, To: c.to, Precision: p, Properties: props})
					if err != nil {
						t.Fatalf("%+v %s %s → %s: %v", c.q, c.value, c.from, c.to, err)
					}
					if !sameDecimal(res.Value, digits, exp) || res.Exact || len(res.Used()) == 0 {
						t.Errorf("accelerated %v, pass %d: %s %s → %s (%+v) at %d = %s (exact %v, %d values used), want %se%d, not exact",
							on, pass, c.value, c.from, c.to, c.q, p, res.Value, res.Exact, len(res.Used()), digits, exp)
					}
				}
			}
			restore()
		}
	}
	// The explanation's factor is the exact one, and lists the value.
	props, _ := g.ResolveProperties(engine.PropertyQuery{Substance: "glucose"})
	res, err := g.Convert(engine.Request{Value: "1", From: "g", To: "mol", Properties: props})
	if err != nil {
		t.Fatal(err)
	}
	ex := g.Explain(&res)
	if f := rat(ex.Factor); f.Cmp(new(big.Rat).Inv(rat("180.156"))) != 0 || len(ex.Properties) != 1 || !strings.HasPrefix(ex.Properties[0].Value, "180.156 g/mol") {
		t.Errorf("explain g → mol of glucose: factor %s, values %+v; want 1/180.156 and the molar mass", ex.Factor, ex.Properties)
	}
}

// TestResolvedPropertiesAreKept: a query of explicit values resolves once
// and is kept; the kept properties convert as fresh ones do, from many
// goroutines at once; a query that fails is not kept.
func TestResolvedPropertiesAreKept(t *testing.T) {
	g := shipped(t)
	q := engine.PropertyQuery{MolarMass: "180.156 g/mol"}
	a, err := g.ResolveProperties(q)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := g.ResolveProperties(engine.PropertyQuery{MolarMass: strings.Clone("180.156 g/mol")})
	if a != b {
		t.Error("the same query resolved to two different properties")
	}
	if c, _ := g.ResolveProperties(engine.PropertyQuery{MolarMass: "180.16 g/mol"}); c == a {
		t.Error("another query found the first one's properties")
	}
	want, err := g.Convert(engine.Request{Value: "100", From: "mg/dL", To: "mmol/L", Precision: 20, Properties: a})
	if err != nil || want.Value != "5.5507449099669175603" {
		t.Fatalf("100 mg/dL at 180.156 g/mol = %s %v", want.Value, err)
	}
	done := make(chan string)
	for range 8 {
		go func() {
			var got string
			for range 200 {
				p, err := g.ResolveProperties(engine.PropertyQuery{MolarMass: "180.156 g/mol", Conditions: ""})
				if err != nil {
					got = err.Error()
					break
				}
				r, err := g.Convert(engine.Request{Value: "100", From: "mg/dL", To: "mmol/L", Precision: 20, Properties: p})
				if got = r.Value; err != nil || got != want.Value {
					break
				}
			}
			done <- got
		}()
	}
	for range 8 {
		if got := <-done; got != want.Value {
			t.Errorf("concurrently: %s, want %s", got, want.Value)
		}
	}
	for range 2 {
		if _, err := g.ResolveProperties(engine.PropertyQuery{Density: "0 kg/L"}); err == nil {
			t.Error("a density of 0 was accepted")
		}
	}
}

// TestAutoAcrossKinds: to Auto may choose a unit of another kind than the
// source (blood glucose in mg/dL is reported in mmol/L in GB); the
// conversion goes through what the usage measures (CLDR's
// milligram-ofglucose-per-deciliter: glucose), or through the request's
// own substance, and is not exact.
func TestAutoAcrossKinds(t *testing.T) {
	g := shipped(t)
	mm, err := g.ResolveProperties(engine.PropertyQuery{MolarMass: "100 g/mol"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		region     string
		props      *engine.Properties
		value      string
		unit, used string
	}{
		{"GB", nil, "5.5507", "mmol/L", "180.156 g/mol"},
		{"GB", mm, "10", "mmol/L", "100 g/mol"},
		{"US", nil, "100", "mg/dL", ""},
	} {
		for pass := range 2 {
			res, err := g.Convert(engine.Request{Value: "100", From: "mg/dL", To: engine.Auto, Usage: "blood-glucose", Region: c.region, Precision: 5, Properties: c.props})
			if err != nil {
				t.Fatalf("%s: %v", c.region, err)
			}
			used := ""
			if len(res.Used()) > 0 {
				used = res.Used()[0].Value
			}
			if res.Value != c.value || res.Unit != c.unit || used != c.used || (used != "") == res.Exact {
				t.Errorf("%s (%v), pass %d: %s %s, used %q, exact %v; want %s %s through %q", c.region, c.props != nil, pass, res.Value, res.Unit, used, res.Exact, c.value, c.unit, c.used)
			}
			if ex := g.Explain(&res); used != "" && (len(ex.Properties) == 0 || ex.Properties[0].Value != used) {
				t.Errorf("%s: explain lists %+v", c.region, ex.Properties)
			}
		}
	}
}
