// Command cldrlocale regenerates locale/data/cldr.jsonl.gz, the subset of
// Unicode CLDR that unitd formats and reads quantities with: the unit
// patterns (long, short, narrow) of every CLDR unit that names a catalog
// unit, the compound patterns (per, times, square, cubic), the number
// symbols and grouping of each numbering system a locale uses, the
// digits of those numbering systems, and the cardinal plural rules with
// their samples, for every locale CLDR rates "modern" (cldr-core's
// coverageLevels.json) and the root locale.
//
// It reads the npm packages cldr-core, cldr-units-full and
// cldr-numbers-full (installed into a temporary directory with npm unless
// -cldr names a node_modules directory that holds them), and the catalog
// (the embedded one unless -catalog names a directory), so that the table
// of catalog symbols to CLDR unit identifiers is derived from both owners:
// a CLDR unit names the catalog unit its English names (identifier, long
// and short patterns) resolve to, and only when CLDR's own conversion
// factor (cldr-core's units.json) agrees with the catalog's.
//
//	go run ./tools/cldrlocale            # npm install, then write locale/data
//	go run ./tools/cldrlocale -cldr /tmp/cldr/node_modules
//
// Each locale line holds only what differs from its parent locale (CLDR's
// parentLocales, else truncation, else root), so the shipped file stays
// small; the locale package resolves the inheritance when it loads one.
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/unitd/unitd/catalog"
	"github.com/unitd/unitd/engine"
)

// version is the release of the three npm packages read.
const version = "48.2.0"

var packages = []string{"cldr-core", "cldr-units-full", "cldr-numbers-full"}

func main() {
	log.SetFlags(0)
	log.SetPrefix("cldrlocale: ")
	dir := flag.String("cldr", "", "node_modules directory holding cldr-core, cldr-units-full and cldr-numbers-full "+version+" (default: npm install into a temporary directory)")
	cat := flag.String("catalog", "", "catalog directory (default: the embedded catalog)")
	out := flag.String("out", "locale/data", "output directory")
	flag.Parse()
	if *dir == "" {
		tmp, err := os.MkdirTemp("", "cldrlocale")
		if err != nil {
			log.Fatal(err)
		}
		defer os.RemoveAll(tmp)
		args := []string{"install", "--no-save", "--no-audit", "--no-fund", "--prefix", tmp}
		for _, p := range packages {
			args = append(args, p+"@"+version)
		}
		cmd := exec.Command("npm", args...)
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			log.Fatalf("npm install: %v", err)
		}
		*dir = filepath.Join(tmp, "node_modules")
	}
	fsys := catalog.Embedded()
	if *cat != "" {
		fsys = os.DirFS(*cat)
	}
	g, errs := catalog.Load(fsys)
	if len(errs) > 0 {
		log.Fatalf("catalog: %v", errs[0])
	}
	gen, err := generate(*dir, g)
	if err != nil {
		log.Fatal(err)
	}
	if err := gen.write(*out); err != nil {
		log.Fatal(err)
	}
	for _, n := range gen.notes {
		log.Print(n)
	}
	log.Printf("%d locales, %d CLDR units for %d catalog symbols, CLDR %s", len(gen.lines), len(gen.header.Units), len(gen.header.Symbols), gen.header.CLDRVersion)
}

// readJSON decodes the file at path into v.
func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// header is the first line of the shipped file.
type header struct {
	CLDRVersion string            `json:"cldr_version"`
	Packages    map[string]string `json:"packages"`
	License     string            `json:"license"`
	// Units lists the CLDR unit keys shipped ("length-foot").
	Units []string `json:"units"`
	// Symbols maps catalog symbols to CLDR unit identifiers ("ft":
	// "foot", "kg/m3": "kilogram-per-cubic-meter").
	Symbols map[string]string `json:"symbols"`
	// Digits are the digits of each numbering system used, zero first.
	Digits map[string]string `json:"digits"`
	// Plurals are the cardinal rules of each language: category →
	// "condition @integer samples @decimal samples".
	Plurals map[string]map[string]string `json:"plurals"`
	// Locales lists the shipped locales; Modern says which of them CLDR
	// rates modern (all but root).
	Locales []string `json:"locales"`
}

// localeLine is one locale's data: only what differs from its parent.
type localeLine struct {
	Tag    string `json:"tag"`
	Parent string `json:"parent,omitempty"`
	// Numbers: the default and native numbering systems, the minimum
	// grouping digits and, per numbering system, its symbols and pattern.
	Numbers map[string]string `json:"numbers,omitempty"`
	// Units: "width/unit-key/field" → text, where field is dn
	// (display name), one, two, few, many, other (unit patterns) or per
	// (the perUnitPattern); compound patterns use the keys per, times,
	// power2 and power3 with field "pattern".
	Units map[string]string `json:"units,omitempty"`
}

type generator struct {
	header  header
	license []byte
	lines   []localeLine
	notes   []string
}

type unitsFile struct {
	Main map[string]struct {
		Units map[string]map[string]map[string]string `json:"units"`
	} `json:"main"`
}

type numbersFile struct {
	Main map[string]struct {
		Numbers map[string]json.RawMessage `json:"numbers"`
	} `json:"main"`
}

func generate(dir string, g *engine.Graph) (*generator, error) {
	gen := &generator{header: header{Packages: map[string]string{}, Digits: map[string]string{}, Plurals: map[string]map[string]string{}}}
	for _, p := range packages {
		var pj struct {
			Version     string `json:"version"`
			License     string `json:"license"`
			CLDRVersion string `json:"cldrVersion"`
		}
		if err := readJSON(filepath.Join(dir, p, "package.json"), &pj); err != nil {
			return nil, err
		}
		if pj.Version != version {
			return nil, fmt.Errorf("%s is %s, want %s", p, pj.Version, version)
		}
		gen.header.Packages[p] = pj.Version
		gen.header.License = pj.License
		gen.header.CLDRVersion = pj.CLDRVersion
	}
	core := filepath.Join(dir, "cldr-core")
	lic, err := os.ReadFile(filepath.Join(core, "LICENSE"))
	if err != nil {
		return nil, err
	}
	gen.license = lic

	var cov struct {
		Effective map[string]string `json:"effectiveCoverageLevels"`
	}
	if err := readJSON(filepath.Join(core, "coverageLevels.json"), &cov); err != nil {
		return nil, err
	}
	var locales []string
	for tag, level := range cov.Effective {
		if level == "modern" {
			locales = append(locales, tag)
		}
	}
	if !contains(locales, "und") {
		locales = append(locales, "und")
	}
	sort.Strings(locales)

	var parents struct {
		Supplemental struct {
			ParentLocales struct {
				ParentLocale map[string]string `json:"parentLocale"`
			} `json:"parentLocales"`
		} `json:"supplemental"`
	}
	if err := readJSON(filepath.Join(core, "supplemental", "parentLocales.json"), &parents); err != nil {
		return nil, err
	}
	parentOf := func(tag string) string {
		if tag == "und" {
			return ""
		}
		if p, ok := parents.Supplemental.ParentLocales.ParentLocale[tag]; ok {
			if p == "root" {
				return "und"
			}
			return p
		}
		// Truncate, skipping default-content locales (ca-ES is ca) that
		// have no files of their own.
		for i := strings.LastIndexByte(tag, '-'); i > 0; i = strings.LastIndexByte(tag, '-') {
			tag = tag[:i]
			if _, err := os.Stat(filepath.Join(dir, "cldr-units-full", "main", tag)); err == nil {
				return tag
			}
		}
		return "und"
	}

	// The units of English name the catalog units.
	en, err := readUnits(dir, "en")
	if err != nil {
		return nil, err
	}
	conv, err := readConversions(core)
	if err != nil {
		return nil, err
	}
	keys, symbols, notes := mapUnits(g, en, conv)
	gen.notes = append(gen.notes, notes...)
	gen.header.Units = keys
	gen.header.Symbols = symbols
	keep := map[string]bool{"per": true, "times": true, "power2": true, "power3": true}
	for _, k := range keys {
		keep[k] = true
	}

	// Plural rules.
	var plurals struct {
		Supplemental struct {
			Cardinal map[string]map[string]string `json:"plurals-type-cardinal"`
		} `json:"supplemental"`
	}
	if err := readJSON(filepath.Join(core, "supplemental", "plurals.json"), &plurals); err != nil {
		return nil, err
	}
	var numbering struct {
		Supplemental struct {
			NumberingSystems map[string]struct {
				Digits string `json:"_digits"`
				Type   string `json:"_type"`
			} `json:"numberingSystems"`
		} `json:"supplemental"`
	}
	if err := readJSON(filepath.Join(core, "supplemental", "numberingSystems.json"), &numbering); err != nil {
		return nil, err
	}

	// Every locale needs its parent chain resolved to diff against it.
	resolved := map[string]localeLine{}
	resolve := func(tag string) (localeLine, error) {
		if l, ok := resolved[tag]; ok {
			return l, nil
		}
		l := localeLine{Tag: tag, Numbers: map[string]string{}, Units: map[string]string{}}
		u, err := readUnits(dir, tag)
		if err != nil {
			return l, err
		}
		for width, units := range u {
			if width != "long" && width != "short" && width != "narrow" {
				continue
			}
			for key, fields := range units {
				if !keep[key] {
					continue
				}
				for f, text := range fields {
					if name, ok := unitField(key, f); ok {
						l.Units[width+"/"+key+"/"+name] = text
					}
				}
			}
		}
		if err := readNumbers(dir, tag, l.Numbers); err != nil {
			return l, err
		}
		resolved[tag] = l
		return l, nil
	}

	systems := map[string]bool{}
	for _, tag := range locales {
		full, err := resolve(tag)
		if err != nil {
			return nil, err
		}
		for _, k := range []string{"system", "native"} {
			if ns := full.Numbers[k]; ns != "" {
				systems[ns] = true
			}
		}
		line := localeLine{Tag: tag, Parent: parentOf(tag), Numbers: map[string]string{}, Units: map[string]string{}}
		var base localeLine
		if line.Parent != "" {
			if base, err = resolve(line.Parent); err != nil {
				return nil, err
			}
		}
		for k, v := range full.Numbers {
			if base.Numbers[k] != v {
				line.Numbers[k] = v
			}
		}
		for k, v := range full.Units {
			if base.Units[k] != v {
				line.Units[k] = v
			}
		}
		// A field the parent has and the child lacks would be inherited
		// wrongly; CLDR's resolved data never drops one, but say so if it
		// does.
		for k := range base.Units {
			if _, ok := full.Units[k]; !ok {
				line.Units[k] = ""
			}
		}
		gen.lines = append(gen.lines, line)
		lang := strings.SplitN(tag, "-", 2)[0]
		if r, ok := plurals.Supplemental.Cardinal[lang]; ok {
			m := map[string]string{}
			for k, v := range r {
				m[strings.TrimPrefix(k, "pluralRule-count-")] = strings.TrimSpace(v)
			}
			gen.header.Plurals[lang] = m
		}
	}
	gen.header.Plurals["und"] = map[string]string{"other": ""}
	for ns := range systems {
		s, ok := numbering.Supplemental.NumberingSystems[ns]
		if !ok || s.Type != "numeric" {
			return nil, fmt.Errorf("numbering system %q is not a numeric system of numberingSystems.json", ns)
		}
		gen.header.Digits[ns] = s.Digits
	}
	gen.header.Locales = locales
	return gen, nil
}

// unitField names the shipped field of a CLDR units entry, or false for
// fields unitd does not use (grammatical cases and genders).
func unitField(key, f string) (string, bool) {
	switch key {
	case "per", "times":
		return "pattern", f == "compoundUnitPattern"
	case "power2", "power3":
		return "pattern", f == "compoundUnitPattern1"
	}
	switch {
	case f == "displayName":
		return "dn", true
	case f == "perUnitPattern":
		return "per", true
	case strings.HasPrefix(f, "unitPattern-count-"):
		c := strings.TrimPrefix(f, "unitPattern-count-")
		return c, !strings.Contains(c, "-")
	}
	return "", false
}

func readUnits(dir, tag string) (map[string]map[string]map[string]string, error) {
	var f unitsFile
	if err := readJSON(filepath.Join(dir, "cldr-units-full", "main", tag, "units.json"), &f); err != nil {
		return nil, err
	}
	m, ok := f.Main[tag]
	if !ok {
		return nil, fmt.Errorf("cldr-units-full: no %s in main/%s/units.json", tag, tag)
	}
	// durationUnit-type-* entries are flat strings, not objects: drop
	// them by decoding only the three widths.
	return m.Units, nil
}

func (f *unitsFile) UnmarshalJSON(b []byte) error {
	var raw struct {
		Main map[string]struct {
			Units map[string]json.RawMessage `json:"units"`
		} `json:"main"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	f.Main = map[string]struct {
		Units map[string]map[string]map[string]string `json:"units"`
	}{}
	for tag, m := range raw.Main {
		units := map[string]map[string]map[string]string{}
		for _, w := range []string{"long", "short", "narrow"} {
			var entries map[string]json.RawMessage
			if err := json.Unmarshal(m.Units[w], &entries); err != nil {
				return fmt.Errorf("units %s: %w", w, err)
			}
			units[w] = map[string]map[string]string{}
			for k, e := range entries {
				var fields map[string]string
				if json.Unmarshal(e, &fields) == nil {
					units[w][k] = fields
				}
			}
		}
		f.Main[tag] = struct {
			Units map[string]map[string]map[string]string `json:"units"`
		}{units}
	}
	return nil
}

// readNumbers fills dst with the number data unitd uses: system,
// native, mgd (minimum grouping digits) and, for each of the two systems,
// <ns>/decimal, group, minus, plus, exponential and pattern.
func readNumbers(dir, tag string, dst map[string]string) error {
	var f numbersFile
	if err := readJSON(filepath.Join(dir, "cldr-numbers-full", "main", tag, "numbers.json"), &f); err != nil {
		return err
	}
	n := f.Main[tag].Numbers
	str := func(k string) string {
		var s string
		json.Unmarshal(n[k], &s)
		return s
	}
	var other map[string]string
	json.Unmarshal(n["otherNumberingSystems"], &other)
	dst["system"] = str("defaultNumberingSystem")
	dst["native"] = other["native"]
	dst["mgd"] = str("minimumGroupingDigits")
	for _, ns := range []string{dst["system"], dst["native"]} {
		if ns == "" {
			continue
		}
		var sym map[string]string
		if err := json.Unmarshal(n["symbols-numberSystem-"+ns], &sym); err != nil {
			// A native system without symbols of its own uses latn's.
			continue
		}
		var dec struct {
			Standard string `json:"standard"`
		}
		json.Unmarshal(n["decimalFormats-numberSystem-"+ns], &dec)
		dst[ns+"/decimal"] = sym["decimal"]
		dst[ns+"/group"] = sym["group"]
		dst[ns+"/minus"] = sym["minusSign"]
		dst[ns+"/plus"] = sym["plusSign"]
		dst[ns+"/exponential"] = sym["exponential"]
		dst[ns+"/pattern"] = dec.Standard
	}
	return nil
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// write writes cldr.jsonl.gz and the licence beside it.
func (gen *generator) write(out string) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	w := bufio.NewWriter(zw)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(gen.header); err != nil {
		return err
	}
	sort.Slice(gen.lines, func(i, j int) bool { return gen.lines[i].Tag < gen.lines[j].Tag })
	for _, l := range gen.lines {
		if err := enc.Encode(l); err != nil {
			return err
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "LICENSE"), gen.license, 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(out, "cldr.jsonl.gz"), buf.Bytes(), 0o644)
}
