package catalog

import (
	"errors"
	"testing"

	"github.com/unitd/unitd/engine"
)

// FuzzParseFile feeds arbitrary bytes to the decoder and the compiler:
// they must never panic, and every problem must be a located SpecError.
func FuzzParseFile(f *testing.F) {
	files, _ := readSources(Embedded())
	for i, file := range files {
		if i%6 == 0 { // a handful of real files as seeds
			f.Add(file.src)
		}
	}
	f.Add([]byte("category: {id: x, name: X, base: a}\nunits: [{symbol: a, name: a, plural: as, system: s, source: s}]\n"))
	f.Add([]byte("units: [[[]]]"))
	f.Add([]byte("category: &a {id: *a}"))
	f.Fuzz(func(t *testing.T, src []byte) {
		cs, errs := ParseFile("x.yaml", src)
		for _, err := range errs {
			var se *engine.SpecError
			if !errors.As(err, &se) || se.Origin.File != "x.yaml" {
				t.Fatalf("unlocated error %v", err)
			}
		}
		if cs == nil || len(errs) > 0 {
			return
		}
		_, errs = engine.Build(engine.Spec{Categories: []engine.CategorySpec{*cs}})
		for _, err := range errs {
			var se *engine.SpecError
			if !errors.As(err, &se) {
				t.Fatalf("build error without position: %v", err)
			}
		}
	})
}
