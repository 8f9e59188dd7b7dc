package catalog

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"testing/fstest"

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
			if _, errs, _ := loadSpec(fsys, nil); errs != nil {
				b.Fatal(errs)
			}
		}
	})
	b.Run("build", func(b *testing.B) { // with the code tables, as Load builds
		spec, errs, _ := loadSpec(fsys, nil)
		if errs != nil {
			b.Fatal(errs)
		}
		set, err := codeSet()
		if err != nil {
			b.Fatal(err)
		}
		spec.Codes = set
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
	// A watcher's reload after one file changed: only that file is
	// decoded again.
	b.Run("reload_one_file", func(b *testing.B) {
		files, _ := readSources(fsys)
		mfs := fstest.MapFS{}
		for _, f := range files {
			mfs[f.name] = &fstest.MapFile{Data: f.src}
		}
		var cache decodeCache
		load(context.Background(), mfs, &cache)
		length := mfs["length.yaml"]
		original := length.Data
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			i++
			length.Data = fmt.Appendf(bytes.Clone(original), "\n# edit %d\n", i)
			if _, errs, _ := load(context.Background(), mfs, &cache); errs != nil {
				b.Fatal(errs)
			}
		}
	})
}

// BenchmarkSubstance compares a conversion across kinds through a
// substance with the same conversion without one. substance=none is 100
// mg/dL to lb/ft3, a conversion of the same shape whose result also has 34
// significant digits (100 mg/dL to g/L would print just "1");
// substance=glucose is 100 mg/dL to mmol/L of glucose, the substance
// resolved by name for each conversion as a request does. The promise is
// at most twice the cost: benchstat -col /substance puts them side by
// side. Two more say what the request's other ways cost: a formula that
// names no catalog substance (read and summed each time) and an explicit
// molar mass.
func BenchmarkSubstance(b *testing.B) {
	g, errs := Load(Embedded())
	if errs != nil {
		b.Fatal(errs)
	}
	for _, c := range []struct {
		name string
		q    engine.PropertyQuery
	}{
		{"none", engine.PropertyQuery{}},
		{"glucose", engine.PropertyQuery{Substance: "glucose"}},
		{"formula", engine.PropertyQuery{Substance: "C6H12O6"}},
		{"molar_mass", engine.PropertyQuery{MolarMass: "180.156 g/mol"}},
	} {
		b.Run("substance="+c.name, func(b *testing.B) {
			var res engine.Result
			buf := make([]byte, 0, 64)
			to := "mmol/L"
			if c.q.IsZero() {
				to = "lb/ft3"
			}
			b.ReportAllocs()
			for b.Loop() {
				p, err := g.ResolveProperties(c.q)
				if err != nil {
					b.Fatal(err)
				}
				req := engine.Request{Value: "100", From: "mg/dL", To: to, Properties: p}
				out, err := g.AppendConvert(buf[:0], &req, &res)
				if err != nil || len(out) < 30 {
					b.Fatalf("%s: %s %v", c.name, out, err)
				}
			}
		})
	}
}
