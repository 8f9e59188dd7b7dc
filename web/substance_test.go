package web

import (
	"encoding/json"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/engine/substance"
)

func shippedPages(t *testing.T) (*Pages, *engine.Graph) {
	t.Helper()
	g := shippedGraph(t)
	return New(Config{Graph: func() *engine.Graph { return g }, Version: "test"}), g
}

// TestSubstanceSearch: the converter's substance field finds substances
// by ID, name, alias, abbreviation, CAS number and formula (case-sensitive:
// CO is not Co), ranked as GET /v1/substances?q= ranks them, in the shape
// of the unit search; a name that matches none gets the closest ones,
// marked suggested, and a formula that names none reads as one.
func TestSubstanceSearch(t *testing.T) {
	p, g := shippedPages(t)
	for _, tt := range []struct {
		q, first, matched string
		about             string
		suggested         bool
	}{
		{"glucose", "glucose", "", "C6H12O6 · 180.156 g/mol", false},
		{"gluc", "glucose", "", "", false},
		{"blood sugar", "glucose", "blood sugar", "", false},
		{"50-99-7", "glucose", "50-99-7", "", false},
		{"C6H12O6", "glucose", "", "", false},
		{"CO", "carbon-monoxide", "", "", false},
		{"CO2", "carbon-dioxide", "", "", false},
		{"BUN", "urea-nitrogen", "BUN", "", false},
		{"petrol", "gasoline", "petrol", "", false},
		{"brown sugar", "brown-sugar-brownulated", "brown sugar", "3.2 g/tsp", false},
		{"glucsoe", "glucose", "", "", true},
		{"NaCl", "NaCl", "", "58.43976928 g/mol from the standard atomic weights", false},
	} {
		rec := get(t, p, "/web/substances?q="+url.QueryEscape(tt.q))
		if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/json" {
			t.Fatalf("%s: %d %s", tt.q, rec.Code, rec.Header().Get("Content-Type"))
		}
		var ans searchAnswer
		if err := json.Unmarshal(rec.Body.Bytes(), &ans); err != nil {
			t.Fatal(err)
		}
		if len(ans.Data) == 0 || ans.Data[0].Symbol != tt.first || ans.Data[0].Matched != tt.matched || len(ans.Data) > maxMatches ||
			ans.Data[0].Suggested != tt.suggested {
			t.Errorf("%s: %+v, want %s first (matched %q, suggested %v)", tt.q, ans.Data, tt.first, tt.matched, tt.suggested)
			continue
		}
		if tt.about != "" && ans.Data[0].CategoryName != tt.about {
			t.Errorf("%s: described as %q, want %q", tt.q, ans.Data[0].CategoryName, tt.about)
		}
	}
	// The field lists the first maxMatches of the shared ranking.
	x := substance.NewIndex(g.Substances())
	for _, q := range []string{"sugar", "milk", "chol", "CO", "glucsoe"} {
		var ans searchAnswer
		if err := json.Unmarshal(get(t, p, "/web/substances?q="+url.QueryEscape(q)).Body.Bytes(), &ans); err != nil {
			t.Fatal(err)
		}
		var got, want []string
		for _, m := range ans.Data {
			got = append(got, m.Symbol)
		}
		for _, m := range x.Search(q)[:min(maxMatches, len(x.Search(q)))] {
			want = append(want, m.Substance.ID)
		}
		if strings.Join(got, " ") != strings.Join(want, " ") || len(got) == 0 {
			t.Errorf("%s: %v, want %v", q, got, want)
		}
	}
	for _, q := range []string{"", "zzzz", "a\x00b"} {
		if body := get(t, p, "/web/substances?q="+url.QueryEscape(q)).Body.String(); body != `{"data":[],"ambiguous":null}`+"\n" {
			t.Errorf("%q: %s", q, body)
		}
	}
}

var (
	substanceRowRe = regexp.MustCompile(`(?s)<tr id="substance-([^"]+)" data-substance="[^"]+" data-kind="([^"]+)">(.*?)</tr>`)
	noteRe         = regexp.MustCompile(`<li id="source-(\d+)">([^<]*)</li>`)
	refRe          = regexp.MustCompile(`<sup class="ref"><a href="#source-(\d+)" aria-label="Source (\d+)">(\d+)</a></sup>`)
	kindLinkRe     = regexp.MustCompile(`<a href="([^"]+)" data-kind="([^"]+)"( aria-current="page")?>[^<]+<span class="count">(\d+)</span></a>`)
	nextRe         = regexp.MustCompile(`<a class="button secondary" href="([^"]+)" rel="next">`)
)

type pageRow struct {
	id, kind, html string
}

// substancesPageOf reads a page of substances: its rows and its notes (by
// number, from 1), failing unless the page is 200 with the strict policy.
func substancesPageOf(t *testing.T, p *Pages, target string) (rows []pageRow, notes []string, body string) {
	t.Helper()
	rec := get(t, p, target)
	if rec.Code != 200 || rec.Header().Get("Content-Security-Policy") != ContentSecurityPolicy {
		t.Fatalf("%s: %d, CSP %q", target, rec.Code, rec.Header().Get("Content-Security-Policy"))
	}
	body = rec.Body.String()
	for _, m := range substanceRowRe.FindAllStringSubmatch(body, -1) {
		rows = append(rows, pageRow{m[1], m[2], m[3]})
	}
	for i, m := range noteRe.FindAllStringSubmatch(body, -1) {
		if m[1] != strconv.Itoa(i+1) {
			t.Fatalf("%s: note %s is the %dth", target, m[1], i+1)
		}
		notes = append(notes, html.UnescapeString(m[2]))
	}
	return rows, notes, body
}

// TestSubstancesPage walks every page of the substances: each substance
// once, by kind then ID, 50 to a page; each name of a row once; each value
// citing a note that holds its source, one note per distinct source text
// (every molar mass summed from a formula cites the one note of the
// atomic weights, which no row repeats); the reference conditions and
// where the atomic weights come from.
func TestSubstancesPage(t *testing.T) {
	p, g := shippedPages(t)
	byID := map[string]*engine.Substance{}
	for _, s := range g.Substances() {
		byID[s.ID] = s
	}
	weights := g.Elements()[0].Source
	seen := map[string]bool{}
	lastKind := 0
	target, pages := "/catalog/substances", 0
	for target != "" {
		pages++
		rows, notes, body := substancesPageOf(t, p, target)
		if len(rows) == 0 || len(rows) > perPage {
			t.Fatalf("%s: %d rows", target, len(rows))
		}
		if n := strings.Count(body, html.EscapeString(weights)); n > 2 {
			t.Errorf("%s: the atomic weights' source is written %d times, want at most twice (a note and the section)", target, n)
		}
		noteIndex := map[string]bool{}
		for _, n := range notes {
			if noteIndex[n] {
				t.Errorf("%s: note %q twice", target, n)
			}
			noteIndex[n] = true
		}
		cited := map[int]bool{}
		for _, r := range rows {
			s := byID[r.id]
			if s == nil || seen[r.id] {
				t.Fatalf("%s: row %q unknown or shown twice", target, r.id)
			}
			seen[r.id] = true
			if r.kind != kindOf(s) || kindRank(r.kind) < lastKind {
				t.Errorf("%s: %s of kind %s after kind %d", target, r.id, r.kind, lastKind)
			}
			lastKind = kindRank(r.kind)
			checkSubstanceRow(t, s, r, notes, cited)
		}
		for i := range notes {
			if !cited[i+1] {
				t.Errorf("%s: note %d is cited by no row", target, i+1)
			}
		}
		if m := nextRe.FindStringSubmatch(body); m != nil {
			target = html.UnescapeString(m[1])
		} else {
			target = ""
		}
	}
	if len(seen) != len(byID) || pages != (len(byID)+perPage-1)/perPage {
		t.Errorf("%d of %d substances on %d pages", len(seen), len(byID), pages)
	}

	_, _, body := substancesPageOf(t, p, "/catalog/substances")
	for _, c := range g.ConditionSets() {
		if !strings.Contains(body, `data-conditions="`+escape(c.Name)+`"`) || !strings.Contains(body, escape(c.Source)) {
			t.Errorf("conditions %s or its source missing", c.Name)
		}
	}
	if !strings.Contains(body, `<p class="source" id="weights-source">`+escape(weights)) {
		t.Error("the atomic weights' source is missing")
	}
	if idx := get(t, p, "/catalog").Body.String(); !strings.Contains(idx, `href="/catalog/substances"`) {
		t.Error("the catalog index does not link to the substances")
	}
	if !strings.Contains(body, `<p id="results-range">1 to 50 of `+strconv.Itoa(len(byID))+` (page 1 of `) {
		t.Error("the first page does not say which substances it shows")
	}
}

// checkSubstanceRow checks one row of the page against its substance:
// the name once, aliases that repeat no other name, and each value with a
// reference to the note of its source.
func checkSubstanceRow(t *testing.T, s *engine.Substance, r pageRow, notes []string, cited map[int]bool) {
	t.Helper()
	text := html.UnescapeString(r.html)
	if strings.Count(text, `<span class="name">`+s.Name+`</span>`) != 1 {
		t.Errorf("%s: the name %q is not shown once:\n%s", s.ID, s.Name, text)
	}
	row := newSubstanceRow(s, r.kind, &noteList{})
	shown := map[string]bool{slug(s.Name): true, slug(s.ID): true, slug(s.Formula): true, slug(s.CAS): true}
	for _, a := range append(row.Aliases, row.More...) {
		if shown[slug(a)] {
			t.Errorf("%s: alias %q repeats a name", s.ID, a)
		}
		shown[slug(a)] = true
	}
	for _, a := range s.Aliases {
		if !shown[slug(a)] {
			t.Errorf("%s: alias %q is lost", s.ID, a)
		}
	}
	if len(row.Aliases) > 0 && !strings.Contains(text, `<span class="also">Also `+strings.Join(row.Aliases, ", ")) ||
		len(row.More) > 0 && !strings.Contains(text, "<summary>"+strconv.Itoa(len(row.More))+" more</summary>"+strings.Join(row.More, ", ")+"</details>") {
		t.Errorf("%s: the aliases %q and %q are not shown:\n%s", s.ID, row.Aliases, row.More, text)
	}
	refs := refRe.FindAllStringSubmatch(r.html, -1)
	values := 0
	for _, v := range []*engine.Property{s.MolarMass, s.Density, s.Charge} {
		if v == nil {
			continue
		}
		if values >= len(refs) {
			t.Errorf("%s: %s cites no note", s.ID, v.Name)
			return
		}
		n, _ := strconv.Atoi(refs[values][1])
		values++
		if n < 1 || n > len(notes) {
			t.Errorf("%s: %s cites note %d of %d", s.ID, v.Name, n, len(notes))
			continue
		}
		cited[n] = true
		want := v.Source
		if v.Sum != "" && s.Formula != "" {
			want = "Summed from the formula with the " + strings.TrimPrefix(v.Source, "formula "+s.Formula+" with the ")
			if !strings.Contains(text, strings.TrimSuffix(v.Sum, " = "+v.Value)) {
				t.Errorf("%s: the sum %q is not shown", s.ID, v.Sum)
			}
		}
		if notes[n-1] != want || !strings.Contains(text, "<code>"+v.Value+"</code>") {
			t.Errorf("%s: %s %s cites note %d %q, want %q", s.ID, v.Name, v.Value, n, notes[n-1], want)
		}
		if strings.Contains(text, v.Source) {
			t.Errorf("%s: the row repeats the source of its %s", s.ID, v.Name)
		}
	}
	if values != len(refs) {
		t.Errorf("%s: %d references for %d values", s.ID, len(refs), values)
	}
	for _, po := range s.Portions {
		if !strings.Contains(text, "<li>"+po.Measure+" = "+po.Mass+"</li>") {
			t.Errorf("%s: portion %s missing", s.ID, po.Name)
		}
	}
}

// TestSubstancesPageFilters: the kind links and the search box (plain
// GET forms and links, no script) narrow the table; a kind shows only the
// columns its rows fill; a search is ranked, and one that matches nothing
// says so with suggestions, how it reads as a formula, or the other kinds
// it matches in.
func TestSubstancesPageFilters(t *testing.T) {
	p, g := shippedPages(t)
	count := map[string]int{}
	for _, s := range g.Substances() {
		count[kindOf(s)]++
	}
	_, _, body := substancesPageOf(t, p, "/catalog/substances")
	links := kindLinkRe.FindAllStringSubmatch(body, -1)
	if len(links) != len(substanceKinds) {
		t.Fatalf("%d kind links, want %d", len(links), len(substanceKinds))
	}
	for i, l := range links {
		if l[2] != substanceKinds[i].value || l[1] != "/catalog/substances?kind="+l[2] || l[3] != "" || l[4] != strconv.Itoa(count[l[2]]) {
			t.Errorf("kind link %q", l[0])
		}
	}
	if !strings.Contains(body, `<form class="filter" action="/catalog/substances" method="get" role="search"`) ||
		!strings.Contains(body, `<label for="q">`) || !strings.Contains(body, `<label for="kind">`) {
		t.Error("no search form with labelled fields")
	}

	rows, _, body := substancesPageOf(t, p, "/catalog/substances?kind=food")
	if len(rows) != min(perPage, count["food"]) || !strings.Contains(body, `data-kind="food" aria-current="page"`) {
		t.Errorf("kind=food: %d rows, current link marked: %v", len(rows), strings.Contains(body, `data-kind="food" aria-current="page"`))
	}
	for _, r := range rows {
		if r.kind != "food" {
			t.Errorf("kind=food shows %s of kind %s", r.id, r.kind)
		}
	}
	head := body[strings.Index(body, "<thead>"):strings.Index(body, "</thead>")]
	if strings.Contains(head, "Molar mass") || strings.Contains(head, "Charge") || !strings.Contains(head, "Density") || !strings.Contains(head, "Portions") {
		t.Errorf("the foods' columns: %s", head)
	}
	_, _, body = substancesPageOf(t, p, "/catalog/substances?kind=clinical")
	if head := body[strings.Index(body, "<thead>"):strings.Index(body, "</thead>")]; !strings.Contains(head, "Molar mass") || strings.Contains(head, "Portions") {
		t.Errorf("the clinical columns: %s", head)
	}

	for _, tt := range []struct {
		target string
		ids    string // the rows, in order
		has    []string
	}{
		{"/catalog/substances?q=CO2", "carbon-dioxide bicarbonate", []string{`2 matches for “CO2”`}},
		{"/catalog/substances?q=brown+sugar&kind=food", "brown-sugar-brownulated brown-sugar-packed brown-sugar-unpacked", []string{`3 matches for “brown sugar” among foods`}},
		{"/catalog/substances?q=50-99-7", "glucose", nil},
		{"/catalog/substances?q=glucsoe", "", []string{`No substance in the catalog is called “glucsoe”.`,
			`Did you mean <a href="/catalog/substances?q=glucose#substance-glucose">glucose</a>?`}},
		{"/catalog/substances?q=NaCl", "", []string{`As a chemical formula, <code>NaCl</code> has the molar mass <code>58.43976928 g/mol</code>`}},
		{"/catalog/substances?q=glucose&kind=food", "", []string{`None of the foods matches “glucose”, but 1 substance of another kind does: <a href="/catalog/substances?q=glucose">search all kinds</a>.`}},
	} {
		rows, _, body := substancesPageOf(t, p, tt.target)
		var ids []string
		for _, r := range rows {
			ids = append(ids, r.id)
		}
		if got := strings.Join(ids, " "); got != tt.ids {
			t.Errorf("%s: rows %s, want %s", tt.target, got, tt.ids)
		}
		for _, h := range tt.has {
			if !strings.Contains(body, h) {
				t.Errorf("%s: lacks %s", tt.target, h)
			}
		}
	}

	for _, target := range []string{"/catalog/substances?kind=mineral", "/catalog/substances?page=0", "/catalog/substances?page=x",
		"/catalog/substances?kind=solid&page=2"} {
		if rec := get(t, p, target); rec.Code != http.StatusNotFound || rec.Header().Get("Content-Security-Policy") != ContentSecurityPolicy {
			t.Errorf("%s: %d", target, rec.Code)
		}
	}
}

// TestSubstancesPageFits checks what makes the table fit its width (the
// browser tests measure it): no wrapper that scrolls it sideways, a
// label on every cell for the narrow layout, which the style sheet turns
// into cards, and headers with scope; nothing inline for the policy to
// refuse.
func TestSubstancesPageFits(t *testing.T) {
	p, _ := shippedPages(t)
	for _, target := range []string{"/catalog/substances", "/catalog/substances?kind=food", "/catalog/substances?q=sugar"} {
		_, _, body := substancesPageOf(t, p, target)
		table := body[strings.Index(body, `<table class="substances cards"`):]
		table = table[:strings.Index(table, "</table>")]
		if strings.Contains(body, `<div class="table-wrap"`) {
			t.Errorf("%s: a table scrolls sideways in a wrapper", target)
		}
		if n, m := strings.Count(table, "<td"), strings.Count(table, "<td data-label="); n == 0 || n != m {
			t.Errorf("%s: %d of %d cells have a label", target, m, n)
		}
		if n, m := len(regexp.MustCompile(`<th[ >]`).FindAllString(table, -1)), strings.Count(table, `<th scope="`); n != m {
			t.Errorf("%s: %d of %d headers have a scope", target, m, n)
		}
		if strings.Contains(body, "<script") || strings.Contains(body, " style=") || strings.Contains(body, "<style") {
			t.Errorf("%s: inline code or style", target)
		}
	}
	css, err := staticFiles.ReadFile("static/app.css")
	if err != nil {
		t.Fatal(err)
	}
	narrow := string(css)[strings.Index(string(css), "@media (max-width: 48rem)"):]
	for _, rule := range []string{
		"table.cards, table.cards tbody, table.cards tr, table.cards th, table.cards td { display: block; overflow-wrap: anywhere; }",
		"table.cards td[data-label]::before { content: attr(data-label);",
	} {
		if !strings.Contains(narrow, rule) {
			t.Errorf("app.css: the narrow layout lacks %s", rule)
		}
	}
}

// TestSubstancesPageCache: a page is rendered once per catalog: the same
// address answers the same bytes and ETag (304 to If-None-Match), and a
// new catalog renders afresh.
func TestSubstancesPageCache(t *testing.T) {
	_, g := shippedPages(t)
	cur := g
	p := New(Config{Graph: func() *engine.Graph { return cur }, Version: "test"})
	target := "/catalog/substances?kind=gas"
	first := get(t, p, target)
	etag := first.Header().Get("ETag")
	if again := get(t, p, target, "If-None-Match", etag); etag == "" || again.Code != http.StatusNotModified {
		t.Fatalf("ETag %q, then %d", etag, again.Code)
	}
	if n, _ := p.view().cache.len(); n != 1 {
		t.Errorf("%d pages cached, want 1", n)
	}
	cur = fixtureGraph(t)
	if rec := get(t, p, target, "If-None-Match", etag); rec.Code != http.StatusOK || rec.Header().Get("ETag") == etag ||
		strings.Contains(rec.Body.String(), `data-substance="carbon-dioxide"`) {
		t.Errorf("after a reload: %d, ETag %q", rec.Code, rec.Header().Get("ETag"))
	}
}

func escape(s string) string {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;", "+", "&#43;")
	return r.Replace(s)
}
