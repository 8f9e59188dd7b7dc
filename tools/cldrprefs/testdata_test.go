package main

import (
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/unitd/unitd/tools/cldr"
)

// fakeCLDR writes a node_modules directory holding a package shaped like
// the npm package cldr, at the pinned version, of the given CLDR release.
func fakeCLDR(t *testing.T, release string) cldr.Modules {
	t.Helper()
	files := map[string]string{
		"package.json": `{"name":"cldr","version":"` + cldr.CommonVersion + `"}`,
		testDir + "dtd/ldmlSupplemental.dtd": `<!ELEMENT version EMPTY >
<!ATTLIST version cldrVersion CDATA #FIXED "` + release + `" >`,
		testDir + "testData/units/unitPreferencesTest.txt": "# header; with; semicolons\n\n" +
			"length;\tdefault;\t001;\t1000;\t1000.0;\tmeter;\t1;\t1.0;\tkilometer\n" +
			"length;\tperson-height;\tCA;\t3429 / 12500;\t0.27432;\tmeter;\t2;\tfoot;\t54 / 5;\t10.8;\tinch\n",
		testDir + "testData/units/unitLocalePreferencesTest.txt": "# header\n" +
			"fahrenheit;\t1;\tdefault;\ten-DE;\tcelsius;\t-155/9\t# a comment; with a semicolon\n",
		"3rdparty/cldr/LICENSE": "\ufeffUNICODE LICENSE V3\n",
	}
	m := cldr.Modules(t.TempDir())
	for name, text := range files {
		path := m.Path(cldr.Common, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

func testGenerator() *generator {
	one := big.NewRat(1, 1)
	gen := &generator{cldrVersion: "48", mapped: map[string]mapping{}}
	for id, unit := range map[string]string{"meter": "m", "kilometer": "km", "foot": "ft", "inch": "in", "fahrenheit": "degF", "celsius": "degC"} {
		gen.mapped[id] = mapping{unit: unit, base: "m", factor: one, offset: new(big.Rat)}
	}
	return gen
}

func TestWriteTestData(t *testing.T) {
	dir := t.TempDir()
	if err := testGenerator().writeTestData(fakeCLDR(t, "48"), dir); err != nil {
		t.Fatal(err)
	}
	lic, err := os.ReadFile(filepath.Join(dir, "LICENSE"))
	if err != nil || string(lic) != "UNICODE LICENSE V3\n" {
		t.Errorf("LICENSE %q, %v: want the licence without its byte order mark", lic, err)
	}
	units, err := os.ReadFile(filepath.Join(dir, "units.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, line := range strings.Split(strings.TrimRight(string(units), "\n"), "\n") {
		if !strings.HasPrefix(line, "#") {
			f := strings.Split(line, "\t")
			if len(f) != 7 {
				t.Errorf("units.tsv line %q has %d fields, want 7", line, len(f))
			}
			ids = append(ids, f[0])
		}
	}
	if got := strings.Join(ids, " "); got != "celsius fahrenheit foot inch kilometer meter" {
		t.Errorf("units.tsv maps %s", got)
	}
	readme, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil || !strings.Contains(string(readme), "Unicode CLDR 48's test data") || !strings.Contains(string(readme), "cldr "+cldr.CommonVersion) {
		t.Errorf("README.md: %v\n%s", err, readme)
	}
}

// TestWriteTestDataChecksRelease refuses test data of another CLDR
// release than the preferences'.
func TestWriteTestDataChecksRelease(t *testing.T) {
	err := testGenerator().writeTestData(fakeCLDR(t, "47"), t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "CLDR 47") || !strings.Contains(err.Error(), "CLDR 48") {
		t.Fatalf("got %v, want an error naming both releases", err)
	}
}
