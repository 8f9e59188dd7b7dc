// Command testprogress reads `go test -json` on its standard input and
// prints what `go test` prints without -json (a line per package as it
// finishes, the output of failed tests, build errors), plus what go test
// leaves unsaid during a long run: every -every without a finished
// package, a line naming the packages still running and their tests that
// have run longest; at the end, the slowest packages and tests.
//
//	go test -json -race ./... | go run ./tools/testprogress
//
// It exits 1 when a package failed or did not build, 0 otherwise; with
// `set -o pipefail` the pipe also fails when go test does.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"
)

func main() {
	every := flag.Duration("every", 30*time.Second, "print the packages still running after this long without a finished package")
	slowest := flag.Int("slowest", 8, "how many of the slowest packages and tests to list at the end (0: none)")
	flag.Parse()
	r := newReport(os.Stdout, *slowest)
	events := make(chan event)
	go func() {
		defer close(events)
		if err := decode(os.Stdin, events); err != nil {
			fmt.Fprintln(os.Stderr, "testprogress:", err)
		}
	}()
	tick := time.NewTicker(*every / 3)
	defer tick.Stop()
	for {
		select {
		case e, ok := <-events:
			if !ok {
				os.Exit(r.finish())
			}
			r.add(e, time.Now())
		case now := <-tick.C:
			r.tick(now, *every)
		}
	}
}

// event is one line of `go test -json` (cmd/test2json), build output
// included.
type event struct {
	Time       time.Time
	Action     string
	Package    string
	ImportPath string // of build-output and build-fail events
	Test       string
	Elapsed    float64
	Output     string
}

// decode sends every event of r, and the lines that are not JSON as
// output events of no package (go vet's or the linker's words, say).
func decode(r io.Reader, events chan<- event) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	for sc.Scan() {
		var e event
		if line := sc.Bytes(); len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			events <- event{Action: "output", Output: sc.Text() + "\n"}
			continue
		}
		events <- e
	}
	return sc.Err()
}

// report is the state of a run: the packages and tests running, the
// output kept until it is known whether a test failed.
type report struct {
	w       io.Writer
	slowest int

	running map[string]*pkgState // by package
	last    time.Time            // of the last line printed for a package
	started time.Time            // of the last package that finished, or the run
	since   string               // what started was
	failed  bool
	done    []timing // packages
	tests   []timing // top-level tests
}

type pkgState struct {
	started time.Time
	tests   map[string]time.Time // running top-level tests: their start
	output  map[string][]string  // by test ("" the package's own)
}

type timing struct {
	name    string
	elapsed float64
}

func newReport(w io.Writer, slowest int) *report {
	now := time.Now()
	return &report{w: w, slowest: slowest, running: map[string]*pkgState{}, last: now, started: now, since: "the start"}
}

func (r *report) pkg(name string, at time.Time) *pkgState {
	p := r.running[name]
	if p == nil {
		p = &pkgState{started: at, tests: map[string]time.Time{}, output: map[string][]string{}}
		r.running[name] = p
	}
	return p
}

// add takes one event in.
func (r *report) add(e event, now time.Time) {
	if e.Time.IsZero() {
		e.Time = now
	}
	switch e.Action {
	case "build-output":
		fmt.Fprint(r.w, e.Output)
		return
	case "build-fail":
		r.failed = true
		return
	}
	if e.Package == "" {
		fmt.Fprint(r.w, e.Output)
		return
	}
	p := r.pkg(e.Package, e.Time)
	top, _, sub := strings.Cut(e.Test, "/")
	switch e.Action {
	case "run":
		if !sub {
			p.tests[top] = e.Time
		}
	case "output":
		p.output[top] = append(p.output[top], e.Output)
	case "pass", "skip", "fail":
		switch {
		case e.Test == "":
			r.finishPackage(e, p)
		case !sub:
			// go test prints a failed test's output, its subtests'
			// included, and forgets a passing test's.
			if e.Action == "fail" {
				for _, line := range p.output[top] {
					fmt.Fprint(r.w, line)
				}
			}
			delete(p.output, top)
			delete(p.tests, top)
			r.tests = append(r.tests, timing{e.Package + " " + top, e.Elapsed})
		}
	}
}

// finishPackage prints the package's own output, which ends in go test's
// line for it (ok, FAIL, or ? for no test files).
func (r *report) finishPackage(e event, p *pkgState) {
	for _, line := range p.output[""] {
		if e.Action == "pass" && line == "PASS\n" {
			continue // go test without -v does not print it
		}
		fmt.Fprint(r.w, line)
	}
	if e.Action == "fail" {
		r.failed = true
		// Output of tests that never ended (a panic, a timeout) goes
		// with the failure.
		r.printUnended(p)
	}
	delete(r.running, e.Package)
	r.done = append(r.done, timing{e.Package, e.Elapsed})
	r.last, r.started, r.since = e.Time, e.Time, short(e.Package)+" finished"
}

// tick prints the packages still running when nothing was printed for a
// package in the last every, or that test binaries are being built.
func (r *report) tick(now time.Time, every time.Duration) {
	if now.Sub(r.last) < every {
		return
	}
	r.last = now
	if len(r.running) == 0 {
		// go test says nothing of the test binaries it builds.
		fmt.Fprintf(r.w, "   … building test binaries, %s since %s\n", seconds(now.Sub(r.started)), r.since)
		return
	}
	names := make([]string, 0, len(r.running))
	for name := range r.running {
		names = append(names, name)
	}
	slices.Sort(names)
	var parts []string
	for _, name := range names {
		p := r.running[name]
		part := fmt.Sprintf("%s %s", short(name), seconds(now.Sub(p.started)))
		if len(p.tests) > 0 {
			tests := make([]string, 0, len(p.tests))
			for t := range p.tests {
				tests = append(tests, t)
			}
			slices.SortFunc(tests, func(a, b string) int { return p.tests[a].Compare(p.tests[b]) })
			var ts []string
			for _, t := range tests[:min(len(tests), 3)] {
				ts = append(ts, fmt.Sprintf("%s %s", t, seconds(now.Sub(p.tests[t]))))
			}
			if len(tests) > 3 {
				ts = append(ts, fmt.Sprintf("%d more", len(tests)-3))
			}
			part += " (" + strings.Join(ts, ", ") + ")"
		}
		parts = append(parts, part)
	}
	fmt.Fprintf(r.w, "   … still running: %s\n", strings.Join(parts, "; "))
}

// printUnended prints the output of p's tests that have not ended, in the
// order they started.
func (r *report) printUnended(p *pkgState) {
	var names []string
	for name := range p.output {
		if name != "" {
			names = append(names, name)
		}
	}
	slices.SortFunc(names, func(a, b string) int { return p.tests[a].Compare(p.tests[b]) })
	for _, name := range names {
		for _, line := range p.output[name] {
			fmt.Fprint(r.w, line)
		}
	}
}

// finish prints the slowest packages and tests and returns the exit code.
func (r *report) finish() int {
	if r.slowest > 0 {
		if s := slowestOf(r.done, r.slowest, true); s != "" {
			fmt.Fprintf(r.w, "   slowest packages: %s\n", s)
		}
		if s := slowestOf(r.tests, r.slowest, false); s != "" {
			fmt.Fprintf(r.w, "   slowest tests: %s\n", s)
		}
	}
	names := make([]string, 0, len(r.running))
	for name := range r.running {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names { // the stream ended before they did
		r.printUnended(r.running[name])
		for _, line := range r.running[name].output[""] {
			fmt.Fprint(r.w, line)
		}
		fmt.Fprintf(r.w, "FAIL\t%s\t(no result: go test stopped)\n", name)
		r.failed = true
	}
	if r.failed {
		return 1
	}
	return 0
}

func slowestOf(ts []timing, n int, pkgs bool) string {
	ts = slices.Clone(ts)
	slices.SortStableFunc(ts, func(a, b timing) int {
		switch {
		case a.elapsed > b.elapsed:
			return -1
		case a.elapsed < b.elapsed:
			return 1
		}
		return 0
	})
	var parts []string
	for _, t := range ts[:min(n, len(ts))] {
		if t.elapsed < 1 {
			break // not worth a mention
		}
		name := t.name
		if pkgs {
			name = short(name)
		} else if pkg, test, ok := strings.Cut(name, " "); ok {
			name = short(pkg) + "." + test
		}
		parts = append(parts, fmt.Sprintf("%s %.1fs", name, t.elapsed))
	}
	return strings.Join(parts, ", ")
}

// short drops the module path from a package's import path.
func short(pkg string) string {
	const mod = "github.com/unitd/unitd/"
	if rest, ok := strings.CutPrefix(pkg, mod); ok {
		return rest
	}
	return pkg
}

func seconds(d time.Duration) string {
	return fmt.Sprintf("%ds", int(d.Round(time.Second)/time.Second))
}
