package catalog

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/unitd/unitd/engine"
)

// hostileDir is a catalog directory with a good length.yaml and one
// hostile file made by make.
func hostileDir(t *testing.T, make func(dir string) error) string {
	t.Helper()
	dir := t.TempDir()
	src, err := fs.ReadFile(Embedded(), "length.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "length.yaml"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := make(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// hostileFiles are the files an attacker with write access to the
// catalog directory might drop there. Each must fail the load quickly
// with a problem located in that file.
var hostileFiles = []struct {
	name string
	file string // the hostile file's name
	kind string // expected in the public problem
	make func(dir string) error
}{
	{"sparse 8 GB file", "big.yaml", "file larger than", func(dir string) error {
		f, err := os.Create(filepath.Join(dir, "big.yaml"))
		if err != nil {
			return err
		}
		defer f.Close()
		return f.Truncate(8 << 30) // sparse: no disk used
	}},
	{"link to /dev/zero", "zero.yaml", "symbolic link out of the catalog directory", func(dir string) error {
		return os.Symlink("/dev/zero", filepath.Join(dir, "zero.yaml"))
	}},
	{"link to /etc/passwd", "passwd.yaml", "symbolic link out of the catalog directory", func(dir string) error {
		return os.Symlink("/etc/passwd", filepath.Join(dir, "passwd.yaml"))
	}},
	{"relative link out", "up.yaml", "symbolic link out of the catalog directory", func(dir string) error {
		return os.Symlink("../../../../../../../../etc/passwd", filepath.Join(dir, "up.yaml"))
	}},
	{"FIFO", "p.yaml", "not a regular file", func(dir string) error {
		return syscall.Mkfifo(filepath.Join(dir, "p.yaml"), 0o644)
	}},
	{"alias bomb", "bomb.yaml", "more than 100 aliases in one file", func(dir string) error {
		var b strings.Builder
		b.WriteString("category:\n  id: bomb\n  name: Bomb\n  dimension: {M: 1}\n  base: bq\nunits:\n")
		b.WriteString("  - &u {symbol: bq, name: bomb, plural: bombs, system: SI, exact: true, source: x}\n")
		for range 35_000 { // under MaxFileSize: the alias bound must catch it
			b.WriteString("  - *u\n")
		}
		return os.WriteFile(filepath.Join(dir, "bomb.yaml"), []byte(b.String()), 0o644)
	}},
	{"exponent bomb", "exp.yaml", `unit "…": factor: "…": exact number with more than 1000 digits`, func(dir string) error {
		return os.WriteFile(filepath.Join(dir, "exp.yaml"), []byte(`category:
  id: exp
  name: Exp
  dimension: {M: 1}
  base: eb
units:
  - {symbol: eb, name: ebase, plural: ebases, system: SI, exact: true, source: x}
  - symbol: ebb
    name: ebomb
    plural: ebombs
    system: SI
    exact: true
    source: x
    definition: {factor: "(((9^99)^99)^99)^99", unit: eb}
`), 0o644)
	}},
}

// TestHostileFilesFailTheLoad: each hostile file fails the load with a
// problem in that file; the public summary says where and what kind, and
// never repeats file contents.
func TestHostileFilesFailTheLoad(t *testing.T) {
	for _, tt := range hostileFiles {
		t.Run(tt.name, func(t *testing.T) {
			dir := hostileDir(t, tt.make)
			g, errs := LoadWithin(os.DirFS(dir), DefaultTimeout)
			if g != nil || len(errs) == 0 {
				t.Fatal("the hostile catalog loaded")
			}
			if errors.Is(errs[0], ErrTimeout) {
				t.Fatalf("load timed out: %v", errs[0])
			}
			if len(errs) > MaxErrors+1 {
				t.Errorf("%d problems reported; at most %d and a count of the rest", len(errs), MaxErrors)
			}
			pub := PublicProblem(errs)
			if !strings.HasPrefix(pub, tt.file) || !strings.Contains(pub, tt.kind) {
				t.Errorf("public problem %q, want it to start with %s and say %q", pub, tt.file, tt.kind)
			}
			if strings.Contains(pub, "root:") || strings.Contains(pub, dir) || strings.Contains(pub, "9^99") {
				t.Errorf("public problem %q shows contents or paths", pub)
			}
		})
	}
}

// TestLinksInsideTheDirectoryAreRead: a symbolic link to a file in the
// catalog directory (as Kubernetes mounts ConfigMaps) is read.
func TestLinksInsideTheDirectoryAreRead(t *testing.T) {
	dir := t.TempDir()
	src, err := fs.ReadFile(Embedded(), "length.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "..data"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "..data", "length.yaml"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("..data/length.yaml", filepath.Join(dir, "length.yaml")); err != nil {
		t.Fatal(err)
	}
	if _, errs := Load(os.DirFS(dir)); errs != nil {
		t.Fatal(errs)
	}
}

// TestPublicProblemOfASpecError: the public summary gives the message with
// its position, and leaves out every value from the file: quoted values,
// and the whole wording of a YAML syntax error.
func TestPublicProblemOfASpecError(t *testing.T) {
	long := strings.Repeat("root:x:0:0:root:/root:/bin/bash ", 50)
	at := engine.Origin{File: "length.yaml", Line: 25, Column: 17}
	for _, tt := range []struct {
		errs []error
		want string
	}{
		{[]error{
			&engine.SpecError{Origin: engine.Origin{File: "passwd.yaml", Line: 1, Column: 1}, Message: yamlSyntax + long},
			errors.New("second"),
		}, "passwd.yaml:1:1: YAML syntax error (and 1 more problems); see the server log or unitd validate"},
		{[]error{
			&engine.SpecError{Origin: at, Subject: `unit "zz"`, Message: `definition refers to unknown unit "mtr"`},
		}, `length.yaml:25:17: unit "…": definition refers to unknown unit "…"; see the server log or unitd validate`},
		{[]error{
			&engine.SpecError{Origin: at, Subject: "unit", Message: `unknown key "root:x:0:0:\"root\"" (known: name, symbol)`},
		}, `length.yaml:25:17: unit: unknown key "…" (known: name, symbol); see the server log or unitd validate`},
	} {
		if got := PublicProblem(tt.errs); got != tt.want {
			t.Errorf("PublicProblem = %q, want %q", got, tt.want)
		}
	}
}

// TestLoadSlotStopsAndRetries: a load that outlives its deadline has its
// context cancelled (engine.BuildContext stops on it), the caller gets
// ErrTimeout, a load asked for meanwhile is refused at once, and once the
// running load has returned the slot asks for the newest catalog again,
// once.
func TestLoadSlotStopsAndRetries(t *testing.T) {
	retried := make(chan struct{}, 4)
	slot := loadSlot{retry: func() { retried <- struct{}{} }}
	started := make(chan struct{})
	stopped := make(chan error, 1)
	first := make(chan []error, 1)
	go func() {
		_, errs := slot.run(50*time.Millisecond, func(ctx context.Context) (*engine.Graph, []error) {
			close(started)
			<-ctx.Done() // a load that only ends when it is stopped
			stopped <- ctx.Err()
			return nil, []error{ctx.Err()}
		})
		first <- errs
	}()
	<-started
	_, errs := slot.run(time.Minute, func(context.Context) (*engine.Graph, []error) {
		t.Error("a second load ran while the first held the slot")
		return nil, nil
	})
	if len(errs) != 1 || !errors.Is(errs[0], ErrTimeout) || !strings.Contains(errs[0].Error(), "still running") {
		t.Errorf("a load while another runs: %v, want ErrTimeout, still running", errs)
	}
	if errs := <-first; len(errs) != 1 || !errors.Is(errs[0], ErrTimeout) {
		t.Errorf("the slow load: %v, want ErrTimeout", errs)
	}
	if err := <-stopped; !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("the slow load's context ended with %v, want its deadline", err)
	}
	<-retried
	g, errs := slot.run(time.Minute, func(context.Context) (*engine.Graph, []error) { return &engine.Graph{}, nil })
	if g == nil || errs != nil {
		t.Errorf("the slot is not free again: %v", errs)
	}
	select {
	case <-retried:
		t.Error("retried twice")
	default:
	}
}
