package race

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const importPath = "github.com/unitd/unitd/internal/race"

// TestEveryShrunkTestRunsInFull: every test of the module that reads
// Enabled (and so checks a smaller sample under the race detector) is
// named by the Makefile's FULLSIZE_RUN, its package is in FULLSIZE_PKGS,
// and make test runs them; FULLSIZE_RUN and FULLSIZE_PKGS name nothing
// else.
func TestEveryShrunkTestRunsInFull(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	makefile, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	pkgs, names, problems := fullSize(string(makefile))
	for _, p := range problems {
		t.Error("Makefile: " + p)
	}
	shrunk := shrunkTests(t, root)
	if len(shrunk) == 0 {
		t.Fatal("no test reads race.Enabled; the search lost them")
	}
	seenPkgs, seenNames := map[string]bool{}, map[string]bool{}
	for _, s := range shrunk {
		if s.test == "" {
			t.Errorf("%s reads race.Enabled outside a Test function: read it in the test, so that FULLSIZE_RUN can name it", s.pos)
			continue
		}
		seenPkgs[s.pkg], seenNames[s.test] = true, true
		if !slices.Contains(pkgs, s.pkg) {
			t.Errorf("%s: %s reads race.Enabled, but FULLSIZE_PKGS lacks %s", s.pos, s.test, s.pkg)
		}
		if !slices.Contains(names, s.test) {
			t.Errorf("%s: %s reads race.Enabled, but FULLSIZE_RUN does not name it", s.pos, s.test)
		}
	}
	for _, p := range pkgs {
		if !seenPkgs[p] {
			t.Errorf("FULLSIZE_PKGS names %s, which has no test that reads race.Enabled", p)
		}
	}
	for _, n := range names {
		if !seenNames[n] {
			t.Errorf("FULLSIZE_RUN names %s, which no test that reads race.Enabled is", n)
		}
	}
}

// TestFullSizeProblems: what fullSize reports of Makefiles that do not run
// the tests in full.
func TestFullSizeProblems(t *testing.T) {
	good := "FULLSIZE_PKGS := ./a ./b/c\nFULLSIZE_RUN := ^(TestA|TestB)$$\n" +
		"test:\n\t$(GO) test -count=1 -run '$(FULLSIZE_RUN)' $(FULLSIZE_PKGS)\n"
	pkgs, names, problems := fullSize(good)
	if !slices.Equal(pkgs, []string{"./a", "./b/c"}) || !slices.Equal(names, []string{"TestA", "TestB"}) || len(problems) != 0 {
		t.Errorf("fullSize(good) = %q, %q, %q", pkgs, names, problems)
	}
	for _, bad := range []string{
		"FULLSIZE_RUN := ^(TestA)$$\ntest:\n\t$(GO) test -run '$(FULLSIZE_RUN)' $(FULLSIZE_PKGS)\n",                  // no packages
		"FULLSIZE_PKGS := ./a\nFULLSIZE_RUN := TestA\ntest:\n\t$(GO) test -run '$(FULLSIZE_RUN)' $(FULLSIZE_PKGS)\n", // not ^(…)$
		"FULLSIZE_PKGS := ./a\nFULLSIZE_RUN := ^(TestA)$$\ntest:\n\t$(GO) vet $(FULLSIZE_PKGS)\n",                    // never run
	} {
		if _, _, problems := fullSize(bad); len(problems) == 0 {
			t.Errorf("fullSize(%q) found nothing wrong", bad)
		}
	}
}

// fullSize reads FULLSIZE_PKGS (package patterns) and FULLSIZE_RUN (a go
// test -run pattern ^(TestA|TestB)$, as make writes it: $$ for $) of a
// Makefile, and checks that a recipe runs go test with both.
func fullSize(makefile string) (pkgs, names, problems []string) {
	vars := map[string]string{}
	ran := false
	for line := range strings.SplitSeq(makefile, "\n") {
		if name, value, ok := strings.Cut(line, ":="); ok && !strings.ContainsAny(strings.TrimSpace(name), " \t$") {
			vars[strings.TrimSpace(name)] = strings.TrimSpace(value)
		}
		if strings.Contains(line, " test ") && strings.Contains(line, "-run '$(FULLSIZE_RUN)' $(FULLSIZE_PKGS)") {
			ran = true
		}
	}
	pkgs = strings.Fields(vars["FULLSIZE_PKGS"])
	if len(pkgs) == 0 {
		problems = append(problems, "no FULLSIZE_PKGS")
	}
	m := regexp.MustCompile(`^\^\(([A-Za-z0-9_|]+)\)\$\$$`).FindStringSubmatch(vars["FULLSIZE_RUN"])
	if m == nil {
		problems = append(problems, "FULLSIZE_RUN is not ^(TestA|TestB|…)$$: "+strconv.Quote(vars["FULLSIZE_RUN"]))
	} else {
		names = strings.Split(m[1], "|")
	}
	if !ran {
		problems = append(problems, "no recipe runs go test -run '$(FULLSIZE_RUN)' $(FULLSIZE_PKGS)")
	}
	return pkgs, names, problems
}

// shrunk is one read of Enabled in a test file: where, the package
// directory as a pattern (./engine), and the Test function that reads it
// ("" when none does).
type shrunk struct {
	pos       string
	pkg, test string
}

// shrunkTests finds every read of this package's Enabled in the module's
// test files.
func shrunkTests(t *testing.T, root string) []shrunk {
	t.Helper()
	var found []shrunk
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "testdata") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil && path != root {
				return filepath.SkipDir // another module (deploy/check)
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		local := ""
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == importPath {
				local = "race"
				if imp.Name != nil {
					local = imp.Name.Name
				}
			}
		}
		if local == "" {
			return nil
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		pkg := "./" + filepath.ToSlash(rel)
		for _, decl := range f.Decls {
			test := ""
			if fn, ok := decl.(*ast.FuncDecl); ok && fn.Recv == nil && strings.HasPrefix(fn.Name.Name, "Test") {
				test = fn.Name.Name
			}
			ast.Inspect(decl, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "Enabled" {
					if x, ok := sel.X.(*ast.Ident); ok && x.Name == local {
						found = append(found, shrunk{pos: fset.Position(sel.Pos()).String(), pkg: pkg, test: test})
					}
				}
				return true
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}
