package catalog

import (
	_ "embed"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/unitd/unitd/engine"
)

// The reference list of well-known symbols and the catalog's decisions on
// those it gives another meaning. Both are embedded so that the binary's
// validate command checks any catalog directory against them.
var (
	//go:embed wellknown.tsv
	wellKnownTSV string
	//go:embed README.md
	readme string
)

// WellKnown is one row of the reference list: a name as another unit
// system writes it and what it means there.
type WellKnown struct {
	Name    string
	Meaning string
	// Unit is the catalog symbol of that meaning, or "" when the catalog
	// has no such unit.
	Unit    string
	Systems string
}

// Warning says that a catalog name means something else than it does in
// another unit system, and that no decision about it is written down.
type Warning struct {
	Name string // the name looked up
	Unit string // the symbol of the catalog unit it resolves to
	WellKnown
}

func (w Warning) String() string {
	return fmt.Sprintf("%q is %s in this catalog but %s in %s; decide (keep, declare ambiguous, or drop) and record it in catalog/README.md", w.Name, w.Unit, w.Meaning, w.Systems)
}

// CheckWellKnown looks up every name of the reference list in g and warns
// where it resolves to a unit other than the one the list names, unless
// the name is in the symbol-decision table of catalog/README.md. Names that
// are unknown or declared ambiguous never warn: they cannot be misread.
func CheckWellKnown(g *engine.Graph) []Warning {
	return checkWellKnown(g, WellKnownList(), Decided())
}

func checkWellKnown(g *engine.Graph, list []WellKnown, decided map[string]bool) []Warning {
	var out []Warning
	for _, wk := range list {
		u, err := g.Lookup(wk.Name)
		if err != nil || u.Symbol == wk.Unit || decided[wk.Name] {
			continue
		}
		out = append(out, Warning{Name: wk.Name, Unit: u.Symbol, WellKnown: wk})
	}
	return out
}

// WellKnownList parses the embedded reference list.
func WellKnownList() []WellKnown {
	list, err := parseWellKnown(wellKnownTSV)
	if err != nil {
		panic(err) // the file is embedded at build time and tested
	}
	return list
}

func parseWellKnown(src string) ([]WellKnown, error) {
	var list []WellKnown
	header := false
	for i, line := range strings.Split(src, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			return nil, fmt.Errorf("wellknown.tsv:%d: want 4 tab-separated fields, found %d", i+1, len(f))
		}
		if !header {
			header = true
			continue
		}
		for _, s := range f {
			if strings.TrimSpace(s) != s || s == "" {
				return nil, fmt.Errorf("wellknown.tsv:%d: empty field or surrounding space", i+1)
			}
		}
		wk := WellKnown{Name: f[0], Meaning: f[1], Unit: f[2], Systems: f[3]}
		if wk.Unit == "-" {
			wk.Unit = ""
		}
		list = append(list, wk)
	}
	return list, nil
}

// decisionRow is a row of the README's symbol-decision table: its first
// cell holds one or more names in backquotes.
var decisionRow = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("^\\| *(`[^|]+)\\|") })

var backquoted = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("`([^`]+)`") })

// Decided lists the names in the table under "### Symbol decisions" of
// catalog/README.md.
func Decided() map[string]bool {
	return parseDecided(readme)
}

func parseDecided(md string) map[string]bool {
	decided := map[string]bool{}
	_, section, ok := strings.Cut(md, "\n### Symbol decisions\n")
	if !ok {
		return decided
	}
	if i := strings.Index(section, "\n#"); i >= 0 {
		section = section[:i]
	}
	for _, line := range strings.Split(section, "\n") {
		m := decisionRow().FindStringSubmatch(line)
		if m == nil {
			continue
		}
		for _, name := range backquoted().FindAllStringSubmatch(m[1], -1) {
			decided[name[1]] = true
		}
	}
	return decided
}
