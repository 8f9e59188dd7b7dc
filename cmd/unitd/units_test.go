package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnitsCommands defines, lists, refuses, exports and deletes an
// account's units with unitd units, and checks that the export is a
// catalog unitd validate, fmt and diff read.
func TestUnitsCommands(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "unitd.db")
	cli(t, "accounts", "create", "--store", db, "acme")
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	smoot := write("smoot.yaml", "category: length\nsymbol: smoot\nname: smoot\nplural: smoots\nsystem: MIT\n"+
		"definition: {factor: 1.7018, unit: m}\nexact: true\nsource: Oliver R. Smoot's height, Harvard Bridge, 1958\nexamples: [\"1 smoot = 1.7018 m\"]\n")
	deci := write("decismoot.json", `{"category": "length", "symbol": "decismoot", "name": "decismoot", "plural": "decismoots", "system": "MIT",
 "definition": {"factor": "0.1", "unit": "my:smoot"}, "exact": true, "source": "a tenth of a smoot", "examples": ["10 decismoot = 1 my:smoot"]}`)
	lap := write("lap.yaml", "category: {id: track, name: Track lengths, dimension: {L: 1}, si_factor: 400}\nsymbol: lap\nname: lap\nplural: laps\n"+
		"system: club\nexact: true\nsource: the club's 400 m track\n")
	bad := write("bad.yaml", "category: length\nsymbol: twom\nname: twom\nplural: twoms\nsystem: x\ndefinition: {factor: 2, unit: m}\nexact: true\nsource: x\nexamples: [\"1 twom = 3 m\"]\n")

	for _, f := range []string{smoot, deci, lap} {
		cli(t, "units", "put", "--store", db, "--account", "acme", f)
	}
	code, _, stderr := runCLI(t, "", "units", "put", "--store", db, "--account", "acme", bad)
	if code != 1 || !strings.Contains(stderr, "twom:9:") || !strings.Contains(stderr, "example") {
		t.Errorf("a wrong example: exit %d\n%s", code, stderr)
	}
	code, _, stderr = runCLI(t, "", "units", "put", "--store", db, "--account", "nosuch", smoot)
	if code != 1 || !strings.Contains(stderr, "nosuch") {
		t.Errorf("an unknown account: exit %d\n%s", code, stderr)
	}
	list := cli(t, "units", "list", "--store", db, "--account", "acme")
	for _, want := range []string{"my:smoot", "my:decismoot", "my:lap"} {
		if !strings.Contains(list, want) {
			t.Errorf("list lacks %s:\n%s", want, list)
		}
	}
	if js := cli(t, "units", "list", "--store", db, "--account", "acme", "--format", "json"); !strings.Contains(js, `"symbol": "decismoot"`) || !strings.Contains(js, `"format": "json"`) {
		t.Errorf("list as JSON:\n%s", js)
	}

	out := filepath.Join(dir, "export")
	cli(t, "units", "export", "--store", db, "--account", "acme", "--out", out)
	if code, stdout, stderr := runCLI(t, "", "validate", out); code != 0 {
		t.Errorf("validate of the export: exit %d\n%s%s", code, stdout, stderr)
	}
	if code, stdout, stderr := runCLI(t, "", "fmt", "-l", out); code != 0 || stdout != "" {
		t.Errorf("fmt -l of the export: exit %d\n%s%s", code, stdout, stderr)
	}
	length, err := os.ReadFile(filepath.Join(out, "length.yaml"))
	if err != nil || !strings.Contains(string(length), "symbol: decismoot") || strings.Contains(string(length), "my:") {
		t.Errorf("length.yaml of the export: %v\n%s", err, length)
	}
	if _, err := os.Stat(filepath.Join(out, "track.yaml")); err != nil {
		t.Errorf("the account's category: %v", err)
	}
	code, stdout, stderr := runCLI(t, "", "diff", "../../catalog/data", out)
	if code != 0 || !strings.Contains(stdout+stderr, "smoot") || !strings.Contains(stdout+stderr, "track") {
		t.Errorf("diff against the catalog: exit %d\n%s%s", code, stdout, stderr)
	}

	code, _, stderr = runCLI(t, "", "units", "delete", "--store", db, "--account", "acme", "smoot")
	if code != 1 || !strings.Contains(stderr, "smoot") {
		t.Errorf("delete of a unit decismoot needs: exit %d\n%s", code, stderr)
	}
	cli(t, "units", "delete", "--store", db, "--account", "acme", "my:decismoot")
	cli(t, "units", "delete", "--store", db, "--account", "acme", "smoot")
	if list := cli(t, "units", "list", "--store", db, "--account", "acme"); strings.Contains(list, "smoot") || !strings.Contains(list, "my:lap") {
		t.Errorf("after the deletes:\n%s", list)
	}
}
