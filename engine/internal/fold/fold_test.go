package fold

import (
	"strings"
	"testing"
)

// TestKey checks that Key, which returns most names as they are, gives
// what lower-casing and joining the words gives, on every string of up to
// four characters over an alphabet of the cases that matter (upper case,
// spaces, other white space, non-ASCII letters and spaces) and on names
// of the catalog's kinds.
func TestKey(t *testing.T) {
	slow := func(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }
	alphabet := []string{"a", "B", " ", "\t", "\n", "\u00a0", "É", "é", "-", "1"}
	checked := 0
	var walk func(s string, depth int)
	walk = func(s string, depth int) {
		if got, want := Key(s), slow(s); got != want {
			t.Fatalf("Key(%q) = %q, want %q", s, got, want)
		}
		checked++
		if depth == 0 {
			return
		}
		for _, c := range alphabet {
			walk(s+c, depth-1)
		}
	}
	walk("", 4)
	for _, s := range []string{"glucose", "HDL cholesterol", "sodium chloride", "50-00-0", "water  vapour", " ethanol", "ethanol ", "β-carotene", "vitamin b12"} {
		if got, want := Key(s), slow(s); got != want {
			t.Errorf("Key(%q) = %q, want %q", s, got, want)
		}
	}
	if checked < 10000 {
		t.Errorf("only %d strings checked", checked)
	}
}
