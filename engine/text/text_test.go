package text_test

import (
	"bufio"
	"errors"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/text"
	"github.com/unitd/unitd/locale"
)

var (
	graphOnce sync.Once
	graph     *engine.Graph
	pantry    *text.Pantry
	foreign   *text.Foreign
)

func testGraph(t testing.TB) *engine.Graph {
	graphOnce.Do(func() {
		g, errs := text.LoadShipped()
		if len(errs) > 0 {
			t.Fatal(errs[0])
		}
		graph = g
		pantry = text.NewPantry(g.Substances())
		foreign = text.NewForeign(g)
	})
	return graph
}

// options reads free text the way a request in tag would ("-" is a
// request without a locale: English words, no region).
func options(t testing.TB, tag string) *text.Options {
	g := testGraph(t)
	if tag == "-" {
		en, _ := locale.Match("en")
		o := text.LocaleOptions(en, g, "", "", foreign, pantry)
		return o
	}
	l, err := locale.Match(tag)
	if err != nil {
		t.Fatal(err)
	}
	region, how, err := g.LocaleRegion(tag)
	if err != nil {
		t.Fatal(err)
	}
	return text.LocaleOptions(l, g, region, how, foreign, pantry)
}

// TestFreeText runs testdata/free_text.tsv: every input with the value
// and unit it must be read as, or the position (and candidates) of its
// refusal. Columns after those may say what was assumed (@text, a part
// of input.assumed) and the ingredient found (&id).
func TestFreeText(t *testing.T) {
	g := testGraph(t)
	f, err := os.Open("testdata/free_text.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n, line := 0, 0
	locales := map[string]bool{}
	for sc.Scan() {
		line++
		row := sc.Text()
		if row == "" || strings.HasPrefix(row, "#") {
			continue
		}
		cols := strings.Split(row, "\t")
		if len(cols) < 5 {
			t.Fatalf("line %d: %d columns", line, len(cols))
		}
		var extra []string
		for len(cols) > 5 && (strings.HasPrefix(cols[len(cols)-1], "@") || strings.HasPrefix(cols[len(cols)-1], "&")) {
			extra = append(extra, cols[len(cols)-1])
			cols = cols[:len(cols)-1]
		}
		n++
		tag, mode, input, want := cols[0], cols[1], cols[2], cols[3:]
		locales[strings.SplitN(tag, "-", 2)[0]] = true
		opt := options(t, tag)
		var q text.Quantity
		var to string
		if mode == "?" {
			qq, err := text.ParseQuestion(g, input, opt)
			q, to = qq.Quantity, qq.To
			if check(t, line, input, err, want) {
				continue
			}
		} else {
			q, err = text.Parse(g, input, opt)
			if check(t, line, input, err, want) {
				continue
			}
		}
		got := []string{q.Value, q.Unit}
		if mode == "?" {
			got = append(got, to)
		}
		if strings.Join(got, "\t") != strings.Join(want, "\t") {
			t.Errorf("line %d: %s %q = %q, want %q", line, tag, input, got, want)
		}
		for _, x := range extra {
			switch x[0] {
			case '@':
				if !strings.Contains(q.Assumed, x[1:]) {
					t.Errorf("line %d: %q assumed %q, want %q in it", line, input, q.Assumed, x[1:])
				}
			case '&':
				if q.Ingredient == nil || q.Ingredient.ID != x[1:] {
					t.Errorf("line %d: %q ingredient %+v, want %s", line, input, q.Ingredient, x[1:])
				}
			}
		}
		if len(extra) == 0 && q.Assumed != "" {
			t.Errorf("line %d: %q assumed %q, which the case does not say", line, input, q.Assumed)
		}
	}
	if n < 560 {
		t.Errorf("only %d inputs", n)
	}
	if len(locales) < 10 {
		t.Errorf("only %d locales", len(locales))
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
	var e *fault.Error
	if !errors.As(err, &e) || e.Code != fault.InvalidQuantity {
		t.Errorf("line %d: %q: got %v, want INVALID_QUANTITY at %s", line, input, err, want[1])
		return true
	}
	if strconv.Itoa(e.Position) != want[1] || !strings.HasSuffix(e.Message, "at position "+want[1]) {
		t.Errorf("line %d: %q: position %d, want %s (%s)", line, input, e.Position, want[1], e.Message)
	}
	if len(want) > 2 {
		c := append([]string(nil), e.Candidates...)
		sort.Strings(c)
		if strings.Join(c, "|") != want[2] {
			t.Errorf("line %d: %q: candidates %q, want %s (%s)", line, input, c, want[2], e.Message)
		}
	}
	return true
}

// TestExactThird: a third of a cup is read as the rational 1/3 and the
// engine converts it exactly, rounding once.
func TestExactThird(t *testing.T) {
	g := testGraph(t)
	for _, c := range []struct{ text, to, want string }{
		{"⅓ cup", "tbsp", "5.333333333333333333333333333333333"},
		{"⅓ yd", "ft", "1"},
		{"1/3 h", "min", "20"},
		{"5 ft 3⅓ in", "in", "63.33333333333333333333333333333333"},
	} {
		q, err := text.Parse(g, c.text, options(t, "en-US"))
		if err != nil {
			t.Fatal(err)
		}
		res, err := g.Convert(engine.Request{Exact: q.Exact, From: q.Unit, To: c.to})
		if err != nil || res.Value != c.want {
			t.Errorf("%s → %s: %s %v, want %s", c.text, c.to, res.Value, err, c.want)
		}
	}
}

// TestWorkIsLinear: the work of the worst inputs grows with their length
// and no faster: four times the text costs at most five times the work.
func TestWorkIsLinear(t *testing.T) {
	g := testGraph(t)
	opt := options(t, "en-US")
	for _, w := range worst {
		short, long := build(w.unit, 64), build(w.unit, 256)
		a := work(g, short, w.question, opt)
		b := work(g, long, w.question, opt)
		if a <= 0 || b > 5*a+256 {
			t.Errorf("%s: work %d at %d bytes, %d at %d bytes: not linear", w.name, a, len(short), b, len(long))
		}
	}
}

func work(g *engine.Graph, s string, question bool, opt *text.Options) int {
	if question {
		q, _ := text.ParseQuestion(g, s, opt)
		return q.Work
	}
	q, _ := text.Parse(g, s, opt)
	return q.Work
}

// worst are the inputs that cost most per byte, by construction.
var worst = []struct {
	name     string
	question bool
	unit     string
}{
	{"q=1h30m->…", true, "1h30m->"},
	{"1m1m1m…", false, "1m"},
	{"1 in in in…", false, " in"},
	{"1 m 1 m…", false, "1 m "},
	{"5 ft to ft to…", true, "5 ft to "},
}

func BenchmarkWorst(b *testing.B) {
	g := testGraph(b)
	opt := options(b, "en-US")
	for _, w := range worst {
		for _, n := range []int{64, 128, 256} {
			s := build(w.unit, n)
			b.Run(w.name+"/"+strconv.Itoa(n), func(b *testing.B) {
				var q text.Quantity
				for range b.N {
					if w.question {
						qq, _ := text.ParseQuestion(g, s, opt)
						q = qq.Quantity
					} else {
						q, _ = text.Parse(g, s, opt)
					}
				}
				b.ReportMetric(float64(q.Work), "work")
			})
		}
	}
}

// build repeats unit to n bytes, after a leading 1 where unit needs a
// number first.
func build(unit string, n int) string {
	s := ""
	if strings.HasPrefix(unit, " ") {
		s = "1"
	}
	for len(s)+len(unit) <= n {
		s += unit
	}
	return s
}

func BenchmarkParse(b *testing.B) {
	g := testGraph(b)
	for _, c := range []struct{ tag, text string }{
		{"en-US", "12.5 ft"}, {"en-US", "5 ft 3 in"}, {"en-US", "5'3\""}, {"en-US", "1½ cups"}, {"de", "12,5 Kilometer"}, {"en-US", "1h30m"},
		{"en-US", "1 1/2 cups flour"}, {"de", "2 EL Zucker"},
	} {
		opt := options(b, c.tag)
		b.Run(c.tag+"/"+c.text, func(b *testing.B) {
			for range b.N {
				if _, err := text.Parse(g, c.text, opt); err != nil && !strings.Contains(c.text, "Zucker") {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("baseline/convert", func(b *testing.B) {
		req := engine.Request{Value: "12.5", From: "ft", To: "m"}
		for range b.N {
			if _, err := g.Convert(req); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("question", func(b *testing.B) {
		opt := options(b, "en-US")
		for range b.N {
			if _, err := text.ParseQuestion(g, "5 ft 3 in to cm", opt); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestControlCharacter: a NUL between the number and the unit is refused
// where it stands, not skipped ("5\x00km" is not 5 km).
func TestControlCharacter(t *testing.T) {
	g := testGraph(t)
	for _, s := range []string{"5\x00km", "5\tkm\x7f", "5 k\x1bm"} {
		_, err := text.Parse(g, s, options(t, "-"))
		var e *fault.Error
		if !errors.As(err, &e) || e.Code != fault.InvalidQuantity || !strings.Contains(e.Message, "control character") {
			t.Errorf("%q: %v", s, err)
		}
	}
}
