package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/unitd/unitd/tools/catalogfmt"
)

const fmtUsage = `usage: unitd fmt [-l] [-w] [DIR|FILE ...]

Lays catalog YAML files out in the one canonical form (key order, quoting,
flow or block style), keeping every comment, like gofmt. Without -l or -w
the formatted files are printed. A directory means its *.yaml files; the
default is catalog/data. See catalog/README.md for the form.

Exit status: 0 on success; 1 with -l when a file is not formatted (for
CI); 2 when a file cannot be read, parsed or written.
`

// runFmt runs `unitd fmt`.
func runFmt(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("unitd fmt", flag.ContinueOnError)
	fs.SetOutput(stderr)
	list := fs.Bool("l", false, "list the files whose formatting differs from unitd fmt's")
	write := fs.Bool("w", false, "write the result to the file instead of printing it")
	fs.Usage = func() {
		fmt.Fprint(stderr, fmtUsage+"\n")
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stderr, "unitd fmt:", err)
		}
		return 2
	}
	if len(pos) == 0 {
		pos = []string{"catalog/data"}
	}
	var files []string
	for _, p := range pos {
		st, err := os.Stat(p)
		if err != nil {
			fmt.Fprintln(stderr, "unitd fmt:", err)
			return 2
		}
		if !st.IsDir() {
			files = append(files, p)
			continue
		}
		matches, err := filepath.Glob(filepath.Join(p, "*.yaml"))
		if err != nil {
			fmt.Fprintln(stderr, "unitd fmt:", err)
			return 2
		}
		sort.Strings(matches)
		files = append(files, matches...)
	}
	code := 0
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			fmt.Fprintln(stderr, "unitd fmt:", err)
			code = 2
			continue
		}
		out, err := catalogfmt.FormatFile(name, src)
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
		if *write && changed {
			if err := writeFileAtomic(name, out); err != nil {
				fmt.Fprintln(stderr, "unitd fmt:", err)
				code = 2
			}
		}
		if !*list && !*write {
			stdout.Write(out)
		}
	}
	if *write && code == 1 {
		code = 0 // the files listed were rewritten
	}
	return code
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
