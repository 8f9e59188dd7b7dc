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
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/unitd/unitd/tools/debian"
)

// Upstream identifies the package and the files the table is generated
// from.
var Upstream = struct {
	// Deb is the package, with the SR's files in it, by base name, each
	// with its SHA-256.
	Deb             debian.Package
	Licence, Source string
}{
	Deb: debian.Package{
		Name:    "gourmand",
		Version: "1.1.0+really1.1.0~rc3-3",
		SHA256:  "03f798f9d18aeffe2691c595c065f0f6e59287aa3a64327cb607bfc5c4c10d6a",
		Dir:     "usr/lib/python3/dist-packages/gourmand/data",
		Files: map[string]string{
			foodFile:   "20cac6f38511861a40573b45059c74042f526cd08a4039e1a4ba9247e9d8b239",
			weightFile: "c028be90469cdb4a6b4db12817521feb06fa676d554291c2e5f68e420e1568fe",
		},
	},
	Licence: "public domain (USDA food composition data; the package itself is GPL-2+)",
	Source:  "U.S. Department of Agriculture, Agricultural Research Service. 2008. USDA National Nutrient Database for Standard Reference, Release 21. Nutrient Data Laboratory Home Page, http://www.ars.usda.gov/ba/bhnrc/ndl (files FOOD_DES and WEIGHT, as shipped verbatim in the Debian package gourmand 1.1.0+really1.1.0~rc3-3)",
}

const (
	foodFile   = "FOOD_DES.txt"
	weightFile = "WEIGHT.txt"
)

// readTestData reads the gzipped files the command wrote with -testdata
// and checks their hashes.
func readTestData(dir string) (map[string][]byte, error) {
	files, err := debian.ReadTestData(dir)
	if err != nil {
		return nil, err
	}
	return files, debian.Check(files, Upstream.Deb.Files)
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
	deb := flag.String("deb", "", "the pinned .deb of "+Upstream.Deb.Name+" (default: fetch it with apt-get download)")
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
		debs, err := debian.Fetch(dir, Upstream.Deb)
		if err != nil {
			fail(err)
		}
		*deb = debs[0]
	}
	files, err := Upstream.Deb.Read(*deb)
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
		if err := debian.WriteTestData(*testdata, files); err != nil {
			fail(err)
		}
	}
	fmt.Fprintf(os.Stderr, "foods: %d foods in %d states, %d portions, written to %s\n", t.Foods, len(t.Entries), t.Portions, *out)
}
