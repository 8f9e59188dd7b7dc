package quantity_test

import (
	"bufio"
	"errors"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/unitd/unitd/catalog"
	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/engine/quantity"
	"github.com/unitd/unitd/locale"
)

var (
	graphOnce sync.Once
	graph     *engine.Graph
)

func testGraph(t testing.TB) *engine.Graph {
	graphOnce.Do(func() {
		g, errs := catalog.Load(catalog.Embedded())
		if len(errs) > 0 {
			t.Fatal(errs[0])
		}
		graph = g
	})
	return graph
}

// options reads free text the way a request in tag would.
func options(t testing.TB, tag string) *quantity.Options {
	l, err := locale.Match(tag)
	if err != nil {
		t.Fatal(err)
	}
	return Options(l.In(testGraph(t)))
}

// Options is the server's wiring of a locale into the parser.
func Options(l *locale.Locale) *quantity.Options {
	n := l.Numbers()
	return &quantity.Options{Locale: l.Tag, Decimal: n.Decimal, Group: n.Group, Primary: n.Primary, Secondary: n.Secondary, Names: l.Lookup}
}

// TestFreeText runs testdata/free_text.tsv: every input with the value
// and unit it must be read as, or the position (and candidates) of its
// refusal.
func TestFreeText(t *testing.T) {
	g := testGraph(t)
	f, err := os.Open("testdata/free_text.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n, line := 0, 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		cols := strings.Split(text, "\t")
		if len(cols) < 5 {
			t.Fatalf("line %d: %d columns", line, len(cols))
		}
		n++
		tag, mode, input, want := cols[0], cols[1], cols[2], cols[3:]
		opt := options(t, tag)
		var value, unit, to string
		if mode == "?" {
			q, err := quantity.ParseQuestion(g, input, opt)
			value, unit, to = q.Value, q.Unit, q.To
			if check(t, line, input, err, want) {
				continue
			}
		} else {
			q, err := quantity.Parse(g, input, opt)
			value, unit = q.Value, q.Unit
			if check(t, line, input, err, want) {
				continue
			}
		}
		got := []string{value, unit}
		if mode == "?" {
			got = append(got, to)
		}
		if strings.Join(got, "\t") != strings.Join(want, "\t") {
			t.Errorf("line %d: %s %q = %q, want %q", line, tag, input, got, want)
		}
	}
	if n < 200 {
		t.Errorf("only %d inputs", n)
	}
}

// check compares an error with the expected "!", position, candidates;
// it reports whether the line is done.
func check(t *testing.T, line int, input string, err error, want []string) bool {
	t.Helper()
	if want[0] != "!" {
		if err != nil {
			t.Errorf("line %d: %q: %v", line, input, err)
			return true
		}
		return false
	}
	var e *engine.Error
	if !errors.As(err, &e) || e.Code != engine.CodeInvalidQuantity {
		t.Errorf("line %d: %q: got %v, want INVALID_QUANTITY at %s", line, input, err, want[1])
		return true
	}
	if e.Details["position"] != want[1] || !strings.Contains(e.Message, "(position "+want[1]+")") {
		t.Errorf("line %d: %q: position %s, want %s (%s)", line, input, e.Details["position"], want[1], e.Message)
	}
	if len(want) > 2 {
		c := append([]string(nil), e.Candidates...)
		sort.Strings(c)
		if strings.Join(c, "|") != want[2] {
			t.Errorf("line %d: %q: candidates %q, want %s", line, input, c, want[2])
		}
	}
	return true
}

func BenchmarkParse(b *testing.B) {
	g := testGraph(b)
	for _, c := range []struct{ tag, text string }{
		{"en", "12.5 ft"}, {"en", "5 ft 3 in"}, {"en", "5'3\""}, {"en", "1½ cups"}, {"de", "12,5 Kilometer"}, {"en", "1h30m"},
	} {
		opt := options(b, c.tag)
		b.Run(c.tag+"/"+c.text, func(b *testing.B) {
			for range b.N {
				if _, err := quantity.Parse(g, c.text, opt); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	// The baseline of the same sitting: one conversion of a plain value,
	// whose cost on a quiet machine the README's performance table gives.
	b.Run("baseline/convert", func(b *testing.B) {
		req := engine.Request{Value: "12.5", From: "ft", To: "m"}
		for range b.N {
			if _, err := g.Convert(req); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("question", func(b *testing.B) {
		opt := options(b, "en")
		for range b.N {
			if _, err := quantity.ParseQuestion(g, "5 ft 3 in to cm", opt); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestConvertFractions: a fraction whose decimal does not terminate is
// rounded once, half to even, even when its exact result lies on a
// rounding boundary (11/6 yd is 5.5 ft).
func TestConvertFractions(t *testing.T) {
	g := testGraph(t)
	for _, c := range []struct {
		text, to  string
		precision int
		want      string
	}{
		{"1 5/6 yd", "ft", 1, "6"},
		{"5/6 yd", "ft", 1, "2"},
		{"7/6 yd", "ft", 1, "4"},
		{"-1 5/6 yd", "ft", 1, "-6"},
		{"⅓ h", "s", 0, "1200"},
		{"⅓ cup", "tbsp", 0, "5.333333333333333333333333333333333"},
		{"⅔ yd", "in", 3, "24"},
		{"1/3 degF", "degR", 5, "460"},
	} {
		q, err := quantity.Parse(g, c.text, nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := quantity.Convert(g, q, engine.Request{To: c.to, Precision: c.precision})
		if err != nil {
			t.Fatalf("%s: %v", c.text, err)
		}
		if res.Value != c.want {
			t.Errorf("%s → %s at %d: %s, want %s", c.text, c.to, c.precision, res.Value, c.want)
		}
		if res.Exact {
			t.Errorf("%s: exact", c.text)
		}
	}
	// Terminating numbers are converted as they are, exactly.
	q, _ := quantity.Parse(g, "1½ ft", nil)
	if res, err := quantity.Convert(g, q, engine.Request{To: "in"}); err != nil || res.Value != "18" || !res.Exact {
		t.Errorf("1½ ft: %v %v", res, err)
	}
}
