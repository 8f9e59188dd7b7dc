package spec

import (
	"maps"
	"slices"

	"github.com/unitd/unitd/engine/prefix"
)

// CountUnits counts the units specs declare and their prefixes generate,
// and their spellings (symbols, names, plurals and aliases), as unit and
// prefixed make them: a prefixed unit has every spelling of its prefix
// before every symbol of its unit.
func CountUnits(specs []Category) (units, names int) {
	for i := range specs {
		for j := range specs[i].Units {
			us := &specs[i].Units[j]
			own := 3 + len(us.Symbols) + len(us.Aliases)
			units++
			names += own
			ps := us.Prefixes
			if ps == nil {
				continue
			}
			only := map[string]bool{}
			for _, s := range ps.Only {
				only[s] = true
			}
			except := map[string]bool{}
			for _, s := range ps.Except {
				except[s] = true
			}
			for _, p := range prefix.Sets[ps.Set] {
				if len(ps.Only) > 0 && !only[p.Symbol] || except[p.Symbol] {
					continue
				}
				units++
				names += (1+len(p.Symbols))*(1+len(us.Symbols)) + 2 + len(us.Aliases)
			}
		}
	}
	return units, names
}

// Clone copies us, its slices included, so that a caller may
// change its spec after compiling it.
func (us *Unit) Clone() *Unit {
	c := *us
	c.Aliases, c.Symbols, c.Examples = slices.Clone(us.Aliases), slices.Clone(us.Symbols), slices.Clone(us.Examples)
	c.Codes = maps.Clone(us.Codes)
	if us.Prefixes != nil {
		p := *us.Prefixes
		p.Only, p.Except = slices.Clone(p.Only), slices.Clone(p.Except)
		p.Codes = nil
		c.Prefixes = &p
	}
	return &c
}

// SameUnit reports whether two unit specs say the same, where they
// were written included (an account's unit claims no codes).
func SameUnit(a, b *Unit) bool {
	return a.Symbol == b.Symbol && a.Name == b.Name && a.Plural == b.Plural &&
		slices.Equal(a.Aliases, b.Aliases) && slices.Equal(a.Symbols, b.Symbols) &&
		a.System == b.System && a.Description == b.Description && a.Definition == b.Definition &&
		a.Exact == b.Exact && a.Source == b.Source && samePrefixes(a.Prefixes, b.Prefixes) &&
		slices.Equal(a.Examples, b.Examples) && len(a.Codes) == 0 && len(b.Codes) == 0 && a.Origin == b.Origin
}

func samePrefixes(a, b *Prefix) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Set == b.Set && slices.Equal(a.Only, b.Only) && slices.Equal(a.Except, b.Except) &&
		len(a.Codes) == 0 && len(b.Codes) == 0 && a.Origin == b.Origin
}

// SameCategory reports whether two declarations of a category say
// the same, their units aside.
func SameCategory(a, b *Category) bool {
	return a != nil && b != nil && a.ID == b.ID && a.Name == b.Name && a.Description == b.Description &&
		maps.Equal(a.Dimension, b.Dimension) && a.Base == b.Base && a.Minimum == b.Minimum &&
		a.SIFactor == b.SIFactor && a.Preferred == b.Preferred && a.Logarithmic == b.Logarithmic &&
		len(a.Ambiguous) == 0 && len(b.Ambiguous) == 0 && a.Origin == b.Origin
}
