package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDomainImportsNoAdapter: the domain packages depend on no adapter.
// The conversion engine knows nothing of YAML, HTTP, SQL or accounts; the
// API-key and account domains know nothing of HTTP, SQL or the engine; the
// SQL store adapts the account domain and nothing else; the helpers of
// internal/ know no domain at all.
func TestDomainImportsNoAdapter(t *testing.T) {
	const mod = "github.com/unitd/unitd/"
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		pkg    string
		banned []string
	}{
		{"./engine/...", []string{"server", "web", "catalog", "account", "apikey", "store", "cmd", "tools"}},
		{"./apikey/...", []string{"server", "web", "catalog", "account", "store", "engine", "cmd", "tools"}},
		{"./account/...", []string{"server", "web", "catalog", "store", "engine", "cmd", "tools"}},
		{"./store/...", []string{"server", "web", "catalog", "engine", "cmd", "tools"}},
		// The helpers of internal/ serve the packages above them and know
		// none: the password worker computes Argon2id keys, not accounts'.
		{"./internal/...", []string{"server", "web", "catalog", "account", "apikey", "store", "engine", "locale", "client", "cmd", "tools"}},
	} {
		cmd := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", tt.pkg)
		cmd.Dir = root
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", tt.pkg, err)
		}
		seen := 0
		for dep := range strings.FieldsSeq(string(out)) {
			rest, ok := strings.CutPrefix(dep, mod)
			if !ok {
				continue
			}
			seen++
			top, _, _ := strings.Cut(rest, "/")
			for _, b := range tt.banned {
				if top == b {
					t.Errorf("%s depends on %s", tt.pkg, dep)
				}
			}
		}
		if seen == 0 {
			t.Errorf("go list -deps %s listed no package of the module", tt.pkg)
		}
	}
}

// TestLayoutIsTrue: every path the Layout of docs/development.md names
// exists, and every package of the module is under one it names.
func TestLayoutIsTrue(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join(root, "docs", "development.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "## Layout")
	if !ok {
		t.Fatal("docs/development.md has no Layout section")
	}
	_, block, _ := strings.Cut(rest, "```\n")
	block, _, _ = strings.Cut(block, "```")
	var named []string
	parent := ""
	for line := range strings.SplitSeq(block, "\n") {
		indented := strings.HasPrefix(line, "  ")
		if line == "" || strings.HasPrefix(line, "    ") {
			continue // a description's continuation
		}
		// The paths a line starts with: one, or a list joined by commas.
		var paths []string
		for _, f := range strings.Fields(line) {
			paths = append(paths, strings.TrimSuffix(f, ","))
			if !strings.HasSuffix(f, ",") {
				break
			}
		}
		for _, p := range paths {
			if !strings.Contains(p, "/") && !strings.Contains(p, ".") {
				continue
			}
			if indented {
				p = parent + p
			} else if strings.HasSuffix(p, "/") {
				parent = p
			}
			named = append(named, strings.TrimSuffix(p, "/"))
			if _, err := os.Stat(filepath.Join(root, p)); err != nil {
				t.Errorf("the Layout names %s: %v", p, err)
			}
		}
	}
	if len(named) < 20 {
		t.Fatalf("only %d paths read from the Layout: %q", len(named), named)
	}
	cmd := exec.Command("go", "list", "-f", "{{.Dir}}", "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for dir := range strings.FieldsSeq(string(out)) {
		rel, err := filepath.Rel(root, dir)
		if err != nil {
			t.Fatal(err)
		}
		covered := false
		for _, p := range named {
			if rel == p || strings.HasPrefix(rel, p+"/") {
				covered = true
			}
		}
		if !covered {
			t.Errorf("the Layout of docs/development.md does not name the package %s", rel)
		}
	}
}
