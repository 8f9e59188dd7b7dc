// Command cldrlocale regenerates locale/data/cldr.jsonl.gz, the subset of
// Unicode CLDR that unitd formats and reads quantities with: the unit
// patterns (long, short, narrow) of every CLDR unit, the compound
// patterns (per, times, square, cubic) and prefix patterns, the number
// symbols, grouping and percent format of each numbering system a locale
// uses, the digits of those numbering systems, and the cardinal plural
// rules with their samples (of every language, and of the locales with
// rules of their own, such as pt-PT), for every locale CLDR rates
// "modern" (cldr-core's coverageLevels.json) and the root locale.
//
// It reads the npm packages cldr-core, cldr-units-full and
// cldr-numbers-full (installed into a temporary directory with npm unless
// -cldr names a node_modules directory that holds them). Which CLDR unit a
// catalog unit is, is not in the data: it is the catalog's claim (a unit's
// codes' cldr), which package locale reads from the graph at run time. The
// tool checks those claims against CLDR's English names and conversion
// factors (cldr-core's units.json) in the catalog (the embedded one unless
// -catalog names a directory) and prints the units whose names and factor
// say they are a CLDR unit they do not claim, for a person to review.
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
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/unitd/unitd/catalog"
	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/tools/cldr"
)

// packages are the npm packages read, at the CLDR release that package
// tools/cldr pins.
var packages = []string{core, "cldr-units-full", "cldr-numbers-full"}

const core = "cldr-core"

func main() {
	log.SetFlags(0)
	log.SetPrefix("cldrlocale: ")
	dir := flag.String("cldr", "", "node_modules directory holding cldr-core, cldr-units-full and cldr-numbers-full "+cldr.Version+" (default: npm install into a temporary directory)")
	cat := flag.String("catalog", "", "catalog directory (default: the embedded catalog)")
	out := flag.String("out", "locale/data", "output directory")
	flag.Parse()
	modules, cleanup, err := cldr.Open(*dir, packages...)
	if err != nil {
		log.Fatal(err)
	}
	defer cleanup()
	fsys := catalog.Embedded()
	if *cat != "" {
		fsys = os.DirFS(*cat)
	}
	g, errs := catalog.Load(fsys)
	if len(errs) > 0 {
		log.Fatalf("catalog: %v", errs[0])
	}
	gen, err := generate(modules, g)
	if err != nil {
		log.Fatal(err)
	}
	if err := gen.write(*out); err != nil {
		log.Fatal(err)
	}
	for _, n := range gen.notes {
		log.Print(n)
	}
	log.Printf("%d locales, %d CLDR unit entries, %d plural rule sets, CLDR %s", len(gen.lines), len(gen.header.Units), len(gen.header.Plurals), gen.header.CLDRVersion)
}

// header is the first line of the shipped file.
type header struct {
	CLDRVersion string            `json:"cldr_version"`
	Packages    map[string]string `json:"packages"`
	License     string            `json:"license"`
	// Units lists the CLDR unit keys shipped ("length-foot"), every one
	// CLDR has, with the prefixes ("10p3") and compound patterns.
	Units []string `json:"units"`
	// Prefixes maps CLDR's unit prefixes to the keys of their patterns
	// ("kilo": "10p3", "kibi": "1024p1").
	Prefixes map[string]string `json:"prefixes"`
	// Digits are the digits of each numbering system used, zero first.
	Digits map[string]string `json:"digits"`
	// Plurals are the cardinal rules of each language, and of each
	// locale that has its own (pt-PT): category → "condition @integer
	// samples @decimal samples".
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
	// power2 and power3 with field "pattern" (and, for the powers, the
	// plural forms), prefixes their keys (10p3, 1024p2) with "pattern".
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

func generate(m cldr.Modules, g *engine.Graph) (*generator, error) {
	gen := &generator{header: header{Packages: map[string]string{}, Digits: map[string]string{}, Plurals: map[string]map[string]string{}}}
	for _, p := range packages {
		pkg, err := m.Package(p)
		if err != nil {
			return nil, err
		}
		var pj struct {
			CLDRVersion string `json:"cldrVersion"`
		}
		if err := m.ReadJSON(p, "package.json", &pj); err != nil {
			return nil, err
		}
		gen.header.Packages[p] = pkg.Version
		gen.header.License = pkg.License
		gen.header.CLDRVersion = pj.CLDRVersion
	}
	lic, err := m.ReadFile(core, "LICENSE")
	if err != nil {
		return nil, err
	}
	gen.license = lic

	var cov struct {
		Effective map[string]string `json:"effectiveCoverageLevels"`
	}
	if err := m.ReadJSON(core, "coverageLevels.json", &cov); err != nil {
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
	if err := m.ReadJSON(core, "supplemental/parentLocales.json", &parents); err != nil {
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
			if _, err := os.Stat(m.Path("cldr-units-full", "main/"+tag)); err == nil {
				return tag
			}
		}
		return "und"
	}

	// The units of English name the catalog units.
	en, err := readUnits(m, "en")
	if err != nil {
		return nil, err
	}
	conv, err := readConversions(m)
	if err != nil {
		return nil, err
	}
	// Which CLDR unit a catalog unit is, is the catalog's claim (its
	// codes' cldr); the data holds every CLDR unit, so that a catalog
	// that claims another one (reloaded at run time) finds it. The names
	// only check the claims: a unit CLDR's English names and factors
	// find that claims another identifier, or none, is printed.
	gen.notes = append(gen.notes, checkClaims(g, en, conv)...)
	keep := func(key string) bool {
		switch key {
		case "per", "times", "power2", "power3":
			return true
		}
		return strings.Contains(key, "-") || strings.HasPrefix(key, "10p") || strings.HasPrefix(key, "1024p")
	}
	for key := range en["long"] {
		if keep(key) {
			gen.header.Units = append(gen.header.Units, key)
		}
	}
	sort.Strings(gen.header.Units)
	if gen.header.Prefixes, err = readPrefixes(m); err != nil {
		return nil, err
	}

	// Plural rules.
	var plurals struct {
		Supplemental struct {
			Cardinal map[string]map[string]string `json:"plurals-type-cardinal"`
		} `json:"supplemental"`
	}
	if err := m.ReadJSON(core, "supplemental/plurals.json", &plurals); err != nil {
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
	if err := m.ReadJSON(core, "supplemental/numberingSystems.json", &numbering); err != nil {
		return nil, err
	}

	// Every locale needs its parent chain resolved to diff against it.
	resolved := map[string]localeLine{}
	resolve := func(tag string) (localeLine, error) {
		if l, ok := resolved[tag]; ok {
			return l, nil
		}
		l := localeLine{Tag: tag, Numbers: map[string]string{}, Units: map[string]string{}}
		u, err := readUnits(m, tag)
		if err != nil {
			return l, err
		}
		for width, units := range u {
			if width != "long" && width != "short" && width != "narrow" {
				continue
			}
			for key, fields := range units {
				if !keep(key) {
					continue
				}
				for f, text := range fields {
					if name, ok := unitField(key, f); ok {
						l.Units[width+"/"+key+"/"+name] = text
					}
				}
			}
		}
		if err := readNumbers(m, tag, l.Numbers); err != nil {
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
	}
	// Every rule set, keyed as CLDR keys them: languages ("pt") and the
	// locales with rules of their own ("pt-PT"), which package locale
	// finds along a locale's parent chain as ICU does.
	for key, r := range plurals.Supplemental.Cardinal {
		if key == "root" {
			key = "und"
		}
		m := map[string]string{}
		for k, v := range r {
			m[strings.TrimPrefix(k, "pluralRule-count-")] = strings.TrimSpace(v)
		}
		gen.header.Plurals[key] = m
	}
	if _, ok := gen.header.Plurals["und"]; !ok {
		gen.header.Plurals["und"] = map[string]string{"other": ""}
	}
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
		if f == "compoundUnitPattern1" {
			return "pattern", true
		}
		c, ok := strings.CutPrefix(f, "compoundUnitPattern1-count-")
		return c, ok && !strings.Contains(c, "-")
	}
	if f == "unitPrefixPattern" {
		return "pattern", true
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

// readPrefixes reads cldr-core's unit prefixes as the keys of their
// patterns in the units files: "kilo" is 10p3, "kibi" 1024p1.
func readPrefixes(mods cldr.Modules) (map[string]string, error) {
	var f struct {
		Supplemental struct {
			UnitPrefixes map[string]struct {
				Power10 string `json:"_power10"`
				Power2  string `json:"_power2"`
			} `json:"unitPrefixes"`
		} `json:"supplemental"`
	}
	if err := mods.ReadJSON(core, "supplemental/units.json", &f); err != nil {
		return nil, err
	}
	m := map[string]string{}
	for name, p := range f.Supplemental.UnitPrefixes {
		switch {
		case p.Power10 != "":
			m[name] = "10p" + p.Power10
		case p.Power2 != "":
			// CLDR writes binary prefixes as powers of 2 (kibi is 2^10);
			// their patterns are keyed by powers of 1024.
			e, err := strconv.Atoi(p.Power2)
			if err != nil || e%10 != 0 {
				return nil, fmt.Errorf("unit prefix %s: power of 2 %q", name, p.Power2)
			}
			m[name] = "1024p" + strconv.Itoa(e/10)
		}
	}
	return m, nil
}

func readUnits(mods cldr.Modules, tag string) (map[string]map[string]map[string]string, error) {
	var f unitsFile
	if err := mods.ReadJSON("cldr-units-full", "main/"+tag+"/units.json", &f); err != nil {
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
// <ns>/decimal, group, minus, plus, exponential, pattern, and the percent
// format's percent (its pattern), percentSign and perMille.
func readNumbers(m cldr.Modules, tag string, dst map[string]string) error {
	var f numbersFile
	if err := m.ReadJSON("cldr-numbers-full", "main/"+tag+"/numbers.json", &f); err != nil {
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
		var pct struct {
			Standard string `json:"standard"`
		}
		json.Unmarshal(n["percentFormats-numberSystem-"+ns], &pct)
		dst[ns+"/percent"] = pct.Standard
		dst[ns+"/percentSign"] = sym["percentSign"]
		dst[ns+"/perMille"] = sym["perMille"]
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
