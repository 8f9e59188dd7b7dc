package yamlfast

import (
	"bytes"
	"cmp"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// catalogDir is the catalog package, whose files and test files this
// package's tests read.
const catalogDir = "../.."

// yamlFiles returns every YAML file under the catalog package by path:
// the shipped catalog (data/), the test catalogs, and each YAML file of
// the txtar-like fixtures of testdata/errors.
func yamlFiles(t testing.TB) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(catalogDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch {
		case strings.HasSuffix(path, ".yaml"), strings.HasSuffix(path, ".yml"):
			src, err := os.ReadFile(path)
			files[path] = src
			return err
		case strings.HasSuffix(path, ".txtar"):
			src, err := os.ReadFile(path)
			for name, f := range fixtureFiles(src) {
				if strings.HasSuffix(name, ".yaml") {
					files[path+"/"+name] = f
				}
			}
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// fixtureFiles splits a fixture of "-- name --" sections into its files.
func fixtureFiles(src []byte) map[string][]byte {
	files := map[string][]byte{}
	var name string
	var body []byte
	for _, line := range bytes.SplitAfter(src, []byte("\n")) {
		if s := strings.TrimSpace(string(line)); strings.HasPrefix(s, "-- ") && strings.HasSuffix(s, " --") {
			if name != "" {
				files[name] = body
			}
			name, body = strings.TrimSuffix(strings.TrimPrefix(s, "-- "), " --"), nil
			continue
		}
		if name != "" {
			body = append(body, line...)
		}
	}
	if name != "" {
		files[name] = body
	}
	return files
}

// TestShippedFiles parses every YAML file of the catalog package both
// ways: the fast tree equals yaml.v3's, or the fast parser declined. No
// file of the shipped catalog may decline.
func TestShippedFiles(t *testing.T) {
	files := yamlFiles(t)
	shipped, declined := 0, 0
	for path, src := range files {
		want, err := plain(src)
		fast, d := parse(src)
		ok := d == nil
		isShipped := filepath.Dir(path) == filepath.Join(catalogDir, "data")
		if isShipped {
			shipped++
		}
		if !ok {
			declined++
			if strings.HasPrefix(d.why, internal) {
				t.Errorf("%s: the parser failed: %s", path, d.why)
			}
			if isShipped {
				t.Errorf("%s:%d:%d: declined (%s), but it is a file of the shipped catalog", path, d.line, d.column, d.why)
			} else {
				t.Logf("%s:%d:%d: declined (%s; yaml.v3: %v)", path, d.line, d.column, d.why, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: accepted, but yaml.v3 fails: %v", path, err)
			continue
		}
		if d := differ(fast, want); d != "" {
			t.Errorf("%s: %s", path, d)
		}
	}
	if shipped < 100 {
		t.Errorf("only %d files of the shipped catalog found", shipped)
	}
	t.Logf("%d YAML files, %d of the shipped catalog; %d declined", len(files), shipped, declined)
}

// TestParserReuse reads every YAML file of the catalog package with one
// Parser, from the smallest to the largest and back, with an input it
// declines after each: every tree equals yaml.v3's, whatever the slabs
// held before, and the next Parse clears the tree before, even when it
// declines.
func TestParserReuse(t *testing.T) {
	files := yamlFiles(t)
	paths := slices.SortedFunc(maps.Keys(files), func(a, b string) int {
		return cmp.Or(cmp.Compare(len(files[a]), len(files[b])), strings.Compare(a, b))
	})
	order := slices.Concat(paths, paths)
	slices.Reverse(order[len(paths):])
	var r Parser
	read := 0
	for _, path := range order {
		src := files[path]
		want, err := plain(src)
		fast, ok := r.Parse(src)
		if !ok {
			continue // declined, as parse does (TestShippedFiles)
		}
		read++
		if err != nil {
			t.Fatalf("%s: accepted, but yaml.v3 fails: %v", path, err)
		}
		if d := differ(fast, want); d != "" {
			t.Fatalf("%s: %s", path, d)
		}
		first := fast.Content[0]
		if _, ok := r.Parse([]byte("a: [b\n")); ok {
			t.Fatal("read an unterminated flow sequence")
		}
		if fast.Kind != 0 || first.Kind != 0 || first.Content != nil || first.Line != 0 {
			t.Fatalf("%s: the tree is still there after the next Parse declined: %+v", path, first)
		}
	}
	if read < 200 {
		t.Errorf("only %d files read", read)
	}
}
