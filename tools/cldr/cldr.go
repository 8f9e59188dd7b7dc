// Package cldr is the one pin of the Unicode CLDR release that unitd's
// tables are generated from, and the one reader of its npm packages, for
// the tools that regenerate those tables (cldrlocale, cldrprefs,
// codetables, textwords): the cldr-json packages (cldr-core,
// cldr-units-full, cldr-numbers-full), all of Version, and the package
// cldr, of CommonVersion, which carries the same release's common/
// directory (its XML and test data) that the cldr-json packages leave out.
//
// To move to another CLDR release, change the pin here and run every
// tool that imports this package: each reads the release from here, and
// refuses a package of another version.
package cldr

import (
	"archive/tar"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

const (
	// Version is the npm version of the cldr-json packages.
	Version = "48.2.0"
	// CommonVersion is the npm version of the package cldr that carries
	// the common/ directory of the CLDR release of Version.
	CommonVersion = "8.0.0"
	// Licence is the SPDX identifier of the licence CLDR is distributed
	// under (its LICENSE file, the Unicode License v3).
	Licence = "Unicode-3.0"
)

// Common is the npm package that carries the CLDR release's common/
// directory.
const Common = "cldr"

// PinnedVersion returns the pinned npm version of a CLDR package: Version
// for a cldr-json package (cldr-*), CommonVersion for cldr.
func PinnedVersion(pkg string) (string, error) {
	switch {
	case pkg == Common:
		return CommonVersion, nil
	case strings.HasPrefix(pkg, "cldr-"):
		return Version, nil
	}
	return "", fmt.Errorf("%s is not a CLDR package", pkg)
}

// Modules is a node_modules directory that holds CLDR packages.
type Modules string

// Open returns the node_modules directory dir, checking that it holds pkgs
// at their pinned versions. With dir "", it fetches them first with npm
// pack (the packages alone, without what they depend on) and unpacks them
// into a temporary directory that cleanup removes.
func Open(dir string, pkgs ...string) (m Modules, cleanup func(), err error) {
	cleanup = func() {}
	if dir == "" {
		tmp, err := os.MkdirTemp("", "cldr")
		if err != nil {
			return "", cleanup, err
		}
		cleanup = func() { os.RemoveAll(tmp) }
		dir = filepath.Join(tmp, "node_modules")
		for _, p := range pkgs {
			if err := fetch(tmp, dir, p); err != nil {
				cleanup()
				return "", func() {}, err
			}
		}
	}
	m = Modules(dir)
	for _, p := range pkgs {
		if _, err := m.Package(p); err != nil {
			cleanup()
			return "", func() {}, err
		}
	}
	return m, cleanup, nil
}

// fetch packs pkg at its pinned version with npm into tmp and unpacks it
// into modules/pkg.
func fetch(tmp, modules, pkg string) error {
	v, err := PinnedVersion(pkg)
	if err != nil {
		return err
	}
	cmd := exec.Command("npm", "pack", "--silent", "--pack-destination", tmp, pkg+"@"+v)
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("npm pack %s@%s: %w", pkg, v, err)
	}
	return unpack(filepath.Join(tmp, pkg+"-"+v+".tgz"), filepath.Join(modules, pkg))
}

// unpack writes the regular files under package/ of an npm tarball into
// dir, as npm install lays a package out.
func unpack(tarball, dir string) error {
	f, err := os.Open(tarball)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("%s: %w", tarball, err)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", tarball, err)
		}
		name, ok := strings.CutPrefix(h.Name, "package/")
		if h.Typeflag != tar.TypeReg || !ok || !filepath.IsLocal(name) {
			continue
		}
		to := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		out, err := os.Create(to)
		if err != nil {
			return err
		}
		_, err = io.Copy(out, tr)
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("%s: %s: %w", tarball, h.Name, err)
		}
	}
}

// Package is what a package's package.json says of it.
type Package struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	License string `json:"license"`
}

// Package reads the package.json of pkg and checks that it is the pinned
// version.
func (m Modules) Package(pkg string) (Package, error) {
	want, err := PinnedVersion(pkg)
	if err != nil {
		return Package{}, err
	}
	var p Package
	if err := m.ReadJSON(pkg, "package.json", &p); err != nil {
		return Package{}, err
	}
	if p.Name != pkg || p.Version != want {
		return Package{}, fmt.Errorf("%s holds %s %s, not %s %s", filepath.Join(string(m), pkg), p.Name, p.Version, pkg, want)
	}
	return p, nil
}

// Path is the path of the file name ("supplemental/units.json") of pkg.
func (m Modules) Path(pkg, name string) string {
	return filepath.Join(string(m), pkg, filepath.FromSlash(name))
}

// ReadFile reads the file name of pkg.
func (m Modules) ReadFile(pkg, name string) ([]byte, error) {
	return os.ReadFile(m.Path(pkg, name))
}

// ReadJSON decodes the JSON file name of pkg into v.
func (m Modules) ReadJSON(pkg, name string, v any) error {
	b, err := m.ReadFile(pkg, name)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", m.Path(pkg, name), err)
	}
	return nil
}
