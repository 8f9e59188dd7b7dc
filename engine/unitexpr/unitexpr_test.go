package unitexpr

import (
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/unitd/unitd/engine/dimension"
	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/internal/graph"
)

// catalog is a few units by name, with no category for any dimension.
type catalog map[string]*graph.Unit

func (c catalog) LookupName(name string) (*graph.Unit, error, bool) {
	u, ok := c[name]
	return u, nil, ok
}

func (c catalog) Lookup(name string) (*graph.Unit, error) {
	if u, ok := c[name]; ok {
		return u, nil
	}
	return nil, fault.Errorf(fault.UnknownUnit, "unknown unit %q", name)
}

func (c catalog) Symbol(s string) (*graph.Unit, bool) { u, ok := c[s]; return u, ok }

func (c catalog) MaxName() int {
	n := 0
	for k := range c {
		n = max(n, len(k))
	}
	return n
}

func (c catalog) CategoryOf(dimension.Vector) *graph.Category { return nil }

// testCatalog has metre, second, kilogram, kelvin, millikelvin, foot and
// the speed unit m/s, a name that holds an operator.
func testCatalog() catalog {
	c := catalog{}
	add := func(symbol, dim, factor string) {
		r, _ := new(big.Rat).SetString(factor)
		u := &graph.Unit{Symbol: symbol, Category: &graph.Category{Dim: dimension.Product(dim)}, Coherent: exact.Factor{R: r}}
		u.Conv.Exact = true
		c[symbol] = u
	}
	add("m", "L", "1")
	add("s", "T", "1")
	add("kg", "M", "1")
	add("K", "Θ", "1")
	add("mK", "Θ", "1/1000")
	add("ft", "L", "0.3048")
	c["m/s"] = &graph.Unit{Symbol: "m/s", Category: &graph.Category{Dim: dimension.Product("L").Add(dimension.Product("T"), -1)}, Coherent: exact.Factor{R: big.NewRat(1, 1)}}
	return c
}

// TestParse: the grammar's precedence, powers, superscripts and the
// longest name, read into the canonical symbol, the terms' effective
// exponents and the factor onto the coherent SI unit.
func TestParse(t *testing.T) {
	c := testCatalog()
	for _, tt := range []struct {
		in, symbol, dim, factor string
	}{
		{"kg*m/s^2", "kg*m/s^2", "M L T^-2", "1"},
		{"kg·m⋅s⁻²", "kg*m*s^-2", "M L T^-2", "1"},
		{"m/s/s", "m/s/s", "L T^-2", "1"},
		{"m/(s*s)", "m/(s*s)", "L T^-2", "1"},
		{"ft^2", "ft^2", "L^2", "0.09290304"},
		{"ft**3", "ft^3", "L^3", "0.028316846592"},
		{"1/s", "1/s", "T^-1", "1"},
		{" m / s ", "m/s", "L T^-1", "1"},
		{"(m/s)^2", "(m/s)^2", "L^2 T^-2", "1"},
	} {
		e, err := Parse(c, tt.in, nil)
		if err != nil {
			t.Errorf("%q: %v", tt.in, err)
			continue
		}
		want, _ := new(big.Rat).SetString(tt.factor)
		if e.Symbol != tt.symbol || e.DimensionText() != tt.dim || e.Coherent.R.Cmp(want) != 0 || e.Coherent.K != 0 {
			t.Errorf("%q: %q, %s, factor %v; want %q, %s, %s", tt.in, e.Symbol, e.DimensionText(), e.Coherent.R, tt.symbol, tt.dim, tt.factor)
		}
	}
}

// TestParseRefuses: what is no expression is INVALID_UNIT_EXPRESSION at
// the position of the fault, counted in characters from 1; an unknown
// operand is UNKNOWN_UNIT, and mK right after a slash AMBIGUOUS_UNIT.
func TestParseRefuses(t *testing.T) {
	c := testCatalog()
	for _, tt := range []struct {
		in   string
		code fault.Code
		has  string
	}{
		{"m*", fault.InvalidUnitExpression, "at the end (position 3)"},
		{"m^10", fault.InvalidUnitExpression, "exponent 10 at position 2"},
		{"µ*/s", fault.UnknownUnit, "at position 1"},
		{"m*/s", fault.InvalidUnitExpression, "expected a unit at position 3"},
		{"(m*s", fault.InvalidUnitExpression, "parenthesis at position 1 is not closed"},
		{"2*m", fault.InvalidUnitExpression, "the number 2 at position 1"},
		{"m*furlong", fault.UnknownUnit, "at position 3"},
		{"W/mK", fault.UnknownUnit, ""},
		{"m/mK", fault.AmbiguousUnit, "m/(m*K)"},
		{strings.Repeat("m*", 200) + "m", fault.InvalidUnitExpression, "longer than"},
		{"m\xff", fault.InvalidUnitExpression, "UTF-8"},
	} {
		_, err := Parse(c, tt.in, nil)
		var e *fault.Error
		if !errors.As(err, &e) || e.Code != tt.code || !strings.Contains(e.Message, tt.has) {
			t.Errorf("%q: %v, want %s containing %q", tt.in, err, tt.code, tt.has)
		}
	}
}

// TestParseExcluding: the excluded unit is no operand, so a base unit's
// symbol reads as an expression of the others or not at all.
func TestParseExcluding(t *testing.T) {
	c := testCatalog()
	if e, err := Parse(c, "m/s", c["m/s"]); err != nil || len(e.Terms) != 2 {
		t.Fatalf("m/s without the unit m/s: %v, %v", e, err)
	}
	if e, err := Parse(c, "m/s", nil); err != nil || len(e.Terms) != 1 || e.Terms[0].Unit != c["m/s"] {
		t.Fatalf("m/s: %v, %v", e, err)
	}
}
