package locale

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"sort"
	"strings"
	"testing"
)

// The differential test: unitd's text against ICU's, as Node's Intl
// (ICU 78, CLDR 48, full ICU data) writes it.
//
// The locales are the 37 most used: the languages with the most speakers
// and the most web content (en, zh, hi, es, fr, ar, bn, pt, ru, ur, id,
// de, ja, vi, tr, ko, fa, ta, it, th, pl, uk, nl, ro, el, cs, hu, sv, he,
// da, fi, nb, ms), and the regional variants whose unit data or plural
// rules differ from their language's (en-GB, es-419, pt-PT, zh-Hant).
var icuLocales = []string{"en", "en-GB", "de", "fr", "es", "es-419", "it", "pt", "pt-PT", "nl", "sv", "da", "nb", "fi",
	"pl", "cs", "ru", "uk", "tr", "ar", "he", "hi", "bn", "ja", "zh", "zh-Hant", "ko", "id", "vi", "th", "el", "hu",
	"ro", "fa", "ms", "ur", "ta"}

// icuValues are the numbers each unit is written with: zero, the
// singular, a plural, a fraction and a grouped number.
var icuValues = []string{"0", "1", "2", "1.5", "1234.5"}

// icuCase is one text to compare. ICU writes it itself when Intl supports
// the unit (its sanctioned simple units and their quotients, percent);
// for a unit it does not, Node takes the pattern from CLDR's JSON (the
// shipped data is CLDR's text verbatim, Patterns here), picks its plural
// form with Intl.PluralRules, falls back from narrow to short to long and
// from a missing form to other as CLDR's root says, and writes the number
// with Intl.NumberFormat: ICU's plural rules and number formatting against
// unitd's, CLDR's patterns as CLDR has them. Identifiers that CLDR has no
// entry for and Intl does not support (composed: kilonewton,
// pound-square-inch) are not compared.
type icuCase struct {
	Locale, Unit, Width, Value string // Unit: a CLDR identifier
	// Patterns indexes, for a unit Intl does not support, CLDR's patterns
	// at each width (width → plural category → pattern); -1 otherwise.
	Patterns int
}

// MarshalJSON writes a case as the array the script reads.
func (c icuCase) MarshalJSON() ([]byte, error) {
	return json.Marshal([]any{c.Locale, c.Unit, c.Width, c.Value, c.Patterns})
}

// icuScript reads {"cases": […], "readable": […]} on stdin and prints one
// JSON array: the text of each case ("" when Intl cannot write it),
// then each readable number as ICU rounds it (3 fraction digits, half to
// even, no grouping).
const icuScript = `
const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const nf = new Map(), pr = new Map(), unitNF = new Map();
function cached(m, key, make) { let v = m.get(key); if (v === undefined) { v = make(); m.set(key, v); } return v; }
const out = [];
for (const [locale, unit, width, value, pi] of input.cases) {
  if (pi >= 0) {
    const pats = input.patterns[pi];
    const cat = cached(pr, locale, () => new Intl.PluralRules(locale)).select(Number(value));
    let p = '';
    for (const w of width === 'narrow' ? ['narrow', 'short', 'long'] : width === 'short' ? ['short', 'long'] : ['long']) {
      const f = pats[w] || {};
      p = f[cat] || f.other || '';
      if (p) break;
    }
    const n = cached(nf, locale, () => new Intl.NumberFormat(locale)).format(Number(value));
    out.push(p.replace('{0}', n));
    continue;
  }
  const f = cached(unitNF, locale + ' ' + unit + ' ' + width, () => new Intl.NumberFormat(locale, {style: 'unit', unit, unitDisplay: width}));
  out.push(f.format(Number(value))); // the values are exact binary fractions

}
const rf = new Intl.NumberFormat('en', {useGrouping: false, maximumFractionDigits: 3, roundingMode: 'halfEven'});
for (const v of input.readable) out.push(rf.format(v));
process.stdout.write(JSON.stringify(out));
`

// icuJudged is a difference from ICU that unitd keeps, with the reason;
// "*" matches any locale, unit, width or value.
type icuJudged struct {
	locale, unit, width, value, reason string
	seen                               int
}

func (j *icuJudged) matches(c icuCase) bool {
	return (j.locale == "*" || j.locale == c.Locale) && (j.unit == "*" || j.unit == c.Unit) &&
		(j.width == "*" || j.width == c.Width) && (j.value == "*" || j.value == c.Value)
}

// readJudged reads testdata/icu_differences.tsv: locale, CLDR unit,
// width, value, reason, tab-separated; # comments.
func readJudged(t *testing.T) []*icuJudged {
	t.Helper()
	f, err := os.Open("testdata/icu_differences.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []*icuJudged
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 5 || strings.TrimSpace(f[4]) == "" {
			t.Fatalf("icu_differences.tsv:%d: want locale, unit, width, value and a reason", n)
		}
		out = append(out, &icuJudged{locale: f[0], unit: f[1], width: f[2], value: f[3], reason: f[4]})
	}
	return out
}

// TestICU compares unitd's text of every catalog unit that claims a CLDR
// unit (or is a quotient of two that do) in the 37 locales, at three
// widths and five values, with ICU's. A difference fails unless
// testdata/icu_differences.tsv lists it with its reason; a listed
// difference that no longer occurs fails too. It also compares Readable
// with ICU's rounding to 3 fraction digits. It needs node (with full ICU
// data, as Node ships it) and fails without it.
func TestICU(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("the differential test needs node (Node.js 20 or later) on PATH: apt-get install nodejs")
	}
	// The texts are CLDR 48's: an ICU of another CLDR release differs
	// for reasons of its own.
	v, err := exec.Command(node, "-p", "process.versions.cldr + ' ' + process.versions.icu").Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	if !strings.HasPrefix(string(v), "48.") {
		t.Fatalf("node's ICU has CLDR and ICU %s; the test compares with CLDR 48 (ICU 78, as Node 20.19 and later ship)", strings.TrimSpace(string(v)))
	}
	g, err := shipped()
	if err != nil {
		t.Fatal(err)
	}
	claims := g
	// One catalog symbol per CLDR identifier.
	symbolOf := map[string]string{}
	for _, u := range g.Units() {
		if id := unitID(claims, u.Symbol); id != "" {
			if s, ok := symbolOf[id]; !ok || u.Symbol < s {
				symbolOf[id] = u.Symbol
			}
		}
	}
	ids := make([]string, 0, len(symbolOf))
	for id := range symbolOf {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	supported := icuSupported(t, node, ids)

	var cases []icuCase
	var patterns []map[string]map[string]string
	composed := 0
	locales := map[string]*Locale{}
	for _, tag := range icuLocales {
		base, err := Get(tag, "")
		if err != nil {
			t.Fatalf("%s: %v", tag, err)
		}
		l := base.In(claims)
		locales[tag] = l
		for _, id := range ids {
			pi := -1
			if !supported[id] {
				key, own := l.s.keyOf[id]
				if !own {
					if tag == icuLocales[0] {
						composed++
					}
					continue
				}
				pats := map[string]map[string]string{}
				for _, w := range widthNames {
					m := map[string]string{}
					for _, c := range []string{Zero, One, Two, Few, Many, Other} {
						if p := l.units[w+"/"+key+"/"+c]; p != "" {
							m[c] = p
						}
					}
					pats[w] = m
				}
				pi = len(patterns)
				patterns = append(patterns, pats)
			}
			for _, w := range Widths() {
				for _, v := range icuValues {
					cases = append(cases, icuCase{Locale: tag, Unit: id, Width: w.String(), Value: v, Patterns: pi})
				}
			}
		}
	}
	// Readable against ICU's rounding: numbers of 1 to 9 digits with 0 to
	// 7 of them fraction digits, ties among them.
	rng := rand.New(rand.NewPCG(48, 2))
	var readable []string
	for range 500 {
		digits := fmt.Sprint(rng.IntN(1_000_000_000))
		frac := rng.IntN(8)
		if frac >= len(digits) {
			digits = strings.Repeat("0", frac-len(digits)+1) + digits
		}
		v := digits[:len(digits)-frac]
		if frac > 0 {
			v += "." + digits[len(digits)-frac:]
		}
		readable = append(readable, v, v[:len(v)-1]+"5")
	}
	var in bytes.Buffer
	if err := json.NewEncoder(&in).Encode(map[string]any{"cases": cases, "patterns": patterns, "readable": readable}); err != nil {
		t.Fatal(err)
	}
	// Node writes ICU's texts while unitd writes its own.
	cmd := exec.Command(node, "-e", icuScript)
	cmd.Stdin = &in
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("node: %v", err)
	}
	got := make([]string, len(cases))
	for i, c := range cases {
		w, _ := ParseWidth(c.Width)
		got[i] = locales[c.Locale].FormatUnit(c.Value, symbolOf[c.Unit], w)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("node: %v: %s", err, stderr.String())
	}
	out := stdout.Bytes()
	var want []string
	if err := json.Unmarshal(out, &want); err != nil || len(want) != len(cases)+len(readable) {
		t.Fatalf("node answered %d texts, want %d: %v", len(want), len(cases)+len(readable), err)
	}

	judged := readJudged(t)
	differ, compared, byICU := 0, 0, 0
	for i, c := range cases {
		if want[i] == "" {
			t.Fatalf("ICU wrote nothing for %+v", c)
		}
		compared++
		if c.Patterns < 0 {
			byICU++
		}
		if got[i] == want[i] {
			continue
		}
		differ++
		listed := false
		for _, j := range judged {
			if j.matches(c) {
				j.seen++
				listed = true
				break
			}
		}
		if !listed {
			t.Errorf("%s %s %s %s: unitd %q, ICU %q", c.Locale, c.Unit, c.Width, c.Value, got[i], want[i])
		}
	}
	for _, j := range judged {
		if j.seen == 0 {
			t.Errorf("icu_differences.tsv lists %s %s %s %s, which no longer differs: remove it", j.locale, j.unit, j.width, j.value)
		}
	}
	for i, v := range readable {
		r, _ := Readable(v, 0, true)
		if w := want[len(cases)+i]; r != w {
			t.Errorf("Readable(%s) = %s, ICU rounds it to %s", v, r, w)
		}
	}
	t.Logf("%d CLDR identifiers claimed (%d by ICU itself, %d composed and not compared); %d texts compared (%d written by ICU itself, %d from CLDR's patterns with ICU's plurals and numbers), %d differences judged in %d entries; %d numbers rounded",
		len(ids), countTrue(supported), composed, compared, byICU, compared-byICU, differ, len(judged), len(readable))
	if byICU < 10000 || compared < 50000 {
		t.Errorf("only %d texts compared, %d by ICU", compared, byICU)
	}
}

func countTrue(m map[string]bool) int {
	n := 0
	for _, v := range m {
		if v {
			n++
		}
	}
	return n
}

// icuSupported asks Node which CLDR identifiers Intl.NumberFormat writes.
func icuSupported(t *testing.T, node string, ids []string) map[string]bool {
	t.Helper()
	b, _ := json.Marshal(ids)
	cmd := exec.Command(node, "-e", `const ids = JSON.parse(require('fs').readFileSync(0, 'utf8'));
process.stdout.write(JSON.stringify(ids.map(unit => { try { new Intl.NumberFormat('en', {style: 'unit', unit}); return true; } catch (e) { return false; } })));`)
	cmd.Stdin = bytes.NewReader(b)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var ok []bool
	if err := json.Unmarshal(out, &ok); err != nil || len(ok) != len(ids) {
		t.Fatalf("node: %v", err)
	}
	m := map[string]bool{}
	for i, id := range ids {
		m[id] = ok[i]
	}
	return m
}
