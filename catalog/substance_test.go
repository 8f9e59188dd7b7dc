package catalog

import (
	"bufio"
	"errors"
	"io/fs"
	"math/big"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/unitd/unitd/engine"
)

// convertWith converts with the given substance fields.
func convertWith(t testing.TB, g *engine.Graph, q engine.PropertyQuery, value, from, to string, precision int) (engine.Result, error) {
	t.Helper()
	p, err := g.ResolveProperties(q)
	if err != nil {
		return engine.Result{}, err
	}
	return g.Convert(engine.Request{Value: value, From: from, To: to, Precision: precision, Properties: p})
}

// TestClinicalFactors converts the published clinical factors of
// testdata/clinical_factors.tsv: each must come out as printed when
// rounded to the digits the publisher printed, and not exact.
func TestClinicalFactors(t *testing.T) {
	g := shipped(t)
	f, err := os.Open("testdata/clinical_factors.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		c := strings.Split(line, "\t")
		if len(c) != 5 {
			t.Fatalf("bad line %q", line)
		}
		n++
		digits := significantDigits(c[3])
		r, err := convertWith(t, g, engine.PropertyQuery{Substance: c[0]}, c[1], c[2], c[4], digits)
		if err != nil {
			t.Errorf("%s: %s %s → %s: %v", c[0], c[1], c[2], c[4], err)
			continue
		}
		// The publisher rounded the factor and, before that, the molar
		// mass it used (folate 441.4 g/mol, here 441.404): the factor
		// must agree to within one unit of its last printed digit.
		if r.Value != c[3] {
			got, pub := mustRat(t, r.Value), mustRat(t, c[3])
			ulp := halfUnit(c[3])
			ulp.Add(ulp, ulp)
			if d := new(big.Rat).Sub(got, pub); d.Abs(d).Cmp(ulp) > 0 {
				t.Errorf("%s: %s %s = %s %s, published %s", c[0], c[1], c[2], r.Value, c[4], c[3])
			} else {
				t.Logf("%s: %s %s = %s %s, published %s (within one unit of the last digit)", c[0], c[1], c[2], r.Value, c[4], c[3])
			}
		}
		if r.Exact {
			t.Errorf("%s: an answer through a substance is exact", c[0])
		}
	}
	if n < 25 {
		t.Fatalf("only %d factors tested", n)
	}
}

// halfUnit is half a unit in the last place of a printed decimal.
func halfUnit(s string) *big.Rat {
	frac := 0
	if i := strings.IndexByte(s, '.'); i >= 0 {
		frac = len(s) - i - 1
	}
	return new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Mul(big.NewInt(2), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(frac)), nil)))
}

// significantDigits counts the significant digits of a printed decimal.
func significantDigits(s string) int {
	s = strings.TrimLeft(strings.ReplaceAll(s, ".", ""), "0")
	return max(1, len(s))
}

// TestGasAt25CAnd1atm checks ppm ↔ mg/m³ against the textbook relation
// mg/m³ = ppm × M / Vm with Vm = 24.465 L/mol at 25 °C and 1 atm: 1 ppm
// of CO2 is 1.7989 mg/m³ by the rounded molar volume. unitd computes Vm
// = R T/p with the exact R (24.4654 L/mol), so the answers must agree
// within the rounding of the printed 24.465 and 1.7989.
func TestGasAt25CAnd1atm(t *testing.T) {
	g := shipped(t)
	for _, cond := range []string{"25 degC, 1 atm", "298.15 K, 101.325 kPa", "101.325 kPa, 25 °C", "25 degC, 1 atm"} {
		r, err := convertWith(t, g, engine.PropertyQuery{Substance: "CO2", Conditions: cond}, "1", "ppm", "mg/m3", 20)
		if err != nil {
			t.Fatalf("%s: %v", cond, err)
		}
		got, _ := new(big.Rat).SetString(r.Value)
		// 44.009 / 24.465, with 24.465 ± 0.0005 and 1.7989 ± 0.00005.
		pub, _ := new(big.Rat).SetString("1.7989")
		tol, _ := new(big.Rat).SetString("0.00005")
		rel := new(big.Rat).Quo(big.NewRat(5, 10000), mustRat(t, "24.465"))
		tol.Add(tol, rel.Mul(rel, pub))
		if d := new(big.Rat).Sub(got, pub); d.Abs(d).Cmp(tol) > 0 {
			t.Errorf("%s: 1 ppm CO2 = %s mg/m3, textbook 1.7989", cond, r.Value)
		}
		// And the molar volume itself: 24.465 L/mol to five digits.
		v, err := convertWith(t, g, engine.PropertyQuery{Conditions: cond}, "1", "mol", "L", 5)
		if err != nil || v.Value != "24.465" {
			t.Errorf("%s: 1 mol = %s L (%v), want 24.465", cond, v.Value, err)
		}
		// Back again.
		b, err := convertWith(t, g, engine.PropertyQuery{Substance: "carbon dioxide", Conditions: cond}, r.Value, "mg/m3", "ppm", 15)
		if err != nil || b.Value != "1" {
			t.Errorf("%s: back to ppm: %s (%v)", cond, b.Value, err)
		}
	}
}

func mustRat(t testing.TB, s string) *big.Rat {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		t.Fatalf("bad rational %q", s)
	}
	return r
}

// TestSubstanceConversions runs the contract's examples in both
// directions and through expressions.
func TestSubstanceConversions(t *testing.T) {
	g := shipped(t)
	for _, c := range []struct {
		q                     engine.PropertyQuery
		value, from, to, want string
		precision             int
	}{
		{engine.PropertyQuery{Substance: "glucose"}, "100", "mg/dL", "mmol/L", "5.5507", 5},
		{engine.PropertyQuery{Substance: "50-99-7"}, "5.5507", "mmol/L", "mg/dL", "100", 4},
		{engine.PropertyQuery{Substance: "C6H12O6"}, "1", "mmol/L", "mg/dL", "18.0156", 10},
		{engine.PropertyQuery{Substance: "glucose"}, "90", "mg/dL", "umol/L", "4995.67", 6},
		{engine.PropertyQuery{Substance: "NaCl"}, "58.44", "g/h", "mol/h", "1", 4},
		{engine.PropertyQuery{Substance: "NaCl"}, "3600", "g/h", "kmol/s", "0.00001711163498", 10},
		{engine.PropertyQuery{Substance: "Ca(OH)2"}, "74.092", "g", "mol", "1", 10},
		{engine.PropertyQuery{Substance: "CuSO4·5H2O"}, "249.677", "g", "mol", "1", 10},
		{engine.PropertyQuery{Substance: "CuSO4.5H2O"}, "249.677", "g", "mol", "1", 10},
		{engine.PropertyQuery{MolarMass: "180.156 g/mol"}, "180.156", "mg", "mmol", "1", 10},
		{engine.PropertyQuery{Substance: "calcium"}, "2", "mEq/L", "mmol/L", "1", 10},
		{engine.PropertyQuery{Substance: "Ca2+"}, "1", "mmol", "mEq", "2", 10},
		{engine.PropertyQuery{Charge: "-2"}, "1", "mmol/L", "mEq/L", "2", 10},
		{engine.PropertyQuery{Substance: "calcium"}, "10", "mg/dL", "mEq/L", "4.99", 4},
		{engine.PropertyQuery{Substance: "gasoline"}, "1000", "L", "kg", "747.5", 10},
		{engine.PropertyQuery{Density: "0.745 kg/L"}, "1", "kg", "L", "1.342281879", 10},
		{engine.PropertyQuery{Substance: "water"}, "998.2067", "kg", "m3", "1", 10},
		{engine.PropertyQuery{Substance: "steel"}, "1", "m3", "t", "7.85", 10},
		{engine.PropertyQuery{Substance: "benzene", Conditions: "25 degC, 1 atm"}, "1", "ppb", "ug/m3", "3.193", 4},
		{engine.PropertyQuery{Substance: "CO", Conditions: "NTP"}, "1", "mg/m3", "ppmv", "0.8588", 4},
		{engine.PropertyQuery{Conditions: "STP"}, "1", "m3", "mol", "44.03", 4},
		{engine.PropertyQuery{Conditions: "DIN 1343"}, "1", "Nm3", "m3", "1", 10},
		{engine.PropertyQuery{Conditions: "25 degC, 1 atm"}, "1", "Nm3", "m3", "1.092", 4},
		{engine.PropertyQuery{Substance: "methane"}, "1", "Nm3", "kg", "0.7158", 4},
		{engine.PropertyQuery{Substance: "methane", Conditions: "ISO 13443"}, "1", "kg", "m3", "1.474", 4},
	} {
		r, err := convertWith(t, g, c.q, c.value, c.from, c.to, c.precision)
		if err != nil {
			t.Errorf("%+v %s %s → %s: %v", c.q, c.value, c.from, c.to, err)
			continue
		}
		if r.Value != c.want {
			t.Errorf("%+v %s %s → %s = %s, want %s", c.q, c.value, c.from, c.to, r.Value, c.want)
		}
		if r.Exact || len(r.Used()) == 0 {
			t.Errorf("%+v %s → %s: exact %v, %d values used", c.q, c.from, c.to, r.Exact, len(r.Used()))
		}
	}
	// Nm3 is an amount: Nm3 → mol needs nothing and stays exact in its
	// arithmetic; a substance given with a same-kind pair is unused.
	r, err := convertWith(t, g, engine.PropertyQuery{Substance: "glucose"}, "1", "kg", "g", 10)
	if err != nil || r.Value != "1000" || !r.Exact || len(r.Used()) != 0 {
		t.Errorf("kg → g with a substance: %+v, %v", r, err)
	}
}

// TestSubstanceNeeds checks the errors of conversions that lack a value.
func TestSubstanceNeeds(t *testing.T) {
	g := shipped(t)
	for _, c := range []struct {
		q        engine.PropertyQuery
		from, to string
		needs    []string
		message  string
	}{
		{engine.PropertyQuery{}, "mg/dL", "mmol/L", []string{"molar_mass"}, "needs a molar mass: pass `substance` or `molar_mass`"},
		{engine.PropertyQuery{}, "mEq/L", "mmol/L", []string{"charge"}, "needs a charge number"},
		{engine.PropertyQuery{Substance: "glucose"}, "mEq/L", "mmol/L", []string{"charge"}, "needs a charge number"},
		{engine.PropertyQuery{}, "kg", "L", []string{"density"}, "needs a density"},
		{engine.PropertyQuery{Substance: "CO2"}, "kg", "L", []string{"density"}, "needs a density"},
		{engine.PropertyQuery{}, "ppm", "mg/m3", []string{"molar_mass", "conditions"}, "needs a molar mass"},
		{engine.PropertyQuery{Substance: "CO2"}, "ppm", "mg/m3", []string{"conditions"}, "needs a temperature and pressure"},
		{engine.PropertyQuery{Substance: "ethanol"}, "ppm", "mg/m3", []string{"conditions"}, "needs a temperature and pressure"},
		{engine.PropertyQuery{}, "m3", "mol", []string{"conditions"}, "needs a temperature and pressure"},
		{engine.PropertyQuery{}, "mg/dL", "mEq/L", []string{"molar_mass", "charge"}, "needs a molar mass"},
	} {
		_, err := convertWith(t, g, c.q, "1", c.from, c.to, 0)
		var e *engine.Error
		if !errors.As(err, &e) || e.Code != engine.CodeIncompatibleUnits {
			t.Errorf("%s → %s: %v, want INCOMPATIBLE_UNITS", c.from, c.to, err)
			continue
		}
		if !slices.Equal(e.Needs, c.needs) || !strings.Contains(e.Message, c.message) {
			t.Errorf("%s → %s: needs %v, %q; want %v, %q", c.from, c.to, e.Needs, e.Message, c.needs, c.message)
		}
		if e.Details["from_dimension"] == "" {
			t.Errorf("%s → %s: no dimensions in details", c.from, c.to)
		}
	}
	// Unrelated kinds keep their plain error; mass fractions are no gas
	// mixing ratio.
	for _, p := range [][2]string{{"m", "kg"}, {"J", "N*m"}, {"ppmw", "mg/m3"}, {"degC", "mol"}} {
		_, err := convertWith(t, g, engine.PropertyQuery{Substance: "CO2", Conditions: "STP"}, "1", p[0], p[1], 0)
		var e *engine.Error
		if !errors.As(err, &e) || e.Code != engine.CodeIncompatibleUnits || len(e.Needs) != 0 {
			t.Errorf("%s → %s: %v, want INCOMPATIBLE_UNITS without needs", p[0], p[1], err)
		}
	}
}

// TestSubstanceInputErrors: hostile and malformed fields get the
// contract's errors, never a panic or a hang.
func TestSubstanceInputErrors(t *testing.T) {
	g := shipped(t)
	deep := strings.Repeat("(", 1000) + "H" + strings.Repeat(")", 1000)
	for _, c := range []struct {
		q     engine.PropertyQuery
		field string // "" for UNKNOWN_SUBSTANCE
		want  string
	}{
		{engine.PropertyQuery{Substance: strings.Repeat("C", 10000)}, "", "longer than 256"},
		{engine.PropertyQuery{Substance: deep}, "", "longer than 256 characters at position 257"},
		{engine.PropertyQuery{Substance: strings.Repeat("(", 20) + "H" + strings.Repeat(")", 20)}, "", "nested more than 8 deep at position 9"},
		{engine.PropertyQuery{Substance: "C99999999"}, "", "count 99999999 is too large (at most 1000000) at position 2"},
		{engine.PropertyQuery{Substance: "C6H12Xx6"}, "", `unknown element "Xx" at position 6`},
		{engine.PropertyQuery{Substance: "Ca(OH2"}, "", `"(" is not closed at position 3`},
		{engine.PropertyQuery{Substance: "SO42-"}, "", "ambiguous"},
		{engine.PropertyQuery{Substance: "NH4+"}, "", "ambiguous"},
		{engine.PropertyQuery{Substance: "glucos"}, "", "did you mean glucose"},
		{engine.PropertyQuery{Density: "0 kg/L"}, "density", "greater than zero"},
		{engine.PropertyQuery{Density: "1 kg"}, "density", "has dimension M"},
		{engine.PropertyQuery{MolarMass: "-180 g/mol"}, "molar_mass", "greater than zero"},
		{engine.PropertyQuery{MolarMass: "abc g/mol"}, "molar_mass", "not a decimal"},
		{engine.PropertyQuery{MolarMass: "180"}, "molar_mass", "expected a value and a unit"},
		{engine.PropertyQuery{MolarMass: "1e999999 g/mol"}, "molar_mass", "exponent"},
		{engine.PropertyQuery{Charge: "0"}, "charge", "non-zero"},
		{engine.PropertyQuery{Charge: "1.5"}, "charge", "non-zero whole number"},
		{engine.PropertyQuery{Conditions: "-300 degC, 1 atm"}, "conditions", "not above absolute zero"},
		{engine.PropertyQuery{Conditions: "0 K, 1 atm"}, "conditions", "not above absolute zero"},
		{engine.PropertyQuery{Conditions: "25 degC, 0 Pa"}, "conditions", "greater than zero"},
		{engine.PropertyQuery{Conditions: "moon"}, "conditions", "named set (STP"},
	} {
		_, err := g.ResolveProperties(c.q)
		var e *engine.Error
		var fe *engine.FieldError
		switch {
		case c.field == "" && errors.As(err, &e) && e.Code == engine.CodeUnknownSubstance:
			if !strings.Contains(e.Message, c.want) {
				t.Errorf("%.40q: %q, want %q", c.q.Substance, e.Message, c.want)
			}
		case c.field != "" && errors.As(err, &fe) && fe.Field == c.field:
			if !strings.Contains(fe.Message, c.want) {
				t.Errorf("%+v: %q, want %q", c.q, fe.Message, c.want)
			}
		default:
			t.Errorf("%.60v: %v", c.q, err)
		}
	}
}

// TestMolarMassFromFormula checks formulas against sums worked by hand
// from the shipped atomic weights.
func TestMolarMassFromFormula(t *testing.T) {
	g := shipped(t)
	for formula, want := range map[string]string{
		"C6H12O6":         "180.156 g/mol",
		"Ca(OH)2":         "74.092 g/mol",   // 40.078 + 2 × (15.999 + 1.008)
		"CuSO4·5H2O":      "249.677 g/mol",  // 63.546 + 32.06 + 9 × 15.999 + 10 × 1.008
		"K4[Fe(CN)6]":     "368.3462 g/mol", // 4 × 39.0983 + 55.845 + 6 × 12.011 + 6 × 14.007
		"H₂O":             "18.015 g/mol",
		"SO4^2-":          "96.056 g/mol",
		"NH4^+":           "18.039 g/mol",
		"2H2O":            "36.03 g/mol",
		"C63H88CoN14O14P": "1355.387955998 g/mol", // 63 × 12.011 + 88 × 1.008 + 58.933194 + 14 × 14.007 + 14 × 15.999 + 30.973761998
	} {
		p, err := g.ResolveProperties(engine.PropertyQuery{Substance: formula})
		if err != nil {
			t.Errorf("%s: %v", formula, err)
			continue
		}
		if p.MolarMass == nil || p.MolarMass.Value != want {
			t.Errorf("%s: molar mass %+v, want %s", formula, p.MolarMass, want)
		}
	}
	p, _ := g.ResolveProperties(engine.PropertyQuery{Substance: "SO4^2-"})
	if p.Charge == nil || p.Charge.Value != "-2" {
		t.Errorf("SO4^2-: charge %+v", p.Charge)
	}
}

// TestSubstanceCatalog checks the shipped substance catalog's breadth and
// that every value has a source.
func TestSubstanceCatalog(t *testing.T) {
	g := shipped(t)
	subs := g.Substances()
	for _, id := range []string{"glucose", "cholesterol", "hdl-cholesterol", "ldl-cholesterol", "triglycerides", "creatinine", "urea", "urea-nitrogen",
		"uric-acid", "bilirubin", "calcium", "magnesium", "phosphorus", "sodium", "potassium", "chloride", "bicarbonate", "iron", "lactate", "ammonia",
		"ethanol", "lithium", "cortisol", "testosterone", "estradiol", "vitamin-d", "vitamin-b12", "folate",
		"carbon-monoxide", "carbon-dioxide", "nitric-oxide", "nitrogen-dioxide", "sulfur-dioxide", "ozone", "methane", "hydrogen-sulfide", "benzene", "formaldehyde",
		"water", "seawater", "gasoline", "diesel", "kerosene", "methanol", "propane", "butane", "crude-oil", "milk", "olive-oil",
		"steel", "aluminium", "copper", "concrete"} {
		if _, err := g.Substance(id); err != nil {
			t.Errorf("substance %s: %v", id, err)
		}
	}
	for _, s := range subs {
		for _, p := range []*engine.Property{s.MolarMass, s.Density, s.Charge} {
			if p != nil && strings.TrimSpace(p.Source) == "" {
				t.Errorf("%s: %s without source", s.ID, p.Name)
			}
		}
		if s.Density != nil && s.Density.Conditions == "" {
			t.Errorf("%s: density without temperature", s.ID)
		}
	}
	if len(g.ConditionSets()) < 3 || len(g.Elements()) < 80 {
		t.Errorf("%d condition sets, %d elements", len(g.ConditionSets()), len(g.Elements()))
	}
	// Lookups: case-insensitive names, case-sensitive formulas.
	for name, id := range map[string]string{"Glucose": "glucose", "50-99-7": "glucose", "CO": "carbon-monoxide", "NO": "nitric-oxide", "BUN": "urea-nitrogen", "Na+": "sodium", "petrol": "gasoline"} {
		if s, err := g.Substance(name); err != nil || s.ID != id {
			t.Errorf("%s: %v, %v; want %s", name, s, err, id)
		}
	}
	if p, err := g.ResolveProperties(engine.PropertyQuery{Substance: "Co"}); err != nil || p.Substance != nil || p.MolarMass.Value != "58.933194 g/mol" {
		t.Errorf("Co (cobalt) resolved to %+v, %v", p, err)
	}
}

// TestSubstanceExplain lists every substance value used with its source.
func TestSubstanceExplain(t *testing.T) {
	g := shipped(t)
	r, err := convertWith(t, g, engine.PropertyQuery{Substance: "CO2", Conditions: "SATP"}, "1", "ppm", "mg/m3", 0)
	if err != nil {
		t.Fatal(err)
	}
	ex := g.Explain(&r)
	var names []string
	for _, p := range ex.Properties {
		names = append(names, p.Name)
		if p.Source == "" {
			t.Errorf("%s has no source", p.Name)
		}
	}
	if !slices.Equal(names, []string{"molar_mass", "temperature", "pressure", "gas_constant"}) {
		t.Errorf("explained values %v", names)
	}
	if ex.Properties[0].Sum != "C 12.011 + 2 × O 15.999 = 44.009 g/mol" || ex.Properties[1].Conditions != "SATP" {
		t.Errorf("explain: %+v", ex.Properties)
	}
	if ex.Factor == "" || ex.Kind != "linear" {
		t.Errorf("explain factor %q kind %q", ex.Factor, ex.Kind)
	}
}

// TestSubstanceCatalogErrors loads the shipped catalog with broken
// substance files beside it: every problem is reported at its position.
func TestSubstanceCatalogErrors(t *testing.T) {
	fsys := fstest.MapFS{}
	files, _ := readSources(Embedded())
	for _, f := range files {
		fsys[f.name] = &fstest.MapFile{Data: f.src}
	}
	fsys["substances-test.yaml"] = &fstest.MapFile{Data: []byte(`substances:
  - id: glucose2
    name: glucose two
    formula: C6H12O6
    molar_mass: {value: 190 g/mol, source: a test}
  - id: bad-cas
    name: bad CAS
    formula: C2H6
    cas: 50-99-8
  - id: no-temp
    name: no temperature
    density: {value: 1 kg/m3, source: a test}
  - id: bad-formula
    name: bad formula
    formula: C6H12Qq
  - id: nothing
    name: nothing
  - id: stated
    name: stated and agreeing
    formula: C6H12O6
    molar_mass: {value: 180.16 g/mol, source: a test}
  - id: Glucose3
    name: glucose
`)}
	fsys["conditions.yaml"] = &fstest.MapFile{Data: []byte(`conditions:
  - name: cold
    temperature: -300 degC
    pressure: 1 atm
    source: a test
gas:
  mixing_ratios: [length]
`)}
	g, errs := Load(fsys)
	if g != nil {
		t.Fatal("a broken substance catalog loaded")
	}
	var got []string
	for _, err := range errs {
		got = append(got, err.Error())
	}
	for _, want := range []string{
		`substances-test.yaml:5:17: substance "glucose2": molar_mass 190 g/mol disagrees with the formula C6H12O6 (180.156 g/mol)`,
		`substances-test.yaml:6:5: substance "bad-cas": CAS number "50-99-8" is malformed or fails its check digit`,
		`substances-test.yaml:12:14: substance "no-temp": density: the temperature it holds at is required`,
		`substances-test.yaml:13:5: substance "bad-formula": formula: "C6H12Qq" is no substance of the catalog and not a valid formula: unknown element "Qq" at position 6`,
		`substances-test.yaml:16:5: substance "nothing": gives no molar mass (nor formula), density or charge`,
		`substances-test.yaml:22:5: substance "Glucose3": id must be lower-case`,
		`conditions.yaml:2:5: conditions "cold": temperature "-300 degC" is not above absolute zero`,
		`conditions.yaml:7:3: gas: mixing ratio category "length" is not dimensionless (L)`,
	} {
		if !slices.ContainsFunc(got, func(g string) bool { return strings.HasPrefix(g, want) }) {
			t.Errorf("missing error %s", want)
		}
	}
	if len(got) != 8 {
		t.Errorf("%d errors:\n%s", len(got), strings.Join(got, "\n"))
	}
}

// TestIntervalUncertainty: a conventional weight's uncertainty is its
// distance to the far end of its interval, which may lie on either side
// of it; an interval that does not read is refused.
func TestIntervalUncertainty(t *testing.T) {
	for _, tt := range []struct{ weight, interval, want string }{
		{"1.008", "[1.00784, 1.00811]", "0.00016"},
		{"15.999", "[15.99903, 15.99977]", "0.00077"},
		{"204.38", "[204.382, 204.385]", "0.005"},
	} {
		if got, err := intervalUncertainty(tt.weight, tt.interval); err != nil || got != tt.want {
			t.Errorf("%s %s: %q %v, want %s", tt.weight, tt.interval, got, err, tt.want)
		}
	}
	for _, bad := range []string{"1.0, 1.1", "[1.1, 1.0]", "[1.0]", "[a, b]"} {
		if _, err := intervalUncertainty("1.05", bad); err == nil {
			t.Errorf("interval %q was accepted", bad)
		}
	}
}

// TestFoodFields reads the kitchen fields of a substance file: a food
// with its food, state and portions, as plain data; the shipped foods
// with theirs; and what a food must not lack, at its position.
func TestFoodFields(t *testing.T) {
	sf, errs := parseSubstanceFile("substances-test.yaml", []byte(`source: a test
upstream: {package: p, version: "1", sha256: abc, file: f, licence: public domain}
substances:
  - id: brown-sugar-packed
    name: brown sugar, packed
    kind: food
    food: brown sugar
    state: packed
    density: {value: 220 g/cup, temperature: an unstated temperature, source: a test}
    portions:
      - {name: cube, measure: 1 cube, mass: 2.3 g}
`))
	if len(errs) > 0 || len(sf.substances) != 1 {
		t.Fatalf("%d substances, errors %v", len(sf.substances), errs)
	}
	s := sf.substances[0]
	if s.Kind != "food" || s.Food != "brown sugar" || s.State != "packed" || len(s.Portions) != 1 ||
		s.Portions[0].Name != "cube" || s.Portions[0].Measure != "1 cube" || s.Portions[0].Mass != "2.3 g" || s.Portions[0].Origin.Line != 11 {
		t.Errorf("read as %+v", s)
	}

	shipped, err := fs.ReadFile(Embedded(), "substances-foods.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sf, errs = parseSubstanceFile("substances-foods.yaml", shipped)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var butter *engine.SubstanceSpec
	for i := range sf.substances {
		if sf.substances[i].ID == "butter" {
			butter = &sf.substances[i]
		}
		if sf.substances[i].Kind != "food" {
			t.Errorf("%s is no food", sf.substances[i].ID)
		}
	}
	if butter == nil || !slices.ContainsFunc(butter.Portions, func(p engine.PortionSpec) bool { return p.Name == "stick" && p.Mass == "113 g" }) {
		t.Errorf("the shipped butter has no 113 g stick: %+v", butter)
	}

	_, errs = parseSubstanceFile("substances-test.yaml", []byte(`substances:
  - id: a
    name: a
    kind: mineral
    density: {value: 1 g/mL, temperature: 20 degC, source: a test}
  - id: b
    name: b
    state: packed
    density: {value: 1 g/mL, temperature: 20 degC, source: a test}
  - id: c
    name: c
    kind: food
    density: {value: 1 g/mL, temperature: 20 degC, source: a test}
  - id: d
    name: d
    kind: food
    food: d
    density: {value: 1 g/mL, temperature: 20 degC, source: a test}
    portions:
      - {name: stick, measure: 1 stick, mass: 113 g}
      - {name: stick, measure: 1 stick, mass: 113 g}
      - {name: large, mass: 50 g}
      - {name: small, measure: 1 small, mass: 38 g, size: small}
`))
	var got []string
	for _, err := range errs {
		got = append(got, err.Error())
	}
	want := []string{
		`substances-test.yaml:2:5: substance "a": kind "mineral" is not a kind of substance (known: clinical, gas, liquid, solid, food)`,
		`substances-test.yaml:6:5: substance "b": food, state and portions belong to a substance of kind food`,
		`substances-test.yaml:10:5: substance "c": a food needs "food", the food it is`,
		`substances-test.yaml:22:9: substance "d": a portion needs name, measure and mass`,
		`substances-test.yaml:23:53: substance "d": unknown key "size"`,
		`substances-test.yaml:14:5: substance "d": portion "stick" twice`,
	}
	for _, w := range want {
		if !slices.ContainsFunc(got, func(g string) bool { return strings.HasPrefix(g, w) }) {
			t.Errorf("missing error %s", w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d errors:\n%s", len(got), strings.Join(got, "\n"))
	}
}

// TestSubstanceKinds: every shipped substance says its kind, the kind of
// the file it is in (substances-gases.yaml holds gases), and the compiled
// substance carries it with a food's food, state and portions.
func TestSubstanceKinds(t *testing.T) {
	fileKind := map[string]string{"clinical": "clinical", "gases": "gas", "liquids": "liquid", "solids": "solid", "foods": "food"}
	files, err := fs.Glob(Embedded(), substancesPrefix+"*.yaml")
	if err != nil || len(files) != len(fileKind) {
		t.Fatalf("substance files %v (%v), want one per kind of %v", files, err, fileKind)
	}
	for _, name := range files {
		kind, ok := fileKind[strings.TrimSuffix(strings.TrimPrefix(name, substancesPrefix), ".yaml")]
		if !ok {
			t.Errorf("%s: no kind for this file", name)
			continue
		}
		src, err := fs.ReadFile(Embedded(), name)
		if err != nil {
			t.Fatal(err)
		}
		sf, errs := parseSubstanceFile(name, src)
		if len(errs) > 0 || len(sf.substances) == 0 {
			t.Fatalf("%s: %d substances, %v", name, len(sf.substances), errs)
		}
		for _, s := range sf.substances {
			if s.Kind != kind {
				t.Errorf("%s: substance %q is of kind %q, want %q", name, s.ID, s.Kind, kind)
			}
		}
	}

	g := shipped(t)
	count := map[string]int{}
	for _, s := range g.Substances() {
		count[s.Kind]++
	}
	for _, k := range fileKind {
		if count[k] == 0 {
			t.Errorf("no compiled substance of kind %q: %v", k, count)
		}
	}
	butter, err := g.Substance("butter")
	if err != nil || butter.Kind != "food" || butter.Food != "butter" ||
		!slices.Contains(butter.Portions, engine.Portion{Name: "stick", Measure: "1 stick", Mass: "113 g"}) {
		t.Errorf("butter compiles as %+v (%v)", butter, err)
	}
	if s, err := g.Substance("brown sugar, packed"); err != nil || s.Food != "brown sugar" || s.State != "packed" {
		t.Errorf("packed brown sugar compiles as %+v (%v)", s, err)
	}
}
