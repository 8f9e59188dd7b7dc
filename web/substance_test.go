package web

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/unitd/unitd/catalog"
	"github.com/unitd/unitd/engine"
)

func shippedPages(t *testing.T) (*Pages, *engine.Graph) {
	t.Helper()
	g, errs := catalog.Load(catalog.Embedded())
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return New(Config{Graph: func() *engine.Graph { return g }, Version: "test"}), g
}

// TestSubstanceSearch: the converter's substance field finds substances
// by ID, name, alias, CAS number and formula (case-sensitive: CO is not
// Co), best first, in the shape of the unit search.
func TestSubstanceSearch(t *testing.T) {
	p, _ := shippedPages(t)
	for _, tt := range []struct {
		q, first, matched string
		about             string
	}{
		{"glucose", "glucose", "", "C6H12O6 · 180.156 g/mol"},
		{"gluc", "glucose", "", ""},
		{"blood sugar", "glucose", "blood sugar", ""},
		{"50-99-7", "glucose", "50-99-7", ""},
		{"C6H12O6", "glucose", "", ""},
		{"CO", "carbon-monoxide", "", ""},
		{"petrol", "gasoline", "petrol", ""},
	} {
		rec := get(t, p, "/web/substances?q="+url.QueryEscape(tt.q))
		if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/json" {
			t.Fatalf("%s: %d %s", tt.q, rec.Code, rec.Header().Get("Content-Type"))
		}
		var ans searchAnswer
		if err := json.Unmarshal(rec.Body.Bytes(), &ans); err != nil {
			t.Fatal(err)
		}
		if len(ans.Data) == 0 || ans.Data[0].Symbol != tt.first || ans.Data[0].Matched != tt.matched || len(ans.Data) > maxMatches {
			t.Errorf("%s: %+v, want %s first (matched %q)", tt.q, ans.Data, tt.first, tt.matched)
			continue
		}
		if tt.about != "" && ans.Data[0].CategoryName != tt.about {
			t.Errorf("%s: described as %q, want %q", tt.q, ans.Data[0].CategoryName, tt.about)
		}
	}
	for _, q := range []string{"", "zzzz", "a\x00b"} {
		if body := get(t, p, "/web/substances?q="+url.QueryEscape(q)).Body.String(); body != `{"data":[],"ambiguous":null}`+"\n" {
			t.Errorf("%q: %s", q, body)
		}
	}
}

// TestSubstancesPage: the catalog browser lists every substance with its
// values and their sources, the reference conditions and where the atomic
// weights come from; the catalog index links to it.
func TestSubstancesPage(t *testing.T) {
	p, g := shippedPages(t)
	rec := get(t, p, "/catalog/substances")
	if rec.Code != 200 || rec.Header().Get("Content-Security-Policy") != ContentSecurityPolicy {
		t.Fatalf("%d, CSP %q", rec.Code, rec.Header().Get("Content-Security-Policy"))
	}
	body := rec.Body.String()
	if n := strings.Count(body, "<tr id=\"substance-"); n != len(g.Substances()) {
		t.Errorf("%d substance rows, want %d", n, len(g.Substances()))
	}
	for _, s := range g.Substances() {
		row := body[strings.Index(body, `<tr id="substance-`+s.ID+`"`):]
		row = row[:strings.Index(row, "</tr>")]
		for _, v := range []*engine.Property{s.MolarMass, s.Density, s.Charge} {
			if v != nil && (!strings.Contains(row, escape(v.Value)) || !strings.Contains(row, escape(v.Source))) {
				t.Errorf("%s: the row lacks %s or its source %q", s.ID, v.Value, v.Source)
			}
		}
	}
	for _, c := range g.ConditionSets() {
		if !strings.Contains(body, `data-conditions="`+escape(c.Name)+`"`) || !strings.Contains(body, escape(c.Source)) {
			t.Errorf("conditions %s or its source missing", c.Name)
		}
	}
	if !strings.Contains(body, escape(g.Elements()[0].Source)) {
		t.Error("the atomic weights' source is missing")
	}
	if idx := get(t, p, "/catalog").Body.String(); !strings.Contains(idx, `href="/catalog/substances"`) {
		t.Error("the catalog index does not link to the substances")
	}
	if strings.Contains(body, "<script>") || strings.Contains(body, " style=") {
		t.Error("inline code on the substances page")
	}
}

func escape(s string) string {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;", "+", "&#43;")
	return r.Replace(s)
}
