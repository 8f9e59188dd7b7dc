package catalog

import (
	"strconv"
	"testing"

	"github.com/unitd/unitd/engine"
)

// BenchmarkConvertNamespaced converts between units named by standard
// codes, seen before (resolved and planned from the graph's caches),
// beside the same conversion by catalog symbols: the target is at most
// 1.2 times the catalog symbols' time.
func BenchmarkConvertNamespaced(b *testing.B) {
	g, errs := Load(Embedded())
	if len(errs) > 0 {
		b.Fatal(errs)
	}
	// Names are pair=…/names=…, so that `benchstat -col /names` prints
	// each system's ratio to the catalog symbols of the same pair.
	for _, c := range []struct{ name, from, to string }{
		{"pair=mg-dL/names=symbols", "mg/dL", "g/L"},
		{"pair=mg-dL/names=ucum", "ucum:mg/dL", "ucum:g/L"},
		{"pair=lb-kg/names=symbols", "lb", "kg"},
		{"pair=lb-kg/names=ucum", "ucum:[lb_av]", "ucum:kg"},
		{"pair=lb-kg/names=cldr", "cldr:pound", "cldr:kilogram"},
		{"pair=lb-kg/names=qudt", "qudt:LB", "qudt:KiloGM"},
	} {
		b.Run(c.name, func(b *testing.B) {
			req := engine.Request{Value: "12.5", From: c.from, To: c.to}
			var res engine.Result
			buf := make([]byte, 0, 64)
			if _, err := g.AppendConvert(buf, &req, &res); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := g.AppendConvert(buf[:0], &req, &res); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkUCUMFirstParse resolves a UCUM expression of five atoms that
// the graph has not seen (each iteration a new annotation makes a new
// name): the first parse, with its exact factor; the target is at most
// 5 µs.
func BenchmarkUCUMFirstParse(b *testing.B) {
	g, errs := Load(Embedded())
	if len(errs) > 0 {
		b.Fatal(errs)
	}
	names := make([]string, 8192)
	for i := range names {
		names[i] = "ucum:kg.m2/s3/A{" + strconv.Itoa(i) + "}.[ft_i]"
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, _, err := g.Resolve(names[i%len(names)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
