package engine

import (
	"errors"
	"strings"
	"testing"
)

// hintSpec is testSpec with a table of hints.
func hintSpec(hints ...HintSpec) Spec {
	s := testSpec()
	s.Hints = hints
	return s
}

// TestHints: a failed conversion carries the hint of the first entry that
// fits its code and both sides (a unit by any spelling, a category, also
// of an expression, a pattern over the text written); the conversion
// still fails, and the error of a conversion no entry fits has no hint.
func TestHints(t *testing.T) {
	g, errs := Build(hintSpec(
		HintSpec{Code: CodeIncompatibleUnits, From: HintSide{Unit: "K"}, To: HintSide{Unit: "kg"}, Hint: "first: {from} to {to}", Source: "test"},
		HintSpec{Code: CodeIncompatibleUnits, From: HintSide{Unit: "K"}, Hint: "second, for any target", Source: "test"},
		HintSpec{Code: CodeIncompatibleUnits, From: HintSide{Category: "length"}, To: HintSide{Category: "time"}, Hint: "a length is not a time", Source: "test"},
		HintSpec{Code: CodeUnknownUnit, From: HintSide{Pattern: "[A-Z]{3}"}, To: HintSide{Pattern: "[A-Z]{3}"}, Hint: "{from} and {to} are currencies", Source: "test"},
	))
	if errs != nil {
		t.Fatal(errs)
	}
	for _, tt := range []struct {
		from, to string
		code     Code
		hint     string
	}{
		{"K", "kg", CodeIncompatibleUnits, "first: K to kg"},
		{"kelvins", "kilograms", CodeIncompatibleUnits, "first: kelvins to kilograms"},
		{"K", "s", CodeIncompatibleUnits, "second, for any target"},
		{"kg", "K", CodeIncompatibleUnits, ""},
		{"km", "h", CodeIncompatibleUnits, "a length is not a time"},
		{"m*m/m", "min", CodeIncompatibleUnits, "a length is not a time"}, // an expression of the category
		{"USD", "EUR", CodeUnknownUnit, "USD and EUR are currencies"},
		{"USD", "m", CodeUnknownUnit, ""},
		{"USDX", "EURO", CodeUnknownUnit, ""}, // the pattern spans the whole text
	} {
		_, err := g.Convert(Request{Value: "1", From: tt.from, To: tt.to})
		var e *Error
		if !errors.As(err, &e) || e.Code != tt.code {
			t.Errorf("%s → %s: %v, want %s", tt.from, tt.to, err, tt.code)
			continue
		}
		if e.Hint != tt.hint {
			t.Errorf("%s → %s: hint %q, want %q", tt.from, tt.to, e.Hint, tt.hint)
		}
		var res Result
		if _, err := g.AppendConvert(nil, &Request{Value: "1", From: tt.from, To: tt.to}, &res); !errors.As(err, &e) || e.Hint != tt.hint {
			t.Errorf("AppendConvert %s → %s: %v, hint %q", tt.from, tt.to, err, e.Hint)
		}
	}
	// A cached failure is not changed by a hint for it.
	if _, err := g.Convert(Request{Value: "1", From: "K", To: "kg"}); err == nil {
		t.Fatal("converted")
	}
	if _, err := g.Convert(Request{Value: "1", From: "kelvin", To: "kg"}); err.(*Error).Hint != "first: kelvin to kg" {
		t.Errorf("the second request's hint: %q", err.(*Error).Hint)
	}
}

// TestHintSpecErrors: the hint table is checked like the units: every
// unit and category it names exists, a pattern compiles, a side names one
// thing, the code is a unit error's, and a hint has its text and source.
func TestHintSpecErrors(t *testing.T) {
	at := Origin{File: "hints.yaml", Line: 3, Column: 5}
	ok := HintSpec{Origin: at, Code: CodeIncompatibleUnits, From: HintSide{Unit: "K"}, Hint: "h", Source: "s"}
	for _, tt := range []struct {
		name string
		edit func(*HintSpec)
		want string
	}{
		{"unknown unit", func(h *HintSpec) { h.To.Unit = "nosuch" }, `to: "nosuch" is not the symbol of a unit`},
		{"alias, not symbol", func(h *HintSpec) { h.From.Unit = "kelvin" }, `from: "kelvin" is not the symbol of a unit`},
		{"unknown category", func(h *HintSpec) { h.To.Category = "nosuch" }, `to: unknown category "nosuch"`},
		{"bad pattern", func(h *HintSpec) { h.From = HintSide{Pattern: "[A-Z"} }, "from: pattern: error parsing regexp"},
		{"two things", func(h *HintSpec) { h.To = HintSide{Unit: "m", Category: "length"} }, "to: give one of unit, category and pattern"},
		{"code", func(h *HintSpec) { h.Code = CodeInvalidValue }, `code "INVALID_VALUE" is not one of UNKNOWN_UNIT`},
		{"no text", func(h *HintSpec) { h.Hint = " " }, "missing hint"},
		{"long text", func(h *HintSpec) { h.Hint = strings.Repeat("x", 501) }, "longer than 500 bytes"},
		{"no source", func(h *HintSpec) { h.Source = "" }, "missing source"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := ok
			tt.edit(&h)
			g, errs := Build(hintSpec(h))
			if g != nil || len(errs) != 1 {
				t.Fatalf("Build = %v, %v; want one error", g, errs)
			}
			if got := errs[0].Error(); !strings.HasPrefix(got, "hints.yaml:3:5: hint: ") || !strings.Contains(got, tt.want) {
				t.Errorf("error %q, want it at hints.yaml:3:5 saying %q", got, tt.want)
			}
		})
	}
	if _, errs := Build(hintSpec(ok)); errs != nil {
		t.Errorf("a good hint: %v", errs)
	}
}
