package graph

import (
	"errors"
	"math/big"
	"testing"

	"github.com/unitd/unitd/engine/codes"
	"github.com/unitd/unitd/engine/internal/exact"
)

// TestCodeSlotsFollowCodeSystems: a unit keeps its codes in the order of
// codes.Systems, and no other system has a slot.
func TestCodeSlotsFollowCodeSystems(t *testing.T) {
	if len(codes.Systems) != len(UnitCodes{}) {
		t.Fatalf("%d code systems, %d slots", len(codes.Systems), len(UnitCodes{}))
	}
	for i, s := range codes.Systems {
		if codeSlot(s) != i {
			t.Errorf("%s in slot %d, want %d", s, codeSlot(s), i)
		}
	}
	if codeSlot("") != -1 || codeSlot("UCUM") != -1 || codeSlot("iso") != -1 {
		t.Error("a slot for what is no code system")
	}
}

// TestNewBound: a minimum bounds a linear or affine map as (x·a + b)/d ≥
// minimum, read back exactly; a map through π or a minimum·d that is no
// terminating decimal is an error, and no minimum or a pole bounds
// nothing.
func TestNewBound(t *testing.T) {
	abs := big.NewRat(-27315, 100)                                      // absolute zero in °C
	degF, err := exact.Affine(big.NewRat(5, 9), big.NewRat(-160, 9), 0) // °F onto °C
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewBound(abs, degF)
	if err != nil || b == nil {
		t.Fatalf("°F: %v, %v", b, err)
	}
	// (5x - 160)/9 ≥ -273.15 ⇔ 5x - 160 ≥ -2458.35.
	if b.A.String() != "5" || b.B.String() != "-160" || b.Min.String() != "-2458.35" {
		t.Errorf("°F: %s·x + %s ≥ %s", b.A.String(), b.B.String(), b.Min.String())
	}
	third, _ := exact.Linear(big.NewRat(1, 3), 0)
	if _, err := NewBound(big.NewRat(1, 7), third); err == nil {
		t.Error("a minimum of 1/7 · 3 bounded exactly")
	}
	withPi, _ := exact.Linear(big.NewRat(1, 180), 1)
	if _, err := NewBound(abs, withPi); !errors.Is(err, exact.ErrPiInside) {
		t.Errorf("a map through π: %v", err)
	}
	for _, m := range []*exact.Map{nil, exact.Reciprocal()} {
		if b, err := NewBound(abs, m); b != nil || err != nil {
			t.Errorf("%v: %v, %v", m, b, err)
		}
	}
	if b, err := NewBound(nil, degF); b != nil || err != nil {
		t.Errorf("no minimum: %v, %v", b, err)
	}
}
