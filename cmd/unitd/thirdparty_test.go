package main

import (
	"bytes"
	"encoding/json"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// apdRelease is the release of cockroachdb/apd that third_party/apd
// patches, and the hash of its module zip that go.sum pinned before the
// replacement.
const (
	apdModule  = "github.com/cockroachdb/apd/v3"
	apdRelease = "v3.2.3"
	apdSum     = "h1:4Zx+I3R35bFXMnltzmjP79i2cravE4jTRL6ps9Aux80="
)

// TestPatchedApd: third_party/apd is apd's release as the module proxy
// serves it, file for file once both are laid out by gofmt (as every Go
// file of the repository is), but for const.go (third_party/README.md says
// what changed and why), and the release's own tests pass on it: among
// them the General Decimal Arithmetic suite of ln, log10, exp and power,
// which read the constants the change builds on first use.
func TestPatchedApd(t *testing.T) {
	tmp := t.TempDir()
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GONOSUMDB="+apdModule, "CGO_ENABLED=0")
	download := exec.Command("go", "mod", "download", "-json", apdModule+"@"+apdRelease)
	download.Dir, download.Env = tmp, env
	out, err := download.Output()
	if err != nil {
		t.Fatalf("go mod download %s@%s: %v\n%s", apdModule, apdRelease, err, out)
	}
	var mod struct{ Dir, Sum, Error string }
	if err := json.Unmarshal(out, &mod); err != nil || mod.Error != "" {
		t.Fatalf("go mod download: %v %s", err, mod.Error)
	}
	if mod.Sum != apdSum {
		t.Fatalf("the module proxy's %s@%s hashes to %s, go.sum pinned %s", apdModule, apdRelease, mod.Sum, apdSum)
	}

	fork := filepath.Join("..", "..", "third_party", "apd")
	released, err := os.ReadDir(mod.Dir)
	if err != nil {
		t.Fatal(err)
	}
	sources := map[string]bool{}
	for _, e := range released {
		name := e.Name()
		if e.IsDir() || strings.HasSuffix(name, "_test.go") || !strings.HasSuffix(name, ".go") && name != "LICENSE" {
			continue
		}
		sources[name] = true
		want, err := os.ReadFile(filepath.Join(mod.Dir, name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(fork, name))
		switch {
		case err != nil:
			t.Errorf("third_party/apd lacks the release's %s: %v", name, err)
		case name == "const.go":
			if bytes.Equal(got, want) {
				t.Errorf("third_party/apd/const.go is the release's: the patch is gone (drop the replace directive too)")
			}
		case !bytes.Equal(formatted(t, name, got), formatted(t, name, want)):
			t.Errorf("third_party/apd/%s differs from the release's", name)
		}
	}
	kept, err := os.ReadDir(fork)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range kept {
		if name := e.Name(); !sources[name] && name != "go.mod" {
			t.Errorf("third_party/apd/%s is not a source of the release", name)
		}
	}

	// The release's tests, but sql_test.go (database/sql through a
	// PostgreSQL driver, nothing of the change), on a copy of the fork.
	suite := filepath.Join(tmp, "apd")
	copyFiles(t, fork, suite, nil)
	copyFiles(t, mod.Dir, suite, func(name string) bool { return strings.HasSuffix(name, "_test.go") && name != "sql_test.go" })
	copyFiles(t, filepath.Join(mod.Dir, "testdata"), filepath.Join(suite, "testdata"), nil)
	test := exec.Command("go", "test", "-count=1", ".")
	test.Dir, test.Env = suite, env
	if out, err := test.CombinedOutput(); err != nil {
		t.Fatalf("the release's tests on third_party/apd: %v\n%s", err, out)
	}
}

// formatted is a Go file of name as gofmt lays it out, and any other
// file as it is.
func formatted(t *testing.T, name string, src []byte) []byte {
	t.Helper()
	if !strings.HasSuffix(name, ".go") {
		return src
	}
	out, err := format.Source(src)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return out
}
