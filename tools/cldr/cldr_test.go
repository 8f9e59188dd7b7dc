package cldr

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPinnedVersion(t *testing.T) {
	for _, tt := range []struct {
		pkg, want string
		ok        bool
	}{
		{"cldr-core", Version, true},
		{"cldr-units-full", Version, true},
		{"cldr-numbers-full", Version, true},
		{"cldr", CommonVersion, true},
		{"cldrjs", "", false},
		{"ucum", "", false},
	} {
		got, err := PinnedVersion(tt.pkg)
		if got != tt.want || (err == nil) != tt.ok {
			t.Errorf("PinnedVersion(%q) = %q, %v; want %q, ok %v", tt.pkg, got, err, tt.want, tt.ok)
		}
	}
}

// writeTarball writes an npm package tarball of files (name → text).
func writeTarball(t *testing.T, files map[string]string) string {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for name, text := range files {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(text)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(text)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(t.TempDir(), "p.tgz")
	if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

// TestUnpackAndRead: a packed package is laid out as npm install lays it
// out, files outside package/ or escaping it are left out, and Modules
// reads it, refusing a version other than the pin.
func TestUnpackAndRead(t *testing.T) {
	root := t.TempDir()
	modules := filepath.Join(root, "node_modules")
	tarball := writeTarball(t, map[string]string{
		"package/package.json":            `{"name":"cldr-core","version":"` + Version + `","license":"Unicode-3.0"}`,
		"package/supplemental/units.json": `{"supplemental":{"version":{"_cldrVersion":"48"}}}`,
		"package/../../escaped.json":      `{}`,
		"other/file.json":                 `{}`,
	})
	if err := unpack(tarball, filepath.Join(modules, "cldr-core")); err != nil {
		t.Fatal(err)
	}
	m, cleanup, err := Open(modules, "cldr-core")
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	p, err := m.Package("cldr-core")
	if err != nil || p.Version != Version || p.License != Licence {
		t.Errorf("Package = %+v, %v", p, err)
	}
	var units struct {
		Supplemental struct {
			Version struct {
				CLDR string `json:"_cldrVersion"`
			} `json:"version"`
		} `json:"supplemental"`
	}
	if err := m.ReadJSON("cldr-core", "supplemental/units.json", &units); err != nil || units.Supplemental.Version.CLDR != "48" {
		t.Errorf("ReadJSON: %+v, %v", units, err)
	}
	for _, p := range []string{filepath.Join(root, "escaped.json"), filepath.Join(modules, "escaped.json"), filepath.Join(modules, "cldr-core", "file.json")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("unpack wrote %s", p)
		}
	}
	if _, _, err := Open(modules, "cldr-core", "cldr-units-full"); err == nil {
		t.Error("Open accepted a directory without cldr-units-full")
	}

	// Another version than the pin is refused, naming both.
	other := filepath.Join(root, "other")
	if err := unpack(writeTarball(t, map[string]string{"package/package.json": `{"name":"cldr-core","version":"47.0.0"}`}), filepath.Join(other, "cldr-core")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Open(other, "cldr-core"); err == nil || !strings.Contains(err.Error(), "47.0.0") || !strings.Contains(err.Error(), Version) {
		t.Errorf("Open of cldr-core 47.0.0: %v, want an error naming both versions", err)
	}
	if err := m.ReadJSON("cldr-core", "package.json", new(int)); err == nil || !strings.Contains(err.Error(), "package.json") {
		t.Errorf("ReadJSON into the wrong type: %v, want an error naming the file", err)
	}
}
