package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFmtCommand(t *testing.T) {
	dir := t.TempDir()
	messy := "units:\n- symbol: m\n  name: 'metre'\ncategory: {id: length}\n"
	tidy := "category:\n  id: length\n\nunits:\n  - symbol: m\n    name: metre\n"
	files := map[string]string{"a.yaml": messy, "b.yaml": tidy}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	a := filepath.Join(dir, "a.yaml")

	if code, stdout, _ := runCLI(t, "", "fmt", a); code != 0 || stdout != tidy {
		t.Errorf("fmt FILE = %d, %q; want 0 and the formatted file", code, stdout)
	}
	if code, stdout, _ := runCLI(t, "", "fmt", "-l", dir); code != 1 || stdout != a+"\n" {
		t.Errorf("fmt -l = %d, %q; want 1 listing %s", code, stdout, a)
	}
	wantDiff := "--- a/" + a + "\n+++ b/" + a + "\n@@ -1,4 +1,6 @@\n" +
		"+category:\n+  id: length\n+\n units:\n" +
		"-- symbol: m\n-  name: 'metre'\n-category: {id: length}\n" +
		"+  - symbol: m\n+    name: metre\n"
	if code, stdout, _ := runCLI(t, "", "fmt", "-d", dir); code != 1 || stdout != wantDiff {
		t.Errorf("fmt -d = %d,\n%s\nwant 1 and\n%s", code, stdout, wantDiff)
	}
	if data, _ := os.ReadFile(a); string(data) != messy {
		t.Error("fmt -l changed a file")
	}
	if code, stdout, stderr := runCLI(t, "", "fmt", "-w", dir); code != 0 || stdout != "" {
		t.Errorf("fmt -w = %d, %q, %q", code, stdout, stderr)
	}
	if data, _ := os.ReadFile(a); string(data) != tidy {
		t.Errorf("fmt -w wrote %q, want %q", data, tidy)
	}
	if st, _ := os.Stat(a); st.Mode().Perm() != 0o600 {
		t.Errorf("fmt -w changed the mode to %v", st.Mode())
	}
	if code, stdout, _ := runCLI(t, "", "fmt", "-l", dir); code != 0 || stdout != "" {
		t.Errorf("fmt -l after -w = %d, %q; want 0, nothing", code, stdout)
	}
	if err := os.WriteFile(filepath.Join(dir, "c.yaml"), []byte("a: ["), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "", "fmt", "-l", dir); code != 2 || !strings.Contains(stderr, "c.yaml") {
		t.Errorf("fmt -l on broken YAML = %d, %q; want 2 naming the file", code, stderr)
	}
	if code, _, _ := runCLI(t, "", "fmt", filepath.Join(dir, "missing")); code != 2 {
		t.Errorf("fmt on a missing path = %d, want 2", code)
	}
}

func TestDocsCommand(t *testing.T) {
	fx := "../../catalog/docs/testdata/"
	want, err := os.ReadFile(fx + "want.md")
	if err != nil {
		t.Fatal(err)
	}
	if code, stdout, stderr := runCLI(t, "", "docs", fx+"catalog"); code != 0 || stdout != string(want) {
		t.Errorf("docs DIR = %d, stderr %q; output differs from %swant.md", code, stderr, fx)
	}
	out := filepath.Join(t.TempDir(), "units.md")
	if code, stdout, _ := runCLI(t, "", "docs", fx+"catalog", "--out", out); code != 0 || stdout != "" {
		t.Errorf("docs --out = %d, %q", code, stdout)
	}
	if got, _ := os.ReadFile(out); string(got) != string(want) {
		t.Error("docs --out wrote something else")
	}
	if code, _, stderr := runCLI(t, "", "docs", "../../catalog/testdata"); code != 1 || !strings.Contains(stderr, "does not load") {
		t.Errorf("docs on a broken catalog = %d, %q", code, stderr)
	}
}

func TestValidateLint(t *testing.T) {
	dir := "../../catalog/lint/testdata/no-examples/trips"
	finding := `length.yaml:17:5: unit "ft" has no examples; add one worked example from its source [no-examples]`
	code, stdout, _ := runCLI(t, "", "validate", dir)
	if code != 0 || !strings.Contains(stdout, strings.Replace(finding, ": unit", ": warning: unit", 1)) ||
		!strings.Contains(stdout, "SUCCESS: "+dir+": 1 categories, 2 units, 1 warning(s)") {
		t.Errorf("validate = %d\n%s\nwant 0, the warning and SUCCESS", code, stdout)
	}
	code, stdout, _ = runCLI(t, "", "validate", "--strict", dir)
	if code != 1 || !strings.Contains(stdout, finding+"\n") || !strings.Contains(stdout, "FAILED: "+dir+": 1 problem(s)") {
		t.Errorf("validate --strict = %d\n%s\nwant 1 and the finding as a problem", code, stdout)
	}
	code, stdout, _ = runCLI(t, "", "validate", dir, "--format", "github")
	if code != 0 || !strings.Contains(stdout, "::warning file="+filepath.Join(dir, "length.yaml")+",line=17,col=5::unit \"ft\" has no examples") {
		t.Errorf("validate --format github = %d\n%s", code, stdout)
	}
	code, stdout, _ = runCLI(t, "", "validate", dir, "--format", "json", "--strict")
	if code != 1 || !strings.Contains(stdout, `"rule": "no-examples"`) {
		t.Errorf("validate --format json --strict = %d\n%s", code, stdout)
	}
	// A near miss stays quiet even when strict.
	if code, stdout, _ := runCLI(t, "", "validate", "--strict", "../../catalog/lint/testdata/no-examples/passes"); code != 0 || strings.Contains(stdout, "warning") {
		t.Errorf("validate --strict on a clean catalog = %d\n%s", code, stdout)
	}
}
