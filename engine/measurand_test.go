package engine_test

import (
	"math/big"
	"strings"
	"sync"
	"testing"

	"github.com/unitd/unitd/catalog"
	"github.com/unitd/unitd/engine"
)

// TestShippedMeasurandEquations: with HbA1c named, its units convert by
// the published equations, composed with the units' factors into one
// exact map and rounded once, by the plain path and the accelerated one,
// planned and cached alike; never exact, since the equations were fitted.
func TestShippedMeasurandEquations(t *testing.T) {
	g := shipped(t)
	rat := func(s string) *big.Rat {
		r, ok := new(big.Rat).SetString(s)
		if !ok {
			t.Fatalf("bad rational %q", s)
		}
		return r
	}
	ngspToIFCC := func(x string) *big.Rat { // (x − 2.152) / 0.09148
		r := new(big.Rat).Sub(rat(x), rat("2.152"))
		return r.Quo(r, rat("0.09148"))
	}
	ngspToEAG := func(x *big.Rat) *big.Rat { // 28.7 x − 46.7, mg/dL
		r := new(big.Rat).Mul(rat("28.7"), x)
		return r.Sub(r, rat("46.7"))
	}
	// mg/dL of glucose to mmol/L: ×10 g/L per mg/dL… / 180.156 g/mol.
	toMmolL := func(mgdl *big.Rat) *big.Rat { return new(big.Rat).Quo(mgdl, rat("18.0156")) }
	ifccToNGSP := func(x string) *big.Rat { // 0.09148 x + 2.152
		r := new(big.Rat).Mul(rat("0.09148"), rat(x))
		return r.Add(r, rat("2.152"))
	}
	cases := []struct {
		name            string
		value, from, to string
		want            *big.Rat
		equations       []string
	}{
		{"HbA1c", "7", "%", "mmol/mol", ngspToIFCC("7"), []string{"IFCC–NGSP master equation"}},
		{"A1C", "53", "mmol/mol", "%", ifccToNGSP("53"), []string{"IFCC–NGSP master equation"}},
		{"hba1c", "7", "%", "mg/dL", ngspToEAG(rat("7")), []string{"ADAG equation"}},
		{"hba1c", "7", "%", "mmol/L", toMmolL(ngspToEAG(rat("7"))), []string{"ADAG equation"}},
		{"hba1c", "7", "%", "g/L", new(big.Rat).Quo(ngspToEAG(rat("7")), rat("100")), []string{"ADAG equation"}},
		{"hba1c", "53", "mmol/mol", "mmol/L", toMmolL(ngspToEAG(ifccToNGSP("53"))), []string{"IFCC–NGSP master equation", "ADAG equation"}},
		// A unit of a dimensionless scale by its code, and a ratio of it.
		{"hba1c", "7", "ucum:%", "ucum:mmol/mol", ngspToIFCC("7"), []string{"IFCC–NGSP master equation"}},
		{"hba1c", "0.07", "ratio", "mmol/mol", nil, nil},
		// Both units in one scale: by factors (eAG through glucose).
		{"hba1c", "154.2", "mg/dL", "mmol/L", toMmolL(rat("154.2")), nil},
	}
	for _, c := range cases {
		props, err := g.ResolveProperties(engine.PropertyQuery{Substance: c.name})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, on := range []bool{false, true} {
			restore := engine.SetOptimize(on)
			for _, p := range []int{2, 15, 34} {
				for pass := range 2 {
					res, err := g.Convert(engine.Request{Value: c.value, From: c.from, To: c.to, Precision: p, Properties: props})
					if c.want == nil {
						// 0.07 is no unit of a scale: the plain ratio.
						if err != nil || res.Value != "70" || len(res.Equations()) > 0 || !res.Exact {
							t.Errorf("%s → %s: %+v, %v; want the plain 70", c.from, c.to, res, err)
						}
						continue
					}
					if err != nil {
						t.Fatalf("%s: %s %s → %s: %v", c.name, c.value, c.from, c.to, err)
					}
					digits, exp := roundRat(c.want, p)
					var names []string
					for _, st := range res.Equations() {
						names = append(names, st.Equation.Name)
					}
					if !sameDecimal(res.Value, digits, exp) || res.Exact || strings.Join(names, ",") != strings.Join(c.equations, ",") || res.Hint() != "" {
						t.Errorf("accelerated %v, pass %d: %s %s %s → %s at %d = %s (exact %v, equations %v, hint %q), want %se%d by %v",
							on, pass, c.name, c.value, c.from, c.to, p, res.Value, res.Exact, names, res.Hint(), digits, exp, c.equations)
					}
				}
			}
			restore()
		}
	}
}

// TestMeasurandExplain: the explanation of a conversion through the
// equations is affine, its factor and offset those of the whole exact map,
// and it lists the equations with their sources and the glucose molar mass
// that took eAG to mmol/L. The ADAG paper's own mmol/L equation, 1.59 ×
// A1C − 2.59, is that map to its printed digits.
func TestMeasurandExplain(t *testing.T) {
	g := shipped(t)
	props, err := g.ResolveProperties(engine.PropertyQuery{Substance: "HbA1c"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := g.Convert(engine.Request{Value: "7", From: "%", To: "mmol/L", Properties: props})
	if err != nil {
		t.Fatal(err)
	}
	ex := g.Explain(&res)
	if ex.Kind != "affine" || len(ex.Equations) != 1 || ex.Equations[0].Equation.Name != "ADAG equation" || !strings.Contains(ex.Equations[0].Equation.Source, "Diabetes Care 2008;31:1473–1478") ||
		ex.Equations[0].Equation.Exact || len(ex.Properties) != 1 || ex.Properties[0].Name != "molar_mass" || ex.Properties[0].Value != "180.156 g/mol" {
		t.Fatalf("explain 7 %% → mmol/L: %+v", ex)
	}
	var units []string
	for _, s := range ex.Steps {
		units = append(units, s.Unit)
	}
	if !strings.Contains(strings.Join(units, " "), "% ratio mg/dL") {
		t.Errorf("steps %v do not go through mg/dL, the unit of the equation", units)
	}
	f, ok1 := new(big.Rat).SetString(ex.Factor)
	o, ok2 := new(big.Rat).SetString(ex.Offset)
	if !ok1 || !ok2 {
		t.Fatalf("factor %q, offset %q", ex.Factor, ex.Offset)
	}
	if f3, o3 := f.FloatString(2), o.FloatString(2); f3 != "1.59" || o3 != "-2.59" {
		t.Errorf("eAG (mmol/L) = %s × A1C + %s, the paper prints 1.59 and −2.59", f3, o3)
	}
	// And the inverse of the master equation, with its two coefficients.
	res, _ = g.Convert(engine.Request{Value: "7", From: "%", To: "mmol/mol", Properties: props})
	ex = g.Explain(&res)
	if ex.Factor != "25000/2287" || ex.Offset != "-53800/2287" || len(ex.Equations) != 1 || !ex.Equations[0].Inverse || len(ex.Properties) != 0 {
		t.Errorf("explain 7 %% → mmol/mol: factor %s offset %s, %+v", ex.Factor, ex.Offset, ex.Equations)
	}
}

// TestMeasurandHint: without the measurand, % → mmol/mol is the plain
// ratio, exact, and carries a hint naming HbA1c; other conversions carry
// none, and a failed one is not changed.
func TestMeasurandHint(t *testing.T) {
	g := shipped(t)
	glucose, _ := g.ResolveProperties(engine.PropertyQuery{Substance: "glucose"})
	for _, c := range []struct {
		from, to string
		props    *engine.Properties
		hint     bool
	}{
		{"%", "mmol/mol", nil, true},
		{"mmol/mol", "%", nil, true},
		{"percent", "mmol/mol", glucose, true},
		{"ucum:%", "ucum:mmol/mol", nil, true},
		{"%", "ratio", nil, false},
		{"‰", "mmol/mol", nil, false},
		{"%", "ppm", nil, false},
		{"mg/dL", "mmol/L", glucose, false},
		{"ft", "m", nil, false},
	} {
		for _, on := range []bool{false, true} {
			restore := engine.SetOptimize(on)
			for range 2 {
				res, err := g.Convert(engine.Request{Value: "7", From: c.from, To: c.to, Properties: c.props})
				if err != nil {
					t.Fatalf("%s → %s: %v", c.from, c.to, err)
				}
				if has := strings.Contains(res.Hint(), "hemoglobin A1c (substance \"hba1c\")") && strings.Contains(res.Hint(), "IFCC–NGSP master equation"); has != c.hint || !c.hint && res.Hint() != "" {
					t.Errorf("%s → %s: hint %q", c.from, c.to, res.Hint())
				}
				if c.hint && (!res.Exact || len(res.Equations()) > 0) {
					t.Errorf("%s → %s without the measurand: %+v", c.from, c.to, res)
				}
				// AppendConvert answers alike, into a reused result that
				// held a hint.
				var r engine.Result
				if _, err := g.AppendConvert(nil, &engine.Request{Value: "7", From: "%", To: "mmol/mol"}, &r); err != nil || r.Hint() == "" {
					t.Fatalf("AppendConvert %% → mmol/mol: hint %q, %v", r.Hint(), err)
				}
				if _, err := g.AppendConvert(nil, &engine.Request{Value: "7", From: c.from, To: c.to, Properties: c.props}, &r); err != nil || r.Hint() != res.Hint() {
					t.Errorf("AppendConvert %s → %s: hint %q, %v", c.from, c.to, r.Hint(), err)
				}
			}
			restore()
		}
	}
}

// TestMeasurandOtherPairs: with the measurand named, a pair none of its
// scales holds converts as it would without it, or says what it lacks.
func TestMeasurandOtherPairs(t *testing.T) {
	g := shipped(t)
	props, _ := g.ResolveProperties(engine.PropertyQuery{Substance: "A1C"})
	if res, err := g.Convert(engine.Request{Value: "1", From: "ft", To: "m", Properties: props}); err != nil || res.Value != "0.3048" || !res.Exact {
		t.Errorf("ft → m with HbA1c: %+v, %v", res, err)
	}
	_, err := g.Convert(engine.Request{Value: "1", From: "g", To: "mol", Properties: props})
	if e, ok := err.(*engine.Error); !ok || e.Code != engine.CodeIncompatibleUnits || len(e.Needs) == 0 || e.Needs[0] != "molar_mass" {
		t.Errorf("g → mol with HbA1c: %v", err)
	}
	// Explicit values beside the measurand convert its other pairs, and
	// explain them as such.
	withMass, err := g.ResolveProperties(engine.PropertyQuery{Substance: "HbA1c", MolarMass: "180 g/mol"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := g.Convert(engine.Request{Value: "360", From: "g", To: "mol", Properties: withMass})
	if err != nil || res.Value != "2" {
		t.Fatalf("360 g → mol at 180 g/mol with HbA1c: %+v, %v", res, err)
	}
	if ex := g.Explain(&res); ex.Factor != "1/180" || len(ex.Properties) != 1 || len(ex.Equations) != 0 {
		t.Errorf("explain g → mol with HbA1c and a molar mass: %+v", ex)
	}
	// Hemoglobin is counted by the monomer unless the tetramer is named.
	for name, want := range map[string]string{"hemoglobin": "0.6206", "Hb": "0.6206", "haemoglobin": "0.6206", "hemoglobin-tetramer": "0.1551", "Hb4": "0.1551"} {
		props, err := g.ResolveProperties(engine.PropertyQuery{Substance: name})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if res, err := g.Convert(engine.Request{Value: "1", From: "g/dL", To: "mmol/L", Precision: 4, Properties: props}); err != nil || res.Value != want || res.Exact {
			t.Errorf("1 g/dL of %s: %+v, %v; want %s mmol/L", name, res, err, want)
		}
	}
}

// TestMeasurandConcurrent: many goroutines converting through the
// measurand, planned and cached, agree.
func TestMeasurandConcurrent(t *testing.T) {
	g := shipped(t)
	props, _ := g.ResolveProperties(engine.PropertyQuery{Substance: "HbA1c"})
	want, err := g.Convert(engine.Request{Value: "7", From: "%", To: "mmol/mol", Precision: 20, Properties: props})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 200 {
				res, err := g.Convert(engine.Request{Value: "7", From: "%", To: "mmol/mol", Precision: 20, Properties: props})
				if err != nil || res.Value != want.Value {
					t.Errorf("%+v, %v; want %s", res, err, want.Value)
					return
				}
				if res, err := g.Convert(engine.Request{Value: "7", From: "%", To: "mmol/mol", Precision: 20}); err != nil || res.Value != "70" {
					t.Errorf("plain: %+v, %v", res, err)
					return
				}
			}
		})
	}
	wg.Wait()
}

// BenchmarkShippedMeasurand times conversions of the shipped catalog that
// the measurands touch: a plain one, a plain ratio that looks up the hint
// table and one that finds a hint, HbA1c through its equations (planned
// once, then cached), and glucose through its molar mass for comparison.
func BenchmarkShippedMeasurand(b *testing.B) {
	g, errs := shippedOnce()
	if len(errs) > 0 {
		b.Fatal(errs)
	}
	hba1c, _ := g.ResolveProperties(engine.PropertyQuery{Substance: "HbA1c"})
	glucose, _ := g.ResolveProperties(engine.PropertyQuery{Substance: "glucose"})
	for _, c := range []struct {
		name string
		req  engine.Request
	}{
		{"plain", engine.Request{Value: "12.5", From: "ft", To: "m"}},
		{"ratio", engine.Request{Value: "7", From: "%", To: "ppm"}},
		{"ratio_hint", engine.Request{Value: "7", From: "%", To: "mmol/mol"}},
		{"hba1c_ifcc", engine.Request{Value: "7", From: "%", To: "mmol/mol", Properties: hba1c}},
		{"hba1c_eag_mmol", engine.Request{Value: "7", From: "%", To: "mmol/L", Properties: hba1c}},
		{"glucose", engine.Request{Value: "100", From: "mg/dL", To: "mmol/L", Properties: glucose}},
	} {
		b.Run(c.name, func(b *testing.B) {
			var res engine.Result
			buf := make([]byte, 0, 64)
			if _, err := g.AppendConvert(buf, &c.req, &res); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				g.AppendConvert(buf[:0], &c.req, &res)
			}
		})
	}
}

var shippedOnce = sync.OnceValues(func() (*engine.Graph, []error) { return catalog.Load(catalog.Embedded()) })
