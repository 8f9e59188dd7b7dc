// Command codetables regenerates unitd's standard unit code tables
// (catalog/codes: UCUM, CLDR, QUDT, the UN/ECE Rec 20 code list) from the
// packages of their owners on the npm registry, at the versions pinned
// below, and records each upstream name, version and licence in
// catalog/codes/SOURCES.md. It also ships CLDR's own test of unit
// conversions (unitsTest.txt, with its licence and SOURCES.md) into
// catalog/testdata/cldr, which the catalog's tests run. It installs the
// packages into a temporary directory with npm and runs gen.mjs (beside
// this file) with node over them.
//
//	go run ./tools/codetables [-out catalog/codes] [-testdata catalog/testdata/cldr]
//
// After a run, `go test ./catalog` and `unitd validate` check that the
// catalog's codes still agree with the new tables.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"

	"github.com/unitd/unitd/tools/cldr"
)

// packages are the upstream packages and their pinned versions; the CLDR
// ones are of the release package tools/cldr pins.
var packages = []string{
	"@lhncbc/ucum-lhc@7.1.10",              // UCUM table (from ucum-essence.xml), and its licence
	"cldr-core@" + cldr.Version,            // CLDR units.json
	"@qudtlib/allunits@7.1.0",              // QUDT units
	"ucum@0.0.7",                           // vendors the UCUM functional tests
	"@e-invoice-eu/core@2.3.4",             // the EN 16931 list of UN/ECE Rec 20/21 codes
	cldr.Common + "@" + cldr.CommonVersion, // carries the release's common/testData/units/unitsTest.txt
}

func main() {
	out := flag.String("out", "catalog/codes", "directory the tables are written to")
	testdata := flag.String("testdata", "catalog/testdata/cldr", "directory CLDR's unitsTest.txt is written to")
	flag.Parse()
	if err := run(*out, *testdata); err != nil {
		fmt.Fprintln(os.Stderr, "codetables:", err)
		os.Exit(1)
	}
}

func run(out, testdata string) error {
	_, self, _, ok := runtime.Caller(0)
	if !ok {
		return fmt.Errorf("cannot find gen.mjs")
	}
	script := filepath.Join(filepath.Dir(self), "gen.mjs")
	tmp, err := os.MkdirTemp("", "codetables")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	args := append([]string{"install", "--no-audit", "--no-fund", "--ignore-scripts", "--prefix", tmp}, packages...)
	if err := command("npm", args...); err != nil {
		return err
	}
	// What npm installed is of the pinned CLDR release.
	modules := filepath.Join(tmp, "node_modules")
	for _, p := range []string{"cldr-core", cldr.Common} {
		if _, err := cldr.Modules(modules).Package(p); err != nil {
			return err
		}
	}
	var dirs []string
	for _, d := range []string{out, testdata} {
		abs, err := filepath.Abs(d)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(abs, 0o755); err != nil {
			return err
		}
		dirs = append(dirs, abs)
	}
	return command("node", append([]string{script, modules}, dirs...)...)
}

func command(name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}
