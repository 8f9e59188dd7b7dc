package build

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/internal/fold"
	"github.com/unitd/unitd/engine/internal/graph"
	"github.com/unitd/unitd/engine/internal/plan"
	"github.com/unitd/unitd/engine/spec"
	"github.com/unitd/unitd/engine/unitexpr"
)

// names reads a core's names, and an overlay's before them, as the
// engine does for plain names (expressions are the engine's, and these
// tests use none).
type names struct {
	t  *Core
	ov *Overlay
}

func (n names) Lookup(name string) (*graph.Unit, error) {
	if n.ov != nil {
		if graph.HasAccountPrefix(name) {
			name = name[len(graph.AccountPrefix):]
		}
		if u := n.ov.Find(name); u != nil {
			return u, nil
		}
	}
	if u, ok := n.t.BySymbol.Get(name); ok {
		return u, nil
	}
	if u, ok := n.t.ByWord.Get(fold.Key(name)); ok {
		return u, nil
	}
	return nil, fmt.Errorf("unknown unit %q", name)
}

func (n names) Resolve(name string) (plan.Side, error) {
	u, err := n.Lookup(name)
	return plan.Side{Unit: u}, err
}

func (n names) ParseExpressionExcluding(s string, _ *graph.Unit) (*unitexpr.Expression, error) {
	return nil, errors.New("no expressions here")
}

func unit(sym, factor, ref string, examples ...spec.Example) spec.Unit {
	return spec.Unit{Symbol: sym, Name: sym + " unit", Plural: sym + " units", System: "test", Exact: true, Source: "test",
		Definition: spec.Definition{Factor: factor, Unit: ref, Origin: spec.Origin{File: "test.yaml", Line: 2}}, Examples: examples,
		Origin: spec.Origin{File: "test.yaml", Line: len(sym)}}
}

func example(v, from, to, result string) spec.Example {
	return spec.Example{Value: v, From: from, To: to, Result: result, Origin: spec.Origin{File: "test.yaml", Line: 3}}
}

func catalog(units ...spec.Unit) *spec.Catalog {
	m := unit("m", "", "")
	m.Prefixes = &spec.Prefix{Set: "si", Only: []string{"c", "k"}}
	degC := unit("degC", "1", "K", example("-273.15", "degC", "K", "0"))
	degC.Definition.Offset = "273.15"
	return &spec.Catalog{Version: "test", Categories: []spec.Category{
		{ID: "length", Name: "Length", Dimension: map[string]int{"L": 1}, Base: "m", Units: append([]spec.Unit{m}, units...)},
		{ID: "temperature", Name: "Temperature", Dimension: map[string]int{"Θ": 1}, Base: "K", Minimum: "0", Units: []spec.Unit{
			unit("K", "", ""), degC,
		}},
	}}
}

// compile compiles cat both ways, and checks that the two ways agree on
// every unit's map and on the problems.
func compile(t *testing.T, cat *spec.Catalog) (*Core, []error) {
	t.Helper()
	var cores [2]*Core
	var problems [2][]error
	for i, fast := range []bool{false, true} {
		cores[i] = new(Core)
		errs, ok := Catalog(context.Background(), cores[i], cat, Options{Names: names{t: cores[i]}, Compiler: plan.NewCompiler(), Fast: fast})
		if !ok {
			t.Fatalf("fast=%v: compiling stopped: %v", fast, errs)
		}
		problems[i] = errs
	}
	if fmt.Sprint(problems[0]) != fmt.Sprint(problems[1]) {
		t.Errorf("the two ways report different problems:\nplain: %v\nfast:  %v", problems[0], problems[1])
	}
	if len(problems[0]) == 0 {
		for i, u := range cores[0].Units {
			f0, o0, ok0 := u.BaseMap()
			f1, o1, ok1 := cores[1].Units[i].BaseMap()
			if ok0 != ok1 || ok0 && (f0.Cmp(f1) != 0 || o0.Cmp(o1) != 0) {
				t.Errorf("%s: plain map %v%+v, fast %v%+v", u.Symbol, f0, o0, f1, o1)
			}
		}
	}
	return cores[1], problems[1]
}

func TestCatalog(t *testing.T) {
	c, errs := compile(t, catalog(
		unit("in", "2.54", "cm"),
		unit("ft", "12", "in", example("1", "ft", "m", "0.3048")),
		unit("yd", "3", "ft unit"),
	))
	for _, err := range errs {
		t.Error(err)
	}
	if len(c.Units) != 8 { // m cm km in ft yd K degC
		t.Errorf("%d units compiled, want 8", len(c.Units))
	}
	for _, tc := range []struct{ sym, factor, offset string }{
		{"km", "1000", "0"}, {"ft", "381/1250", "0"}, {"yd", "1143/1250", "0"}, {"degC", "1", "5463/20"},
	} {
		u, ok := c.BySymbol.Get(tc.sym)
		if !ok {
			t.Errorf("%s is not indexed", tc.sym)
			continue
		}
		f, o, ok := u.BaseMap()
		if !ok || f.RatString() != tc.factor || o.RatString() != tc.offset {
			t.Errorf("%s: base = x·%v + %v, want x·%s + %s", tc.sym, f, o, tc.factor, tc.offset)
		}
	}
	if c.ByID["length"] == nil || c.ByID["length"].Base.Symbol != "m" {
		t.Error("length is not indexed with its base m")
	}
	if c.MaxName < len("degC units") {
		t.Errorf("MaxName %d is shorter than a name", c.MaxName)
	}
}

func TestCatalogProblems(t *testing.T) {
	for _, tc := range []struct {
		name  string
		units []spec.Unit
		want  string
	}{
		{"cycle", []spec.Unit{unit("a", "2", "b"), unit("b", "2", "a")}, "refers back to itself through a cycle"},
		{"unknown", []spec.Unit{unit("a", "2", "zz")}, `definition refers to unknown unit "zz"`},
		{"wrong example", []spec.Unit{unit("ft", "0.3048", "m", example("1", "ft", "m", "0.3"))}, "wrong result: it is 0.3048 m"},
		{"rounded example written as exact", []spec.Unit{unit("third", "1/3", "m", example("1", "third", "m", "0.3333"))}, "wrong result"},
		{"duplicate", []spec.Unit{unit("ft", "0.3048", "m"), unit("ft", "0.3", "m")}, `"ft"`},
		{"nonpositive factor", []spec.Unit{unit("a", "-2", "m")}, "factor must be positive"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errs := compile(t, catalog(tc.units...))
			if len(errs) == 0 {
				t.Fatalf("no problem reported, want %q", tc.want)
			}
			var se *fault.SpecError
			if !errors.As(errs[0], &se) || se.Origin.File != "test.yaml" {
				t.Errorf("%v is not located in test.yaml", errs[0])
			}
			if !strings.Contains(fmt.Sprint(errs), tc.want) {
				t.Errorf("problems %v, want one saying %q", errs, tc.want)
			}
		})
	}
}

// TestOverlay compiles an account's units over a catalog's core: its
// names are its own, under "my:", and what it may declare is bounded.
func TestOverlay(t *testing.T) {
	root, errs := compile(t, catalog())
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	defs := &spec.Catalog{Categories: []spec.Category{{ID: "length", Units: []spec.Unit{
		unit("smoot", "1.7018", "m", example("10", "smoot", "m", "17.018")),
		unit("halfsmoot", "1/2", "smoot"),
		unit("bad", "2", "nothing"),
	}}}}
	for _, lenient := range []bool{false, true} {
		a := Account{Base: root, Root: root, Find: func(string) (*graph.Unit, *graph.Ambiguity) { return nil, nil },
			Lenient: lenient, Limits: Limits{Units: 10, Categories: 1}}
		ov, err := NewOverlay(a, defs)
		if err != nil {
			t.Fatal(err)
		}
		core := *root
		errs, ok := ov.Compile(context.Background(), &core, defs, a, Options{Names: names{t: &core, ov: ov}, Compiler: plan.NewCompiler(), Fast: true})
		if !ok || len(errs) != 1 || !strings.Contains(errs[0].Error(), `unknown unit "nothing"`) {
			t.Fatalf("lenient=%v: problems %v, want the one of bad", lenient, errs)
		}
		if !lenient {
			continue
		}
		var got []string
		for _, u := range ov.Units() {
			got = append(got, u.Symbol)
		}
		if strings.Join(got, " ") != "my:smoot my:halfsmoot" {
			t.Errorf("compiled %v, want my:smoot my:halfsmoot", got)
		}
		if u := ov.Find("halfsmoot"); u == nil || u.Doc().Definition.Unit != "my:smoot" {
			t.Errorf("halfsmoot is %+v, want it defined through my:smoot", u)
		}
		if why, ok := ov.BrokenWhy("bad"); !ok || why == "" {
			t.Error("the overlay does not say why bad was left out")
		}
		if len(ov.Problems()) != 1 {
			t.Errorf("problems kept: %v", ov.Problems())
		}
	}
	_, err := NewOverlay(Account{Limits: Limits{Units: 2, Categories: 1}}, defs)
	if err == nil || !strings.Contains(err.Error(), "at most 2") {
		t.Errorf("three units over a limit of two: %v", err)
	}
	_, err = NewOverlay(Account{Limits: Limits{Units: 10}}, &spec.Catalog{Bridges: []spec.Bridge{{}}})
	if err == nil || !strings.Contains(err.Error(), "not bridges") {
		t.Errorf("an account's bridge: %v", err)
	}
}
