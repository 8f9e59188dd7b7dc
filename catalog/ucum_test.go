package catalog

import (
	"encoding/xml"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine"
)

// ucumSuite is the UCUM functional test suite (codes/ucum-functional-tests.xml,
// from the npm package ucum, which vendors it; EPL 1.0).
type ucumSuite struct {
	Validation []struct {
		ID     string `xml:"id,attr"`
		Unit   string `xml:"unit,attr"`
		Valid  bool   `xml:"valid,attr"`
		Reason string `xml:"reason,attr"`
	} `xml:"validation>case"`
	Conversion []struct {
		ID      string `xml:"id,attr"`
		Value   string `xml:"value,attr"`
		Src     string `xml:"srcUnit,attr"`
		Dst     string `xml:"dstUnit,attr"`
		Outcome string `xml:"outcome,attr"`
	} `xml:"conversion>case"`
	Multiplication []struct {
		ID   string `xml:"id,attr"`
		V1   string `xml:"v1,attr"`
		U1   string `xml:"u1,attr"`
		V2   string `xml:"v2,attr"`
		U2   string `xml:"u2,attr"`
		VRes string `xml:"vRes,attr"`
		URes string `xml:"uRes,attr"`
	} `xml:"multiplication>case"`
}

// ucumJudgedWrong lists the cases of the suite that unitd answers
// otherwise, each with the reason the suite is judged wrong there.
var ucumJudgedWrong = map[string]string{}

func loadUCUMSuite(t *testing.T) ucumSuite {
	t.Helper()
	src, err := os.ReadFile("codes/ucum-functional-tests.xml")
	if err != nil {
		t.Fatal(err)
	}
	var s ucumSuite
	if err := xml.Unmarshal(src, &s); err != nil {
		t.Fatal(err)
	}
	if len(s.Validation) < 500 || len(s.Conversion) < 30 {
		t.Fatalf("suite has %d validation and %d conversion cases; expected the whole file", len(s.Validation), len(s.Conversion))
	}
	return s
}

func TestUCUMFunctionalValidation(t *testing.T) {
	g := mustLoad(t)
	s := loadUCUMSuite(t)
	for _, c := range s.Validation {
		_, _, err := g.Resolve("ucum:" + c.Unit)
		got := err == nil
		if got != c.Valid {
			if why, ok := ucumJudgedWrong[c.ID]; ok {
				t.Logf("case %s (%q): suite says valid=%v, unitd says %v: %s", c.ID, c.Unit, c.Valid, got, why)
				continue
			}
			t.Errorf("case %s: %q valid=%v, unitd: %v (%v; suite's reason: %s)", c.ID, c.Unit, c.Valid, got, err, c.Reason)
		}
	}
}

func TestUCUMFunctionalConversion(t *testing.T) {
	g := mustLoad(t)
	s := loadUCUMSuite(t)
	for _, c := range s.Conversion {
		r, err := g.Convert(engine.Request{Value: c.Value, From: "ucum:" + c.Src, To: "ucum:" + c.Dst, Precision: engine.MaxPrecision})
		if err != nil {
			t.Errorf("case %s: %s %s → %s: %v", c.ID, c.Value, c.Src, c.Dst, err)
			continue
		}
		if !sameAtDigits(t, r.Value, c.Outcome) {
			t.Errorf("case %s: %s %s → %s = %s, suite says %s", c.ID, c.Value, c.Src, c.Dst, r.Value, c.Outcome)
		}
	}
	for _, c := range s.Multiplication {
		var v, v1, v2 apd.Decimal
		v1.SetString(c.V1)
		v2.SetString(c.V2)
		apd.BaseContext.Mul(&v, &v1, &v2)
		r, err := g.Convert(engine.Request{Value: v.String(), From: "ucum:(" + c.U1 + ").(" + c.U2 + ")", To: "ucum:" + c.URes})
		if err != nil || !sameAtDigits(t, r.Value, c.VRes) {
			t.Errorf("case %s: %s %s × %s %s = %v %v, suite says %s %s", c.ID, c.V1, c.U1, c.V2, c.U2, r.Value, err, c.VRes, c.URes)
		}
	}
}

// sameAtDigits reports whether got, rounded half-even to as many
// significant digits as want has, is want; where want has more digits
// than unitd computes (engine.MaxPrecision), both are rounded to those.
func sameAtDigits(t *testing.T, got, want string) bool {
	t.Helper()
	w, _, err := apd.NewFromString(want)
	if err != nil {
		t.Fatalf("outcome %q: %v", want, err)
	}
	g, _, err := apd.NewFromString(got)
	if err != nil {
		t.Fatalf("result %q: %v", got, err)
	}
	digits := len(strings.TrimLeft(strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, strings.Split(strings.ToLower(want), "e")[0]), "0"))
	ctx := apd.BaseContext.WithPrecision(uint32(min(max(digits, 1), engine.MaxPrecision)))
	ctx.Rounding = apd.RoundHalfEven
	var r, rw apd.Decimal
	ctx.Round(&r, g)
	ctx.Round(&rw, w)
	return r.Cmp(&rw) == 0
}

func mustLoad(t *testing.T) *engine.Graph {
	t.Helper()
	return shipped(t)
}

// FuzzCodes resolves arbitrary namespaced names: each either resolves or
// fails with one of the contract's unit errors, never panics, and a
// resolved one converts to itself.
func FuzzCodes(f *testing.F) {
	g := shipped(f)
	for _, s := range []string{"ucum:mg/dL", "ucum:10*3/uL", "ucum:{a}.rad2{b}", "ucum:[pH]", "ucum:dB[SPL]", "ucum:m[IU]/L", "ucum:((m))",
		"ucum:{", "ucum:10*99999", "ucum:[" + strings.Repeat("x", 300), "cldr:kilogram-square-meter-per-cubic-second-ampere", "cldr:liter-per-100-kilometer",
		"cldr:pow4-meter", "qudt:KiloW-HR", "http://qudt.org/vocab/unit/FT", "unece:KGM", "x:y", "ucum:/s", "ucum:s-1.m+2", "ucum:%[slope]",
		"ucum:" + strings.Repeat("10*300.", 8) + "10*300", "cldr:" + strings.Repeat("pow9-quettameter-", 9) + "pow9-quettameter",
		"ucum:YL99/yL99", "ucum:[diop]", "ucum:meq/L", "qudt:REV-PER-MIN", "qudt:RAD-PER-SEC", "cldr:lux", "cldr:hertz", "cldr:year"} {
		f.Add(s)
	}
	// Every special and inverse unit of UCUM under every prefix, and the
	// largest powers each system reads.
	tables, err := CodeTables()
	if err != nil {
		f.Fatal(err)
	}
	for _, p := range tables.UCUM {
		if p.Type != "prefix" {
			continue
		}
		for _, u := range []string{"Np", "B", "B[SPL]", "Cel", "[diop]", "Bd", "eq", "[IU]", "[pH]"} {
			f.Add("ucum:" + p.Code + u)
		}
		f.Add("ucum:" + p.Code + "m99")
	}
	for _, s := range []string{"cldr:pow15-quettameter", "cldr:pow15-quectometer-per-pow15-quettasecond", "qudt:YottaM", "ucum:10^300/10^-300"} {
		f.Add(s)
	}
	allowed := map[engine.Code]bool{engine.CodeUnknownUnit: true, engine.CodeInvalidUnitExpression: true, engine.CodeIncompatibleUnits: true, engine.CodeAmbiguousUnit: true}
	f.Fuzz(func(t *testing.T, name string) {
		_, _, err := g.Resolve(name)
		if err != nil {
			var e *engine.Error
			if !errors.As(err, &e) || !allowed[e.Code] {
				t.Fatalf("%q: %v", name, err)
			}
			return
		}
		if _, ok := codeSystem(name); !ok {
			return
		}
		if _, err := g.Convert(engine.Request{Value: "2", From: name, To: name}); err != nil {
			var e *engine.Error
			if !errors.As(err, &e) || e.Code != engine.CodeValueOutOfRange && e.Code != engine.CodeIncompatibleUnits {
				t.Fatalf("%q to itself: %v", name, err)
			}
		}
	})
}

func codeSystem(name string) (string, bool) {
	s, _, ok := engine.SplitCode(name)
	return s, ok
}

// TestCodeMeaning checks that a UCUM code means UCUM's definition where
// it differs from the catalog unit of the same spelling, and that explain
// says so; and that a claimed code is its catalog unit.
func TestCodeMeaning(t *testing.T) {
	g := mustLoad(t)
	r, err := g.Convert(engine.Request{Value: "1", From: "ucum:eV", To: "eV", Precision: 12})
	if err != nil || r.Value != "1.00000043441" {
		t.Fatalf("1 ucum:eV = %s eV, %v; want UCUM's 1.60217733e-19 J", r.Value, err)
	}
	ex := g.Explain(&r)
	found := false
	for _, s := range ex.Steps {
		if s.Unit == "ucum:eV" && strings.Contains(s.Definition, "another value") && strings.Contains(s.Source, "ucum-lhc") {
			found = true
		}
	}
	if !found {
		t.Errorf("explain does not say that UCUM's eV differs: %+v", ex.Steps)
	}
	u, x, err := g.Resolve("ucum:[cup_m]")
	if err != nil || x != nil || u.Symbol != "cup_legal" {
		t.Errorf("ucum:[cup_m] = %v %v %v; want the catalog's cup_legal", u, x, err)
	}
	r, err = g.Convert(engine.Request{Value: "1", From: "ucum:[cup_m]", To: "mL"})
	if err != nil || r.Value != "240" {
		t.Errorf("1 ucum:[cup_m] = %s mL, %v; want 240", r.Value, err)
	}
}
