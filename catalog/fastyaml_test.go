package catalog

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestFastYAMLMatchesPlain decodes the shipped catalog and every fixture
// of testdata/errors with the gate of the fast YAML parser open and
// closed: the specs, and the errors, are the same.
func TestFastYAMLMatchesPlain(t *testing.T) {
	defer func(open bool) { fastYAML = open }(fastYAML)
	decode := func(fsys fs.FS, open bool) (any, []string) {
		fastYAML = open
		spec, errs, complete := loadSpec(fsys, nil)
		msgs := make([]string, len(errs))
		for i, err := range errs {
			msgs[i] = err.Error()
		}
		return struct {
			Spec     any
			Complete bool
		}{spec, complete}, msgs
	}
	catalogs := map[string]fs.FS{"the shipped catalog": Embedded()}
	paths, err := filepath.Glob("testdata/errors/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, path := range paths {
		catalogs[path] = readFixture(t, path).files
	}
	for name, fsys := range catalogs {
		fast, fastErrs := decode(fsys, true)
		plain, plainErrs := decode(fsys, false)
		if !reflect.DeepEqual(fast, plain) {
			t.Errorf("%s: the decoded catalogs differ", name)
		}
		if !reflect.DeepEqual(fastErrs, plainErrs) {
			t.Errorf("%s: errors\n  fast:  %q\n  plain: %q", name, fastErrs, plainErrs)
		}
	}
}

// TestCommentsAreNotRead checks why the fast YAML parser may leave
// comments out of its trees: no code of the package reads a node's
// comments, and the one file that encodes YAML (writing comments back)
// encodes trees of its own yaml.Unmarshal, not parseYAML's.
func TestCommentsAreNotRead(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	files := 0
	for _, pkg := range pkgs {
		for name, file := range pkg.Files {
			files++
			var encodes, parses bool
			ast.Inspect(file, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.SelectorExpr:
					switch n.Sel.Name {
					case "HeadComment", "LineComment", "FootComment":
						t.Errorf("%s: reads a node's %s", fset.Position(n.Pos()), n.Sel.Name)
					case "NewEncoder", "Marshal":
						if x, ok := n.X.(*ast.Ident); ok && x.Name == "yaml" {
							encodes = true
						}
					}
				case *ast.Ident:
					if n.Name == "parseYAML" {
						parses = true
					}
				}
				return true
			})
			if encodes && parses {
				t.Errorf("%s: encodes YAML and reads parseYAML's trees, whose comments the fast parser leaves out", name)
			}
		}
	}
	if files < 10 {
		t.Fatalf("only %d files read", files)
	}
}
