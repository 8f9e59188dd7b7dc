package main

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sensorCSV has what exports hold: a byte-order mark, quoted fields with
// commas, quotes and a line break, CR LF line ends, an empty cell, a bad
// value, a short row and a long one.
const sensorCSV = "\ufeffid,temp,unit,note\r\n" +
	"1,20,degC,\"a, b\"\r\n" +
	"2,abc,degC,\"say \"\"hi\"\"\"\r\n" +
	"3,,degC,\r\n" +
	"4,98.6,degF,\"two\r\nlines\"\r\n" +
	"5, 10 ,fet,y\r\n" +
	"6,1\r\n" +
	"7,-40,degF,x,extra\r\n"

// TestConvertCSV: the converted column is added as NAME_<to>; every other
// field comes out as it went in (re-quoted by RFC 4180); empty cells stay
// empty; bad cells are left empty and reported with their line; the exit
// status is 1 when any was bad.
func TestConvertCSV(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sensors.csv")
	if err := os.WriteFile(path, []byte(sensorCSV), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "", "convert", "--csv", path, "--column", "temp", "--from-column", "unit", "--to", "K")
	wantOut := "id,temp,unit,note,temp_K\n" +
		"1,20,degC,\"a, b\",293.15\n" +
		"2,abc,degC,\"say \"\"hi\"\"\",\n" +
		"3,,degC,,\n" +
		"4,98.6,degF,\"two\nlines\",310.15\n" + // encoding/csv reads a quoted CR LF as LF
		"5,\" 10 \",fet,y,\n" + // a leading space is quoted
		"6,1,,,\n" +
		"7,-40,degF,x,233.15,extra\n"
	wantErr := "line 3: column \"temp\": INVALID_VALUE value \"abc\" is not a decimal number (expected digits, optional fraction and exponent, e.g. 12.5 or 1.5e3)\n" +
		"line 7: column \"temp\": UNKNOWN_UNIT unknown unit \"fet\"; did you mean ET, Et, fT, ft, feV?\n" +
		"line 8: 2 fields, the header has 4\n" +
		"line 8: column \"temp\": no unit in column \"unit\"\n" +
		"line 9: 5 fields, the header has 4\n"
	if code != 1 || stdout != wantOut || stderr != wantErr {
		t.Errorf("exit %d\nstdout:\n%s\nwant:\n%s\nstderr:\n%s\nwant:\n%s", code, stdout, wantOut, stderr, wantErr)
	}
	// What it writes is CSV with the header's width and one more.
	records, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if err == nil && len(records) != 8 {
		err = fmt.Errorf("%d records", len(records))
	}
	if err != nil && !strings.Contains(err.Error(), "wrong number of fields") {
		t.Errorf("output is not CSV: %v", err)
	}
}

// TestConvertCSVStdin: "-" reads stdin; one unit for every row with
// --from; the precision applies; a clean file exits 0.
func TestConvertCSVStdin(t *testing.T) {
	in := "when,distance\n2026-01-01,1\n2026-01-02,\"2.5\"\n2026-01-03,1e3\n"
	code, stdout, stderr := runCLI(t, in, "convert", "--csv", "-", "--column", "distance", "--from", "mi", "--to", "km", "--precision", "5")
	want := "when,distance,distance_km\n2026-01-01,1,1.6093\n2026-01-02,2.5,4.0234\n2026-01-03,1e3,1609.3\n"
	if code != 0 || stdout != want || stderr != "" {
		t.Errorf("exit %d\n%s\nwant\n%s\nstderr %q", code, stdout, want, stderr)
	}
}

// TestConvertCSVRefusals: what cannot work is refused before any row,
// with exit 2: missing flags, unknown or repeated columns, a wrong unit,
// an empty file, a column that is there already; a quote out of place
// stops the file where it is, with exit 1.
func TestConvertCSVRefusals(t *testing.T) {
	for _, tc := range []struct {
		name, stdin string
		args        []string
		code        int
		stderr      string
	}{
		{"no column", "a\n1\n", []string{"--csv", "-", "--from", "m", "--to", "ft"}, 2, "--csv needs --column NAME"},
		{"no to", "a\n1\n", []string{"--csv", "-", "--column", "a", "--from", "m"}, 2, "--csv needs --to UNIT"},
		{"no from", "a\n1\n", []string{"--csv", "-", "--column", "a", "--to", "m"}, 2, "either --from UNIT or --from-column NAME"},
		{"both froms", "a\n1\n", []string{"--csv", "-", "--column", "a", "--from", "m", "--from-column", "a", "--to", "m"}, 2, "either --from UNIT or --from-column NAME"},
		{"positional", "a\n1\n", []string{"--csv", "-", "--column", "a", "--from", "m", "--to", "ft", "1", "m", "ft"}, 2, "--csv takes no VALUE FROM TO"},
		{"without csv", "", []string{"--column", "a", "1", "m", "ft"}, 2, "go with --csv FILE"},
		{"unknown column", "a,b\n1,2\n", []string{"--csv", "-", "--column", "c", "--from", "m", "--to", "ft"}, 2, `no column "c" in the header (it has "a", "b")`},
		{"two columns", "a,a\n1,2\n", []string{"--csv", "-", "--column", "a", "--from", "m", "--to", "ft"}, 2, `two columns are named "a" (1 and 2)`},
		{"unknown unit", "a\n1\n", []string{"--csv", "-", "--column", "a", "--from", "m", "--to", "fet"}, 2, `UNKNOWN_UNIT unknown unit "fet"`},
		{"incompatible", "a\n1\n", []string{"--csv", "-", "--column", "a", "--from", "m", "--to", "s"}, 2, "INCOMPATIBLE_UNITS"},
		{"empty", "", []string{"--csv", "-", "--column", "a", "--from", "m", "--to", "ft"}, 2, "stdin has no header row"},
		{"column there", "a,a_ft\n1,2\n", []string{"--csv", "-", "--column", "a", "--from", "m", "--to", "ft"}, 2, `already has a column "a_ft"`},
		{"missing file", "", []string{"--csv", "/nonexistent/x.csv", "--column", "a", "--from", "m", "--to", "ft"}, 2, "no such file"},
		{"bare quote", "a,b\n1,x\"y\n2,z\n", []string{"--csv", "-", "--column", "a", "--from", "m", "--to", "ft"}, 1, `bare " in non-quoted-field; stopped there`},
	} {
		code, _, stderr := runCLI(t, tc.stdin, append([]string{"convert"}, tc.args...)...)
		if code != tc.code || !strings.Contains(stderr, tc.stderr) {
			t.Errorf("%s: exit %d, stderr %q; want %d and %q", tc.name, code, stderr, tc.code, tc.stderr)
		}
	}
}
