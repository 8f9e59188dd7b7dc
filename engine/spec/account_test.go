package spec

import (
	"reflect"
	"strings"
	"testing"
)

// TestCheckSpelling: a symbol or name of an account's unit starts with a
// letter and holds nothing another grammar reads.
func TestCheckSpelling(t *testing.T) {
	for _, c := range []struct {
		s    string
		word bool
		want string // a part of the reason, "" for none
	}{
		{"furlong", false, ""},
		{"µin", false, ""},
		{"ft_lb", false, ""},
		{"square league", true, ""},
		{"square league", false, `' ' is not allowed`},
		{"square  league", true, `' ' is not allowed`},
		{"league ", true, "ends with a space"},
		{"", false, "empty"},
		{"9lives", false, "must start with a letter"},
		{"m/s", false, `'/' is not allowed`},
		{"ucum:m", false, `':' is not allowed`},
		{"foot-and-inch", false, "mixed unit"},
		{"\xff", false, "not valid UTF-8"},
		{strings.Repeat("a", MaxAccountSymbol+1), false, "longer than 32 bytes"},
		{strings.Repeat("a", MaxAccountSymbol+1), true, ""},
	} {
		got := checkSpelling(c.s, c.word)
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("checkSpelling(%q, %v) = %q, want %q", c.s, c.word, got, c.want)
		}
	}
}

// TestCheckCategoryID: ids are the catalog's: lower case, digits and
// underscores after a first letter.
func TestCheckCategoryID(t *testing.T) {
	for id, ok := range map[string]bool{"widgets": true, "w2_b": true, "": false, "Widgets": false, "2w": false, "_w": false, "w-x": false, strings.Repeat("w", MaxAccountSymbol+1): false} {
		if got := CheckCategoryID(id); (got == "") != ok {
			t.Errorf("CheckCategoryID(%q) = %q", id, got)
		}
	}
}

// TestCheckAccountUnit: every rule reports once, in order, with the
// origin of what breaks it.
func TestCheckAccountUnit(t *testing.T) {
	at := Origin{File: "u.yaml", Line: 3, Column: 1}
	exAt := Origin{File: "u.yaml", Line: 9, Column: 5}
	us := &Unit{
		Symbol: "m/s", Name: "fine name", Plural: "bad  plural", Origin: at,
		Symbols:     []string{"ok", "9bad"},
		Description: strings.Repeat("d", MaxAccountText+1),
		Definition:  Definition{Factor: strings.Repeat("1", MaxAccountNumber+1), To: strings.Repeat("x", MaxAccountFormula+1)},
		Codes:       map[string]string{"ucum": "m"},
		Examples:    []Example{{Value: strings.Repeat("1", 4*MaxAccountNumber+1), Origin: exAt}},
	}
	var got []string
	for _, p := range CheckAccountUnit(us) {
		got = append(got, p.Origin.String()+": "+p.Message)
	}
	want := []string{
		`u.yaml:3:1: symbol: '/' is not allowed (letters, digits and . _ - ' only)`,
		`u.yaml:3:1: symbols: "9bad": must start with a letter`,
		`u.yaml:3:1: name "bad  plural": ' ' is not allowed (letters, digits and . _ - ' only, with single spaces inside)`,
		`u.yaml:3:1: description is longer than 1000 bytes`,
		`u.yaml:3:1: definition factor is longer than 100 bytes`,
		`u.yaml:3:1: definition to: a formula of an account is at most 200 bytes`,
		`u.yaml:3:1: codes: an account's unit claims no standard code; codes are the shared catalog's`,
		`u.yaml:9:5: example is longer than 400 bytes`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if ps := CheckAccountUnit(&Unit{Symbol: "furlong", Name: "furlong"}); len(ps) != 0 {
		t.Errorf("a plain unit breaks %v", ps)
	}
}

// TestCheckAccountCategory: an account's category is a plain kind of
// quantity with a known dimension.
func TestCheckAccountCategory(t *testing.T) {
	got := CheckAccountCategory(&Category{ID: "w", Dimension: map[string]int{"Q": 1}, Preferred: true, Logarithmic: true, Ambiguous: []Ambiguous{{}}})
	want := []string{
		"missing name",
		`unknown base dimension "Q" (known: M L T I Θ N J A D Z)`,
		"an account's category is never preferred: unit expressions belong to the catalog's categories",
		"an account's category cannot be logarithmic: levels need formulas with logarithms, which are the catalog's",
		"an account declares no ambiguous names",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if msgs := CheckAccountCategory(&Category{ID: "w", Name: "widgets", Dimension: map[string]int{}}); len(msgs) != 0 {
		t.Errorf("a plain category breaks %q", msgs)
	}
}
