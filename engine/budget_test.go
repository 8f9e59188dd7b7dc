package engine

import (
	"errors"
	"testing"
)

// nearOne is a milliwatt value whose level in dBm, about 4e-94, lies far
// below the accelerator's absolute error: only the plain path can round it.
const nearOne = "1.000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001"

// TestBudget: conversions that need the slow path spend the request's
// budget, one unit per widening, and once it is spent they fail with
// WORK_BUDGET_EXCEEDED before doing the work, while conversions that need
// no slow work go on.
func TestBudget(t *testing.T) {
	g := testGraph(t)
	b := NewBudget(3)
	slow := Request{Value: nearOne, From: "mW", To: "dBm", Budget: b}
	for i := range 3 {
		if _, err := g.Convert(slow); err != nil {
			t.Fatalf("slow conversion %d within the budget: %v", i, err)
		}
	}
	if b.Left() != 0 {
		t.Fatalf("three slow conversions left %d units, want 0", b.Left())
	}
	_, err := g.Convert(slow)
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeWorkBudgetExceeded {
		t.Fatalf("slow conversion past the budget: %v, want %s", err, CodeWorkBudgetExceeded)
	}
	// Linear conversions never touch the budget.
	if r, err := g.Convert(Request{Value: "12.5", From: "ft", To: "m", Budget: b}); err != nil || r.Value != "3.81" {
		t.Errorf("linear conversion with a spent budget: %v %v", r.Value, err)
	}
	// With the accelerator on, an ordinary level costs nothing.
	fresh := NewBudget(1)
	if _, err := g.Convert(Request{Value: "0.25", From: "W", To: "dBm", Budget: fresh}); err != nil {
		t.Fatal(err)
	}
	if want := 1; optimize && fresh.Left() != want {
		t.Errorf("0.25 W → dBm spent %d units with the accelerator, want none", 1-fresh.Left())
	}
	// Without a budget nothing is limited.
	for range 5 {
		if _, err := g.Convert(Request{Value: nearOne, From: "mW", To: "dBm"}); err != nil {
			t.Fatal(err)
		}
	}
}
