// Command catalogsnap writes the snapshot of the embedded catalog
// (catalog/graph.snap): the compiled core of the catalog of catalog/data,
// which the binary reads at start-up instead of compiling the YAML. Run it
// after editing catalog/data; the catalog's tests fail until it is run.
//
//	go run ./tools/catalogsnap [-out catalog/graph.snap]
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/unitd/unitd/catalog"
)

func main() {
	out := flag.String("out", "catalog/graph.snap", "file the snapshot is written to")
	flag.Parse()
	data, err := catalog.Snapshot()
	if err != nil {
		fmt.Fprintln(os.Stderr, "catalogsnap:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, data, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "catalogsnap:", err)
		os.Exit(1)
	}
}
