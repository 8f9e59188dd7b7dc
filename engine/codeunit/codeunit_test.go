package codeunit

import (
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/unitd/unitd/engine/claim"
	"github.com/unitd/unitd/engine/codes"
	"github.com/unitd/unitd/engine/dimension"
	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/internal/graph"
)

// catalog has temperature (base K) with degC claiming ucum:Cel and
// qudt:DEG_C, and length.
type catalog struct {
	temp, length *graph.Category
	claims       map[string]*graph.Unit
}

func testCatalog(t *testing.T) catalog {
	temp := &graph.Category{ID: "temperature", Dim: dimension.Product("Θ"), Coherent: exact.One(), MinimumRat: new(big.Rat)}
	length := &graph.Category{ID: "length", Dim: dimension.Product("L"), Coherent: exact.One()}
	m, err := exact.Affine(big.NewRat(1, 1), big.NewRat(27315, 100), 0)
	if err != nil {
		t.Fatal(err)
	}
	degC := &graph.Unit{Symbol: "degC", Category: temp, Conv: graph.Conversion{Map: m, Exact: true}, Coherent: exact.One()}
	degC.SI = &degC.Conv
	return catalog{temp: temp, length: length, claims: map[string]*graph.Unit{"ucum:Cel": degC, "qudt:DEG_C": degC}}
}

func (c catalog) Claimant(system, code string) *graph.Unit { return c.claims[system+":"+code] }
func (c catalog) Source(system string) string              { return system + " table" }
func (c catalog) CategoryOf(d dimension.Vector) *graph.Category {
	switch d {
	case c.temp.Dim:
		return c.temp
	case c.length.Dim:
		return c.length
	}
	return nil
}

func code(t *testing.T, err error, want fault.Code, has string) {
	t.Helper()
	var e *fault.Error
	if !errors.As(err, &e) || e.Code != want || !strings.Contains(e.Message, has) {
		t.Errorf("%v, want %s containing %q", err, want, has)
	}
}

// TestExpression: a code's meaning is an expression of its factor, in
// the category of its dimension unless it is an arbitrary unit; a factor
// that is not positive is no unit.
func TestExpression(t *testing.T) {
	c := testCatalog(t)
	e, err := expression(c, "[ft_i]", "ucum:[ft_i]", codes.Meaning{Dim: c.length.Dim, Factor: exact.Factor{R: big.NewRat(3048, 10000)}, Exact: true})
	if err != nil || e.Category != c.length || e.Coherent.R.Cmp(big.NewRat(3048, 10000)) != 0 || !e.Conv.Exact || e.Code != "ucum:[ft_i]" {
		t.Fatalf("foot: %+v, %v", e, err)
	}
	e, err = expression(c, "[IU]", "ucum:[IU]", codes.Meaning{Dim: c.length.Dim, Factor: exact.One(), Arbitrary: "[IU]"})
	if err != nil || e.Category != nil || e.Arbitrary != "[IU]" {
		t.Fatalf("an arbitrary unit: %+v, %v", e, err)
	}
	_, err = expression(c, "x", "ucum:x", codes.Meaning{Dim: c.length.Dim, Factor: exact.Factor{R: new(big.Rat)}})
	code(t, err, fault.InvalidUnitExpression, "its factor is not positive")
}

// TestSpecial: a claimed special unit under a prefix is the claimant
// scaled (mCel reads thousandths of a degree Celsius); an unclaimed one
// runs its function over its reference; a function unitd lacks, or a
// reference of no category, is refused.
func TestSpecial(t *testing.T) {
	c := testCatalog(t)
	to, from, _ := codes.Function("Cel")
	mCel := &codes.Special{Atom: "Cel", Function: "Cel", Scale: big.NewRat(1, 1000), Ref: exact.One(), RefDim: c.temp.Dim, To: to, From: from}
	u, err := special(c, "ucum:mCel", mCel)
	if err != nil || u.Prefixed != c.claims["ucum:Cel"] || u.Symbol != "ucum:mCel" {
		t.Fatalf("mCel: %+v, %v", u, err)
	}
	// 1000 mCel = 1 °C = 274.15 K.
	if a, b, cc, d := u.Conv.Map.Coefficients(); new(big.Rat).SetFrac(new(big.Int).Add(new(big.Int).Mul(a, big.NewInt(1000)), b), new(big.Int).Add(new(big.Int).Mul(cc, big.NewInt(1000)), d)).Cmp(big.NewRat(27415, 100)) != 0 {
		t.Errorf("1000 mCel is not 274.15 K: %v %v %v %v", a, b, cc, d)
	}
	cel := *mCel
	cel.Atom, cel.Scale = "Cel2", big.NewRat(1, 1)
	if u, err := special(c, "ucum:Cel2", &cel); err != nil || !u.Conv.FormulaUnit || u.Category != c.temp || u.Doc().Source != "UCUM, special unit Cel2 (function Cel); ucum table" {
		t.Fatalf("an unclaimed special unit: %+v, %v", u, err)
	}
	none := cel
	none.To = ""
	_, err = special(c, "ucum:x", &none)
	code(t, err, fault.InvalidUnitExpression, "which unitd does not implement")
	far := cel
	far.RefDim = dimension.Product("M")
	_, err = special(c, "ucum:x", &far)
	code(t, err, fault.Incompatible, "of which unitd has no category")
}

// TestPrefixedScale: QUDT's MilliDEG_C is degC under milli, checked
// against the factor and offset the table gives it.
func TestPrefixedScale(t *testing.T) {
	c := testCatalog(t)
	m := codes.Meaning{Dim: c.temp.Dim, Factor: exact.Factor{R: big.NewRat(1, 1000)}, Offset: big.NewRat(27315, 100), ScaleOf: "DEG_C", Scale: big.NewRat(1, 1000), Note: "milli"}
	// degC's documentation as a restored graph holds it, shared.
	degC := c.claims["qudt:DEG_C"]
	docs := graph.NewDocs(func() []graph.Doc {
		return []graph.Doc{{Source: "catalog", Examples: []graph.Example{{Value: "1", To: "K", Result: "274.15"}}}}
	})
	degC.SetDocs(docs, 0)
	u, err := prefixedScale(c, "qudt:MilliDEG_C", "qudt", m)
	if err != nil || u.CodeOf("qudt") != "MilliDEG_C" || u.Doc().Source != "QUDT: milli; qudt table" || u.Doc().Examples != nil {
		t.Fatalf("MilliDEG_C: %+v, %v", u, err)
	}
	if d := degC.Doc(); d.Source != "catalog" || len(d.Examples) != 1 {
		t.Errorf("MilliDEG_C changed degC's documentation: %+v", d)
	}
	wrong := m
	wrong.Offset = big.NewRat(0, 1)
	_, err = prefixedScale(c, "qudt:MilliDEG_C", "qudt", wrong)
	code(t, err, fault.Incompatible, "are not degC's under that prefix")
	unclaimed := m
	unclaimed.ScaleOf = "DEG_F"
	_, err = prefixedScale(c, "qudt:MilliDEG_F", "qudt", unclaimed)
	code(t, err, fault.UnknownUnit, "which no catalog unit claims")
}

// TestReadRefuses: a code of an unknown system is refused with the
// systems to try, a unece code that no unit claims with suggestions
// among the claimed ones, and any code without tables as such.
func TestReadRefuses(t *testing.T) {
	idx := claim.NewIndex(nil)
	for _, c := range []struct{ name, system, code, want string }{
		{"foo:m", "foo", "m", `unknown unit system "foo" in "foo:m": the systems are ucum, cldr, unece, qudt`},
		{"unece:MTR", "unece", "MTR", `unknown unece code "MTR"`},
		{"ucum:m", "ucum", "m", `unknown unit "ucum:m": this catalog has no code tables`},
	} {
		u, e, err := Read(nil, idx, c.name, c.system, c.code)
		var fe *fault.Error
		if u != nil || e != nil || !errors.As(err, &fe) || fe.Code != fault.UnknownUnit || fe.Message != c.want {
			t.Errorf("%s: %v %v %v, want %s", c.name, u, e, err, c.want)
		}
		if c.system == "foo" && (len(fe.Suggestions) != 4 || fe.Suggestions[0] != "ucum:m") {
			t.Errorf("%s: suggestions %q", c.name, fe.Suggestions)
		}
	}
}
