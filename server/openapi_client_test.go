package server

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	// The runtime package of the clients oapi-codegen writes: imported here
	// so that go.mod pins the version the generated client builds against.
	_ "github.com/oapi-codegen/runtime"
)

// TestOpenAPIGeneratesAGoClient runs a real client generator over
// /openapi.json and compiles the client it writes. The generator is the
// version go.mod pins with a tool directive (go tool oapi-codegen), and
// the client is built as a package of this module through an overlay
// (nothing is written into the source tree), so the test needs no network
// beyond the module download every build does.
func TestOpenAPIGeneratesAGoClient(t *testing.T) {
	f := newFixture(t, nil)
	_, spec := f.do(t, f.request(t, "GET", "/openapi.json", "", "", ""))
	dir := t.TempDir()
	specFile, client := filepath.Join(dir, "openapi.json"), filepath.Join(dir, "client.go")
	if err := os.WriteFile(specFile, spec, 0o644); err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	overlay, err := json.Marshal(map[string]map[string]string{
		"Replace": {filepath.Join(root, "server", "internal", "openapiclient", "client.go"): client},
	})
	if err != nil {
		t.Fatal(err)
	}
	overlayFile := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(overlayFile, overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	goCmd := func(args ...string) {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=readonly")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	goCmd("tool", "oapi-codegen", "-generate", "types,client", "-package", "openapiclient", "-o", client, specFile)
	goCmd("build", "-overlay", overlayFile, "./server/internal/openapiclient")
}
