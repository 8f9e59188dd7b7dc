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
	b.Run("build", func(b *testing.B) {
		spec, errs, _ := loadSpec(fsys, nil)
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
