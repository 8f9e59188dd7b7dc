package engine

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
)

// TestExampleErrorsInUnitOrder builds a catalog of many units with wrong
// worked examples, checked on several goroutines, and wants every error
// once, in the order of the units and of their examples.
func TestExampleErrorsInUnitOrder(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	units := []UnitSpec{{Symbol: "m", Name: "metre", Plural: "metres", System: "test", Source: "test", Exact: true}}
	var want []string
	for i := range 10 * parallelChunk {
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

// TestInParallel calls every index once, and stops taking work when the
// context is done, saying how many of the first indices it did.
func TestInParallel(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	for _, n := range []int{0, 1, parallelChunk - 1, parallelChunk, 5*parallelChunk + 3} {
		calls := make([]atomic.Int32, n)
		if done := inParallel(context.Background(), n, func(i int) { calls[i].Add(1) }); done != n {
			t.Errorf("n = %d: done %d", n, done)
		}
		for i := range calls {
			if c := calls[i].Load(); c != 1 {
				t.Errorf("n = %d: index %d called %d times", n, i, c)
			}
		}
	}
	// Cancelled before: nothing is done.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var calls atomic.Int32
	if done := inParallel(ctx, 10*parallelChunk, func(int) { calls.Add(1) }); done != 0 || calls.Load() != 0 {
		t.Errorf("cancelled before: done %d, %d calls", done, calls.Load())
	}
	// Cancelled during, on one goroutine: the chunk under way is finished
	// and no other is taken.
	runtime.GOMAXPROCS(1)
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	calls.Store(0)
	done := inParallel(ctx, 100*parallelChunk, func(i int) {
		if i == 3*parallelChunk {
			cancel()
		}
		calls.Add(1)
	})
	if done != 4*parallelChunk || calls.Load() != 4*parallelChunk {
		t.Errorf("cancelled at index %d: done %d, %d calls; want %d and %d", 3*parallelChunk, done, calls.Load(), 4*parallelChunk, 4*parallelChunk)
	}
}
