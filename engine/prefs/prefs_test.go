package prefs

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/internal/exact"
)

// catalog is a Resolver over a small catalog of units, each with its
// category and exact map onto the category's base; names joined by "+"
// are mixed units. Targets are their canonical names.
type catalog map[string]catalogUnit

type catalogUnit struct {
	category, base string
	m              *exact.Map
}

func newCatalog(t testing.TB) catalog {
	c := catalog{}
	add := func(sym, category, base, factor, offset string) {
		f, _ := new(big.Rat).SetString(factor)
		o, _ := new(big.Rat).SetString(offset)
		m, err := exact.Affine(f, o, 0)
		if err != nil {
			t.Fatal(err)
		}
		c[sym] = catalogUnit{category, base, m}
	}
	for sym, f := range map[string]string{"km": "1000", "m": "1", "cm": "1/100", "mi": "1609.344", "ft": "0.3048", "in": "0.0254",
		"yd": "0.9144", "mil_sc": "10000", "sevenm": "7"} {
		add(sym, "length", "m", f, "0")
	}
	for sym, f := range map[string]string{"kg": "1", "lb": "0.45359237", "st": "6.35029318", "oz": "0.028349523125"} {
		add(sym, "mass", "kg", f, "0")
	}
	add("K", "temperature", "K", "1", "0")
	add("degC", "temperature", "K", "1", "273.15")
	add("degF", "temperature", "K", "5/9", "45967/180")
	add("N", "force", "N", "1", "0")
	return c
}

func (c catalog) Target(name string) (Target, error) {
	if strings.Contains(name, "+") {
		parts := strings.Split(name, "+")
		first, ok := c[parts[0]]
		if !ok {
			return Target{}, fault.Errorf(fault.UnknownUnit, "unknown unit %q", parts[0])
		}
		return Target{Name: name, Category: first.category, Units: parts, Largest: parts[0], ToBase: first.m, Value: name}, nil
	}
	u, ok := c[name]
	if !ok {
		return Target{}, fault.Errorf(fault.UnknownUnit, "unknown unit %q", name)
	}
	return Target{Name: name, Category: u.category, Units: []string{name}, Largest: name, ToBase: u.m, Value: name}, nil
}

// cldrClaims are the CLDR identifiers the test catalog's units claim.
var cldrClaims = map[string]string{
	"kilometer": "km", "meter": "m", "centimeter": "cm", "mile": "mi", "foot": "ft", "inch": "in", "yard": "yd",
	"kilogram": "kg", "pound": "lb", "stone": "st", "ounce": "oz",
	"celsius": "degC", "fahrenheit": "degF", "kelvin": "K",
}

func (c catalog) CLDR(id string) (Target, error) {
	sym, ok := cldrClaims[id]
	if !ok {
		return Target{}, fault.Errorf(fault.UnknownUnit, "unknown unit \"cldr:%s\"", id)
	}
	return c.Target(sym)
}

func (c catalog) Source(name string) (Source, error) {
	u, ok := c[name]
	if !ok {
		return Source{}, fault.Errorf(fault.UnknownUnit, "unknown unit %q", name)
	}
	s := Source{Name: name, Unit: name, Category: u.category, Base: u.base, Kind: u.category}
	if f, o, ok := u.m.Affine(); ok && o.Sign() == 0 && f.Sign() > 0 {
		s.Factor, s.Linear = exact.Factor{R: f}, true
	}
	return s, nil
}

// magnitude is the value x of the source unit in its category's base, as
// the engine computes it for PickExact.
func (c catalog) magnitude(t testing.TB, from string, x *apd.Decimal) exact.Value {
	v, err := c[from].m.At(x)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// testSpec is shaped like the examples of UTS #35 Part 6: lengths for
// roads by region, a person's height with a mixed unit, masses, and a
// region tree 001 > 150 > 154 > GB, SE; 001 > 019 > 021 > US, CA.
func testSpec() *Spec {
	list := func(q, use, regions string, entries ...string) ListSpec {
		l := ListSpec{Quantity: q, Usage: use, Regions: strings.Fields(regions)}
		for _, e := range entries {
			u, geq, _ := strings.Cut(e, ">=")
			l.Entries = append(l.Entries, EntrySpec{Unit: strings.TrimSpace(u), Geq: strings.TrimSpace(geq)})
		}
		return l
	}
	unit := func(id, u string) UnitSpec { return UnitSpec{ID: id, Unit: u} }
	return &Spec{
		Source: "test preferences", Version: "test",
		// The others are what the catalog's claims name (catalog.CLDR).
		Units: []UnitSpec{unit("mile-scandinavian", "mil_sc")},
		Lists: []ListSpec{
			list("length", "default", "001", "kilometer", "meter", "centimeter"),
			list("length", "default", "GB US", "mile", "foot", "inch"),
			list("length", "road", "001", "kilometer >= 0.9", "meter >= 300.0", "meter >= 10.0", "meter"),
			list("length", "road", "US", "mile >= 0.5", "foot >= 100.0", "foot >= 10.0", "foot"),
			list("length", "road", "GB", "mile >= 0.5", "yard >= 100.0", "yard >= 10.0", "yard"),
			list("length", "road", "154", "mile-scandinavian", "kilometer", "meter"),
			list("length", "road", "019", "mile >= 2", "kilometer"),
			list("length", "person-height", "001", "centimeter"),
			list("length", "person-height", "US GB", "foot-and-inch >= 3.0", "inch"),
			list("mass", "default", "001", "kilogram"),
			list("mass", "person", "001", "kilogram"),
			list("mass", "person", "GB", "stone-and-pound", "pound-and-ounce"),
			list("temperature", "default", "001", "celsius"),
			list("temperature", "default", "US", "fahrenheit"),
			list("temperature", "weather", "001", "celsius"),
		},
		Contains: map[string][]string{
			"001": {"150", "019"}, "150": {"154", "155"}, "154": {"GB", "SE"}, "155": {"DE", "FR"},
			"019": {"021"}, "021": {"US", "CA"},
		},
		Aliases: map[string]string{"UK": "GB"},
		Likely:  map[string]string{"en": "US", "sv": "SE", "de": "DE", "es": "ES", "und-Latn": "US", "fr": "FR"},
	}
}

func compile(t testing.TB) (*Data, catalog) {
	t.Helper()
	c := newCatalog(t)
	d, errs := Compile(testSpec(), c)
	for _, err := range errs {
		t.Error(err)
	}
	if d == nil {
		t.Fatal("Compile failed")
	}
	return d, c
}

// choose runs the whole choice for a request, as the engine does: Decide,
// then Pick, then PickExact with the magnitude when Pick cannot decide.
func choose(t testing.TB, d *Data, c catalog, req Request, value string, fast bool) (string, *Preference) {
	t.Helper()
	dec, err := d.Decide(c, req, fast)
	if err != nil {
		t.Fatal(err)
	}
	var p Preference
	dec.Describe(&p, req.Locale)
	if o := dec.Override(); o != nil {
		return o.Name, &p
	}
	x, _, err := apd.NewFromString(value)
	if err != nil {
		t.Fatal(err)
	}
	i, reached, ok := dec.Pick(x)
	if !ok {
		m := c.magnitude(t, req.From, x)
		i, reached = dec.PickExact(&m)
	}
	p.Chosen, p.Reached = i, reached
	return dec.Target(i).Name, &p
}

// TestThresholds checks the choice at, just below and just above each
// threshold, through the thresholds in the source unit and exactly: "the
// first matching unitPreference for the input measure ... If there is no
// match, take the last"; "If there is no geq attribute, then the implicit
// value is 1.0"; negative values are compared by their magnitude.
func TestThresholds(t *testing.T) {
	d, c := compile(t)
	tests := []struct {
		value, from, usage, region, want string
		reached                          bool
	}{
		{"0.9", "km", "road", "", "km", true},
		{"0.8999999999", "km", "road", "", "m", true},
		{"900", "m", "road", "", "km", true},
		{"-1000", "m", "road", "", "km", true},
		{"9.99", "m", "road", "", "m", false},
		{"804.672", "m", "road", "US", "mi", true},
		{"804.6719999", "m", "road", "US", "ft", true},
		{"2640", "ft", "road", "US", "mi", true},
		{"1000", "m", "default", "", "km", true},
		{"0.999", "m", "", "", "cm", false},
		{"0", "m", "", "", "cm", false},
		{"3", "ft", "person-height", "US", "ft+in", true},
		{"0.9143999", "m", "person-height", "US", "in", false},
		{"42.857142857142857142857142857142857142857143", "sevenm", "road", "", "m", true},
		{"42.857142857142857142857142857142857142857142", "sevenm", "road", "", "m", true},
		{"6.35029318", "kg", "person", "GB", "st+lb", true},
		{"6.35", "kg", "person", "GB", "lb+oz", false},
	}
	for _, tt := range tests {
		for _, fast := range []bool{true, false} {
			got, p := choose(t, d, c, Request{From: tt.from, Usage: tt.usage, Region: tt.region}, tt.value, fast)
			if got != tt.want || p.Reached != tt.reached {
				t.Errorf("%s %s %s/%s (fast %v): %s reached=%v, want %s reached=%v", tt.value, tt.from, tt.usage, tt.region, fast, got, p.Reached, tt.want, tt.reached)
			}
		}
	}
}

// TestPickMatchesPickExact compares the thresholds in the source unit with
// the exact comparison on random values around every threshold, on both
// sides of each, in units where the thresholds terminate and where they do
// not (sevenm): Pick, where it decides, decides as PickExact does, and it
// decides most values.
func TestPickMatchesPickExact(t *testing.T) {
	d, c := compile(t)
	rng := rand.New(rand.NewPCG(35, 10))
	decided, total := 0, 0
	for _, from := range []string{"m", "km", "ft", "sevenm", "mi", "cm"} {
		for _, region := range []string{"", "US", "GB", "SE"} {
			dec, err := d.Decide(c, Request{From: from, Usage: "road", Region: region}, true)
			if err != nil {
				t.Fatal(err)
			}
			for _, b := range dec.l.entries[:len(dec.l.entries)-1] {
				// The threshold in the source unit, to 45 digits, nudged
				// either way by a random amount in its last digits.
				q := new(big.Rat).Quo(b.threshold.R, dec.Source.Factor.R)
				for range 200 {
					digits := 1 + rng.IntN(45)
					f := new(big.Float).SetPrec(200).SetRat(q)
					x, _, err := apd.NewFromString(f.Text('e', digits))
					if err != nil {
						t.Fatal(err)
					}
					var nudge apd.Decimal
					nudge.SetFinite(int64(rng.IntN(21)-10), x.Exponent-int32(rng.IntN(3)))
					if _, err := apd.BaseContext.WithPrecision(200).Add(x, x, &nudge); err != nil {
						t.Fatal(err)
					}
					x.Negative = rng.IntN(4) == 0
					m := c.magnitude(t, from, x)
					want, wantReached := dec.PickExact(&m)
					total++
					if i, reached, ok := dec.Pick(x); ok {
						decided++
						if i != want || reached != wantReached {
							t.Fatalf("%s %s road/%s: Pick %d (%v), PickExact %d (%v)", x, from, region, i, reached, want, wantReached)
						}
					}
				}
			}
		}
	}
	if decided < total*3/4 {
		t.Fatalf("Pick decided %d of %d values", decided, total)
	}
}

// TestFallBack checks UTS #35's fall-backs: a usage without its last part,
// then default, and a usage the quantity lacks (stated in the answer); a
// region through the regions that contain it, up to 001, regions outside
// the data's tree through UN M.49's containment (419 in 019, NO in 154),
// and the region of a locale.
func TestFallBack(t *testing.T) {
	d, c := compile(t)
	tests := []struct {
		name                                      string
		from, usage, region, locale               string
		want, matchedUsage, region2, matched, how string
	}{
		{"usage without its last part", "km", "road-urban-night", "US", "", "mi", "road", "US", "US", "region"},
		{"a usage of another quantity falls back to default", "km", "weather", "GB", "", "mi", "default", "GB", "GB", "region"},
		{"region falls back to its subcontinent", "km", "road", "SE", "", "mil_sc", "road", "SE", "154", "region"},
		{"region outside the tree, inside one of its areas", "km", "road", "NO", "", "mil_sc", "road", "NO", "154", "region"},
		{"a UN M.49 area outside the tree", "km", "road", "419", "", "mi", "road", "419", "019", "region"},
		{"a grouping outside the tree falls back to 001", "km", "road", "EU", "", "km", "road", "EU", "001", "region"},
		{"locale with an M.49 area", "km", "road", "", "es-419", "mi", "road", "419", "019", "locale"},
		{"locale's likely region", "km", "road", "", "en", "mi", "road", "US", "US", "likely"},
		{"region code alias", "km", "", "uk", "", "mi", "default", "GB", "GB", "region"},
		{"ms override", "km", "road", "", "en-US-u-ms-metric", "km", "road", "001", "001", "locale-ms"},
		{"rg override", "km", "road", "", "en-US-u-rg-gbzzzz", "mi", "road", "GB", "GB", "locale-rg"},
		{"unknown language", "km", "", "", "xx", "km", "default", "001", "001", "default"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, fast := range []bool{true, false} {
				got, p := choose(t, d, c, Request{From: tt.from, Usage: tt.usage, Region: tt.region, Locale: tt.locale}, "20", fast)
				if got != tt.want || p.MatchedUsage != tt.matchedUsage || p.Region != tt.region2 || p.MatchedRegion != tt.matched || p.RegionFrom != tt.how {
					t.Fatalf("fast %v: got %s usage %s region %s matched %s how %s; want %s %s %s %s %s",
						fast, got, p.MatchedUsage, p.Region, p.MatchedRegion, p.RegionFrom, tt.want, tt.matchedUsage, tt.region2, tt.matched, tt.how)
				}
				if tt.usage != "" && p.MatchedUsage != tt.usage && !strings.Contains(p.Reason(), "has no usage "+tt.usage+", so "+tt.matchedUsage+" applies") {
					t.Fatalf("the reason does not say how the usage fell back: %s", p.Reason())
				}
			}
		})
	}
}

func TestTemperatureOverride(t *testing.T) {
	d, c := compile(t)
	for locale, want := range map[string]string{"en": "degF", "en-u-mu-celsius": "degC", "de-u-mu-fahrenhe": "degF", "de-u-mu-kelvin": "K", "de": "degC"} {
		if got, _ := choose(t, d, c, Request{From: "degC", Locale: locale}, "20", true); got != want {
			t.Errorf("%s: %s, want %s", locale, got, want)
		}
	}
	if got, _ := choose(t, d, c, Request{From: "km", Locale: "en-u-mu-celsius"}, "2", true); got != "mi" {
		t.Errorf("km with mu: %s", got)
	}
}

// TestRefused checks what is refused, and that it says why: an unknown
// usage lists the quantity's usages; an unknown region (private use,
// unknown, malformed) and a malformed locale are INVALID_REQUEST.
func TestRefused(t *testing.T) {
	d, c := compile(t)
	tests := []struct {
		name                        string
		from, usage, region, locale string
		code                        fault.Code
		says                        string
	}{
		{"unknown usage", "m", "bogus", "", "", fault.InvalidRequest, "its usages are default, road, person-height"},
		{"unknown usage of a shortening", "m", "bogus-road", "", "", fault.InvalidRequest, "unknown usage"},
		{"usage too long", "m", strings.Repeat("a", 65), "", "", fault.InvalidRequest, "unknown usage"},
		{"private-use region", "m", "", "XX", "", fault.InvalidRequest, `unknown region "XX"`},
		{"unknown region", "m", "", "ZZ", "", fault.InvalidRequest, `unknown region "ZZ"`},
		{"alpha-3 region", "m", "", "GBR", "", fault.InvalidRequest, "unknown region"},
		{"unknown region of a locale", "m", "", "", "en-XX", fault.InvalidRequest, `unknown region "XX"`},
		{"malformed locale", "m", "", "", "en--GB", fault.InvalidRequest, "not a BCP 47"},
		{"empty extension", "m", "", "", "en-u", fault.InvalidRequest, "not a BCP 47"},
		{"locale too long", "m", "", "", "en-" + strings.Repeat("abcdefgh-", 8), fault.InvalidRequest, "longer than 64"},
		{"no preferences for the quantity", "N", "", "", "", fault.InvalidRequest, "no unit preferences for force"},
		{"unknown unit", "furlong", "", "", "", fault.UnknownUnit, "furlong"},
	}
	for _, tt := range tests {
		for _, fast := range []bool{true, false} {
			_, err := d.Decide(c, Request{From: tt.from, Usage: tt.usage, Region: tt.region, Locale: tt.locale}, fast)
			e, ok := err.(*fault.Error)
			if !ok || e.Code != tt.code || !strings.Contains(e.Message, tt.says) {
				t.Fatalf("%s (fast %v): got %v, want %s saying %q", tt.name, fast, err, tt.code, tt.says)
			}
		}
	}
}

// TestCompileErrors checks the constraints UTS #35 puts on the data.
func TestCompileErrors(t *testing.T) {
	tests := []struct {
		name   string
		change func(*Spec)
		says   string
	}{
		{"no 001", func(p *Spec) { p.Lists[7].Regions = []string{"FR"} }, "no preferences for 001"},
		{"no default usage", func(p *Spec) { p.Lists[9].Usage = "other" }, `no "default" usage`},
		{"overlapping regions", func(p *Spec) { p.Lists[8].Regions = []string{"US", "001"} }, "has two lists"},
		{"unmapped unit", func(p *Spec) { p.Lists[0].Entries[0].Unit = "furlong" }, `"furlong" is not mapped`},
		{"ascending thresholds", func(p *Spec) { p.Lists[2].Entries[1].Geq = "3000" }, "descending order"},
		{"unknown region", func(p *Spec) { p.Lists[1].Regions = []string{"ZZ"} }, "unknown region ZZ"},
		{"mixed categories", func(p *Spec) { p.Lists[0].Entries[1].Unit = "kilogram" }, "is of mass, not of length"},
		{"bad threshold", func(p *Spec) { p.Lists[2].Entries[0].Geq = "-1" }, "non-negative decimal"},
		{"unknown catalog unit", func(p *Spec) { p.Units[0].Unit = "furlong" }, "furlong"},
		{"region outside the tree", func(p *Spec) { p.Contains["999"] = []string{"XY"} }, "does not lead up to 001"},
	}
	for _, tt := range tests {
		spec := testSpec()
		tt.change(spec)
		d, errs := Compile(spec, newCatalog(t))
		var all []string
		for _, e := range errs {
			all = append(all, e.Error())
		}
		if d != nil || !strings.Contains(strings.Join(all, "\n"), tt.says) {
			t.Errorf("%s: errors %q do not say %q", tt.name, all, tt.says)
		}
	}
}

// TestDecisionsKept checks the cache of decisions: a request decided
// again with fast set is the same decision, one without it is decided
// afresh and equal, and requests that differ in any name are apart.
func TestDecisionsKept(t *testing.T) {
	d, c := compile(t)
	req := Request{From: "m", Usage: "road", Region: "GB"}
	a, _ := d.Decide(c, req, true)
	b, _ := d.Decide(c, req, true)
	plain, _ := d.Decide(c, req, false)
	if a != b || plain == a || plain.l != a.l || plain.bounds != nil {
		t.Fatalf("kept %p, again %p, plain %p (bounds %v)", a, b, plain, plain.bounds)
	}
	for _, other := range []Request{{From: "km", Usage: "road", Region: "GB"}, {From: "m", Usage: "road", Region: "US"},
		{From: "m", Usage: "", Region: "GB"}, {From: "m", Usage: "road", Locale: "en-GB"}} {
		if o, _ := d.Decide(c, other, true); o == a {
			t.Errorf("%+v shares the decision of %+v", other, req)
		}
	}
	// Names a request makes up do not grow the table.
	for i := range 3000 {
		if _, err := d.Decide(c, Request{From: "m", Usage: "road", Locale: fmt.Sprintf("en-GB-x-%d", i)}, true); err != nil {
			t.Fatal(err)
		}
	}
	kept := 0
	for i := range d.decisions.sets {
		for j := range d.decisions.sets[i] {
			if d.decisions.sets[i][j].Load() != nil {
				kept++
			}
		}
	}
	if kept > decisionSets*decisionWays || kept < decisionSets*decisionWays/2 {
		t.Fatalf("%d decisions kept after 3000 requests; the table holds %d", kept, decisionSets*decisionWays)
	}
}

func ExampleData_Decide() {
	c := newCatalog(nil)
	d, _ := Compile(testSpec(), c)
	dec, _ := d.Decide(c, Request{From: "m", Usage: "road", Locale: "es-419"}, true)
	var p Preference
	dec.Describe(&p, "es-419")
	fmt.Println(p.Region, p.RegionFrom, p.MatchedRegion)
	// Output: 419 locale 019
}
