package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// copyFiles copies the regular files of src whose names keep keeps (all,
// when keep is nil) into dst.
func copyFiles(t *testing.T, src, dst string, keep func(name string) bool) {
	t.Helper()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() || keep != nil && !keep(e.Name()) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestDiffGitRevisions makes a repository whose history changes a unit's
// factor, then compares revisions by name from inside it, as CI does.
func TestDiffGitRevisions(t *testing.T) {
	fixtures := "../../catalog/diff/testdata/factor_changed"
	abs, err := filepath.Abs(fixtures)
	if err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	git("init", "-q", "-b", "main")
	copyFiles(t, filepath.Join(abs, "old"), filepath.Join(repo, "units"), nil)
	git("add", ".")
	git("commit", "-qm", "catalog")
	git("checkout", "-q", "-b", "change")
	copyFiles(t, filepath.Join(abs, "new"), filepath.Join(repo, "units"), nil)
	git("commit", "-qam", "new inch")
	// A broken work tree must not matter: revisions are read from git.
	if err := os.WriteFile(filepath.Join(repo, "units", "length.yaml"), []byte("broken: ["), 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(repo, "units") // any directory of the repository

	code, stdout, stderr := runCLI(t, "", "diff", "main", "HEAD", "--repo", sub, "--catalog", "units", "--format", "github")
	if code != 1 {
		t.Fatalf("diff main HEAD = %d, want 1 (breaking)\n%s%s", code, stdout, stderr)
	}
	for _, want := range []string{
		"::warning file=units/length.yaml,line=23,",
		"in: definition factor 2.54, unit cm → factor 2.5, unit cm; 1 in = 0.0254 m → 0.025 m (relative change -0.01574803)",
		"unitd diff main:units → HEAD:units: 4 change(s), 4 breaking",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	if code, stdout, _ := runCLI(t, "", "diff", "HEAD", "change", "--repo", sub, "--catalog", "units"); code != 0 || !strings.Contains(stdout, "no changes") {
		t.Errorf("diff HEAD change = %d, %q; want 0, no changes", code, stdout)
	}
	// The work tree as NEW: a directory, which does not load.
	if code, _, stderr := runCLI(t, "", "diff", "main", sub, "--repo", sub, "--catalog", "units"); code != 2 || !strings.Contains(stderr, "does not load") {
		t.Errorf("diff main DIR = %d, %q; want 2, a load error", code, stderr)
	}
	// With --format github, each load error is also an annotation at its
	// file and line, so that a pull request shows it where it is.
	code, stdout, stderr = runCLI(t, "", "diff", "main", sub, "--repo", sub, "--catalog", "units", "--format", "github")
	want := "::error file=" + filepath.ToSlash(sub) + "/length.yaml,line=1,col=1::" + filepath.ToSlash(sub) + " does not load: YAML syntax: "
	if code != 2 || !strings.HasPrefix(stdout, want) || !strings.Contains(stderr, "does not load") {
		t.Errorf("diff main DIR --format github = %d, %q, %q; want 2 and an annotation starting %q", code, stdout, stderr, want)
	}
	if code, _, stderr := runCLI(t, "", "diff", "main", "nosuchrev", "--repo", sub, "--catalog", "units"); code != 2 || !strings.Contains(stderr, "nosuchrev") {
		t.Errorf("diff main nosuchrev = %d, %q; want 2", code, stderr)
	}
}

func TestDiffCommand(t *testing.T) {
	fx := "../../catalog/diff/testdata/"
	tests := []struct {
		name       string
		args       []string
		code       int
		stdoutHave string
		stderrHave string
	}{
		{"no change", []string{"diff", fx + "unchanged/old", fx + "unchanged/new"}, 0, "no changes", ""},
		{"additions only", []string{"diff", fx + "added/old", fx + "added/new"}, 0, "none breaking", ""},
		{"renamed", []string{"diff", fx + "renamed/old", fx + "renamed/new", "--format", "markdown"}, 1, "| unit renamed | `furlong` |", ""},
		{"json", []string{"diff", "--format=json", fx + "ambiguous/old", fx + "ambiguous/new"}, 1, `"kind": "name became ambiguous"`, ""},
		{"bad format", []string{"diff", fx + "added/old", fx + "added/new", "--format", "yaml"}, 2, "", "unknown format"},
		{"one argument", []string{"diff", fx + "added/old"}, 2, "", "give OLD and NEW"},
		{"load error", []string{"diff", fx + "added/old", "../../catalog/testdata"}, 2, "", "does not load"},
		{"help", []string{"diff", "-h"}, 0, "", "Exit status: 0 when no change breaks"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, "", tt.args...)
			if code != tt.code || !strings.Contains(stdout, tt.stdoutHave) || !strings.Contains(stderr, tt.stderrHave) {
				t.Errorf("unitd %s = %d, %q, %q; want %d, stdout with %q, stderr with %q",
					strings.Join(tt.args, " "), code, stdout, stderr, tt.code, tt.stdoutHave, tt.stderrHave)
			}
		})
	}
}
