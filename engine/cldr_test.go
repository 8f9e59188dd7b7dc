package engine_test

import (
	"bufio"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine"
)

// CLDR's own conformance data for unit preferences (testdata/cldr, shipped
// by tools/cldrprefs from the npm package cldr, of the CLDR release the
// shipped preferences are of) run through conversions to Auto over the
// shipped catalog: every row, with the accelerators on and off (TestMain).
//
// CLDR gives each amount as a rational. An input is sent as the decimal
// it is, in the catalog unit of CLDR's input unit; where it has no finite
// decimal (5/18 m/s) it is sent, exactly, in the first unit of the data
// (units.tsv, by CLDR identifier) of the same base and catalog category as
// CLDR's output in which it has one (1 km/h), so that a value on a
// threshold is on it, not just below.
// Outputs are compared with CLDR's rationals: exactly where the rational
// is a decimal of at most MaxPrecision digits, else to within half a unit
// of the last of MaxPrecision digits. The unit is compared by CLDR
// identifier (the preference chosen) and by catalog unit.
//
// Rows the engine answers otherwise, by design or because the catalog
// cannot state them, are listed in cldrExceptions with the reason; such a
// row must still fail, so that the list never outlives its reasons.

// cldrExceptions are the rows of CLDR's files the engine does not answer
// as CLDR does, by file and the row's fields up to the expected output:
// why, and what the row's failure says (it must say so).
var cldrExceptions = map[string]struct{ why, fails string }{
	// CLDR converts an amount concentration (items per volume) into a
	// mass concentration of glucose with its constant glucose_molar_mass
	// (180.1557 g/mol); the engine converts through the catalog's glucose,
	// whose molar mass is summed from the standard atomic weights (180.156
	// g/mol, the value clinical conversion tables use): the answers differ
	// by 1.7 parts per million.
	"unitPreferencesTest.txt:concentration;blood-glucose;001;66243548360000000000000000000/1801557;3.67701651182838E22;item-per-cubic-meter": {
		"glucose's molar mass is 180.156 g/mol in the catalog, 180.1557 g/mol in CLDR", "mg/dL: CLDR 11/10 = 1.1000"},
	"unitPreferencesTest.txt:concentration;blood-glucose;001;60221407600000000000000000000/1801557;3.342742283480345E22;item-per-cubic-meter": {
		"glucose's molar mass is 180.156 g/mol in the catalog, 180.1557 g/mol in CLDR", "mg/dL: CLDR 1 = 1.0000"},
	"unitPreferencesTest.txt:concentration;blood-glucose;001;6022140760000000000000000000/200173;3.008468055132311E22;item-per-cubic-meter": {
		"glucose's molar mass is 180.156 g/mol in the catalog, 180.1557 g/mol in CLDR", "mg/dL: CLDR 9/10 = 0.9000"},
	// Quantities without preferences: CLDR's data has none for electric
	// current or luminous intensity, and its test data expects the base
	// unit; the engine answers to=auto for such a quantity with
	// INVALID_REQUEST naming the quantities that have preferences, rather
	// than an SI unit nobody chose.
	"unitLocalePreferencesTest.txt:ampere;2.5;default;en": {
		"no preferences for electric current: INVALID_REQUEST, not CLDR's base unit", "INVALID_REQUEST"},
	"unitLocalePreferencesTest.txt:kilocandela;1;default;en": {
		"no preferences for luminous intensity: INVALID_REQUEST, not CLDR's base unit", "INVALID_REQUEST"},
	// Units without a quantity, which CLDR expects in base units: the
	// catalog has no unit for either side.
	"unitLocalePreferencesTest.txt:candela-per-byte;1;default;en": {
		"candela per byte and per bit are no catalog units (the catalog has no luminous intensity per amount of data)", "has no catalog unit"},
	"unitLocalePreferencesTest.txt:candela-per-cubic-foot;1;default;en": {
		"candela per cubic foot and per cubic meter are no catalog units (the catalog has no luminous intensity per volume)", "has no catalog unit"},
}

// cldrUnit is one row of units.tsv.
type cldrUnit struct {
	id, unit, base, substance, why string
	factor, offset                 *big.Rat
}

func readCLDRUnits(t *testing.T) map[string]cldrUnit {
	t.Helper()
	units := map[string]cldrUnit{}
	for _, r := range readCLDRFile(t, "units.tsv", "\t") {
		f := r.fields
		if len(f) != 7 {
			t.Fatalf("units.tsv:%d: %d fields, want 7", r.line, len(f))
		}
		u := cldrUnit{id: f[0], unit: f[1], base: f[4], substance: f[5], why: f[6], factor: rat(t, f[2]), offset: rat(t, f[3])}
		if (u.unit == "-") != (u.why != "") {
			t.Fatalf("units.tsv:%d: a unit %q with the reason %q", r.line, u.unit, u.why)
		}
		units[u.id] = u
	}
	return units
}

type cldrRow struct {
	file, text string
	line       int
	fields     []string
	comment    string
}

// readCLDRFile reads the data rows of a file of testdata/cldr: fields
// split at sep and trimmed, comments and blank lines left out.
func readCLDRFile(t *testing.T, name, sep string) []cldrRow {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "cldr", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []cldrRow
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		text := sc.Text()
		if strings.TrimSpace(text) == "" || strings.HasPrefix(text, "#") {
			continue
		}
		body, comment, _ := strings.Cut(text, "#")
		fs := strings.Split(body, sep)
		for i := range fs {
			fs[i] = strings.TrimSpace(fs[i])
		}
		rows = append(rows, cldrRow{file: name, text: text, line: n, fields: fs, comment: strings.TrimSpace(comment)})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// rat reads a rational of CLDR's files: "3429 / 12500", "1,420,653,125/473176473", "2.5".
func rat(t *testing.T, s string) *big.Rat {
	t.Helper()
	r, ok := new(big.Rat).SetString(strings.NewReplacer(" ", "", ",", "").Replace(s))
	if !ok {
		t.Fatalf("%q is not a rational", s)
	}
	return r
}

// decimalOf writes r as a decimal if it has a finite one.
func decimalOf(r *big.Rat) (string, bool) {
	d := new(big.Int).Set(r.Denom())
	twos, fives := 0, 0
	two, five, zero := big.NewInt(2), big.NewInt(5), new(big.Int)
	var m big.Int
	for m.Mod(d, two).Cmp(zero) == 0 {
		d.Quo(d, two)
		twos++
	}
	for m.Mod(d, five).Cmp(zero) == 0 {
		d.Quo(d, five)
		fives++
	}
	if d.Cmp(big.NewInt(1)) != 0 {
		return "", false
	}
	s := r.FloatString(max(twos, fives))
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s, true
}

// significant counts the significant digits of a decimal.
func significant(s string) int {
	s = strings.TrimLeft(strings.ReplaceAll(strings.TrimLeft(s, "-"), ".", ""), "0")
	return len(strings.TrimRight(s, "0"))
}

// cldrInput is the request value and unit for CLDR's input amount r of
// unit id, of the catalog category cat (that of CLDR's output): the amount
// itself if it has a decimal, else the amount in the first unit of
// units.tsv of that category and of the same base (or, for CLDR's
// consumption, a volume per length, the reciprocal base of fuel economy)
// in which it has one. Failing both, the amount rounded to MaxPrecision
// digits (approx). how says which.
func cldrInput(g *engine.Graph, units map[string]cldrUnit, id string, r *big.Rat, cat string) (value, unit, how string, approx bool, err error) {
	in, ok := units[id]
	if !ok {
		return "", "", "", false, fmt.Errorf("units.tsv has no %s", id)
	}
	if s, ok := decimalOf(r); ok && in.unit != "-" {
		return s, in.unit, "", false, nil
	}
	base := new(big.Rat).Mul(r, in.factor)
	base.Add(base, in.offset)
	ids := make([]string, 0, len(units))
	for id := range units {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, cid := range ids {
		c := units[cid]
		if c.unit == "-" || c.substance != in.substance || categoryOf(g, c.unit) != cat {
			continue
		}
		var x *big.Rat
		switch {
		case c.base == in.base:
			x = new(big.Rat).Sub(base, c.offset)
		case c.base == inverseBase(in.base) && in.offset.Sign() == 0 && c.offset.Sign() == 0 && base.Sign() != 0:
			x = new(big.Rat).Inv(base)
		default:
			continue
		}
		x.Quo(x, c.factor)
		if s, ok := decimalOf(x); ok {
			return s, c.unit, fmt.Sprintf("%s %s is %s %s exactly", r.RatString(), id, s, cid), false, nil
		}
	}
	if in.unit == "-" {
		return "", "", "", false, fmt.Errorf("%s has no catalog unit (%s), and %s of it is in no unit of units.tsv of %s a decimal", id, in.why, r.RatString(), cat)
	}
	var n, d, q apd.Decimal
	n.Coeff.SetMathBigInt(r.Num())
	d.Coeff.SetMathBigInt(r.Denom())
	if _, err := apd.BaseContext.WithPrecision(engine.MaxPrecision).Quo(&q, &n, &d); err != nil {
		return "", "", "", false, err
	}
	s := engine.FormatDecimal(&q)
	return s, in.unit, fmt.Sprintf("%s %s, a decimal in none of the units of its base, rounded to %s", r.RatString(), id, s), true, nil
}

// categoryOf is the category of a catalog unit or expression.
func categoryOf(g *engine.Graph, unit string) string {
	res, err := g.Convert(engine.Request{Value: "1", From: unit, To: unit})
	if err != nil {
		return ""
	}
	return res.CategoryID
}

// inverseBase is the reciprocal of a base written as units.tsv writes
// them ("m^2" and "m^-2").
func inverseBase(b string) string {
	terms := strings.Split(b, "*")
	for i, term := range terms {
		sym, exp, ok := strings.Cut(term, "^")
		switch {
		case !ok:
			terms[i] = sym + "^-1"
		case strings.HasPrefix(exp, "-"):
			if exp == "-1" {
				terms[i] = sym
			} else {
				terms[i] = sym + "^" + exp[1:]
			}
		default:
			terms[i] = sym + "^-" + exp
		}
	}
	return strings.Join(terms, "*")
}

// cldrPart is one expected output of a row: a CLDR unit and its amount.
type cldrPart struct {
	unit   string
	amount *big.Rat
}

// checkCLDR converts req and compares the answer with CLDR's parts; it
// returns the first difference, or "".
// An approximate input allows a relative error of 10^(2-p).
func checkCLDR(g *engine.Graph, units map[string]cldrUnit, req engine.Request, want []cldrPart, approx bool) string {
	res, err := g.Convert(req)
	if err != nil {
		return fmt.Sprintf("error %v", err)
	}
	p := res.Preference()
	if p == nil {
		return "no preference in the answer"
	}
	ids := make([]string, len(want))
	syms := make([]string, len(want))
	for i, w := range want {
		ids[i] = w.unit
		u, ok := units[w.unit]
		if !ok || u.unit == "-" {
			return fmt.Sprintf("CLDR's output unit %s has no catalog unit", w.unit)
		}
		syms[i] = u.unit
	}
	wantID, wantSym := strings.Join(ids, "-and-"), strings.Join(syms, "+")
	chosen := p.Override
	if p.Chosen >= 0 && p.Chosen < len(p.Units) {
		chosen = p.Units[p.Chosen].CLDR
	}
	if chosen != wantID || res.Unit != wantSym {
		return fmt.Sprintf("unit %s (%s), CLDR %s (%s); preferences %s/%s for %s (matched %s/%s)",
			res.Unit, chosen, wantSym, wantID, p.Quantity, p.Usage, p.Region, p.MatchedUsage, p.MatchedRegion)
	}
	got := []string{res.Value}
	if len(want) > 1 {
		if len(res.Parts()) != len(want) {
			return fmt.Sprintf("%d parts, CLDR %d", len(res.Parts()), len(want))
		}
		got = got[:0]
		for _, part := range res.Parts() {
			got = append(got, part.Value)
		}
	}
	for i, w := range want {
		if why := compareCLDR(got[i], w.amount, req.Precision, approx); why != "" {
			return fmt.Sprintf("%s %s: %s", got[i], syms[i], why)
		}
	}
	return ""
}

// compareCLDR compares a value of precision p with CLDR's rational: equal
// where the rational is a decimal of at most p digits, else within half a
// unit of the value's last digit; from an approximate input, within
// 10^(2-p) of the rational, relatively.
func compareCLDR(got string, want *big.Rat, p int, approx bool) string {
	g, ok := new(big.Rat).SetString(got)
	if !ok {
		return "not a decimal"
	}
	if approx {
		diff := new(big.Rat).Sub(g, want)
		bound := new(big.Rat).Abs(want)
		bound.Quo(bound, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(p-2)), nil)))
		if diff.Abs(diff).Cmp(bound) > 0 {
			return fmt.Sprintf("CLDR %s = %s…, off by more than 1e%d of it", want.RatString(), want.FloatString(p), 2-p)
		}
		return ""
	}
	if s, ok := decimalOf(want); ok && significant(s) <= p {
		if g.Cmp(want) != 0 {
			return "CLDR " + s
		}
		return ""
	}
	var d apd.Decimal
	if _, _, err := d.SetString(got); err != nil {
		return err.Error()
	}
	// Half a unit of the last of p significant digits of got.
	e := int64(d.Exponent) + d.NumDigits() - 1 - int64(p) + 1
	half := new(big.Rat).SetFrac(big.NewInt(1), big.NewInt(2))
	if e >= 0 {
		half.Mul(half, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(e), nil)))
	} else {
		half.Quo(half, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(-e), nil)))
	}
	diff := new(big.Rat).Sub(g, want)
	if diff.Abs(diff).Cmp(half) > 0 {
		return fmt.Sprintf("CLDR %s = %s…, off by %s", want.RatString(), want.FloatString(p), diff.FloatString(p+5))
	}
	return ""
}

// TestCLDRTestUnitsAgreeWithCatalog checks the mapping of the test data's
// CLDR units: each catalog unit is CLDR's exact factor (and offset) of its
// base, or, for fuel economy against CLDR's consumption, the reciprocal.
// And the test data is of the CLDR release of the shipped preferences.
func TestCLDRTestUnitsAgreeWithCatalog(t *testing.T) {
	g := shipped(t)
	units := readCLDRUnits(t)
	mapped := 0
	for _, u := range units {
		if u.unit == "-" {
			continue
		}
		mapped++
		// 1 unit is factor + offset of the base.
		want := new(big.Rat).Add(u.factor, u.offset)
		req := engine.Request{Value: "1", From: u.unit, To: u.base, Precision: engine.MaxPrecision}
		res, err := g.Convert(req)
		if err != nil {
			// A consumption unit (volume per length, base m^2) is in the
			// catalog a fuel economy, whose coherent unit is m^-2.
			req.To = inverseBase(u.base)
			if res, err = g.Convert(req); err != nil {
				t.Errorf("%s (%s): %v", u.id, u.unit, err)
				continue
			}
			want.Inv(want)
		}
		if why := compareCLDR(res.Value, want, engine.MaxPrecision, false); why != "" {
			t.Errorf("%s: 1 %s = %s %s, %s", u.id, u.unit, res.Value, req.To, why)
		}
	}
	if mapped < 90 {
		t.Errorf("only %d units mapped", mapped)
	}
	res, err := g.Convert(engine.Request{Value: "1", From: "m", To: engine.Auto})
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join("testdata", "cldr", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	release, _, _ := strings.Cut(res.Preference().Source, ",") // "Unicode CLDR 48"
	if !strings.HasPrefix(release, "Unicode CLDR ") || !strings.Contains(string(readme), release+"'s test data") {
		t.Errorf("the preferences are of %q, the test data's README says:\n%s", release, readme)
	}
}

// TestCLDRUnitPreferences runs unitPreferencesTest.txt: quantity, usage,
// region, input (rational, double, unit), then the output: for a mixed
// unit an integer and unit per part before the last, then the last
// part's rational, double and unit.
func TestCLDRUnitPreferences(t *testing.T) {
	g := shipped(t)
	units := readCLDRUnits(t)
	rows := readCLDRFile(t, "unitPreferencesTest.txt", ";")
	if len(rows) < 300 {
		t.Fatalf("only %d rows", len(rows))
	}
	seen := map[string]bool{}
	for _, r := range rows {
		f := r.fields
		if len(f) < 9 || (len(f)-9)%2 != 0 {
			t.Fatalf("line %d: %d fields", r.line, len(f))
		}
		want := []cldrPart{}
		for i := 6; i < len(f)-3; i += 2 {
			want = append(want, cldrPart{unit: f[i+1], amount: rat(t, f[i])})
		}
		want = append(want, cldrPart{unit: f[len(f)-1], amount: rat(t, f[len(f)-3])})
		key := r.file + ":" + strings.Join(f[:6], ";")
		runCLDRRow(t, g, units, r, key, f[5], rat(t, f[3]), f[1], f[2], "", want, seen)
	}
	checkExceptionsSeen(t, "unitPreferencesTest.txt", seen)
}

// TestCLDRUnitLocalePreferences runs unitLocalePreferencesTest.txt: input
// unit, amount, usage, locale (with -u-rg-, -u-ms- and -u-mu-), expected
// unit and amount.
func TestCLDRUnitLocalePreferences(t *testing.T) {
	g := shipped(t)
	units := readCLDRUnits(t)
	rows := readCLDRFile(t, "unitLocalePreferencesTest.txt", ";")
	if len(rows) < 20 {
		t.Fatalf("only %d rows", len(rows))
	}
	seen := map[string]bool{}
	for _, r := range rows {
		f := r.fields
		if len(f) != 6 {
			t.Fatalf("line %d: %d fields", r.line, len(f))
		}
		key := r.file + ":" + strings.Join(f[:4], ";")
		want := []cldrPart{{unit: f[4], amount: rat(t, f[5])}}
		runCLDRRow(t, g, units, r, key, f[0], rat(t, f[1]), f[2], "", f[3], want, seen)
	}
	checkExceptionsSeen(t, "unitLocalePreferencesTest.txt", seen)
}

func runCLDRRow(t *testing.T, g *engine.Graph, units map[string]cldrUnit, r cldrRow, key, inUnit string, in *big.Rat, usage, region, locale string, want []cldrPart, seen map[string]bool) {
	t.Helper()
	t.Run(fmt.Sprintf("line%d", r.line), func(t *testing.T) {
		ex, excepted := cldrExceptions[key]
		seen[key] = true
		why := ""
		out, ok := units[want[0].unit]
		if !ok || out.unit == "-" {
			why = fmt.Sprintf("CLDR's output unit %s has no catalog unit", want[0].unit)
		}
		value, from, how, approx, err := cldrInput(g, units, inUnit, in, categoryOf(g, out.unit))
		switch {
		case why != "":
		case err != nil:
			why = err.Error()
		default:
			req := engine.Request{Value: value, From: from, To: engine.Auto, Usage: usage, Region: region, Locale: locale, Precision: engine.MaxPrecision}
			if why = checkCLDR(g, units, req, want, approx); why != "" && how != "" {
				why += " (input: " + how + ")"
			}
		}
		switch {
		case excepted && why == "":
			t.Errorf("%s\nnow answers as CLDR does: remove it from cldrExceptions (%s)", r.text, ex.why)
		case excepted && !strings.Contains(why, ex.fails):
			t.Errorf("%s\nlisted in cldrExceptions as failing with %q (%s), fails with: %s", r.text, ex.fails, ex.why, why)
		case excepted:
			t.Logf("%s\nknown: %s (%s)", r.text, ex.why, why)
		case why != "":
			t.Errorf("%s:%d: %s\n%s", r.file, r.line, r.text, why)
		}
	})
}

func checkExceptionsSeen(t *testing.T, file string, seen map[string]bool) {
	t.Helper()
	for key := range cldrExceptions {
		if strings.HasPrefix(key, file+":") && !seen[key] {
			t.Errorf("cldrExceptions names %s, which is no row of the file", key)
		}
	}
}
