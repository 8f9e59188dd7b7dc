package engine

import (
	"strings"
	"testing"
)

// prefSpec is testSpec with a few more units and unit preferences shaped
// like the examples of UTS #35 Part 6, "Unit Preferences": length for
// roads by region (with thresholds), a person's height with a mixed unit,
// and a region tree 001 > 150 > 154 > SE, GB.
func prefSpec() Spec {
	spec := testSpec()
	lin := func(sym, factor, unit string) UnitSpec {
		return UnitSpec{Symbol: sym, Name: sym, Plural: sym + "s", System: "test", Exact: true, Source: "test",
			Definition: DefinitionSpec{Factor: factor, Unit: unit}}
	}
	for i := range spec.Categories {
		c := &spec.Categories[i]
		switch c.ID {
		case "length":
			c.Units = append(c.Units, lin("mi", "1760", "yd"), lin("mil_sc", "10000", "m"), lin("sevenm", "7", "m"))
		case "mass":
			c.Units = append(c.Units, lin("oz", "1/16", "lb"), lin("st", "14", "lb"))
		case "angle":
			c.Units = append(c.Units, lin("arcmin", "1/60", "deg"), lin("arcsec", "1/60", "arcmin"))
		}
	}
	unit := func(id, u string) PreferenceUnitSpec { return PreferenceUnitSpec{ID: id, Unit: u} }
	list := func(q, use, regions string, entries ...string) PreferenceListSpec {
		l := PreferenceListSpec{Quantity: q, Usage: use, Regions: strings.Fields(regions)}
		for _, e := range entries {
			u, geq, _ := strings.Cut(e, ">=")
			l.Entries = append(l.Entries, PreferenceEntrySpec{Unit: strings.TrimSpace(u), Geq: strings.TrimSpace(geq)})
		}
		return l
	}
	spec.Preferences = &PreferencesSpec{
		Source: "test preferences", Version: "test",
		Units: []PreferenceUnitSpec{
			unit("kilometer", "km"), unit("meter", "m"), unit("centimeter", "cm"), unit("mile", "mi"),
			unit("foot", "ft"), unit("inch", "in"), unit("yard", "yd"), unit("mile-scandinavian", "mil_sc"),
			unit("kilogram", "kg"), unit("pound", "lb"), unit("stone", "st"), unit("ounce", "oz"),
			unit("celsius", "degC"), unit("fahrenheit", "degF"), unit("kelvin", "K"),
		},
		Lists: []PreferenceListSpec{
			list("length", "default", "001", "kilometer", "meter", "centimeter"),
			list("length", "default", "GB US", "mile", "foot", "inch"),
			list("length", "road", "001", "kilometer >= 0.9", "meter >= 300.0", "meter >= 10.0", "meter"),
			list("length", "road", "US", "mile >= 0.5", "foot >= 100.0", "foot >= 10.0", "foot"),
			list("length", "road", "GB", "mile >= 0.5", "yard >= 100.0", "yard >= 10.0", "yard"),
			list("length", "road", "154", "mile-scandinavian", "kilometer", "meter"),
			list("length", "person-height", "001", "centimeter"),
			list("length", "person-height", "US GB", "foot-and-inch >= 3.0", "inch"),
			list("mass", "default", "001", "kilogram"),
			list("mass", "person", "001", "kilogram"),
			list("mass", "person", "GB", "stone-and-pound", "pound-and-ounce"),
			list("temperature", "default", "001", "celsius"),
			list("temperature", "default", "US", "fahrenheit"),
		},
		Contains: map[string][]string{
			"001": {"150", "019"}, "150": {"154", "155"}, "154": {"GB", "SE"}, "155": {"DE", "FR"},
			"019": {"021"}, "021": {"US", "CA"},
		},
		Aliases: map[string]string{"UK": "GB"},
		Likely:  map[string]string{"en": "US", "sv": "SE", "de": "DE", "zh-Hant": "TW", "und-Latn": "US", "fr": "FR"},
	}
	spec.Preferences.Contains["030"] = []string{"TW"}
	spec.Preferences.Contains["001"] = append(spec.Preferences.Contains["001"], "030")
	return spec
}

func prefGraph(t testing.TB) *Graph {
	t.Helper()
	g, errs := Build(prefSpec())
	for _, err := range errs {
		t.Error(err)
	}
	if g == nil {
		t.Fatal("Build failed")
	}
	return g
}

// TestPreferenceThresholds checks the choice at, just below and just above
// each threshold (geq): "the first matching unitPreference for the input
// measure ... If there is no match, take the last"; "If there is no geq
// attribute, then the implicit value is 1.0"; negative values are
// compared by their magnitude.
func TestPreferenceThresholds(t *testing.T) {
	g := prefGraph(t)
	tests := []struct {
		value, from, usage, region string
		want                       string
		reached                    bool
	}{
		// road/001: km from 0.9 km, m from 300 m and from 10 m, else m.
		{"0.9", "km", "road", "", "km", true},
		{"0.8999999999", "km", "road", "", "m", true},
		{"900", "m", "road", "", "km", true},
		{"899.999", "m", "road", "", "m", true},
		{"300", "m", "road", "", "m", true},
		{"10", "m", "road", "", "m", true},
		{"9.99", "m", "road", "", "m", false},
		{"-1000", "m", "road", "", "km", true},
		// road/US: mi from 0.5 mi (804.672 m).
		{"804.672", "m", "road", "US", "mi", true},
		{"804.6719999", "m", "road", "US", "ft", true},
		{"0.5000001", "mi", "road", "US", "mi", true},
		{"2640", "ft", "road", "US", "mi", true},
		{"2639.999", "ft", "road", "US", "ft", true},
		{"9.9", "ft", "road", "US", "ft", false},
		// road/GB: yards.
		{"100", "yd", "road", "GB", "yd", true},
		{"0.49", "mi", "road", "GB", "yd", true},
		// length/default/001: implicit geq 1 on km and m.
		{"1000", "m", "default", "", "km", true},
		{"999.999", "m", "", "", "m", true},
		{"1", "m", "", "", "m", true},
		{"0.999", "m", "", "", "cm", false},
		{"0", "m", "", "", "cm", false},
		// A mixed unit's threshold is in its largest part: 3 ft.
		{"3", "ft", "person-height", "US", "ft+in", true},
		{"0.9144", "m", "person-height", "US", "ft+in", true},
		{"0.9143999", "m", "person-height", "US", "in", false},
		{"35.99", "in", "person-height", "US", "in", false},
		{"175", "cm", "person-height", "", "cm", false},
		// An expression's quantity is that of its dimension's category.
		{"1500", "km*m/m", "road", "", "km", true},
		{"1.5", "m*s/s", "road", "", "m", false},
		// mass/person/GB: st+lb from 1 st, else lb+oz.
		{"6.35029318", "kg", "person", "GB", "st+lb", true},
		{"6.35", "kg", "person", "GB", "lb+oz", false},
	}
	for _, tt := range tests {
		t.Run(tt.value+tt.from+"/"+tt.usage+"/"+tt.region, func(t *testing.T) {
			res, err := g.Convert(Request{Value: tt.value, From: tt.from, To: Auto, Usage: tt.usage, Region: tt.region})
			if err != nil {
				t.Fatal(err)
			}
			if res.Unit != tt.want || res.Preference() == nil || res.Preference().Reached != tt.reached {
				t.Fatalf("got %s (%+v), want %s reached=%v", res.Unit, res.Preference(), tt.want, tt.reached)
			}
		})
	}
}

// TestPreferenceThresholdBrackets checks thresholds that do not terminate
// in the source unit (300 m is 42.857142… sevenm, 900 m 128.571428…):
// values on either side, within and beyond 40 digits of the threshold,
// where the comparison of decimals cannot decide and the exact one must.
func TestPreferenceThresholdBrackets(t *testing.T) {
	g := prefGraph(t)
	tests := []struct {
		value  string
		chosen int
	}{
		{"42.857142857142857142857142857142857142857143", 1},
		{"42.857142857142857142857142857142857142857142", 2},
		{"-42.857142857142857142857142857142857142857143", 1},
		{"-42.857142857142857142857142857142857142857142", 2},
		{"42.86", 1},
		{"42.85", 2},
		{"128.571428571428571428571428571428571428571429", 0},
		{"128.571428571428571428571428571428571428571428", 1},
		{"-128.571428571428571428571428571428571428571428", 1},
		{"1.428571428571428571428571428571428571428571", 3},
		{"1.428571428571428571428571428571428571428572", 2},
		{"1.4285714285714285714285714285714285714285714", 3},
	}
	for _, tt := range tests {
		res, err := g.Convert(Request{Value: tt.value, From: "sevenm", To: Auto, Usage: "road"})
		if err != nil {
			t.Fatal(err)
		}
		if res.Preference().Chosen != tt.chosen {
			t.Errorf("%s sevenm: chose %d (%s), want %d", tt.value, res.Preference().Chosen, res.Unit, tt.chosen)
		}
	}
}

// TestPreferenceFallBack checks the fall-backs of UTS #35: a usage
// without its last part, then "default"; a region through the regions
// that contain it, up to 001; the region of a locale, from its region
// subtag, its -u-rg-, -u-ms- and -u-mu- keys, or its language's likely
// region.
func TestPreferenceFallBack(t *testing.T) {
	g := prefGraph(t)
	tests := []struct {
		name, value, from, usage, region, locale string
		want, matchedUsage, regionUsed, matched  string
		how                                      string
	}{
		{"exact usage and region", "2", "km", "road", "US", "", "mi", "road", "US", "US", "region"},
		{"region falls back to its subcontinent", "20", "km", "road", "SE", "", "mil_sc", "road", "SE", "154", "region"},
		{"region falls back to 001", "2", "km", "road", "FR", "", "km", "road", "FR", "001", "region"},
		{"a continent falls back to 001", "2", "km", "road", "150", "", "km", "road", "150", "001", "region"},
		{"usage without its last part", "2", "km", "road-urban-night", "US", "", "mi", "road", "US", "US", "region"},
		{"usage unknown to the quantity is default", "2", "kg", "road", "GB", "", "kg", "default", "GB", "001", "region"},
		{"no usage is default", "2", "km", "", "GB", "", "mi", "default", "GB", "GB", "region"},
		{"region code case and alias", "2", "km", "", "uk", "", "mi", "default", "GB", "GB", "region"},
		{"no region is 001", "2", "km", "road", "", "", "km", "road", "001", "001", "default"},
		{"locale region", "2", "km", "road", "", "en-GB", "mi", "road", "GB", "GB", "locale"},
		{"locale with underscores", "2", "km", "road", "", "en_GB", "mi", "road", "GB", "GB", "locale"},
		{"likely region of a language", "2", "km", "road", "", "en", "mi", "road", "US", "US", "likely"},
		{"likely region of language and script", "2", "km", "", "", "zh-Hant", "km", "default", "TW", "001", "likely"},
		{"likely region of a script", "2", "km", "", "", "und-Latn", "mi", "default", "US", "US", "likely"},
		{"unknown language is 001", "2", "km", "", "", "xx", "km", "default", "001", "001", "default"},
		{"rg override", "2", "km", "road", "", "en-US-u-rg-gbzzzz", "mi", "road", "GB", "GB", "locale-rg"},
		{"ms metric", "2", "km", "road", "", "en-US-u-ms-metric", "km", "road", "001", "001", "locale-ms"},
		{"ms uksystem", "2", "km", "road", "", "de-u-ms-uksystem", "mi", "road", "GB", "GB", "locale-ms"},
		{"ms wins over rg", "2", "km", "road", "", "en-u-rg-uszzzz-ms-metric", "km", "road", "001", "001", "locale-ms"},
		{"region wins over locale", "2", "km", "road", "DE", "en-US", "km", "road", "DE", "001", "region"},
		{"private use is not read", "2", "km", "road", "", "de-x-ms-ussystem", "km", "road", "DE", "001", "likely"},
		{"a UN M.49 area falls back through the areas containing it", "2", "km", "road", "", "es-419", "km", "road", "419", "001", "locale"},
		{"a region outside the tree falls back through UN M.49", "20", "km", "road", "NO", "", "mil_sc", "road", "NO", "154", "region"},
		{"a usage of another quantity is its default", "2", "km", "person", "GB", "", "mi", "default", "GB", "GB", "region"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := g.Convert(Request{Value: tt.value, From: tt.from, To: Auto, Usage: tt.usage, Region: tt.region, Locale: tt.locale})
			if err != nil {
				t.Fatal(err)
			}
			p := res.Preference()
			if tt.usage != "" && !strings.HasPrefix(tt.usage, p.MatchedUsage) && !strings.Contains(p.Reason(), "has no usage "+tt.usage) {
				t.Fatalf("the reason does not say how the usage fell back: %s", p.Reason())
			}
			if res.Unit != tt.want || p.MatchedUsage != tt.matchedUsage || p.Region != tt.regionUsed || p.MatchedRegion != tt.matched || p.RegionFrom != tt.how {
				t.Fatalf("got %s usage %s region %s matched %s how %s; want %s %s %s %s %s",
					res.Unit, p.MatchedUsage, p.Region, p.MatchedRegion, p.RegionFrom, tt.want, tt.matchedUsage, tt.regionUsed, tt.matched, tt.how)
			}
		})
	}
}

func TestPreferenceTemperatureOverride(t *testing.T) {
	g := prefGraph(t)
	for locale, want := range map[string]string{"en": "degF", "en-u-mu-celsius": "degC", "de-u-mu-fahrenhe": "degF", "de-u-mu-kelvin": "K", "de": "degC"} {
		res, err := g.Convert(Request{Value: "20", From: "degC", To: Auto, Locale: locale})
		if err != nil {
			t.Fatal(err)
		}
		if res.Unit != want {
			t.Errorf("%s: %s, want %s", locale, res.Unit, want)
		}
	}
	// The override is for temperatures only.
	res, err := g.Convert(Request{Value: "2", From: "km", To: Auto, Locale: "en-u-mu-celsius"})
	if err != nil || res.Unit != "mi" {
		t.Errorf("km with mu: %v %v", res.Unit, err)
	}
}

func TestPreferenceErrors(t *testing.T) {
	g := prefGraph(t)
	tests := []struct {
		name                        string
		from, usage, region, locale string
		code                        Code
		says                        string
	}{
		{"unknown usage names the category's", "m", "bogus", "", "", CodeInvalidRequest, "default, road, person-height"},
		{"usage too long", "m", strings.Repeat("a", 65), "", "", CodeInvalidRequest, "unknown usage"},
		{"unknown region", "m", "", "XX", "", CodeInvalidRequest, `unknown region "XX"`},
		{"region too long", "m", "", "GBR", "", CodeInvalidRequest, "unknown region"},
		{"unknown region of a locale", "m", "", "", "en-XX", CodeInvalidRequest, `unknown region "XX"`},
		{"bad locale", "m", "", "", "en--GB", CodeInvalidRequest, "not a BCP 47"},
		{"bad locale language", "m", "", "", "e", CodeInvalidRequest, "not a BCP 47"},
		{"bad locale subtag", "m", "", "", "en-GB-ü", CodeInvalidRequest, "not a BCP 47"},
		{"empty extension", "m", "", "", "en-u", CodeInvalidRequest, "not a BCP 47"},
		{"no preferences for the quantity", "N", "", "", "", CodeInvalidRequest, "no unit preferences for force"},
		{"expression of no category", "kg*m", "", "", "", CodeInvalidRequest, "no unit preferences"},
		{"unknown unit", "furlong", "", "", "", CodeUnknownUnit, "furlong"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := g.Convert(Request{Value: "1", From: tt.from, To: Auto, Usage: tt.usage, Region: tt.region, Locale: tt.locale})
			e, ok := err.(*Error)
			if !ok || e.Code != tt.code || !strings.Contains(e.Message, tt.says) {
				t.Fatalf("got %v, want %s saying %q", err, tt.code, tt.says)
			}
		})
	}
	// Without preferences, auto is refused.
	g2 := testGraph(t)
	if _, err := g2.Convert(Request{Value: "1", From: "m", To: Auto}); err == nil || err.(*Error).Code != CodeInvalidRequest {
		t.Fatalf("auto without preferences: %v", err)
	}
}

// TestPreferenceBuildErrors checks what Build adds to package prefs'
// checks of the data (prefs' TestCompileErrors, which has the rest): the
// preferences' names are resolved in the catalog being built, by its
// units, its claims and their categories, and an error of the
// preferences fails the build, reported at its place in the catalog's
// files.
func TestPreferenceBuildErrors(t *testing.T) {
	tests := []struct {
		name   string
		change func(*PreferencesSpec)
		says   string
	}{
		{"a unit the catalog does not have", func(p *PreferencesSpec) { p.Units[0].Unit = "furlong" },
			`preferences.yaml:2:5: preference unit "kilometer": unknown unit "furlong"`},
		{"an identifier no unit claims", func(p *PreferencesSpec) { p.Lists[0].Entries[0].Unit = "furlong" },
			`preferences.yaml:20:5: preferences length/default/001: unit "furlong" is not mapped to a catalog unit`},
		{"units of two categories", func(p *PreferencesSpec) { p.Lists[0].Entries[1].Unit = "kilogram" },
			`preferences.yaml:20:5: preferences length/default/001: unit "kilogram" (kg) is of mass, not of length`},
		{"a constraint of the data", func(p *PreferencesSpec) { p.Lists[2].Entries[1].Geq = "3000" },
			`preferences.yaml:22:5: preferences length/road/001: thresholds are not in descending order`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := prefSpec()
			p := spec.Preferences
			for i := range p.Units {
				p.Units[i].Origin = Origin{File: "preferences.yaml", Line: 2 + i, Column: 5}
			}
			for i := range p.Lists {
				p.Lists[i].Origin = Origin{File: "preferences.yaml", Line: 20 + i, Column: 5}
			}
			tt.change(p)
			g, errs := Build(spec)
			if g != nil || len(errs) == 0 {
				t.Fatal("Build accepted it")
			}
			var all []string
			for _, e := range errs {
				all = append(all, e.Error())
			}
			if !strings.Contains(strings.Join(all, "\n"), tt.says) {
				t.Fatalf("errors %q do not say %q", all, tt.says)
			}
		})
	}
}
