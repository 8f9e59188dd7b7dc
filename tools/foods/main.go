// Command foods writes the catalog's foods and kitchen ingredients
// (catalog/data/substances-foods.yaml): for each ingredient, the density
// of every state it was measured in (packed brown sugar, sifted powdered
// sugar, chopped onions) and the counts of it that the source weighs (a
// stick of butter, a large egg).
//
// The source is the USDA National Nutrient Database for Standard
// Reference, Release 21 (U.S. Department of Agriculture, Agricultural
// Research Service, 2008; public domain): its food descriptions
// (FOOD_DES.txt) and its gram weights of household measures (WEIGHT.txt:
// "1 cup packed = 220 g"), the flat ASCII files as USDA published them,
// shipped verbatim in the Debian package gourmand (the recipe manager
// Gourmand), pinned by version and by the SHA-256 of the .deb and of
// each file. Without -deb the command fetches the pinned .deb with
// apt-get download (Debian's archive; run apt-get update first).
//
// Which foods are kitchen ingredients, and the names and aliases cooks
// use for them, is this command's choice, in ingredients.tsv beside it;
// every number comes from the source. A density is the grams USDA gives
// for a volume measure, per that measure ("220 g/cup"), which the catalog
// reads exactly: the cup is the US customary cup (8 US fluid ounces,
// 236.5882365 mL), the tablespoon and teaspoon the US ones. Each state a
// food was measured in is a substance of its own, named "brown sugar,
// packed", with the food and the state beside it.
//
// With -testdata the command also writes the two files, gzipped, into
// that directory: the test regenerates the shipped table from them.
//
// Usage:
//
//	go run ./tools/foods [-deb gourmand_VERSION_all.deb] [-out catalog/data/substances-foods.yaml] [-testdata tools/foods/testdata]
package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
)

// Upstream identifies the package and the files the table is generated
// from.
var Upstream = struct {
	Package, Version, SHA256, Licence, Source string
	// Files are the SR's files in the package, by base name, with the
	// SHA-256 of each.
	Dir   string
	Files map[string]string
}{
	Package: "gourmand",
	Version: "1.1.0+really1.1.0~rc3-3",
	SHA256:  "03f798f9d18aeffe2691c595c065f0f6e59287aa3a64327cb607bfc5c4c10d6a",
	Licence: "public domain (USDA food composition data; the package itself is GPL-2+)",
	Source:  "U.S. Department of Agriculture, Agricultural Research Service. 2008. USDA National Nutrient Database for Standard Reference, Release 21. Nutrient Data Laboratory Home Page, http://www.ars.usda.gov/ba/bhnrc/ndl (files FOOD_DES and WEIGHT, as shipped verbatim in the Debian package gourmand 1.1.0+really1.1.0~rc3-3)",
	Dir:     "usr/lib/python3/dist-packages/gourmand/data",
	Files: map[string]string{
		foodFile:   "20cac6f38511861a40573b45059c74042f526cd08a4039e1a4ba9247e9d8b239",
		weightFile: "c028be90469cdb4a6b4db12817521feb06fa676d554291c2e5f68e420e1568fe",
	},
}

const (
	foodFile   = "FOOD_DES.txt"
	weightFile = "WEIGHT.txt"
)

// fetch downloads the pinned package into dir with apt-get download and
// returns its path.
func fetch(dir string) (string, error) {
	cmd := exec.Command("apt-get", "download", Upstream.Package+"="+Upstream.Version)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("apt-get download %s=%s: %w", Upstream.Package, Upstream.Version, err)
	}
	found, _ := filepath.Glob(filepath.Join(dir, Upstream.Package+"_*.deb"))
	if len(found) != 1 {
		return "", errors.New("apt-get download left no single .deb")
	}
	return found[0], nil
}

// readDeb checks the .deb's hash and returns the SR's files from it, each
// checked against its own hash.
func readDeb(file string) (map[string][]byte, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != Upstream.SHA256 {
		return nil, fmt.Errorf("%s: SHA-256 %x is not the pinned %s %s (%s)", file, sum, Upstream.Package, Upstream.Version, Upstream.SHA256)
	}
	out, err := exec.Command("dpkg-deb", "--fsys-tarfile", file).Output()
	if err != nil {
		return nil, fmt.Errorf("dpkg-deb --fsys-tarfile %s: %w", file, err)
	}
	files := map[string][]byte{}
	tr := tar.NewReader(bytes.NewReader(out))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		name := strings.TrimPrefix(h.Name, "./")
		base := path.Base(name)
		if _, ok := Upstream.Files[base]; ok && path.Dir(name) == Upstream.Dir {
			if files[base], err = io.ReadAll(tr); err != nil {
				return nil, fmt.Errorf("%s: %s: %w", file, name, err)
			}
		}
	}
	return files, checkFiles(files)
}

// checkFiles checks that each of the SR's files is there with its pinned
// hash.
func checkFiles(files map[string][]byte) error {
	for name, want := range Upstream.Files {
		data, ok := files[name]
		if !ok {
			return fmt.Errorf("%s/%s not found", Upstream.Dir, name)
		}
		if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != want {
			return fmt.Errorf("%s: SHA-256 %x is not the pinned %s", name, sum, want)
		}
	}
	return nil
}

// writeTestData writes each file gzipped (name.gz) into dir, without a
// name or time in the gzip header, so that the same files give the same
// bytes.
func writeTestData(dir string, files map[string][]byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, data := range files {
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		if _, err := zw.Write(data); err != nil {
			return err
		}
		if err := zw.Close(); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, name+".gz"), b.Bytes(), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// readTestData reads the gzipped files writeTestData wrote and checks
// their hashes.
func readTestData(dir string) (map[string][]byte, error) {
	files := map[string][]byte{}
	for name := range Upstream.Files {
		f, err := os.Open(filepath.Join(dir, name+".gz"))
		if err != nil {
			return nil, err
		}
		zr, err := gzip.NewReader(f)
		if err == nil {
			files[name], err = io.ReadAll(zr)
		}
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s.gz: %w", name, err)
		}
	}
	return files, checkFiles(files)
}

// generate reads the SR's files and writes the table.
func generate(files map[string][]byte, w io.Writer) (*Table, error) {
	foods, err := ParseFoods(bytes.NewReader(files[foodFile]))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", foodFile, err)
	}
	weights, err := ParseWeights(bytes.NewReader(files[weightFile]))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", weightFile, err)
	}
	list, err := ParseIngredients(strings.NewReader(ingredientsTSV))
	if err != nil {
		return nil, fmt.Errorf("ingredients.tsv: %w", err)
	}
	t, err := Build(list, foods, weights)
	if err != nil {
		return nil, err
	}
	return t, Write(w, t)
}

func main() {
	deb := flag.String("deb", "", "the pinned .deb of "+Upstream.Package+" (default: fetch it with apt-get download)")
	out := flag.String("out", "catalog/data/substances-foods.yaml", "the catalog file to write")
	testdata := flag.String("testdata", "tools/foods/testdata", "the directory to write the gzipped source files into, for the test (empty: none)")
	flag.Parse()
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, "foods:", err)
		os.Exit(1)
	}
	if *deb == "" {
		dir, err := os.MkdirTemp("", "foods")
		if err != nil {
			fail(err)
		}
		defer os.RemoveAll(dir)
		if *deb, err = fetch(dir); err != nil {
			fail(err)
		}
	}
	files, err := readDeb(*deb)
	if err != nil {
		fail(err)
	}
	var b bytes.Buffer
	t, err := generate(files, &b)
	if err != nil {
		fail(err)
	}
	if err := os.WriteFile(*out, b.Bytes(), 0o644); err != nil {
		fail(err)
	}
	if *testdata != "" {
		if err := writeTestData(*testdata, files); err != nil {
			fail(err)
		}
	}
	fmt.Fprintf(os.Stderr, "foods: %d foods in %d states, %d portions, written to %s\n", t.Foods, len(t.Entries), t.Portions, *out)
}
