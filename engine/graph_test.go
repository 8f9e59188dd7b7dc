package engine

import (
	"testing"

	"github.com/unitd/unitd/engine/dimension"
)

// testSpec is a small catalog covering every kind of definition.
func testSpec() Spec {
	u := func(sym, name, plural string, def DefinitionSpec) UnitSpec {
		return UnitSpec{Symbol: sym, Name: name, Plural: plural, System: "test", Exact: true, Source: "test", Definition: def}
	}
	lin := func(factor, unit string) DefinitionSpec { return DefinitionSpec{Factor: factor, Unit: unit} }
	m := u("m", "metre", "metres", DefinitionSpec{})
	m.Aliases = []string{"meter", "meters"}
	m.Prefixes = &PrefixSpec{Set: "si", Only: []string{"k", "c", "m", "u"}}
	in := u("in", "inch", "inches", lin("2.54", "cm"))
	in.Symbols = []string{"″"}
	degC := u("degC", "degree Celsius", "degrees Celsius", DefinitionSpec{Factor: "1", Offset: "273.15", Unit: "K"})
	degC.Symbols = []string{"°C"}
	degC.Aliases = []string{"celsius"}
	degF := u("degF", "degree Fahrenheit", "degrees Fahrenheit", DefinitionSpec{Factor: "5/9", Offset: "459.67*5/9", Unit: "K"})
	degF.Aliases = []string{"fahrenheit"}
	W := u("W", "watt", "watts", DefinitionSpec{})
	W.Prefixes = &PrefixSpec{Set: "si", Only: []string{"m", "k"}}
	return Spec{Version: "test-1", Categories: []CategorySpec{
		{ID: "length", Name: "Length", Dimension: map[string]int{"L": 1}, Base: "m", Units: []UnitSpec{
			m, in,
			u("ft", "foot", "feet", lin("12", "in")),
			u("yd", "yard", "yards", lin("3", "ft")),
			u("ftUS", "US survey foot", "US survey feet", lin("1200/3937", "m")),
			u("third", "third of a metre", "thirds of a metre", lin("1/3", "m")),
		}, Ambiguous: []AmbiguousSpec{{Name: "foots", Candidates: []string{"ft", "ftUS"}}}},
		{ID: "temperature", Name: "Temperature", Dimension: map[string]int{"Θ": 1}, Base: "K", Minimum: "0", Units: []UnitSpec{
			u("K", "kelvin", "kelvins", DefinitionSpec{}), degC, degF,
		}},
		{ID: "fuel_economy", Name: "Fuel economy", Dimension: map[string]int{"L": -2}, Base: "km/L", Units: []UnitSpec{
			u("km/L", "kilometre per litre", "kilometres per litre", DefinitionSpec{}),
			u("L/100km", "litre per 100 kilometres", "litres per 100 kilometres", DefinitionSpec{Unit: "km/L", To: "100 / x", From: "100 / x"}),
			u("mpg", "mile per gallon", "miles per gallon", lin("1.609344/3.785411784", "km/L")),
			// Linear on top of a formula unit: its map runs before the formula.
			u("L/1000km", "litre per 1000 kilometres", "litres per 1000 kilometres", lin("0.1", "L/100km")),
		}},
		{ID: "power", Name: "Power", Dimension: map[string]int{"M": 1, "L": 2, "T": -3}, Base: "W", Units: []UnitSpec{
			W,
			u("dBm", "decibel-milliwatt", "decibel-milliwatts", DefinitionSpec{Unit: "mW", To: "10 ** (x / 10)", From: "10 * log10(x)"}),
			u("hp", "horsepower", "horsepower", lin("550*0.3048*4.4482216152605", "W")),
			u("BTU/h", "BTU per hour", "BTU per hour", lin("1055.05585262/3600", "W")),
		}},
		{ID: "temperature_interval", Name: "Temperature interval", Dimension: map[string]int{"Θ": 1}, Base: "delta_K", Preferred: true, Units: []UnitSpec{
			u("delta_K", "kelvin difference", "kelvin differences", DefinitionSpec{}),
			u("delta_degC", "degree Celsius difference", "degrees Celsius difference", lin("1", "delta_K")),
			u("delta_degF", "degree Fahrenheit difference", "degrees Fahrenheit difference", lin("5/9", "delta_K")),
		}},
		{ID: "time", Name: "Time", Dimension: map[string]int{"T": 1}, Base: "s", Units: []UnitSpec{
			u("s", "second", "seconds", DefinitionSpec{}),
			u("min", "minute", "minutes", lin("60", "s")),
			u("h", "hour", "hours", lin("60", "min")),
		}},
		{ID: "mass", Name: "Mass", Dimension: map[string]int{"M": 1}, Base: "kg", Units: []UnitSpec{
			u("kg", "kilogram", "kilograms", DefinitionSpec{}),
			u("g", "gram", "grams", lin("1/1000", "kg")),
			u("lb", "pound", "pounds", lin("0.45359237", "kg")),
		}},
		{ID: "area", Name: "Area", Dimension: map[string]int{"L": 2}, Base: "m2", Units: []UnitSpec{
			u("m2", "square metre", "square metres", DefinitionSpec{}),
			u("ft2", "square foot", "square feet", lin("0.09290304", "m2")),
		}},
		{ID: "speed", Name: "Speed", Dimension: map[string]int{"L": 1, "T": -1}, Base: "m/s", Units: []UnitSpec{
			u("m/s", "metre per second", "metres per second", DefinitionSpec{}),
			u("km/h", "kilometre per hour", "kilometres per hour", lin("1/3.6", "m/s")),
		}},
		{ID: "force", Name: "Force", Dimension: map[string]int{"M": 1, "L": 1, "T": -2}, Base: "N", Units: []UnitSpec{
			u("N", "newton", "newtons", DefinitionSpec{}),
			u("lbf", "pound-force", "pounds-force", lin("4.4482216152605", "N")),
		}},
		{ID: "energy", Name: "Energy", Dimension: map[string]int{"M": 1, "L": 2, "T": -2}, Base: "J", Preferred: true, Units: []UnitSpec{
			u("J", "joule", "joules", DefinitionSpec{}),
		}},
		{ID: "torque", Name: "Torque", Dimension: map[string]int{"M": 1, "L": 2, "T": -2}, Base: "N*m", Units: []UnitSpec{
			u("N*m", "newton metre", "newton metres", DefinitionSpec{}),
		}},
		{ID: "frequency", Name: "Frequency", Dimension: map[string]int{"T": -1}, Base: "Hz", Preferred: true, Units: []UnitSpec{
			u("Hz", "hertz", "hertz", DefinitionSpec{}),
			u("rpm", "revolution per minute", "revolutions per minute", lin("1/60", "Hz")),
		}},
		{ID: "radioactivity", Name: "Radioactivity", Dimension: map[string]int{"T": -1}, Base: "Bq", Units: []UnitSpec{
			u("Bq", "becquerel", "becquerels", DefinitionSpec{}),
		}},
		{ID: "angle", Name: "Angle", Dimension: map[string]int{"A": 1}, Base: "rad", Units: []UnitSpec{
			u("rad", "radian", "radians", DefinitionSpec{}),
			u("deg", "degree", "degrees", lin("pi/180", "rad")),
			u("rev", "revolution", "revolutions", lin("360", "deg")),
		}},
		{ID: "angular_velocity", Name: "Angular velocity", Dimension: map[string]int{"A": 1, "T": -1}, Base: "rad/s", Units: []UnitSpec{
			u("rad/s", "radian per second", "radians per second", DefinitionSpec{}),
			u("deg/s", "degree per second", "degrees per second", lin("pi/180", "rad/s")),
		}},
	}, Bridges: []BridgeSpec{
		{From: "Hz", To: "rad/s", Factor: "2*pi", Exact: true, Source: "ISO 80000-3 (one cycle is 2π rad)"},
	}}
}

func testGraph(t testing.TB) *Graph {
	t.Helper()
	g, errs := Build(testSpec())
	for _, err := range errs {
		t.Error(err)
	}
	if g == nil {
		t.Fatal("Build failed")
	}
	return g
}

func TestLookup(t *testing.T) {
	g := testGraph(t)
	tests := []struct {
		name, in, want string
		code           Code
	}{
		{"symbol", "ft", "ft", ""},
		{"symbol is case-sensitive", "FT", "", CodeUnknownUnit},
		{"prefixed symbol", "km", "km", ""},
		{"micro sign", "µm", "um", ""},
		{"greek mu", "μm", "um", ""},
		{"name", "inch", "in", ""},
		{"plural", "feet", "ft", ""},
		{"word alias any case", "METERS", "m", ""},
		{"prefixed alias", "Kilometer", "km", ""},
		{"prefixed name", "centimetres", "cm", ""},
		{"unicode symbol", "°C", "degC", ""},
		{"inner spaces folded", "degree   celsius", "degC", ""},
		{"ambiguous", "foots", "", CodeAmbiguousUnit},
		{"unknown", "furlong", "", CodeUnknownUnit},
		{"empty", "", "", CodeUnknownUnit},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, err := g.Lookup(tt.in)
			if tt.code != "" {
				e, ok := err.(*Error)
				if !ok || e.Code != tt.code {
					t.Fatalf("Lookup(%q) = %v, %v; want code %s", tt.in, u, err, tt.code)
				}
				return
			}
			if err != nil || u.Symbol != tt.want {
				t.Fatalf("Lookup(%q) = %v, %v; want %s", tt.in, u, err, tt.want)
			}
		})
	}
}

func TestLookupSuggestsAndLists(t *testing.T) {
	g := testGraph(t)
	_, err := g.Lookup("metr")
	e := err.(*Error)
	if len(e.Suggestions) == 0 || e.Suggestions[0] != "m" || len(e.Suggestions) > 5 {
		t.Errorf("suggestions for metr = %v, want m first, at most 5", e.Suggestions)
	}
	_, err = g.Lookup("foots")
	e = err.(*Error)
	if len(e.Candidates) != 2 || e.Candidates[0] != "ft" || e.Candidates[1] != "ftUS" {
		t.Errorf("candidates = %v", e.Candidates)
	}
}

func TestPrefixedUnits(t *testing.T) {
	g := testGraph(t)
	km, err := g.Lookup("km")
	if err != nil {
		t.Fatal(err)
	}
	if km.Name != "kilometre" || km.Plural != "kilometres" || km.Prefixed == nil || km.Prefixed.Symbol != "m" {
		t.Errorf("km = %+v", km)
	}
	if km.Doc().Definition != (Definition{Kind: "linear", Unit: "m", Factor: "1000"}) {
		t.Errorf("km definition = %+v", km.Doc().Definition)
	}
	um, _ := g.Lookup("um")
	if um.Doc().Definition.Factor != "1/1000000" {
		t.Errorf("um factor = %s", um.Doc().Definition.Factor)
	}
	if _, err := g.Lookup("Mm"); err == nil {
		t.Error("Mm exists although only k, c, m, u were allowed")
	}
}

func TestBaseMap(t *testing.T) {
	g := testGraph(t)
	for _, tt := range []struct {
		symbol         string
		factor, offset string
		ok             bool
	}{
		{"m", "1", "0", true},
		{"ft", "381/1250", "0", true},
		{"degF", "5/9", "45967/180", true},
		{"L/100km", "", "", false},
	} {
		u, err := g.Lookup(tt.symbol)
		if err != nil {
			t.Fatal(err)
		}
		f, o, ok := u.BaseMap()
		if !tt.ok {
			if ok || f != nil || o != nil {
				t.Errorf("%s: BaseMap() = %v, %v, %v; want no map", tt.symbol, f, o, ok)
			}
			continue
		}
		if !ok || f.RatString() != tt.factor || o.RatString() != tt.offset {
			t.Errorf("%s: BaseMap() = %v, %v, %v; want %s, %s, %v", tt.symbol, f, o, ok, tt.factor, tt.offset, tt.ok)
		}
		f.SetInt64(7) // a copy: the graph must not change
		if f2, _, _ := u.BaseMap(); f2.RatString() != tt.factor {
			t.Errorf("%s: BaseMap shares its result with the graph", tt.symbol)
		}
	}
}

// TestGraphListsAreCopies checks that the lists a graph hands out are the
// caller's own: changing them leaves the graph as it was.
func TestGraphListsAreCopies(t *testing.T) {
	g := testGraph(t)
	cats, units, dims := g.Categories(), g.Units(), dimension.Symbols()
	nc, nu, first := len(cats), len(units), units[0]
	cats[0], units[0], dims[0] = nil, nil, "X"
	if c := g.Categories(); len(c) != nc || c[0] == nil {
		t.Error("Categories() handed out the graph's own slice")
	}
	if u := g.Units(); len(u) != nu || u[0] != first {
		t.Error("Units() handed out the graph's own slice")
	}
	if dimension.Symbols()[0] != "M" {
		t.Error("dimension.Symbols() handed out the package's own slice")
	}
}
