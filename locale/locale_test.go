package locale

import (
	"fmt"
	"math/big"
	"strings"
	"sync"
	"testing"

	"github.com/unitd/unitd/catalog"
	"github.com/unitd/unitd/engine"
)

// tested are the locales whose output this file checks by hand, beside
// the checks every locale gets from CLDR's own samples.
var tested = []string{"en", "de", "fr", "es", "it", "pt", "nl", "sv", "ru", "pl", "uk", "cs",
	"ar", "ar-SA", "he", "hi", "ja", "zh", "ko", "tr", "fi", "cy", "lt", "fa", "bn"}

// expandSamples reads the samples of a CLDR plural rule ("@integer 0,
// 2~16, 100, … @decimal 0.0~1.5") into the numbers they stand for,
// written as CLDR writes them (visible fraction digits kept).
func expandSamples(t *testing.T, rule string) []string {
	t.Helper()
	var out []string
	_, samples, ok := strings.Cut(rule, "@")
	if !ok {
		return nil
	}
	for _, section := range strings.Split(samples, "@") {
		_, list, _ := strings.Cut(strings.TrimSpace(section), " ")
		for _, item := range strings.Split(list, ",") {
			item = strings.TrimSpace(item)
			if item == "" || item == "…" {
				continue
			}
			lo, hi, isRange := strings.Cut(item, "~")
			if !isRange {
				out = append(out, item)
				continue
			}
			// A range steps by the unit of its last digit: 0.0~1.5 is
			// 0.0, 0.1, …, 1.5.
			_, frac, _ := strings.Cut(lo, ".")
			step := new(big.Rat).SetFrac64(1, 1)
			for range len(frac) {
				step.Quo(step, big.NewRat(10, 1))
			}
			a, ok1 := new(big.Rat).SetString(lo)
			b, ok2 := new(big.Rat).SetString(hi)
			if !ok1 || !ok2 || strings.ContainsAny(item, "ce") {
				t.Fatalf("sample range %q", item)
			}
			for x, n := a, 0; x.Cmp(b) <= 0 && n < 2000; x, n = new(big.Rat).Add(x, step), n+1 {
				out = append(out, x.FloatString(len(frac)))
			}
		}
	}
	return out
}

// TestPluralSamples checks the plural rules of every shipped language
// against CLDR's own samples: each sample of a category falls in it.
func TestPluralSamples(t *testing.T) {
	s, err := load()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for lang, rules := range s.Plurals {
		p := s.plurals[lang]
		for category, rule := range rules {
			for _, sample := range expandSamples(t, rule) {
				op, err := parseOperands(sample)
				if err != nil {
					t.Fatalf("%s %s: sample %q: %v", lang, category, sample, err)
				}
				if got := p.category(&op); got != category {
					t.Errorf("%s: %s is %s, CLDR's samples say %s", lang, sample, got, category)
				}
				checked++
			}
		}
	}
	if checked < 5000 {
		t.Errorf("only %d samples checked", checked)
	}
}

// TestPatternsPerCategory formats a CLDR sample of each plural category
// of every tested locale in kilometres, long, and expects CLDR's pattern
// for that category with the localised number.
func TestPatternsPerCategory(t *testing.T) {
	for _, tag := range tested {
		l, err := matchBound(tag)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range l.PluralCategories() {
			samples := expandSamples(t, l.PluralRule(c))
			if c == Other && len(samples) == 0 {
				continue
			}
			if len(samples) == 0 {
				t.Fatalf("%s: no samples for %s", tag, c)
			}
			for _, sample := range samples[:min(len(samples), 5)] {
				if strings.ContainsAny(sample, "ce") {
					continue
				}
				want := strings.Replace(l.units["long/length-kilometer/"+c], "{0}", l.FormatNumber(sample), 1)
				if l.units["long/length-kilometer/"+c] == "" {
					want = strings.Replace(l.units["long/length-kilometer/other"], "{0}", l.FormatNumber(sample), 1)
				}
				if got := l.FormatUnit(sample, "km", Long); got != want {
					t.Errorf("%s %s (%s): got %q, want %q", tag, sample, c, got, want)
				}
			}
		}
	}
}

// TestFormat holds texts known from each language's grammar and number
// conventions, one table per tested locale.
func TestFormat(t *testing.T) {
	cases := []struct {
		tag, v, sym string
		w           Width
		want        string
	}{
		{"en", "1", "ft", Long, "1 foot"},
		{"en", "2", "ft", Long, "2 feet"},
		{"en", "1.0", "ft", Long, "1.0 feet"},
		{"en", "1234567.891", "m", Short, "1,234,567.891 m"},
		{"en", "60", "mi/h", Long, "60 miles per hour"},
		{"en", "3", "kg/m3", Long, "3 kilograms per cubic meter"},
		{"en", "5", "ft", Narrow, "5′"},
		{"en", "1.602176634e-19", "J", Short, "1.602176634E-19 J"},
		{"en", "-40", "degF", Short, "-40°F"},
		{"de", "96.56064", "km/h", Short, "96,56064 km/h"},
		{"de", "96.56064", "km/h", Long, "96,56064 Kilometer pro Stunde"},
		{"de", "1", "h", Long, "1 Stunde"},
		{"de", "2", "h", Long, "2 Stunden"},
		{"de", "1234.5", "kg", Short, "1.234,5 kg"},
		{"de", "3", "kg/m3", Long, "3 Kilogramm pro Kubikmeter"},
		{"fr", "1.5", "km", Long, "1,5\u00a0kilomètre"},
		{"fr", "2", "km", Long, "2\u00a0kilomètres"},
		{"fr", "12345.5", "m", Short, "12\u202f345,5\u202fm"},
		{"es", "1", "km", Long, "1 kilómetro"},
		{"es", "2", "km", Long, "2 kilómetros"},
		{"es", "1234", "m", Short, "1234 m"},
		{"es", "12345", "m", Short, "12.345 m"},
		{"it", "2", "km", Long, "2 chilometri"},
		{"pt", "2", "km", Long, "2 quilômetros"},
		{"nl", "2", "km", Long, "2 kilometer"},
		{"sv", "2", "km", Long, "2 kilometer"},
		{"sv", "1234.5", "m", Short, "1\u00a0234,5 m"},
		{"ru", "1", "km", Long, "1 километр"},
		{"ru", "2", "km", Long, "2 километра"},
		{"ru", "5", "km", Long, "5 километров"},
		{"ru", "21", "km", Long, "21 километр"},
		{"ru", "1.5", "km", Long, "1,5 километра"},
		{"ru", "1234567", "m", Short, "1\u00a0234\u00a0567 м"},
		{"pl", "1", "km", Long, "1 kilometr"},
		{"pl", "2", "km", Long, "2 kilometry"},
		{"pl", "5", "km", Long, "5 kilometrów"},
		{"pl", "22", "km", Long, "22 kilometry"},
		{"pl", "1.5", "km", Long, "1,5 kilometra"},
		// Short widths with one pattern for every count keep it: CLDR's
		// count fall-back is to "other" at the same width before a wider one.
		{"pl", "1000", "m", Short, "1000 m"},
		{"pl", "10000", "m", Short, "10\u00a0000 m"},
		{"pl", "5", "m", Long, "5 metrów"},
		{"de", "1", "m", Short, "1 m"},
		{"de", "1", "m", Long, "1 Meter"},
		{"uk", "2", "km", Long, "2 кілометри"},
		{"uk", "5", "km", Long, "5 кілометрів"},
		{"cs", "2", "km", Long, "2 kilometry"},
		{"cs", "5", "km", Long, "5 kilometrů"},
		{"cs", "1.5", "km", Long, "1,5 kilometru"},
		{"ar", "3", "km", Long, "3 كيلومترات"},
		{"ar-SA", "1234.5", "km", Long, "١٬٢٣٤٫٥ كيلومتر"},
		{"ar-SA", "3", "km", Long, "٣ كيلومترات"},
		{"he", "2", "km", Long, "2 קילומטרים"},
		{"hi", "1234567.25", "m", Short, "12,34,567.25 मी"},
		{"hi-u-nu-deva", "12", "m", Long, "१२ मीटर"},
		{"hi-u-nu-native", "12", "m", Long, "१२ मीटर"},
		{"ja", "5", "ft", Long, "5 フィート"},
		{"ja", "1234.5", "km", Long, "1,234.5 キロメートル"},
		{"zh", "5", "km", Long, "5公里"},
		{"ko", "5", "km", Long, "5킬로미터"},
		{"tr", "5", "km", Long, "5 kilometre"},
		{"fi", "1", "km", Long, "1 kilometri"},
		{"fi", "5", "km", Long, "5 kilometriä"},
		{"cy", "2", "ft", Long, "2 droedfedd"},
		{"cy", "3", "ft", Long, "3 troedfedd"},
		{"cy", "6", "ft", Long, "6 throedfedd"},
		{"lt", "2", "km", Long, "2 kilometrai"},
		{"lt", "10", "km", Long, "10 kilometrų"},
		{"fa", "12.5", "km", Short, "۱۲٫۵ کیلومتر"},
		{"bn", "25", "km", Short, "২৫ কিমি"},
		// Locale-specific plural rules: pt-PT's "one" is 1 only.
		{"pt-PT", "0.5", "m", Long, "0,5 metros"},
		{"pt-PT", "1", "m", Long, "1 metro"},
		{"pt", "0.5", "m", Long, "0,5 metro"},
		{"pt-AO", "0.5", "m", Long, "0,5 metro"}, // ICU: plural rules by truncation, not parentLocales
		// Units CLDR names under another identifier than their name.
		{"en", "2", "floz", Long, "2 fluid ounces"},
		{"en", "2", "mil_sc", Long, "2 miles-scandinavian"},
		{"en", "43.4586", "mpg_imp", Short, "43.4586 mpg Imp."},
		{"en-GB", "43.4586", "mpg_imp", Short, "43.4586 mpg"},
		{"en-GB", "87.99", "floz_imp", Short, "87.99 fl oz"},
		// CLDR's own compound entries, not composed from their parts.
		{"fr", "2", "L/km", Long, "2 litres au kilomètre"},
		{"fr", "0", "L/km", Long, "0 litre au kilomètre"},
		{"ar", "2", "L/km", Long, "لتران لكل كيلومتر"}, // the dual has no numeral, as ICU writes it
		{"ar", "0", "L/km", Long, "0 لتر لكل كيلومتر"},
		{"en", "0", "L/100km", Short, "0 L/100 km"},
		// Composed: prefix, power, product, quotient.
		{"en", "2", "MN", Long, "2 meganewtons"},
		{"en", "2", "lb*in2/s", Long, "2 pound-square inches per second"},
		{"de", "2", "mg/mol", Long, "2\u00a0Milligramm pro Mol"},
		// Percent: the locale's percent format at the short widths, the
		// unit pattern at the long one.
		{"en", "5", "%", Short, "5%"},
		{"de", "5", "%", Short, "5\u00a0%"},
		{"tr", "5", "%", Narrow, "%5"},
		{"de", "5", "%", Long, "5 Prozent"},
		{"fr", "5", "permille", Short, "5\u00a0‰"},
		// Units CLDR does not name keep their symbols.
		{"de", "1.5", "furlong_fortnight", Short, "1,5 furlong_fortnight"},
	}
	for _, c := range cases {
		l, err := matchBound(c.tag)
		if err != nil {
			t.Fatal(err)
		}
		if got := l.FormatUnit(c.v, c.sym, c.w); got != c.want {
			t.Errorf("%s: %s %s %v = %q, want %q", c.tag, c.v, c.sym, c.w, got, c.want)
		}
	}
	seen := map[string]bool{}
	for _, c := range cases {
		seen[strings.SplitN(c.tag, "-u-", 2)[0]] = true
	}
	for _, tag := range tested {
		if !seen[tag] {
			t.Errorf("no hand-checked text for %s", tag)
		}
	}
}

func TestMixed(t *testing.T) {
	parts := []Part{{"5", "ft"}, {"3.5", "in"}}
	for _, c := range []struct {
		tag  string
		w    Width
		want string
	}{
		{"en", Short, "5 ft 3.5 in"},
		{"en", Long, "5 feet 3.5 inches"},
		{"de", Long, "5 Fuß 3,5 Zoll"},
	} {
		l := matchIn(t, c.tag)
		if got := l.FormatMixed(parts, c.w); got != c.want {
			t.Errorf("%s %v: %q, want %q", c.tag, c.w, got, c.want)
		}
	}
}

func TestMatch(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"de", "de"}, {"de-AT", "de-AT"}, {"de-CH-1996", "de-CH"}, {"pt-BR", "pt"}, {"pt-PT", "pt-PT"},
		{"zh-TW", "zh-Hant"}, {"sr-Latn-RS", "sr-Latn"}, {"tlh", "en"}, {"en-US", "en"}, {"EN-gb", "en-GB"},
		{"ar-SA-u-nu-latn", "ar-SA-u-nu-latn"}, {"hi-u-nu-native", "hi-u-nu-deva"},
		// Well-formed tags CLDR has no locale for, known to the registry
		// or not, fall back alike: English.
		{"xx", "en"}, {"zz-ZZ", "en"}, {"xx-DE", "en"}, {"qaa", "en"}, {"und", "en"}, {"i-klingon", "en"},
		// An unknown variant is dropped.
		{"de-abcdefgh", "de"},
	} {
		l, err := Match(c.in)
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if l.Tag != c.want {
			t.Errorf("Match(%q) = %s, want %s", c.in, l.Tag, c.want)
		}
	}
	for _, bad := range []string{"", "x", "de_DE_", strings.Repeat("a", 300), "12", "en--GB", "5\x00", "de DE"} {
		if _, err := Match(bad); err == nil {
			t.Errorf("Match(%q) accepted", bad)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5", "fr-CH"},
		{"da, en-GB;q=0.8, en;q=0.7", "da"},
		{"en-US,en;q=0.9", "en"},
		{"xx;q=0.9, ru;q=0.8", "ru"},
	} {
		l, ok := MatchAcceptLanguage(c.in)
		if !ok || l.Tag != c.want {
			t.Errorf("MatchAcceptLanguage(%q) = %v %v, want %s", c.in, l, ok, c.want)
		}
	}
	for _, bad := range []string{"", "*", ";;;", strings.Repeat("en,", 500)} {
		if l, ok := MatchAcceptLanguage(bad); ok {
			t.Errorf("MatchAcceptLanguage(%q) = %s", bad, l.Tag)
		}
	}
}

// shipped is the shipped catalog, whose claims the tests write units with,
// compiled once for the package's tests: a graph is immutable.
var shipped = sync.OnceValues(func() (*engine.Graph, error) {
	g, errs := catalog.Load(catalog.Embedded())
	if len(errs) > 0 {
		return nil, errs[0]
	}
	return g, nil
})

// matchBound is Match bound to the shipped catalog.
func matchBound(tag string) (*Locale, error) {
	g, err := shipped()
	if err != nil {
		return nil, err
	}
	l, err := Match(tag)
	if err != nil {
		return nil, err
	}
	return l.In(g), nil
}

// matchIn is Match bound to the shipped catalog.
func matchIn(t *testing.T, tag string) *Locale {
	t.Helper()
	g, err := shipped()
	if err != nil {
		t.Fatal(err)
	}
	l, _ := Match(tag)
	return l.In(g)
}

func TestLookup(t *testing.T) {
	for _, c := range []struct {
		tag, name string
		want      string
	}{
		{"de", "Zoll", "in"}, {"de", "Fuß", "ft"}, {"de", "Kilometer", "km"}, {"de", "kilometer", "km"},
		{"de", "Kilometern", ""}, {"de", "Stunden", "h"}, {"de", "Kilometer pro Stunde", "km/h"},
		{"fr", "kilomètres", "km"}, {"fr", "kilome\u0300tres", "km"}, {"fr", "po", "in"}, {"fr", "Po", "PB"},
		{"fr", "PO", "PB in"}, {"ru", "дюйм", "in"}, {"ru", "дюйм.", "in"}, {"ru", "километров", "km"},
		{"pl", "kilometrów", "km"}, {"ja", "キロメートル", "km"}, {"ar", "كيلومترات", "km"},
		{"en", "feet", "ft"}, {"en", "nonsense", ""},
	} {
		l := matchIn(t, c.tag)
		if got := strings.Join(l.Lookup(c.name), " "); got != c.want {
			t.Errorf("%s: Lookup(%q) = %q, want %q", c.tag, c.name, got, c.want)
		}
	}
}

func TestDisplayName(t *testing.T) {
	for _, c := range []struct {
		tag, sym string
		w        Width
		want     string
	}{
		{"de", "km/h", Long, "Kilometer pro Stunde"}, {"de", "km/h", Short, "km/h"}, {"en", "ft", Long, "feet"},
		{"en", "ft", Narrow, "ft"}, {"fr", "in", Long, "pouces"}, {"en", "kg/m3", Long, "kilograms per cubic meter"},
	} {
		l := matchIn(t, c.tag)
		got, ok := l.DisplayName(c.sym, c.w)
		if !ok || got != c.want {
			t.Errorf("%s %s %v: %q %v, want %q", c.tag, c.sym, c.w, got, ok, c.want)
		}
	}
	l := matchIn(t, "en")
	if got, ok := l.DisplayName("furlong_fortnight", Long); ok {
		t.Errorf("a unit CLDR does not name has display name %q", got)
	}
}

// TestClaimedUnitsAreWritten writes every catalog unit that claims a CLDR
// unit, or is a quotient of two that do, in English at every width: each
// is written with CLDR's words (its own entry or composed), never as the
// number and its symbol, except for the claims listed with the reason
// CLDR's data cannot write them.
func TestClaimedUnitsAreWritten(t *testing.T) {
	g, err := shipped()
	if err != nil {
		t.Fatal(err)
	}
	l, err := Match("en")
	if err != nil {
		t.Fatal(err)
	}
	l = l.In(g)
	written, composed := 0, 0
	for _, u := range g.Units() {
		id := unitID(l.catalog(), u.Symbol)
		if id == "" {
			continue
		}
		if _, own := l.s.keyOf[id]; !own {
			composed++
		}
		for _, w := range Widths() {
			got := l.FormatUnit("2", u.Symbol, w)
			if got == l.appendPlainString("2", u.Symbol) && !strings.Contains(l.unitPattern(id, w, Other), u.Symbol) {
				t.Errorf("%s (cldr:%s) at %v is written %q, not with CLDR's words", u.Symbol, id, w, got)
			}
		}
		written++
	}
	if written < 600 || composed < 100 {
		t.Errorf("%d catalog units written with CLDR's patterns, %d of them composed", written, composed)
	}
}

func (l *Locale) appendPlainString(v, symbol string) string {
	return string(l.appendPlain(nil, v, symbol))
}

func TestEveryModernLocaleLoads(t *testing.T) {
	tags := Tags()
	if len(tags) < 400 {
		t.Fatalf("%d locales", len(tags))
	}
	for _, tag := range tags {
		l, err := Get(tag, "")
		if err != nil {
			t.Fatal(err)
		}
		if got := l.FormatUnit("2", "km", Short); !strings.Contains(got, l.FormatNumber("2")) && !strings.Contains(got, "km") {
			t.Errorf("%s: %q", tag, got)
		}
	}
	if !strings.Contains(Version(), "CLDR 48") || !strings.Contains(License, "UNICODE LICENSE") {
		t.Errorf("version %q, licence %.40q", Version(), License)
	}
}

func TestGrouping(t *testing.T) {
	for _, c := range []struct {
		pattern string
		p, s    int
	}{{"#,##0.###", 3, 3}, {"#,##,##0.###", 3, 2}, {"0.######", 0, 0}, {"#,##0.###;-#", 3, 3}} {
		if p, s := grouping(c.pattern); p != c.p || s != c.s {
			t.Errorf("%s: %d %d", c.pattern, p, s)
		}
	}
}

func BenchmarkFormatUnit(b *testing.B) {
	// The baseline of the same sitting: one conversion of a plain value,
	// whose cost on a quiet machine the README's performance table gives.
	g, errs := catalog.Load(catalog.Embedded())
	if len(errs) > 0 {
		b.Fatal(errs[0])
	}
	b.Run("baseline/convert", func(b *testing.B) {
		req := engine.Request{Value: "12.5", From: "ft", To: "m"}
		for range b.N {
			if _, err := g.Convert(req); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, c := range []struct{ tag, v, sym string }{{"de", "96.56064", "km/h"}, {"ru", "1234567.5", "km"}, {"ar-SA", "1234.5", "km"}} {
		l, _ := matchBound(c.tag)
		buf := make([]byte, 0, 128)
		b.Run(fmt.Sprintf("%s/%s", c.tag, c.sym), func(b *testing.B) {
			for range b.N {
				buf = l.AppendUnit(buf[:0], c.v, c.sym, Long)
			}
		})
	}
}

// TestConcurrentUse resolves, formats and looks up names from many
// goroutines at once, as a server does; each answer equals the one
// computed alone.
func TestConcurrentUse(t *testing.T) {
	tags := []string{"de", "fr-CA", "ru", "ar-SA", "hi-u-nu-deva", "ja", "pl", "cy", "sv", "pt-PT"}
	want := map[string]string{}
	for _, tag := range tags {
		l, err := matchBound(tag)
		if err != nil {
			t.Fatal(err)
		}
		want[tag] = l.FormatUnit("1234.5", "km", Long) + "|" + strings.Join(l.Lookup(l.FormatUnit("2", "ft", Long)[2:]), ",")
	}
	// A fresh store: the lazily built parts are built concurrently.
	cache.Range(func(k, _ any) bool { cache.Delete(k); return true })
	done := make(chan string, 80)
	for i := range 80 {
		go func() {
			tag := tags[i%len(tags)]
			l, err := matchBound(tag)
			if err != nil {
				done <- err.Error()
				return
			}
			got := l.FormatUnit("1234.5", "km", Long) + "|" + strings.Join(l.Lookup(l.FormatUnit("2", "ft", Long)[2:]), ",")
			if got != want[tag] {
				done <- tag + ": " + got + " ≠ " + want[tag]
				return
			}
			done <- ""
		}()
	}
	for range 80 {
		if msg := <-done; msg != "" {
			t.Error(msg)
		}
	}
}

// TestLocaleCacheBounded: the -u-nu- value of a request is any 3–8
// letters; only the shipped numbering systems may make a locale of their
// own, so that requests cannot grow the cache.
func TestLocaleCacheBounded(t *testing.T) {
	count := func() int {
		n := 0
		cache.Range(func(any, any) bool { n++; return true })
		return n
	}
	if _, err := Match("de-u-nu-latn"); err != nil {
		t.Fatal(err)
	}
	before := count()
	for i := range 2000 {
		l, err := Match(fmt.Sprintf("de-u-nu-x%05d", i))
		if err != nil {
			t.Fatal(err)
		}
		if l.Tag != "de" {
			t.Fatalf("an unknown numbering system made locale %s", l.Tag)
		}
	}
	if grown := count() - before; grown > 1 {
		t.Errorf("2,000 unknown numbering systems grew the locale cache by %d entries", grown)
	}
}
