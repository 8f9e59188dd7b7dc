package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeCLDR writes a tarball shaped like the npm package cldr, of the
// given CLDR release.
func fakeCLDR(t *testing.T, release string) string {
	t.Helper()
	files := map[string]string{
		"package/package.json": `{"name":"cldr","version":"8.0.0"}`,
		testDir + "dtd/ldmlSupplemental.dtd": `<!ELEMENT version EMPTY >
<!ATTLIST version cldrVersion CDATA #FIXED "` + release + `" >`,
		testDir + "testData/units/unitPreferencesTest.txt": "# header; with; semicolons\n\n" +
			"length;\tdefault;\t001;\t1000;\t1000.0;\tmeter;\t1;\t1.0;\tkilometer\n" +
			"length;\tperson-height;\tCA;\t3429 / 12500;\t0.27432;\tmeter;\t2;\tfoot;\t54 / 5;\t10.8;\tinch\n",
		testDir + "testData/units/unitLocalePreferencesTest.txt": "# header\n" +
			"fahrenheit;\t1;\tdefault;\ten-DE;\tcelsius;\t-155/9\t# a comment; with a semicolon\n",
		"package/3rdparty/cldr/LICENSE": "\ufeffUNICODE LICENSE V3\n",
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for name, text := range files {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(text))}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(text)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(t.TempDir(), "cldr-8.0.0.tgz")
	if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return name
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
	if err := testGenerator().writeTestData("8.0.0", fakeCLDR(t, "48"), dir); err != nil {
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
	if err != nil || !strings.Contains(string(readme), "Unicode CLDR 48's test data") || !strings.Contains(string(readme), "cldr 8.0.0") {
		t.Errorf("README.md: %v\n%s", err, readme)
	}
}

// TestWriteTestDataChecksRelease refuses test data of another CLDR
// release than the preferences'.
func TestWriteTestDataChecksRelease(t *testing.T) {
	err := testGenerator().writeTestData("8.0.0", fakeCLDR(t, "47"), t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "CLDR 47") || !strings.Contains(err.Error(), "CLDR 48") {
		t.Fatalf("got %v, want an error naming both releases", err)
	}
}
