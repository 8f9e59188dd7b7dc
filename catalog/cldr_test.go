package catalog

import (
	"bufio"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine"
)

// cldrUnitsTest is CLDR's own test of unit conversions
// (common/testData/units/unitsTest.txt), shipped with its licence and
// version in testdata/cldr by `go run ./tools/codetables`.
const cldrUnitsTest = "testdata/cldr/unitsTest.txt"

// cldrDigits is the precision of the file's figures. The file says to
// round a conversion "at the given precision" before comparing ("when the
// last column is 159.1549, round to 4 decimal digits"): its figures are
// the exact results rounded to 7 significant digits and printed as Java
// prints a double, so 1000 acres is 4046856.0 (4046856.4224 rounded) and
// 1000 feet 304.8. A figure of more than 7 significant digits fails the
// test, so that a regenerated file of another precision is noticed.
const cldrDigits = 7

// cldrJudgedWrong lists the rows of unitsTest.txt (source unit → target
// unit) that unitd answers otherwise, each with the reason the row is
// judged wrong for unitd. A row listed here must still fail: a listed row
// that passes is an error, so the list shrinks as unitd changes.
var cldrJudgedWrong = map[string]string{
	// CLDR's table gives beaufort no factor (special="beaufort"): the
	// conversion is ICU's code, which interpolates between the midpoints
	// of the WMO bands and clamps its input to forces 0–17. 1000 is no
	// Beaufort force; 58.6 m/s is the midpoint of force 17 that the clamp
	// lands on, not a conversion of 1000. unitd reads no beaufort (the
	// band limits are in ICU's source, not in any table CLDR publishes),
	// and would refuse 1000 as out of range if it did.
	"beaufort → meter-per-second": "1000 is outside the Beaufort scale; CLDR's figure is ICU's clamp to force 17",
	// CLDR's consumption (volume per distance) and consumption-inverse
	// (distance per volume) convert into each other by the reciprocal.
	// The catalog models both as fuel economy, whose units claim CLDR's
	// liter-per-100-kilometer, liter-per-kilometer, kilometer-per-liter
	// and mile-per-gallon, so that cldr:liter-per-100-kilometer converts
	// to cldr:mile-per-gallon as CLDR does. CLDR's base unit of
	// consumption, cubic-meter-per-meter, has no catalog unit and reads as
	// the area its dimension is, which fuel economy does not convert to.
	"liter-per-100-kilometer → cubic-meter-per-meter": "consumption is fuel economy in the catalog; CLDR's cubic-meter-per-meter reads as an area",
	"liter-per-kilometer → cubic-meter-per-meter":     "consumption is fuel economy in the catalog; CLDR's cubic-meter-per-meter reads as an area",
	// CLDR counts the steradian as 1: its lux is candela-per-square-meter
	// and its lumen candela-square-meter-per-square-meter. unitd reads them
	// as the catalog's lx and lm, cd·sr/m² and cd·sr (package codes), and
	// keeps illuminance apart from luminance (cd/m²) and luminous flux
	// apart from luminous intensity (cd): different kinds of quantity.
	"lux → candela-per-square-meter":                "illuminance is cd·sr/m², not the luminance cd/m²: unitd does not count the steradian as 1",
	"lumen → candela-square-meter-per-square-meter": "luminous flux is cd·sr, not the luminous intensity cd: unitd does not count the steradian as 1",
}

// TestCLDRUnitsTest converts 1000 of every source unit of CLDR's
// unitsTest.txt to its target unit, both as CLDR identifiers (cldr:x →
// cldr:y), and compares the result with CLDR's figure at the file's
// precision.
func TestCLDRUnitsTest(t *testing.T) {
	g := shipped(t)
	checkCLDRRelease(t)
	f, err := os.Open(cldrUnitsTest)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, passed := 0, 0
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Split(text, ";")
		if len(fields) != 5 {
			t.Fatalf("%s:%d: %d fields, want 5: %q", cldrUnitsTest, line, len(fields), text)
		}
		for i := range fields {
			fields[i] = strings.TrimSpace(fields[i])
		}
		from, to, figure := fields[1], fields[2], strings.ReplaceAll(fields[4], ",", "")
		key := from + " → " + to
		seen[key] = true
		rows++
		want, _, err := apd.NewFromString(figure)
		if err != nil {
			t.Fatalf("%s:%d: figure %q: %v", cldrUnitsTest, line, fields[4], err)
		}
		if n := significant(figure); n > cldrDigits {
			t.Fatalf("%s:%d: figure %s has %d significant digits; the test assumes at most %d", cldrUnitsTest, line, figure, n, cldrDigits)
		}
		res, err := g.Convert(engine.Request{Value: "1000", From: "cldr:" + from, To: "cldr:" + to, Precision: cldrDigits})
		var problem string
		if err != nil {
			problem = err.Error()
		} else if got, _, _ := apd.NewFromString(res.Value); got.Cmp(want) != 0 {
			problem = "1000 " + from + " = " + res.Value + " " + to + ", CLDR says " + figure
		}
		reason, judged := cldrJudgedWrong[key]
		switch {
		case problem == "" && judged:
			t.Errorf("%s:%d: %s converts as CLDR says, but is listed as judged wrong (%s)", cldrUnitsTest, line, key, reason)
		case problem == "":
			passed++
		case !judged:
			t.Errorf("%s:%d: %s", cldrUnitsTest, line, problem)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for key := range cldrJudgedWrong {
		if !seen[key] {
			t.Errorf("%s is listed as judged wrong but is no row of %s", key, cldrUnitsTest)
		}
	}
	if rows < 200 {
		t.Fatalf("%s has %d rows; expected the whole file", cldrUnitsTest, rows)
	}
	t.Logf("%d of %d rows convert as CLDR says; %d judged wrong", passed, rows, len(cldrJudgedWrong))
}

// significant counts the significant digits of a decimal figure, without
// the trailing zeros of its fraction ("4046856.0" has 7, "1.0E7" has 1).
func significant(s string) int {
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimLeft(s, "+-")
	if strings.Contains(s, ".") {
		s = strings.TrimRight(s, "0")
	}
	s = strings.ReplaceAll(s, ".", "")
	s = strings.TrimLeft(s, "0")
	if strings.Contains(s, ".") {
		return len(s)
	}
	return max(len(s), 1)
}

// checkCLDRRelease fails when unitsTest.txt comes from another CLDR
// release than the CLDR code table: the test would then hold one
// release's conversions against another's units.
func checkCLDRRelease(t *testing.T) {
	t.Helper()
	release := regexp.MustCompile(`CLDR (\d+)`)
	read := func(name string) string {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		m := release.FindSubmatch(src)
		if m == nil {
			t.Fatalf("%s names no CLDR release", name)
		}
		return string(m[1])
	}
	if tests, table := read("testdata/cldr/SOURCES.md"), read("codes/cldr.tsv"); tests != table {
		t.Fatalf("unitsTest.txt is from CLDR %s, the code table from CLDR %s: regenerate both with go run ./tools/codetables", tests, table)
	}
}
