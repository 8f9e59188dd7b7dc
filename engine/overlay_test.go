package engine

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// accountUnit is a unit of an account in the tests: exact, sourced, with
// its worked examples.
func accountUnit(sym string, def DefinitionSpec, examples ...string) UnitSpec {
	us := UnitSpec{Symbol: sym, Name: sym, Plural: sym + "s", System: "account", Exact: true, Source: "test account", Definition: def, Origin: Origin{File: sym, Line: 1, Column: 1}}
	for _, e := range examples {
		f := strings.Fields(e) // "VALUE [FROM] = RESULT TO"
		ex := ExampleSpec{Value: f[0], Origin: Origin{File: sym, Line: 9, Column: 3}}
		if f[1] != "=" {
			ex.From = f[1]
			f = []string{f[0], f[2], f[3], f[4]}
		}
		ex.Result, ex.To = f[2], f[3]
		us.Examples = append(us.Examples, ex)
	}
	return us
}

// extend is a spec that adds units to a category of the catalog.
func extend(id string, units ...UnitSpec) CategorySpec {
	return CategorySpec{ID: id, Units: units}
}

func lin(factor, unit string) DefinitionSpec { return DefinitionSpec{Factor: factor, Unit: unit} }

func mustOverlay(t testing.TB, base *Graph, opt OverlayOptions, cats ...CategorySpec) *Graph {
	t.Helper()
	g, errs := Overlay(base, Spec{Categories: cats}, opt)
	for _, err := range errs {
		t.Error(err)
	}
	if g == nil {
		t.Fatal("Overlay failed")
	}
	return g
}

func convert(t *testing.T, g *Graph, value, from, to string) Result {
	t.Helper()
	res, err := g.Convert(Request{Value: value, From: from, To: to})
	if err != nil {
		t.Fatalf("%s %s → %s: %v", value, from, to, err)
	}
	return res
}

func codeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

func TestOverlayConverts(t *testing.T) {
	base := testGraph(t)
	g := mustOverlay(t, base, OverlayOptions{},
		extend("length",
			accountUnit("smoot", lin("1.7018", "m"), "1 smoot = 1.7018 m", "100 = 170.18 m"),
			accountUnit("halfsmoot", lin("1/2", "smoot"), "2 halfsmoot = 1 my:smoot"),
		),
		extend("temperature", accountUnit("degX", DefinitionSpec{Factor: "2", Offset: "100", Unit: "K"}, "0 degX = 100 K")),
	)
	tests := []struct {
		value, from, to string
		want, unit      string
		exact           bool
	}{
		{"1", "smoot", "m", "1.7018", "m", true},
		{"1", "my:smoot", "ft", "5.583333333333333333333333333333333", "ft", false},
		{"3.4036", "m", "smoot", "2", "my:smoot", true},
		{"1", "MY:smoot", "m", "1.7018", "m", true},
		{"4", "halfsmoot", "my:smoot", "2", "my:smoot", true},
		{"1", "smoots", "cm", "170.18", "cm", true},
		{"1", "smoot/s", "km/h", "6.12648", "km/h", true},
		{"1", "my:smoot/h", "m/s", "0.0004727222222222222222222222222222222", "m/s", false},
		{"1", "m/my:smoot", "m/m", "0.5876131155247385121635914913620872", "m/m", false},
		{"0", "degX", "K", "100", "K", true},
		{"0", "degX", "degC", "-173.15", "degC", true},
	}
	for _, tt := range tests {
		res := convert(t, g, tt.value, tt.from, tt.to)
		if res.Value != tt.want || res.Unit != tt.unit || res.Exact != tt.exact {
			t.Errorf("%s %s → %s = %s %s exact=%v, want %s %s exact=%v", tt.value, tt.from, tt.to, res.Value, res.Unit, res.Exact, tt.want, tt.unit, tt.exact)
		}
	}
	// Below absolute zero, in the account's unit's terms.
	if _, err := g.Convert(Request{Value: "-51", From: "degX", To: "K"}); codeOf(err) != CodeValueOutOfRange || !strings.Contains(err.Error(), "my:degX") {
		t.Errorf("-51 degX: %v, want VALUE_OUT_OF_RANGE naming my:degX", err)
	}
	// Across kinds, as between catalog units.
	if _, err := g.Convert(Request{Value: "1", From: "smoot", To: "s"}); codeOf(err) != CodeIncompatibleUnits {
		t.Errorf("smoot → s: %v, want INCOMPATIBLE_UNITS", err)
	}
	// The catalog's graph is as it was.
	for _, name := range []string{"smoot", "my:smoot", "halfsmoot"} {
		if _, err := base.Convert(Request{Value: "1", From: name, To: "m"}); codeOf(err) != CodeUnknownUnit {
			t.Errorf("catalog graph, %s: %v, want UNKNOWN_UNIT", name, err)
		}
	}
	if got := len(base.Category2("length").Units); got != len(testGraph(t).Category2("length").Units) {
		t.Errorf("the catalog's length category now has %d units", got)
	}
}

// Category2 returns a category or nil, for tests.
func (g *Graph) Category2(id string) *Category { c, _ := g.Category(id); return c }

func TestOverlayExplain(t *testing.T) {
	g := mustOverlay(t, testGraph(t), OverlayOptions{},
		extend("length",
			accountUnit("smoot", lin("1.7018", "m"), "1 smoot = 1.7018 m"),
			accountUnit("halfsmoot", lin("1/2", "smoot")),
		))
	res := convert(t, g, "1", "halfsmoot", "ft")
	ex := g.Explain(&res)
	var got []string
	for _, s := range ex.Steps {
		got = append(got, s.Unit+": "+s.Definition+" ["+s.Source+"]")
	}
	want := []string{
		"my:halfsmoot: 1 my:halfsmoot = 1/2 my:smoot [test account]",
		"my:smoot: 1 my:smoot = 1.7018 m [test account]",
		"m: m is the base unit of length [test]",
		"ft: 1 ft = 12 in [test]",
		"in: 1 in = 2.54 cm [test]",
		"cm: 1 cm = 1/100 m [test; prefix centi: SI Brochure, 9th ed. (2019, updated 2022), §3, Table 7 (SI prefixes)]",
	}
	if !slices.Equal(got, want) {
		t.Errorf("steps:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestOverlayInexactDefinition(t *testing.T) {
	measured := accountUnit("pace", lin("0.762", "m"), "1 pace = 0.762 m")
	measured.Exact = false
	g := mustOverlay(t, testGraph(t), OverlayOptions{}, extend("length", measured))
	res := convert(t, g, "2", "pace", "m")
	if res.Value != "1.524" || res.Exact {
		t.Errorf("2 pace = %s m exact=%v, want 1.524 and not exact (the definition is not)", res.Value, res.Exact)
	}
	if ex := g.Explain(&res); !slices.Contains(ex.Inexact, "my:pace") {
		t.Errorf("Explain.Inexact = %v, want my:pace", ex.Inexact)
	}
}

func TestOverlayOwnCategory(t *testing.T) {
	g := mustOverlay(t, testGraph(t), OverlayOptions{},
		CategorySpec{ID: "track", Name: "Track lengths", Dimension: map[string]int{"L": 1}, Base: "lap", SIFactor: "400",
			Units: []UnitSpec{accountUnit("lap", DefinitionSpec{}, "1 lap = 400 m")}, Origin: Origin{File: "lap"}},
		extend("track", accountUnit("relay", lin("4", "lap"), "1 relay = 1600 m")),
		CategorySpec{ID: "bricks", Name: "Bricks", Dimension: map[string]int{}, Base: "brick",
			Units: []UnitSpec{accountUnit("brick", DefinitionSpec{})}},
		extend("bricks", accountUnit("pallet", lin("500", "brick"))),
	)
	for _, tt := range []struct{ value, from, to, want, category string }{
		{"1", "relay", "lap", "4", "my:track"},
		{"1", "lap", "km", "0.4", "length"}, // by dimension, as an expression
		{"1", "relay", "ft", "5249.343832020997375328083989501312", "length"},
		{"2", "pallet", "brick", "1000", "my:bricks"},
		{"1", "lap/s", "km/h", "1440", "speed"},
	} {
		res := convert(t, g, tt.value, tt.from, tt.to)
		if res.Value != tt.want || res.CategoryID != tt.category {
			t.Errorf("%s %s → %s = %s (%s), want %s (%s)", tt.value, tt.from, tt.to, res.Value, res.CategoryID, tt.want, tt.category)
		}
	}
	if _, err := g.Convert(Request{Value: "1", From: "lap", To: "s"}); codeOf(err) != CodeIncompatibleUnits {
		t.Errorf("lap → s: %v, want INCOMPATIBLE_UNITS", err)
	}
	cats := g.AccountCategories()
	if len(cats) != 2 || cats[0].ID != "my:track" || cats[0].Base.Symbol != "my:lap" || len(cats[0].Units) != 2 {
		t.Errorf("AccountCategories = %v", cats)
	}
	if c, ok := g.AccountCategory("track"); !ok || c != cats[0] {
		t.Errorf("AccountCategory(track) = %v, %v", c, ok)
	}
}

// TestOverlayRefuses checks that a definition breaking a rule of the
// catalog, or one of an account's own, is refused with a problem at its
// origin.
func TestOverlayRefuses(t *testing.T) {
	tests := []struct {
		name string
		cats []CategorySpec
		want string
	}{
		{"wrong example", []CategorySpec{extend("length", accountUnit("smoot", lin("1.7018", "m"), "1 smoot = 1.7 m"))}, `smoot:9:3: unit "my:smoot": example "1 my:smoot = 1.7 m": wrong result: it is 1.7018 m`},
		{"no source", []CategorySpec{extend("length", func() UnitSpec { u := accountUnit("smoot", lin("1.7018", "m")); u.Source = " "; return u }())}, "missing source"},
		{"cycle", []CategorySpec{extend("length", accountUnit("a", lin("2", "b")), accountUnit("b", lin("3", "a")))}, "refers back to itself through a cycle"},
		{"unknown reference", []CategorySpec{extend("length", accountUnit("smoot", lin("1.7", "mm2")))}, `refers to unknown unit "mm2"`},
		{"other category", []CategorySpec{extend("length", accountUnit("smoot", lin("1.7", "s")))}, "must stay within category length"},
		{"no definition", []CategorySpec{extend("length", accountUnit("smoot", DefinitionSpec{}))}, "missing definition"},
		{"shadows a symbol", []CategorySpec{extend("length", accountUnit("ft", lin("0.3", "m")))}, `symbol "ft" already names the catalog's unit ft (foot)`},
		{"shadows a word", []CategorySpec{extend("length", func() UnitSpec {
			u := accountUnit("smoot", lin("1.7018", "m"))
			u.Aliases = []string{"FEET"}
			return u
		}())}, `name "FEET" already names the catalog's unit ft`},
		{"shadows an ambiguous name", []CategorySpec{extend("length", accountUnit("foots", lin("0.3", "m")))}, "an ambiguous name of the catalog"},
		{"two of one name", []CategorySpec{extend("length", accountUnit("smoot", lin("1.7018", "m")), accountUnit("smoot", lin("1.7", "m")))}, `symbol "smoot" is already used by your unit "smoot"`},
		{"operator in a symbol", []CategorySpec{extend("length", accountUnit("s/moot", lin("1.7", "m")))}, `'/' is not allowed`},
		{"colon in a symbol", []CategorySpec{extend("length", accountUnit("x:y", lin("1.7", "m")))}, `':' is not allowed`},
		{"long symbol", []CategorySpec{extend("length", accountUnit(strings.Repeat("s", 10_000), lin("1.7", "m")))}, "longer than 32 bytes"},
		{"long name", []CategorySpec{extend("length", func() UnitSpec {
			u := accountUnit("smoot", lin("1.7018", "m"))
			u.Name = strings.Repeat("n", 10_000)
			return u
		}())}, "longer than 100 bytes"},
		{"mixed-unit name", []CategorySpec{extend("length", func() UnitSpec {
			u := accountUnit("smoot", lin("1.7018", "m"))
			u.Aliases = []string{"rock-and-roll"}
			return u
		}())}, `"-and-"`},
		{"codes", []CategorySpec{extend("length", func() UnitSpec {
			u := accountUnit("smoot", lin("1.7018", "m"))
			u.Codes = map[string]string{"ucum": "[smoot]"}
			return u
		}())}, "claims no standard code"},
		{"a logarithm", []CategorySpec{extend("power", accountUnit("dBX", DefinitionSpec{Unit: "W", To: "10 ** (x / 10)", From: "10 * log10(x)"}))}, "+ - * / on x and numbers"},
		{"formula bomb", []CategorySpec{extend("power", accountUnit("bomb", DefinitionSpec{Unit: "W", To: strings.Repeat("(x*x)*", 100) + "x", From: "x"}))}, "a formula of an account is at most 200 bytes"},
		{"factor bomb", []CategorySpec{extend("length", accountUnit("bomb", lin("(((9^99)^99)^99)^99", "m")))}, "factor:"},
		{"long factor", []CategorySpec{extend("length", accountUnit("bomb", lin(strings.Repeat("9", 101), "m")))}, "longer than 100 bytes"},
		{"unknown category", []CategorySpec{extend("lenght", accountUnit("smoot", lin("1.7018", "m")))}, `category "lenght": unknown category`},
		{"redeclares a catalog category", []CategorySpec{{ID: "length", Name: "Mine", Dimension: map[string]int{"L": 1}, Base: "smoot", Units: []UnitSpec{accountUnit("smoot", DefinitionSpec{})}}}, "is a category of the catalog"},
		{"preferred", []CategorySpec{{ID: "mine", Name: "Mine", Dimension: map[string]int{"L": 1}, Base: "smoot", Preferred: true, Units: []UnitSpec{accountUnit("smoot", DefinitionSpec{})}}}, "never preferred"},
		{"no base", []CategorySpec{{ID: "mine", Name: "Mine", Dimension: map[string]int{"L": 1}, Base: "smoot", Units: []UnitSpec{accountUnit("smooth", DefinitionSpec{})}}}, `base unit "smoot" is not one of its units`},
		{"pi with offsets", []CategorySpec{extend("temperature", accountUnit("degPi", lin("pi", "K")))}, "a factor with pi"},
		{"bridges", nil, "not bridges"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := Spec{Categories: tt.cats}
			if tt.cats == nil {
				spec.Bridges = []BridgeSpec{{From: "Hz", To: "rad/s", Factor: "1"}}
			}
			g, errs := Overlay(testGraph(t), spec, OverlayOptions{})
			if g != nil {
				t.Fatalf("Overlay compiled; want an error containing %q", tt.want)
			}
			var all []string
			for _, err := range errs {
				all = append(all, err.Error())
			}
			if !strings.Contains(strings.Join(all, "\n"), tt.want) {
				t.Errorf("errors:\n%s\nwant one containing %q", strings.Join(all, "\n"), tt.want)
			}
		})
	}
}

func TestOverlayLimits(t *testing.T) {
	// 10,000 units, and 500 with SI prefixes (25 units each).
	var many, prefixed []UnitSpec
	for i := range 10_000 {
		many = append(many, accountUnit("u"+strings.Repeat("x", i%5)+itoa(i), lin("2", "m")))
	}
	for i := range 500 {
		u := accountUnit("p"+itoa(i), lin("2", "m"))
		u.Prefixes = &PrefixSpec{Set: "si"}
		prefixed = append(prefixed, u)
	}
	for name, units := range map[string][]UnitSpec{"10000 units": many, "500 prefixed": prefixed} {
		_, errs := Overlay(testGraph(t), Spec{Categories: []CategorySpec{extend("length", units...)}}, OverlayOptions{})
		if len(errs) != 1 || !strings.Contains(errs[0].Error(), "an account may have at most 1000") {
			t.Errorf("%s: %v, want one error: at most 1000 units", name, errs)
		}
	}
	_, errs := Overlay(testGraph(t), Spec{Categories: []CategorySpec{extend("length", many[:11]...)}}, OverlayOptions{Limits: OverlayLimits{Units: 10}})
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "at most 10") {
		t.Errorf("11 units with a limit of 10: %v", errs)
	}
	var cats []CategorySpec
	for i := range 3 {
		id := "k" + itoa(i)
		cats = append(cats, CategorySpec{ID: id, Name: id, Dimension: map[string]int{}, Base: id + "u", Units: []UnitSpec{accountUnit(id+"u", DefinitionSpec{})}})
	}
	if _, errs := Overlay(testGraph(t), Spec{Categories: cats}, OverlayOptions{Limits: OverlayLimits{Categories: 2}}); len(errs) == 0 || !strings.Contains(errs[0].Error(), "at most 2 categories") {
		t.Errorf("3 categories with a limit of 2: %v", errs)
	}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}

// TestOverlayNamesNeverChangeMeaning compiles an account's units against
// a catalog release that has added one of their names: served leniently,
// the plain name is ambiguous, my: still names the account's unit, and
// the account's own definitions keep naming theirs.
func TestOverlayNamesNeverChangeMeaning(t *testing.T) {
	units := []UnitSpec{
		accountUnit("smoot", lin("1.7018", "m"), "1 smoot = 1.7018 m"),
		accountUnit("halfsmoot", lin("1/2", "smoot"), "2 halfsmoot = 1 smoot"),
	}
	spec := testSpec()
	spec.Categories[0].Units = append(spec.Categories[0].Units, UnitSpec{Symbol: "smoot", Name: "catalog smoot", Plural: "catalog smoots", System: "test", Exact: true, Source: "release 2", Definition: lin("1.7", "m")})
	release, errs := Build(spec)
	if errs != nil {
		t.Fatal(errs)
	}
	if _, errs := Overlay(release, Spec{Categories: []CategorySpec{extend("length", units...)}}, OverlayOptions{}); len(errs) == 0 {
		t.Fatal("a definition shadowing the catalog's smoot compiled strictly")
	}
	g, errs := Overlay(release, Spec{Categories: []CategorySpec{extend("length", units...)}}, OverlayOptions{Lenient: true})
	if len(errs) != 0 || g == nil {
		t.Fatalf("lenient overlay: %v", errs)
	}
	_, err := g.Convert(Request{Value: "1", From: "smoot", To: "m"})
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeAmbiguousUnit || !slices.Equal(e.Candidates, []string{"smoot", "my:smoot"}) {
		t.Fatalf("plain smoot: %v (%+v), want AMBIGUOUS_UNIT with smoot and my:smoot", err, e)
	}
	if u, err := g.Lookup("smoot"); err == nil || u != nil {
		t.Errorf("Lookup(smoot) = %v, %v", u, err)
	}
	if res := convert(t, g, "1", "my:smoot", "m"); res.Value != "1.7018" {
		t.Errorf("my:smoot = %s m", res.Value)
	}
	if res := convert(t, g, "2", "halfsmoot", "m"); res.Value != "1.7018" {
		t.Errorf("2 halfsmoot = %s m, want 1.7018: the account's definition still names its smoot", res.Value)
	}
	if res := convert(t, release, "1", "smoot", "m"); res.Value != "1.7" {
		t.Errorf("the catalog's graph: 1 smoot = %s m", res.Value)
	}
}

// TestOverlayLenientLeavesOut serves what compiles when a catalog
// release removed a unit that an account's definition refers to.
func TestOverlayLenientLeavesOut(t *testing.T) {
	units := []UnitSpec{
		accountUnit("smoot", lin("1.7018", "m"), "1 smoot = 1.7018 m"),
		accountUnit("yardstick", lin("1", "yd"), "1 yardstick = 3 ft"),
		accountUnit("twosticks", lin("2", "yardstick")),
		accountUnit("halfsmoot", lin("1/2", "smoot")),
	}
	spec := testSpec()
	var kept []UnitSpec
	for _, u := range spec.Categories[0].Units {
		if u.Symbol != "yd" {
			kept = append(kept, u)
		}
	}
	spec.Categories[0].Units = kept
	release, errs := Build(spec)
	if errs != nil {
		t.Fatal(errs)
	}
	if _, errs := Overlay(release, Spec{Categories: []CategorySpec{extend("length", units...)}}, OverlayOptions{}); len(errs) == 0 {
		t.Fatal("compiled strictly without yd")
	}
	g, problems := Overlay(release, Spec{Categories: []CategorySpec{extend("length", units...)}}, OverlayOptions{Lenient: true})
	if g == nil {
		t.Fatal("lenient overlay failed")
	}
	var got []string
	for _, u := range g.AccountUnits() {
		got = append(got, u.Symbol)
	}
	if !slices.Equal(got, []string{"my:smoot", "my:halfsmoot"}) {
		t.Errorf("units served: %v", got)
	}
	if len(problems) != 2 || !strings.Contains(problems[0].Error(), `unknown unit "yd"`) || !strings.Contains(problems[1].Error(), "defined through yardstick") {
		t.Errorf("problems: %v", problems)
	}
	_, err := g.Convert(Request{Value: "1", From: "my:twosticks", To: "m"})
	if codeOf(err) != CodeUnknownUnit || !strings.Contains(err.Error(), "left out") {
		t.Errorf("my:twosticks: %v, want UNKNOWN_UNIT saying it is left out", err)
	}
	if res := convert(t, g, "2", "halfsmoot", "m"); res.Value != "1.7018" {
		t.Errorf("2 halfsmoot = %s m", res.Value)
	}
}

// TestOverlaysAreIsolated converts the same names through two accounts'
// overlays and the catalog's graph, in turns, so that any cache shared
// between them would show.
func TestOverlaysAreIsolated(t *testing.T) {
	base := testGraph(t)
	a := mustOverlay(t, base, OverlayOptions{}, extend("length", accountUnit("smoot", lin("1.7018", "m"))))
	b := mustOverlay(t, base, OverlayOptions{}, extend("length", accountUnit("smoot", lin("2", "m"))), extend("time", accountUnit("tick", lin("1/64", "s"))))
	for range 3 {
		for _, tt := range []struct{ name, to, a, b string }{
			{"smoot", "m", "1.7018", "2"},
			{"my:smoot", "m", "1.7018", "2"},
			{"smoot/s", "m/s", "1.7018", "2"},
			{"smoot*smoot", "m2", "2.89612324", "4"},
		} {
			ra, rb := convert(t, a, "1", tt.name, tt.to), convert(t, b, "1", tt.name, tt.to)
			if ra.Value != tt.a || rb.Value != tt.b {
				t.Errorf("%s: a = %s, b = %s", tt.name, ra.Value, rb.Value)
			}
			if _, err := base.Convert(Request{Value: "1", From: tt.name, To: tt.to}); codeOf(err) != CodeUnknownUnit {
				t.Errorf("catalog graph, %s: %v", tt.name, err)
			}
		}
	}
	// Errors and suggestions name only the account's own units.
	_, err := a.Convert(Request{Value: "1", From: "tick", To: "s"})
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeUnknownUnit || slices.Contains(e.Suggestions, "my:tick") || strings.Contains(e.Message, "my:tick") {
		t.Errorf("a, tick: %v %v", err, e.Suggestions)
	}
	_, err = b.Convert(Request{Value: "1", From: "tikc", To: "s"})
	if !errors.As(err, &e) || !slices.Contains(e.Suggestions, "my:tick") {
		t.Errorf("b, tikc: %v, want my:tick among the suggestions", err)
	}
	_, err = b.Convert(Request{Value: "1", From: "my:tik", To: "s"})
	if !errors.As(err, &e) || !slices.Equal(e.Suggestions, []string{"my:tick"}) {
		t.Errorf("b, my:tik: %v, want the one suggestion my:tick", err)
	}
	_, err = base.Convert(Request{Value: "1", From: "my:tick", To: "s"})
	if !errors.As(err, &e) || e.Code != CodeUnknownUnit || len(e.Suggestions) != 0 {
		t.Errorf("catalog graph, my:tick: %v %v", err, e.Suggestions)
	}
}

// TestOverlayOfOverlay compiles a request's units over an account's.
func TestOverlayOfOverlay(t *testing.T) {
	acct := mustOverlay(t, testGraph(t), OverlayOptions{}, extend("length", accountUnit("smoot", lin("1.7018", "m"))))
	req := mustOverlay(t, acct, OverlayOptions{NoCache: true}, extend("length", accountUnit("decismoot", lin("1/10", "smoot"), "10 decismoot = 1.7018 m")))
	if res := convert(t, req, "10", "decismoot", "my:smoot"); res.Value != "1" || res.Unit != "my:smoot" {
		t.Errorf("10 decismoot = %s %s", res.Value, res.Unit)
	}
	if _, err := acct.Convert(Request{Value: "1", From: "decismoot", To: "m"}); codeOf(err) != CodeUnknownUnit {
		t.Errorf("the account's graph knows the request's unit: %v", err)
	}
	_, errs := Overlay(acct, Spec{Categories: []CategorySpec{extend("length", accountUnit("smoot", lin("2", "m")))}}, OverlayOptions{NoCache: true})
	if len(errs) == 0 || !strings.Contains(errs[0].Error(), "your account's unit my:smoot") {
		t.Errorf("a request redefining the account's smoot: %v", errs)
	}
}

// TestOverlayFormula compiles an account's formula that is an exact map
// (a reciprocal) and converts through it both ways.
func TestOverlayFormula(t *testing.T) {
	g := mustOverlay(t, testGraph(t), OverlayOptions{},
		extend("fuel_economy", accountUnit("Lper10km", DefinitionSpec{Unit: "km/L", To: "10 / x", From: "10 / x"}, "0.5 Lper10km = 20 km/L")))
	if res := convert(t, g, "1", "Lper10km", "L/100km"); res.Value != "10" || !res.Exact {
		t.Errorf("1 Lper10km = %s L/100km exact=%v", res.Value, res.Exact)
	}
	if _, err := g.Convert(Request{Value: "0", From: "Lper10km", To: "km/L"}); codeOf(err) != CodeValueOutOfRange {
		t.Errorf("0 Lper10km: %v, want VALUE_OUT_OF_RANGE", err)
	}
	if _, err := g.Convert(Request{Value: "1", From: "Lper10km*s", To: "1"}); codeOf(err) != CodeInvalidUnitExpression {
		t.Errorf("a formula unit in an expression: %v", err)
	}
}

// TestDeriveSharesTheCatalog checks, field by field, that an overlay's
// graph shares what the catalog's graph has and keeps caches of its own:
// a field added to Graph must be placed in one list or the other here.
func TestDeriveSharesTheCatalog(t *testing.T) {
	base := testGraph(t)
	g := mustOverlay(t, base, OverlayOptions{}, extend("length", accountUnit("smoot", lin("1.7018", "m"))))
	own := map[string]bool{"exprs": true, "pairs": true, "compiledPairs": true, "mixed": true, "cross": true, "resolved": true,
		"suggesterOnce": true, "subIndexOnce": true, "ov": true, "root": true, "t.MaxName": true,
		"deferredErrs": true, "mixedPairs": true, "unitIndexOnce": true, "spellingsOnce": true, "decodeSpellings": true,
		"x": true, "xMu": true, "xCompile": true} // x is checked below: the catalog's extras, shared
	shared := map[string]bool{"t.Version": true, "t.Categories": true, "t.ByID": true, "t.Units": true, "t.BySymbol": true, "t.ByWord": true,
		"t.Ambiguous": true, "t.Spellings": true, "suggester": true, "t.ByDimension": true, "t.Bridges": true, "t.Bridged": true,
		"t.Codes": true, "codeSides": true, "subIndex": true, "unitIndex": true}
	var check func(prefix string, tg reflect.Type, vg, vb reflect.Value)
	check = func(prefix string, tg reflect.Type, vg, vb reflect.Value) {
		for i := range tg.NumField() {
			f := tg.Field(i)
			name := prefix + f.Name
			switch {
			case name == "t": // the compiled core, field by field
				check("t.", f.Type, vg.Field(i), vb.Field(i))
			case own[name]:
			case shared[name]:
				a, b := vg.Field(i), vb.Field(i)
				same := false
				switch a.Kind() {
				case reflect.Map, reflect.Pointer, reflect.Slice:
					same = a.Pointer() == b.Pointer()
				case reflect.String:
					same = a.String() == b.String()
				case reflect.Struct: // graph.Names: a map or a table, the same
					same = true
					for j := range a.NumField() {
						same = same && a.Field(j).Pointer() == b.Field(j).Pointer()
					}
				}
				if !same {
					t.Errorf("Graph.%s is not shared with the catalog's graph", name)
				}
			default:
				t.Errorf("Graph.%s is new: say in derive (overlay.go) whether an overlay shares it, and list it here", name)
			}
		}
	}
	check("", reflect.TypeFor[Graph](), reflect.ValueOf(g).Elem(), reflect.ValueOf(base).Elem())
	if g.x.Load() == nil || g.x.Load() != base.x.Load() || g.xCompile != nil {
		t.Error("the catalog's extras (hints, preferences, substances) are not shared as they are")
	}
}

// incrementalSpec is an account whose units depend on each other in
// every way a compilation reads another unit: by definition, by example,
// by prefix, by sharing a category of the account's own.
func incrementalSpec(smoot string) Spec {
	beam := accountUnit("beam", lin("3", "m"), "1 beam = 3 m")
	beam.Prefixes = &PrefixSpec{Set: "si", Only: []string{"k", "c"}}
	return Spec{Categories: []CategorySpec{
		extend("length",
			accountUnit("smoot", lin(smoot, "m"), "1 smoot = "+smoot+" m"),
			accountUnit("halfsmoot", lin("1/2", "smoot")),
			accountUnit("stick", lin("0.8509", "m"), "2 stick = 1 smoot"),
			accountUnit("pace", lin("0.762", "m"), "1 pace = 0.762 m"),
			beam,
			accountUnit("kbeamish", lin("1", "kbeam")),
		),
		{ID: "track", Name: "Track lengths", Dimension: map[string]int{"L": 1}, Base: "lap", SIFactor: "400",
			Units: []UnitSpec{accountUnit("lap", DefinitionSpec{})}},
		extend("track", accountUnit("relay", lin("4", "lap"))),
	}}
}

func unitOf(t *testing.T, g *Graph, name string) *Unit {
	t.Helper()
	u, err := g.Lookup(name)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return u
}

// TestOverlayIncremental compiles an account again after a change, from
// the graph compiled before, and checks what was taken as it was and
// what was compiled again.
func TestOverlayIncremental(t *testing.T) {
	base := testGraph(t)
	g1 := mustOverlay(t, base, OverlayOptions{}, incrementalSpec("1.7018").Categories...)
	// stick's example says 2 stick = 1 smoot: with the smoot changed it
	// is checked again, and fails.
	if _, errs := Overlay(base, incrementalSpec("2"), OverlayOptions{Previous: g1}); len(errs) != 1 || !strings.Contains(errs[0].Error(), `example "2 my:stick = 1 my:smoot"`) {
		t.Fatalf("smoot changed, stick's example not: %v", errs)
	}
	spec := incrementalSpec("2")
	spec.Categories[0].Units[2].Examples = nil
	g2, errs := Overlay(base, spec, OverlayOptions{Previous: g1})
	if errs != nil {
		t.Fatal(errs)
	}
	for _, tt := range []struct {
		name   string
		reused bool
	}{
		{"smoot", false}, {"halfsmoot", false}, {"stick", false},
		{"pace", true}, {"beam", true}, {"kbeam", true}, {"cbeam", true}, {"kbeamish", true},
		{"lap", true}, {"relay", true},
	} {
		if got := unitOf(t, g2, tt.name) == unitOf(t, g1, tt.name); got != tt.reused {
			t.Errorf("%s reused = %v, want %v", tt.name, got, tt.reused)
		}
	}
	if res := convert(t, g2, "1", "halfsmoot", "m"); res.Value != "1" {
		t.Errorf("1 halfsmoot = %s m after the smoot became 2 m", res.Value)
	}
	if c1, _ := g1.AccountCategory("track"); c1 != unitOf(t, g2, "relay").Category {
		t.Error("the unchanged category track was not reused")
	}
	// A change inside a category of the account's own compiles it all.
	spec.Categories[2].Units[0].Definition.Factor = "5"
	g3, errs := Overlay(base, spec, OverlayOptions{Previous: g2})
	if errs != nil {
		t.Fatal(errs)
	}
	if unitOf(t, g3, "lap") == unitOf(t, g2, "lap") || unitOf(t, g3, "lap").Category != unitOf(t, g3, "relay").Category {
		t.Error("lap was reused although its category changed, or lap and relay do not share it")
	}
	if res := convert(t, g3, "1", "relay", "lap"); res.Value != "5" {
		t.Errorf("1 relay = %s lap", res.Value)
	}
	// Removing a unit others depend on fails them.
	spec.Categories[0].Units = slices.Delete(spec.Categories[0].Units, 4, 5) // beam
	if _, errs := Overlay(base, spec, OverlayOptions{Previous: g3}); len(errs) == 0 || !strings.Contains(errs[0].Error(), `refers to unknown unit "kbeam"`) {
		t.Errorf("beam removed: %v", errs)
	}
	// A graph compiled on another catalog's graph is not reused.
	other := testGraph(t)
	g4 := mustOverlay(t, other, OverlayOptions{Previous: g2}, spec.Categories[1:]...)
	if unitOf(t, g4, "relay") == unitOf(t, g2, "relay") {
		t.Error("reused a unit compiled on another catalog")
	}
}

// TestOverlayIncrementalMatchesFull applies random changes to an account
// and checks that compiling from the graph before gives what compiling
// from nothing gives: the same units, the same conversions, the same
// problems.
func TestOverlayIncrementalMatchesFull(t *testing.T) {
	base := testGraph(t)
	rng := uint64(42)
	next := func(n int) int {
		rng = rng*6364136223846793005 + 1442695040888963407
		return int(rng>>33) % n
	}
	spec := incrementalSpec("1.7018")
	var prev *Graph
	reused, withProblems := 0, 0
	var lastProblems []error
	for step := range 300 {
		units := &spec.Categories[0].Units
		if len(lastProblems) > 0 && next(4) > 0 {
			// Remove the unit of a problem (its file is its symbol).
			var se *SpecError
			if errors.As(lastProblems[0], &se) {
				*units = slices.DeleteFunc(*units, func(u UnitSpec) bool { return u.Symbol == se.Origin.File })
			}
		}
		if len(*units) == 0 {
			*units = append(*units, accountUnit("smoot", lin("1.7018", "m")))
		}
		switch next(5) {
		case 0: // change a factor
			u := &(*units)[next(len(*units))]
			if u.Definition.Factor != "" {
				u.Definition.Factor = []string{"1", "2", "1/2", "1.7018", "3"}[next(5)]
			}
		case 1: // add a unit, perhaps defined through another
			refs := []string{"m", "smoot", "beam", "kbeam", "pace", "stick", "m", "nosuch"}
			*units = append(*units, accountUnit("u"+itoa(step), lin("2", refs[next(len(refs))])))
		case 2: // remove one
			if len(*units) > 1 {
				i := next(len(*units))
				*units = slices.Delete(*units, i, i+1)
			}
		case 3: // an example through another unit, which may or may not hold
			u := &(*units)[next(len(*units))]
			u.Examples = []ExampleSpec{{Value: "1", From: u.Symbol, To: u.Symbol + "*" + (*units)[0].Symbol + "/" + (*units)[0].Symbol, Result: []string{"1", "1", "1", "2"}[next(4)], Origin: Origin{File: u.Symbol, Line: 2}}}
		case 4: // the own category
			spec.Categories[2].Units[0].Definition.Factor = []string{"4", "5"}[next(2)]
		}
		full, ferrs := Overlay(base, spec, OverlayOptions{Lenient: true})
		inc, ierrs := Overlay(base, spec, OverlayOptions{Lenient: true, Previous: prev})
		if describeOverlay(full, ferrs) != describeOverlay(inc, ierrs) {
			t.Fatalf("step %d: from nothing:\n%s\nfrom the graph before:\n%s", step, describeOverlay(full, ferrs), describeOverlay(inc, ierrs))
		}
		if prev != nil {
			for _, u := range inc.AccountUnits() {
				if slices.Contains(prev.AccountUnits(), u) {
					reused++
				}
			}
		}
		if len(ierrs) > 0 {
			withProblems++
		}
		prev, lastProblems = inc, ierrs
	}
	// The walk must have taken units from the graph before, and met
	// problems (after which a compilation starts from nothing).
	if reused < 500 || withProblems < 10 {
		t.Errorf("reused %d units and met problems %d times: the walk tested too little", reused, withProblems)
	}
}

// describeOverlay lists an overlay's units with each one's value in
// metres (or its category's base), and its problems.
func describeOverlay(g *Graph, errs []error) string {
	var b strings.Builder
	for _, u := range g.AccountUnits() {
		to := "m"
		if u.Category.Account() {
			to = u.Category.Base.Symbol
		}
		res, err := g.Convert(Request{Value: "1", From: u.Symbol, To: to})
		b.WriteString(u.Symbol + " = " + res.Value + " " + to)
		if err != nil {
			b.WriteString(" " + err.Error())
		}
		b.WriteString("\n")
	}
	for _, err := range errs {
		b.WriteString("problem: " + err.Error() + "\n")
	}
	return b.String()
}
