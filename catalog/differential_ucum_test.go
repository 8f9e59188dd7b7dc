package catalog

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine"
)

// ucumLHCVersion is the version of @lhncbc/ucum-lhc that
// testdata/differential/package.json pins: the one codes/ucum.tsv is
// generated from (tools/codetables).
const ucumLHCVersion = "7.1.10"

// ucumTolerance is the relative difference within which unitd and
// ucum-lhc agree. ucum-lhc computes in float64 and chains a product of
// factors per conversion, each rounded to 53 bits (its [degF] keeps 15
// digits of 5/9): its answers are good to about 1e-14, not to the last
// bit. 1e-12 keeps every real difference, the smallest of which (a wrong
// constant) is larger than 1e-9.
var ucumTolerance = apd.New(1, -12)

// ucumCase is one line of ucum.mjs's output.
type ucumCase struct {
	Kind   string `json:"kind"`
	Pair   string `json:"pair"`
	From   string `json:"from"`
	To     string `json:"to"`
	Value  string `json:"value"`
	Result string `json:"result"`
	Error  string `json:"error"`
	Back   bool   `json:"back"`
	Charge int    `json:"charge"`
}

// runUCUMLHC runs testdata/differential/ucum.mjs once, which enumerates
// the cases and answers them with ucum-lhc.
func runUCUMLHC(t *testing.T) []ucumCase {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is not installed (./tools/test-deps.sh installs it): %v", err)
	}
	pkg, err := os.ReadFile(filepath.Join(differentialDir, "node_modules/@lhncbc/ucum-lhc/package.json"))
	if err != nil {
		t.Fatalf("@lhncbc/ucum-lhc is not installed in %s: run ./tools/test-deps.sh (make test-deps): %v", differentialDir, err)
	}
	var meta struct{ Version string }
	if err := json.Unmarshal(pkg, &meta); err != nil || meta.Version != ucumLHCVersion {
		t.Fatalf("@lhncbc/ucum-lhc in %s is %q, want %s: run ./tools/test-deps.sh (%v)", differentialDir, meta.Version, ucumLHCVersion, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "ucum.mjs")
	cmd.Dir = differentialDir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node ucum.mjs: %v\n%s", err, stderr.String())
	}
	var cases []ucumCase
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		var c ucumCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("ucum.mjs line %d: %v", n, err)
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

// checkUCUMCoverage fails the test unless the cases convert every atom of
// codes/ucum.tsv, and every metric atom under every prefix, at 1 and 37.5
// in both directions: ucum.mjs chooses the cases, and this is what it
// must not leave out. It returns the table's prefixes.
func checkUCUMCoverage(t *testing.T, cases []ucumCase) (prefixes []string) {
	t.Helper()
	type key struct{ from, value string }
	have := map[key]bool{}
	haveBack := map[key]bool{}
	for _, c := range cases {
		if c.Back {
			haveBack[key{c.To, c.Value}] = true
		} else {
			have[key{c.From, c.Value}] = true
		}
	}
	var atoms, metric []string
	for _, row := range readTSV(t, "codes/ucum.tsv") {
		switch row[0] {
		case "prefix":
			prefixes = append(prefixes, row[1])
		case "base", "unit":
			atoms = append(atoms, row[1])
			if row[2] == "1" {
				metric = append(metric, row[1])
			}
		}
	}
	want := atoms
	for _, a := range metric {
		for _, p := range prefixes {
			want = append(want, p+a)
		}
	}
	missing := 0
	for _, code := range want {
		for _, v := range []string{"1", "37.5"} {
			if !have[key{code, v}] || !haveBack[key{code, v}] {
				missing++
				if missing <= 10 {
					t.Errorf("ucum.mjs does not convert %s %s both ways", v, code)
				}
			}
		}
	}
	if missing > 0 {
		t.Fatalf("ucum.mjs leaves out %d conversions of atoms of codes/ucum.tsv", missing)
	}
	if len(atoms) < 300 || len(prefixes) < 24 {
		t.Fatalf("codes/ucum.tsv has %d atoms and %d prefixes; expected the whole table", len(atoms), len(prefixes))
	}
	return prefixes
}

// readTSV reads a table of codes/ or testdata/, without its comments.
func readTSV(t *testing.T, name string) [][]string {
	t.Helper()
	src, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]string
	for _, line := range strings.Split(string(src), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		rows = append(rows, strings.Split(line, "\t"))
	}
	return rows
}

// TestDifferentialUCUM converts every UCUM atom, every metric atom under
// every prefix and every code of ucum-lhc's table, at 1, 37.5 and -37.5,
// both ways, through unitd (ucum:code, at 34 digits) and through ucum-lhc's
// convertUnitTo, and compares: within ucumTolerance is agreement, and so is
// both refusing.
func TestDifferentialUCUM(t *testing.T) {
	g := shipped(t)
	start := time.Now()
	cases := runUCUMLHC(t)
	t.Logf("ucum-lhc: %d conversions in %v", len(cases), time.Since(start).Round(time.Millisecond))
	if len(cases) < 20000 {
		t.Fatalf("ucum.mjs printed %d cases; expected every atom under every prefix", len(cases))
	}
	prefixes := checkUCUMCoverage(t, cases)

	props := map[int]*engine.Properties{}
	r := newDiffReport(t, "ucum", prefixes)
	start = time.Now()
	for _, c := range cases {
		if c.To == "" {
			r.ran(c.Pair)
			r.differ(c.Pair, "%s: %s", c.From, c.Error)
			continue
		}
		req := engine.Request{Value: c.Value, From: "ucum:" + c.From, To: "ucum:" + c.To, Precision: engine.DefaultPrecision}
		if c.Charge != 0 {
			p, ok := props[c.Charge]
			if !ok {
				var err error
				p, err = g.ResolveProperties(engine.PropertyQuery{Charge: fmt.Sprint(c.Charge)})
				if err != nil {
					t.Fatalf("charge %d: %v", c.Charge, err)
				}
				props[c.Charge] = p
			}
			req.Properties = p
		}
		r.convertCase(g, c.Pair, req, c.Result, func(got, want string) bool {
			u, l := decimal(t, got), decimal(t, want)
			var tol, m apd.Decimal
			m.Abs(l)
			if u.CmpTotal(l) == 0 {
				return true
			}
			if a := new(apd.Decimal).Abs(u); a.Cmp(&m) > 0 {
				m.Set(a)
			}
			apd.BaseContext.WithPrecision(40).Mul(&tol, &m, ucumTolerance)
			return within(u, l, &tol)
		})
	}
	t.Logf("unitd: %d conversions in %v", len(cases), time.Since(start).Round(time.Millisecond))
	r.finish()
}
