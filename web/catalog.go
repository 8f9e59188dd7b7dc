package web

import (
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/unitd/unitd/engine"
)

// The catalog browser: every page is rendered from the graph being served
// at the moment of the request.

type categoryRow struct {
	ID, Name, Description, Base, Dimension string
	Count                                  int
}

func newCategoryRow(c *engine.Category) categoryRow {
	return categoryRow{ID: c.ID, Name: c.Name, Description: c.Description, Base: c.Base.Symbol,
		Dimension: c.DimensionText(), Count: len(c.Units)}
}

type unitRow struct {
	Symbol, Name, System, Definition, Source string
	Category                                 categoryRow
	Exact                                    bool
	Aliases                                  []string
}

func newUnitRow(u *engine.Unit) unitRow {
	return unitRow{Symbol: u.Symbol, Name: u.Name, System: u.System, Definition: definitionText(u),
		Source: u.Source, Category: newCategoryRow(u.Category), Exact: u.Exact, Aliases: aliases(u)}
}

// aliases lists every other spelling of u: the case-sensitive symbols (°C)
// first, then the word aliases, as the API's unit records do.
func aliases(u *engine.Unit) []string {
	seen := map[string]bool{u.Symbol: true, u.Name: true, u.Plural: true}
	var out []string
	for _, a := range slices.Concat(u.Symbols, u.Aliases) {
		if !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	return out
}

// definitionText says in words how u is defined.
func definitionText(u *engine.Unit) string {
	d := u.Definition
	switch d.Kind {
	case "base", "":
		return "base unit of " + strings.ToLower(u.Category.Name)
	case "linear":
		return "1 " + u.Symbol + " = " + d.Factor + " " + d.Unit
	case "affine":
		s := d.Unit + " = " + u.Symbol
		if d.Factor != "" && d.Factor != "1" {
			s += " × " + d.Factor
		}
		if strings.HasPrefix(d.Offset, "-") {
			return s + " − " + d.Offset[1:]
		}
		return s + " + " + d.Offset
	default:
		return "formula, x in " + u.Symbol + ": to " + d.Unit + " = " + d.To + "; back = " + d.From
	}
}

// catalogSearch returns the units of g in the category and system given
// (either may be "") that q names, best first: the ranks of the
// converter's search (exact symbol, exact spelling, symbol prefix, name or
// alias prefix, substring), where an ambiguous name counts as an exact
// spelling of each of its candidates ("gallon" finds gal and gal_imp
// first), then catalog order. An empty q matches every unit, in catalog
// order.
func catalogSearch(g *engine.Graph, q, category, system string) []*engine.Unit {
	lq := strings.ToLower(q)
	candidate := map[*engine.Unit]bool{}
	for _, a := range g.Ambiguities() {
		if q != "" && strings.EqualFold(a.Name, q) {
			for _, u := range a.Candidates {
				candidate[u] = true
			}
		}
	}
	type hit struct {
		rank int
		u    *engine.Unit
	}
	var hits []hit
	for _, u := range g.Units() {
		if (category != "" && u.Category.ID != category) || (system != "" && u.System != system) {
			continue
		}
		r := rankSymbol
		if q != "" {
			r, _ = rank(u, q, lq)
			if candidate[u] {
				r = min(r, rankSpelling)
			}
		}
		if r != noMatch {
			hits = append(hits, hit{r, u})
		}
	}
	slices.SortStableFunc(hits, func(a, b hit) int { return a.rank - b.rank })
	units := make([]*engine.Unit, len(hits))
	for i, h := range hits {
		units[i] = h.u
	}
	return units
}

type catalogIndexPage struct {
	Categories []categoryRow
	Systems    []string
	Q          string
	Category   string
	System     string
	Filtered   bool
	Units      []unitRow
	Total      int // units in the catalog
}

func (p *Pages) catalogIndex(w http.ResponseWriter, r *http.Request) {
	g := p.cfg.Graph()
	q := r.URL.Query()
	d := catalogIndexPage{Q: strings.TrimSpace(q.Get("q")), Category: q.Get("category"), System: q.Get("system"), Total: len(g.Units())}
	for _, c := range g.Categories() {
		d.Categories = append(d.Categories, newCategoryRow(c))
	}
	systems := map[string]bool{}
	for _, u := range g.Units() {
		if u.System != "" && !systems[u.System] {
			systems[u.System] = true
			d.Systems = append(d.Systems, u.System)
		}
	}
	slices.Sort(d.Systems)
	d.Filtered = d.Q != "" || d.Category != "" || d.System != ""
	if d.Filtered {
		for _, u := range catalogSearch(g, d.Q, d.Category, d.System) {
			d.Units = append(d.Units, newUnitRow(u))
		}
	}
	title := "Catalog"
	if d.Filtered {
		title = "Catalog search"
	}
	p.render(w, r, http.StatusOK, "catalog", title, "catalog", g, d)
}

type ambiguityRow struct {
	Name, Note string
	Candidates []string
}

type categoryPage struct {
	categoryRow
	Minimum   string
	Units     []unitRow
	Ambiguous []ambiguityRow
}

func (p *Pages) categoryPage(w http.ResponseWriter, r *http.Request, id string) {
	g := p.cfg.Graph()
	c, ok := g.Category(id)
	if !ok {
		var sugg []string
		for _, c := range g.Categories() {
			if strings.Contains(c.ID, strings.ToLower(id)) || strings.Contains(strings.ToLower(id), c.ID) {
				sugg = append(sugg, "/catalog/"+c.ID)
			}
		}
		p.notFound(w, r, "There is no category “"+id+"” in the catalog.", sugg)
		return
	}
	d := categoryPage{categoryRow: newCategoryRow(c), Minimum: c.Minimum}
	for _, u := range c.Units {
		d.Units = append(d.Units, newUnitRow(u))
	}
	for _, a := range g.Ambiguities() {
		if len(a.Candidates) == 0 || a.Candidates[0].Category != c {
			continue
		}
		row := ambiguityRow{Name: a.Name, Note: a.Note}
		for _, u := range a.Candidates {
			row.Candidates = append(row.Candidates, u.Symbol)
		}
		d.Ambiguous = append(d.Ambiguous, row)
	}
	p.render(w, r, http.StatusOK, "category", c.Name, "catalog", g, d)
}

type unitPage struct {
	unitRow
	Plural       string
	Description  string
	RefUnit      string // the unit the definition refers to, if another
	PrefixedFrom string
	Examples     []string
	ConvertURL   string
}

func (p *Pages) unitPage(w http.ResponseWriter, r *http.Request, name string) {
	g := p.cfg.Graph()
	u, err := g.Lookup(name)
	if err != nil {
		var e *engine.Error
		if !errors.As(err, &e) {
			p.notFound(w, r, "There is no unit “"+name+"” in the catalog.", nil)
			return
		}
		var links []string
		for _, s := range slices.Concat(e.Candidates, e.Suggestions) {
			links = append(links, unitURL(s))
		}
		p.notFound(w, r, e.Message, links)
		return
	}
	if u.Symbol != name {
		// One address per unit: aliases lead to the symbol's page.
		http.Redirect(w, r, unitURL(u.Symbol), http.StatusMovedPermanently)
		return
	}
	d := unitPage{unitRow: newUnitRow(u), Plural: u.Plural, Description: u.Description}
	if ref := u.Definition.Unit; ref != "" && ref != u.Symbol {
		d.RefUnit = ref
	}
	if u.Prefixed != nil {
		d.PrefixedFrom = u.Prefixed.Symbol
	}
	for _, e := range u.Examples {
		d.Examples = append(d.Examples, e.String())
	}
	to := u.Category.Base.Symbol
	if to == u.Symbol && len(u.Category.Units) > 1 {
		to = u.Category.Units[1].Symbol
	}
	d.ConvertURL = "/?" + url.Values{"value": {"1"}, "from": {u.Symbol}, "to": {to}}.Encode()
	p.render(w, r, http.StatusOK, "unit", u.Symbol+" ("+u.Name+")", "catalog", g, d)
}
