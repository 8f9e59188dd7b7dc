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

// TestShippedPreferencesAgreeWithCatalog checks every CLDR unit of the
// shipped preferences against the catalog unit it is mapped to: the
// catalog's exact factor (and offset) to CLDR's base unit is CLDR's.
func TestShippedPreferencesAgreeWithCatalog(t *testing.T) {
	g, ps := shippedPreferences(t)
	if ps.Version != "48" || !strings.Contains(ps.Source, "cldr-core 48.2.0") || ps.Licence != "Unicode-3.0" {
		t.Fatalf("source %q version %q licence %q", ps.Source, ps.Version, ps.Licence)
	}
	if len(ps.Units) < 80 {
		t.Fatalf("only %d units", len(ps.Units))
	}
	for _, u := range ps.Units {
		t.Run(u.ID, func(t *testing.T) {
			want, ok := new(big.Rat).SetString(u.Factor)
			if !ok {
				t.Fatalf("factor %q", u.Factor)
			}
			if strings.HasPrefix(u.ID, "liter-per-") {
				// Consumption, a volume per length: the reciprocal of the
				// catalog's fuel economy (an inverse area).
				for _, x := range []string{"1", "8", "37"} {
					res, err := g.Convert(engine.Request{Value: x, From: u.Unit, To: "m^-2", Precision: 40})
					if err != nil {
						t.Fatal(err)
					}
					xr, _ := new(big.Rat).SetString(x)
					exp := new(big.Rat).Inv(new(big.Rat).Mul(xr, want))
					got, _ := new(big.Rat).SetString(res.Value)
					diff := new(big.Rat).Sub(got, exp)
					diff.Quo(diff, exp)
					if diff.Abs(diff).Cmp(big.NewRat(1, 1_000_000_000_000)) > 0 {
						t.Fatalf("%s %s is %s m^-2, CLDR says 1/%s", x, u.Unit, res.Value, new(big.Rat).Mul(xr, want).RatString())
					}
				}
				return
			}
			res, err := g.Convert(engine.Request{Value: "1", From: u.Unit, To: u.Base})
			if err != nil {
				t.Fatal(err)
			}
			ex := g.Explain(&res)
			got, ok := new(big.Rat).SetString(ex.Factor)
			if !ok || !ex.FactorExact || got.Cmp(want) != 0 {
				t.Fatalf("1 %s = %s %s in the catalog, %s in CLDR", u.Unit, ex.Factor, u.Base, u.Factor)
			}
			offset := new(big.Rat)
			if ex.Offset != "" {
				offset.SetString(ex.Offset)
			}
			wantOffset := new(big.Rat)
			if u.Offset != "" {
				wantOffset.SetString(u.Offset)
			}
			if offset.Cmp(wantOffset) != 0 {
				t.Fatalf("offset of %s: %s in the catalog, %s in CLDR", u.Unit, ex.Offset, u.Offset)
			}
		})
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
			unit := largestPart(t, ps, e.Unit)
			check := func(value string, atOrAbove bool) {
				t.Helper()
				res, err := g.Convert(engine.Request{Value: value, From: unit, To: engine.Auto, Usage: l.Usage, Region: region})
				if err != nil {
					t.Fatalf("%s %s %s/%s/%s: %v", value, unit, l.Quantity, l.Usage, region, err)
				}
				p := res.Preference
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
func largestPart(t *testing.T, ps *engine.PreferencesSpec, id string) string {
	t.Helper()
	first, _, _ := strings.Cut(id, "-and-")
	for _, u := range ps.Units {
		if u.ID == first {
			return u.Unit
		}
	}
	t.Fatalf("unit %s is not mapped", id)
	return ""
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
		if res.Unit != tt.want || res.Preference.Region != tt.region2 || res.Preference.MatchedRegion != tt.matched {
			t.Errorf("%s %s %s/%s/%s: %s region %s matched %s; want %s %s %s", tt.value, tt.from, tt.usage, tt.region, tt.locale,
				res.Unit, res.Preference.Region, res.Preference.MatchedRegion, tt.want, tt.region2, tt.matched)
		}
	}
}
