package substance

import (
	"slices"
	"sync"
	"testing"
)

// TestUnknownSuggests checks the suggestions of an unknown name, which
// index the names claimed on first use, from goroutines asking at once:
// each gets the substances whose names (IDs, names, aliases) are closest.
func TestUnknownSuggests(t *testing.T) {
	charged := func(id, name string, aliases ...string) SubstanceSpec {
		return SubstanceSpec{ID: id, Name: name, Aliases: aliases, Charge: 1, ChargeSource: "a test"}
	}
	c, errs := Build(nil, nil, []SubstanceSpec{
		charged("glucose", "glucose", "dextrose"),
		charged("fructose", "fructose"),
		charged("sucrose", "table sugar"),
	}, nil, nil)
	if errs != nil {
		t.Fatal(errs)
	}
	for _, tc := range []struct {
		name string
		want string // the first suggestion
	}{
		{"glucoze", "glucose"},
		{"dextrse", "glucose"},
		{"fructos", "fructose"},
		{"table sugr", "sucrose"},
	} {
		var wg sync.WaitGroup
		got := make([][]string, 4)
		for i := range got {
			wg.Go(func() { got[i] = c.Unknown(tc.name, "").Suggestions })
		}
		wg.Wait()
		for _, s := range got {
			if len(s) == 0 || s[0] != tc.want || !slices.Equal(s, got[0]) {
				t.Errorf("%q: suggestions %v, want %s first and the same each time (%v)", tc.name, s, tc.want, got)
				break
			}
		}
	}
}
