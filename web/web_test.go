package web

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/unitd/unitd/engine"
)

// fixtureGraph is a small fixed catalog, so the page tests do not move when
// the shipped catalog does.
func fixtureGraph(t *testing.T) *engine.Graph {
	t.Helper()
	const src = "web test catalog"
	g, errs := engine.Build(engine.Spec{Version: "web-test-1", Categories: []engine.CategorySpec{
		{
			ID: "length", Name: "Length", Description: "Distance.", Dimension: map[string]int{"L": 1}, Base: "m",
			Units: []engine.UnitSpec{
				{Symbol: "m", Name: "metre", Plural: "metres", Aliases: []string{"meter", "meters"}, System: "SI", Exact: true, Source: src,
					Prefixes: &engine.PrefixSpec{Set: "si", Only: []string{"k", "c"}}},
				{Symbol: "ft", Name: "foot", Plural: "feet", System: "international", Exact: true, Source: "NIST SP 811",
					Definition: engine.DefinitionSpec{Factor: "0.3048", Unit: "m"},
					Codes:      map[string]string{"ucum": "[ft_i]", "cldr": "foot", "unece": "FOT", "qudt": "FT"},
					Examples:   []engine.ExampleSpec{{Value: "12.5", From: "ft", To: "m", Result: "3.81"}}},
			},
		},
		{
			ID: "temperature", Name: "Temperature", Dimension: map[string]int{"Θ": 1}, Base: "K", Minimum: "0",
			Units: []engine.UnitSpec{
				{Symbol: "K", Name: "kelvin", Plural: "kelvins", System: "SI", Exact: true, Source: src},
				{Symbol: "degC", Name: "degree Celsius", Plural: "degrees Celsius", Symbols: []string{"°C"}, System: "SI", Exact: true, Source: src,
					Definition: engine.DefinitionSpec{Factor: "1", Offset: "273.15", Unit: "K"}},
				{Symbol: "degX", Name: "degree X", Plural: "degrees X", System: "other", Exact: true, Source: src,
					Definition: engine.DefinitionSpec{Factor: "2", Offset: "-10", Unit: "K"}},
			},
		},
		{
			ID: "speed", Name: "Speed", Dimension: map[string]int{"L": 1, "T": -1}, Base: "m/s",
			Units: []engine.UnitSpec{
				{Symbol: "m/s", Name: "metre per second", Plural: "metres per second", System: "SI", Exact: true, Source: src},
				{Symbol: "km/h", Name: "kilometre per hour", Plural: "kilometres per hour", Aliases: []string{"kph"}, System: "metric", Exact: true, Source: "SI Brochure",
					Definition: engine.DefinitionSpec{Factor: "1000/3600", Unit: "m/s"},
					Examples:   []engine.ExampleSpec{{Value: "36", From: "km/h", To: "m/s", Result: "10"}}},
				{Symbol: "mph", Name: "mile per hour", Plural: "miles per hour", System: "international", Exact: true, Source: src,
					Definition: engine.DefinitionSpec{Factor: "1609.344/3600", Unit: "m/s"}},
			},
		},
		{
			ID: "volume", Name: "Volume", Dimension: map[string]int{"L": 3}, Base: "L",
			Units: []engine.UnitSpec{
				{Symbol: "L", Name: "litre", Plural: "litres", System: "metric", Exact: true, Source: src},
				{Symbol: "gal", Name: "US gallon", Plural: "US gallons", System: "US", Exact: true, Source: src,
					Definition: engine.DefinitionSpec{Factor: "3.785411784", Unit: "L"}},
				{Symbol: "gal_imp", Name: "imperial gallon", Plural: "imperial gallons", System: "imperial", Exact: true, Source: src,
					Definition: engine.DefinitionSpec{Factor: "4.54609", Unit: "L"}},
			},
			Ambiguous: []engine.AmbiguousSpec{{Name: "gallon", Candidates: []string{"gal", "gal_imp"}, Note: "US or imperial"}},
		},
		{
			ID: "fuel_economy", Name: "Fuel economy", Dimension: map[string]int{"L": -2}, Base: "km/L",
			Units: []engine.UnitSpec{
				{Symbol: "km/L", Name: "kilometre per litre", Plural: "kilometres per litre", System: "metric", Exact: true, Source: src},
				{Symbol: "L/100km", Name: "litre per 100 kilometres", Plural: "litres per 100 kilometres", System: "metric", Exact: true, Source: src,
					Definition: engine.DefinitionSpec{Unit: "km/L", To: "100 / x", From: "100 / x"}},
			},
		},
	}})
	if len(errs) > 0 {
		t.Fatalf("fixture graph: %v", errs)
	}
	return g
}

func newPages(t *testing.T) *Pages {
	g := fixtureGraph(t)
	return New(Config{Graph: func() *engine.Graph { return g }, Version: "test"})
}

func get(t *testing.T, p *Pages, target string, header ...string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, target, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	p.ServeHTTP(rec, req)
	return rec
}

func TestSegments(t *testing.T) {
	for _, tt := range []struct {
		target string
		want   []string
	}{
		{"/", nil},
		{"/catalog", []string{"catalog"}},
		{"/catalog/", []string{"catalog"}},
		{"/catalog/units/km%2Fh", []string{"catalog", "units", "km/h"}},
		{"/catalog/units/%C2%B0C", []string{"catalog", "units", "°C"}},
		{"/catalog/units/a%25b", []string{"catalog", "units", "a%b"}},
	} {
		u, err := url.Parse(tt.target)
		if err != nil {
			t.Fatal(err)
		}
		if got := segments(u); strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("%s: %q, want %q", tt.target, got, tt.want)
		}
	}
	// The server routes on the escaped path: Path and RawPath both escaped.
	u := &url.URL{Path: "/catalog/units/km%2Fh", RawPath: "/catalog/units/km%2Fh"}
	if got := segments(u); len(got) != 3 || got[2] != "km/h" {
		t.Errorf("escaped form: %q", got)
	}
}

func TestSearchRanking(t *testing.T) {
	g := fixtureGraph(t)
	for _, tt := range []struct {
		q     string
		first string
		cat   string
	}{
		{"mph", "mph", "Speed"},
		{"m", "m", "Length"},
		{"Meters", "m", "Length"},
		{"feet", "ft", "Length"},
		{"°C", "degC", "Temperature"},
		{"km/h", "km/h", "Speed"},
		{"kph", "km/h", "Speed"},
		{"Kilometre Per H", "km/h", "Speed"},
		{"gal_imp", "gal_imp", "Volume"},
	} {
		ans := search(newView(g), tt.q, "", nil)
		if len(ans.Data) == 0 || ans.Data[0].Symbol != tt.first || ans.Data[0].CategoryName != tt.cat {
			t.Errorf("search %q: %+v, want %s (%s) first", tt.q, ans.Data, tt.first, tt.cat)
		}
		if len(ans.Data) > maxMatches {
			t.Errorf("search %q: %d matches", tt.q, len(ans.Data))
		}
	}
	ans := search(newView(g), "Gallon", "", nil)
	if ans.Ambiguous == nil || len(ans.Ambiguous.Candidates) != 2 || ans.Ambiguous.Candidates[0].Symbol != "gal" || ans.Ambiguous.Candidates[1].Symbol != "gal_imp" {
		t.Errorf("gallon: ambiguous %+v", ans.Ambiguous)
	}
	if ans := search(newView(g), "  ", "", nil); len(ans.Data) != 0 || ans.Ambiguous != nil {
		t.Errorf("blank: %+v", ans)
	}
	if ans := search(newView(g), "zzqxj", "", nil); len(ans.Data) != 0 {
		t.Errorf("nonsense: %+v", ans)
	}
}

func TestSearchPrefersACategory(t *testing.T) {
	g := fixtureGraph(t)
	symbols := func(ans searchAnswer) string {
		var s []string
		for _, m := range ans.Data {
			s = append(s, m.Symbol)
		}
		return strings.Join(s, " ")
	}
	// The kelvin is k spelled exactly (case aside); then the units with
	// a spelling that starts with k, the shorter name first; then those
	// with one that holds it.
	if got := symbols(search(newView(g), "k", "", nil)); got != "K km km/h km/L L/100km" {
		t.Errorf("k, no preference: %s", got)
	}
	// Within each rank, the speed unit first.
	if got := symbols(search(newView(g), "k", "speed", nil)); got != "K km/h km km/L L/100km" {
		t.Errorf("k, prefer speed: %s", got)
	}
}

func TestSearchEndpoint(t *testing.T) {
	p := newPages(t)
	rec := get(t, p, "/web/units?q="+url.QueryEscape("miles per hour"))
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("%d %s", rec.Code, rec.Header().Get("Content-Type"))
	}
	var ans searchAnswer
	if err := json.Unmarshal(rec.Body.Bytes(), &ans); err != nil {
		t.Fatal(err)
	}
	if len(ans.Data) == 0 || ans.Data[0].Symbol != "mph" || ans.Data[0].Matched != "miles per hour" {
		t.Errorf("%+v", ans.Data)
	}
}

func TestDefinitionText(t *testing.T) {
	g := fixtureGraph(t)
	for _, tt := range []struct{ unit, want string }{
		{"m", "base unit of length"},
		{"ft", "1 ft = 0.3048 m"},
		{"km", "1 km = 1000 m"},
		{"degC", "K = degC + 273.15"},
		{"degX", "K = degX × 2 − 10"},
		{"L/100km", "formula, x in L/100km: to km/L = 100 / x; back = 100 / x"},
	} {
		u, err := g.Lookup(tt.unit)
		if err != nil {
			t.Fatal(err)
		}
		if got := definitionText(u); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.unit, got, tt.want)
		}
	}
}

func TestCatalogPages(t *testing.T) {
	p := newPages(t)
	g := fixtureGraph(t)
	for _, tt := range []struct {
		target string
		status int
		has    []string
	}{
		{"/catalog", 200, []string{`data-category="length"`, `data-category="volume"`, "5 categories and 15 units"}},
		{"/catalog?q=METER", 200, []string{`data-unit="m"`, `data-unit="km"`, "3 matching units"}},
		{"/catalog?q=gallon&category=volume", 200, []string{`data-unit="gal"`, `data-unit="gal_imp"`, "2 matching units"}},
		{"/catalog?system=imperial&category=volume", 200, []string{`data-unit="gal_imp"`, "1 matching unit<"}},
		{"/catalog?category=speed&system=SI", 200, []string{`data-unit="m/s"`, "1 matching unit<"}},
		{"/catalog?q=zzz", 200, []string{"0 matching units", "No unit matches"}},
		{"/catalog/speed", 200, []string{`<h1>Speed</h1>`, `href="/catalog/units/km%2Fh"`, "1 mph = 1609.344/3600 m/s"}},
		{"/catalog/volume", 200, []string{"Ambiguous names", "<strong>gallon</strong>"}},
		{"/catalog/units/km%2Fh", 200, []string{"kilometre per hour", "1 km/h = 1000/3600 m/s", "36 km/h = 10 m/s", "SI Brochure", "kph"}},
		{"/catalog/units/km", 200, []string{"Made from", `href="/catalog/units/m"`}},
		{"/catalog/units/ft", 200, []string{"Codes", "UCUM: <code>ucum:[ft_i]</code>", "CLDR: <code>cldr:foot</code>", "UN/ECE Rec 20: <code>unece:FOT</code>", "QUDT: <code>qudt:FT</code>"}},
		{"/catalog/units/degC", 200, []string{"°C", "K = degC &#43; 273.15", "/?from=degC"}},
		{"/catalog/units/fet", 404, []string{`unknown unit &#34;fet&#34;`, `href="/catalog/units/ft"`}},
		{"/catalog/units/gallon", 404, []string{"ambiguous", `href="/catalog/units/gal_imp"`}},
		{"/catalog/nosuch", 404, []string{"no category"}},
		{"/catalog/a/b/c", 404, []string{"no page"}},
	} {
		rec := get(t, p, tt.target)
		if rec.Code != tt.status {
			t.Errorf("%s: status %d, want %d", tt.target, rec.Code, tt.status)
		}
		body := rec.Body.String()
		for _, s := range tt.has {
			if !strings.Contains(body, s) {
				t.Errorf("%s: body lacks %q", tt.target, s)
			}
		}
		if rec.Header().Get("Content-Security-Policy") != ContentSecurityPolicy {
			t.Errorf("%s: CSP %q", tt.target, rec.Header().Get("Content-Security-Policy"))
		}
	}
	// The catalog page lists every category of the graph.
	body := get(t, p, "/catalog").Body.String()
	if n := strings.Count(body, "<tr data-category="); n != len(g.Categories()) {
		t.Errorf("%d category rows, want %d", n, len(g.Categories()))
	}
	// An alias leads to the symbol's address.
	rec := get(t, p, "/catalog/units/feet")
	if rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != "/catalog/units/ft" {
		t.Errorf("alias: %d %q", rec.Code, rec.Header().Get("Location"))
	}
}

func TestAccountLink(t *testing.T) {
	g := fixtureGraph(t)
	for _, on := range []bool{false, true} {
		p := New(Config{Graph: func() *engine.Graph { return g }, AccountPage: on})
		if got := strings.Contains(get(t, p, "/catalog").Body.String(), `href="/account"`); got != on {
			t.Errorf("AccountPage %v: link shown %v", on, got)
		}
	}
}

func TestNoInlineCode(t *testing.T) {
	p := newPages(t)
	for _, target := range []string{"/", "/catalog", "/catalog/length", "/catalog/units/ft", "/docs", "/catalog/units/nope"} {
		body := get(t, p, target).Body.String()
		for _, bad := range []string{"<script>", "<style", " style=", " onclick=", " onload=", "javascript:"} {
			if strings.Contains(body, bad) {
				t.Errorf("%s holds %q", target, bad)
			}
		}
	}
}

func TestStaticFiles(t *testing.T) {
	p := newPages(t)
	f := embedded().static.files["converter.js"]
	if f == nil {
		t.Fatal("converter.js not embedded")
	}
	rec := get(t, p, "/static/converter.js")
	if rec.Code != 200 || rec.Header().Get("Cache-Control") != cacheRevalidate || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/javascript") {
		t.Errorf("plain: %d %v", rec.Code, rec.Header())
	}
	if !bytes.Equal(rec.Body.Bytes(), f.body) {
		t.Error("plain body differs")
	}
	etag := rec.Header().Get("ETag")
	if rec := get(t, p, "/static/converter.js", "If-None-Match", etag); rec.Code != 304 || rec.Body.Len() != 0 {
		t.Errorf("If-None-Match: %d", rec.Code)
	}
	// The hashed URL the templates write may be cached for good.
	rec = get(t, p, embedded().static.url("converter.js"))
	if rec.Header().Get("Cache-Control") != cacheImmutable {
		t.Errorf("hashed URL: Cache-Control %q", rec.Header().Get("Cache-Control"))
	}
	// gzip when asked, with its own ETag.
	rec = get(t, p, "/static/vendor/swagger-ui/swagger-ui-bundle.js", "Accept-Encoding", "gzip, br")
	if rec.Header().Get("Content-Encoding") != "gzip" || !strings.HasSuffix(rec.Header().Get("ETag"), `-gz"`) {
		t.Fatalf("gzip: %v", rec.Header())
	}
	zr, err := gzip.NewReader(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil || !bytes.Equal(plain, embedded().static.files["vendor/swagger-ui/swagger-ui-bundle.js"].body) {
		t.Errorf("gzip body does not decompress to the file (%v)", err)
	}
	if rec := get(t, p, "/static/converter.js", "Accept-Encoding", "gzip;q=0"); rec.Header().Get("Content-Encoding") != "" {
		t.Error("gzip;q=0 got gzip")
	}
	if rec := get(t, p, "/static/nope.js"); rec.Code != 404 {
		t.Errorf("missing file: %d", rec.Code)
	}
	// The vendored renderer keeps its licence beside it.
	for _, name := range []string{"vendor/swagger-ui/LICENSE", "vendor/swagger-ui/NOTICE", "vendor/swagger-ui/README.md"} {
		if embedded().static.files[name] == nil {
			t.Errorf("%s not embedded", name)
		}
	}
}

func TestAcceptsGzip(t *testing.T) {
	for h, want := range map[string]bool{
		"": false, "gzip": true, "br, gzip": true, "GZIP;q=0.5": true, "gzip;q=0": false, "gzip; q=0.0": false, "deflate": false, "x-gzip": false,
	} {
		if got := acceptsGzip(h); got != want {
			t.Errorf("%q: %v", h, got)
		}
	}
}

// TestDocsCurlExamplesMatchGuide keeps the curl examples on /docs the same
// as those of the API consumers' guide (docs/api.md), with the server's
// own address.
func TestDocsCurlExamplesMatchGuide(t *testing.T) {
	guide, err := os.ReadFile("../docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	start := bytes.Index(guide, []byte("## Using the API"))
	if start < 0 {
		t.Fatal("docs/api.md has no \"Using the API\" section")
	}
	block := regexp.MustCompile("(?s)```sh\n(.*?)```").FindSubmatch(guide[start:])
	if block == nil {
		t.Fatal("no sh block in the \"Using the API\" of docs/api.md")
	}
	p := newPages(t)
	req := httptest.NewRequest(http.MethodGet, "/docs", nil)
	req.Host = "127.0.0.1:8080"
	rec := httptest.NewRecorder()
	p.ServeHTTP(rec, req)
	page := html.UnescapeString(rec.Body.String())
	n := 0
	for line := range strings.SplitSeq(string(block[1]), "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "KEY=") {
			continue
		}
		n++
		if !strings.Contains(page, line) {
			t.Errorf("/docs lacks the line of docs/api.md\n%s", line)
		}
	}
	if n < 10 {
		t.Errorf("only %d example lines found in docs/api.md", n)
	}
}
