package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDomainImportsNoAdapter: the domain packages depend on no adapter.
// The conversion engine knows nothing of YAML, HTTP, SQL or accounts; the
// API-key and account domains know nothing of HTTP, SQL or the engine; the
// SQL store adapts the account domain and nothing else.
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
