package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// runCLI runs the unitd command line with stdin and returns its outputs.
func runCLI(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestConvertCommand(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		code       int
		stdout     string
		stderrHave string
	}{
		{"inches", []string{"convert", "1", "in", "cm"}, 0, "2.54 cm\n", ""},
		{"negative value", []string{"convert", "-40", "degC", "degF"}, 0, "-40 degF\n", ""},
		{"precision flag after", []string{"convert", "1", "ft", "yd", "--precision", "5"}, 0, "0.33333 yd\n", ""},
		{"precision flag before", []string{"convert", "--precision=3", "100", "degF", "degC"}, 0, "37.8 degC\n", ""},
		{"alias", []string{"convert", "12.5", "feet", "Metres"}, 0, "3.81 m\n", ""},
		{"unknown unit", []string{"convert", "1", "furlongz", "m"}, 1, "", "error: UNKNOWN_UNIT unknown unit \"furlongz\""},
		{"ambiguous", []string{"convert", "1", "gallon", "L"}, 1, "", "error: AMBIGUOUS_UNIT"},
		{"incompatible", []string{"convert", "1", "m", "kg"}, 1, "", "error: INCOMPATIBLE_UNITS"},
		{"bad value", []string{"convert", "1,5", "m", "ft"}, 1, "", "error: INVALID_VALUE"},
		{"out of range", []string{"convert", "-300", "degC", "K"}, 1, "", "error: VALUE_OUT_OF_RANGE"},
		{"bad precision", []string{"convert", "1", "m", "ft", "--precision", "51"}, 2, "", "precision must be"},
		{"missing argument", []string{"convert"}, 2, "", "usage: unitd convert"},
		{"too many arguments", []string{"convert", "1", "m", "ft", "in"}, 2, "", "usage: unitd convert"},
		{"a number alone is not a quantity", []string{"convert", "1", "m"}, 1, "", "error: INVALID_QUANTITY “1” has no unit"},
		{"free-text quantity", []string{"convert", "1 1/2 ft", "in"}, 0, "18 in\n", ""},
		{"free-text marks", []string{"convert", "5′", "cm"}, 0, "152.4 cm\n", ""},
		{"question", []string{"convert", "5 ft to cm"}, 0, "152.4 cm\n", ""},
		{"question with the inch", []string{"convert", "3 in in cm"}, 0, "7.62 cm\n", ""},
		{"question with a sign", []string{"convert", "-40 °F to °C"}, 0, "-40 degC\n", ""},
		{"question in a locale", []string{"convert", "12,5 Kilometer in Meter", "--locale", "de", "--unit-display", "long"}, 0, "12.500 Meter\n", ""},
		// Text in a locale has readable digits (3 fraction digits, or the
		// input's figures where more) unless --precision is given; the
		// plain output keeps 34 significant digits.
		{"result in a locale", []string{"convert", "60", "mph", "km/h", "--locale", "de"}, 0, "96,561 km/h\n", ""},
		{"result in a locale at a precision", []string{"convert", "60", "mph", "km/h", "--locale", "de", "--precision", "7"}, 0, "96,56064 km/h\n", ""},
		{"result in a locale, the input's figures", []string{"convert", "60.00000", "mph", "km/h", "--locale", "de"}, 0, "96,56064 km/h\n", ""},
		{"an inexact result in a locale", []string{"convert", "1", "ft", "yd", "--locale", "en"}, 0, "0.333 yd\n", ""},
		{"plain output keeps 34 digits", []string{"convert", "1", "ft", "yd"}, 0, "0.3333333333333333333333333333333333 yd\n", ""},
		{"bad locale", []string{"convert", "1", "m", "ft", "--locale", "!!"}, 2, "", "not a BCP 47"},
		{"bad unit display", []string{"convert", "1", "m", "ft", "--unit-display", "wide"}, 2, "", "--unit-display"},
		{"free text refused", []string{"convert", "1,5 km", "m"}, 1, "", "error: INVALID_QUANTITY “,” separates groups of digits in en"},
		{"free text ambiguous", []string{"convert", "2 gallon to L"}, 1, "", "gal, gal_imp"},
		{"expression", []string{"convert", "60", "mile/hour", "km/h"}, 0, "96.56064 km/h\n", ""},
		{"expression target", []string{"convert", "1", "N", "kg·m·s⁻²"}, 0, "1 kg*m*s^-2\n", ""},
		{"bridge", []string{"convert", "1", "rpm", "deg/s"}, 0, "6 deg/s\n", ""},
		{"interval", []string{"convert", "1", "K", "delta_degF"}, 0, "1.8 delta_degF\n", ""},
		{"bad expression", []string{"convert", "1", "m^99", "m"}, 1, "", "error: INVALID_UNIT_EXPRESSION"},
		{"formula in expression", []string{"convert", "1", "dBm*s", "J"}, 1, "", "error: INVALID_UNIT_EXPRESSION"},
		{"explain", []string{"convert", "1", "rpm", "deg/s", "--explain"}, 0, "6 deg/s\n" +
			"  result:   exact\n" +
			"  catalog:  " + embeddedVersion(t) + "\n" +
			"  kind:     linear\n" +
			"  factor:   6 (exact)\n" +
			"  steps:\n", ""},
		{"explain stream", []string{"convert", "-", "--explain"}, 2, "", "--explain takes a single conversion"},
		{"auto by usage and region", []string{"convert", "1.75", "m", "auto", "--usage", "person-height", "--region", "GB", "--precision", "2"}, 0, "5 ft 8.9 in\n", ""},
		{"auto by locale", []string{"convert", "1.75", "m", "auto", "--usage", "person-height", "--locale", "fr-FR"}, 0, "1\u202fm 75\u202fcm\n", ""}, // --locale also writes the answer in French
		{"auto by region", []string{"convert", "1.75", "m", "auto", "--usage", "person-height", "--region", "FR"}, 0, "1 m 75 cm\n", ""},
		{"auto by default", []string{"convert", "1500", "m", "auto"}, 0, "1.5 km\n", ""},
		{"mixed target", []string{"convert", "5400", "s", "h+min+s"}, 0, "1 h 30 min 0 s\n", ""},
		{"mixed source", []string{"convert", "5 3.5", "ft+in", "cm"}, 0, "161.29 cm\n", ""},
		{"CLDR mixed unit", []string{"convert", "70", "kg", "stone-and-pound", "--precision", "3"}, 0, "11 st 0.324 lb\n", ""},
		{"unknown usage", []string{"convert", "1", "m", "auto", "--usage", "bogus"}, 1, "", "error: INVALID_REQUEST unknown usage \"bogus\" for length: its usages are default,"},
		{"unknown region", []string{"convert", "1", "m", "auto", "--region", "XX"}, 1, "", "error: INVALID_REQUEST unknown region \"XX\""},
		{"mixed of two kinds", []string{"convert", "1", "m", "ft+lb"}, 1, "", "error: INCOMPATIBLE_UNITS"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, "", tt.args...)
			if code != tt.code || !strings.HasPrefix(stdout, tt.stdout) || tt.stdout == "" && stdout != "" || !strings.Contains(stderr, tt.stderrHave) {
				t.Errorf("unitd %s = %d, %q, %q; want %d, %q, stderr containing %q",
					strings.Join(tt.args, " "), code, stdout, stderr, tt.code, tt.stdout, tt.stderrHave)
			}
		})
	}
}

func embeddedVersion(t *testing.T) string {
	g, err := loadCatalog("")
	if err != nil {
		t.Fatal(err)
	}
	return g.Version()
}

// TestConvertExplainSteps checks that the explanation lists each
// definition used, with its source.
func TestConvertExplainSteps(t *testing.T) {
	code, stdout, stderr := runCLI(t, "", "convert", "1", "rpm", "deg/s", "--explain")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"    rpm          1 rpm = 1/60 Hz  [exact; ISO 80000-3:2019",
		"    deg/s        1 deg/s = pi/180 rad/s  [exact; SI Brochure",
		"    Hz           1 Hz = 2*pi rad/s (bridge from frequency to angular_velocity)  [exact; ISO 80000-3:2019",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("explanation lacks %q:\n%s", want, stdout)
		}
	}
}

func TestConvertStream(t *testing.T) {
	in := "1 in cm\n\n12.5 ft m\nabc m ft\n100 degF degC\n1 m\n"
	code, stdout, _ := runCLI(t, in, "convert", "-", "--precision", "4")
	want := "2.54 cm\n" + // the blank line is skipped
		"3.81 m\n" +
		"error: INVALID_VALUE value \"abc\" is not a decimal number (expected digits, optional fraction and exponent, e.g. 12.5 or 1.5e3)\n" +
		"37.78 degC\n" +
		"error: INVALID_REQUEST expected \"VALUE FROM TO\"\n"
	if code != 1 || stdout != want {
		t.Errorf("stream = %d\n%s\nwant 1\n%s", code, stdout, want)
	}
	code, stdout, _ = runCLI(t, "1 km m\n2 km m\n", "convert", "-")
	if code != 0 || stdout != "1000 m\n2000 m\n" {
		t.Errorf("clean stream = %d %q", code, stdout)
	}
}

// TestConvertStreamReadable streams values per part and auto targets,
// with the usage and region of the flags.
func TestConvertStreamReadable(t *testing.T) {
	in := "5 3.5 ft+in cm\n1.75 m auto\n1 2 3 h+min+s s\n5 3.5\tft+in\tin\n"
	code, stdout, stderr := runCLI(t, in, "convert", "-", "--usage", "person-height", "--region", "US", "--precision", "3")
	want := "161 cm\n5 ft 8.9 in\n3720 s\n63.5 in\n"
	if code != 0 || stdout != want {
		t.Errorf("stream = %d %q %s\nwant %q", code, stdout, stderr, want)
	}
}

// TestConvertExplainPreference checks that --explain says which preference
// was chosen and why.
func TestConvertExplainPreference(t *testing.T) {
	code, stdout, stderr := runCLI(t, "", "convert", "1.75", "m", "auto", "--usage", "person-height", "--region", "GB", "--explain")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"  parts:    ft = 12 in, in = 1 in (factor and steps lead to in)\n",
		"  chosen:   length/person-height for GB (region), preferences of GB: the magnitude of the value reaches the threshold of ft+in, 3.0 ft",
		"  list:     ft+in from 3.0 ft, in [Unicode CLDR 48",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("explanation lacks %q:\n%s", want, stdout)
		}
	}
}

func TestValidateShippedCatalog(t *testing.T) {
	code, stdout, stderr := runCLI(t, "", "validate", "../../catalog/data")
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if code != 0 || !strings.HasPrefix(lines[len(lines)-1], "SUCCESS: ../../catalog/data: ") {
		t.Errorf("validate = %d %q %q", code, stdout, stderr)
	}
}

func TestValidateReportsProblems(t *testing.T) {
	dir := t.TempDir()
	bad := "category:\n  id: length\n  name: Length\n  base: m\nunits:\n  - symbol: m\n    name: metre\n    plural: metres\n    system: SI\n    exact: true\n    sourc: SI\n"
	if err := os.WriteFile(filepath.Join(dir, "length.yaml"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Run("text", func(t *testing.T) {
		code, stdout, _ := runCLI(t, "", "validate", dir)
		want := "length.yaml:11:5: unit \"m\": unknown key \"sourc\""
		if code != 1 || !strings.Contains(stdout, want) || !strings.Contains(stdout, "length.yaml:6:5: unit \"m\": missing source") || !strings.Contains(stdout, "FAILED: ") {
			t.Errorf("validate = %d\n%s", code, stdout)
		}
	})
	t.Run("json", func(t *testing.T) {
		code, stdout, _ := runCLI(t, "", "validate", "--format", "json", dir)
		var report struct {
			OK       bool
			Problems []struct {
				File    string
				Line    int
				Column  int
				Message string
			}
		}
		if err := json.Unmarshal([]byte(stdout), &report); err != nil {
			t.Fatal(err, stdout)
		}
		if code != 1 || report.OK || len(report.Problems) != 2 || report.Problems[0].File != "length.yaml" || report.Problems[0].Line != 11 || report.Problems[1].Line != 6 {
			t.Errorf("validate json = %d %+v", code, report)
		}
	})
	t.Run("github", func(t *testing.T) {
		code, stdout, _ := runCLI(t, "", "validate", dir, "--format=github")
		want := "::error file=" + filepath.Join(dir, "length.yaml") + ",line=11,col=5::unit \"m\": unknown key \"sourc\""
		if code != 1 || !strings.Contains(stdout, want) {
			t.Errorf("validate github = %d\n%s\nwant a line starting %s", code, stdout, want)
		}
	})
	t.Run("not a directory", func(t *testing.T) {
		if code, _, _ := runCLI(t, "", "validate", filepath.Join(dir, "nope")); code != 1 {
			t.Errorf("exit %d", code)
		}
	})
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"65536": 65536, "64KiB": 65536, "1MiB": 1 << 20, "64KB": 64000, "2 MB": 2000000, "100B": 100, "1GiB": 1 << 30, "2GB": 2e9, "1024GiB": 1 << 40} {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0", "-1", "64kb", "1gib", "ten", "1.5MiB", "1025GiB"} {
		if _, err := parseSize(in); err == nil {
			t.Errorf("parseSize(%q) succeeded", in)
		}
	}
}

// TestConvertStreamLines: stdin lines may separate fields by tabs (for
// unit names with spaces); blank and # lines are skipped.
func TestConvertStreamLines(t *testing.T) {
	in := "1\tft\tm\n\n# a comment\n100\tdegree Celsius\tK\n2 ft m\n"
	code, out, errOut := runCLI(t, in, "convert", "-")
	if code != 0 || out != "0.3048 m\n373.15 K\n0.6096 m\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestHelpExitsZero: --help on every command of the table, a group's
// commands among them, prints its usage with --flags and exits 0.
func TestHelpExitsZero(t *testing.T) {
	var cmds [][]string
	var walk func(path []string, g *command)
	walk = func(path []string, g *command) {
		for _, cmd := range g.commands {
			p := append(slices.Clone(path), cmd.name)
			if cmd.commands != nil {
				walk(p, cmd)
			} else if cmd.name != "version" {
				cmds = append(cmds, p)
			}
		}
	}
	walk(nil, unitd)
	if len(cmds) < 15 {
		t.Fatalf("the command table has %d commands: %v", len(cmds), cmds)
	}
	for _, cmd := range cmds {
		code, _, errOut := runCLI(t, "", append(cmd, "--help")...)
		if code != 0 || !strings.Contains(errOut, "usage:") {
			t.Errorf("%v --help: exit %d, stderr %q", cmd, code, errOut)
		}
		if strings.Contains(errOut, "\n  -") && !strings.Contains(errOut, "\n  --") {
			t.Errorf("%v --help shows flags as -flag:\n%s", cmd, errOut)
		}
		if want := "usage: unitd " + strings.Join(cmd, " ") + " "; !strings.HasPrefix(errOut, want) {
			t.Errorf("%v --help: stderr starts %.60q, want %q", cmd, errOut, want)
		}
	}
}

// TestRootUsage: unitd help lists every command that has a summary, from
// the table it dispatches, and not the password worker that serve runs.
func TestRootUsage(t *testing.T) {
	code, out, _ := runCLI(t, "", "help")
	if code != 0 || !strings.HasPrefix(out, "usage: unitd <command>") {
		t.Fatalf("unitd help: exit %d, %q", code, out)
	}
	for _, name := range []string{"serve", "convert", "validate", "diff", "fmt", "docs", "keys", "accounts", "users", "version"} {
		if !strings.Contains(out, "\n  "+name+" ") {
			t.Errorf("unitd help does not list %s:\n%s", name, out)
		}
	}
	if strings.Contains(out, "password-worker") {
		t.Errorf("unitd help lists the password worker:\n%s", out)
	}
	if code, out, _ := runCLI(t, "", "--version"); code != 0 || !strings.HasPrefix(out, "unitd ") {
		t.Errorf("unitd --version: exit %d, %q", code, out)
	}
}

// TestFormatFlag: every command with --format refuses a format it does not
// have, before doing anything, as a usage error that lists its formats.
func TestFormatFlag(t *testing.T) {
	st := filepath.Join(t.TempDir(), "unitd.db")
	for _, tt := range []struct {
		args    []string
		formats string
	}{
		{[]string{"keys", "list", "--store", st, "--format", "yaml"}, "(text, json)"},
		{[]string{"accounts", "list", "--store", st, "--format=yaml"}, "(text, json)"},
		{[]string{"users", "list", "--format", "yaml", "--store", st}, "(text, json)"},
		{[]string{"validate", "catalog/data", "--format", "yaml"}, "(text, json, github)"},
		{[]string{"diff", "a", "b", "--format", "yaml"}, "(text, json, markdown, github)"},
	} {
		code, out, stderr := runCLI(t, "", tt.args...)
		if code != 2 || out != "" || !strings.Contains(stderr, `unknown format "yaml" `+tt.formats) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and the formats %s", tt.args, code, out, stderr, tt.formats)
		}
	}
	if _, err := os.Stat(st); err == nil {
		t.Error("a refused command made a store")
	}
}

// TestGroupDispatch: keys, accounts and users answer help, a missing and
// an unknown subcommand alike.
func TestGroupDispatch(t *testing.T) {
	for _, group := range []string{"keys", "accounts", "users"} {
		if code, out, _ := runCLI(t, "", group, "help"); code != 0 || !strings.HasPrefix(out, "usage: unitd "+group+" <command>") {
			t.Errorf("%s help: exit %d, %q", group, code, out)
		}
		if code, _, stderr := runCLI(t, "", group); code != 2 || !strings.HasPrefix(stderr, "usage: unitd "+group) {
			t.Errorf("%s alone: exit %d, %q", group, code, stderr)
		}
		if code, _, stderr := runCLI(t, "", group, "frob"); code != 2 || !strings.HasPrefix(stderr, "unitd "+group+`: unknown command "frob"`) {
			t.Errorf("%s frob: exit %d, %q", group, code, stderr)
		}
		if code, _, stderr := runCLI(t, "", group, "list", "-h"); code != 0 || !strings.Contains(stderr, "usage: unitd "+group+" list [--store FILE|URL]") {
			t.Errorf("%s list -h: exit %d, %q", group, code, stderr)
		}
	}
}
