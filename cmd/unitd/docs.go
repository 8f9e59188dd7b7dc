package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/unitd/unitd/catalog"
	"github.com/unitd/unitd/catalog/docs"
)

// runDocs runs `unitd docs [DIR] [--out FILE]`: the Markdown reference of
// a catalog, loaded with the loader unitd serve uses.
func runDocs(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("unitd docs", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "write to `FILE` instead of standard output")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: unitd docs [DIR] [--out FILE]\n\nPrints the Markdown reference of every category and unit of a catalog\ndirectory (default catalog/data). The shipped docs/units.md is made with\n`make docs`. Exit status 1 when the catalog does not load, 2 on bad arguments.")
		printFlags(fs)
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0 // usage was asked for, and printed
		}
		fmt.Fprintln(stderr, "unitd docs:", err)
		return 2
	}
	if len(pos) > 1 {
		fmt.Fprintln(stderr, "unitd docs: give one catalog directory")
		return 2
	}
	dir := "catalog/data"
	if len(pos) == 1 {
		dir = pos[0]
	}
	g, errs := catalog.Load(os.DirFS(dir))
	if len(errs) > 0 {
		fmt.Fprintf(stderr, "unitd docs: %s does not load; run unitd validate %s\n", dir, dir)
		for _, err := range errs {
			fmt.Fprintln(stderr, " ", err)
		}
		return 1
	}
	var buf bytes.Buffer
	if err := docs.Write(&buf, g); err != nil {
		fmt.Fprintln(stderr, "unitd docs:", err)
		return 1
	}
	if *out == "" {
		stdout.Write(buf.Bytes())
		return 0
	}
	if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		fmt.Fprintln(stderr, "unitd docs:", err)
		return 1
	}
	return 0
}
