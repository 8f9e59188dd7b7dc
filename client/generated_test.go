package client_test

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	// The runtime package of the clients oapi-codegen writes: imported here
	// so that go.mod pins the version the generated client builds against.
	_ "github.com/oapi-codegen/runtime"
)

// The tests of this file check that unitd's /openapi.json makes typed
// clients that compile and call every operation with no hand edit: one Go
// client written by oapi-codegen and one TypeScript client of
// openapi-typescript's types and openapi-fetch. Each is generated from the
// live document, compiled, and run against a live server, which records the
// operations it answered; every operation of the document must have been
// answered with 200.

// TestGeneratedGoClient generates the Go client with the oapi-codegen that
// go.mod pins (a tool directive) and the configuration in
// testdata/oapi-codegen.yaml, lays it and testdata/oapigo/calls_test.go
// into client/internal/unitdapi through a build overlay (nothing is written
// into the source tree), and runs that test against the server.
func TestGeneratedGoClient(t *testing.T) {
	ops := &operations{}
	s := startServer(t, ops.wrap)
	spec := ops.load(t, s.URL)
	dir := t.TempDir()
	specFile, generated := filepath.Join(dir, "openapi.json"), filepath.Join(dir, "unitdapi.gen.go")
	if err := os.WriteFile(specFile, spec, 0o644); err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	calls, err := filepath.Abs(filepath.Join("testdata", "oapigo", "calls_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	pkg := filepath.Join(root, "client", "internal", "unitdapi")
	overlay, err := json.Marshal(map[string]map[string]string{"Replace": {
		filepath.Join(pkg, "unitdapi.gen.go"): generated,
		filepath.Join(pkg, "calls_test.go"):   calls,
	}})
	if err != nil {
		t.Fatal(err)
	}
	overlayFile := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(overlayFile, overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(env []string, name string, args ...string) {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), append(env, "GOFLAGS=-mod=readonly")...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
	}
	run(nil, "go", "tool", "oapi-codegen", "-config", filepath.Join("client", "testdata", "oapi-codegen.yaml"), "-o", generated, specFile)
	// Built, then run from here: the package's directory exists only in
	// the overlay, and a test binary starts in its package's directory.
	test := filepath.Join(dir, "unitdapi.test")
	run(nil, "go", "test", "-c", "-vet=off", "-overlay", overlayFile, "-o", test, "./client/internal/unitdapi")
	ops.reset()
	run([]string{"UNITD_URL=" + s.URL, "UNITD_KEY=" + s.Key}, test)
	ops.check(t)
}

// TestGeneratedTypeScriptClient generates TypeScript types from the live
// /openapi.json with openapi-typescript, compiles testdata/typescript/calls.ts
// with tsc in strict mode, and runs it with node against the server. Node and
// the npm packages of testdata/typescript (package-lock.json) are installed
// by tools/test-deps.sh; without them the test fails.
func TestGeneratedTypeScriptClient(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is needed for the TypeScript client (tools/test-deps.sh installs it): %v", err)
	}
	pkg, err := filepath.Abs(filepath.Join("testdata", "typescript"))
	if err != nil {
		t.Fatal(err)
	}
	modules := filepath.Join(pkg, "node_modules")
	generator := filepath.Join(modules, "openapi-typescript", "bin", "cli.js")
	tsc := filepath.Join(modules, "typescript", "bin", "tsc")
	for _, f := range []string{generator, tsc, filepath.Join(modules, "openapi-fetch", "package.json"), filepath.Join(modules, "@types", "node", "package.json")} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("the npm packages of client/testdata/typescript are missing (tools/test-deps.sh runs npm ci there): %v", err)
		}
	}
	ops := &operations{}
	s := startServer(t, ops.wrap)
	ops.load(t, s.URL)

	// A work directory beside nothing of the source tree: the program,
	// its configuration, the generated types, and a link to the packages.
	work := t.TempDir()
	for _, name := range []string{"calls.ts", "tsconfig.json", "package.json"} {
		b, err := os.ReadFile(filepath.Join(pkg, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(work, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(modules, filepath.Join(work, "node_modules")); err != nil {
		t.Fatal(err)
	}
	run := func(env []string, args ...string) string {
		t.Helper()
		cmd := exec.Command(node, args...)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("node %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	// api.ts rather than api.d.ts: tsc checks the generated types as well
	// (skipLibCheck skips declaration files).
	run(nil, generator, s.URL+"/openapi.json", "-o", "api.ts")
	run(nil, tsc, "-p", ".")
	ops.reset()
	if out := run([]string{"UNITD_URL=" + s.URL, "UNITD_KEY=" + s.Key}, filepath.Join("out", "calls.js")); !strings.Contains(out, "every operation answered") {
		t.Errorf("calls.js said: %s", out)
	}
	ops.check(t)
}

// operations records which operations of the OpenAPI document a server
// answered with 200.
type operations struct {
	mu       sync.Mutex
	all      []operation
	answered map[string]bool // by operationId
}

type operation struct {
	id, method string
	path       *regexp.Regexp
}

// wrap records the operation of every request h answers with 200.
func (o *operations) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := &statusWriter{ResponseWriter: w}
		h.ServeHTTP(sw, r)
		if sw.status != http.StatusOK {
			return
		}
		o.mu.Lock()
		defer o.mu.Unlock()
		for _, op := range o.all {
			if op.method == r.Method && op.path.MatchString(r.URL.EscapedPath()) {
				o.answered[op.id] = true
			}
		}
	})
}

// load reads the operations of the server's /openapi.json and returns the
// document.
func (o *operations) load(t *testing.T, base string) []byte {
	t.Helper()
	resp, err := http.Get(base + "/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	spec, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /openapi.json: %d %v", resp.StatusCode, err)
	}
	var doc struct {
		Paths map[string]map[string]struct {
			OperationID string `json:"operationId"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(spec, &doc); err != nil {
		t.Fatal(err)
	}
	param := regexp.MustCompile(`\\\{[^}]+\\\}`)
	o.mu.Lock()
	defer o.mu.Unlock()
	for path, methods := range doc.Paths {
		re := regexp.MustCompile("^" + param.ReplaceAllString(regexp.QuoteMeta(path), "[^/]+") + "$")
		for method, op := range methods {
			o.all = append(o.all, operation{id: op.OperationID, method: strings.ToUpper(method), path: re})
		}
	}
	if len(o.all) < 10 {
		t.Fatalf("the document has %d operations", len(o.all))
	}
	o.answered = map[string]bool{}
	return spec
}

func (o *operations) reset() {
	o.mu.Lock()
	o.answered = map[string]bool{}
	o.mu.Unlock()
}

// check fails t for every operation that was not answered with 200.
func (o *operations) check(t *testing.T) {
	t.Helper()
	o.mu.Lock()
	defer o.mu.Unlock()
	var missed []string
	for _, op := range o.all {
		if !o.answered[op.id] {
			missed = append(missed, op.id)
		}
	}
	slices.Sort(missed)
	if len(missed) > 0 {
		t.Errorf("operations never answered with 200: %s", strings.Join(missed, ", "))
	}
}

// statusWriter remembers the status of an answer. Unwrap lets the server's
// http.ResponseController reach the connection (a stream reads and writes
// at once).
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
