package format

import (
	"bytes"
	"io/fs"
	"reflect"
	"testing"

	"github.com/unitd/unitd/catalog"
)

// FuzzFormat: whatever parses formats idempotently, and to a file the
// loader reads the same way.
func FuzzFormat(f *testing.F) {
	shipped := catalog.Embedded()
	names, _ := fs.Glob(shipped, "*.yaml")
	for _, name := range names[:5] {
		src, _ := fs.ReadFile(shipped, name)
		f.Add(src)
	}
	f.Add([]byte("units:\n  - &a {symbol: x, aliases: [\"a, b\", 'c' # c\n  ]}\n  - *a\n"))
	// Found by this target: an empty value once gained a space a pass.
	f.Add([]byte("0:"))
	f.Add([]byte("0: !!null \"\"\nk: [!!int 1, !!float \"\"]\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		out, err := Source(src)
		if err != nil {
			return
		}
		again, err := Source(out)
		if err != nil {
			t.Fatalf("formatted output does not parse: %v\n%s", err, out)
		}
		if !bytes.Equal(again, out) {
			t.Fatalf("not idempotent:\n%s\nthen\n%s", out, again)
		}
		before, errsBefore := catalog.ParseFile("x.yaml", src)
		after, errsAfter := catalog.ParseFile("x.yaml", out)
		if len(errsBefore) == 0 && (len(errsAfter) != 0 || !reflect.DeepEqual(withoutOrigins(before), withoutOrigins(after))) {
			t.Fatalf("meaning changed:\n%s\nto\n%s\n%v", src, out, errsAfter)
		}
	})
}
