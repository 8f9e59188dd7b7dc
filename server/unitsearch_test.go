package server

import (
	"encoding/json"
	"html"
	"net/url"
	"regexp"
	"slices"
	"testing"
)

// TestUnitSearchOneRanking: GET /v1/units?q= lists the unit a text names
// first (q=foot gives ft, q=Zoll with locale=de gives in), and the
// catalog page and the converter's search list the same units in the same
// order: one ranking for all three.
func TestUnitSearchOneRanking(t *testing.T) {
	f, v := shippedFixture(t)
	for _, tt := range []struct {
		q, locale, first string
	}{
		{"foot", "", "ft"},
		{"m", "", "m"},
		{"Feet", "", "ft"},
		{"gallon", "", "gal"},
		{"Zoll", "de", "in"},
		{"pouces", "fr", "in"},
	} {
		target := "/v1/units?q=" + url.QueryEscape(tt.q)
		if tt.locale != "" {
			target += "&locale=" + tt.locale
		}
		apiReq := f.request(t, "GET", target, "", "", "")
		resp, body := f.do(t, apiReq)
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d %s", target, resp.StatusCode, body)
		}
		v.check(t, apiReq, resp, body)
		var list struct {
			Data []struct{ Symbol string } `json:"data"`
		}
		if err := json.Unmarshal(body, &list); err != nil {
			t.Fatal(err)
		}
		var api []string
		for _, d := range list.Data {
			api = append(api, d.Symbol)
		}
		if len(api) == 0 || api[0] != tt.first {
			t.Errorf("%s: %v, want %s first", target, api[:min(len(api), 5)], tt.first)
		}

		// The converter's search-as-you-type, in the browser's language.
		req := f.request(t, "GET", "/web/units?q="+url.QueryEscape(tt.q), "", "", "")
		if tt.locale != "" {
			req.Header.Set("Accept-Language", tt.locale)
		}
		resp, body = f.do(t, req)
		if resp.StatusCode != 200 {
			t.Fatalf("/web/units?q=%s: %d", tt.q, resp.StatusCode)
		}
		var ans struct {
			Data []struct{ Symbol string } `json:"data"`
		}
		if err := json.Unmarshal(body, &ans); err != nil {
			t.Fatal(err)
		}
		var web []string
		for _, d := range ans.Data {
			web = append(web, d.Symbol)
		}
		if n := min(len(api), 10); !slices.Equal(web, api[:n]) {
			t.Errorf("%q: the converter lists %v, the API %v", tt.q, web, api[:n])
		}

		// The catalog page (in English: it searches the catalog's names).
		if tt.locale != "" {
			continue
		}
		resp, body = f.do(t, f.request(t, "GET", "/catalog?q="+url.QueryEscape(tt.q), "", "", ""))
		if resp.StatusCode != 200 {
			t.Fatalf("/catalog?q=%s: %d", tt.q, resp.StatusCode)
		}
		var page []string
		for _, m := range dataUnit.FindAllStringSubmatch(string(body), -1) {
			page = append(page, html.UnescapeString(m[1]))
		}
		if n := min(len(api), 50); !slices.Equal(page, api[:n]) {
			t.Errorf("%q: the catalog page lists %v, the API %v", tt.q, page, api[:n])
		}
	}
}

// dataUnit finds the rows of the catalog page's unit table.
var dataUnit = regexp.MustCompile(`<tr data-unit="([^"]*)"`)
