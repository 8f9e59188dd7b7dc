package hint

import (
	"strings"
	"testing"

	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/internal/graph"
)

// names is a catalog of two temperature units and an energy unit, where
// a name is its unit's symbol.
type names struct {
	units map[string]*graph.Unit
	cats  map[string]*graph.Category
}

func testNames() names {
	temp, energy := &graph.Category{ID: "temperature"}, &graph.Category{ID: "energy"}
	n := names{units: map[string]*graph.Unit{}, cats: map[string]*graph.Category{"temperature": temp, "energy": energy}}
	for sym, c := range map[string]*graph.Category{"degC": temp, "degF": temp, "J": energy} {
		n.units[sym] = &graph.Unit{Symbol: sym, Category: c}
	}
	return n
}

func (n names) Unit(symbol string) *graph.Unit     { return n.units[symbol] }
func (n names) Category(id string) *graph.Category { return n.cats[id] }
func (n names) UnitNamed(name string) *graph.Unit  { return n.units[name] }
func (n names) CategoryNamed(name string) *graph.Category {
	if u := n.units[name]; u != nil {
		return u.Category
	}
	return nil
}

// TestCompileRefuses: every problem of an entry is reported at its
// origin, and the entry is left out of the table.
func TestCompileRefuses(t *testing.T) {
	good := Spec{Code: fault.Incompatible, From: Side{Unit: "degC"}, To: Side{Category: "energy"}, Hint: "no", Source: "s"}
	for _, tt := range []struct {
		name string
		edit func(*Spec)
		want string
	}{
		{"code", func(s *Spec) { s.Code = fault.InvalidValue }, `code "INVALID_VALUE" is not one of`},
		{"no text", func(s *Spec) { s.Hint = " " }, "missing hint"},
		{"long text", func(s *Spec) { s.Hint = strings.Repeat("x", maxLen+1) }, "the hint is longer than 500 bytes"},
		{"no source", func(s *Spec) { s.Source = "" }, "missing source"},
		{"two fields", func(s *Spec) { s.From.Pattern = "x" }, "from: give one of unit, category and pattern"},
		{"unit", func(s *Spec) { s.From.Unit = "degK" }, `from: "degK" is not the symbol of a unit`},
		{"category", func(s *Spec) { s.To.Category = "mass" }, `to: unknown category "mass"`},
		{"pattern", func(s *Spec) { s.To = Side{Pattern: "("} }, "to: pattern: error parsing regexp"},
	} {
		s := good
		s.Origin = fault.Origin{File: tt.name}
		tt.edit(&s)
		var got []string
		table := Compile([]Spec{good, s}, testNames(), func(o fault.Origin, msg string) { got = append(got, o.File+": "+msg) })
		if len(table) != 1 || len(got) != 1 || !strings.HasPrefix(got[0], tt.name+": "+tt.want) {
			t.Errorf("%s: %d entries, reports %q; want 1 entry and %q", tt.name, len(table), got, tt.want)
		}
	}
}

// TestFind: the first entry whose code and sides fit gives the hint, with
// the names as the request wrote them; a side matches by unit, by
// category, by a pattern of the whole text, or always when it names
// nothing.
func TestFind(t *testing.T) {
	n := testNames()
	table := Compile([]Spec{
		{Code: fault.Incompatible, From: Side{Unit: "degC"}, To: Side{Unit: "degF"}, Hint: "first {from} → {to}", Source: "s"},
		{Code: fault.Incompatible, From: Side{Category: "temperature"}, To: Side{Category: "energy"}, Hint: "heat is not temperature", Source: "s"},
		{Code: fault.UnknownUnit, From: Side{Pattern: "[A-Z]{3}"}, Hint: "{from} is a currency", Source: "s"},
		{Code: fault.Incompatible, From: Side{Unit: "degC"}, To: Side{Unit: "degF"}, Hint: "never: the first fits", Source: "s"},
	}, n, func(o fault.Origin, msg string) { t.Fatalf("report: %s", msg) })
	for _, tt := range []struct {
		code     fault.Code
		from, to string
		want     string
	}{
		{fault.Incompatible, "degC", "degF", "first degC → degF"},
		{fault.Incompatible, "degF", "J", "heat is not temperature"},
		{fault.UnknownUnit, "EUR", "m", "EUR is a currency"},
		{fault.UnknownUnit, "EURO", "m", ""},
		{fault.AmbiguousUnit, "degC", "degF", ""},
		{fault.Incompatible, "J", "degF", ""},
	} {
		got, ok := table.Find(tt.code, tt.from, tt.to, n)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("%s %s → %s: %q, %v; want %q", tt.code, tt.from, tt.to, got, ok, tt.want)
		}
	}
}
