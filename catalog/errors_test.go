package catalog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// fixture is a small catalog in txtar-like form: "want:" lines, then files
// introduced by "-- name --" lines.
type fixture struct {
	want  []string
	files fstest.MapFS
}

func readFixture(t *testing.T, path string) fixture {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fx := fixture{files: fstest.MapFS{}}
	var name string
	var body strings.Builder
	flush := func() {
		if name != "" {
			fx.files[name] = &fstest.MapFile{Data: []byte(body.String())}
		}
		body.Reset()
	}
	for _, line := range strings.SplitAfter(string(data), "\n") {
		trimmed := strings.TrimRight(line, "\n")
		switch {
		case strings.HasPrefix(trimmed, "-- ") && strings.HasSuffix(trimmed, " --"):
			flush()
			name = strings.TrimSuffix(strings.TrimPrefix(trimmed, "-- "), " --")
		case name == "" && strings.HasPrefix(trimmed, "want: "):
			fx.want = append(fx.want, strings.TrimPrefix(trimmed, "want: "))
		case name != "":
			body.WriteString(line)
		}
	}
	flush()
	return fx
}

// TestLoadErrors loads each fixture under testdata/errors and expects
// exactly its "want:" errors, positions and wording included.
func TestLoadErrors(t *testing.T) {
	paths, err := filepath.Glob("testdata/errors/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".txtar")
		t.Run(name, func(t *testing.T) {
			fx := readFixture(t, path)
			if len(fx.want) == 0 {
				t.Fatal("fixture has no want: lines")
			}
			g, errs := Load(fx.files)
			if g != nil {
				t.Error("Load returned a graph despite errors")
			}
			got := make([]string, len(errs))
			for i, err := range errs {
				got[i] = strings.Join(strings.Fields(err.Error()), " ")
			}
			for _, w := range fx.want {
				found := false
				for _, g := range got {
					if g == w {
						found = true
					}
				}
				if !found {
					t.Errorf("missing error:\n  %s", w)
				}
			}
			if t.Failed() || len(got) != len(fx.want) {
				t.Errorf("got %d errors, want %d:\n  %s", len(got), len(fx.want), strings.Join(got, "\n  "))
			}
		})
	}
}
