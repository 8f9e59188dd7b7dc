package engine

import (
	"slices"
	"testing"
	"time"
)

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

// BenchmarkReadableRatios measures, in interleaved rounds of a thousand
// conversions each, the cost of each readable conversion over the
// fixed-unit conversion it stands beside, and reports the median ratio of
// the rounds (on a shared machine a ratio within one round drifts less
// than two separate benchmarks do).
func BenchmarkReadableRatios(b *testing.B) {
	g := prefGraph(b)
	pairs := []struct {
		name          string
		fixed, tested Request
	}{
		{"auto/fixed", Request{Value: "1500", From: "m", To: "km"}, Request{Value: "1500", From: "m", To: Auto, Usage: "road"}},
		{"auto_region/fixed", Request{Value: "1500", From: "m", To: "km"}, Request{Value: "1500", From: "m", To: Auto, Usage: "road", Region: "SE"}},
		{"auto_locale/fixed", Request{Value: "1500", From: "m", To: "mi"}, Request{Value: "1500", From: "m", To: Auto, Usage: "road", Locale: "en-GB"}},
		{"mixed/fixed", Request{Value: "1.6129", From: "m", To: "in"}, Request{Value: "1.6129", From: "m", To: "ft+in"}},
		{"mixed_h_min_s/fixed", Request{Value: "5400.5", From: "s", To: "min"}, Request{Value: "5400.5", From: "s", To: "h+min+s"}},
		{"auto_mixed/fixed", Request{Value: "1.6129", From: "m", To: "in"}, Request{Value: "1.6129", From: "m", To: Auto, Usage: "person-height", Region: "US"}},
	}
	for _, c := range pairs {
		b.Run(c.name, func(b *testing.B) {
			var res Result
			buf := make([]byte, 0, 64)
			run := func(req *Request, n int) time.Duration {
				start := time.Now()
				for range n {
					g.AppendConvert(buf[:0], req, &res)
				}
				return time.Since(start)
			}
			if _, err := g.AppendConvert(buf, &c.tested, &res); err != nil {
				b.Fatal(err)
			}
			var ratios []float64
			for b.Loop() {
				f := run(&c.fixed, 1000)
				t := run(&c.tested, 1000)
				ratios = append(ratios, float64(t)/float64(f))
			}
			slices.Sort(ratios)
			b.ReportMetric(ratios[len(ratios)/2], "ratio")
		})
	}
}
