package yamlfast

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// FuzzParse checks, on any bytes, that the parser never fails (a runtime error turned into a decline) and that
// whatever it reads, yaml.v3 reads too, into the same tree. The seeds are
// files of the shipped catalog, each also cut short and with a line
// doubled, dropped or indented, and the tests' inputs.
func FuzzParse(f *testing.F) {
	files := yamlFiles(f)
	paths := slices.Sorted(func(yield func(string) bool) {
		for p := range files {
			if !yield(p) {
				return
			}
		}
	})
	for i, path := range paths {
		if filepath.Dir(path) != filepath.Join(catalogDir, "data") || i%12 != 0 {
			continue
		}
		src := files[path]
		if len(src) > 4000 {
			src = src[:4000] // a file's start: smaller inputs fuzz faster
		}
		f.Add(src)
		lines := bytes.SplitAfter(src, []byte("\n"))
		for j := 3; j < len(lines); j += len(lines)/3 + 1 {
			f.Add(bytes.Join(lines[:j], nil))
			f.Add(bytes.Join(slices.Concat(lines[:j], lines[j-1:]), nil))
			f.Add(bytes.Join(slices.Concat(lines[:j-1], lines[j:]), nil))
			f.Add(bytes.Join(slices.Concat(lines[:j], [][]byte{[]byte(" ")}, lines[j:]), nil))
		}
	}
	for _, s := range []string{
		"a: |\n  x\n\n  y\nb: >-\n  z\n  w\n",
		"a: [x, 'y', \"\\u00b5\"]\nb: {c: 1, d: [e]}\n",
		"- a: 1\n  b:\n  - 2\n- c\n",
		"a: 0x1F\nb: .5\nc: 1e3\nd: ~\ne:\nf: 2001-12-14\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		got, d := parse(src)
		if d != nil {
			if strings.HasPrefix(d.why, internal) {
				t.Fatalf("the parser failed: %s", d.why)
			}
			return
		}
		want, err := plain(src)
		if err != nil {
			t.Fatalf("read, but yaml.v3 fails: %v", err)
		}
		if d := differ(got, want); d != "" {
			t.Fatal(d)
		}
	})
}
