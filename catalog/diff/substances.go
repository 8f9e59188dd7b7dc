package diff

import (
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/unitd/unitd/engine"
)

// Changes to the substance catalog: substances added or removed, their
// values (molar mass, density, charge) changed, with the relative change
// when both are written in one unit, their sources and names; atomic
// weights changed, which move the molar mass of every formula holding the
// element; and named reference conditions for gases changed.

// The kinds of change of the substance catalog.
const (
	SubstanceAdded         Kind = "substance added"
	SubstanceRemoved       Kind = "substance removed"
	SubstanceValueChanged  Kind = "substance value changed"
	SubstanceSourceChanged Kind = "substance source changed"
	SubstanceNameRemoved   Kind = "substance name removed"
	SubstanceNameAdded     Kind = "substance name added"
	ElementAdded           Kind = "atomic weight added"
	ElementRemoved         Kind = "atomic weight removed"
	WeightChanged          Kind = "atomic weight changed"
	ConditionsAdded        Kind = "reference conditions added"
	ConditionsRemoved      Kind = "reference conditions removed"
	ConditionsChanged      Kind = "reference conditions changed"
)

// The Category of substance catalog changes in a report (no category of
// units may have these IDs: they are the loader's file names).
const (
	substancesGroup = "substances"
	elementsGroup   = "elements"
	conditionsGroup = "conditions"
)

func init() {
	for _, k := range []Kind{SubstanceAdded, SubstanceRemoved, SubstanceValueChanged, SubstanceSourceChanged,
		SubstanceNameRemoved, SubstanceNameAdded, ElementAdded, ElementRemoved, WeightChanged,
		ConditionsAdded, ConditionsRemoved, ConditionsChanged} {
		kindOrder[k] = len(kindOrder)
	}
}

// property names a substance's value in messages.
var propertyNames = []string{"molar mass", "density", "charge"}

func properties(s *engine.Substance) []*engine.Property {
	return []*engine.Property{s.MolarMass, s.Density, s.Charge}
}

func (d *differ) substances() {
	for _, os := range d.old.Graph.Substances() {
		if ns, err := d.new.Graph.Substance(os.ID); err != nil || ns.ID != os.ID {
			d.add(Change{Kind: SubstanceRemoved, Breaking: true, Category: substancesGroup, Unit: os.ID,
				Summary: fmt.Sprintf("substance %s (%s) removed: it no longer resolves", os.ID, os.Name)}, engine.Origin{})
		}
	}
	for _, ns := range d.new.Graph.Substances() {
		at := d.new.substances[ns.ID]
		os, err := d.old.Graph.Substance(ns.ID)
		if err != nil || os.ID != ns.ID {
			d.add(Change{Kind: SubstanceAdded, Category: substancesGroup, Unit: ns.ID,
				Summary: fmt.Sprintf("substance %s (%s) added%s", ns.ID, ns.Name, valuesText(ns))}, at)
			continue
		}
		oldProps, newProps := properties(os), properties(ns)
		for i, name := range propertyNames {
			o, n := oldProps[i], newProps[i]
			switch {
			case o == nil && n == nil:
			case o == nil || n == nil || o.Value != n.Value || o.Conditions != n.Conditions:
				c := Change{Kind: SubstanceValueChanged, Breaking: true, Category: substancesGroup, Unit: ns.ID,
					Old: propertyText(o), New: propertyText(n)}
				c.Summary = fmt.Sprintf("substance %s: %s %s → %s", ns.ID, name, c.Old, c.New)
				if r, ok := relativeChange(o, n); ok {
					c.Relative = relativeText(r)
					c.Summary += " (" + c.Relative + ")"
				}
				d.add(c, at)
			case o.Source != n.Source && (o.Sum == "" || n.Sum == ""):
				// (A molar mass summed from the atomic weights cites them:
				// a change of their source is reported once, below.)
				d.add(Change{Kind: SubstanceSourceChanged, Category: substancesGroup, Unit: ns.ID, Old: o.Source, New: n.Source,
					Summary: fmt.Sprintf("substance %s: source of its %s changed", ns.ID, name)}, at)
			}
		}
		oldNames, newNames := substanceNames(os), substanceNames(ns)
		for _, name := range oldNames {
			if !slices.Contains(newNames, name) {
				if s, err := d.new.Graph.Substance(name); err != nil || s.ID != ns.ID {
					d.add(Change{Kind: SubstanceNameRemoved, Breaking: true, Category: substancesGroup, Unit: ns.ID, Name: name,
						Summary: fmt.Sprintf("name %q of substance %s removed", name, ns.ID)}, at)
				}
			}
		}
		for _, name := range newNames {
			if !slices.Contains(oldNames, name) {
				d.add(Change{Kind: SubstanceNameAdded, Category: substancesGroup, Unit: ns.ID, Name: name,
					Summary: fmt.Sprintf("name %q added to substance %s", name, ns.ID)}, at)
			}
		}
	}
}

// substanceNames lists what names a substance besides its ID: its name,
// aliases, CAS number and formula.
func substanceNames(s *engine.Substance) []string {
	out := slices.Concat([]string{s.Name}, s.Aliases, []string{s.CAS, s.Formula})
	return slices.DeleteFunc(out, func(n string) bool { return n == "" || n == s.ID })
}

// valuesText lists a new substance's values for its summary.
func valuesText(s *engine.Substance) string {
	var parts []string
	for i, p := range properties(s) {
		if p != nil {
			parts = append(parts, propertyNames[i]+" "+propertyText(p))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return ": " + strings.Join(parts, ", ")
}

func propertyText(p *engine.Property) string {
	if p == nil {
		return "none"
	}
	if p.Conditions != "" {
		return p.Value + " at " + p.Conditions
	}
	return p.Value
}

// relativeChange is (new − old)/old of two values written in one unit
// ("180.156 g/mol", "180.16 g/mol").
func relativeChange(o, n *engine.Property) (*big.Rat, bool) {
	if o == nil || n == nil {
		return nil, false
	}
	ov, ou, _ := strings.Cut(o.Value, " ")
	nv, nu, _ := strings.Cut(n.Value, " ")
	a, okA := new(big.Rat).SetString(ov)
	b, okB := new(big.Rat).SetString(nv)
	if ou != nu || !okA || !okB || a.Sign() == 0 {
		return nil, false
	}
	r := new(big.Rat).Sub(b, a)
	return r.Quo(r, a), true
}

func (d *differ) elements() {
	index := func(g *engine.Graph) map[string]*engine.Element {
		m := map[string]*engine.Element{}
		for _, e := range g.Elements() {
			m[e.Symbol] = e
		}
		return m
	}
	old, new := index(d.old.Graph), index(d.new.Graph)
	for _, oe := range d.old.Graph.Elements() {
		if _, ok := new[oe.Symbol]; !ok {
			d.add(Change{Kind: ElementRemoved, Breaking: true, Category: elementsGroup, Unit: oe.Symbol, Old: oe.Weight,
				Summary: fmt.Sprintf("atomic weight of %s (%s) removed: formulas holding it no longer resolve", oe.Symbol, oe.Name)}, engine.Origin{})
		}
	}
	for _, ne := range d.new.Graph.Elements() {
		at := d.new.elements[ne.Symbol]
		oe, ok := old[ne.Symbol]
		switch {
		case !ok:
			d.add(Change{Kind: ElementAdded, Category: elementsGroup, Unit: ne.Symbol, New: ne.Weight,
				Summary: fmt.Sprintf("atomic weight of %s (%s) added: %s", ne.Symbol, ne.Name, ne.Weight)}, at)
		case oe.Weight != ne.Weight:
			c := Change{Kind: WeightChanged, Breaking: true, Category: elementsGroup, Unit: ne.Symbol, Old: oe.Weight, New: ne.Weight}
			c.Summary = fmt.Sprintf("atomic weight of %s %s → %s", ne.Symbol, oe.Weight, ne.Weight)
			if r, ok := relativeChange(&engine.Property{Value: oe.Weight}, &engine.Property{Value: ne.Weight}); ok {
				c.Relative = relativeText(r)
				c.Summary += " (" + c.Relative + "); the molar mass of every formula holding it moves"
			}
			d.add(c, at)
		}
	}
	if len(old) > 0 && len(new) > 0 {
		if o, n := d.old.Graph.Elements()[0].Source, d.new.Graph.Elements()[0].Source; o != n {
			d.add(Change{Kind: SourceChanged, Category: elementsGroup, Old: o, New: n,
				Summary: "source of the atomic weights changed: " + n}, engine.Origin{})
		}
	}
}

func (d *differ) conditions() {
	index := func(g *engine.Graph) map[string]*engine.Conditions {
		m := map[string]*engine.Conditions{}
		for _, c := range g.ConditionSets() {
			m[c.Name] = c
		}
		return m
	}
	old, new := index(d.old.Graph), index(d.new.Graph)
	for _, oc := range d.old.Graph.ConditionSets() {
		if _, ok := new[oc.Name]; !ok {
			d.add(Change{Kind: ConditionsRemoved, Breaking: true, Category: conditionsGroup, Unit: oc.Name,
				Summary: fmt.Sprintf("reference conditions %s removed", oc.Name)}, engine.Origin{})
		}
	}
	for _, nc := range d.new.Graph.ConditionSets() {
		at := d.new.conditions[nc.Name]
		oc, ok := old[nc.Name]
		text := func(c *engine.Conditions) string { return c.Temperature + ", " + c.Pressure }
		switch {
		case !ok:
			d.add(Change{Kind: ConditionsAdded, Category: conditionsGroup, Unit: nc.Name, New: text(nc),
				Summary: fmt.Sprintf("reference conditions %s added: %s", nc.Name, text(nc))}, at)
		case text(oc) != text(nc):
			d.add(Change{Kind: ConditionsChanged, Breaking: true, Category: conditionsGroup, Unit: nc.Name, Old: text(oc), New: text(nc),
				Summary: fmt.Sprintf("reference conditions %s: %s → %s", nc.Name, text(oc), text(nc))}, at)
		}
	}
}
