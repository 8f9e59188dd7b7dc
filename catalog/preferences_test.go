package catalog

import (
	"math/big"
	"strings"
	"testing"

	"github.com/unitd/unitd/engine"
)

// shippedPreferences loads the shipped catalog and its preference data.
func shippedPreferences(t *testing.T) (*engine.Graph, *engine.PreferencesSpec) {
	t.Helper()
	g := shipped(t)
	spec := shippedSpec(t)
	if spec.Preferences == nil {
		t.Fatal("the shipped catalog has no preferences")
	}
	return g, spec.Preferences
}

// TestShippedPreferencesAreClaims: the catalog's claims of CLDR unit
// identifiers are the one mapping between CLDR and the catalog. Every
// unit of every preference list (each part of a mixed unit) is the
// catalog unit that claims its identifier (its plain unit's, for a person
// unit such as year-person), or, for an identifier no unit claims (one
// made of others, centimeter-per-hour), what cldr:<id> names in the
// catalog; the preferences map only the units of a substance themselves.
func TestShippedPreferencesAreClaims(t *testing.T) {
	g, ps := shippedPreferences(t)
	if ps.Version != "48" || !strings.Contains(ps.Source, "cldr-core 48.2.0") || ps.Licence != "Unicode-3.0" {
		t.Fatalf("source %q version %q licence %q", ps.Source, ps.Version, ps.Licence)
	}
	mapped := map[string]bool{}
	for _, u := range ps.Units {
		if u.Substance == "" {
			t.Errorf("preferences.yaml maps %s to %s, which the catalog's claims say", u.ID, u.Unit)
		}
		mapped[u.ID] = true
	}
	_, sets, ok, err := g.Preferences("", "", "")
	if !ok || err != nil {
		t.Fatalf("no preferences: %v", err)
	}
	units := 0
	for _, set := range sets {
		for _, l := range set.Lists {
			for _, pu := range l.Units {
				if mapped[pu.CLDR] {
					continue
				}
				units++
				ids, symbols := strings.Split(pu.CLDR, "-and-"), strings.Split(pu.Unit, "+")
				if len(ids) != len(symbols) {
					t.Errorf("%s is %s", pu.CLDR, pu.Unit)
					continue
				}
				for i, id := range ids {
					want := g.CLDRClaimant(id)
					if plain, ok := strings.CutSuffix(id, "-person"); ok && want == "" {
						want = g.CLDRClaimant(plain)
					}
					if want == "" {
						u, ex, err := g.Resolve("cldr:" + id)
						switch {
						case err != nil:
							t.Errorf("%s: %v", id, err)
							continue
						case u != nil:
							t.Errorf("cldr:%s names the catalog's %s, which does not claim it", id, u.Symbol)
							continue
						}
						want = ex.Symbol
					}
					if symbols[i] != want {
						t.Errorf("the preferences read CLDR's %s as %s; the catalog's claims make it %s", id, symbols[i], want)
					}
				}
			}
		}
	}
	if units < 100 {
		t.Fatalf("only %d units in the preference lists", units)
	}
	// The units of the -u-mu- key are claims too: kelvin names no list.
	for locale, want := range map[string]string{"de-u-mu-kelvin": "K", "de-u-mu-fahrenhe": "degF", "en-u-mu-celsius": "degC"} {
		res, err := g.Convert(engine.Request{Value: "20", From: "degC", To: engine.Auto, Locale: locale})
		if err != nil || res.Unit != want {
			t.Errorf("20 degC to auto in %s: %s %v, want %s", locale, res.Unit, err, want)
		}
	}
}

// TestShippedPreferenceThresholds derives cases from the shipped data:
// for every list of more than one unit and every threshold in it, a value
// at the threshold (in the unit, or its largest part) chooses that unit,
// a value just above it too, and a value just below it a later one.
func TestShippedPreferenceThresholds(t *testing.T) {
	g, ps := shippedPreferences(t)
	cases := 0
	for _, l := range ps.Lists {
		if len(l.Entries) < 2 {
			continue
		}
		region := l.Regions[0]
		for i, e := range l.Entries[:len(l.Entries)-1] {
			geq := e.Geq
			if geq == "" {
				geq = "1"
			}
			unit := largestPart(t, g, ps, e.Unit)
			check := func(value string, atOrAbove bool) {
				t.Helper()
				res, err := g.Convert(engine.Request{Value: value, From: unit, To: engine.Auto, Usage: l.Usage, Region: region})
				if err != nil {
					t.Fatalf("%s %s %s/%s/%s: %v", value, unit, l.Quantity, l.Usage, region, err)
				}
				p := res.Preference()
				if p == nil || p.Quantity != l.Quantity || p.MatchedUsage != l.Usage || p.MatchedRegion != region {
					t.Fatalf("%s %s %s/%s/%s: preference %+v", value, unit, l.Quantity, l.Usage, region, p)
				}
				if atOrAbove && (p.Chosen != i || !p.Reached) {
					t.Errorf("%s %s %s/%s/%s: chose %d (%s), want %d (%s)", value, unit, l.Quantity, l.Usage, region, p.Chosen, res.Unit, i, e.Unit)
				}
				if !atOrAbove && p.Chosen <= i {
					t.Errorf("%s %s %s/%s/%s: chose %d (%s), want one after %d", value, unit, l.Quantity, l.Usage, region, p.Chosen, res.Unit, i)
				}
				cases++
			}
			at, _ := new(big.Rat).SetString(geq)
			check(geq, true)
			check(new(big.Rat).Add(at, big.NewRat(1, 1_000_000_000)).FloatString(12), true)
			check(new(big.Rat).Sub(at, big.NewRat(1, 1_000_000_000)).FloatString(12), false)
		}
	}
	if cases < 40 {
		t.Fatalf("only %d cases", cases)
	}
}

// largestPart is the catalog unit of a CLDR unit, or of the first part of
// a CLDR mixed unit.
func largestPart(t *testing.T, g *engine.Graph, ps *engine.PreferencesSpec, id string) string {
	t.Helper()
	first, _, _ := strings.Cut(id, "-and-")
	for _, u := range ps.Units {
		if u.ID == first {
			return u.Unit
		}
	}
	u, ex, err := g.Resolve("cldr:" + first)
	switch {
	case err != nil:
		t.Fatalf("unit %s: %v", id, err)
	case u != nil:
		return u.Symbol
	}
	return ex.Symbol
}

// TestShippedPreferenceRegions checks the fall-back through the shipped
// containment tree and the likely regions of languages.
func TestShippedPreferenceRegions(t *testing.T) {
	g, _ := shippedPreferences(t)
	tests := []struct {
		value, from, usage, region, locale string
		want, region2, matched             string
	}{
		// The examples of the contract and the issue.
		{"1.75", "m", "person-height", "GB", "", "ft+in", "GB", "GB"},
		{"1.75", "m", "person-height", "AT", "", "m+cm", "AT", "AT"},
		{"1.75", "m", "person-height", "DE", "", "cm", "DE", "001"},
		{"70", "kg", "person", "GB", "", "st+lb", "GB", "GB"},
		{"20", "degC", "weather", "US", "", "degF", "US", "US"},
		{"20", "degC", "weather", "", "de", "degC", "DE", "001"},
		{"20", "km", "road", "SE", "", "mil_sc", "SE", "SE"},
		{"20", "km", "road", "", "en-GB", "mi", "GB", "GB"},
		{"20", "km", "road", "", "en", "mi", "US", "US"},
		{"20", "km", "road", "", "sv", "mil_sc", "SE", "SE"},
		{"20", "km", "road", "", "fr-CA", "km", "CA", "001"},
		{"5.5", "L/100km", "vehicle-fuel", "", "en-CA", "mpg_imp", "CA", "CA"},
		{"5.5", "L/100km", "vehicle-fuel", "JP", "", "L/km", "JP", "JP"},
		{"90", "s", "media", "", "", "min+s", "001", "001"},
		{"1000", "d", "person-age", "", "", "yr_greg", "001", "001"},
		{"400", "d", "person-age", "", "", "yr_greg+mo_greg", "001", "001"},
		{"2", "mmol/L", "", "", "", "entity/m3", "001", "001"},
		// Regions without their own list fall back to 001 through the tree.
		{"20", "km", "road", "150", "", "km", "150", "001"},
		{"20", "km", "road", "UK", "", "mi", "GB", "GB"},
		{"20", "km", "road", "", "zh-Hant", "km", "TW", "001"},
		{"20", "km", "road", "", "und", "mi", "US", "US"},
	}
	for _, tt := range tests {
		res, err := g.Convert(engine.Request{Value: tt.value, From: tt.from, To: engine.Auto, Usage: tt.usage, Region: tt.region, Locale: tt.locale})
		if err != nil {
			t.Errorf("%+v: %v", tt, err)
			continue
		}
		if res.Unit != tt.want || res.Preference().Region != tt.region2 || res.Preference().MatchedRegion != tt.matched {
			t.Errorf("%s %s %s/%s/%s: %s region %s matched %s; want %s %s %s", tt.value, tt.from, tt.usage, tt.region, tt.locale,
				res.Unit, res.Preference().Region, res.Preference().MatchedRegion, tt.want, tt.region2, tt.matched)
		}
	}
}
