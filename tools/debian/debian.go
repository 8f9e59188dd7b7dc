// Package debian is the one reader of the pinned Debian packages that
// unitd's tables are generated from, for the tools that regenerate them
// (atomicweights, foods, foodwords, textwords): a Package names a .deb by
// name, version and SHA-256 and the files of its data archive a tool
// reads, each with its own SHA-256; Fetch downloads it with apt-get
// download, Read refuses a .deb or a file that is not the pinned one.
// Beside it, WriteTestData and ReadTestData keep the gzipped copies of
// what a tool read (or of its excerpts) that the tool's test regenerates
// the shipped table from.
//
// Read unpacks the data archive with dpkg-deb, so it reads whichever
// compression dpkg-deb does (xz, zstd, gzip, none).
package debian

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Package is a pinned Debian package and the files read from it.
type Package struct {
	Name, Version string
	// SHA256 is the SHA-256 of the .deb, in hex.
	SHA256 string
	// Dir is the directory of the data archive the Files are in
	// ("usr/share/dictd"), "" for its root.
	Dir string
	// Files maps the path under Dir of each file read to its SHA-256.
	Files map[string]string
}

// Fetch downloads pkgs at their pinned versions into dir with one apt-get
// download (which reads the lists of apt-get update) and returns the path
// of each .deb, in the order of pkgs. It does not check them: Read does.
func Fetch(dir string, pkgs ...Package) ([]string, error) {
	args := []string{"download"}
	for _, p := range pkgs {
		args = append(args, p.Name+"="+p.Version)
	}
	cmd := exec.Command("apt-get", args...)
	// apt-get's progress goes to stderr, so that a tool's stdout stays
	// its own.
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("apt-get %s: %w", strings.Join(args, " "), err)
	}
	debs := make([]string, len(pkgs))
	for i, p := range pkgs {
		var err error
		if debs[i], err = Find(dir, p); err != nil {
			return nil, err
		}
	}
	return debs, nil
}

// Find returns the path of p's .deb in dir, named as apt-get download
// names it: NAME_VERSION_ARCH.deb, an epoch's colon written %3a.
func Find(dir string, p Package) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	prefix := p.Name + "_" + strings.ReplaceAll(p.Version, ":", "%3a") + "_"
	var found []string
	for _, e := range entries {
		arch, ok := strings.CutPrefix(e.Name(), prefix)
		if arch, deb := strings.CutSuffix(arch, ".deb"); ok && deb && arch != "" && !strings.Contains(arch, "_") {
			found = append(found, filepath.Join(dir, e.Name()))
		}
	}
	if len(found) != 1 {
		return "", fmt.Errorf("%s holds %d .debs of %s %s, want 1", dir, len(found), p.Name, p.Version)
	}
	return found[0], nil
}

// Read checks that the .deb file is p's by its SHA-256 and returns p's
// Files from its data archive, by their path under Dir, each checked
// against its own SHA-256.
func (p Package) Read(file string) (map[string][]byte, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != p.SHA256 {
		return nil, fmt.Errorf("%s: SHA-256 %x is not the pinned %s %s (%s)", file, sum, p.Name, p.Version, p.SHA256)
	}
	tarball, err := exec.Command("dpkg-deb", "--fsys-tarfile", file).Output()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) && len(exit.Stderr) > 0 {
			err = fmt.Errorf("%w: %s", err, bytes.TrimSpace(exit.Stderr))
		}
		return nil, fmt.Errorf("dpkg-deb --fsys-tarfile %s: %w", file, err)
	}
	files := map[string][]byte{}
	tr := tar.NewReader(bytes.NewReader(tarball))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		name, ok := p.under(strings.TrimPrefix(h.Name, "./"))
		if _, want := p.Files[name]; !ok || !want || h.Typeflag != tar.TypeReg {
			continue
		}
		if files[name], err = io.ReadAll(tr); err != nil {
			return nil, fmt.Errorf("%s: %s: %w", file, h.Name, err)
		}
	}
	if err := Check(files, p.Files); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return files, nil
}

// under returns the path under p.Dir of name, a path in the data archive,
// and whether it is under p.Dir.
func (p Package) under(name string) (string, bool) {
	if p.Dir == "" {
		return name, true
	}
	rel, ok := strings.CutPrefix(name, p.Dir+"/")
	return rel, ok && rel != ""
}

// Check checks that files holds each file of sums (name → SHA-256 in
// hex) with that hash.
func Check(files map[string][]byte, sums map[string]string) error {
	for name, want := range sums {
		data, ok := files[name]
		if !ok {
			return fmt.Errorf("%s is missing", name)
		}
		if got := sha256.Sum256(data); hex.EncodeToString(got[:]) != want {
			return fmt.Errorf("%s: SHA-256 %x is not the pinned %s", name, got, want)
		}
	}
	return nil
}

// WriteTestData writes each of files gzipped into dir, as name.gz,
// without a name or time in the gzip header, so that the same files give
// the same bytes.
func WriteTestData(dir string, files map[string][]byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, data := range files {
		var b bytes.Buffer
		zw, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
		if err != nil {
			return err
		}
		if _, err := zw.Write(data); err != nil {
			return err
		}
		if err := zw.Close(); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, name+".gz"), b.Bytes(), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// ReadTestData reads the files WriteTestData wrote into dir: every
// name.gz of dir, by name.
func ReadTestData(dir string) (map[string][]byte, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.gz"))
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	for _, n := range names {
		data, err := gunzip(n)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		files[strings.TrimSuffix(filepath.Base(n), ".gz")] = data
	}
	return files, nil
}

// gunzip reads the gzipped file name.
func gunzip(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}
