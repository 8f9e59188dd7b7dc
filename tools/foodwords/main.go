// Command foodwords writes engine/text/foodwords.go: the words of other
// languages for the catalog's foods ("Zucker", "Mehl", "farine",
// "azúcar", "burro"), each with the English name of the food that a
// bilingual dictionary gives for it, so that free text in those
// languages finds its ingredient ("2 EL Zucker" with locale de). The
// English name must name a food of the catalog as English free text would
// (text.Pantry.Find: "sugar", "flour", "eggs"); the pantry finds the foods
// by it.
//
// The dictionaries are Debian packages, pinned by version and by the
// SHA-256 of the .deb and of each file read from it:
//
//   - German: Ding, the German–English dictionary of TU Chemnitz (Frank
//     Richter), package trans-de-en 1.9-6 (GPL-2+), file
//     usr/share/trans/de-en;
//   - French, Spanish, Italian, Dutch and Portuguese: FreeDict, packages
//     dict-freedict-LLL-eng and dict-freedict-eng-LLL 2022.04.21-1
//     (GPL-2+), both directions of each language.
//
// Which of a dictionary's pairs give a food's word is read from the
// dictionary's own markup (ding.go, freedict.go); nothing is typed here.
//
// The dictionaries are large (Ding's file is 25 MB), so with -testdata the
// command writes, gzipped, the excerpts the table is built from: the Ding
// lines and FreeDict entries with an English word the catalog knows.
// The table is built from those excerpts, here and in the test, which
// rebuilds the shipped table from them; the generated file records the
// SHA-256 of each. A change of the catalog's food names needs a new run.
//
// Without -debs the command fetches the pinned packages with apt-get
// download (run apt-get update first).
//
// Usage:
//
//	go run ./tools/foodwords [-debs DIR] [-out engine/text/foodwords.go] [-testdata tools/foodwords/testdata]
package main

import (
	"errors"
	"flag"
	"fmt"
	"log"
	"maps"
	"os"

	"github.com/unitd/unitd/catalog"
	"github.com/unitd/unitd/engine/text"
	"github.com/unitd/unitd/tools/debian"
)

// Licence is the licence of every dictionary read.
const Licence = "GPL-2+"

// Ding is the German–English dictionary.
var Ding = debian.Package{
	Name: "trans-de-en", Version: "1.9-6",
	SHA256: "45f6b4cf1c434776fba6811d7bc522efabb5425c43ba8afd0e289bf9e2e53df4",
	Files:  map[string]string{dingFile: "34052c6021d09eadfee7a893a789204265954df70fe9c36d38fa00058d79d326"},
}

const dingFile = "usr/share/trans/de-en"

// FreeDictVersion is the version of every FreeDict package read.
const FreeDictVersion = "2022.04.21-1"

// FreeDict lists the languages read from FreeDict: the language's tag,
// its ISO 639-3 code, and the SHA-256 of its two packages and four files.
var FreeDict = []FreeDictLanguage{
	{Tag: "fr", Code: "fra",
		ToEnglish: debian.Package{SHA256: "fb853d1f3da00ddddfe60dc3b88b5aaca122eecf3ba5c219131bea479d6274db", Files: map[string]string{
			".index": "1e592f4caa40294377e8ee4bf5e4dc18c730fe79addf4f039eec2eec265540c5", ".dict.dz": "03fdb4912187359faf0f0801b15510937a4d5f2ea9000dbd4968d921947a1175"}},
		FromEnglish: debian.Package{SHA256: "b8db6774b640ae8a372bee119b4304d88e6fd471a283d1326d7ec0abcc8b930e", Files: map[string]string{
			".index": "8786765e01f1bcb82efd818bafa6970e2c7f73cb6fb58c94a6f13eb291eeaad7", ".dict.dz": "aaa6ecd1fd5713e8a21cabdef34695f618f12bea8e06a0e9225613d324484402"}}},
	{Tag: "es", Code: "spa",
		ToEnglish: debian.Package{SHA256: "debf5f88fcdaebe824704664cdbb42b6c14f82ab4adda4e91bc388b16200eefc", Files: map[string]string{
			".index": "e874c04f3912812b7e128c9fdd6b10b96ffe6624b09bc4353f9cfa761208c90d", ".dict.dz": "c62e089dc5797e337457cdc22abd0d510df18901a32e84b0d173da6bc6ef66da"}},
		FromEnglish: debian.Package{SHA256: "1b6a624048eddad805dcf0473a74e53420fbe391e7f2638090bddf625e9ad2b6", Files: map[string]string{
			".index": "1a74493522ebcfa3ff93e4e0d4f16ffed3afc4a64a8192f419b77d14789ac718", ".dict.dz": "1e33c230e4c1ba56a3ad48e50d0d52ea0ffd41b2e6d51880457cb6d1fcb6f2e3"}}},
	{Tag: "it", Code: "ita",
		ToEnglish: debian.Package{SHA256: "f0d7a5dd47cefd2e7e8e3be19dc78df6607989324bb1ad8bc61b9a657c3a4774", Files: map[string]string{
			".index": "05302b630d1b7ec726e9e7cb51cfacd8a788ba2ba89e4cd982c36d8eb37ad724", ".dict.dz": "0559ddaaad1aa02a302f5446985a9d8e2b561b6fcb98096c7398970669a4b9f7"}},
		FromEnglish: debian.Package{SHA256: "aef18ac10bd7582f99b819f634edad0dc0060e59a06f3f041a40203c53e9bb22", Files: map[string]string{
			".index": "51607eebc261c957ab9dc3c35b7b099d2993a05579414953ff32a23f6091d1c6", ".dict.dz": "a8d1b2a48d41e8cd9c2f8bf8d6b915fef8cf552f1534f65ec34c2a4f2d62e9a4"}}},
	{Tag: "nl", Code: "nld",
		ToEnglish: debian.Package{SHA256: "827dbf561be0ea04a70a049d8604a82aa2c709e7b744fe1096bd2c8008b0527d", Files: map[string]string{
			".index": "e0f3559cf5bc33974f66604192419273649b9c6197b177cb2be90d35810f760f", ".dict.dz": "404a8b8070a629fbb53877e3300a0690a768804c29e210f991cce9912ca5b548"}},
		FromEnglish: debian.Package{SHA256: "82bc479217e728e95d61aedc4dfb8472b4a9db23412e9754b8f24a9a2d50e943", Files: map[string]string{
			".index": "ce04ba9acd1f02d6690a62c38b7f7f53a07942750b168e4d02b2c1ecfa445c1d", ".dict.dz": "2fa74447908fe1c1ecab54b0507a322c1a1bdc044f2227ac7420fea524a26294"}}},
	{Tag: "pt", Code: "por",
		ToEnglish: debian.Package{SHA256: "6c688a9148bde82a6fbd6b2e3a80c1cec3eb4b3ec2d37901c94dc90bfb008950", Files: map[string]string{
			".index": "9995633de2ffabd0187d0e386326f4f302ccd4f9c61a962201856c3b92396867", ".dict.dz": "b23195d474308006886f7a0369381ef29e31867e84dccd47204930154ced357a"}},
		FromEnglish: debian.Package{SHA256: "ef942ae345dda5f504b256a9df131993350737f70a1e55c58f49e4ae3196ec3f", Files: map[string]string{
			".index": "ca8b27a269a6868b7ab231fee7fc991b46f2c31c723f94fea959a260657c4f9d", ".dict.dz": "4ca796855d0a968736d15b8d4ed2f3f93f28400a412d742605efdd5a0e8bd7a4"}}},
}

// FreeDictLanguage is a language read from FreeDict. The packages'
// names, version and file paths follow from Code; their Files map a
// suffix of the dictionary's base path to the file's SHA-256.
type FreeDictLanguage struct {
	Tag, Code              string
	ToEnglish, FromEnglish debian.Package
}

// packages returns every pinned package, named, with full file paths.
func packages() []debian.Package {
	out := []debian.Package{Ding}
	for _, l := range FreeDict {
		for _, p := range []struct {
			pair string
			pkg  debian.Package
		}{{l.Code + "-eng", l.ToEnglish}, {"eng-" + l.Code, l.FromEnglish}} {
			full := debian.Package{Name: "dict-freedict-" + p.pair, Version: FreeDictVersion, SHA256: p.pkg.SHA256, Files: map[string]string{}}
			for suffix, sum := range p.pkg.Files {
				full.Files[freeDictBase(p.pair)+suffix] = sum
			}
			out = append(out, full)
		}
	}
	return out
}

// freeDictBase is the base path of a FreeDict dictionary in its package.
func freeDictBase(pair string) string { return "usr/share/dictd/freedict-" + pair }

func main() {
	log.SetFlags(0)
	log.SetPrefix("foodwords: ")
	dir := flag.String("debs", "", "directory holding the pinned .debs (default: apt-get download into a temporary one)")
	out := flag.String("out", "engine/text/foodwords.go", "output file")
	testdata := flag.String("testdata", "", "also write the excerpts, gzipped, into this directory")
	flag.Parse()
	pkgs := packages()
	var debs []string
	if *dir == "" {
		tmp, err := os.MkdirTemp("", "foodwords")
		if err != nil {
			log.Fatal(err)
		}
		defer os.RemoveAll(tmp)
		if debs, err = debian.Fetch(tmp, pkgs...); err != nil {
			log.Fatal(err)
		}
	} else {
		for _, p := range pkgs {
			deb, err := debian.Find(*dir, p)
			if err != nil {
				log.Fatal(err)
			}
			debs = append(debs, deb)
		}
	}
	files := map[string][]byte{}
	for i, p := range pkgs {
		got, err := p.Read(debs[i])
		if err != nil {
			log.Fatal(err)
		}
		maps.Copy(files, got)
	}
	pantry, err := catalogPantry()
	if err != nil {
		log.Fatal(err)
	}
	known := func(english string) bool { return len(pantry.Find(english, "")) > 0 }
	ex, err := Excerpts(files, known)
	if err != nil {
		log.Fatal(err)
	}
	src, err := Generate(ex, known)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
	if *testdata != "" {
		if err := debian.WriteTestData(*testdata, ex); err != nil {
			log.Fatal(err)
		}
	}
}

// catalogPantry is the pantry of the shipped catalog, which says which
// English names are the catalog's foods.
func catalogPantry() (*text.Pantry, error) {
	g, errs := catalog.Load(catalog.Embedded())
	if len(errs) > 0 {
		return nil, fmt.Errorf("loading the catalog: %w", errors.Join(errs...))
	}
	return text.NewPantry(g.Substances()), nil
}
