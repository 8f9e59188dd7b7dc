package jsonscan

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestReadNumberKeepsExactText(t *testing.T) {
	for _, tt := range []struct {
		in, want, err string
	}{
		{in: "12.50", want: "12.50"},
		{in: "-0", want: "-0"},
		{in: "1e5", want: "1e5"},
		{in: "1E+05", want: "1E+05"},
		{in: "0.000000000000000000000000000001", want: "0.000000000000000000000000000001"},
		{in: "123456789012345678901234567890", want: "123456789012345678901234567890"},
		{in: "01", want: "0"}, // a number ends at the leading zero; End refuses the rest
		{in: "1.", err: "at byte 2"},
		{in: ".5", err: "at byte 0"},
		{in: "-", err: "at byte 1"},
		{in: "1e", err: "at byte 2"},
		{in: "+1", err: "at byte 0"},
	} {
		var s Scanner
		s.Reset([]byte(tt.in))
		got, err := s.ReadNumber()
		switch {
		case tt.err != "":
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ReadNumber(%q) = %q, %v; want an error %q", tt.in, got, err, tt.err)
			}
		case err != nil || got != tt.want:
			t.Errorf("ReadNumber(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestReadString(t *testing.T) {
	for _, tt := range []struct {
		in, want, err string
	}{
		{in: `"ft"`, want: "ft"},
		{in: `""`, want: ""},
		{in: `"°C"`, want: "°C"},
		{in: `"a\"b\\c\/d\n"`, want: "a\"b\\c/d\n"},
		{in: `"\u00b0C"`, want: "°C"},
		{in: `"\ud83d\ude00"`, want: "😀"},
		{in: `"\ud83d"`, want: "\ufffd"}, // a lone surrogate, as encoding/json reads it
		{in: "\"a\x01\"", err: "control character"},
		{in: "\"\xff\"", err: "invalid UTF-8"},
		{in: `"abc`, err: "unterminated"},
		{in: `"\x"`, err: "at byte"},
		{in: `"\u12"`, err: "at byte"},
	} {
		var s Scanner
		s.Reset([]byte(tt.in))
		got, err := s.ReadString()
		switch {
		case tt.err != "":
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ReadString(%s) = %q, %v; want an error %q", tt.in, got, err, tt.err)
			}
		case err != nil || got != tt.want:
			t.Errorf("ReadString(%s) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

// TestSkipAcceptsOnlyJSON: whatever Skip and End accept, encoding/json
// accepts too, and the other way round for these texts.
func TestSkipAcceptsOnlyJSON(t *testing.T) {
	// The top-level value is depth 0: MaxDepth more levels may nest in it.
	deep := strings.Repeat("[", MaxDepth+2) + strings.Repeat("]", MaxDepth+2)
	ok := strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1)
	for _, tt := range []struct {
		in   string
		want bool
	}{
		{`{"a":[1,2,{"b":null}],"c":true,"d":false}`, true},
		{` { } `, true},
		{`[]`, true},
		{ok, true},
		{deep, false}, // valid JSON, but deeper than MaxDepth
		{`{"a":1,}`, false},
		{`[1,]`, false},
		{`{"a" 1}`, false},
		{`{a:1}`, false},
		{`tru`, false},
		{`nul`, false},
		{`{} {}`, false},
		{`[1] x`, false},
		{``, false},
		{`"a`, false},
	} {
		var s Scanner
		s.Reset([]byte(tt.in))
		err := s.Skip(0)
		if err == nil {
			err = s.End()
		}
		if got := err == nil; got != tt.want {
			t.Errorf("Skip+End(%.40q) accepted = %v (%v), want %v", tt.in, got, err, tt.want)
		}
		if err == nil && !json.Valid([]byte(tt.in)) {
			t.Errorf("accepted invalid JSON %q", tt.in)
		}
	}
}

func TestObjectGivesKeysInOrder(t *testing.T) {
	var s Scanner
	s.Reset([]byte(`{"value":"1","from":"m","value":"2"}`))
	var keys, values []string
	err := s.Object(0, func(key string) error {
		v, err := s.ReadString()
		keys, values = append(keys, key), append(values, v)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	// Repeated keys are reported to the caller, which decides: the
	// scanner does not know the schema.
	if strings.Join(keys, ",") != "value,from,value" || strings.Join(values, ",") != "1,m,2" {
		t.Errorf("keys %v values %v", keys, values)
	}
}

// TestStringLifetime pins down the rule in the package documentation: a
// string without escapes is a view of the scanned bytes, so changing them
// changes the string; a string with escapes is a copy; strings.Clone
// makes a view safe to keep.
func TestStringLifetime(t *testing.T) {
	buf := []byte(`["abc","a\u0062c"]`)
	var s Scanner
	s.Reset(buf)
	var plain, escaped string
	err := s.Array(0, func(i int) error {
		v, err := s.ReadString()
		if i == 0 {
			plain = v
		} else {
			escaped = v
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	kept := strings.Clone(plain)
	for i := range buf {
		buf[i] = 'X'
	}
	if plain != "XXX" {
		t.Errorf("plain string = %q after the buffer changed; the documented view should read XXX", plain)
	}
	if escaped != "abc" || kept != "abc" {
		t.Errorf("escaped %q, cloned %q: copies must not change with the buffer", escaped, kept)
	}
}

// TestPlainObject: the shortcut takes exactly the plain shape (the keys
// given, each once, in any order) and reads
// nothing of anything else, which the general path then reads (or
// refuses) as before.
func TestPlainObject(t *testing.T) {
	keys := []string{"value", "from", "to"}
	for _, tt := range []struct {
		in   string
		want []string // nil: declined
	}{
		{`{"value":"1.5","from":"ft","to":"m"}`, []string{"1.5", "ft", "m"}},
		{`{"value":"","from":"","to":""},`, []string{"", "", ""}},
		{`{"value":"1","from":"km/h","to":"m/s"}]`, []string{"1", "km/h", "m/s"}},
		{`{"value":1.5,"from":"ft","to":"m"}`, nil},                            // a number
		{`{"value": "1.5","from":"ft","to":"m"}`, nil},                         // white space
		{`{"from":"ft","value":"1.5","to":"m"}`, []string{"1.5", "ft", "m"}},   // any order
		{`{"value":"1.5","from":"ft","value":"2"}`, nil},                       // a repeated key
		{`{"value":"1.5","from":"ft"}`, nil},                                   // a member missing
		{`{"value":"1.5","from":"ft","to":"m","x":"y"}`, nil},                  // one more
		{`{"value":"1.5","from":"°F","to":"µm"}`, []string{"1.5", "°F", "µm"}}, // UTF-8
		{"{\"value\":\"1.5\",\"from\":\"\xb0F\",\"to\":\"m\"}", nil},           // not UTF-8
		{`{"value":"1.5","from":"f\"t","to":"m"}`, nil},                        // an escape
		{"{\"value\":\"1.5\",\"from\":\"f\tt\",\"to\":\"m\"}", nil},            // a control character
		{`{"value":"1.5","from":"ft","to":"m"`, nil},                           // cut short
		{`{"value":"1.5","from":"ft","to":"m`, nil},
		{`{"val`, nil},
		{`{"valuex":"1","from":"ft","to":"m"}`, nil},
		{`{"value":"1","from":"ft","tox":"m"}`, nil},
		{`[]`, nil},
		{``, nil},
	} {
		var s Scanner
		s.Reset([]byte(tt.in))
		vals := make([]string, len(keys))
		ok := s.PlainObject(keys, vals)
		switch {
		case tt.want == nil && (ok || s.Offset() != 0):
			t.Errorf("%s: taken (offset %d), want declined with nothing read", tt.in, s.Offset())
		case tt.want != nil && !ok:
			t.Errorf("%s: declined", tt.in)
		case tt.want != nil && strings.Join(vals, "|") != strings.Join(tt.want, "|"):
			t.Errorf("%s: %q, want %q", tt.in, vals, tt.want)
		case tt.want != nil && s.Offset() != strings.LastIndex(tt.in, "}")+1:
			t.Errorf("%s: offset %d after the object", tt.in, s.Offset())
		}
	}
}

func TestSkipRaw(t *testing.T) {
	var s Scanner
	s.Reset([]byte(`[ {"a": [1, "x"]} , "s"]`))
	if err := s.OpenArray(0); err != nil {
		t.Fatal(err)
	}
	var got []string
	for first := true; ; first = false {
		done, err := s.NextElement(first)
		if err != nil {
			t.Fatal(err)
		}
		if done {
			break
		}
		raw, err := s.SkipRaw(1)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(raw))
	}
	if len(got) != 2 || got[0] != `{"a": [1, "x"]}` || got[1] != `"s"` {
		t.Errorf("SkipRaw = %q", got)
	}
}
