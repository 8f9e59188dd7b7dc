package web

import (
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/locale"
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
	// Local is the unit's name in the reader's language, if CLDR has it.
	Local    string
	Category categoryRow
	Exact    bool
	Aliases  []string
}

func newUnitRow(u *engine.Unit) unitRow {
	return unitRow{Symbol: u.Symbol, Name: u.Name, System: u.System, Definition: definitionText(u),
		Source: u.Doc().Source, Category: newCategoryRow(u.Category), Exact: u.Exact, Aliases: aliases(u)}
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
	d := u.Doc().Definition
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

// catalogSearch returns the rows of v's units in the category and system
// given (either may be "") that q names, best first, as
// engine.Graph.SearchUnits ranks them (and GET /v1/units?q= lists them):
// exact symbol, a symbol in another case, exact name, alias or ambiguous
// name ("gallon" finds gal and gal_imp first), prefix, part; ties by the
// shorter name, then the symbol. An empty q matches every unit, in
// catalog order.
func catalogSearch(v *view, q, category, system string) []unitRow {
	keep := func(u *engine.Unit) bool {
		return (category == "" || u.Category.ID == category) && (system == "" || u.System == system)
	}
	var rows []unitRow
	if q == "" {
		for i := range v.units {
			if keep(v.units[i].u) {
				rows = append(rows, v.units[i].row)
			}
		}
		return rows
	}
	for _, m := range v.g.SearchUnits(q, nil) {
		if i, ok := v.unitAt[m.Unit]; ok && keep(m.Unit) {
			rows = append(rows, v.units[i].row)
		}
	}
	return rows
}

type catalogIndexPage struct {
	Categories []categoryRow
	Systems    []string
	Q          string
	Category   string
	System     string
	Filtered   bool
	Units      []unitRow // this page of the matches
	Total      int       // units in the catalog
	Substances int       // substances in the catalog
	Matches    int       // units that match
	// Page of Pages (from 1), the first and last match shown, and the
	// addresses of the pages before and after ("" at either end).
	Page, Pages, First, Last int
	Prev, Next               string
}

// perPage is how many matching units one page of a catalog search shows.
const perPage = 50

// maxPage bounds the page number a search accepts (the shipped catalog
// needs fewer than 50).
const maxPage = 1000

func (p *Pages) catalogIndex(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	d := catalogIndexPage{Q: truncate(strings.TrimSpace(q.Get("q")), 100), Category: truncate(q.Get("category"), 100),
		System: truncate(q.Get("system"), 100), Page: 1}
	if s := q.Get("page"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > maxPage {
			p.notFound(w, r, "There is no page “"+truncate(s, 20)+"” of this search: pages are numbered from 1.", nil)
			return
		}
		d.Page = n
	}
	v := p.view()
	key := "catalog\x00" + d.Q + "\x00" + d.Category + "\x00" + d.System + "\x00" + strconv.Itoa(d.Page)
	p.cached(w, r, v, key, func() (*cachedPage, int) {
		d.Categories, d.Systems, d.Total, d.Substances = v.categories, v.systems, len(v.units), len(v.substances)
		d.Filtered = d.Q != "" || d.Category != "" || d.System != ""
		title := "Catalog"
		scanned := 0
		if d.Filtered {
			title = "Catalog search"
			rows := catalogSearch(v, strings.ReplaceAll(d.Q, "\x00", ""), d.Category, d.System)
			scanned = len(v.units)
			d.Matches = len(rows)
			d.Pages = max(1, (len(rows)+perPage-1)/perPage)
			if d.Page > d.Pages {
				return p.renderPage(v.g, http.StatusNotFound, "notfound", "Not found", "", notFoundPage{
					Message: "This search has " + strconv.Itoa(d.Pages) + " page(s) of results, not " + strconv.Itoa(d.Page) + ".",
				}), scanned
			}
			from := (d.Page - 1) * perPage
			d.Units = rows[from:min(from+perPage, len(rows))]
			d.First, d.Last = from+1, from+len(d.Units)
			pageURL := func(n int) string {
				vals := url.Values{}
				for k, s := range map[string]string{"q": d.Q, "category": d.Category, "system": d.System} {
					if s != "" {
						vals.Set(k, s)
					}
				}
				if n > 1 {
					vals.Set("page", strconv.Itoa(n))
				}
				return "/catalog?" + vals.Encode()
			}
			if d.Page > 1 {
				d.Prev = pageURL(d.Page - 1)
			}
			if d.Page < d.Pages {
				d.Next = pageURL(d.Page + 1)
			}
		}
		return p.renderPage(v.g, http.StatusOK, "catalog", title, "catalog", d), scanned
	})
}

type ambiguityRow struct {
	Name, Note string
	Candidates []string
}

type categoryPage struct {
	categoryRow
	// Language is the reader's CLDR locale, when the page shows names in
	// it.
	Language  string
	Minimum   string
	Units     []unitRow
	Ambiguous []ambiguityRow
}

func (p *Pages) categoryPage(w http.ResponseWriter, r *http.Request, id string) {
	v := p.view()
	g := v.g
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
	lc := readerLocale(r, g)
	p.cached(w, r, v, "category\x00"+c.ID+"\x00"+localeKey(lc), func() (*cachedPage, int) {
		d := categoryPage{categoryRow: newCategoryRow(c), Minimum: c.Minimum}
		if lc != nil {
			d.Language = lc.Tag
		}
		for _, u := range c.Units {
			row := newUnitRow(u)
			if lc != nil {
				row.Local, _ = lc.DisplayName(u.Symbol, locale.Long)
			}
			d.Units = append(d.Units, row)
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
		return p.renderPage(g, http.StatusOK, "category", c.Name, "catalog", d), len(c.Units)
	})
}

type unitPage struct {
	unitRow
	// Reader is the unit's name in the reader's language; Names its long
	// name in every language CLDR has it in.
	Reader       *localName
	Names        []localName
	Plural       string
	Description  string
	RefUnit      string // the unit the definition refers to, if another
	PrefixedFrom string
	Examples     []string
	ConvertURL   string
	// Codes are the unit's codes in the standard code systems, in the
	// order UCUM, CLDR, UN/ECE Rec 20, QUDT.
	Codes []unitCode
}

// unitCode is one code of a unit, as the API accepts it (ucum:[ft_i]).
type unitCode struct {
	System, Code, Name string
}

// codeSystemNames name the code systems on the unit page.
var codeSystemNames = map[string]string{
	engine.SystemUCUM: "UCUM", engine.SystemCLDR: "CLDR", engine.SystemUNECE: "UN/ECE Rec 20", engine.SystemQUDT: "QUDT",
}

func (p *Pages) unitPage(w http.ResponseWriter, r *http.Request, name string) {
	v := p.view()
	g := v.g
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
	lc := readerLocale(r, g)
	p.cached(w, r, v, "unit\x00"+u.Symbol+"\x00"+localeKey(lc), func() (*cachedPage, int) { return p.renderUnit(g, u, lc), 0 })
}

// localeKey is the part of a page's cache key that the reader's language
// decides: the unit names it shows.
func localeKey(lc *locale.Locale) string {
	if lc == nil {
		return ""
	}
	return lc.Tag
}

func (p *Pages) renderUnit(g *engine.Graph, u *engine.Unit, lc *locale.Locale) *cachedPage {
	d := unitPage{unitRow: newUnitRow(u), Plural: u.Plural, Description: u.Doc().Description, Names: allNames(g, u)}
	if lc != nil {
		if n, ok := newLocalName(lc, u); ok {
			d.Reader = &n
		}
	}
	if ref := u.Doc().Definition.Unit; ref != "" && ref != u.Symbol {
		d.RefUnit = ref
	}
	if u.Prefixed != nil {
		d.PrefixedFrom = u.Prefixed.Symbol
	}
	for _, s := range engine.CodeSystems {
		if c := u.CodeOf(s); c != "" {
			d.Codes = append(d.Codes, unitCode{System: s, Code: c, Name: codeSystemNames[s]})
		}
	}
	for _, e := range u.Doc().Examples {
		d.Examples = append(d.Examples, e.String())
	}
	to := u.Category.Base.Symbol
	if to == u.Symbol && len(u.Category.Units) > 1 {
		to = u.Category.Units[1].Symbol
	}
	d.ConvertURL = "/?" + url.Values{"value": {"1"}, "from": {u.Symbol}, "to": {to}}.Encode()
	return p.renderPage(g, http.StatusOK, "unit", u.Symbol+" ("+u.Name+")", "catalog", d)
}
