package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/unitd/unitd/catalog"
	"github.com/unitd/unitd/catalog/docs"
)

var docsCommand = &command{
	name:     "docs",
	synopsis: "[DIR] [--out FILE]",
	summary:  "print the Markdown reference of a catalog: unitd docs --out docs/units.md",
	help: `Prints the Markdown reference of every category and unit of a catalog
directory (default catalog/data). The shipped docs/units.md is made with
` + "`make docs`" + `. Exit status 1 when the catalog does not load, 2 on bad arguments.`,
	run: runDocs,
}

// runDocs runs unitd docs [DIR] [--out FILE]: the Markdown reference of a
// catalog, loaded with the loader unitd serve uses.
func runDocs(c *call) error {
	out := c.flags.String("out", "", "write to `FILE` instead of standard output")
	pos, err := c.parse()
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return exitf(2, "give one catalog directory")
	}
	dir := "catalog/data"
	if len(pos) == 1 {
		dir = pos[0]
	}
	g, errs := catalog.Load(os.DirFS(dir))
	if len(errs) > 0 {
		fmt.Fprintf(c.stderr, "unitd docs: %s does not load; run unitd validate %s\n", dir, dir)
		for _, err := range errs {
			fmt.Fprintln(c.stderr, " ", err)
		}
		return exitCode(1)
	}
	var buf bytes.Buffer
	if err := docs.Write(&buf, g); err != nil {
		return err
	}
	if *out == "" {
		c.stdout.Write(buf.Bytes())
		return nil
	}
	return os.WriteFile(*out, buf.Bytes(), 0o644)
}
