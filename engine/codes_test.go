package engine

import (
	"errors"
	"strings"
	"testing"
)

// TestCodesWithoutTables: a catalog without code tables answers every
// namespaced name with UNKNOWN_UNIT, a unece code too (it once reached
// for the tables it did not have).
func TestCodesWithoutTables(t *testing.T) {
	g, errs := Build(Spec{Categories: []CategorySpec{{ID: "length", Name: "Length", Base: "m", Dimension: map[string]int{"L": 1},
		Units: []UnitSpec{{Symbol: "m", Name: "metre", Plural: "metres", System: "SI", Source: "t", Exact: true}}}}})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for name, want := range map[string]string{
		"unece:MTR": `unknown unece code "MTR"`,
		"ucum:m":    `unknown unit "ucum:m": this catalog has no code tables`,
		"qudt:M":    `unknown unit "qudt:M": this catalog has no code tables`,
		"foo:m":     `unknown unit system "foo" in "foo:m"`,
	} {
		_, err := g.Convert(Request{Value: "1", From: name, To: "m"})
		var e *Error
		if !errors.As(err, &e) || e.Code != CodeUnknownUnit || !strings.HasPrefix(e.Message, want) {
			t.Errorf("%s: %v, want UNKNOWN_UNIT %s", name, err, want)
		}
	}
	if src := g.CodeSource(SystemUCUM); src != "" {
		t.Errorf("the source of no table is %q", src)
	}
}
