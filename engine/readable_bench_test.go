package engine

import "testing"

// BenchmarkReadable times conversions to Auto and to mixed units against
// the fixed-unit conversion each stands beside: a choice by thresholds
// should cost at most twice the conversion it ends in, a mixed result at
// most three times its conversion to the last part. Results are reused as
// the server does.
func BenchmarkReadable(b *testing.B) {
	g := prefGraph(b)
	cases := []struct {
		name string
		req  Request
	}{
		{"fixed_km", Request{Value: "1500", From: "m", To: "km"}},
		{"auto_km", Request{Value: "1500", From: "m", To: Auto, Usage: "road"}},
		{"auto_region", Request{Value: "1500", From: "m", To: Auto, Usage: "road", Region: "SE"}},
		{"auto_locale", Request{Value: "1500", From: "m", To: Auto, Usage: "road", Locale: "en-GB"}},
		{"fixed_in", Request{Value: "1.6129", From: "m", To: "in"}},
		{"mixed_ft_in", Request{Value: "1.6129", From: "m", To: "ft+in"}},
		{"auto_mixed", Request{Value: "1.6129", From: "m", To: Auto, Usage: "person-height", Region: "US"}},
		{"fixed_s", Request{Value: "5400.5", From: "s", To: "s"}},
		{"mixed_h_min_s", Request{Value: "5400.5", From: "s", To: "h+min+s"}},
		{"mixed_source", Request{Value: "5 3.5", From: "ft+in", To: "cm"}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			var res Result
			buf := make([]byte, 0, 64)
			if _, err := g.AppendConvert(buf, &c.req, &res); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				g.AppendConvert(buf[:0], &c.req, &res)
			}
		})
	}
}
