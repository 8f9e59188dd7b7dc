package main

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/unitd/unitd/catalog/diff"
	"github.com/unitd/unitd/internal/gitfs"
)

var diffCommand = &command{
	name:     "diff",
	synopsis: "OLD NEW [--format text|json|markdown|github] [--catalog PATH] [--repo DIR]",
	summary:  "compare two catalogs (directories or git revisions): unitd diff main HEAD",
	help: `Compares two versions of a catalog and reports every change to the numbers:
categories and units added, removed or renamed; names (aliases, plurals,
spellings) removed or moved to another unit; definitions changed, with the
old and new values and the relative change of 1 unit in its base unit;
exactness and source changes; names that became ambiguous.

OLD and NEW are catalog directories or git revisions. A revision is read
from the git repository around the current directory (or --repo) without a
checkout: the catalog is the directory --catalog of that revision. For a pull request:

  unitd diff origin/main HEAD --format markdown

Exit status: 0 when no change breaks API consumers, 1 when one does (a
removed or renamed symbol or name, a changed value, a newly ambiguous
name), 2 when a catalog does not load or the arguments are wrong.`,
	run: runDiff,
}

// runDiff runs unitd diff OLD NEW.
func runDiff(c *call) error {
	stdout, stderr := c.stdout, c.stderr
	fs := c.flags
	format := formatFlag(fs, "output `format`: "+strings.Join(diff.Formats, ", "), diff.Formats...)
	catalogPath := fs.String("catalog", "catalog/data", "catalog directory within the repository, for git revisions")
	repo := fs.String("repo", ".", "a directory of the git repository that revisions are read from")
	pos, err := c.parse()
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return exitf(2, "give OLD and NEW (directories or git revisions)")
	}
	var cats [2]*diff.Catalog
	for i, arg := range pos {
		fsys, dir, name, err := openCatalog(arg, *repo, *catalogPath)
		if err != nil {
			return exitError{2, err}
		}
		c, errs := diff.Load(fsys, dir)
		if len(errs) > 0 {
			fmt.Fprintf(stderr, "unitd diff: %s does not load (%d problem(s)):\n", arg, len(errs))
			for _, err := range errs {
				fmt.Fprintf(stderr, "  %s: %v\n", name, err)
				if *format == "github" {
					p := problemOf(dir, err)
					p.Message = name + " does not load: " + p.Message
					p.annotate(stdout, "error")
				}
			}
			return exitCode(2)
		}
		c.Name = name
		cats[i] = c
	}
	report := diff.Compare(cats[0], cats[1])
	if err := report.Write(stdout, *format); err != nil {
		return exitError{2, err}
	}
	if report.Breaking() > 0 {
		return exitCode(1)
	}
	return nil
}

// openCatalog opens a catalog directory, or the catalog directory at a git
// revision of the repository around repo. dir is the
// path that file names in the report are joined to, name what the report
// calls the catalog.
func openCatalog(arg, repo, catalogPath string) (fsys fs.FS, dir, name string, err error) {
	if st, err := os.Stat(arg); err == nil && st.IsDir() {
		dir = filepath.ToSlash(filepath.Clean(arg))
		return os.DirFS(arg), dir, dir, nil
	}
	root, err := exec.Command("git", "-C", repo, "rev-parse", "--show-toplevel").Output()
	if err != nil {
		return nil, "", "", fmt.Errorf("%s is neither a directory nor a git revision (%s is not inside a git repository)", arg, repo)
	}
	top := strings.TrimSpace(string(root))
	fsys, err = gitfs.Open(top, arg, filepath.ToSlash(catalogPath))
	if err != nil {
		return nil, "", "", fmt.Errorf("%s is not a directory, and as a git revision: %w", arg, err)
	}
	dir = strings.Trim(filepath.ToSlash(filepath.Clean(catalogPath)), "/")
	return fsys, dir, arg + ":" + dir, nil
}
