package catalog

import (
	"strings"
	"sync"
	"testing"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/internal/race"
)

// shipped is the shipped catalog, compiled once for the package's tests:
// a graph is immutable and safe for concurrent use, and compiling it
// (about 2 s under the race detector) for each of some forty tests was
// most of the package's time.
func shipped(t testing.TB) *engine.Graph {
	t.Helper()
	g, errs := shippedOnce()
	for _, err := range errs {
		t.Error(err)
	}
	if g == nil {
		t.Fatal("the shipped catalog does not compile")
	}
	return g
}

var shippedOnce = sync.OnceValues(func() (*engine.Graph, []error) { return Load(Embedded()) })

// shippedSpec is the shipped catalog's decoded YAML, read once for the
// package's tests, which only read it.
func shippedSpec(t testing.TB) engine.Spec {
	t.Helper()
	spec, errs := shippedSpecOnce()
	for _, err := range errs {
		t.Fatal(err)
	}
	return spec
}

var shippedSpecOnce = sync.OnceValues(func() (engine.Spec, []error) { return LoadSpec(Embedded()) })

// TestShippedCatalogSize checks the promises about the catalog's breadth.
func TestShippedCatalogSize(t *testing.T) {
	g := shipped(t)
	byHand := 0
	for _, u := range g.Units() {
		if u.Prefixed == nil {
			byHand++
			if len(u.Doc().Examples) == 0 {
				t.Errorf("unit %q (%s) is defined by hand but has no worked example", u.Symbol, u.Category.ID)
			}
		}
		if strings.TrimSpace(u.Doc().Source) == "" {
			t.Errorf("unit %q has no source", u.Symbol)
		}
	}
	if n := len(g.Categories()); n < 30 {
		t.Errorf("%d categories, want at least 30", n)
	}
	if n := len(g.Units()); n < 400 {
		t.Errorf("%d units, want at least 400", n)
	}
	if byHand < 150 {
		t.Errorf("%d units defined by hand, want at least 150", byHand)
	}
}

// contractSymbols are the symbols the API contract requires, by category.
var contractSymbols = map[string]string{
	"length":               "m km cm mm um nm in ft yd mi nmi ftUS au ly",
	"area":                 "m2 km2 cm2 ha acre ft2 in2 mi2",
	"volume":               "m3 L mL cm3 gal qt pt cup floz tbsp tsp gal_imp pt_imp floz_imp bbl ft3 in3",
	"mass":                 "kg g mg ug t lb oz gr st ton_us ton_uk ozt slug ct",
	"time":                 "s ms us ns min h d wk yr",
	"temperature":          "K degC degF degR",
	"temperature_interval": "delta_K delta_degC delta_degF delta_degR",
	"speed":                "m/s km/h mph kn ft/s",
	"acceleration":         "m/s2 g0 Gal",
	"force":                "N kN dyn lbf kgf pdl",
	"pressure":             "Pa kPa MPa hPa bar mbar atm psi torr mmHg inHg",
	"energy":               "J kJ MJ cal kcal cal_IT Wh kWh BTU eV erg therm ft_lbf",
	"power":                "W kW MW hp hp_metric BTU/h dBm dBW",
	"frequency":            "Hz kHz MHz GHz rpm",
	"angle":                "rad deg grad arcmin arcsec rev",
	"data":                 "bit B kB MB GB TB KiB MiB GiB TiB",
	"data_rate":            "bit/s kbit/s Mbit/s Gbit/s B/s MB/s",
	"fuel_economy":         "km/L L/100km mpg mpg_imp",
	"current":              "A mA",
	"charge":               "C mAh Ah",
	"voltage":              "V mV kV",
	"resistance":           "ohm",
	"density":              "kg/m3 g/cm3 lb/ft3",
	"flow":                 "m3/s L/s L/min gpm cfm",
	"torque":               "N*m lbf*ft",
	"dynamic_viscosity":    "Pa*s P cP",
	"kinematic_viscosity":  "m2/s St cSt",
	"radioactivity":        "Bq Ci",
	"absorbed_dose":        "Gy rad_dose",
	"equivalent_dose":      "Sv rem",
	"illuminance":          "lx fc",
	"amount":               "mol mmol",
}

func TestContractSymbols(t *testing.T) {
	g := shipped(t)
	for cat, list := range contractSymbols {
		for _, sym := range strings.Fields(list) {
			t.Run(sym, func(t *testing.T) {
				u, err := g.Lookup(sym)
				if err != nil {
					t.Fatal(err)
				}
				if u.Symbol != sym {
					t.Errorf("%s resolves to %s", sym, u.Symbol)
				}
				if u.Category.ID != cat {
					t.Errorf("%s is in %s, want %s", sym, u.Category.ID, cat)
				}
				// Each required symbol also has a name that finds it.
				if v, err := g.Lookup(u.Name); err != nil || v != u {
					t.Errorf("name %q of %s does not resolve to it: %v", u.Name, sym, err)
				}
			})
		}
	}
}

// TestContractMeanings pins the meanings the contract states for symbols
// that are ambiguous elsewhere, with the unitd conversion of one unit.
func TestContractMeanings(t *testing.T) {
	g := shipped(t)
	tests := []struct{ value, from, to, want string }{
		{"1", "gal", "in3", "231"},
		{"1", "gal", "L", "3.785411784"},
		{"1", "qt", "gal", "0.25"},
		{"1", "pt", "gal", "0.125"},
		{"1", "cup", "floz", "8"},
		{"1", "floz", "gal", "0.0078125"},
		{"1", "gal_imp", "L", "4.54609"},
		{"1", "cal", "J", "4.184"},
		{"1", "cal_IT", "J", "4.1868"},
		{"1", "kcal", "cal", "1000"},
		{"1", "BTU", "J", "1055.05585262"},
		{"1", "t", "kg", "1000"},
		{"1", "yr", "d", "365.25"},
		{"1", "hp", "W", "745.69987158227022"},
		{"1", "hp", "ft_lbf/s", "550"},
		{"3.785411784", "mpg", "km/L", "1.609344"},
		{"1", "therm", "J", "105480400"},
		{"1", "in", "cm", "2.54"},
		{"1", "lb", "kg", "0.45359237"},
		{"1", "eV", "J", "1.602176634e-19"},
		{"1", "atm", "Pa", "101325"},
		{"760", "torr", "atm", "1"},
		{"1", "g0", "m/s2", "9.80665"},
		{"1", "au", "m", "149597870700"},
		{"1", "ly", "m", "9460730472580800"},
		{"1", "kB", "B", "1000"},
		{"1", "KiB", "B", "1024"},
		{"1", "degC", "K", "274.15"},
		{"1", "delta_degC", "delta_K", "1"},
		{"9", "delta_degF", "delta_K", "5"},
	}
	for _, tt := range tests {
		t.Run(tt.from+"→"+tt.to, func(t *testing.T) {
			r, err := g.Convert(engine.Request{Value: tt.value, From: tt.from, To: tt.to, Precision: engine.MaxPrecision})
			if err != nil {
				t.Fatal(err)
			}
			if r.Value != tt.want || !r.Exact {
				t.Errorf("%s %s = %s %s (exact %v), want exactly %s", tt.value, tt.from, r.Value, tt.to, r.Exact, tt.want)
			}
		})
	}
}

// TestRoundTrips converts values from every unit to every other unit of
// its category and back, and checks that they come back within the
// precision used, and that exact results are exact both ways. Under the
// race detector it checks every fourth pair of each category, and make
// test runs it in full without the detector.
func TestRoundTrips(t *testing.T) {
	g := shipped(t)
	const p = 34
	tolerance := apd.New(1, -(p - 3))
	stride := 1
	if race.Enabled {
		stride = 4
	}
	for _, c := range g.Categories() {
		t.Run(c.ID, func(t *testing.T) {
			for i, a := range c.Units {
				for j, b := range c.Units {
					if (i*len(c.Units)+j)%stride != 0 {
						continue
					}
					for _, v := range []string{"1.2345", "98.7654321"} {
						there, err := g.Convert(engine.Request{Value: v, From: a.Symbol, To: b.Symbol, Precision: p})
						if err != nil {
							t.Fatalf("%s %s → %s: %v", v, a.Symbol, b.Symbol, err)
						}
						back, err := g.Convert(engine.Request{Value: there.Value, From: b.Symbol, To: a.Symbol, Precision: p})
						if err != nil {
							t.Fatalf("%s %s → %s → back: %v", v, a.Symbol, b.Symbol, err)
						}
						if there.Exact {
							if !back.Exact || back.Value != v {
								t.Errorf("%s %s = %s %s exactly, but back it is %s (exact %v)", v, a.Symbol, there.Value, b.Symbol, back.Value, back.Exact)
							}
							continue
						}
						want, _, _ := apd.NewFromString(v)
						got, _, _ := apd.NewFromString(back.Value)
						var diff, bound apd.Decimal
						apd.BaseContext.Sub(&diff, got, want)
						diff.Abs(&diff)
						apd.BaseContext.Mul(&bound, want, tolerance)
						if diff.Cmp(&bound) > 0 {
							// Only then is the slope worth its two conversions.
							apd.BaseContext.Mul(&bound, magnitude(t, g, want, there.Value, a, b), tolerance)
						}
						if diff.Cmp(&bound) > 0 {
							t.Errorf("%s %s → %s %s → %s %s: off by %s", v, a.Symbol, there.Value, b.Symbol, back.Value, a.Symbol, diff.String())
						}
					}
				}
			}
		})
	}
}

// magnitude is the size against which a round trip's error is measured:
// the value itself, or, when larger, the rounding error of the
// intermediate value carried back into the first unit. Rounding the
// intermediate to p digits costs its own last digits, and through an
// affine or reversed scale (1 qK is -273.149…9999 degC) those are worth
// more than the value's: the bound is |intermediate| times the local slope
// of b in a, taken as a difference quotient at 50 digits.
func magnitude(t *testing.T, g *engine.Graph, v *apd.Decimal, there string, a, b *engine.Unit) *apd.Decimal {
	t.Helper()
	m := new(apd.Decimal).Abs(v)
	x, _, _ := apd.NewFromString(there)
	if x.IsZero() {
		return m
	}
	at := func(x *apd.Decimal) (*apd.Decimal, bool) {
		r, err := g.Convert(engine.Request{Value: x.Text('e'), From: b.Symbol, To: a.Symbol, Precision: engine.MaxPrecision})
		if err != nil {
			return nil, false // outside the unit's domain: no slope there
		}
		d, _, _ := apd.NewFromString(r.Value)
		return d, true
	}
	ctx := apd.BaseContext.WithPrecision(60)
	var h, xh, slope, carried apd.Decimal
	ctx.Mul(&h, x, apd.New(1, -15))
	h.Abs(&h)
	ctx.Add(&xh, x, &h)
	y0, ok0 := at(x)
	y1, ok1 := at(&xh)
	if !ok1 {
		// Beyond the domain's edge (559.725 degDe is absolute zero, and
		// Delisle runs backwards): take the slope on the other side.
		ctx.Neg(&h, &h)
		ctx.Add(&xh, x, &h)
		y1, ok1 = at(&xh)
	}
	if !ok0 || !ok1 {
		return m
	}
	ctx.Sub(&slope, y1, y0)
	ctx.Quo(&slope, &slope, &h)
	ctx.Mul(&carried, x, &slope)
	carried.Abs(&carried)
	if carried.Cmp(m) > 0 {
		return &carried
	}
	return m
}
