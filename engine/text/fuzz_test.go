package text_test

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/text"
)

// FuzzParse: any text is read or refused with INVALID_QUANTITY at a
// position inside it, within its work budget (counted, not timed: the
// fuzz targets run niced beside other tests); what is read converts.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"5 ft 3 in", "5'3\"", "1½ cups", "1h30m", "-40 °F", "1,000 m", "1 1/2 in", "½",
		"3 in in cm", "12,5 Kilometer", "١٢٫٥ كم", "1e999 m", "m/s2", "5 ft to", "->", "1m2m3m4m5m6m7m8m9m",
		"one and a half cups flour", "1.5×10^3 m", "2 large eggs"} {
		f.Add(s, "en")
		f.Add(s, "de")
	}
	g := testGraph(f)
	opts := map[string]*text.Options{"en": options(f, "en-US"), "de": options(f, "de"), "hi": options(f, "hi")}
	f.Fuzz(func(t *testing.T, s, tag string) {
		opt := opts[tag]
		if opt == nil {
			opt = opts["en"]
		}
		for _, question := range []bool{false, true} {
			var q text.Quantity
			var err error
			if question {
				var qq text.Question
				qq, err = text.ParseQuestion(g, s, opt)
				q = qq.Quantity
			} else {
				q, err = text.Parse(g, s, opt)
			}
			if q.Work <= 0 && s != "" {
				t.Fatalf("%q: no work reported", s)
			}
			if q.Work > text.DefaultBudget+4096 {
				t.Fatalf("%.40q: work %d past the budget %d", s, q.Work, text.DefaultBudget)
			}
			if err != nil {
				var e *fault.Error
				if !errors.As(err, &e) || e.Code != fault.InvalidQuantity {
					t.Fatalf("%q: %v", s, err)
				}
				if e.Position < 1 || e.Position > utf8.RuneCountInString(s)+1 || !strings.HasSuffix(e.Message, "at position "+itoa(e.Position)) {
					t.Fatalf("%q: position %d, message %q", s, e.Position, e.Message)
				}
				continue
			}
			if q.Unit == "" || len(q.Exact) == 0 {
				t.Fatalf("%q read as %q %q", s, q.Value, q.Unit)
			}
			if _, err := g.Convert(engine.Request{Exact: q.Exact, From: q.Unit, To: q.Unit}); err != nil {
				var e *fault.Error
				if !errors.As(err, &e) || e.Code == fault.Internal {
					t.Fatalf("%q (%s %s) does not convert to itself: %v", s, q.Value, q.Unit, err)
				}
			}
		}
	})
}

// TestHostile: long, deep and odd texts are refused, within the budget.
func TestHostile(t *testing.T) {
	g := testGraph(t)
	opt := options(t, "en")
	for _, s := range []string{
		strings.Repeat("9", 300) + " m",
		"1 " + strings.Repeat("m", 250),
		strings.Repeat("1m", 120),
		strings.Repeat("1 m ", 60),
		strings.Repeat("½", 80),
		"1/" + strings.Repeat("3", 150) + " m",
		strings.Repeat("1,000", 50) + " m",
		"1" + strings.Repeat("e", 200),
		strings.Repeat(" to ", 60),
		strings.Repeat("→", 80),
		"\xff\xfe m",
		"5 " + strings.Repeat("(", 200) + "m",
		strings.Repeat("1h30m->", 36),
		"1" + strings.Repeat(" in", 80),
	} {
		q, err := text.Parse(g, s, opt)
		qq, err2 := text.ParseQuestion(g, s, opt)
		for i, e := range []error{err, err2} {
			var ee *fault.Error
			if !errors.As(e, &ee) || ee.Code != fault.InvalidQuantity || ee.Position < 1 {
				t.Errorf("%.40q (%d): %v", s, i, e)
			}
		}
		if q.Work > text.DefaultBudget+4096 || qq.Work > text.DefaultBudget+4096 {
			t.Errorf("%.40q: work %d and %d past the budget %d", s, q.Work, qq.Work, text.DefaultBudget)
		}
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}
