package catalog

import (
	"testing"

	"github.com/unitd/unitd/engine"
)

// BenchmarkLoad compiles the whole shipped catalog: "decode" reads and
// decodes the YAML, "build" compiles the decoded catalog (reduce every unit,
// compile formulas, check formula pairs and every worked example), and
// "total" is both, as a reload does.
func BenchmarkLoad(b *testing.B) {
	fsys := Embedded()
	b.Run("decode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, errs := LoadSpec(fsys); errs != nil {
				b.Fatal(errs)
			}
		}
	})
	b.Run("build", func(b *testing.B) {
		spec, errs := LoadSpec(fsys)
		if errs != nil {
			b.Fatal(errs)
		}
		b.ReportAllocs()
		for b.Loop() {
			if _, errs := engine.Build(spec); errs != nil {
				b.Fatal(errs)
			}
		}
	})
	b.Run("total", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, errs := Load(fsys); errs != nil {
				b.Fatal(errs)
			}
		}
	})
}
