// Command cldrprefs regenerates catalog/data/preferences.yaml, the unit
// preferences of Unicode CLDR, from the npm package cldr-core, and
// engine/testdata/cldr, CLDR's conformance tests of unit preferences,
// from the npm package cldr.
//
//	go run ./tools/cldrprefs [-cldr node_modules] [-catalog catalog/data] [-out catalog/data/preferences.yaml] [-testdata engine/testdata/cldr]
//
// The packages are of the CLDR release that package tools/cldr pins, which
// fetches them with `npm pack` unless -cldr names a node_modules directory
// that holds them; -version and -cldr-version, which the generated files
// name, may only repeat the pin. From cldr-core
// it reads supplemental/unitPreferenceData.json (the preferences),
// units.json (CLDR's exact factor of each unit the preferences name),
// territoryContainment.json (the regions' tree, groupings left out),
// likelySubtags.json (the likely region of a language) and aliases.json
// (deprecated region codes), and the package's LICENSE, which the output
// carries as its licence text (the Unicode License v3 asks for the notice
// with every copy of the data).
//
// The catalog's claims of CLDR unit identifiers (its units' codes) are the
// one mapping between CLDR and the catalog: a CLDR unit the preferences
// name is what cldr:<id> names in the catalog, the catalog unit that
// claims it, or, for an identifier made of others (centimeter-per-hour),
// its CLDR definition read through the units that claim its parts. The
// engine resolves them so when it loads the preferences, and this tool
// checks that each resolves: a simple unit that no catalog unit claims
// stops it (claim it in the catalog first). The file maps only what no
// claim says: the substance of a unit such as
// milligram-ofglucose-per-deciliter, a concentration of glucose.
//
// The units of CLDR's test data (engine/testdata/cldr) are mapped the same
// way, and those no claim names (CLDR's base units of its test files,
// kilogram-per-meter-square-second) onto the catalog unit whose exact
// factor (and offset) to the coherent SI unit equals CLDR's: among
// several, the one the catalog finds by CLDR's name, else the one named
// in the table overrides below, which says why.
//
// Unless -testdata is "", it then ships CLDR's test data for unit
// preferences from the npm package cldr (which carries the CLDR release's
// common/ directory; the cldr-json packages do not) with its licence, a
// README and the mapping of the test files' units (testdata.go), after
// checking that the package is of the same CLDR release as cldr-core.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"math/big"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/unitd/unitd/catalog"
	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/tools/cldr"
)

const core = "cldr-core"

// overrides choose among catalog units of the same exact factor, or name
// an expression where the catalog has no unit, for CLDR units whose name
// the catalog does not know.
var overrides = map[string]string{
	// CLDR's base units of pressure, power and energy (the units of its
	// test data) are the coherent units of those quantities, which
	// several catalog units share (Pa and J/m3, W and VA, J and N*m).
	"kilogram-per-meter-square-second":        "Pa",
	"kilogram-square-meter-per-cubic-second":  "W",
	"kilogram-square-meter-per-square-second": "J",
	// CLDR's pound-force-foot is of its quantity energy, which is all
	// CLDR has for its base unit: the catalog's foot-pound-force, not its
	// torque lbf*ft.
	"pound-force-foot": "ft_lbf",
}

// bases maps CLDR's base units to the catalog's coherent units.
var bases = map[string]string{
	"meter": "m", "kilogram": "kg", "second": "s", "ampere": "A", "kelvin": "K",
	"candela": "cd", "item": "entity", "revolution": "rev", "bit": "bit", "year": "yr_greg",
}

// extra are CLDR units checked although no preference names them: the
// values of the -u-mu- locale key.
var extra = []string{"celsius", "fahrenheit", "kelvin"}

func main() {
	dir := flag.String("cldr", "", "node_modules directory holding cldr-core "+cldr.Version+" and cldr "+cldr.CommonVersion+" (default: npm pack into a temporary directory)")
	version := flag.String("version", cldr.Version, "version of the npm package cldr-core: the one tools/cldr pins")
	catDir := flag.String("catalog", "catalog/data", "the catalog directory to map units against")
	out := flag.String("out", "catalog/data/preferences.yaml", "the file to write")
	testVersion := flag.String("cldr-version", cldr.CommonVersion, "version of the npm package cldr, whose CLDR test data is shipped: the one tools/cldr pins")
	testOut := flag.String("testdata", "engine/testdata/cldr", `the directory to ship CLDR's unit preference tests into ("" for none)`)
	flag.Parse()
	if err := run(*dir, *version, *catDir, *out, *testVersion, *testOut); err != nil {
		fmt.Fprintln(os.Stderr, "cldrprefs:", err)
		os.Exit(1)
	}
}

// The files of cldr-core read.
var coreFiles = []string{"LICENSE",
	"supplemental/unitPreferenceData.json", "supplemental/units.json",
	"supplemental/territoryContainment.json", "supplemental/likelySubtags.json",
	"supplemental/aliases.json"}

func run(dir, version, catDir, out, testVersion, testOut string) error {
	if version != cldr.Version || testVersion != cldr.CommonVersion {
		return fmt.Errorf("-version %s -cldr-version %s: the CLDR release is pinned in tools/cldr (cldr-core %s, cldr %s); change it there",
			version, testVersion, cldr.Version, cldr.CommonVersion)
	}
	pkgs := []string{core}
	if testOut != "" {
		pkgs = append(pkgs, cldr.Common)
	}
	modules, cleanup, err := cldr.Open(dir, pkgs...)
	if err != nil {
		return err
	}
	defer cleanup()
	pkg, err := modules.Package(core)
	if err != nil {
		return err
	}
	files := map[string][]byte{}
	for _, name := range coreFiles {
		if files[name], err = modules.ReadFile(core, name); err != nil {
			return err
		}
	}
	g, errs := catalog.Load(withoutFile{os.DirFS(catDir), "preferences.yaml"})
	if len(errs) > 0 {
		return fmt.Errorf("catalog %s: %v", catDir, errs[0])
	}
	gen, err := newGenerator(files, g)
	if err != nil {
		return err
	}
	text, err := gen.yaml(pkg.Version, pkg.License, string(files["LICENSE"]))
	if err != nil {
		return err
	}
	if err := os.WriteFile(out, text, 0o644); err != nil {
		return err
	}
	if testOut == "" {
		return nil
	}
	return gen.writeTestData(modules, testOut)
}

// withoutFile hides one file of a catalog directory: the file being
// regenerated, which may not load against a changed catalog.
type withoutFile struct {
	fs.FS
	name string
}

func (w withoutFile) Open(name string) (fs.File, error) {
	if name == w.name {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return w.FS.Open(name)
}

func (w withoutFile) ReadDir(name string) ([]fs.DirEntry, error) {
	es, err := fs.ReadDir(w.FS, name)
	return slices.DeleteFunc(es, func(e fs.DirEntry) bool { return name == "." && e.Name() == w.name }), err
}

// generator holds what was read and mapped.
type generator struct {
	cldrVersion string
	catalog     *engine.Graph
	prefs       orderedMap // quantity → usage → region → [{unit, geq}]
	units       *cldrUnits
	mapped      map[string]mapping
	ids         []string // mapped CLDR units, sorted
	contains    map[string][]string
	aliases     map[string]string
	likely      [][2]string
}

// mapping is a CLDR unit and the catalog unit it is. written marks a
// mapping the preferences file carries: one no claim says (a substance).
type mapping struct {
	unit, substance, base string
	factor, offset        *big.Rat
	written               bool
}

func newGenerator(files map[string][]byte, g *engine.Graph) (*generator, error) {
	gen := &generator{catalog: g, mapped: map[string]mapping{}}
	var up struct {
		Supplemental struct {
			Version struct {
				CldrVersion string `json:"_cldrVersion"`
			} `json:"version"`
			UnitPreferenceData json.RawMessage
		} `json:"supplemental"`
	}
	if err := json.Unmarshal(files["supplemental/unitPreferenceData.json"], &up); err != nil {
		return nil, fmt.Errorf("unitPreferenceData.json: %w", err)
	}
	gen.cldrVersion = up.Supplemental.Version.CldrVersion
	var err error
	if gen.prefs, err = readOrdered(up.Supplemental.UnitPreferenceData); err != nil {
		return nil, fmt.Errorf("unitPreferenceData.json: %w", err)
	}
	if gen.units, err = readUnits(files["supplemental/units.json"]); err != nil {
		return nil, err
	}
	ids := map[string]bool{}
	for _, id := range extra {
		ids[id] = true
	}
	for _, q := range gen.prefs.keys {
		uses := gen.prefs.vals[q].(orderedMap)
		for _, u := range uses.keys {
			regions := uses.vals[u].(orderedMap)
			for _, r := range regions.keys {
				for _, e := range regions.vals[r].([]any) {
					unit := e.(orderedMap).vals["unit"].(string)
					for _, part := range strings.Split(unit, "-and-") {
						ids[part] = true
					}
				}
			}
		}
	}
	m := newMapper(g)
	for id := range ids {
		gen.ids = append(gen.ids, id)
	}
	sort.Strings(gen.ids)
	var problems []string
	for _, id := range gen.ids {
		cu, err := gen.units.unit(id)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", id, err))
			continue
		}
		var mp mapping
		if cu.substance != "" {
			mp, err = m.find(id, cu)
			mp.written = true
		} else {
			mp, err = m.claimed(id, cu, gen.units.isSimple(id))
		}
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", id, err))
			continue
		}
		gen.mapped[id] = mp
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("CLDR units without a catalog unit:\n  %s", strings.Join(problems, "\n  "))
	}
	if err := gen.readRegions(files); err != nil {
		return nil, err
	}
	return gen, nil
}

// readRegions reads the containment tree, the region aliases and the
// likely regions of languages.
func (gen *generator) readRegions(files map[string][]byte) error {
	var tc struct {
		Supplemental struct {
			TerritoryContainment map[string]struct {
				Contains []string `json:"_contains"`
				Grouping string   `json:"_grouping"`
			} `json:"territoryContainment"`
		} `json:"supplemental"`
	}
	if err := json.Unmarshal(files["supplemental/territoryContainment.json"], &tc); err != nil {
		return fmt.Errorf("territoryContainment.json: %w", err)
	}
	gen.contains = map[string][]string{}
	known := map[string]bool{"001": true}
	for k, v := range tc.Supplemental.TerritoryContainment {
		if strings.Contains(k, "-status-") || v.Grouping == "true" {
			continue // groupings (EU, UN, 419) and deprecated codes are not the tree
		}
		c := slices.Clone(v.Contains)
		sort.Strings(c)
		gen.contains[k] = c
		known[k] = true
		for _, r := range c {
			known[r] = true
		}
	}
	var al struct {
		Supplemental struct {
			Metadata struct {
				Alias struct {
					TerritoryAlias map[string]struct {
						Replacement string `json:"_replacement"`
					} `json:"territoryAlias"`
				} `json:"alias"`
			} `json:"metadata"`
		} `json:"supplemental"`
	}
	if err := json.Unmarshal(files["supplemental/aliases.json"], &al); err != nil {
		return fmt.Errorf("aliases.json: %w", err)
	}
	gen.aliases = map[string]string{}
	for k, v := range al.Supplemental.Metadata.Alias.TerritoryAlias {
		if !known[k] && known[v.Replacement] && !strings.Contains(v.Replacement, " ") {
			gen.aliases[k] = v.Replacement
		}
	}
	var ls struct {
		Supplemental struct {
			LikelySubtags map[string]string `json:"likelySubtags"`
		} `json:"supplemental"`
	}
	if err := json.Unmarshal(files["supplemental/likelySubtags.json"], &ls); err != nil {
		return fmt.Errorf("likelySubtags.json: %w", err)
	}
	script := regexp.MustCompile(`^[A-Z][a-z]{3}$`)
	region := regexp.MustCompile(`^([A-Z]{2}|[0-9]{3})$`)
	for k, v := range ls.Supplemental.LikelySubtags {
		parts := strings.Split(k, "-")
		if len(parts) > 2 || (len(parts) == 2 && !script.MatchString(parts[1])) {
			continue // a key with a region: the region is then known
		}
		vs := strings.Split(v, "-")
		r := vs[len(vs)-1]
		if !region.MatchString(r) || !known[r] {
			continue
		}
		gen.likely = append(gen.likely, [2]string{k, r})
	}
	sort.Slice(gen.likely, func(i, j int) bool { return gen.likely[i][0] < gen.likely[j][0] })
	return nil
}
