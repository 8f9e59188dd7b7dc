package catalog

import (
	"testing"

	"github.com/unitd/unitd/engine"
)

// TestCodesIdentity reaches every catalog unit through each code it claims
// (Unit.Codes: ucum, cldr, qudt, unece) and converts each claim to the
// unit's own symbol and to each other claim, at 1, 37.5 and -37.5 both
// ways: a code names the catalog unit that claims it, so every one of
// these conversions is the identity. The negative value is left out for a
// unit that refuses it itself (a temperature from absolute zero).
func TestCodesIdentity(t *testing.T) {
	g := shipped(t)
	r := newDiffReport(t, "codes", nil)
	systems := []string{"ucum", "cldr", "qudt", "unece"}
	units := 0
	for _, u := range g.Units() {
		var names []string
		for _, s := range systems {
			if c := u.CodeOf(s); c != "" {
				names = append(names, s+":"+c)
			}
		}
		if len(names) == 0 {
			continue
		}
		units++
		values := differentialValues
		if _, _, err := convertRecovering(g, engine.Request{Value: "-37.5", From: u.Symbol, To: u.Symbol}); err != nil {
			values = values[:2]
		}
		targets := append([]string{u.Symbol}, names...)
		for i, from := range names {
			// Each claim to the symbol, and to each later claim.
			for _, to := range append([]string{targets[0]}, targets[i+2:]...) {
				pair := from + " → " + to
				for _, v := range values {
					for _, dir := range [][2]string{{from, to}, {to, from}} {
						r.convertCase(g, pair, engine.Request{Value: v, From: dir[0], To: dir[1], Precision: engine.DefaultPrecision}, v, func(got, want string) bool {
							return decimal(t, got).Cmp(decimal(t, want)) == 0
						})
					}
				}
			}
		}
	}
	if units < 500 {
		t.Fatalf("%d catalog units claim a code; expected the shipped catalog's", units)
	}
	t.Logf("codes: %d units that claim codes", units)
	r.finish()
}
