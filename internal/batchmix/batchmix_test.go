package batchmix

import (
	"encoding/json"
	"testing"
)

// TestBody checks the batch holds Size conversions cycling through the
// pairs, and that WithDBm changes only the 24th pair.
func TestBody(t *testing.T) {
	var req struct {
		Conversions []struct{ Value, From, To string }
	}
	if err := json.Unmarshal(Body(WithDBm(Pairs)), &req); err != nil {
		t.Fatal(err)
	}
	if len(req.Conversions) != Size {
		t.Fatalf("%d conversions, want %d", len(req.Conversions), Size)
	}
	for i, c := range req.Conversions {
		want := Pairs[i%len(Pairs)]
		if i%len(Pairs) == 23 {
			want = [2]string{"dBm", "mW"}
		}
		if c.From != want[0] || c.To != want[1] || c.Value == "" {
			t.Errorf("item %d = %+v, want %v", i, c, want)
		}
	}
	if Pairs[23][0] == "dBm" {
		t.Error("WithDBm changed Pairs itself")
	}
}
