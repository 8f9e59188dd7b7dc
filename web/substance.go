package web

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"

	"github.com/unitd/unitd/engine"
)

// Substances on the pages: the converter's substance field searches them
// as its unit fields search units (GET /web/substances?q=), and the
// catalog browser lists them with the source of every value
// (/catalog/substances).

// substanceRow is a substance as the pages show it.
type substanceRow struct {
	ID, Name, Formula, CAS, Description string
	Aliases                             []string
	MolarMass, Density, Charge          *propertyRow
}

// propertyRow is one value of a substance and where it comes from.
type propertyRow struct {
	Value, Conditions, Source, Sum string
}

func newPropertyRow(p *engine.Property) *propertyRow {
	if p == nil {
		return nil
	}
	return &propertyRow{Value: p.Value, Conditions: p.Conditions, Source: p.Source, Sum: p.Sum}
}

func newSubstanceRow(s *engine.Substance) substanceRow {
	return substanceRow{ID: s.ID, Name: s.Name, Formula: s.Formula, CAS: s.CAS, Description: s.Description,
		Aliases: s.Aliases, MolarMass: newPropertyRow(s.MolarMass), Density: newPropertyRow(s.Density), Charge: newPropertyRow(s.Charge)}
}

// viewSubstance is a substance with its spellings for search: the ID,
// name, aliases and CAS number in lower case; the formula as written
// (CO is not Co).
type viewSubstance struct {
	row       substanceRow
	spellings []spelling
	formula   string
}

func newViewSubstance(s *engine.Substance) viewSubstance {
	vs := viewSubstance{row: newSubstanceRow(s), formula: s.Formula}
	for _, t := range slices.Concat([]string{s.ID, s.Name}, s.Aliases, []string{s.CAS}) {
		if t != "" {
			vs.spellings = append(vs.spellings, spelling{t, strings.ToLower(t)})
		}
	}
	return vs
}

// rank says how well q names the substance, as rank does for a unit: the
// ID or formula exactly, another spelling exactly, a prefix, a substring.
func (vs *viewSubstance) rank(q, lq string) (int, string) {
	if vs.row.ID == lq || vs.formula != "" && vs.formula == q {
		return rankSymbol, ""
	}
	best, which := noMatch, ""
	consider := func(r int, s string) {
		if r < best {
			best, which = r, s
		}
	}
	if vs.formula != "" && strings.HasPrefix(vs.formula, q) {
		consider(rankSymbolPrefix, vs.formula)
	}
	for _, sp := range vs.spellings {
		switch l := sp.lower; {
		case l == lq:
			consider(rankSpelling, sp.s)
		case strings.HasPrefix(l, lq):
			consider(rankPrefix, sp.s)
		case strings.Contains(l, lq):
			consider(rankContains, sp.s)
		}
	}
	if which == vs.row.Name || which == vs.row.ID {
		which = ""
	}
	return best, which
}

// substanceMatch is a substance the converter's field offers, in the shape
// of a unit's match so that one combobox serves both: Symbol is what the
// field takes (the ID), CategoryName what else tells it apart (its
// formula and molar mass, or its density).
func substanceMatch(vs *viewSubstance, matched string) match {
	var about []string
	if vs.formula != "" {
		about = append(about, vs.formula)
	}
	switch r := vs.row; {
	case r.MolarMass != nil:
		about = append(about, r.MolarMass.Value)
	case r.Density != nil:
		about = append(about, r.Density.Value)
	}
	return match{Symbol: vs.row.ID, Name: vs.row.Name, CategoryName: strings.Join(about, " · "), Matched: matched}
}

// searchSubstances serves GET /web/substances?q=text for the converter's
// substance field: at most maxMatches substances, best first, then in
// catalog order.
func (p *Pages) searchSubstances(w http.ResponseWriter, r *http.Request) {
	text := strings.TrimSpace(truncate(r.URL.Query().Get("q"), 100))
	v := p.view()
	p.cached(w, r, v, "substances\x00"+text, func() (*cachedPage, int) {
		ans := searchAnswer{Data: []match{}}
		if text != "" && !strings.ContainsRune(text, 0) {
			lq := strings.ToLower(text)
			type hit struct {
				rank, order int
				m           match
			}
			var hits []hit
			for i := range v.substances {
				vs := &v.substances[i]
				if r, which := vs.rank(text, lq); r != noMatch {
					hits = append(hits, hit{r, i, substanceMatch(vs, which)})
				}
			}
			slices.SortStableFunc(hits, func(a, b hit) int { return a.rank - b.rank })
			for _, h := range hits[:min(len(hits), maxMatches)] {
				ans.Data = append(ans.Data, h.m)
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

// conditionsRow is a named set of reference conditions for gases.
type conditionsRow struct {
	Name, Temperature, Pressure, Source, Note string
	Aliases                                   []string
}

type substancesPage struct {
	Substances []substanceRow
	Conditions []conditionsRow
	// Elements counts the standard atomic weights and WeightsSource says
	// where they come from.
	Elements      int
	WeightsSource string
}

// substancesPage serves /catalog/substances: every substance of the
// catalog with its values and their sources, the reference conditions for
// gases, and where the atomic weights come from.
func (p *Pages) substancesPage(w http.ResponseWriter, r *http.Request) {
	v := p.view()
	p.cached(w, r, v, "substances-page", func() (*cachedPage, int) {
		d := substancesPage{}
		for i := range v.substances {
			d.Substances = append(d.Substances, v.substances[i].row)
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
		return p.renderPage(v.g, http.StatusOK, "substances", "Substances", "catalog", d), len(v.substances)
	})
}
