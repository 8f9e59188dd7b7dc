package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/unitd/unitd/catalog"
)

// TestValidateRefusesHostileFiles: unitd validate, as a CI job would run
// it, exits 1 on each hostile file and names it, instead of hanging or
// exhausting memory. The reason it gives shows which limit refused the
// file before the work could grow (a size or type checked before reading,
// an alias or digit count checked before expanding), never the load's
// timeout; a regression that hangs is stopped by go test's -timeout.
func TestValidateRefusesHostileFiles(t *testing.T) {
	length, err := fs.ReadFile(catalog.Embedded(), "length.yaml")
	if err != nil {
		t.Fatal(err)
	}
	aliasBomb := "category:\n  id: bomb\n  name: Bomb\n  dimension: {M: 1}\n  base: bq\nunits:\n" +
		"  - &u {symbol: bq, name: bomb, plural: bombs, system: SI, exact: true, source: x}\n" +
		strings.Repeat("  - *u\n", 35_000)
	expBomb := "category:\n  id: exp\n  name: Exp\n  dimension: {M: 1}\n  base: eb\nunits:\n" +
		"  - {symbol: eb, name: ebase, plural: ebases, system: SI, exact: true, source: x}\n" +
		"  - {symbol: ebb, name: ebomb, plural: ebombs, system: SI, exact: true, source: x, definition: {factor: \"(((9^99)^99)^99)^99\", unit: eb}}\n"
	for _, tt := range []struct {
		name, file, kind string
		make             func(path string) error
	}{
		{"sparse 8 GB file", "big.yaml", "file larger than", func(p string) error {
			f, err := os.Create(p)
			if err != nil {
				return err
			}
			defer f.Close()
			return f.Truncate(8 << 30)
		}},
		{"link to /dev/zero", "zero.yaml", "symbolic link out of the catalog directory", func(p string) error { return os.Symlink("/dev/zero", p) }},
		{"alias bomb", "bomb.yaml", "more than 100 aliases", func(p string) error { return os.WriteFile(p, []byte(aliasBomb), 0o644) }},
		{"exponent bomb", "exp.yaml", "more than 1000 digits", func(p string) error { return os.WriteFile(p, []byte(expBomb), 0o644) }},
		{"FIFO", "p.yaml", "not a regular file", func(p string) error { return syscall.Mkfifo(p, 0o644) }},
		{"link to /etc/passwd", "passwd.yaml", "symbolic link out of the catalog directory", func(p string) error { return os.Symlink("/etc/passwd", p) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "length.yaml"), length, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := tt.make(filepath.Join(dir, tt.file)); err != nil {
				t.Fatal(err)
			}
			code, stdout, stderr := runCLI(t, "", "validate", dir)
			if code != 1 {
				t.Errorf("exit %d, want 1\n%s%s", code, stdout, stderr)
			}
			all := stdout + stderr
			if !strings.Contains(all, tt.file) || !strings.Contains(all, tt.kind) {
				t.Errorf("output does not name %s and %q:\n%s", tt.file, tt.kind, all)
			}
			if strings.Contains(all, catalog.ErrTimeout.Error()) {
				t.Errorf("refused by the load's timeout, not by a limit:\n%s", all)
			}
			if strings.Contains(all, "root:") {
				t.Errorf("output shows /etc/passwd:\n%s", all)
			}
		})
	}
}
