package graph

import (
	"testing"

	"github.com/unitd/unitd/engine/codes"
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
