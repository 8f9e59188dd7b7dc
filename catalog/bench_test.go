package catalog

import "testing"

// BenchmarkLoad compiles the whole shipped catalog: read, decode, build,
// check formulas and every worked example.
func BenchmarkLoad(b *testing.B) {
	fsys := Embedded()
	b.ReportAllocs()
	for b.Loop() {
		if _, errs := Load(fsys); errs != nil {
			b.Fatal(errs)
		}
	}
}
