package yamlfast

import (
	"strings"
	"testing"

	"github.com/unitd/unitd/internal/race"
	"go.yaml.in/yaml/v3"
)

// TestParse checks inputs the parser reads against yaml.v3's tree for the
// same bytes, and the tag or value it must give where YAML's rules are
// easy to get wrong.
func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		tag       string // the tag of the value of the first key, if not ""
		value     string // the value of the first key, if tag is not ""
	}{
		// yaml.v3 resolves YAML 1.2's core schema: yes, no, on and off are
		// strings, and numbers are read as Go reads them.
		{"yes", "a: yes\n", "!!str", "yes"},
		{"No", "a: No\n", "!!str", "No"},
		{"on", "a: on\n", "!!str", "on"},
		{"off", "a: off\n", "!!str", "off"},
		{"y", "a: y\n", "!!str", "y"},
		{"true", "a: true\n", "!!bool", "true"},
		{"False", "a: False\n", "!!bool", "False"},
		{"TRUE", "a: TRUE\n", "!!bool", "TRUE"},
		{"tRUE", "a: tRUE\n", "!!str", "tRUE"},
		{"exponent", "a: 1e3\n", "!!float", "1e3"},
		{"negative exponent", "a: 1e-4\n", "!!float", "1e-4"},
		{"out of range", "a: 1e400\n", "!!str", "1e400"},
		{"leading dot", "a: .5\n", "!!float", ".5"},
		{"dot", "a: .\n", "!!str", "."},
		{"hex", "a: 0x1F\n", "!!int", "0x1F"},
		{"octal", "a: 0o17\n", "!!int", "0o17"},
		{"old octal", "a: 017\n", "!!int", "017"},
		{"binary", "a: 0b101\n", "!!int", "0b101"},
		{"negative binary", "a: -0b101\n", "!!int", "-0b101"},
		{"underscores", "a: 1_000\n", "!!int", "1_000"},
		{"plus", "a: +1\n", "!!int", "+1"},
		{"minus", "a: -2\n", "!!int", "-2"},
		{"beyond int64", "a: 9223372036854775808\n", "!!int", "9223372036854775808"},
		{"beyond uint64", "a: 18446744073709551616\n", "!!float", "18446744073709551616"},
		{"fraction", "a: 1/100\n", "!!str", "1/100"},
		{"product", "a: 2*pi\n", "!!str", "2*pi"},
		{"two dots", "a: 1.5.5\n", "!!str", "1.5.5"},
		{"inf", "a: .inf\n", "!!float", ".inf"},
		{"minus inf", "a: -.INF\n", "!!float", "-.INF"},
		{"nan", "a: .NaN\n", "!!float", ".NaN"},
		{"nan badly cased", "a: .nAn\n", "!!str", ".nAn"},
		{"date", "a: 2001-12-14\n", "!!timestamp", "2001-12-14"},
		{"time", "a: 2001-12-14t21:59:43.10-05:00\n", "!!timestamp", "2001-12-14t21:59:43.10-05:00"},
		{"space time", "a: 2001-12-14 21:59:43.10\n", "!!timestamp", "2001-12-14 21:59:43.10"},
		{"no date", "a: 2001-12-14x\n", "!!str", "2001-12-14x"},
		{"tilde", "a: ~\n", "!!null", "~"},
		{"null", "a: null\n", "!!null", "null"},
		{"Null", "a: Null\n", "!!null", "Null"},
		{"nULL", "a: nULL\n", "!!str", "nULL"},
		{"empty", "a:\nb: 1\n", "!!null", ""},
		{"empty with spaces", "a:   \nb: 1\n", "!!null", ""},
		{"empty at the end", "a:", "!!null", ""},
		{"empty before comment", "a: # c\nb: 1\n", "!!null", ""},
		{"empty in a list", "a:\n  -\n  - x\n", "", ""},
		{"empty quoted", "a: ''\n", "!!str", ""},
		{"empty double-quoted", "a: \"\"\n", "!!str", ""},
		{"quoted number", "a: '1'\n", "!!str", "1"},
		{"double-quoted number", "a: \"1.5\"\n", "!!str", "1.5"},
		{"quoted true", "a: \"true\"\n", "!!str", "true"},
		{"quote in single quotes", "a: 'it''s'\n", "!!str", "it's"},
		{"only a quote", "a: ''''\n", "!!str", "'"},
		{"escapes", `a: "\u00b5\x41\U0001F600\t\\\""` + "\n", "", ""},
		{"micro", `a: "\u00b5"` + "\n", "!!str", "µ"},
		{"named escapes", `a: "\0\a\b\e\f\n\r\v\ \N\_\L\P'"` + "\n", "!!str", "\x00\a\b\x1b\f\n\r\v \u0085\u00a0\u2028\u2029'"},
		{"trailing spaces", "a: value   \n", "!!str", "value"},
		{"inner spaces", "a: two  words\n", "!!str", "two  words"},
		{"comment", "a: value # comment\n", "!!str", "value"},
		{"hash in a word", "a: value#word\n", "!!str", "value#word"},
		{"colon in a word", "a: b:c\n", "!!str", "b:c"},
		{"colon in quotes", "'a: b': c\n", "!!str", "c"},
		{"colon in double quotes", "\"a:b\": c\n", "!!str", "c"},
		{"quoted key, spaced", "'a'  : c\n", "!!str", "c"},
		{"plain key, spaced", "a  : c\n", "!!str", "c"},
		{"number key", "1: c\n", "!!str", "c"},
		{"dash word", "a: -b\n", "!!str", "-b"},
		{"question word", "a: ?b\n", "!!str", "?b"},
		{"colon first", "a: :b\n", "!!str", ":b"},
		{"merge-like", "a: <b\n", "!!str", "<b"},
		{"unicode", "a: [µ, ″, b] # ≈\nµ: {x: ′, y: z}\n", "", ""},
		{"comments", "# head\n\na: 1 # line\n  # indented\n# foot\nb: 2\n", "", ""},
		{"list of mappings", "a:\n  - b: 1\n    c: [x, y]\n  -   b: 2\n    # c\n      d:\n        e: f\n  - x\n", "", ""},
		{"list in a list item's mapping", "- a:\n  - 1\n  b: 2\n", "", ""},
		{"quoted key in a list item", "- 'a': 1\n  \"b\": 2\n", "", ""},
		{"sequence at its key's indentation", "a:\n- 1\n- 2\nb: 3\n", "", ""},
		{"top-level sequence", "- a\n- b\n", "", ""},
		{"flow", "a: {b: 1, c: [x, 'y', \"z\"], d: {}, e: []}\n", "", ""},
		{"flow with codes", "a: [qudt:PER-HR, \"x, y\", a b]\n", "", ""},
		{"flow spaced", "a: [ x ,  y ]\n", "", ""},
		{"literal", "a: |\n  x\n   y\n\n  z\nb: 1\n", "!!str", "x\n y\n\nz\n"},
		{"literal stripped", "a: |-\n  x\n\n", "!!str", "x"},
		{"literal at the end", "a: |\n  x", "!!str", "x"},
		{"literal with blank lines", "a: |\n  x\n\n\nb: 1\n", "!!str", "x\n"},
		{"literal with a hash", "a: |\n  # x\nb: 1\n", "!!str", "# x\n"},
		{"folded", "a: >\n  x\n  y\n\n  z\n", "!!str", "x y\nz\n"},
		{"folded stripped", "a: >-\n  x\n  y\n", "!!str", "x y"},
		{"folded more indented", "a: >\n  x\n    y\n  z\n", "", ""},
		{"folded with a comment", "a: >- # c\n  x\n# out\nb: 1\n", "!!str", "x"},
		{"block scalar in a list", "- |\n  x\n- >-\n   y\n", "", ""},
		{"block scalar deeper", "a:\n  b: |\n      x\n  c: 1\n", "!!str", ""},
		{"key with spaces", "international foot: 1\n", "!!int", "1"},
		{"no final newline", "a: 1", "!!int", "1"},
		{"long key", strings.Repeat("k", 900) + ": 1\n", "!!int", "1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, err := plain([]byte(tc.src))
			if err != nil {
				t.Fatalf("yaml.v3 fails: %v", err)
			}
			got, d := parse([]byte(tc.src))
			if d != nil {
				t.Fatalf("declined at %d:%d (%s)", d.line, d.column, d.why)
			}
			if diff := differ(got, want); diff != "" {
				t.Fatal(diff)
			}
			if tc.tag == "" {
				return
			}
			top := got.Content[0]
			if top.Kind != want.Content[0].Kind || len(top.Content) < 2 {
				t.Fatal("not a mapping")
			}
			if v := top.Content[1]; tc.tag != "!!str" || tc.value != "" || v.Kind == 8 {
				if v.Tag != tc.tag || (v.Kind == 8 && v.Value != tc.value) {
					t.Errorf("value %q, tag %s; want %q, %s", v.Value, v.Tag, tc.value, tc.tag)
				}
			}
		})
	}
}

// TestDeclines checks that input outside the subset, and every input
// yaml.v3 refuses, is left to yaml.v3.
func TestDeclines(t *testing.T) {
	for _, tc := range []struct{ name, src string }{
		{"anchor", "a: &x 1\nb: *x\n"},
		{"alias", "a: *x\n"},
		{"tag", "a: !!str 1\n"},
		{"local tag", "a: !x 1\n"},
		{"directive", "%YAML 1.2\n---\na: 1\n"},
		{"document start", "---\na: 1\n"},
		{"document end", "a: 1\n...\n"},
		{"two documents", "a: 1\n---\nb: 2\n"},
		{"empty", ""},
		{"only a comment", "# nothing\n"},
		{"only spaces", "  \n\n"},
		{"a scalar", "a\n"},
		{"a flow sequence", "[a, b]\n"},
		{"indented document", "  a: 1\n"},
		{"tab", "a:\t1\n"},
		{"tab in quotes", "a: 'x\ty'\n"},
		{"carriage return", "a: 1\r\nb: 2\r\n"},
		{"byte order mark", "\ufeffa: 1\n"},
		{"next line", "a: x\u0085y\n"},
		{"line separator", "a: x\u2028y\n"},
		{"control character", "a: x\x01y\n"},
		{"invalid UTF-8", "a: x\xffy\n"},
		{"complex key", "? a\n: b\n"},
		{"merge key", "<<: {a: 1}\n"},
		{"multi-line single quotes", "a: 'x\n  y'\n"},
		{"multi-line double quotes", "a: \"x\n  y\"\n"},
		{"escaped line break", "a: \"x\\\n  y\"\n"},
		{"multi-line plain", "a: x\n  y\n"},
		{"multi-line flow", "a: [x,\n  y]\n"},
		{"trailing comma", "a: [x, ]\n"},
		{"key without value in flow", "a: {b}\n"},
		{"empty value in flow", "a: {b: }\n"},
		{"pair in a flow sequence", "a: [b: c]\n"},
		{"adjacent flow value", "a: {\"b\":c}\n"},
		{"question mark in flow", "a: [b?c]\n"},
		{"keep chomping", "a: |+\n  x\n\n"},
		{"indentation indicator", "a: |2\n   x\n"},
		{"empty block scalar", "a: |\nb: 1\n"},
		{"block scalar whose first line is less indented", "a: |\n\n    \n  x\n"},
		{"sequence entry as a value", "a: - b\n"},
		{"dash as a value", "a: -\n"},
		{"nested sequence on one line", "- - a\n"},
		{"scalar on the next line", "a:\n  b\n"},
		// Syntax errors, which yaml.v3 reports.
		{"unknown escape", `a: "\/"` + "\n"},
		{"surrogate escape", `a: "\ud800"` + "\n"},
		{"short escape", `a: "\u00"` + "\n"},
		{"unterminated quote", "a: 'x\n"},
		{"mapping in a value", "a: b: c\n"},
		{"text after quotes", "a: 'b' c\n"},
		{"comment glued to quotes", "a: 'b'#c\n"},
		{"text after a flow", "a: [b] c\n"},
		{"unclosed flow", "a: [b\n"},
		{"over-indented key", "a: 1\n  b: 2\n"},
		{"under-indented key", "a:\n    b: 1\n  c: 2\n"},
		{"list after a mapping", "a: 1\n- b\n"},
		{"list item's mapping misaligned", "- a: 1\n   b: 2\n"},
		{"flow indicator starts a scalar", "a: ]\n"},
		{"reserved indicator", "a: @b\n"},
		{"backquote", "a: `b`\n"},
		{"key too long", strings.Repeat("k", 1100) + ": 1\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, ok := parseTested(t, []byte(tc.src)); ok {
				_, err := plain([]byte(tc.src))
				t.Errorf("read it (yaml.v3: %v): %s", err, differ(got, nil))
			}
		})
	}
}

// parseTested is Parse that fails t when the parser declined for a fault
// of its own (a runtime error), which a test must never meet.
func parseTested(t *testing.T, src []byte) (*yaml.Node, bool) {
	t.Helper()
	doc, d := parse(src)
	if d != nil && strings.HasPrefix(d.why, internal) {
		t.Fatalf("%q: the parser failed: %s", src, d.why)
	}
	return doc, d == nil
}

// TestNeverDiffers checks short inputs made of the characters that matter
// to YAML, all of them up to a length (five, or four under the race
// detector, which the test has no goroutines for): whatever the parser
// reads, it reads as yaml.v3 does.
func TestNeverDiffers(t *testing.T) {
	alphabet := []byte("a:- '\"#[]{},\n|>1.")
	var src []byte
	accepted := 0
	var walk func(depth int)
	walk = func(depth int) {
		if got, ok := parseTested(t, src); ok {
			accepted++
			want, err := plain(src)
			if err != nil {
				t.Fatalf("%q: read, but yaml.v3 fails: %v", src, err)
			}
			if d := differ(got, want); d != "" {
				t.Fatalf("%q: %s", src, d)
			}
		}
		if depth == 0 {
			return
		}
		for _, c := range alphabet {
			src = append(src, c)
			walk(depth - 1)
			src = src[:len(src)-1]
		}
	}
	depth := 5
	if race.Enabled {
		depth = 4
	}
	walk(depth)
	if accepted < 1000 {
		t.Errorf("only %d inputs read: the check checks little", accepted)
	}
	t.Logf("%d inputs read", accepted)
}

// TestDepth checks that deep nesting is declined, well before yaml.v3's
// limit, and read below it.
func TestDepth(t *testing.T) {
	deep := func(n int) []byte {
		return []byte("a: " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n")
	}
	if _, ok := Parse(deep(maxDepth - 2)); !ok {
		t.Errorf("declined %d nested flow sequences", maxDepth-2)
	}
	if _, ok := Parse(deep(maxDepth)); ok {
		t.Errorf("read %d nested flow sequences", maxDepth)
	}
	if _, ok := Parse(deep(20000)); ok {
		t.Error("read 20,000 nested flow sequences, which yaml.v3 refuses")
	}
}

// TestLongLine checks that a long line costs its length once, not once a
// node: a flow sequence of 200,000 items, non-ASCII ones among them, on
// one line is read in a few of the times its bytes are (not timed here,
// but quadratic work would take minutes).
func TestLongLine(t *testing.T) {
	src := []byte("a: [" + strings.Repeat("µ, x, ", 100000) + "y]\n")
	got, ok := Parse(src)
	if !ok {
		t.Fatal("declined")
	}
	want, err := plain(src)
	if err != nil {
		t.Fatal(err)
	}
	if d := differ(got, want); d != "" {
		t.Fatal(d)
	}
}
