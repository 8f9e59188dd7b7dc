package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pmezard/go-difflib/difflib"

	"github.com/unitd/unitd/catalog"
	"github.com/unitd/unitd/catalog/format"
)

var fmtCommand = &command{
	name:     "fmt",
	synopsis: "[-l] [-d] [-w] [DIR|FILE ...]",
	summary:  "lay catalog files out canonically: unitd fmt -l catalog/data",
	help: `Lays catalog YAML files out in the one canonical form (key order, quoting,
flow or block style), keeping every comment, like gofmt. Without -l, -d or
-w the formatted files are printed; -d prints, for each file whose layout
differs, the unified diff that -w would apply. A directory means its *.yaml files; the
default is catalog/data. See catalog/README.md for the form.

Exit status: 0 on success; 1 with -l or -d when a file is not formatted
(for CI); 2 when a file cannot be read, parsed or written.`,
	run: runFmt,
}

// runFmt runs unitd fmt.
func runFmt(c *call) error {
	stdout, stderr := c.stdout, c.stderr
	fs := c.flags
	list := fs.Bool("l", false, "list the files whose formatting differs from unitd fmt's")
	diff := fs.Bool("d", false, "print the diff of each file whose formatting differs from unitd fmt's")
	write := fs.Bool("w", false, "write the result to the file instead of printing it")
	pos, err := c.parse()
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		pos = []string{"catalog/data"}
	}
	var files []string
	for _, p := range pos {
		st, err := os.Stat(p)
		if err != nil {
			return exitError{2, err}
		}
		if !st.IsDir() {
			files = append(files, p)
			continue
		}
		matches, err := filepath.Glob(filepath.Join(p, "*.yaml"))
		if err != nil {
			return exitError{2, err}
		}
		sort.Strings(matches)
		for _, m := range matches {
			// The substance catalog has a layout of its own (and
			// elements.yaml is generated): fmt lays out categories.
			if !catalog.IsSubstanceFile(filepath.Base(m)) {
				files = append(files, m)
			}
		}
	}
	code := 0
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			fmt.Fprintln(stderr, "unitd fmt:", err)
			code = 2
			continue
		}
		out, err := format.File(name, src)
		if err != nil {
			fmt.Fprintln(stderr, "unitd fmt:", err)
			code = 2
			continue
		}
		changed := !bytes.Equal(src, out)
		if *list && changed {
			fmt.Fprintln(stdout, name)
			code = max(code, 1)
		}
		if *diff && changed {
			writeDiff(stdout, name, src, out)
			code = max(code, 1)
		}
		if *write && changed {
			if err := writeFileAtomic(name, out); err != nil {
				fmt.Fprintln(stderr, "unitd fmt:", err)
				code = 2
			}
		}
		if !*list && !*diff && !*write {
			stdout.Write(out)
		}
	}
	if *write && code == 1 {
		code = 0 // the files listed were rewritten
	}
	return exitCode(code)
}

// writeDiff prints the unified diff from src to out of the file name, with
// the a/ and b/ prefixes of git, so that patch -p1 or git apply can apply it.
func writeDiff(w io.Writer, name string, src, out []byte) {
	d, err := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A: lines(src), B: lines(out),
		FromFile: "a/" + filepath.ToSlash(name), ToFile: "b/" + filepath.ToSlash(name), Context: 3,
	})
	if err != nil { // only a failing writer; GetUnifiedDiffString writes to memory
		fmt.Fprintf(w, "unitd fmt: diff of %s: %v\n", name, err)
		return
	}
	io.WriteString(w, d)
}

// lines splits text into lines that keep their newline; a last line
// without one is given one.
func lines(text []byte) []string {
	ls := strings.SplitAfter(string(text), "\n")
	if ls[len(ls)-1] == "" {
		return ls[:len(ls)-1]
	}
	ls[len(ls)-1] += "\n"
	return ls
}

// writeFileAtomic replaces name's content, keeping its permissions: a
// temporary file in the same directory, renamed over it.
func writeFileAtomic(name string, data []byte) error {
	st, err := os.Stat(name)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if err := tmp.Chmod(st.Mode().Perm()); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	return os.Rename(tmp.Name(), name)
}
