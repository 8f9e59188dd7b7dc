package quantity_test

import (
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/engine/quantity"
)

// FuzzParse: any text is read or refused with INVALID_QUANTITY at a
// position inside it, quickly; what is read converts to its own unit.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"5 ft 3 in", "5'3\"", "1½ cups", "1h30m", "-40 °F", "1,000 m", "1 1/2 in", "½",
		"3 in in cm", "12,5 Kilometer", "١٢٫٥ كم", "1e999 m", "m/s2", "5 ft to", "->", "1m2m3m4m5m6m7m8m9m"} {
		f.Add(s, "en")
		f.Add(s, "de")
	}
	g := testGraph(f)
	opts := map[string]*quantity.Options{"en": options(f, "en"), "de": options(f, "de"), "hi": options(f, "hi")}
	f.Fuzz(func(t *testing.T, text, tag string) {
		opt := opts[tag]
		if opt == nil {
			opt = opts["en"]
		}
		for _, question := range []bool{false, true} {
			start := time.Now()
			var q quantity.Quantity
			var err error
			if question {
				var qq quantity.Question
				qq, err = quantity.ParseQuestion(g, text, opt)
				q = qq.Quantity
			} else {
				q, err = quantity.Parse(g, text, opt)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Fatalf("%q took %v", text, d)
			}
			if err != nil {
				var e *engine.Error
				if !errors.As(err, &e) || e.Code != engine.CodeInvalidQuantity {
					t.Fatalf("%q: %v", text, err)
				}
				if !strings.Contains(e.Message, "(position "+e.Details["position"]+")") {
					t.Fatalf("%q: message %q lacks its position", text, e.Message)
				}
				continue
			}
			if !utf8.ValidString(q.Value) || q.Unit == "" {
				t.Fatalf("%q read as %q %q", text, q.Value, q.Unit)
			}
			if q.Parts == nil {
				if _, err := engine.ParseValue(q.Value); err != nil {
					t.Fatalf("%q: value %q: %v", text, q.Value, err)
				}
			}
		}
	})
}

// TestHostile: long, deep and odd texts are refused quickly.
func TestHostile(t *testing.T) {
	g := testGraph(t)
	opt := options(t, "en")
	for _, text := range []string{
		strings.Repeat("9", 300) + " m",
		"1 " + strings.Repeat("m", 250),
		strings.Repeat("1m", 120),
		strings.Repeat("1 m ", 60),
		strings.Repeat("½", 80),
		"1/" + strings.Repeat("3", 100) + " m",
		strings.Repeat("1,000", 50) + " m",
		"1" + strings.Repeat("e", 200),
		strings.Repeat(" to ", 60),
		strings.Repeat("→", 80),
		"\xff\xfe m",
		"5 " + strings.Repeat("(", 200) + "m",
	} {
		start := time.Now()
		_, err := quantity.Parse(g, text, opt)
		_, err2 := quantity.ParseQuestion(g, text, opt)
		if d := time.Since(start); d > time.Second {
			t.Errorf("%.40q took %v", text, d)
		}
		for _, e := range []error{err, err2} {
			var ee *engine.Error
			if !errors.As(e, &ee) || ee.Code != engine.CodeInvalidQuantity {
				t.Errorf("%.40q: %v", text, e)
			}
		}
	}
}
