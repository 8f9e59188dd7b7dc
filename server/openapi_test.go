package server

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/unitd/unitd/server/errcode"
)

var update = flag.Bool("update", false, "rewrite testdata/openapi.golden.json")

// loadOpenAPI parses and validates the document of f's current snapshot.
func loadOpenAPI(t testing.TB, doc []byte) *openapi3.T {
	t.Helper()
	loader := openapi3.NewLoader()
	d, err := loader.LoadFromData(doc)
	if err != nil {
		t.Fatalf("loading OpenAPI: %v", err)
	}
	if err := d.Validate(context.Background()); err != nil {
		t.Fatalf("OpenAPI document is invalid: %v", err)
	}
	return d
}

func TestOpenAPIValid(t *testing.T) {
	s := New(Config{Version: "1.2.3"})
	s.ApplyGraph(testGraph(t))
	d := loadOpenAPI(t, s.snap.Load().docs().openapi.body)
	if !d.IsOpenAPI31OrLater() {
		t.Errorf("openapi = %q, want 3.1", d.OpenAPI)
	}
}

func TestOpenAPIGolden(t *testing.T) {
	s := New(Config{Version: "1.2.3"})
	s.ApplyGraph(testGraph(t))
	got := s.snap.Load().docs().openapi.body
	path := filepath.Join("testdata", "openapi.golden.json")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run TestOpenAPIGolden -update)", err)
	}
	if !bytes.Equal(got, want) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) && i < len(wl); i++ {
			if gl[i] != wl[i] {
				t.Fatalf("OpenAPI differs from %s at line %d:\n got: %s\nwant: %s\n(run with -update if intended)", path, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("OpenAPI differs from %s in length: %d vs %d lines (run with -update if intended)", path, len(gl), len(wl))
	}
}

// TestOpenAPICoversRoutes checks that the route table and the document
// list the same operations.
func TestOpenAPICoversRoutes(t *testing.T) {
	s := New(Config{Version: "1.2.3"})
	s.ApplyGraph(testGraph(t))
	d := loadOpenAPI(t, s.snap.Load().docs().openapi.body)
	var routes, documented []string
	for _, rt := range s.routes {
		routes = append(routes, rt.method+" "+openAPIPath(rt.path))
	}
	for path, item := range d.Paths.Map() {
		for method := range item.Operations() {
			documented = append(documented, method+" "+path)
		}
	}
	sort.Strings(routes)
	sort.Strings(documented)
	if strings.Join(routes, "\n") != strings.Join(documented, "\n") {
		t.Errorf("routes and OpenAPI differ:\nroutes:\n%s\ndocumented:\n%s", strings.Join(routes, "\n"), strings.Join(documented, "\n"))
	}
	// Every error code the server can send as a status is documented.
	codes := d.Components.Schemas["Error"].Value.Properties["code"].Value.Enum
	for _, code := range errcode.Codes() {
		if !apiOnly(code) && code != codeInvalidItem {
			continue // sent by the pages only, which the document leaves out
		}
		found := false
		for _, c := range codes {
			if c == code {
				found = true
			}
		}
		if !found {
			t.Errorf("error code %s missing from the Error schema", code)
		}
	}
}
