package engine

import "testing"

// TestSuggestionsAreGood: the suggestions a reader expects for common
// mistakes in the test catalog.
func TestSuggestionsAreGood(t *testing.T) {
	g := testGraph(t)
	for _, tt := range []struct {
		name  string
		first string
	}{
		{"metr", "m"},
		{"mtr", "m"},
		{"metrs", "m"},
		{"fet", "ft"},
		{"feett", "ft"},
		{"FEEET", "ft"},
		{"kilometrs", "km"},
		{"kilometre s", "km"},
	} {
		_, err := g.Lookup(tt.name)
		e, ok := err.(*Error)
		if !ok || e.Code != CodeUnknownUnit {
			t.Fatalf("Lookup(%q) = %v, want UNKNOWN_UNIT", tt.name, err)
		}
		if len(e.Suggestions) == 0 || e.Suggestions[0] != tt.first || len(e.Suggestions) > 5 {
			t.Errorf("suggestions for %q = %v, want %s first, at most 5", tt.name, e.Suggestions, tt.first)
		}
	}
}
