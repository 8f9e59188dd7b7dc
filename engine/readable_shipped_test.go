package engine_test

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/unitd/unitd/engine"
)

// TestReadableAcceleratorsMatchPlain converts to auto (every usage of
// every category with preferences, in regions and locales of every kind,
// UN M.49 areas among them) and to mixed units, from random units of the
// category at random values and precisions, on the shipped catalog, with
// the accelerators on and off: the unit, value, parts, exactness,
// preference chosen and error are the same.
func TestReadableAcceleratorsMatchPlain(t *testing.T) {
	g := shipped(t)
	r := rand.New(rand.NewPCG(35, 12))
	value := func() string {
		s := strconv.FormatUint(r.Uint64()>>uint(r.IntN(64)), 10)
		if r.IntN(2) == 0 && len(s) > 1 {
			cut := 1 + r.IntN(len(s)-1)
			s = s[:cut] + "." + s[cut:]
		}
		if r.IntN(3) == 0 {
			s += "e" + strconv.Itoa(r.IntN(16)-8)
		}
		if r.IntN(4) == 0 {
			s = "-" + s
		}
		return s
	}
	answered := 0
	run := func(on bool, req engine.Request) string {
		defer engine.SetOptimize(on)()
		res, err := g.Convert(req)
		if on && err == nil {
			answered++
		}
		s := fmt.Sprint(res.Unit, " ", res.Value, " ", engine.PartsText(res.Parts()), " ", res.Exact, " ", err)
		if p := res.Preference(); p != nil {
			s += fmt.Sprint(" ", p.MatchedUsage, " ", p.Region, " ", p.MatchedRegion, " ", p.Chosen, " ", p.Reached)
		}
		return s
	}
	_, sets, ok, err := g.Preferences("", "", "")
	if !ok || err != nil {
		t.Fatalf("the shipped catalog has no preferences: %v", err)
	}
	places := []struct{ region, locale string }{{"", ""}, {"US", ""}, {"GB", ""}, {"SE", ""}, {"419", ""}, {"EU", ""},
		{"", "en-US"}, {"", "de-CH"}, {"", "es-419"}, {"", "sv"}, {"", "en-u-ms-uksystem"}, {"", "de-u-mu-fahrenhe"}}
	compared := 0
	for _, set := range sets {
		c, _ := g.Category(set.Category)
		for range 12 {
			place := places[r.IntN(len(places))]
			req := engine.Request{Value: value(), From: c.Units[r.IntN(len(c.Units))].Symbol, To: engine.Auto,
				Usage: set.Usage, Region: place.region, Locale: place.locale, Precision: 1 + r.IntN(engine.MaxPrecision)}
			if fast, plain := run(true, req), run(false, req); fast != plain {
				t.Errorf("%+v: %s; plain path %s", req, fast, plain)
			}
			compared++
		}
	}
	// Mixed targets, from the units of their first part's category.
	for to, first := range map[string]string{"ft+in": "ft", "yd+ft+in": "yd", "st+lb": "st", "lb+oz": "lb", "h+min+s": "h",
		"d+h+min": "d", "deg+arcmin+arcsec": "deg", "m+cm": "m", "foot-and-inch": "ft"} {
		u, err := g.Lookup(first)
		if err != nil {
			t.Fatal(err)
		}
		units := u.Category.Units
		for range 60 {
			req := engine.Request{Value: value(), From: units[r.IntN(len(units))].Symbol, To: to, Precision: 1 + r.IntN(engine.MaxPrecision)}
			if fast, plain := run(true, req), run(false, req); fast != plain {
				t.Errorf("%+v: %s; plain path %s", req, fast, plain)
			}
			compared++
		}
	}
	if compared < 800 || answered < compared*3/4 {
		t.Errorf("compared %d conversions, %d of them answered", compared, answered)
	}
}
