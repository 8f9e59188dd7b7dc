package catalog

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine"
)

// nistTable is an independent transcription of NIST Special Publication 811
// (2008 edition), Appendix B: B.8 (factors for units listed alphabetically)
// and B.9 (factors for units listed by kind of quantity). It is data typed
// from the publication, not derived from the catalog, so that a wrong
// definition in the catalog shows up as a disagreement with NIST.
const nistTable = "testdata/nist_sp811.tsv"

const nistHeader = "section\tnist_from\tnist_to\tfactor\texact\tfrom\tto"

// nistRow is one line of the table.
type nistRow struct {
	line             int
	section          string
	nistFrom, nistTo string
	factorText       string
	factor           apd.Decimal
	exact            bool // NIST prints the factor in boldface: it is exact
	from, to         string
}

// readNISTTable parses the table strictly: the exact header, seven
// tab-separated fields on every line, no empty fields but exact, factors
// written as plain decimals or e-notation, exact either "E" or empty, and
// no conversion listed twice.
func readNISTTable(t *testing.T) []nistRow {
	t.Helper()
	f, err := os.Open(nistTable)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	var rows []nistRow
	seen := map[string]int{}
	n := 0
	for sc.Scan() {
		n++
		text := sc.Text()
		if n == 1 {
			if text != nistHeader {
				t.Fatalf("%s:1: header is %q, want %q", nistTable, text, nistHeader)
			}
			continue
		}
		fields := strings.Split(text, "\t")
		if len(fields) != 7 {
			t.Errorf("%s:%d: %d fields, want 7: %q", nistTable, n, len(fields), text)
			continue
		}
		r := nistRow{line: n, section: fields[0], nistFrom: fields[1], nistTo: fields[2],
			factorText: fields[3], from: fields[5], to: fields[6]}
		for i, v := range fields {
			if v != strings.TrimSpace(v) {
				t.Errorf("%s:%d: field %d has surrounding white space: %q", nistTable, n, i+1, v)
			}
			if v == "" && i != 4 {
				t.Errorf("%s:%d: field %d is empty", nistTable, n, i+1)
			}
		}
		switch fields[4] {
		case "E":
			r.exact = true
		case "":
		default:
			t.Errorf("%s:%d: exact is %q, want \"E\" or empty", nistTable, n, fields[4])
		}
		d, err := engine.ParseValue(r.factorText)
		if err != nil || d.Sign() <= 0 {
			t.Errorf("%s:%d: factor %q is not a positive decimal (%v)", nistTable, n, r.factorText, err)
			continue
		}
		r.factor = d
		key := r.nistFrom + "→" + r.nistTo
		if prev, dup := seen[key]; dup {
			t.Errorf("%s:%d: %s already listed on line %d", nistTable, n, key, prev)
			continue
		}
		seen[key] = n
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// involvesPi reports whether u's definition, or that of any unit it is
// defined through, is written with pi: such a conversion cannot be exact
// in decimals, whatever NIST prints.
func involvesPi(g *engine.Graph, u *engine.Unit) bool {
	for i := 0; u != nil && i < 100; i++ {
		if strings.Contains(u.Doc().Definition.Factor, "pi") ||
			strings.Contains(u.Doc().Definition.To, "pi") || strings.Contains(u.Doc().Definition.From, "pi") {
			return true
		}
		if u.Doc().Definition.Unit == "" {
			return false
		}
		next, err := g.Lookup(u.Doc().Definition.Unit)
		if err != nil {
			return false
		}
		u = next
	}
	return false
}

// TestNISTSP811 converts 1 of every NIST unit to NIST's target unit and
// compares with NIST's printed factor: digit for digit when NIST marks the
// factor exact, otherwise after rounding unitd's (50-digit) result
// half-even to the significant digits NIST printed. NIST's rounded factors
// are correctly rounded from the exact definitions, so any difference is a
// transcription error in the table or a wrong definition in the catalog.
func TestNISTSP811(t *testing.T) {
	rows := readNISTTable(t)
	if len(rows) < 150 {
		t.Errorf("%s has %d rows, want at least 150", nistTable, len(rows))
	}
	g := shipped(t)
	for _, row := range rows {
		t.Run(row.nistFrom+"→"+row.nistTo, func(t *testing.T) {
			where := nistTable + ":" + strconv.Itoa(row.line) + " (" + row.section + ")"
			res, err := g.Convert(engine.Request{Value: "1", From: row.from, To: row.to, Precision: 50})
			if err != nil {
				t.Fatalf("%s: 1 %s → %s: %v", where, row.from, row.to, err)
			}
			got, err := engine.ParseValue(res.Value)
			if err != nil {
				t.Fatalf("%s: unitd printed %q: %v", where, res.Value, err)
			}
			if row.exact {
				if got.Cmp(&row.factor) != 0 {
					t.Errorf("%s: 1 %s = %s %s, NIST (exact): %s", where, row.from, res.Value, row.to, row.factorText)
				}
				if !res.Exact && !involvesPi(g, res.From) && !involvesPi(g, res.To) {
					t.Errorf("%s: 1 %s → %s is not exact in unitd (%s), NIST marks %s exact", where, row.from, row.to, res.Value, row.factorText)
				}
				return
			}
			digits := row.factor.NumDigits()
			ctx := apd.BaseContext.WithPrecision(uint32(digits))
			ctx.Rounding = apd.RoundHalfEven
			var rounded apd.Decimal
			if _, err := ctx.Round(&rounded, &got); err != nil {
				t.Fatalf("%s: rounding %s: %v", where, res.Value, err)
			}
			if rounded.Cmp(&row.factor) != 0 {
				t.Errorf("%s: 1 %s = %s %s, which rounds to %s at %d digits; NIST: %s",
					where, row.from, res.Value, row.to, engine.FormatDecimal(&rounded), digits, row.factorText)
			}
		})
	}
}
