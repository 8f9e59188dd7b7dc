package engine

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"testing"

	"github.com/unitd/unitd/engine/internal/parallel"
)

// TestExampleErrorsInUnitOrder builds a catalog of many units with wrong
// worked examples, checked on several goroutines, and wants every error
// once, in the order of the units and of their examples.
func TestExampleErrorsInUnitOrder(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	units := []UnitSpec{{Symbol: "m", Name: "metre", Plural: "metres", System: "test", Source: "test", Exact: true}}
	var want []string
	for i := range 10 * parallel.Chunk {
		sym := fmt.Sprintf("u%d", i)
		us := UnitSpec{Symbol: sym, Name: "unit " + sym, Plural: "units " + sym, System: "test", Source: "test", Exact: true,
			Definition: DefinitionSpec{Unit: "m", Factor: fmt.Sprint(i + 1)}}
		for j := range i % 3 {
			// The first example of each unit is right, the others wrong.
			result := fmt.Sprint(i + 1)
			if j > 0 {
				result = fmt.Sprint(i + 2)
				want = append(want, fmt.Sprintf("unit %q: example %q: wrong result: it is %d m", sym, "1 "+sym+" = "+result+" m", i+1))
			}
			us.Examples = append(us.Examples, ExampleSpec{Value: "1", To: "m", Result: result, Origin: Origin{File: "t.yaml", Line: i + 1}})
		}
		units = append(units, us)
	}
	spec := Spec{Categories: []CategorySpec{{ID: "length", Name: "Length", Dimension: map[string]int{"L": 1}, Base: "m", Units: units}}}
	for range 5 {
		g, errs := Build(spec)
		if g != nil {
			t.Fatal("a catalog with wrong examples compiled")
		}
		var got []string
		for _, err := range errs {
			var se *SpecError
			if !errors.As(err, &se) {
				t.Fatalf("error %v is no *SpecError", err)
			}
			got = append(got, se.Subject+": "+se.Message)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("errors\n%q\nwant\n%q", got, want)
		}
	}
}
