package debian

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func sum(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// tarball is a tar archive of files (path → text) as a .deb's archives
// hold them: every path under "./", with its directories.
func tarball(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	dirs := map[string]bool{}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		for d := filepath.Dir(name); d != "."; d = filepath.Dir(d) {
			if !dirs[d] {
				dirs[d] = true
				if err := tw.WriteHeader(&tar.Header{Name: "./" + d + "/", Mode: 0o755, Typeflag: tar.TypeDir}); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := tw.WriteHeader(&tar.Header{Name: "./" + name, Mode: 0o644, Size: int64(len(files[name])), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(files[name])); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// compress compresses data as a .deb member with the suffix ext: "gz"
// with Go's gzip, "xz" and "zst" with the xz and zstd commands (which the
// test needs), "" not at all.
func compress(t *testing.T, ext string, data []byte) []byte {
	t.Helper()
	switch ext {
	case "":
		return data
	case "gz":
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		if _, err := zw.Write(data); err != nil {
			t.Fatal(err)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	name := map[string]string{"xz": "xz", "zst": "zstd"}[ext]
	cmd := exec.Command(name, "-c", "-q")
	cmd.Stdin = bytes.NewReader(data)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s -c (needed to build a .deb with a data.tar.%s): %v", name, ext, err)
	}
	return out
}

// buildDeb writes a .deb into a temporary directory: an ar archive of
// debian-binary, control.tar.ext and data.tar.ext holding files. It
// returns its path and SHA-256.
func buildDeb(t *testing.T, ext string, files map[string]string) (string, string) {
	t.Helper()
	suffix := ""
	if ext != "" {
		suffix = "." + ext
	}
	control := tarball(t, map[string]string{"control": "Package: p\nVersion: 1.0-1\nArchitecture: all\nMaintainer: m <m@example.org>\nDescription: d\n"})
	var b bytes.Buffer
	b.WriteString("!<arch>\n")
	for _, m := range []struct {
		name string
		data []byte
	}{
		{"debian-binary", []byte("2.0\n")},
		{"control.tar" + suffix, compress(t, ext, control)},
		{"data.tar" + suffix, compress(t, ext, tarball(t, files))},
	} {
		fmt.Fprintf(&b, "%-16s%-12d%-6d%-6d%-8o%-10d`\n", m.name, 0, 0, 0, 0o644, len(m.data))
		b.Write(m.data)
		if len(m.data)%2 == 1 {
			b.WriteByte('\n')
		}
	}
	file := filepath.Join(t.TempDir(), "p_1.0-1_all.deb")
	if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	h := sha256.Sum256(b.Bytes())
	return file, hex.EncodeToString(h[:])
}

// The data archive of the test's packages: the files asked for, one
// beside them that is not, and one of the same name in another directory.
var data = map[string]string{
	"usr/share/p/a.txt":     "alpha\n",
	"usr/share/p/sub/b.txt": "beta\n",
	"usr/share/p/c.txt":     "not asked for\n",
	"usr/share/q/a.txt":     "another directory's\n",
}

// TestRead: the files asked for are read from a data archive in each
// compression Debian uses, by their path under Dir (or in the archive),
// and nothing else is.
func TestRead(t *testing.T) {
	for _, tt := range []struct {
		ext   string
		dir   string
		files map[string]string
		want  map[string]string
	}{
		{"xz", "usr/share/p", map[string]string{"a.txt": sum("alpha\n"), "sub/b.txt": sum("beta\n")},
			map[string]string{"a.txt": "alpha\n", "sub/b.txt": "beta\n"}},
		{"zst", "usr/share/p", map[string]string{"a.txt": sum("alpha\n")}, map[string]string{"a.txt": "alpha\n"}},
		{"gz", "usr/share/q", map[string]string{"a.txt": sum("another directory's\n")}, map[string]string{"a.txt": "another directory's\n"}},
		{"", "usr/share/p", map[string]string{"sub/b.txt": sum("beta\n")}, map[string]string{"sub/b.txt": "beta\n"}},
		{"xz", "", map[string]string{"usr/share/p/a.txt": sum("alpha\n"), "usr/share/q/a.txt": sum("another directory's\n")},
			map[string]string{"usr/share/p/a.txt": "alpha\n", "usr/share/q/a.txt": "another directory's\n"}},
	} {
		name := strings.TrimSuffix("data.tar."+tt.ext, ".") + " in " + tt.dir
		if tt.dir == "" {
			name += "the root"
		}
		t.Run(name, func(t *testing.T) {
			file, debSum := buildDeb(t, tt.ext, data)
			p := Package{Name: "p", Version: "1.0-1", SHA256: debSum, Dir: tt.dir, Files: tt.files}
			got, err := p.Read(file)
			if err != nil {
				t.Fatal(err)
			}
			gotText := map[string]string{}
			for k, v := range got {
				gotText[k] = string(v)
			}
			if !maps.Equal(gotText, tt.want) {
				t.Errorf("read %q, want %q", gotText, tt.want)
			}
		})
	}
}

// TestReadRefuses: a .deb that is not the pinned one is refused before
// anything is read from it, and so is a file that is missing or not the
// pinned one.
func TestReadRefuses(t *testing.T) {
	file, debSum := buildDeb(t, "xz", data)
	notDeb := filepath.Join(t.TempDir(), "p_1.0-1_all.deb")
	if err := os.WriteFile(notDeb, []byte("!<arch>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		file string
		p    Package
		want string
	}{
		{"another .deb", file, Package{Name: "p", Version: "1.0-1", SHA256: sum("other"), Dir: "usr/share/p", Files: map[string]string{"a.txt": sum("alpha\n")}},
			"SHA-256 " + debSum + " is not the pinned p 1.0-1"},
		{"another file", file, Package{Name: "p", Version: "1.0-1", SHA256: debSum, Dir: "usr/share/p", Files: map[string]string{"a.txt": sum("alpha")}},
			"a.txt: SHA-256 " + sum("alpha\n") + " is not the pinned"},
		{"a file without its hash", file, Package{Name: "p", Version: "1.0-1", SHA256: debSum, Dir: "usr/share/p", Files: map[string]string{"a.txt": ""}},
			"a.txt: SHA-256 " + sum("alpha\n") + " is not the pinned"},
		{"a missing file", file, Package{Name: "p", Version: "1.0-1", SHA256: debSum, Dir: "usr/share/p", Files: map[string]string{"a.txt": sum("alpha\n"), "d.txt": sum("")}},
			"d.txt is missing"},
		{"a file only in another directory", file, Package{Name: "p", Version: "1.0-1", SHA256: debSum, Dir: "usr/share/r", Files: map[string]string{"a.txt": sum("alpha\n")}},
			"a.txt is missing"},
		{"a directory", file, Package{Name: "p", Version: "1.0-1", SHA256: debSum, Dir: "usr/share", Files: map[string]string{"p": sum("")}},
			"p is missing"},
		{"no .deb", notDeb, Package{Name: "p", Version: "1.0-1", SHA256: sum("!<arch>\n"), Files: map[string]string{"a.txt": sum("alpha\n")}},
			"dpkg-deb --fsys-tarfile " + notDeb},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.p.Read(tt.file)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Read = %q, %v; want an error with %q", got, err, tt.want)
			}
		})
	}
}

// TestFind: the .deb of a package is the one file apt-get download names
// for its name and version, whatever its architecture.
func TestFind(t *testing.T) {
	p := Package{Name: "p", Version: "1.0-1"}
	for _, tt := range []struct {
		name  string
		files []string
		p     Package
		want  string // "" for an error
	}{
		{"all", []string{"p_1.0-1_all.deb", "p_0.9-1_all.deb", "p-doc_1.0-1_all.deb", "q_1.0-1_all.deb"}, p, "p_1.0-1_all.deb"},
		{"an architecture", []string{"p_1.0-1_amd64.deb", "p_1.0-1_amd64.deb.part"}, p, "p_1.0-1_amd64.deb"},
		{"an epoch", []string{"p_2%3a1.0-1_all.deb", "p_1.0-1_all.deb"}, Package{Name: "p", Version: "2:1.0-1"}, "p_2%3a1.0-1_all.deb"},
		{"none", []string{"p_0.9-1_all.deb", "p-doc_1.0-1_all.deb", "p_1.0-1_.deb"}, p, ""},
		{"two", []string{"p_1.0-1_all.deb", "p_1.0-1_amd64.deb"}, p, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range tt.files {
				if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := Find(dir, tt.p)
			switch {
			case tt.want == "" && err == nil:
				t.Errorf("Find = %q, want an error", got)
			case tt.want != "" && (err != nil || got != filepath.Join(dir, tt.want)):
				t.Errorf("Find = %q, %v; want %s", got, err, tt.want)
			}
		})
	}
}

// TestFetch runs Fetch against a stand-in for apt-get that downloads as
// apt-get does, NAME_VERSION_all.deb into its working directory, or
// fails: the packages are asked for at their pinned versions, in one
// call, and their .debs returned in order.
func TestFetch(t *testing.T) {
	bin := t.TempDir()
	script := `#!/bin/sh
[ "$1" = download ] || exit 2
shift
echo "$@" > args
for a in "$@"; do
	[ "${a%%=*}" = missing ] && exit 100
	: > "${a%%=*}_$(echo "${a#*=}" | sed 's/:/%3a/')_all.deb"
done
`
	if err := os.WriteFile(filepath.Join(bin, "apt-get"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))

	for _, tt := range []struct {
		name string
		pkgs []Package
		want []string // nil for an error
		args string
	}{
		{"two", []Package{{Name: "q", Version: "2:1.0-1"}, {Name: "p", Version: "1.0-1"}},
			[]string{"q_2%3a1.0-1_all.deb", "p_1.0-1_all.deb"}, "q=2:1.0-1 p=1.0-1\n"},
		{"one apt-get cannot find", []Package{{Name: "p", Version: "1.0-1"}, {Name: "missing", Version: "1"}}, nil, "p=1.0-1 missing=1\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			got, err := Fetch(dir, tt.pkgs...)
			if args, _ := os.ReadFile(filepath.Join(dir, "args")); string(args) != tt.args {
				t.Errorf("apt-get download %q, want %q", args, tt.args)
			}
			if tt.want == nil {
				if err == nil {
					t.Errorf("Fetch = %q, want an error", got)
				}
				return
			}
			var want []string
			for _, w := range tt.want {
				want = append(want, filepath.Join(dir, w))
			}
			if err != nil || !slices.Equal(got, want) {
				t.Errorf("Fetch = %q, %v; want %q", got, err, want)
			}
		})
	}
}

func TestCheck(t *testing.T) {
	files := map[string][]byte{"a": []byte("alpha"), "b": []byte("beta")}
	for _, tt := range []struct {
		name string
		sums map[string]string
		want string // "" for none
	}{
		{"all pinned", map[string]string{"a": sum("alpha"), "b": sum("beta")}, ""},
		{"some", map[string]string{"b": sum("beta")}, ""},
		{"another file", map[string]string{"a": sum("alpha"), "b": sum("beta\n")}, "b: SHA-256 " + sum("beta") + " is not the pinned " + sum("beta\n")},
		{"a missing file", map[string]string{"c": sum("")}, "c is missing"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := Check(files, tt.sums)
			if tt.want == "" && err != nil || tt.want != "" && (err == nil || err.Error() != tt.want) {
				t.Errorf("Check = %v, want %q", err, tt.want)
			}
		})
	}
}

// TestTestData: what WriteTestData writes, ReadTestData reads back, and
// the same files give the same bytes; a file that is not gzip is refused.
func TestTestData(t *testing.T) {
	files := map[string][]byte{"a.txt": []byte("alpha\n"), "b.json": bytes.Repeat([]byte("beta "), 1000), "empty": {}}
	dir1, dir2 := t.TempDir(), t.TempDir()
	for _, dir := range []string{dir1, dir2} {
		if err := WriteTestData(dir, files); err != nil {
			t.Fatal(err)
		}
	}
	got, err := ReadTestData(dir1)
	if err != nil {
		t.Fatal(err)
	}
	if !maps.EqualFunc(got, files, bytes.Equal) {
		t.Errorf("read back %q, want %q", got, files)
	}
	for name := range files {
		a, errA := os.ReadFile(filepath.Join(dir1, name+".gz"))
		b, errB := os.ReadFile(filepath.Join(dir2, name+".gz"))
		if errA != nil || errB != nil || !bytes.Equal(a, b) {
			t.Errorf("%s.gz written twice differs (%v, %v)", name, errA, errB)
		}
	}
	if err := os.WriteFile(filepath.Join(dir1, "c.gz"), []byte("not gzip"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadTestData(dir1); err == nil || !strings.Contains(err.Error(), "c.gz") {
		t.Errorf("a file that is not gzip: %v", err)
	}
}
