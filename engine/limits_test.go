package engine

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
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
		_, err := parseExact(tt.src)
		if tt.ok && err != nil {
			t.Errorf("parseExact(%q): %v", tt.src, err)
		}
		if !tt.ok && !errors.Is(err, errExactTooLarge) {
			t.Errorf("parseExact(%q) = %v, want errExactTooLarge", tt.src, err)
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

// TestFormulaCostIsBounded: a formula whose intermediate results double
// their digits at each step is refused once they pass the bound, at
// compile time for long chains and per conversion for shorter ones,
// instead of taking seconds.
func TestFormulaCostIsBounded(t *testing.T) {
	for _, n := range []int{12, 22} {
		if _, errs := Build(chainSpec(n)); errs == nil {
			t.Errorf("a %d-step squaring chain compiled", n)
		}
	}
	g, errs := Build(chainSpec(7))
	if errs != nil {
		t.Fatalf("a 7-step chain should compile (its checks stay under the bound): %v", errs)
	}
	long := "1." + strings.Repeat("7", MaxValueLength-2)
	_, err := g.Convert(Request{Value: long, From: "sq", To: "m"})
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeValueOutOfRange {
		t.Fatalf("converting a %d-digit value through 7 squarings: %v, want VALUE_OUT_OF_RANGE", MaxValueLength-1, err)
	}
	if r, err := g.Convert(Request{Value: "2", From: "sq", To: "m"}); err != nil || r.Value != "2" {
		t.Errorf("a short value: %v %v, want 2", r.Value, err)
	}
}
