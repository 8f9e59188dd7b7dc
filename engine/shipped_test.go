package engine_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/unitd/unitd/catalog"
	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/engine/dimension"
)

// shipped compiles the shipped catalog, checking its worked examples on
// the way: through the plain path too, in the pass with the accelerators
// off (TestMain). It is compiled once per pass and shared by the tests of
// that pass (a graph is immutable); compiling it for each of eight tests
// twice was a sixth of the package's time under the race detector.
func shipped(t *testing.T) *engine.Graph {
	t.Helper()
	on := engine.Optimizing()
	shippedMu.Lock()
	defer shippedMu.Unlock()
	if shippedGraphs[on] == nil {
		g, errs := catalog.Load(catalog.Embedded())
		if len(errs) > 0 || g == nil {
			t.Fatalf("the shipped catalog does not compile: %v", errs)
		}
		shippedGraphs[on] = g
	}
	return shippedGraphs[on]
}

var (
	shippedMu     sync.Mutex
	shippedGraphs = map[bool]*engine.Graph{} // by the accelerators' gate
)

// TestAcceleratorsMatchPlain converts random pairs of units of every
// category of the shipped catalog at random values of every shape (signs,
// exponents, long coefficients) and precisions, with the accelerators on
// and off, and compares each answer or error.
func TestAcceleratorsMatchPlain(t *testing.T) {
	g := shipped(t)
	r := rand.New(rand.NewPCG(43, 47))
	value := func() string {
		digits := make([]byte, 1+r.IntN(22))
		for i := range digits {
			digits[i] = byte('0' + r.IntN(10))
		}
		s := string(digits)
		if r.IntN(2) == 0 && len(s) > 1 {
			cut := 1 + r.IntN(len(s)-1)
			s = s[:cut] + "." + s[cut:]
		}
		if r.IntN(3) == 0 {
			s += "e" + strconv.Itoa(r.IntN(40)-20)
		}
		if r.IntN(3) == 0 {
			s = "-" + s
		}
		return s
	}
	run := func(on bool, req engine.Request) string {
		defer engine.SetOptimize(on)()
		res, err := g.Convert(req)
		return fmt.Sprint(res.Value, " ", res.Exact, " ", err)
	}
	compared := 0
	for _, c := range g.Categories() {
		for range 40 {
			from, to := c.Units[r.IntN(len(c.Units))], c.Units[r.IntN(len(c.Units))]
			req := engine.Request{Value: value(), From: from.Symbol, To: to.Symbol, Precision: 1 + r.IntN(engine.MaxPrecision)}
			if fast, plain := run(true, req), run(false, req); fast != plain {
				t.Errorf("%s %s → %s at %d: %s; plain path %s", req.Value, req.From, req.To, req.Precision, fast, plain)
			}
			compared++
		}
	}
	if compared < 4000 {
		t.Errorf("compared only %d conversions", compared)
	}
}

// TestShippedSemantics checks answers of the shipped catalog that depend
// on the engine's rules: exactness of definitions, parentheses, domains,
// traps, and the written structure of a result's unit.
func TestShippedSemantics(t *testing.T) {
	g := shipped(t)
	for _, tt := range []struct {
		value, from, to string
		want, unit      string
		exact           bool
	}{
		// A measured definition makes the answer inexact however exact
		// its arithmetic.
		{"1", "Da", "kg", "1.6605390666e-27", "kg", false},
		{"1", "Mach", "m/s", "340.294", "m/s", false},
		{"1", "inHg_32F", "Pa", "3386.38", "Pa", false},
		{"2", "kg", "kg", "2", "kg", true},
		// An expression in parentheses gets past the separation of kinds.
		{"1", "J", "(N*m)", "1", "(N*m)", true},
		{"1", "SCFM", "(kat)", "0.01992151843629027510015446700521973", "(kat)", false},
		// A lone unit in parentheses keeps its own map.
		{"1", "(degC)", "degF", "33.8", "degF", true},
		{"1", "degC", "(K)", "274.15", "(K)", true},
		{"1", "(m)", "ft", "3.28083989501312335958005249343832", "ft", false},
		// The written structure, with ASCII operators.
		{"1", "N", "kg*m/s^2", "1", "kg*m/s^2", true},
		{"1", "N", "kg·m·s⁻²", "1", "kg*m*s^-2", true},
	} {
		r, err := g.Convert(engine.Request{Value: tt.value, From: tt.from, To: tt.to})
		if err != nil || r.Value != tt.want || r.Unit != tt.unit || r.Exact != tt.exact {
			t.Errorf("%s %s → %s = %s %s (exact %v) %v; want %s %s (exact %v)", tt.value, tt.from, tt.to, r.Value, r.Unit, r.Exact, err, tt.want, tt.unit, tt.exact)
		}
	}
	r, err := g.Convert(engine.Request{Value: "1", From: "Da", To: "kg"})
	if err != nil {
		t.Fatal(err)
	}
	if ex := g.Explain(&r); !slices.Contains(ex.Inexact, "Da") {
		t.Errorf("explain of 1 Da → kg names %v as inexact, want Da", ex.Inexact)
	}
	for _, tt := range []struct {
		value, from, to string
		code            engine.Code
		candidates      []string
	}{
		{"1", "J", "N*m", engine.CodeIncompatibleUnits, nil},
		{"-5", "L/100km", "mpg", engine.CodeValueOutOfRange, nil},
		{"0", "L/100km", "mpg", engine.CodeValueOutOfRange, nil},
		{"-5", "mpg", "L/100km", engine.CodeValueOutOfRange, nil},
		{"600", "degDe", "K", engine.CodeValueOutOfRange, nil}, // below absolute zero
		{"1", "W/mK", "W/(m*K)", engine.CodeAmbiguousUnit, []string{"W/(m*K)", "W*mK^-1"}},
		{"1", "W/(m*K)", "W/mK", engine.CodeAmbiguousUnit, []string{"W/(m*K)", "W*mK^-1"}},
	} {
		_, err := g.Convert(engine.Request{Value: tt.value, From: tt.from, To: tt.to})
		e, ok := err.(*engine.Error)
		if !ok || e.Code != tt.code || !slices.Equal(e.Candidates, tt.candidates) {
			t.Errorf("%s %s → %s: %v (candidates %v), want %s %v", tt.value, tt.from, tt.to, err, e.Candidates, tt.code, tt.candidates)
		}
	}
	// The spelled-out forms the trap names convert.
	for _, tt := range []struct{ from, to, want string }{{"W/(m*K)", "W/(m*K)", "1"}, {"W*mK^-1", "W/K", "1000"}} {
		if r, err := g.Convert(engine.Request{Value: "1", From: tt.from, To: tt.to}); err != nil || r.Value != tt.want {
			t.Errorf("1 %s → %s = %s %v, want %s", tt.from, tt.to, r.Value, err, tt.want)
		}
	}
	if r, err := g.Convert(engine.Request{Value: "-5", From: "L/100km", To: "mpg"}); err == nil {
		t.Errorf("-5 L/100km → mpg = %s, want VALUE_OUT_OF_RANGE", r.Value)
	}
}

// TestBuildMatchesPlain compiles the shipped catalog with the
// accelerators on and off and compares the two graphs through their
// snapshots, which hold every unit's exact maps, names and claims.
func TestBuildMatchesPlain(t *testing.T) {
	snapshot := func(on bool) []byte {
		defer engine.SetOptimize(on)()
		g, errs := catalog.Load(catalog.Embedded())
		if len(errs) > 0 || g == nil {
			t.Fatalf("the shipped catalog does not compile (accelerated %v): %v", on, errs)
		}
		return g.Snapshot()
	}
	fast, plain := snapshot(true), snapshot(false)
	if !slices.Equal(fast, plain) {
		t.Errorf("the accelerated build's snapshot (%d bytes) differs from the plain build's (%d bytes)", len(fast), len(plain))
	}
}

// TestCategoriesSayDimensionless: a category's Dimensionless flag, which
// a conversion reads instead of its dimension, says what the dimension
// says, in the built and in the restored shipped catalog.
func TestCategoriesSayDimensionless(t *testing.T) {
	restored, errs := catalog.LoadEmbedded()
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	some := 0
	for _, g := range []*engine.Graph{shipped(t), restored} {
		for _, c := range g.Categories() {
			if c.Dimensionless != (c.Dim == dimension.Vector{}) {
				t.Errorf("%s: dimensionless %v, dimension %s", c.ID, c.Dimensionless, c.DimensionText())
			}
			if c.Dimensionless {
				some++
			}
		}
	}
	if some == 0 {
		t.Error("no dimensionless category to check")
	}
}
