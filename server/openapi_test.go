package server

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/unitd/unitd/server/errcode"
)

var update = flag.Bool("update", false, "rewrite testdata/openapi.golden.json")

// loadOpenAPI parses and validates an OpenAPI document. Each text is
// parsed and validated once for the tests of the package (validating the
// examples takes seconds under the race detector) and shared: a caller
// gets a copy of the document's top level, whose fields (its Servers, say)
// it may set, and must leave what they point to as it is.
func loadOpenAPI(t testing.TB, doc []byte) *openapi3.T {
	t.Helper()
	v, _ := openAPIDocs.LoadOrStore(string(doc), sync.OnceValues(func() (*openapi3.T, error) {
		d, err := openapi3.NewLoader().LoadFromData(doc)
		if err != nil {
			return nil, fmt.Errorf("loading OpenAPI: %w", err)
		}
		if err := d.Validate(context.Background()); err != nil {
			return nil, fmt.Errorf("OpenAPI document is invalid: %w", err)
		}
		return d, nil
	}))
	d, err := v.(func() (*openapi3.T, error))()
	if err != nil {
		t.Fatal(err)
	}
	top := *d
	return &top
}

// openAPIDocs holds loadOpenAPI's documents by their text.
var openAPIDocs sync.Map

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
