package engine

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/unitd/unitd/engine/internal/exact"
)

// TestExactNumbersAreBounded: factor expressions whose exact value would
// have millions of digits are refused at once instead of being computed.
func TestExactNumbersAreBounded(t *testing.T) {
	for _, tt := range []struct {
		src string
		ok  bool
	}{
		{"0.3048", true},
		{"0.0254^3", true},
		{"2^99", true},
		{"(((9^99)^99)^99)^99", false},
		{"(9^99)^99", false},
		{"(2^99*3^99)^9", true}, // about 700 digits
		{"(2^99*3^99)^15", false},
		{"10^99/3^99*7^99*(11^99)", true}, // about 400 digits: within the bound
		{"(10^99/3^99*7^99*(11^99))^4", false},
	} {
		_, err := exact.ParseFactor(tt.src)
		if tt.ok && err != nil {
			t.Errorf("exact.ParseFactor(%q): %v", tt.src, err)
		}
		if !tt.ok && !errors.Is(err, exact.ErrFactorTooLarge) {
			t.Errorf("exact.ParseFactor(%q) = %v, want exact.ErrFactorTooLarge", tt.src, err)
		}
	}
}

// squaringChain is a formula that squares its input n times and then
// returns it unchanged: it inverts itself, so it compiles, and each step
// doubles the digits of what it computes.
func squaringChain(n int) string {
	var b strings.Builder
	prev := "x"
	for i := range n {
		name := "a" + strconv.Itoa(i)
		fmt.Fprintf(&b, "let %s = %s * %s; ", name, prev, prev)
		prev = name
	}
	b.WriteString("x")
	return b.String()
}

func chainSpec(n int) Spec {
	return Spec{Version: "t", Categories: []CategorySpec{{
		ID: "length", Name: "Length", Dimension: map[string]int{"L": 1}, Base: "m",
		Units: []UnitSpec{
			{Symbol: "m", Name: "metre", Plural: "metres", System: "SI", Exact: true, Source: "t"},
			{Symbol: "sq", Name: "square chain", Plural: "square chains", System: "SI", Exact: true, Source: "t",
				Definition: DefinitionSpec{Unit: "m", To: squaringChain(n), From: squaringChain(n)}},
		},
	}}}
}

// TestFormulaCostIsBounded: a formula that squares its input again and
// again is no Möbius map, so it runs on decimals at the working precision,
// where no intermediate grows: a long chain is refused at Build (its
// values leave the decimals' range at every sample point), a short one
// converts a long value at once.
func TestFormulaCostIsBounded(t *testing.T) {
	if _, errs := Build(chainSpec(22)); errs == nil {
		t.Errorf("a 22-step squaring chain compiled")
	}
	g, errs := Build(chainSpec(7))
	if errs != nil {
		t.Fatalf("a 7-step chain should compile: %v", errs)
	}
	long := "1." + strings.Repeat("7", MaxValueLength-2)
	r, err := g.Convert(Request{Value: long, From: "sq", To: "m", Precision: 50})
	if err != nil || r.Value != "1."+strings.Repeat("7", 48)+"8" || r.Exact {
		t.Fatalf("converting a %d-digit value through 7 squarings: %v %v (exact %v)", MaxValueLength-1, r.Value, err, r.Exact)
	}
	if r, err := g.Convert(Request{Value: "2", From: "sq", To: "m"}); err != nil || r.Value != "2" {
		t.Errorf("a short value: %v %v, want 2", r.Value, err)
	}
}

// additionChain is a formula of n lets, each the sum of the one before
// with itself, starting from x / 3: 2^n·x/3. Added as fractions without
// reduction, its denominator squared at every step.
func additionChain(n int) string {
	var b strings.Builder
	b.WriteString("let a0 = x / 3; ")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "let a%d = a%d + a%d; ", i, i-1, i-1)
	}
	fmt.Fprintf(&b, "a%d", n)
	return b.String()
}

// TestHostileFormulaIsCheap: a chain of 26 additions compiles into one
// exact map with small coefficients (it used to square a denominator at
// every step, minutes of CPU and a gigabyte), and a chain whose
// coefficients really grow is refused once they pass the bound, at
// compile time.
func TestHostileFormulaIsCheap(t *testing.T) {
	spec := func(to, from string) Spec {
		return Spec{Version: "t", Categories: []CategorySpec{{
			ID: "length", Name: "Length", Dimension: map[string]int{"L": 1}, Base: "m",
			Units: []UnitSpec{
				{Symbol: "m", Name: "metre", Plural: "metres", System: "SI", Exact: true, Source: "t"},
				{Symbol: "h", Name: "hostile", Plural: "hostiles", System: "SI", Exact: true, Source: "t",
					Definition: DefinitionSpec{Unit: "m", To: to, From: from}},
			},
		}}}
	}
	g, errs := Build(spec(additionChain(26), "x * 3 / 67108864"))
	if errs != nil {
		t.Fatal(errs)
	}
	if r, err := g.Convert(Request{Value: "3", From: "h", To: "m"}); err != nil || r.Value != "67108864" || !r.Exact {
		t.Errorf("3 h = %v %v (exact %v), want exactly 67108864 m", r.Value, err, r.Exact)
	}
	// Each step multiplies by a 15-digit constant: 600 of them pass the
	// bound of about 2466 digits.
	var b strings.Builder
	b.WriteString("let a0 = x; ")
	for i := 1; i <= 600; i++ {
		fmt.Fprintf(&b, "let a%d = a%d * 999999999999999; ", i, i-1)
	}
	b.WriteString("a600")
	_, errs = Build(spec(b.String(), "x"))
	if len(errs) == 0 || !strings.Contains(errs[0].Error(), "too large") {
		t.Errorf("a chain of 600 large products: %v, want a refusal as too large", errs)
	}
}

// TestBuildStopsWhenCancelled: a build whose context is done stops and
// says so, so that a reload's timeout ends its work.
func TestBuildStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	g, errs := BuildContext(ctx, testSpec())
	if g != nil || len(errs) == 0 || !errors.Is(errs[len(errs)-1], context.Canceled) {
		t.Errorf("BuildContext with a cancelled context: %v, %v; want no graph and context.Canceled", g, errs)
	}
	if g, errs := BuildContext(context.Background(), testSpec()); g == nil || errs != nil {
		t.Errorf("BuildContext: %v", errs)
	}
}

// TestUnitsAreBounded: a catalog whose prefixes would make more than
// MaxUnits units is refused before any of them is compiled.
func TestUnitsAreBounded(t *testing.T) {
	spec := func(declared int) Spec {
		units := []UnitSpec{{Symbol: "b", Name: "base", Plural: "bases", System: "t", Exact: true, Source: "t"}}
		for i := range declared {
			units = append(units, UnitSpec{Symbol: fmt.Sprintf("u%dq", i), Name: fmt.Sprintf("unit %d", i), Plural: fmt.Sprintf("units %d", i),
				System: "t", Exact: true, Source: "t", Prefixes: &PrefixSpec{Set: "si"}, Definition: DefinitionSpec{Unit: "b", Factor: strconv.Itoa(i + 2)}})
		}
		return Spec{Categories: []CategorySpec{{ID: "x", Name: "X", Base: "b", Units: units}}}
	}
	// 800 declared units and 24 prefixes each: 20,001 units.
	g, errs := Build(spec(800))
	if g != nil || len(errs) != 1 || !strings.Contains(errs[0].Error(), "compiles 20001 units") {
		t.Errorf("800 prefixed units: %v, want one error naming 20001 units", errs)
	}
	if g, errs := Build(spec(40)); g == nil || errs != nil {
		t.Errorf("40 prefixed units: %v", errs)
	}
	// 100 declared units with 40 aliases each and 24 prefixes: 2,500
	// units, but about 107,500 spellings.
	many := spec(100)
	for i := range many.Categories[0].Units[1:] {
		u := &many.Categories[0].Units[1+i]
		for k := range 40 {
			u.Aliases = append(u.Aliases, fmt.Sprintf("alias %d %d", i, k))
		}
	}
	g, errs = Build(many)
	if g != nil || len(errs) != 1 || !strings.Contains(errs[0].Error(), "symbols and names") {
		t.Errorf("prefixed units with many aliases: %v, want one error about symbols and names", errs)
	}
}
