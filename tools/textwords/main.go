// Command textwords writes engine/text/tables.go, the data free text is
// read with beside CLDR's unit names (package locale):
//
//   - the spelled numbers and fractions of each language ("one", "a
//     dozen", "a half", "two thirds", "un tercio", "en halv"): the NUMBERS
//     tables of the recipe reader of Gourmand, one file per language
//     (gourmand/defaults/defaults_LANG.py), from the Debian package
//     gourmand 1.1.0+really1.1.0~rc3-3 (GPL-2+), pinned by the SHA-256 of
//     the .deb and of each file; languages whose table is empty (de, fr)
//     have none;
//   - the measurement system of each region (CLDR's measurementData:
//     metric, US, UK), from the npm package cldr-core of the release
//     package tools/cldr pins (Unicode-3.0), which settles a unit whose meaning depends on the
//     region.
//
// Without -deb it fetches the pinned .deb with apt-get download (run
// apt-get update first); without -cldr it fetches cldr-core with npm into
// a temporary directory (tools/cldr). With -testdata it also writes the source files,
// gzipped, into that directory: the test regenerates the shipped table
// from them.
//
//	go run ./tools/textwords [-deb gourmand_VERSION_all.deb] [-cldr node_modules] [-out engine/text/tables.go] [-testdata tools/textwords/testdata]
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/format"
	"log"
	"maps"
	"math/big"
	"os"
	"sort"
	"strings"

	"github.com/unitd/unitd/tools/cldr"
	"github.com/unitd/unitd/tools/debian"
)

// Upstream identifies the sources.
var Upstream = struct {
	// Deb is gourmand, with its defaults files by base name.
	Deb                            debian.Package
	Licence                        string
	CLDR, CLDRVersion, CLDRLicence string
	CLDRFile, CLDRSHA256           string
}{
	Deb: debian.Package{
		Name:    "gourmand",
		Version: "1.1.0+really1.1.0~rc3-3",
		SHA256:  "03f798f9d18aeffe2691c595c065f0f6e59287aa3a64327cb607bfc5c4c10d6a",
		Dir:     "usr/lib/python3/dist-packages/gourmand/defaults",
		Files: map[string]string{
			"defaults_en.py": "0882b1db8657b2f305e0950cc5ba33412efb215dae88677558baee0604e91474",
			"defaults_es.py": "d7191f62def3cb56f369e52d7db4faa1e289b2ab4c77a85b14ae47df976f6195",
			"defaults_pt.py": "5a4cb967c42fb51cdedef084484146edaa5223911991ed2ab79d5fe1facc555f",
			"defaults_ru.py": "d39e729fddaf6109b11f6ab70f1e1abe703c5dd5e5188384e21b27a4354f397c",
			"defaults_sk.py": "9e7c1568b5471cf8f6bd15019f36b67791928476bf29a7bb267154ec3d52d55f",
			"defaults_sv.py": "904f462dcc564cc44bcfeec8a79c57c3f992546e5bf821754ed906f6ba64cdac",
			"defaults_nl.py": "dc03a825f4102be070f57918b210c13ccf704ba23eed83f06c04ac366cb17c55",
			"defaults_de.py": "f37de6034afb5148fd70776a40099123d352470b9e61075b6cc1c5f6858a2e73",
			"defaults_fr.py": "02c48012785aa7e9f3e5a1504ce5a3e021756f76adf79780f3cb7dd85c7b5824",
		},
	},
	Licence:     "GPL-2+ (Gourmand Recipe Manager)",
	CLDR:        "cldr-core",
	CLDRVersion: cldr.Version,
	CLDRLicence: cldr.Licence,
	CLDRFile:    "measurementData.json",
	CLDRSHA256:  "b9ad53438285d93f372c9475b4659172ef801d2732906b734e6fa7b0c2474d9d",
}

func main() {
	log.SetFlags(0)
	log.SetPrefix("textwords: ")
	deb := flag.String("deb", "", "the pinned gourmand .deb (default: apt-get download)")
	cldrDir := flag.String("cldr", "", "node_modules directory holding cldr-core "+Upstream.CLDRVersion+" (default: npm pack)")
	out := flag.String("out", "engine/text/tables.go", "output file")
	testdata := flag.String("testdata", "", "also write the sources, gzipped, into this directory")
	flag.Parse()
	if *deb == "" {
		tmp, err := os.MkdirTemp("", "textwords")
		if err != nil {
			log.Fatal(err)
		}
		defer os.RemoveAll(tmp)
		debs, err := debian.Fetch(tmp, Upstream.Deb)
		if err != nil {
			log.Fatal(err)
		}
		*deb = debs[0]
	}
	modules, cleanup, err := cldr.Open(*cldrDir, Upstream.CLDR)
	if err != nil {
		log.Fatal(err)
	}
	defer cleanup()
	files, err := Upstream.Deb.Read(*deb)
	if err != nil {
		log.Fatal(err)
	}
	m, err := modules.ReadFile(Upstream.CLDR, "supplemental/"+Upstream.CLDRFile)
	if err != nil {
		log.Fatal(err)
	}
	files[Upstream.CLDRFile] = m
	if err := checkFiles(files); err != nil {
		log.Fatal(err)
	}
	src, err := Generate(files)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
	if *testdata != "" {
		if err := debian.WriteTestData(*testdata, files); err != nil {
			log.Fatal(err)
		}
	}
}

// checkFiles checks each source against its pinned hash.
func checkFiles(files map[string][]byte) error {
	want := map[string]string{Upstream.CLDRFile: Upstream.CLDRSHA256}
	maps.Copy(want, Upstream.Deb.Files)
	return debian.Check(files, want)
}

// ReadTestData reads the gzipped sources of dir and checks them.
func ReadTestData(dir string) (map[string][]byte, error) {
	files, err := debian.ReadTestData(dir)
	if err != nil {
		return nil, err
	}
	return files, checkFiles(files)
}

// Generate writes tables.go from the sources.
func Generate(files map[string][]byte) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("// Code generated by go run ./tools/textwords; DO NOT EDIT.\n\n")
	b.WriteString("package text\n\n")
	fmt.Fprintf(&b, "// Sources: the NUMBERS tables of %s %s (%s), files %s/defaults_LANG.py; CLDR %s %s (%s), supplemental/%s.\n\n",
		Upstream.Deb.Name, Upstream.Deb.Version, Upstream.Licence, Upstream.Deb.Dir, Upstream.CLDR, Upstream.CLDRVersion, Upstream.CLDRLicence, Upstream.CLDRFile)
	var md struct {
		Supplemental struct {
			MeasurementData struct {
				MeasurementSystem map[string]string `json:"measurementSystem"`
			} `json:"measurementData"`
		} `json:"supplemental"`
	}
	if err := json.Unmarshal(files[Upstream.CLDRFile], &md); err != nil {
		return nil, fmt.Errorf("%s: %w", Upstream.CLDRFile, err)
	}
	ms := md.Supplemental.MeasurementData.MeasurementSystem
	if ms["001"] == "" {
		return nil, errors.New("measurementData has no system for 001")
	}
	b.WriteString("// measurementSystems is the measurement system of each region CLDR names\n// (metric, US, UK); every other region has 001's.\nvar measurementSystems = map[string]string{\n")
	for _, k := range sortedKeys(ms) {
		fmt.Fprintf(&b, "\t%q: %q,\n", k, ms[k])
	}
	b.WriteString("}\n\n")
	b.WriteString("// spelledNumbers are the spelled numbers of each language, value num/den.\nvar spelledNumbers = map[string][]spelledNumber{\n")
	var langs []string
	for name := range Upstream.Deb.Files {
		langs = append(langs, strings.TrimSuffix(strings.TrimPrefix(name, "defaults_"), ".py"))
	}
	sort.Strings(langs)
	for _, lang := range langs {
		entries, err := numbers(files["defaults_"+lang+".py"])
		if err != nil {
			return nil, fmt.Errorf("defaults_%s.py: %w", lang, err)
		}
		if len(entries) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\t%q: {\n", lang)
		for _, e := range entries {
			fmt.Fprintf(&b, "\t\t{%q, %s, %s},\n", e.text, e.v.Num(), e.v.Denom())
		}
		b.WriteString("\t},\n")
	}
	b.WriteString("}\n")
	return format.Source(b.Bytes())
}

func sortedKeys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

type entry struct {
	text string
	v    *big.Rat
}

// numbers reads the NUMBERS dictionary of a defaults file: keys that are
// numbers or quotients of numbers ("(1.0/8)", "1.0 / 3", "12"), values
// lists of string literals.
func numbers(src []byte) ([]entry, error) {
	s := string(src)
	i := strings.Index(s, "\n    NUMBERS")
	if i < 0 {
		return nil, nil // a language without spelled numbers
	}
	s = s[i:]
	open := strings.IndexByte(s, '{')
	if open < 0 {
		return nil, errors.New("NUMBERS is no dictionary")
	}
	body, err := balanced(s[open:], '{', '}')
	if err != nil {
		return nil, err
	}
	var out []entry
	for rest := strings.TrimSpace(body); rest != ""; {
		colon := strings.IndexByte(rest, ':')
		if colon < 0 {
			break
		}
		v, err := quotient(rest[:colon])
		if err != nil {
			return nil, err
		}
		rest = strings.TrimSpace(rest[colon+1:])
		list, err := balanced(rest, '[', ']')
		if err != nil {
			return nil, err
		}
		rest = strings.TrimSpace(rest[len(list)+2:])
		rest = strings.TrimSpace(strings.TrimPrefix(rest, ","))
		for strings.HasPrefix(rest, "#") {
			// A comment runs to the end of its line.
			_, after, _ := strings.Cut(rest, "\n")
			rest = strings.TrimSpace(after)
		}
		strs, err := literals(list)
		if err != nil {
			return nil, err
		}
		for _, t := range strs {
			out = append(out, entry{t, v})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].text < out[j].text })
	return out, nil
}

// balanced returns the text inside the bracket s opens, skipping string
// literals and comments.
func balanced(s string, openB, closeB byte) (string, error) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\'' || c == '"':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				return "", errors.New("unterminated string")
			}
			i += j + 1
		case c == '#':
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				return "", errors.New("unterminated comment")
			}
			i += j
		case c == openB:
			depth++
		case c == closeB:
			depth--
			if depth == 0 {
				return s[1:i], nil
			}
		}
	}
	return "", fmt.Errorf("no closing %c", closeB)
}

// literals returns the string literals of a list body.
func literals(s string) ([]string, error) {
	var out []string
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\'' && c != '"' {
			continue
		}
		j := strings.IndexByte(s[i+1:], c)
		if j < 0 {
			return nil, errors.New("unterminated string")
		}
		out = append(out, s[i+1:i+1+j])
		i += j + 1
	}
	return out, nil
}

// quotient reads "(1.0/8)", "1.0 / 3" or "12" exactly.
func quotient(s string) (*big.Rat, error) {
	s = strings.NewReplacer("(", "", ")", "", " ", "", "\n", "", "\t", "").Replace(s)
	a, b, ok := strings.Cut(s, "/")
	x, okA := new(big.Rat).SetString(a)
	if !okA {
		return nil, fmt.Errorf("key %q is not a number", s)
	}
	if !ok {
		return x, nil
	}
	y, okB := new(big.Rat).SetString(b)
	if !okB || y.Sign() == 0 {
		return nil, fmt.Errorf("key %q is not a quotient", s)
	}
	return x.Quo(x, y), nil
}
