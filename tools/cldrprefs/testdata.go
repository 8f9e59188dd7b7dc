package main

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/unitd/unitd/tools/cldr"
)

// CLDR's conformance data for unit preferences (common/testData/units of
// the CLDR release) is not in the cldr-json packages; the npm package
// cldr, which carries the CLDR release's XML and test data under
// 3rdparty/cldr, is. The tool ships its two preference test files
// verbatim with the licence, a README and the mapping of every CLDR unit
// they name onto the catalog, made by the same mapper as the preferences.

const testDir = "3rdparty/cldr/common/"

// testFiles are the files shipped verbatim, by their name in the package.
var testFiles = map[string]string{
	testDir + "testData/units/unitPreferencesTest.txt":       "unitPreferencesTest.txt",
	testDir + "testData/units/unitLocalePreferencesTest.txt": "unitLocalePreferencesTest.txt",
	"3rdparty/cldr/LICENSE":                                  "LICENSE",
}

// writeTestData ships the test files of the npm package cldr, of the
// release tools/cldr pins, into dir.
func (gen *generator) writeTestData(modules cldr.Modules, dir string) error {
	pkg, err := modules.Package(cldr.Common)
	if err != nil {
		return err
	}
	version := pkg.Version
	dtd := testDir + "dtd/ldmlSupplemental.dtd"
	files := map[string][]byte{}
	for _, name := range append([]string{dtd}, slices.Sorted(maps.Keys(testFiles))...) {
		if files[name], err = modules.ReadFile(cldr.Common, name); err != nil {
			return err
		}
	}
	// The release the data is of: the DTD fixes the version attribute.
	m := regexp.MustCompile(`<!ATTLIST version cldrVersion CDATA #FIXED "([0-9.]+)"`).FindSubmatch(files[dtd])
	if m == nil {
		return fmt.Errorf("%s does not say its CLDR version", dtd)
	}
	if string(m[1]) != gen.cldrVersion {
		return fmt.Errorf("cldr %s carries the test data of CLDR %s, the preferences are of CLDR %s: choose the cldr release of CLDR %s (npm view cldr versions)",
			version, m[1], gen.cldrVersion, gen.cldrVersion)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for from, to := range testFiles {
		// The licence starts with a byte order mark: drop it.
		text := bytes.TrimPrefix(files[from], []byte("\ufeff"))
		if err := os.WriteFile(filepath.Join(dir, to), text, 0o644); err != nil {
			return err
		}
	}
	units, err := gen.testUnits(files[testDir+"testData/units/unitPreferencesTest.txt"], files[testDir+"testData/units/unitLocalePreferencesTest.txt"])
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "units.tsv"), units, 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "README.md"), gen.testReadme(version), 0o644)
}

// testUnits maps every CLDR unit the test files name, as the preferences'
// units are mapped: the catalog unit, CLDR's exact factor and offset to
// its base unit, the base as a catalog expression, and the substance. A
// unit that no catalog unit is gets "-" and the reason instead.
func (gen *generator) testUnits(prefs, locale []byte) ([]byte, error) {
	ids := map[string]bool{}
	for _, line := range lines(prefs) {
		f := fields(line)
		if len(f) < 9 {
			return nil, fmt.Errorf("unitPreferencesTest.txt: %q has %d fields, want 9 or more", line, len(f))
		}
		ids[f[5]] = true
		for i := 6; i < len(f); i++ {
			if i == len(f)-1 || (i < len(f)-3 && (i-6)%2 == 1) {
				ids[f[i]] = true
			}
		}
	}
	for _, line := range lines(locale) {
		line, _, _ = strings.Cut(line, "#")
		f := fields(line)
		if len(f) != 6 {
			return nil, fmt.Errorf("unitLocalePreferencesTest.txt: %q has %d fields, want 6", line, len(f))
		}
		ids[f[0]], ids[f[4]] = true, true
	}
	sorted := make([]string, 0, len(ids))
	for id := range ids {
		sorted = append(sorted, id)
	}
	sort.Strings(sorted)
	var b bytes.Buffer
	b.WriteString("# The CLDR units of unitPreferencesTest.txt and unitLocalePreferencesTest.txt,\n" +
		"# mapped onto the catalog by tools/cldrprefs as the preferences' units are.\n" +
		"# Tab-separated: CLDR id, catalog unit (\"-\" where no catalog unit is the\n" +
		"# CLDR unit), CLDR's exact factor and offset to its base unit, the base as\n" +
		"# a catalog expression, substance, and why there is no catalog unit.\n" +
		"# Generated; do not edit.\n")
	m := newMapper(gen.catalog)
	for _, id := range sorted {
		mp, ok := gen.mapped[id]
		why := ""
		if !ok {
			cu, err := gen.units.unit(id)
			if err != nil {
				return nil, fmt.Errorf("test unit %s: %w", id, err)
			}
			if mp, err = m.find(id, cu); err != nil {
				why = strings.ReplaceAll(err.Error(), "\t", " ")
				mp.unit = "-"
			}
		}
		fmt.Fprintf(&b, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", id, mp.unit, mp.factor.RatString(), mp.offset.RatString(), mp.base, mp.substance, why)
	}
	return b.Bytes(), nil
}

// lines returns the data lines of a test file: no comments, no blanks.
func lines(src []byte) []string {
	var out []string
	for _, line := range strings.Split(string(src), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, line)
	}
	return out
}

func fields(line string) []string {
	f := strings.Split(line, ";")
	for i := range f {
		f[i] = strings.TrimSpace(f[i])
	}
	return f
}

func (gen *generator) testReadme(version string) []byte {
	return []byte(fmt.Sprintf(`# CLDR's conformance data for unit preferences

Unicode CLDR %[1]s's test data for unit preferences (UTS #35 Part 6), which
engine/cldr_test.go runs through conversions to "auto" over the shipped catalog:

- unitPreferencesTest.txt: quantity, usage, region, an input amount and unit,
  and the unit(s) and amount(s) expected;
- unitLocalePreferencesTest.txt: the same by locale, with the -u-rg-, -u-ms-
  and -u-mu- keywords;
- units.tsv: every CLDR unit these files name, mapped onto the catalog by
  tools/cldrprefs as the units of preferences.yaml are;
- LICENSE: the Unicode License v3 (SPDX Unicode-3.0), under which the data is
  distributed; its notice goes with every copy.

Source: the npm package cldr %[2]s (Unicode CLDR %[1]s, as its
common/dtd/ldmlSupplemental.dtd says), files
3rdparty/cldr/common/testData/units/unitPreferencesTest.txt and
unitLocalePreferencesTest.txt and 3rdparty/cldr/LICENSE, copied verbatim.
The cldr-json packages, which preferences.yaml is generated from, do not
carry CLDR's test data; the tool checks that both are of the same release.

Generated with preferences.yaml; do not edit. Regenerate with

    go run ./tools/cldrprefs -cldr-version %[2]s
`, gen.cldrVersion, version))
}
