package build

import (
	"slices"

	"github.com/unitd/unitd/engine/internal/fold"
	"github.com/unitd/unitd/engine/internal/graph"
	"github.com/unitd/unitd/engine/spec"
)

// Compiling an account's units again after a change
//
// An account changes one unit at a time, and its graph is compiled again
// on the next request. With the graph compiled before on the same
// catalog's graph (Account.Previous), the compilation takes from
// it every unit that would compile the same: one whose spec is as it
// was, and whose definition and examples name no unit of the account
// that changed, was removed, or is compiled again for another reason (a
// prefixed unit goes with its unit; a category of the account's own goes
// with all its units, which share it). Only the rest is compiled and
// checked, examples included. Units are immutable once compiled, so two
// graphs share them safely. What a reused unit's example would resolve
// to cannot have changed: the names of the account's units hold no
// operator, so a new one is either refused (a catalog or account name
// already) or a name no example could have used.

// reuse is what a compilation takes from the one before.
type reuse struct {
	// units are the declared units reused, by plain symbol; children
	// their prefixed units; categories the own categories reused, by
	// plain id.
	units      map[string]*graph.Unit
	children   map[*graph.Unit][]*graph.Unit
	categories map[string]*graph.Category
}

// reusable decides what spec can take from c.prev.
func (c *overlayCompiler) reusable(defs *spec.Catalog) reuse {
	r := reuse{units: map[string]*graph.Unit{}, children: map[*graph.Unit][]*graph.Unit{}, categories: map[string]*graph.Category{}}
	p := c.prev
	if p == nil {
		return r
	}
	prevDecl := make(map[string]*graph.Unit, len(p.specs))
	for u := range p.specs {
		prevDecl[u.Symbols[0]] = u
	}
	for _, u := range p.units {
		if u.Prefixed != nil {
			r.children[u.Prefixed] = append(r.children[u.Prefixed], u)
		}
	}
	// The units of each own category, and whether its declaration is as
	// it was.
	type own struct {
		decl  *spec.Category
		units []*spec.Unit
	}
	owns := map[string]*own{}
	for i := range defs.Categories {
		cs := &defs.Categories[i]
		id := cs.ID
		if graph.HasAccountPrefix(id) {
			id = id[len(graph.AccountPrefix):]
		}
		if _, ok := p.catByID[id]; !ok && !declares(cs) {
			continue // a catalog's category
		}
		o := owns[id]
		if o == nil {
			o = &own{}
			owns[id] = o
		}
		if declares(cs) {
			o.decl = cs
		}
		for j := range cs.Units {
			o.units = append(o.units, &cs.Units[j])
		}
	}
	changed := map[string]bool{} // plain symbols of declared units not reused
	candidates := map[string]*graph.Unit{}
	for id, o := range owns {
		pc := p.catByID[id]
		same := pc != nil && o.decl != nil && spec.SameCategory(p.catSpec[pc], o.decl)
		n := 0
		for _, u := range pc.UnitsIfAny() {
			if u.Prefixed == nil {
				n++
			}
		}
		same = same && n == len(o.units)
		for _, us := range o.units {
			pu := prevDecl[us.Symbol]
			same = same && pu != nil && pu.Category == pc && spec.SameUnit(p.specs[pu], us)
		}
		if same {
			r.categories[id] = pc
			for _, us := range o.units {
				candidates[us.Symbol] = prevDecl[us.Symbol]
			}
			continue
		}
		for _, us := range o.units {
			changed[us.Symbol] = true
		}
	}
	for i := range defs.Categories {
		cs := &defs.Categories[i]
		if _, ok := owns[trimAccountPrefix(cs.ID)]; ok {
			continue
		}
		cat := c.ov.root.ByID[cs.ID]
		for j := range cs.Units {
			us := &cs.Units[j]
			if pu := prevDecl[us.Symbol]; pu != nil && pu.Category == cat && cat != nil && spec.SameUnit(p.specs[pu], us) {
				candidates[us.Symbol] = pu
			} else {
				changed[us.Symbol] = true
			}
		}
	}
	for sym := range prevDecl {
		if candidates[sym] == nil {
			changed[sym] = true // removed or changed
		}
	}
	// Whatever depends on a unit not reused is not reused either.
	for again := true; again; {
		again = false
		for sym, u := range candidates {
			deps := p.deps[u]
			for _, ch := range r.children[u] {
				deps = append(slices.Clip(deps), p.deps[ch]...)
			}
			for _, d := range deps {
				if changed[d] {
					delete(candidates, sym)
					changed[sym] = true
					again = true
					break
				}
			}
		}
	}
	// An own category is reused whole or not at all.
	for id, pc := range r.categories {
		for _, u := range pc.Units {
			if u.Prefixed == nil && candidates[u.Symbols[0]] == nil {
				delete(r.categories, id)
				for _, v := range pc.Units {
					if v.Prefixed == nil {
						delete(candidates, v.Symbols[0])
					}
				}
				break
			}
		}
	}
	r.units = candidates
	return r
}

func trimAccountPrefix(id string) string {
	if graph.HasAccountPrefix(id) {
		return id[len(graph.AccountPrefix):]
	}
	return id
}

// reuse takes a declared unit of the previous compilation, and its
// prefixed units, as they are.
func (c *overlayCompiler) reuse(u *graph.Unit, children []*graph.Unit) {
	for _, v := range append([]*graph.Unit{u}, children...) {
		c.reused[v] = true
		c.order = append(c.order, v)
		c.ov.deps[v] = c.prev.deps[v]
	}
	c.ov.specs[u] = c.prev.specs[u]
}

// indexReused indexes the spellings of the reused units, as they were
// (they were checked then), with the ambiguities they had.
func (c *overlayCompiler) indexReused() {
	ov, p := c.ov, c.prev
	if p == nil || len(c.reused) == 0 {
		return
	}
	for _, u := range c.order {
		if !c.reused[u] {
			continue
		}
		for _, s := range u.Symbols {
			ov.bySymbol[s] = u
		}
		for _, w := range append([]string{u.Name, u.Plural}, u.Aliases...) {
			if key := fold.Key(w); key != "" {
				ov.byWord[key] = u
			}
		}
	}
	for k, a := range p.clashSym {
		if c.reused[a.Candidates[len(a.Candidates)-1]] {
			ov.clashSym[k] = a
		}
	}
	for k, a := range p.clashWord {
		if c.reused[a.Candidates[len(a.Candidates)-1]] {
			ov.clashWord[k] = a
		}
	}
}

// dependencies records, for each unit compiled now, the account's units
// its compilation read: the unit its definition refers to, the unit it
// is a prefixed form of, and those its examples name.
func (c *overlayCompiler) dependencies() {
	declared := func(u *graph.Unit) string {
		if u.Prefixed != nil {
			u = u.Prefixed
		}
		return u.Symbols[0]
	}
	mineNow := func(u *graph.Unit) bool { return c.ov.mine[u] || c.reused[u] }
	for _, u := range c.created {
		if c.bad[u] {
			continue
		}
		var deps []string
		add := func(v *graph.Unit) {
			if v != nil && v != u && mineNow(v) {
				if d := declared(v); !slices.Contains(deps, d) {
					deps = append(deps, d)
				}
			}
		}
		add(c.ref[u])
		add(u.Prefixed)
		for _, ex := range u.Doc().Examples {
			for _, name := range [2]string{ex.From, ex.To} {
				s, err := c.b.names.Resolve(name)
				if err != nil {
					continue
				}
				add(s.Unit)
				if s.Expr != nil {
					for _, t := range s.Expr.Terms {
						add(t.Unit)
					}
				}
			}
		}
		c.ov.deps[u] = deps
	}
}
