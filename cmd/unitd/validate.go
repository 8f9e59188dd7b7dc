package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/unitd/unitd/catalog"
	"github.com/unitd/unitd/catalog/lint"
	"github.com/unitd/unitd/engine"
)

var validateCommand = &command{
	name:     "validate",
	synopsis: "[DIR] [--format text|json|github] [--strict] [--coverage [--verbose]]",
	summary:  "check a catalog directory: unitd validate catalog/data",
	help: `Checks a catalog directory (default catalog/data) with the loader unitd serve
uses, then lints a catalog that loads: a factor a power of ten away from that
of a similarly named unit (power-of-ten), a unit without examples
(no-examples), examples that do not run a definition in its direction
(example-direction), a source that cites no document (source-citation), an
alias that is another unit's well-known symbol (well-known-symbol). Lint
findings are warnings, errors with --strict. Unit codes (codes: ucum,
cldr, unece, qudt) are checked against the code tables shipped with unitd:
the code exists, means the unit's factor, and no two units claim it.
--coverage adds a table of each code system's coverage; --verbose lists the
codes behind its gaps, one per line.

Exit status: 0 when the catalog loads (and, with --strict, has no warning),
1 otherwise, 2 on bad arguments.`,
	run: runValidate,
}

// runValidate runs unitd validate: the server's own loader over DIR, every
// problem printed, exit 1 on any; then the lint rules of catalog/lint,
// printed as warnings, or as problems with --strict.
func runValidate(c *call) error {
	stdout := c.stdout
	fs := c.flags
	format := formatFlag(fs, "output `format`: text (file:line:col: message), json, or github (workflow annotations)", "text", "json", "github")
	strict := fs.Bool("strict", false, "treat lint warnings as errors (exit 1 on any)")
	coverage := fs.Bool("coverage", false, "also print a table: per standard code system (UCUM, CLDR, QUDT, UN/ECE Rec 20), how many of its units unitd reads and how many catalog units claim")
	verbose := fs.Bool("verbose", false, "with --coverage, also list the codes unitd does not read and those no catalog unit claims, one per line")
	pos, err := c.parse()
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return exitf(2, "give one catalog directory")
	}
	dir := "catalog/data"
	if len(pos) == 1 {
		dir = pos[0]
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	g, errs := catalog.LoadWithin(os.DirFS(dir), catalog.DefaultTimeout)
	problems := make([]problem, len(errs))
	for i, err := range errs {
		problems[i] = problemOf(dir, err)
	}
	report := validateReport{OK: len(errs) == 0, Dir: dir, Problems: problems, Warnings: []problem{}}
	if g != nil {
		report.Categories = len(g.Categories())
		report.Units = len(g.Units())
		report.Version = g.Version()
		spec, _ := catalog.LoadSpec(os.DirFS(dir))
		for _, f := range lint.Check(spec, g) {
			p := lintProblem(dir, f, *strict)
			if *strict {
				report.Problems = append(report.Problems, p)
				report.OK = false
			} else {
				report.Warnings = append(report.Warnings, p)
			}
		}
	}
	if *verbose && !*coverage {
		return exitf(2, "--verbose lists the codes of --coverage; give both")
	}
	if *coverage && g != nil {
		report.Coverage = g.CodeCoverage()
	}
	switch *format {
	case "json":
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(report)
	case "github":
		for _, p := range report.Problems {
			p.annotate(stdout, "error")
		}
		for _, p := range report.Warnings {
			p.annotate(stdout, "warning")
		}
		report.summary(stdout)
	default:
		for _, p := range report.Problems {
			fmt.Fprintln(stdout, p.Text)
		}
		for _, p := range report.Warnings {
			fmt.Fprintln(stdout, p.Text)
		}
		printCoverage(stdout, report.Coverage, *verbose)
		report.summary(stdout)
	}
	if !report.OK {
		return exitCode(1)
	}
	return nil
}

type validateReport struct {
	OK         bool      `json:"ok"`
	Dir        string    `json:"dir"`
	Version    string    `json:"version,omitempty"`
	Categories int       `json:"categories"`
	Units      int       `json:"units"`
	Problems   []problem `json:"problems"`
	// Warnings are lint findings, which do not fail validation unless
	// --strict makes them problems.
	Warnings []problem `json:"warnings"`
	// Coverage is each code system's coverage, with --coverage.
	Coverage []engine.Coverage `json:"coverage,omitempty"`
}

// printCoverage prints each code system's coverage as a table of counts;
// verbose adds the codes of each gap, one per line, under a heading that
// names the system and the gap.
func printCoverage(w io.Writer, cov []engine.Coverage, verbose bool) {
	if len(cov) == 0 {
		return
	}
	fmt.Fprintf(w, "%-8s %7s %17s %24s\n", "system", "units", "read by unitd", "claimed by the catalog")
	for _, c := range cov {
		fmt.Fprintf(w, "%-8s %7d %7d (%5.1f%%) %14d (%5.1f%%)\n", c.System, c.Units, c.Read, percent(c.Read, c.Units), c.Claimed, percent(c.Claimed, c.Units))
	}
	for _, c := range cov {
		fmt.Fprintf(w, "%s: %s\n", c.System, c.Source)
	}
	if !verbose {
		fmt.Fprintln(w, "(--verbose lists the codes unitd does not read and those no catalog unit claims)")
		return
	}
	for _, c := range cov {
		for _, gap := range []struct {
			what  string
			codes []string
		}{{"not read by unitd", c.Unread}, {"claimed by no catalog unit", c.Unclaimed}} {
			if len(gap.codes) == 0 {
				continue
			}
			fmt.Fprintf(w, "%s codes %s (%d):\n", c.System, gap.what, len(gap.codes))
			for _, code := range gap.codes {
				fmt.Fprintf(w, "  %s\n", code)
			}
		}
	}
}

func percent(n, of int) float64 {
	if of == 0 {
		return 100
	}
	return 100 * float64(n) / float64(of)
}

func (r validateReport) summary(w io.Writer) {
	if r.OK {
		fmt.Fprintf(w, "SUCCESS: %s: %d categories, %d units", r.Dir, r.Categories, r.Units)
		if n := len(r.Warnings); n > 0 {
			fmt.Fprintf(w, ", %d warning(s) (--strict makes them errors)", n)
		}
		fmt.Fprintln(w)
		return
	}
	fmt.Fprintf(w, "FAILED: %s: %d problem(s)\n", r.Dir, len(r.Problems))
}

// problem is one error found in a catalog.
type problem struct {
	File    string `json:"file"`
	Path    string `json:"path"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	Message string `json:"message"`
	Text    string `json:"text"`
	// Rule names the lint rule of a lint finding.
	Rule string `json:"rule,omitempty"`
}

func problemOf(dir string, err error) problem {
	p := problem{Text: err.Error(), Message: err.Error()}
	var se *engine.SpecError
	if errors.As(err, &se) {
		p.File, p.Line, p.Column = se.Origin.File, se.Origin.Line, se.Origin.Column
		p.Message = strings.TrimPrefix(se.Error(), se.Origin.String()+": ")
	}
	if p.File != "" {
		p.Path = filepath.Join(dir, p.File)
	}
	return p
}

// lintProblem is a lint finding as a problem naming its rule; unless
// strict, its text says it is a warning.
func lintProblem(dir string, f lint.Finding, strict bool) problem {
	msg := fmt.Sprintf("%s [%s]", f.Message, f.Rule)
	label := "warning: "
	if strict {
		label = ""
	}
	p := problem{File: f.Origin.File, Line: f.Origin.Line, Column: f.Origin.Column, Message: msg, Rule: string(f.Rule),
		Text: fmt.Sprintf("%s: %s%s", f.Origin, label, msg)}
	if p.File != "" {
		p.Path = filepath.Join(dir, p.File)
	}
	return p
}

// annotate writes p as a GitHub workflow annotation of level (error,
// warning), shown at its file and line in a pull request.
func (p problem) annotate(w io.Writer, level string) {
	fmt.Fprintf(w, "::%s file=%s,line=%d,col=%d::%s\n", level, p.Path, p.Line, p.Column, githubEscape(p.Message))
}

// githubEscape escapes a workflow command's message.
func githubEscape(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}
