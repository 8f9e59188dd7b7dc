package catalog

import (
	"fmt"
	"strings"

	"github.com/unitd/unitd/engine"
	"go.yaml.in/yaml/v3"
)

// Units of an account
//
// An account (an API consumer) writes a unit of its own as one document
// in the catalog's schema, YAML or JSON (which YAML reads): the keys of a
// unit of a catalog file (symbol, name, plural, aliases, symbols, system,
// definition, exact, description, source, prefixes, examples), read by
// the same decoder, and one more, category: the id of the catalog's
// category the unit joins (length), or the id of a category the account
// declared, or a mapping that declares a category of the account's own
// (id, name, description, dimension, minimum, si_factor), whose base is
// the unit itself:
//
//	category: length
//	symbol: smoot
//	name: smoot
//	plural: smoots
//	system: MIT
//	definition: {factor: 1.7018, unit: m}
//	exact: true
//	source: Oliver R. Smoot's height, Harvard Bridge, 1958
//	examples: ["1 smoot = 1.7018 m", "364.4 smoot ≈ 620.1 m"]
//
// A definition for one request may also be one line, "smoot = 1.7018 m"
// (exact; "≈" for a measured or rounded factor), which joins the category
// of the unit it refers to. engine.Overlay compiles what AccountSpec
// gathers, with the catalog's rules and an account's own.

// MaxAccountDocument is the largest document of one account unit, in
// bytes.
const MaxAccountDocument = 8 << 10

// AccountUnit is one unit of an account as decoded.
type AccountUnit struct {
	// Category is the id of the category the unit belongs to (the
	// catalog's, or one of the account's own); "" for a one-line
	// definition, which takes the category of the unit it refers to.
	Category string
	// Declares, when set, is the category the document declares (the
	// unit is its base), without units.
	Declares *engine.CategorySpec
	Unit     engine.UnitSpec
}

// ParseAccountUnit decodes the document of one account unit. name
// locates its problems ("smoot:4:15: …"). Every problem is reported, each
// an *engine.SpecError at its position.
func ParseAccountUnit(name string, src []byte) (AccountUnit, []error) {
	var au AccountUnit
	if len(src) > MaxAccountDocument {
		return au, []error{&engine.SpecError{Origin: engine.Origin{File: name, Line: 1, Column: 1}, Message: fmt.Sprintf("a unit's document is at most %d bytes; this one has %d", MaxAccountDocument, len(src))}}
	}
	d, top, errs := parseYAML(name, src)
	if top == nil {
		return au, errs
	}
	defer d.done()
	if top.Kind != yaml.MappingNode {
		d.errorf(top, "", "expected a mapping of the unit's keys, found %s", kindName(top))
		return au, d.errs
	}
	sawCategory := false
	au.Unit = d.unitWith(top, fields{
		"category": func(v *yaml.Node) {
			sawCategory = true
			switch v.Kind {
			case yaml.ScalarNode:
				d.str(v, "unit", "category", &au.Category)
			case yaml.MappingNode:
				cs := &engine.CategorySpec{}
				d.category(v, cs)
				au.Declares, au.Category = cs, cs.ID
			default:
				d.errorf(v, "unit", "category: expected a category's id or a mapping that declares one, found %s", kindName(v))
			}
		},
	})
	if !sawCategory {
		d.errorf(top, fmt.Sprintf("unit %q", au.Unit.Symbol), "missing key \"category\": the id of the catalog's category the unit joins (such as length), or a mapping that declares a category of your own")
	}
	if cs := au.Declares; cs != nil {
		switch {
		case cs.Base == "":
			cs.Base = au.Unit.Symbol
		case cs.Base != au.Unit.Symbol:
			d.errorf(top, fmt.Sprintf("category %q", cs.ID), "base %q: the base of a category of yours is the unit that declares it, %q", cs.Base, au.Unit.Symbol)
		}
	}
	return au, d.errs
}

// ParseDefinitionLine reads a one-line definition, "SYMBOL = FACTOR
// UNIT" ("smoot = 1.7018 m"), or with ≈ (or ~) for a factor that is
// measured or rounded: a linear unit of the category of UNIT, whose
// source is the line itself. name locates its problems.
func ParseDefinitionLine(name, line string) (AccountUnit, error) {
	o := engine.Origin{File: name, Line: 1, Column: 1}
	bad := func(format string, args ...any) (AccountUnit, error) {
		return AccountUnit{}, &engine.SpecError{Origin: o, Message: fmt.Sprintf(format, args...)}
	}
	if len(line) > MaxAccountDocument {
		return bad("a definition is at most %d bytes", MaxAccountDocument)
	}
	f := strings.Fields(line)
	if len(f) != 4 || (f[1] != "=" && f[1] != "≈" && f[1] != "~") {
		return bad("expected \"SYMBOL = FACTOR UNIT\" (such as \"smoot = 1.7018 m\"; ≈ for a measured factor), or a unit in the catalog's schema")
	}
	sym := f[0]
	return AccountUnit{Unit: engine.UnitSpec{
		Symbol: sym, Name: sym, Plural: sym, System: "defined in the request",
		Definition: engine.DefinitionSpec{Factor: f[2], Unit: f[3], Origin: o},
		Exact:      f[1] == "=", Source: "defined in the request: " + strings.Join(f, " "),
		Origin: o,
	}}, nil
}

// AccountSpec gathers an account's units into the spec engine.Overlay
// compiles: one CategorySpec per category, the declaration of one of the
// account's own with its units. A one-line definition joins the category
// of the unit it refers to: another of the units given, or a unit of g
// (the catalog's graph, or an account's).
func AccountSpec(g *engine.Graph, units []AccountUnit) (engine.Spec, []error) {
	var spec engine.Spec
	at := map[string]int{} // category id → index in spec.Categories
	// The units of each category, counted first: a unit's spec is large,
	// and an account may have a thousand of them.
	count := map[string]int{}
	for i := range units {
		count[units[i].Category]++
	}
	add := func(id string, u *AccountUnit) {
		i, ok := at[id]
		if !ok {
			i = len(spec.Categories)
			at[id] = i
			spec.Categories = append(spec.Categories, engine.CategorySpec{ID: id, Origin: u.Unit.Origin, Units: make([]engine.UnitSpec, 0, count[id])})
		}
		cs := &spec.Categories[i]
		if d := u.Declares; d != nil {
			if declared(cs) {
				// Declared twice: a spec of its own, which Overlay
				// reports.
				dup := *d
				dup.Units = []engine.UnitSpec{u.Unit}
				spec.Categories = append(spec.Categories, dup)
				return
			}
			units := cs.Units
			*cs = *d
			cs.Units = units
		}
		cs.Units = append(cs.Units, u.Unit)
	}
	categoryOf := map[string]string{} // symbol of a unit given → its category
	var pending []*AccountUnit
	for i := range units {
		u := &units[i]
		if u.Category == "" {
			pending = append(pending, u)
			continue
		}
		add(u.Category, u)
		categoryOf[u.Unit.Symbol] = u.Category
	}
	// One-line definitions, in as many rounds as they refer to each
	// other.
	for len(pending) > 0 {
		var left []*AccountUnit
		for _, u := range pending {
			ref := u.Unit.Definition.Unit
			id, ok := categoryOf[strings.TrimPrefix(ref, engine.AccountPrefix)]
			if !ok && g != nil {
				if r, err := g.Lookup(ref); err == nil {
					id, ok = r.Category.ID, true
				}
			}
			if !ok {
				left = append(left, u)
				continue
			}
			add(id, u)
			categoryOf[u.Unit.Symbol] = id
		}
		if len(left) == len(pending) {
			var errs []error
			for _, u := range left {
				errs = append(errs, &engine.SpecError{Origin: u.Unit.Origin, Subject: fmt.Sprintf("unit %q", u.Unit.Symbol),
					Message: fmt.Sprintf("definition refers to unknown unit %q", u.Unit.Definition.Unit)})
			}
			return spec, errs
		}
		pending = left
	}
	return spec, nil
}

// declared reports whether cs holds a category's declaration.
func declared(cs *engine.CategorySpec) bool {
	return cs.Name != "" || cs.Base != "" || cs.Dimension != nil
}
