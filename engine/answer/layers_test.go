package answer_test

import (
	"errors"
	"go/build"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// module is the module's import path, with its slash.
const module = "github.com/unitd/unitd/"

// imports lists the packages of the module that the package in the
// directory dir (relative to the module's root) imports, directly or
// through others, reading their sources (go/build) so that the test
// cache sees every file it depends on. Tests are left out.
func imports(t *testing.T, root, dir string, direct bool) []string {
	t.Helper()
	seen := map[string]bool{}
	var walk func(dir string)
	walk = func(dir string) {
		p, err := build.ImportDir(filepath.Join(root, dir), 0)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		for _, imp := range p.Imports {
			rest, ok := strings.CutPrefix(imp, module)
			if !ok || seen[rest] {
				continue
			}
			seen[rest] = true
			if !direct {
				walk(rest)
			}
		}
	}
	walk(dir)
	var out []string
	for p := range seen {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// importers lists the packages of the module (directories relative to
// root) that import the package pkg, directly.
func importers(t *testing.T, root, pkg string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		name := d.Name()
		if path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "node_modules") {
			return filepath.SkipDir
		}
		p, err := build.ImportDir(path, 0)
		if err != nil {
			var none *build.NoGoError
			if errors.As(err, &none) {
				return nil
			}
			return err
		}
		if slices.Contains(p.Imports, module+pkg) {
			rel, _ := filepath.Rel(root, path)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestLayers: a request goes down the layers once. The adapters (server,
// cmd/unitd) call this package, and only they do; they read no free text
// of their own; it calls engine/text, the engine and locale, and reaches
// no adapter.
func TestLayers(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	const self = "engine/answer"

	// Above: the adapters call it, nothing else does (no package of the
	// engine calls back up to it), and they read no free text of their
	// own.
	if got, want := importers(t, root, self), []string{"cmd/unitd", "server"}; !slices.Equal(got, want) {
		t.Errorf("%s is imported by %v, want %v", self, got, want)
	}
	for _, adapter := range []string{"server", "cmd/unitd", "web"} {
		if slices.Contains(imports(t, root, adapter, true), "engine/text") {
			t.Errorf("%s imports engine/text: free text is read through %s", adapter, self)
		}
	}

	// The package: no adapter, and down into the engine, its free-text
	// reader and locale.
	deps := imports(t, root, self, false)
	for _, dep := range deps {
		top, _, _ := strings.Cut(dep, "/")
		switch top {
		case "server", "cmd", "web", "client", "catalog", "account", "accountunits", "apikey", "store", "tools":
			t.Errorf("%s depends on the adapter %s", self, dep)
		}
	}
	for _, want := range []string{"engine", "engine/text", "locale"} {
		if !slices.Contains(deps, want) {
			t.Errorf("%s does not call %s (its imports: %v)", self, want, deps)
		}
	}

	// Below: what it calls does not depend on it (go list -deps of each
	// names no engine/answer). The compiler refuses that as a cycle too;
	// the check says which layer called back up.
	for _, below := range []string{"engine", "engine/text", "locale"} {
		if slices.Contains(imports(t, root, below, false), self) {
			t.Errorf("%s depends on %s: a layer below calls back up", below, self)
		}
	}
}
