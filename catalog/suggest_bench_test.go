package catalog

import (
	"strings"
	"testing"
)

// BenchmarkLookupUnknown times the lookup of an unknown unit in the
// shipped catalog, suggestions included: what a client that sends made-up
// names costs the server.
func BenchmarkLookupUnknown(b *testing.B) {
	g, errs := Load(Embedded())
	if errs != nil {
		b.Fatal(errs)
	}
	for _, c := range []struct{ name, unit string }{
		{"typo", "metr"},
		{"word", "kilometrs"},
		{"len20", "qwertyuiopasdfghjklz"},
		{"len64", strings.Repeat("abcdefghijklmnop", 4)},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := g.Lookup(c.unit); err == nil {
					b.Fatalf("%s is a unit", c.unit)
				}
			}
		})
	}
}
