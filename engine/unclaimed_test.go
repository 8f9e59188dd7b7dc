package engine_test

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/unitd/unitd/catalog"
)

// TestUnclaimedCodeErrors compiles the shipped catalog with a list of
// unclaimed codes that has every kind of wrong entry, and wants each
// refused, in the list's order.
func TestUnclaimedCodeErrors(t *testing.T) {
	mfs := fstest.MapFS{}
	err := fs.WalkDir(catalog.Embedded(), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(catalog.Embedded(), path)
		mfs[path] = &fstest.MapFile{Data: data}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	mfs["unclaimed.yaml"] = &fstest.MapFile{Data: []byte(`unclaimed:
  - codes: [foo:bar, ucum:notacode, qudt:M, qudt:PER-HR, qudt:PER-HR, qudt:A-HR-PER-DEG_C]
    reason: "test"
  - codes: [qudt:NUM-PER-HR]
    reason: " "
`)}
	_, errs := catalog.Load(mfs)
	var got []string
	for _, err := range errs {
		if s := err.Error(); strings.Contains(s, "unclaimed codes") {
			got = append(got, s)
		}
	}
	want := []string{
		`"foo:bar" is not a ucum:, cldr: or qudt: code`,
		`ucum:notacode is not a unit of the UCUM table`,
		`qudt:M is claimed by unit "m"`,
		`qudt:PER-HR is listed twice`,
		`no catalog unit could claim qudt:A-HR-PER-DEG_C`,
		`the entry gives no reason`,
	}
	if len(got) != len(want) {
		t.Fatalf("got %d errors of the unclaimed codes, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range want {
		if !strings.Contains(got[i], want[i]) || !strings.Contains(got[i], "unclaimed.yaml:") {
			t.Errorf("error %d is %q; want one at unclaimed.yaml containing %q", i, got[i], want[i])
		}
	}
}
