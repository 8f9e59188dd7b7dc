package main

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestValidateCoverage: --coverage prints a table of counts, one row per
// code system and no code; --verbose adds the codes behind the gaps, one
// per line, under a heading naming the system, the gap and its count.
func TestValidateCoverage(t *testing.T) {
	row := regexp.MustCompile(`(?m)^(ucum|cldr|qudt|unece) +([0-9]+) +([0-9]+) \( *[0-9.]+%\) +([0-9]+) \( *[0-9.]+%\)$`)
	heading := regexp.MustCompile(`(?m)^(ucum|cldr|qudt|unece) codes (not read by unitd|claimed by no catalog unit) \(([0-9]+)\):$`)

	code, table, stderr := runCLI(t, "", "validate", "--coverage", "../../catalog/data")
	if code != 0 {
		t.Fatalf("validate --coverage = %d\n%s\n%s", code, table, stderr)
	}
	rows := row.FindAllStringSubmatch(table, -1)
	if len(rows) != 4 {
		t.Errorf("want a row per code system (ucum, cldr, qudt, unece), got %d:\n%s", len(rows), table)
	}
	for line := range strings.SplitSeq(table, "\n") {
		if len(line) > 250 {
			t.Errorf("a line of %d characters: %.80s…", len(line), line)
		}
	}
	if heading.MatchString(table) {
		t.Errorf("without --verbose the codes are listed:\n%s", table)
	}
	if !strings.Contains(table, "--verbose") {
		t.Errorf("the table does not say how to list the codes:\n%s", table)
	}

	code, verbose, stderr := runCLI(t, "", "validate", "--coverage", "--verbose", "../../catalog/data")
	if code != 0 {
		t.Fatalf("validate --coverage --verbose = %d\n%s", code, stderr)
	}
	if !strings.Contains(verbose, strings.Join(strings.SplitN(table, "\n", 6)[:5], "\n")) {
		t.Errorf("--verbose does not start with the same table:\n%.600s", verbose)
	}
	// Each heading is followed by as many lines as it counts, one code each.
	lines := strings.Split(verbose, "\n")
	headings := 0
	for i, line := range lines {
		m := heading.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		headings++
		n := 0
		for _, l := range lines[i+1:] {
			if !strings.HasPrefix(l, "  ") {
				break
			}
			if code := strings.TrimPrefix(l, "  "); code == "" || strings.Contains(code, " ") {
				t.Errorf("%s: %q is not one code", line, l)
			}
			n++
		}
		if want := m[3]; want != strconv.Itoa(n) {
			t.Errorf("%s: %d codes follow", line, n)
		}
	}
	// Every gap of the table is listed: the catalog claims far from every
	// QUDT unit, so there is at least that heading.
	if headings == 0 || !strings.Contains(verbose, "qudt codes claimed by no catalog unit (") {
		t.Errorf("--verbose lists no gap:\n%.2000s", verbose)
	}

	if code, _, stderr := runCLI(t, "", "validate", "--verbose", "../../catalog/data"); code != 2 || !strings.Contains(stderr, "--coverage") {
		t.Errorf("--verbose alone = %d %q, want 2 and a word on --coverage", code, stderr)
	}
}
