package gitfs

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// repo makes a git repository in a temporary directory and returns a
// function that runs git in it.
func repo(t *testing.T) (string, func(args ...string) string) {
	t.Helper()
	dir := t.TempDir()
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	run("init", "-q", "-b", "main")
	return dir, run
}

func write(t *testing.T, name, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestOpenReadsEachRevision(t *testing.T) {
	dir, git := repo(t)
	write(t, filepath.Join(dir, "cat/a.yaml"), "first\n")
	write(t, filepath.Join(dir, "cat/sub/x.yaml"), "nested\n")
	write(t, filepath.Join(dir, "other.yaml"), "outside\n")
	git("add", ".")
	git("commit", "-qm", "one")
	first := git("rev-parse", "HEAD")
	write(t, filepath.Join(dir, "cat/a.yaml"), "second\n")
	write(t, filepath.Join(dir, "cat/b.yaml"), "")
	git("add", ".")
	git("commit", "-qm", "two")
	// An uncommitted edit must not show: revisions are read from git.
	write(t, filepath.Join(dir, "cat/a.yaml"), "dirty\n")

	for _, tt := range []struct {
		rev  string
		want map[string]string
	}{
		{first, map[string]string{"a.yaml": "first\n"}},
		{"HEAD~1", map[string]string{"a.yaml": "first\n"}},
		{"main", map[string]string{"a.yaml": "second\n", "b.yaml": ""}},
	} {
		fsys, err := Open(dir, tt.rev, "cat/")
		if err != nil {
			t.Fatalf("Open(%s): %v", tt.rev, err)
		}
		got := map[string]string{}
		entries, err := fs.ReadDir(fsys, ".")
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.IsDir() {
				t.Errorf("%s: subdirectory %s listed", tt.rev, e.Name())
				continue
			}
			data, err := fs.ReadFile(fsys, e.Name())
			if err != nil {
				t.Fatal(err)
			}
			got[e.Name()] = string(data)
		}
		if len(got) != len(tt.want) {
			t.Errorf("%s: files %v, want %v", tt.rev, got, tt.want)
		}
		for name, data := range tt.want {
			if got[name] != data {
				t.Errorf("%s: %s = %q, want %q", tt.rev, name, got[name], data)
			}
		}
	}
}

func TestOpenErrors(t *testing.T) {
	dir, git := repo(t)
	write(t, filepath.Join(dir, "cat/a.yaml"), "x\n")
	git("add", ".")
	git("commit", "-qm", "one")
	for _, tt := range []struct{ rev, dir, want string }{
		{"nosuchbranch", "cat", `revision "nosuchbranch": not a commit`},
		{"--output=/tmp/x", "cat", "must not start with -"},
		{"HEAD", "missing", `reading directory "missing"`},
	} {
		_, err := Open(dir, tt.rev, tt.dir)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Open(%q, %q) = %v, want an error containing %q", tt.rev, tt.dir, err, tt.want)
		}
	}
	if _, err := Open(t.TempDir(), "HEAD", "cat"); err == nil {
		t.Error("Open outside a repository succeeded")
	}
}
