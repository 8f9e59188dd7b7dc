package main

import (
	"bytes"
	"os"
	"testing"
)

// TestShippedTables regenerates engine/text/tables.go from the pinned
// sources kept in testdata and fails when the shipped file differs: the
// tables are the generator's, never edited by hand.
func TestShippedTables(t *testing.T) {
	files, err := ReadTestData("testdata")
	if err != nil {
		t.Fatal(err)
	}
	got, err := Generate(files)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("../../engine/text/tables.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("engine/text/tables.go differs from the generator's output: run go run ./tools/textwords")
	}
}

// TestNumbers reads a NUMBERS dictionary as the files write it.
func TestNumbers(t *testing.T) {
	src := []byte("x\n    NUMBERS = {\n        (1.0/8):['eighth','an eigth'],\n        1.0 / 3: [\"a third\"], # c\n        12:['twelve','a dozen'],\n        }\n")
	got, err := numbers(src)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"eighth": "1/8", "an eigth": "1/8", "a third": "1/3", "twelve": "12", "a dozen": "12"}
	if len(got) != len(want) {
		t.Fatalf("%d entries, want %d", len(got), len(want))
	}
	for _, e := range got {
		if want[e.text] != e.v.RatString() {
			t.Errorf("%q = %s, want %s", e.text, e.v.RatString(), want[e.text])
		}
	}
}
