package server

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
)

// TestAppendString: any string, plain or not (quotes, backslashes,
// control characters, UTF-8, invalid UTF-8, U+2028), comes out as a JSON
// string that decodes as encoding/json's encoding of it does.
func TestAppendString(t *testing.T) {
	cases := []string{"", "m", "km/h", "°F", `a"b`, `a\b`, "tab\there", "nl\n", "\x00\x1f", "\xff", "a\xffb", "x\u2028y\u2029", "µm", "″", "<&>"}
	r := rand.New(rand.NewPCG(29, 31))
	alphabet := []byte("ab\"\\\n\x01\x7f\xc2\xb0\xe2\x80\xa8\xff ")
	for range 2000 {
		b := make([]byte, r.IntN(12))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		cases = append(cases, string(b))
	}
	for _, s := range cases {
		got := appendString([]byte("x"), s)
		if got[0] != 'x' {
			t.Fatalf("%q: the prefix was lost", s)
		}
		var ours, theirs string
		if err := json.Unmarshal(got[1:], &ours); err != nil {
			t.Fatalf("%q → %s: %v", s, got[1:], err)
		}
		want, _ := json.Marshal(s)
		json.Unmarshal(want, &theirs)
		if ours != theirs {
			t.Errorf("%q → %s decodes to %q; encoding/json's to %q", s, got[1:], ours, theirs)
		}
	}
}
