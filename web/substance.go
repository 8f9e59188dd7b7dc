package web

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode"

	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/engine/substance"
)

// Substances on the pages: the converter's substance field searches them
// as its unit fields search units (GET /web/substances?q=), and the
// catalog browser lists them, filtered by kind and searched, with the
// source of every value (/catalog/substances). Both rank with
// engine.Graph.SearchSubstances, as GET /v1/substances?q= does.

// substanceKinds are the kinds of substance the page filters by, in the
// order it lists them, with their names.
var substanceKinds = []struct{ value, label string }{
	{"clinical", "Clinical analytes"},
	{"gas", "Gases"},
	{"liquid", "Liquids"},
	{"solid", "Solids"},
	{"food", "Foods"},
}

// otherKind is the filter value of substances whose kind the page does not
// know (a catalog that says none).
const otherKind = "other"

// kindOf is the filter value of a substance's kind.
func kindOf(s *engine.Substance) string {
	for _, k := range substanceKinds {
		if s.Kind == k.value {
			return k.value
		}
	}
	return otherKind
}

// kindRank orders the kinds as substanceKinds lists them, others last.
func kindRank(kind string) int {
	for i, k := range substanceKinds {
		if k.value == kind {
			return i
		}
	}
	return len(substanceKinds)
}

// viewSubstance is a substance with what the pages need of it, ready.
type viewSubstance struct {
	s    *engine.Substance
	kind string
}

// substanceMatch is a substance the converter's field offers, in the shape
// of a unit's match so that one combobox serves both: Symbol is what the
// field takes (the ID), CategoryName what else tells it apart (its
// formula and molar mass, or its density).
func substanceMatch(m substance.Match) match {
	s := m.Substance
	var about []string
	if s.Formula != "" {
		about = append(about, s.Formula)
	}
	switch {
	case s.MolarMass != nil:
		about = append(about, s.MolarMass.Value)
	case s.Density != nil:
		about = append(about, s.Density.Value)
	}
	matched := m.Matched
	if matched == s.Name || matched == s.ID || m.Field == substance.FieldFormula {
		matched = ""
	}
	return match{Symbol: s.ID, Name: s.Name, CategoryName: strings.Join(about, " · "), Matched: matched,
		Suggested: m.Rank == substance.Fuzzy}
}

// formulaReading is how a text that names no catalog substance reads as a
// chemical formula: its molar mass summed from the standard atomic
// weights, as a conversion would use it.
type formulaReading struct {
	Formula, MolarMass, Sum string
}

// readFormula reads q as a formula that names no catalog substance; nil
// when q is a catalog substance or no formula.
func readFormula(g *engine.Graph, q string) *formulaReading {
	if g == nil || q == "" {
		return nil
	}
	p, err := g.ResolveProperties(engine.PropertyQuery{Substance: q})
	if err != nil || p == nil || p.Substance != nil || p.Formula == "" || p.MolarMass == nil {
		return nil
	}
	return &formulaReading{Formula: p.Formula, MolarMass: p.MolarMass.Value, Sum: strings.TrimSuffix(p.MolarMass.Sum, " = "+p.MolarMass.Value)}
}

// searchSubstances serves GET /web/substances?q=text for the converter's
// substance field: at most maxMatches substances, best first; when none
// matches, the closest spellings (marked suggested) and, first, the text
// itself when it is a formula.
func (p *Pages) searchSubstances(w http.ResponseWriter, r *http.Request) {
	text := strings.TrimSpace(truncate(r.URL.Query().Get("q"), 100))
	v := p.view()
	p.cached(w, r, v, "substances\x00"+text, func() (*cachedPage, int) {
		ans := searchAnswer{Data: []match{}}
		if text != "" && !strings.ContainsRune(text, 0) {
			ms := v.g.SearchSubstances(text)
			if len(ms) == 0 || ms[0].Rank != substance.Exact {
				if f := readFormula(v.g, text); f != nil {
					ans.Data = append(ans.Data, match{Symbol: f.Formula, Name: "formula", CategoryName: f.MolarMass + " from the standard atomic weights"})
				}
			}
			for _, m := range ms {
				if len(ans.Data) == maxMatches {
					break
				}
				ans.Data = append(ans.Data, substanceMatch(m))
			}
		}
		body, err := json.Marshal(ans)
		if err != nil {
			return &cachedPage{status: http.StatusInternalServerError, ctype: "text/plain; charset=utf-8",
				body: []byte("the search could not be rendered\n")}, 0
		}
		return &cachedPage{status: http.StatusOK, ctype: "application/json", body: append(body, '\n')}, len(v.substances)
	})
}

// The substances page.

// substanceRow is a substance as the page's table shows it.
type substanceRow struct {
	ID, Name, Kind, Formula, CAS, Description string
	// ShowID is set when the ID is not the name written with hyphens, so
	// that it tells the reader something.
	ShowID bool
	// Aliases are the other names, each once; More those shown only
	// when the reader opens them.
	Aliases, More              []string
	Portions                   []string
	MolarMass, Density, Charge *propertyRow
}

// propertyRow is one value of a substance and the note that cites its
// source.
type propertyRow struct {
	Value, Conditions, Sum string
	Note                   int
}

// shownAliases is how many aliases a row shows before "more".
const shownAliases = 3

// newSubstanceRow makes the row of s, numbering the notes of its sources
// in notes.
func newSubstanceRow(s *engine.Substance, kind string, notes *noteList) substanceRow {
	row := substanceRow{ID: s.ID, Name: s.Name, Kind: kind, Formula: s.Formula, CAS: s.CAS, Description: s.Description,
		ShowID: s.ID != slug(s.Name)}
	// Each name once: an alias written as the name, the ID, the formula
	// or the CAS number is, but for case and punctuation ("all purpose
	// flour" of "all-purpose flour"), is not repeated.
	seen := map[string]bool{}
	for _, n := range []string{s.Name, s.ID, s.Formula, s.CAS} {
		seen[slug(n)] = true
	}
	var aliases []string
	for _, a := range s.Aliases {
		if k := slug(a); !seen[k] {
			seen[k] = true
			aliases = append(aliases, a)
		}
	}
	if len(aliases) > shownAliases+1 {
		row.Aliases, row.More = aliases[:shownAliases], aliases[shownAliases:]
	} else {
		row.Aliases = aliases
	}
	for _, p := range s.Portions {
		row.Portions = append(row.Portions, p.Measure+" = "+p.Mass)
	}
	value := func(p *engine.Property) *propertyRow {
		if p == nil {
			return nil
		}
		return &propertyRow{Value: p.Value, Conditions: p.Conditions, Sum: strings.TrimSuffix(p.Sum, " = "+p.Value), Note: notes.cite(noteText(s, p))}
	}
	row.MolarMass, row.Density, row.Charge = value(s.MolarMass), value(s.Density), value(s.Charge)
	return row
}

// slug writes a name as IDs are written: lower case, each run of other
// characters than letters and digits one hyphen ("acorn squash, cubes" is
// acorn-squash-cubes).
func slug(name string) string {
	var b strings.Builder
	hyphen := false
	for _, r := range strings.ToLower(name) {
		if unicode.IsLetter(r) || unicode.IsNumber(r) {
			if hyphen && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			hyphen = false
			continue
		}
		hyphen = true
	}
	return b.String()
}

// noteText is the text of the note that cites p's source. A molar mass
// summed from the substance's formula names the formula in its source
// ("formula C6H12O6 with the IUPAC 2013 standard atomic weights …"); the
// row shows the formula and the sum, so the note leaves the formula out
// and every summed molar mass cites one note.
func noteText(s *engine.Substance, p *engine.Property) string {
	if s.Formula != "" && p.Sum != "" {
		if rest, ok := strings.CutPrefix(p.Source, "formula "+s.Formula+" with the "); ok {
			return "Summed from the formula with the " + rest
		}
	}
	return p.Source
}

// noteList numbers the distinct source texts of a page in the order they
// are first cited.
type noteList struct {
	texts []string
	index map[string]int
}

// cite returns the number of text's note, from 1, adding it if new.
func (n *noteList) cite(text string) int {
	if i, ok := n.index[text]; ok {
		return i
	}
	if n.index == nil {
		n.index = map[string]int{}
	}
	n.texts = append(n.texts, text)
	n.index[text] = len(n.texts)
	return len(n.texts)
}

// kindLink is one entry of the page's kind filter.
type kindLink struct {
	Value, Label, URL string
	Count             int // substances of the kind that the search matches
	Current           bool
}

// suggestionLink is a substance offered for a search that matches none.
type suggestionLink struct {
	ID, Name, URL string
}

// conditionsRow is a named set of reference conditions for gases.
type conditionsRow struct {
	Name, Temperature, Pressure, Source, Note string
	Aliases                                   []string
}

type substancesPage struct {
	Q, Kind   string
	KindLabel string // the current kind's name, or ""
	Filtered  bool   // a search or a kind is given
	Total     int    // substances in the catalog
	All       kindLink
	Kinds     []kindLink
	// Matches counts the substances shown on all pages, Rows those of
	// this page; Notes are the sources its rows cite, by number.
	Matches int
	Rows    []substanceRow
	Notes   []string
	// Columns say which columns any row of this page fills.
	Columns struct{ Formula, MolarMass, Density, Portions, Charge bool }
	// When the search matches nothing: the substances spelled closest to
	// it, how it reads as a formula, and how many substances of other
	// kinds it matches.
	Suggestions []suggestionLink
	Formula     *formulaReading
	Elsewhere   int
	Page, Pages int
	First, Last int
	Prev, Next  string
	Conditions  []conditionsRow
	// Elements counts the standard atomic weights and WeightsSource says
	// where they come from.
	Elements      int
	WeightsSource string
}

// substancesURL is the address of the page for a search, a kind and a
// page number.
func substancesURL(q, kind string, page int) string {
	vals := url.Values{}
	if q != "" {
		vals.Set("q", q)
	}
	if kind != "" {
		vals.Set("kind", kind)
	}
	if page > 1 {
		vals.Set("page", strconv.Itoa(page))
	}
	if len(vals) == 0 {
		return "/catalog/substances"
	}
	return "/catalog/substances?" + vals.Encode()
}

// substancesPage serves /catalog/substances[?q=text][&kind=k][&page=n]:
// the substances of a kind (or all) that q names, ranked as the API
// ranks them (all, by kind and ID, without q), 50 to a page, each value
// citing a numbered note of its source; the reference conditions for
// gases, and where the atomic weights come from.
func (p *Pages) substancesPage(w http.ResponseWriter, r *http.Request) {
	query := r.URL.Query()
	q := strings.ReplaceAll(truncate(strings.TrimSpace(query.Get("q")), 100), "\x00", "")
	kind := truncate(query.Get("kind"), 100)
	page := 1
	if s := query.Get("page"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > maxPage {
			p.notFound(w, r, "There is no page “"+truncate(s, 20)+"” of substances: pages are numbered from 1.", nil)
			return
		}
		page = n
	}
	v := p.view()
	if kind != "" && kindRank(kind) == len(substanceKinds) && !v.hasKind(kind) {
		var links []string
		for _, k := range substanceKinds {
			links = append(links, substancesURL(q, k.value, 1))
		}
		p.notFound(w, r, "There is no kind of substance “"+kind+"”: the kinds are clinical, gas, liquid, solid and food.", links)
		return
	}
	key := "substances-page\x00" + q + "\x00" + kind + "\x00" + strconv.Itoa(page)
	p.cached(w, r, v, key, func() (*cachedPage, int) {
		d, ok := v.substancesPage(q, kind, page)
		if !ok {
			return p.renderPage(v.g, http.StatusNotFound, "notfound", "Not found", "", notFoundPage{
				Message: "These substances fill " + strconv.Itoa(d.Pages) + " page(s), not " + strconv.Itoa(page) + ".",
			}), len(v.substances)
		}
		title := "Substances"
		if d.Filtered {
			title = "Substance search"
		}
		return p.renderPage(v.g, http.StatusOK, "substances", title, "catalog", d), len(v.substances)
	})
}

// hasKind reports whether a substance of v is of kind.
func (v *view) hasKind(kind string) bool { return v.kinds[kind] > 0 }

// substancesPage is the data of one page of substances; false when page
// is past the last.
func (v *view) substancesPage(q, kind string, page int) (substancesPage, bool) {
	d := substancesPage{Q: q, Kind: kind, Filtered: q != "" || kind != "", Total: len(v.substances), Page: page}
	// The substances q names, best first (all without q), then those of
	// the kind.
	var found []*viewSubstance
	if q == "" {
		found = v.byKind
	} else {
		for _, m := range v.g.SearchSubstances(q) {
			if m.Rank == substance.Fuzzy {
				d.Suggestions = append(d.Suggestions, suggestionLink{ID: m.Substance.ID, Name: m.Substance.Name,
					URL: substancesURL(m.Substance.ID, "", 1) + "#substance-" + m.Substance.ID})
				continue
			}
			found = append(found, v.substanceOf[m.Substance])
		}
		if len(found) == 0 {
			d.Formula = readFormula(v.g, q)
		}
	}
	counts := map[string]int{}
	var rows []*viewSubstance
	for _, vs := range found {
		counts[vs.kind]++
		if kind == "" || vs.kind == kind {
			rows = append(rows, vs)
		}
	}
	d.All = kindLink{Label: "All", URL: substancesURL(q, "", 1), Count: len(found), Current: kind == ""}
	for _, k := range substanceKinds {
		if !v.hasKind(k.value) {
			continue
		}
		d.Kinds = append(d.Kinds, kindLink{Value: k.value, Label: k.label, URL: substancesURL(q, k.value, 1), Count: counts[k.value], Current: kind == k.value})
		if kind == k.value {
			d.KindLabel = k.label
		}
	}
	if v.hasKind(otherKind) {
		d.Kinds = append(d.Kinds, kindLink{Value: otherKind, Label: "Other", URL: substancesURL(q, otherKind, 1), Count: counts[otherKind], Current: kind == otherKind})
	}
	if len(rows) == 0 && kind != "" && q != "" {
		d.Elsewhere = len(found)
	}

	d.Matches = len(rows)
	d.Pages = max(1, (len(rows)+perPage-1)/perPage)
	if page > d.Pages {
		return d, false
	}
	from := (page - 1) * perPage
	var notes noteList
	for _, vs := range rows[from:min(from+perPage, len(rows))] {
		row := newSubstanceRow(vs.s, vs.kind, &notes)
		d.Columns.Formula = d.Columns.Formula || row.Formula != "" || row.CAS != ""
		d.Columns.MolarMass = d.Columns.MolarMass || row.MolarMass != nil
		d.Columns.Density = d.Columns.Density || row.Density != nil
		d.Columns.Portions = d.Columns.Portions || len(row.Portions) > 0
		d.Columns.Charge = d.Columns.Charge || row.Charge != nil
		d.Rows = append(d.Rows, row)
	}
	d.Notes = notes.texts
	if len(d.Rows) > 0 {
		d.First, d.Last = from+1, from+len(d.Rows)
	}
	if page > 1 {
		d.Prev = substancesURL(q, kind, page-1)
	}
	if page < d.Pages {
		d.Next = substancesURL(q, kind, page+1)
	}
	if v.g != nil {
		for _, c := range v.g.ConditionSets() {
			d.Conditions = append(d.Conditions, conditionsRow{Name: c.Name, Aliases: c.Aliases, Temperature: c.Temperature, Pressure: c.Pressure, Source: c.Source, Note: c.Note})
		}
		els := v.g.Elements()
		d.Elements = len(els)
		if len(els) > 0 {
			d.WeightsSource = els[0].Source
		}
	}
	return d, true
}
