package text

import (
	"strings"

	"github.com/unitd/unitd/engine"
)

// Units whose meaning depends on the region. A family is the units one
// unqualified name or symbol can mean (a pint is a US or an imperial
// pint); candidates are what a refusal lists (the catalog's ambiguity,
// the US dry pint included). Where the reader's region settles it, the
// member of the region's measurement system is read: the system of each
// member is the catalog's (a unit's system: US, imperial, metric), the
// system of each region CLDR's (measurementData: US and Liberia US,
// the United Kingdom and Myanmar UK, every other region metric; see
// measurementSystems), and a region of its own is named where a standard
// says so (Australia's 20 mL tablespoon, AS 1325, the catalog's
// tbsp_AU). A family with no member of the region's system stays
// ambiguous there.
type family struct {
	name       string
	members    []string // the units a region may settle it to
	candidates []string // what a refusal lists
	regions    map[string]string
}

var families = []family{
	{name: "pint", members: []string{"pt", "pt_imp"}, candidates: []string{"pt", "pt_imp", "dry_pt"}},
	{name: "quart", members: []string{"qt", "qt_imp"}, candidates: []string{"qt", "qt_imp", "dry_qt"}},
	{name: "gallon", members: []string{"gal", "gal_imp"}, candidates: []string{"gal", "gal_imp"}},
	{name: "fluid ounce", members: []string{"floz", "floz_imp"}, candidates: []string{"floz", "floz_imp"}},
	{name: "cup", members: []string{"cup", "cup_metric"}, candidates: []string{"cup", "cup_metric"}},
	{name: "tablespoon", members: []string{"tbsp", "tbsp_metric"}, candidates: []string{"tbsp", "tbsp_metric", "tbsp_AU"},
		// The catalog's tbsp_metric is the spoon of British recipes too.
		regions: map[string]string{"AU": "tbsp_AU", "GB": "tbsp_metric"}},
	// The teaspoon is a US or a metric spoon as the tablespoon is (a
	// German TL is 5 mL): read by the region as well.
	{name: "teaspoon", members: []string{"tsp", "tsp_metric"}, candidates: []string{"tsp", "tsp_metric"}},
	{name: "ton", members: []string{"ton_us", "ton_uk", "t"}, candidates: []string{"ton_us", "ton_uk", "t"}},
	{name: "hundredweight", members: []string{"cwt_us", "cwt_uk"}, candidates: []string{"cwt_us", "cwt_uk"}},
	{name: "mile per gallon", members: []string{"mpg", "mpg_imp"}, candidates: []string{"mpg", "mpg_imp"}},
}

// unqualified are the units that an unqualified name or symbol reads as
// in the catalog, and the family it is then: the symbol pt is the US
// pint to the catalog, and a pint of either kind to a reader.
var unqualified = map[string]*family{}

func init() {
	for i := range families {
		f := &families[i]
		unqualified[f.members[0]] = f
	}
}

// qualifiers are words that say which member of a family is meant.
var qualifiers = []string{"us", "u.s.", "uk", "imp", "imperial", "metric", "customary", "australian", "dry", "liquid", "short", "long", "_", "brit", "british", "legal"}

// qualified reports whether a unit text says which member it means ("US
// pint", "imperial gallon", "pt_imp").
func qualified(t string) bool {
	f := strings.ToLower(t)
	if strings.Contains(f, "_") || strings.Contains(f, "(") {
		return true
	}
	for _, w := range strings.FieldsFunc(f, func(r rune) bool { return r == ' ' || r == '-' }) {
		for _, q := range qualifiers {
			if w == q {
				return true
			}
		}
	}
	return false
}

// familyOf returns the family a resolved unit or ambiguity belongs to
// when text names it without a qualifier, or nil.
func familyOf(u *engine.Unit, a *engine.Ambiguity, text string) *family {
	if qualified(text) {
		return nil
	}
	if u != nil {
		return unqualified[u.Symbol]
	}
	if a == nil {
		return nil
	}
	for i := range families {
		f := &families[i]
		n := 0
		for _, c := range a.Candidates {
			if contains(f.candidates, c.Symbol) {
				n++
			}
		}
		if n == len(a.Candidates) && n > 0 {
			return f
		}
	}
	return nil
}

// systemOf names the catalog system of a region's measurement system.
var systemOf = map[string]string{"US": "US", "UK": "imperial", "metric": "metric"}

// settle returns the member of f the region reads, or "" when the region
// does not settle it.
func (p *parser) settle(f *family) (*engine.Unit, string) {
	r := p.opt.Region
	if r == "" {
		return nil, ""
	}
	if sym, ok := f.regions[r]; ok {
		u, _ := p.g.Find(sym)
		return u, sym
	}
	ms, ok := measurementSystems[r]
	if !ok {
		ms = measurementSystems["001"]
	}
	want := systemOf[ms]
	var found *engine.Unit
	for _, m := range f.members {
		u, _ := p.g.Find(m)
		if u == nil || u.Symbol != m || u.System != want {
			continue
		}
		if found != nil {
			return nil, ""
		}
		found = u
	}
	if found == nil {
		return nil, ""
	}
	return found, found.Symbol
}

// assumedText says how a region settled a unit: "US liquid pint (region
// US)", with how the region was found when it was not given as such.
func (p *parser) assumedText(u *engine.Unit) string {
	how := ""
	switch p.opt.RegionHow {
	case "likely":
		how = ", the likely region of " + p.locale()
	case "locale", "locale-rg", "locale-ms":
		how = ", from locale " + p.locale()
	}
	return u.Symbol + ": " + u.Name + " (region " + p.opt.Region + how + ")"
}

// familyError refuses a unit of a family the region does not settle.
func (p *parser) familyError(c *component, f *family) error {
	var msg string
	if p.opt.Region == "" {
		msg = "“" + c.unitText + "” depends on the region (" + strings.Join(f.candidates, ", ") + "): pass a locale with a region, or write the symbol you mean"
	} else {
		msg = "“" + c.unitText + "” has no meaning of its own in region " + p.opt.Region + " (" + strings.Join(f.candidates, ", ") + "): write the symbol you mean"
	}
	e := fail(p.text, c.unitOff, msg)
	e.Candidates = append([]string(nil), f.candidates...)
	return e
}
