package engine

import (
	"errors"
	"strings"
	"testing"
)

// FuzzReadable sends any value, units, usage, region and locale to the
// readable path: it never panics, every error has an API code, and a mixed
// result has one part per unit, every part but the last a whole number
// and a sign on the first part that is not zero at most.
func FuzzReadable(f *testing.F) {
	seeds := [][6]string{
		{"1.75", "m", "auto", "person-height", "GB", ""},
		{"5 3.5", "ft+in", "cm", "", "", ""},
		{"-0.1", "m", "ft+in", "", "", ""},
		{"1e1000", "ft", "ft+in", "", "", ""},
		{"1e-1000", "h", "h+min+s", "", "", ""},
		{"1", "rad", "deg+arcmin+arcsec", "", "", ""},
		{"2", "km", "auto", "road-x", "", "sv-u-ms-ussystem-rg-gbzzzz"},
		{"1", "m", "cldr:foot-and-", "", "", "en--"},
		{"0 -0", "ft+in", "auto", "", "", "x-private"},
		{"20", "degC", "auto", "", "", "de-u-mu-fahrenhe"},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1], s[2], s[3], s[4], s[5], 7)
	}
	g := prefGraph(f)
	f.Fuzz(func(t *testing.T, value, from, to, usage, region, locale string, p int) {
		p = p%MaxPrecision + 1
		if p < 1 {
			p += MaxPrecision
		}
		res, err := g.Convert(Request{Value: value, From: from, To: to, Usage: usage, Region: region, Locale: locale, Precision: p})
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Code == CodeInternal || e.Code == "" {
				t.Fatalf("%q %q → %q: %v", value, from, to, err)
			}
			return
		}
		if len(res.Parts()) == 0 {
			return
		}
		if res.Value != "" || len(res.Parts()) < 2 || strings.Count(res.Unit, "+")+1 != len(res.Parts()) {
			t.Fatalf("%q %q → %q: %+v", value, from, to, res)
		}
		signs := 0
		for i, part := range res.Parts() {
			v := strings.TrimPrefix(part.Value, "-")
			if v != part.Value {
				signs++
			}
			if i < len(res.Parts())-1 && strings.Contains(v, ".") && !strings.Contains(v, "e") {
				t.Fatalf("%q %q → %q: part %d is %s", value, from, to, i, part.Value)
			}
		}
		if signs > 1 {
			t.Fatalf("%q %q → %q: parts %s", value, from, to, PartsText(res.Parts()))
		}
	})
}
