package catalog

// The differential suites (differential_*_test.go) compare unitd's
// conversions through the standard unit codes with the code systems'
// owners: UCUM with ucum-lhc, the NLM's implementation, run by Node; QUDT
// with the multipliers and offsets of QUDT's own vocabulary; CLDR with
// CLDR's factors, computed exactly. None compares unitd with a copy of its
// own answers.
//
// A case is a pair of units (the owner's unit and a target of its
// dimension), converted at 1, 37.5 and -37.5 in both directions. A pair
// whose conversions differ from the owner's is a failure unless a line of
// testdata/differential/judged.txt (the owner is judged wrong, with the
// reason) or pending.txt (unitd is wrong today, with the class of the bug)
// names it. A line that names no differing pair is a failure too, so both
// lists stay true: a judged line whose owner came round, or a pending line
// whose fix landed, must be deleted.

import (
	"bufio"
	"fmt"
	"math/big"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine"
)

const (
	differentialDir = "testdata/differential"
	judgedFile      = differentialDir + "/judged.txt"
	pendingFile     = differentialDir + "/pending.txt"
)

// differentialValues are the values every case converts: 1 alone would
// hide an offset, a reciprocal or a wrong sign.
var differentialValues = []string{"1", "37.5", "-37.5"}

// convertRecovering converts req, turning a panic of the engine into an
// error that says so, so that one panic fails its case and not the suite.
func convertRecovering(g *engine.Graph, req engine.Request) (res engine.Result, panicked bool, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, panicked, err = engine.Result{}, true, fmt.Errorf("PANIC: %v", p)
		}
	}()
	res, err = g.Convert(req)
	return res, false, err
}

// listEntry is a line of judged.txt or pending.txt: suite, case and
// reason, separated by tabs. The case is a pair as the suite names it
// ("[degRe] → K"), in which * stands for any text and {prefix} for any
// one prefix of the suite's code system, so that one line can name a unit
// under every prefix ("{prefix}Bd → s").
type listEntry struct {
	file    string
	line    int
	suite   string
	pattern string
	reason  string
	re      *regexp.Regexp
	matched int
}

// compile turns the entry's pattern into a regular expression over pairs.
func (e *listEntry) compile(prefixes []string) {
	alts := make([]string, len(prefixes))
	for i, p := range prefixes {
		alts[i] = regexp.QuoteMeta(p)
	}
	var b strings.Builder
	b.WriteString("^")
	for rest := e.pattern; rest != ""; {
		switch {
		case strings.HasPrefix(rest, "{prefix}"):
			b.WriteString("(?:" + strings.Join(alts, "|") + ")")
			rest = rest[len("{prefix}"):]
		case rest[0] == '*':
			b.WriteString(".*")
			rest = rest[1:]
		default:
			n := strings.IndexAny(rest[1:], "*{") + 1
			if n == 0 {
				n = len(rest)
			}
			b.WriteString(regexp.QuoteMeta(rest[:n]))
			rest = rest[n:]
		}
	}
	b.WriteString("$")
	e.re = regexp.MustCompile(b.String())
}

// readList reads judged.txt or pending.txt; # starts a comment line.
func readList(t *testing.T, name string) []*listEntry {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var list []*listEntry
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 3 || cols[0] == "" || cols[1] == "" || strings.TrimSpace(cols[2]) == "" {
			t.Fatalf("%s:%d: want suite, case and reason separated by tabs, got %q", name, n, line)
		}
		list = append(list, &listEntry{file: name, line: n, suite: cols[0], pattern: cols[1], reason: cols[2]})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return list
}

// diffReport collects the differences of one suite and judges them
// against the two lists.
type diffReport struct {
	t           *testing.T
	suite       string
	prefixes    []string // what {prefix} stands for in the lists
	conversions int
	pairs       map[string]bool
	differences map[string][]string
	order       []string
	panics      int
}

func newDiffReport(t *testing.T, suite string, prefixes []string) *diffReport {
	return &diffReport{t: t, suite: suite, prefixes: prefixes, pairs: map[string]bool{}, differences: map[string][]string{}}
}

// ran counts a conversion of a pair.
func (r *diffReport) ran(pair string) {
	r.conversions++
	r.pairs[pair] = true
}

// differ records a difference on a pair.
func (r *diffReport) differ(pair, format string, args ...any) {
	if _, ok := r.differences[pair]; !ok {
		r.order = append(r.order, pair)
	}
	r.differences[pair] = append(r.differences[pair], fmt.Sprintf(format, args...))
}

// finish fails the test for every difference no list names, every list
// line of the suite that names no difference, and every panic.
func (r *diffReport) finish() {
	t := r.t
	t.Helper()
	var lists []*listEntry
	for _, e := range append(readList(t, judgedFile), readList(t, pendingFile)...) {
		if e.suite == r.suite {
			e.compile(r.prefixes)
			lists = append(lists, e)
		}
	}
	var judged, pending int
	for _, pair := range r.order {
		details := r.differences[pair]
		shown := details
		if len(shown) > 6 {
			shown = append(shown[:6:6], fmt.Sprintf("… and %d more", len(details)-6))
		}
		var hit *listEntry
		for _, e := range lists {
			if e.re.MatchString(pair) {
				hit = e
				break
			}
		}
		switch {
		case hit == nil:
			t.Errorf("%s %s differs from its owner:\n\t%s", r.suite, pair, strings.Join(shown, "\n\t"))
		case hit.file == judgedFile:
			hit.matched++
			judged++
		default:
			hit.matched++
			pending++
		}
	}
	for _, e := range lists {
		if e.matched > 0 {
			continue
		}
		if e.file == judgedFile {
			t.Errorf("%s:%d: %s %q no longer differs from its owner: delete the line", e.file, e.line, e.suite, e.pattern)
		} else {
			t.Errorf("%s:%d: %s %q now agrees with its owner: the fix has landed, delete the line", e.file, e.line, e.suite, e.pattern)
		}
	}
	t.Logf("%s: %d pairs, %d conversions (%d panicked); %d pairs differ: %d judged, %d pending (unitd wrong today), %d new",
		r.suite, len(r.pairs), r.conversions, r.panics, len(r.order), judged, pending, len(r.order)-judged-pending)
}

// convertCase converts one value through unitd and records a difference
// when unitd's answer is not the owner's: want is the owner's answer (""
// when the owner refuses), agree compares two answers. A panic is always a
// difference, whatever the owner says.
func (r *diffReport) convertCase(g *engine.Graph, pair string, req engine.Request, want string, agree func(got, want string) bool) {
	r.ran(pair)
	res, panicked, err := convertRecovering(g, req)
	switch {
	case panicked:
		r.panics++
		r.differ(pair, "%s %s → %s: %v", req.Value, req.From, req.To, err)
	case err != nil && want != "":
		r.differ(pair, "%s %s → %s: unitd refuses (%v), owner: %s", req.Value, req.From, req.To, err, want)
	case err == nil && want == "":
		r.differ(pair, "%s %s → %s: unitd %s, owner refuses", req.Value, req.From, req.To, res.Value)
	case err == nil && !agree(res.Value, want):
		r.differ(pair, "%s %s → %s: unitd %s, owner %s", req.Value, req.From, req.To, res.Value, want)
	}
}

// decimal reads a decimal the suites compare, failing the test when it
// does not read.
func decimal(t *testing.T, s string) *apd.Decimal {
	t.Helper()
	d, _, err := apd.NewFromString(s)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return d
}

// within reports whether |got − want| <= tol.
func within(got, want, tol *apd.Decimal) bool {
	var d apd.Decimal
	ctx := apd.BaseContext.WithPrecision(80)
	ctx.Sub(&d, got, want)
	d.Abs(&d)
	return d.Cmp(tol) <= 0
}

// halfULP is half a unit in the last of digits significant digits of x.
func halfULP(x *apd.Decimal, digits int) *apd.Decimal {
	if x.IsZero() {
		return apd.New(0, 0)
	}
	// x = c·10^e with c of n digits: its leading digit is at 10^(e+n-1).
	lead := int64(x.Exponent) + x.NumDigits() - 1
	return apd.New(5, int32(lead-int64(digits)))
}

// ratDecimal is r to 60 significant digits.
func ratDecimal(r *big.Rat) *apd.Decimal {
	var q apd.Decimal
	num := apd.NewWithBigInt(new(apd.BigInt).SetMathBigInt(r.Num()), 0)
	den := apd.NewWithBigInt(new(apd.BigInt).SetMathBigInt(r.Denom()), 0)
	apd.BaseContext.WithPrecision(60).Quo(&q, num, den)
	return &q
}

// sortedKeys is the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
