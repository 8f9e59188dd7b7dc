package main

import (
	"fmt"
	"os"
	"os/exec"
	"path"
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

// TestLayoutIsTrue: the Layout of docs/development.md is the repository's:
// every path it names exists, every entry at the top of the repository is
// named, and every package of the module is named, under a directory
// whose packages the Layout lists one by one (engine/, tools/…) by one of
// those.
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
	l := parseLayout(block)
	if len(l.paths) < 20 {
		t.Fatalf("only %d paths read from the Layout: %q", len(l.paths), l.paths)
	}
	tracked := runFields(t, root, "git", "ls-files")
	var packages []string
	for _, dir := range runFields(t, root, "go", "list", "-f", "{{.Dir}}", "./...") {
		rel, err := filepath.Rel(root, dir)
		if err != nil {
			t.Fatal(err)
		}
		packages = append(packages, filepath.ToSlash(rel))
	}
	exists := func(p string) bool {
		_, err := os.Stat(filepath.Join(root, filepath.FromSlash(p)))
		return err == nil
	}
	for _, p := range l.problems(exists, tracked, packages) {
		t.Errorf("the Layout of docs/development.md: %s", p)
	}
}

// TestLayoutProblems: what TestLayoutIsTrue reports of a Layout that is
// not the repository's.
func TestLayoutProblems(t *testing.T) {
	l := parseLayout(`engine/     the core
  fault/           its errors
  internal/exact   its arithmetic
server/     the adapter
cmd/unitd/  the binary
tools/      the tools
  cldr/            the pin
  stage.sh, fuzz.sh  the scripts
            of make test
gone/       a package that was removed
`)
	if got := strings.Join(l.paths, " "); got != "engine engine/fault engine/internal/exact server cmd/unitd tools tools/cldr tools/stage.sh tools/fuzz.sh gone" {
		t.Fatalf("paths %s", got)
	}
	files := map[string]bool{}
	tracked := []string{"go.mod", "Makefile", ".ci/run", "y", "engine/a.go", "engine/fault/f.go", "server/s.go",
		"tools/cldr/c.go", "tools/stage.sh", "tools/fuzz.sh", "tools/new/n.go", "extra/e.go", "cmd/unitd/main.go"}
	for _, f := range tracked {
		for p := f; p != "."; p = path.Dir(p) {
			files[p] = true
		}
	}
	files["engine/internal/exact"] = true
	packages := []string{"engine", "engine/fault", "engine/internal/exact", "engine/unnamed", "server", "server/anything", "cmd/unitd", "tools/cldr", "tools/new", "extra"}
	got := l.problems(func(p string) bool { return files[p] }, tracked, packages)
	want := []string{
		`it names gone, which is not there`,
		`y is at the top of the repository, and it does not name it`,
		`extra is at the top of the repository, and it does not name it`,
		`the package engine/unnamed is under engine, whose packages it lists, and it does not name it`,
		`the package tools/new is under tools, whose packages it lists, and it does not name it`,
		`the package extra is under no path it names`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// layout is what the Layout section names.
type layout struct {
	paths []string // in the order named, without a trailing slash
	// parents are the paths whose packages are named one by one, on the
	// indented lines under them.
	parents map[string]bool
}

// parseLayout reads the block of the Layout section. A line names the
// path it starts with, or the paths joined by commas; an indented line
// names a path under the last unindented directory; a line indented
// further continues a description.
func parseLayout(block string) layout {
	l := layout{parents: map[string]bool{}}
	parent := ""
	for line := range strings.SplitSeq(block, "\n") {
		indented := strings.HasPrefix(line, "  ")
		if line == "" || strings.HasPrefix(line, "    ") {
			continue // a description's continuation
		}
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
				l.parents[strings.TrimSuffix(parent, "/")] = true
			} else if strings.HasSuffix(p, "/") {
				parent = p
			}
			l.paths = append(l.paths, strings.TrimSuffix(p, "/"))
		}
	}
	return l
}

// topFiles are the files at the top of the repository that the Layout
// need not name.
var topFiles = map[string]bool{"go.mod": true, "go.sum": true, "Makefile": true, "README.md": true, "SECURITY.md": true, ".gitignore": true}

// problems lists where l is not the repository whose files are tracked
// and whose packages are in packages (slash-separated, relative to the
// top), exists saying whether a path is there.
func (l layout) problems(exists func(string) bool, tracked, packages []string) []string {
	var out []string
	named := map[string]bool{} // the paths named, and the directories above them
	for _, p := range l.paths {
		for q := p; q != "."; q = path.Dir(q) {
			named[q] = true
		}
		if !exists(p) {
			out = append(out, fmt.Sprintf("it names %s, which is not there", p))
		}
	}
	seen := map[string]bool{}
	for _, f := range tracked {
		top, _, _ := strings.Cut(f, "/")
		if seen[top] || strings.HasPrefix(top, ".") || topFiles[top] || named[top] {
			continue
		}
		seen[top] = true
		out = append(out, fmt.Sprintf("%s is at the top of the repository, and it does not name it", top))
	}
	for _, pkg := range packages {
		// The longest path named that holds the package.
		best := ""
		for _, p := range l.paths {
			if (pkg == p || strings.HasPrefix(pkg, p+"/")) && len(p) > len(best) {
				best = p
			}
		}
		switch {
		case best == "":
			out = append(out, fmt.Sprintf("the package %s is under no path it names", pkg))
		case best != pkg && l.parents[best]:
			out = append(out, fmt.Sprintf("the package %s is under %s, whose packages it lists, and it does not name it", pkg, best))
		}
	}
	return out
}

// runFields runs a command in dir and returns the fields of its output.
func runFields(t *testing.T, dir, name string, args ...string) []string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
	}
	return strings.Fields(string(out))
}
