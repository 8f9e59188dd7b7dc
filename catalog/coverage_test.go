package catalog

import (
	"fmt"
	"testing"
	"testing/fstest"

	"github.com/unitd/unitd/engine"
)

// TestShippedClaimable: every UCUM, CLDR and QUDT unit that has a catalog
// counterpart is claimed by it, so coverage lists no code a catalog unit
// could still claim; the codes that meet a catalog unit only by dimension
// and factor are those unclaimed.yaml lists, each with its reason.
func TestShippedClaimable(t *testing.T) {
	g := shipped(t)
	seen := map[string]bool{}
	for _, c := range g.CodeCoverage() {
		seen[c.System] = true
		if c.Claimed+len(c.Unclaimed) != c.Units || c.Read+len(c.Unread) != c.Units {
			t.Errorf("%s: %d units, %d claimed and %d not, %d read and %d not", c.System, c.Units, c.Claimed, len(c.Unclaimed), c.Read, len(c.Unread))
		}
		if c.NClaimable != len(c.Claimable) || c.NDeclined != len(c.Declined) {
			t.Errorf("%s: counts %d and %d of lists of %d and %d", c.System, c.NClaimable, c.NDeclined, len(c.Claimable), len(c.Declined))
		}
		for _, cl := range c.Claimable {
			t.Errorf("%s:%s could be claimed by %v: claim it, or list it in unclaimed.yaml with the reason", c.System, cl.Code, cl.Units)
		}
		for _, d := range c.Declined {
			if d.Reason == "" {
				t.Errorf("%s:%s is unclaimed without a reason", c.System, d.Code)
			}
		}
		t.Logf("%s: %d units, %d claimed, %d unclaimed of which %d claimable and %d unclaimed with a reason", c.System, c.Units, c.Claimed, len(c.Unclaimed), c.NClaimable, c.NDeclined)
	}
	for _, s := range []string{engine.SystemUCUM, engine.SystemCLDR, engine.SystemQUDT} {
		if !seen[s] {
			t.Errorf("no coverage of %s", s)
		}
	}
}

// TestClaimable: a code is claimable by the catalog units of its meaning
// that come closest to its factor, unless one of those claims a code of
// the system already (the code is then a synonym); a unit that agrees only
// to the few digits the table states is no counterpart when another
// agrees to more.
func TestClaimable(t *testing.T) {
	unit := func(symbol, def, codes string) string {
		s := fmt.Sprintf("  - symbol: %s\n    name: %s\n    plural: %ss\n    system: test\n    exact: true\n    source: test\n", symbol, symbol, symbol)
		if def != "" {
			s += "    definition: " + def + "\n"
		}
		if codes != "" {
			s += "    codes: " + codes + "\n"
		}
		return s
	}
	length := "category:\n  id: length\n  name: Length\n  dimension: {L: 1}\n  base: m\nunits:\n" +
		unit("m", "", "{qudt: M}") +
		unit("in", "{factor: 0.0254, unit: m}", "") +
		unit("in_US", "{factor: 0.0254000508001016, unit: m}", "") +
		unit("ft", "{factor: 0.3048, unit: m}", "")
	files := fstest.MapFS{
		"length.yaml":    {Data: []byte(length)},
		"unclaimed.yaml": {Data: []byte("unclaimed:\n  - codes: [qudt:FT]\n    reason: a test\n")},
	}
	g, errs := Load(files)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var qudt engine.Coverage
	for _, c := range g.CodeCoverage() {
		if c.System == engine.SystemQUDT {
			qudt = c
		}
	}
	got := map[string]string{}
	for _, c := range qudt.Claimable {
		got[c.Code] = fmt.Sprint(c.Units)
	}
	// QUDT's IN and ZOLL are 0.0254 m, which the inch is exactly and the
	// survey inch to its four digits: the inch alone could claim them.
	for code, want := range map[string]string{"IN": "[in]", "ZOLL": "[in]"} {
		if got[code] != want {
			t.Errorf("qudt:%s claimable by %q, want %s", code, got[code], want)
		}
	}
	// M2-PER-M is 1 m, which m claims as M: a synonym. FT is listed
	// unclaimed: declined, not claimable.
	for _, code := range []string{"M", "M2-PER-M", "FT"} {
		if _, ok := got[code]; ok {
			t.Errorf("qudt:%s is claimable by %s", code, got[code])
		}
	}
	if len(qudt.Declined) != 1 || qudt.Declined[0] != (engine.Declined{Code: "FT", Reason: "a test"}) {
		t.Errorf("declined %v, want FT for a test", qudt.Declined)
	}
}
