package engine_test

import (
	"slices"
	"testing"
	"time"

	"github.com/unitd/unitd/catalog"
	"github.com/unitd/unitd/engine"
)

// shippedReadable are conversions to auto and to mixed units over the
// shipped catalog's CLDR preferences (its whole region tree and lists of
// several thresholds), each beside the fixed-unit conversion it ends in:
// for auto the unit it chooses, for a mixed unit its last part.
var shippedReadable = []struct {
	name string
	req  engine.Request
}{
	{"auto_road_GB", engine.Request{Value: "1500", From: "m", To: engine.Auto, Usage: "road", Region: "GB"}},
	{"auto_road_locale", engine.Request{Value: "1500", From: "m", To: engine.Auto, Usage: "road", Locale: "sv-SE"}},
	{"auto_weather_US", engine.Request{Value: "21.5", From: "degC", To: engine.Auto, Usage: "weather", Region: "US"}},
	{"auto_fuel_US", engine.Request{Value: "6.5", From: "L/100km", To: engine.Auto, Usage: "vehicle-fuel", Region: "US"}},
	{"auto_region_fallback", engine.Request{Value: "70", From: "kg", To: engine.Auto, Usage: "person", Region: "AT"}},
	{"auto_mixed_height_US", engine.Request{Value: "1.6129", From: "m", To: engine.Auto, Usage: "person-height", Region: "US"}},
	{"mixed_ft_in", engine.Request{Value: "1.6129", From: "m", To: "ft+in"}},
	{"mixed_st_lb", engine.Request{Value: "71.5", From: "kg", To: "st+lb"}},
	{"mixed_h_min_s", engine.Request{Value: "5400.5", From: "s", To: "h+min+s"}},
}

// fixedFor is the fixed-unit request a readable one stands beside: the
// same value and source, to the unit it ends in.
func fixedFor(b *testing.B, g *engine.Graph, req engine.Request) engine.Request {
	b.Helper()
	res, err := g.Convert(req)
	if err != nil {
		b.Fatal(err)
	}
	to := res.Unit
	if len(res.Parts()) > 0 {
		to = res.Parts()[len(res.Parts())-1].Unit.Symbol
	}
	return engine.Request{Value: req.Value, From: req.From, To: to}
}

func shippedBench(b *testing.B) *engine.Graph {
	b.Helper()
	g, errs := catalog.Load(catalog.Embedded())
	if len(errs) > 0 || g == nil {
		b.Fatalf("the shipped catalog does not compile: %v", errs)
	}
	return g
}

// BenchmarkShippedReadable times each readable conversion of the shipped
// catalog and, as "fixed", the conversion it ends in. Results are reused
// as the server does.
func BenchmarkShippedReadable(b *testing.B) {
	g := shippedBench(b)
	for _, c := range shippedReadable {
		for _, v := range []struct {
			name string
			req  engine.Request
		}{{"fixed", fixedFor(b, g, c.req)}, {"readable", c.req}} {
			b.Run(c.name+"/"+v.name, func(b *testing.B) {
				var res engine.Result
				buf := make([]byte, 0, 64)
				if _, err := g.AppendConvert(buf, &v.req, &res); err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				for b.Loop() {
					g.AppendConvert(buf[:0], &v.req, &res)
				}
			})
		}
	}
}

// BenchmarkShippedReadableRatios reports, in interleaved rounds of a
// thousand conversions each, the median cost of each readable conversion
// of the shipped catalog over the fixed-unit conversion it ends in (the
// targets: at most 2 for auto, 3 for a mixed unit).
func BenchmarkShippedReadableRatios(b *testing.B) {
	g := shippedBench(b)
	for _, c := range shippedReadable {
		fixed := fixedFor(b, g, c.req)
		b.Run(c.name, func(b *testing.B) {
			var res engine.Result
			buf := make([]byte, 0, 64)
			run := func(req *engine.Request, n int) time.Duration {
				start := time.Now()
				for range n {
					g.AppendConvert(buf[:0], req, &res)
				}
				return time.Since(start)
			}
			var ratios []float64
			for b.Loop() {
				f := run(&fixed, 1000)
				t := run(&c.req, 1000)
				ratios = append(ratios, float64(t)/float64(f))
			}
			slices.Sort(ratios)
			b.ReportMetric(ratios[len(ratios)/2], "ratio")
		})
	}
}
