package server

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

type readableAnswer struct {
	Input struct {
		Value string
		Unit  string
		Parts []struct{ Value, Unit string }
	}
	Result struct {
		Value *string
		Unit  string
		Parts []struct{ Value, Unit string }
	}
	Category string
	Exact    bool
	Explain  *struct {
		Factor string
		Mixed  *struct {
			LastPart string `json:"last_part"`
		}
		Preference *struct {
			Usage, Region, Reason string
			MatchedRegion         string `json:"matched_region"`
			RegionFrom            string `json:"region_from"`
			Chosen                int
			Reached               bool `json:"threshold_reached"`
			Units                 []struct{ Unit, CLDR, Geq string }
		}
	}
	Error *struct{ Code, Message string }
}

func (a readableAnswer) text() string {
	if a.Result.Value != nil {
		return *a.Result.Value + " " + a.Result.Unit
	}
	var parts []string
	for _, p := range a.Result.Parts {
		parts = append(parts, p.Value+" "+p.Unit)
	}
	return strings.Join(parts, " ") + " (" + a.Result.Unit + ")"
}

// TestContractReadableExamples sends the examples of the contract's
// section on readable answers by GET, POST and batch, with explain, and
// checks each answer and its shape against /openapi.json.
func TestContractReadableExamples(t *testing.T) {
	f, v := shippedFixture(t)
	examples := []struct {
		query map[string]string // value, from, to, usage, region, locale, precision
		want  string
		exact bool
	}{
		{map[string]string{"value": "1.75", "from": "m", "to": "auto", "usage": "person-height", "region": "GB", "precision": "2"}, "5 ft 8.9 in (ft+in)", false},
		{map[string]string{"value": "1.75", "from": "m", "to": "auto", "usage": "person-height", "region": "AT"}, "1 m 75 cm (m+cm)", true},
		{map[string]string{"value": "1.75", "from": "m", "to": "auto", "usage": "person-height", "locale": "de-DE"}, "175 cm", true},
		{map[string]string{"value": "70", "from": "kg", "to": "auto", "usage": "person", "region": "GB", "precision": "3"}, "11 st 0.324 lb (st+lb)", false},
		{map[string]string{"value": "20", "from": "degC", "to": "auto", "usage": "weather", "locale": "en-US"}, "68 degF", true},
		{map[string]string{"value": "20", "from": "degC", "to": "auto", "usage": "weather", "locale": "en-GB"}, "20 degC", true},
		{map[string]string{"value": "25", "from": "km", "to": "auto", "usage": "road", "region": "SE"}, "2.5 mil_sc", true},
		{map[string]string{"value": "25", "from": "km", "to": "auto", "usage": "road", "region": "GB", "precision": "4"}, "15.53 mi", false},
		{map[string]string{"value": "1.6129", "from": "m", "to": "ft+in"}, "5 ft 3.5 in (ft+in)", true},
		{map[string]string{"value": "5 11.9999", "from": "ft+in", "to": "ft+in", "precision": "3"}, "6 ft 0 in (ft+in)", false},
		{map[string]string{"value": "-1.6129", "from": "m", "to": "foot-and-inch"}, "-5 ft 3.5 in (ft+in)", true},
		{map[string]string{"value": "5 3.5", "from": "ft+in", "to": "cm"}, "161.29 cm", true},
		{map[string]string{"value": "5400", "from": "s", "to": "h+min+s"}, "1 h 30 min 0 s (h+min+s)", true},
		{map[string]string{"value": "11 4", "from": "st+lb", "to": "lb+oz"}, "158 lb 0 oz (lb+oz)", true},
		{map[string]string{"value": "1.5", "from": "deg", "to": "deg+arcmin+arcsec"}, "1 deg 30 arcmin 0 arcsec (deg+arcmin+arcsec)", true},
		{map[string]string{"value": "1.75", "from": "m", "to": "m+cm"}, "1 m 75 cm (m+cm)", true},
	}
	var items []string
	for _, ex := range examples {
		q := url.Values{}
		for k, val := range ex.query {
			q.Set(k, val)
		}
		q.Set("explain", "true")
		req := f.request(t, "GET", "/v1/convert?"+q.Encode(), f.keys["good"], "", "")
		resp, body := f.do(t, req)
		v.check(t, req, resp, body)
		var get struct{ Data readableAnswer }
		if err := json.Unmarshal(body, &get); err != nil || resp.StatusCode != 200 {
			t.Fatalf("GET %v: %d %s", ex.query, resp.StatusCode, body)
		}
		if got := get.Data.text(); got != ex.want || get.Data.Exact != ex.exact {
			t.Errorf("GET %v: %s exact=%v, want %s exact=%v", ex.query, got, get.Data.Exact, ex.want, ex.exact)
		}
		e := get.Data.Explain
		if e == nil || (ex.query["to"] == "auto") != (e.Preference != nil) || (get.Data.Result.Parts != nil) != (e.Mixed != nil) {
			t.Errorf("GET %v: explain %+v", ex.query, e)
		}
		if e != nil && e.Preference != nil && (e.Preference.Reason == "" || len(e.Preference.Units) == 0) {
			t.Errorf("GET %v: preference %+v", ex.query, e.Preference)
		}

		m := map[string]any{}
		for k, val := range ex.query {
			m[k] = val
		}
		if p, ok := ex.query["precision"]; ok {
			m["precision"] = json.Number(p)
		}
		item, _ := json.Marshal(m)
		items = append(items, string(item))
		req = f.request(t, "POST", "/v1/convert", f.keys["good"], js, string(item))
		resp, body = f.do(t, req)
		v.check(t, req, resp, body)
		var post struct{ Data readableAnswer }
		if err := json.Unmarshal(body, &post); err != nil || resp.StatusCode != 200 || post.Data.text() != ex.want {
			t.Errorf("POST %s: %d %s", item, resp.StatusCode, body)
		}
	}
	req := f.request(t, "POST", "/v1/batch", f.keys["good"], js, `{"conversions":[`+strings.Join(items, ",")+`]}`)
	resp, body := f.do(t, req)
	v.check(t, req, resp, body)
	var batch struct{ Data []readableAnswer }
	if err := json.Unmarshal(body, &batch); err != nil || len(batch.Data) != len(examples) {
		t.Fatalf("batch: %d %s", resp.StatusCode, body)
	}
	for i, got := range batch.Data {
		if got.text() != examples[i].want {
			t.Errorf("batch item %d: %s, want %s", i, got.text(), examples[i].want)
		}
	}
}

func TestReadableParts(t *testing.T) {
	f, v := shippedFixture(t)
	body := `{"parts":[{"value":"5","unit":"ft"},{"value":3.5,"unit":"in"}],"to":"cm"}`
	req := f.request(t, "POST", "/v1/convert", f.keys["good"], js, body)
	resp, got := f.do(t, req)
	v.check(t, req, resp, got)
	want := `{"data":{"input":{"parts":[{"value":"5","unit":"ft"},{"value":"3.5","unit":"in"}],"unit":"ft+in"},"result":{"value":"161.29","unit":"cm"},"category":"length","exact":true}}`
	if resp.StatusCode != 200 || strings.TrimSpace(string(got)) != want {
		t.Fatalf("%d %s\nwant %s", resp.StatusCode, got, want)
	}
	// A batch with batch-wide usage and region, one item overriding them,
	// one given in parts, and failed items in their places.
	body = `{"usage":"person-height","region":"GB","conversions":[
		{"value":"1.75","from":"m","to":"auto"},
		{"value":"1.75","from":"m","to":"auto","region":"AT"},
		{"parts":[{"value":"11","unit":"st"},{"value":"4","unit":"lb"}],"to":"kg"},
		{"value":"1","from":"m","to":"ft+lb"},
		{"value":"1","from":"m","to":"auto","usage":"bogus"},
		{"parts":[{"value":"5","unit":"ft"}],"value":"5","to":"m"},
		{"parts":"5 ft","to":"m"}
	],"precision":3}`
	req = f.request(t, "POST", "/v1/batch", f.keys["good"], js, body)
	resp, got = f.do(t, req)
	v.check(t, req, resp, got)
	var batch struct{ Data []readableAnswer }
	if err := json.Unmarshal(got, &batch); err != nil || len(batch.Data) != 7 {
		t.Fatalf("%d %s", resp.StatusCode, got)
	}
	wants := []string{"5 ft 8.9 in (ft+in)", "1 m 75 cm (m+cm)", "71.7 kg", "INCOMPATIBLE_UNITS", "INVALID_REQUEST", "INVALID_ITEM", "INVALID_ITEM"}
	for i, a := range batch.Data {
		got := a.text()
		if a.Error != nil {
			got = a.Error.Code
		}
		if got != wants[i] {
			t.Errorf("item %d: %s, want %s (%+v)", i, got, wants[i], a.Error)
		}
	}
}

// TestReadableErrors checks the refusals: unknown usages and regions name
// the valid ones, a mixed unit of different kinds is INCOMPATIBLE_UNITS,
// and nothing is a 5xx.
func TestReadableErrors(t *testing.T) {
	f, v := shippedFixture(t)
	tests := []struct {
		query        string
		status       int
		code, saying string
	}{
		{"value=1&from=m&to=auto&usage=bogus", 400, "INVALID_REQUEST", "person-height"},
		{"value=1&from=m&to=auto&region=XX", 400, "INVALID_REQUEST", `"regions":"`},
		{"value=1&from=m&to=auto&locale=en--GB", 400, "INVALID_REQUEST", "BCP 47"},
		{"value=1&from=m&to=auto&usage=" + strings.Repeat("a", 70), 400, "INVALID_REQUEST", "longer than"},
		{"value=1&from=N&to=auto", 400, "INVALID_REQUEST", "no unit preferences for force"},
		{"value=1&from=m&to=ft%2Blb", 422, "INCOMPATIBLE_UNITS", "different kinds"},
		{"value=1&from=m&to=in%2Bft", 400, "INVALID_UNIT_EXPRESSION", "largest"},
		{"value=5&from=ft%2Bin&to=cm", 400, "INVALID_VALUE", "one value per part"},
		{"value=5%20x&from=ft%2Bin&to=cm", 400, "INVALID_VALUE", "part"},
		{"value=5%09x&from=ft%2Bin&to=cm", 400, "INVALID_REQUEST", `\"value\" may not hold a control character`},
		{"value=1&from=kg&to=ft%2Bin", 422, "INCOMPATIBLE_UNITS", ""},
	}
	for _, tt := range tests {
		req := f.request(t, "GET", "/v1/convert?"+tt.query, f.keys["good"], "", "")
		resp, body := f.do(t, req)
		v.check(t, req, resp, body)
		if resp.StatusCode != tt.status || !strings.Contains(string(body), `"code":"`+tt.code+`"`) || !strings.Contains(string(body), tt.saying) {
			t.Errorf("%s: %d %s; want %d %s saying %q", tt.query, resp.StatusCode, shortText(string(body)), tt.status, tt.code, tt.saying)
		}
	}
	bodies := []struct{ body, saying string }{
		{`{"parts":[],"to":"m"}`, "empty"},
		{`{"parts":[{"value":"5","unit":"ft"},{"value":"5","unit":"in"}],"from":"ft","to":"m"}`, "one or the other"},
		{`{"parts":[{"value":"5"}],"to":"m"}`, `each part needs`},
		{`{"parts":[{"value":"5","unit":"ft","x":1}],"to":"m"}`, "each part is"},
		{`{"parts":[1,2,3,4,5,6,7],"to":"m"}`, "array of 1 to 6"},
		{`{"value":"1","from":"m","to":"auto","usage":5}`, `must be a string`},
		{`{"value":"1","from":"m","to":"auto","region":"` + strings.Repeat("G", 70) + `"}`, "longer than"},
	}
	for _, b := range bodies {
		req := f.request(t, "POST", "/v1/convert", f.keys["good"], js, b.body)
		resp, body := f.do(t, req)
		v.check(t, req, resp, body)
		if resp.StatusCode != 400 || !strings.Contains(string(body), "INVALID_REQUEST") || !strings.Contains(string(body), b.saying) {
			t.Errorf("%s: %d %s; want INVALID_REQUEST saying %q", b.body, resp.StatusCode, body, b.saying)
		}
	}
}

func TestPreferencesDiscovery(t *testing.T) {
	f, v := shippedFixture(t)
	type set struct {
		Category, Quantity, Usage, Region string
		MatchedRegion                     string `json:"matched_region"`
		Units                             []struct{ Unit, CLDR, Geq string }
		Preferences                       []struct {
			Regions []string
			Units   []struct{ Unit string }
		}
	}
	get := func(query string) ([]set, map[string]any, int, string) {
		req := f.request(t, "GET", "/v1/preferences"+query, "", "", "")
		resp, body := f.do(t, req)
		v.check(t, req, resp, body)
		var out struct {
			Data []set
			Meta map[string]any
		}
		_ = json.Unmarshal(body, &out)
		return out.Data, out.Meta, resp.StatusCode, string(body)
	}
	all, meta, status, _ := get("")
	if status != 200 || len(all) < 30 || meta["cldr_version"] != "48" || meta["licence"] != "Unicode-3.0" {
		t.Fatalf("all: %d sets, meta %v", len(all), meta)
	}
	length, _, _, _ := get("?category=length")
	for _, s := range length {
		if s.Category != "length" || len(s.Preferences) == 0 || s.Preferences[0].Regions[0] != "001" {
			t.Fatalf("length: %+v", s)
		}
	}
	gb, meta, _, _ := get("?category=length&region=GB")
	found := false
	for _, s := range gb {
		if s.Usage == "person-height" {
			found = s.Region == "GB" && s.MatchedRegion == "GB" && s.Units[0].Unit == "ft+in" && s.Units[0].Geq == "3.0" && s.Units[1].Unit == "in"
		}
	}
	if !found || meta["region"] != "GB" {
		t.Fatalf("GB: %+v %v", gb, meta)
	}
	de, meta, _, _ := get("?category=length&locale=de")
	for _, s := range de {
		if s.Region != "DE" || s.MatchedRegion != "001" && s.Usage != "visiblty" {
			t.Fatalf("de: %+v", s)
		}
	}
	if meta["region_from"] != "likely" {
		t.Fatalf("de: meta %v", meta)
	}
	if _, _, status, body := get("?category=bogus"); status != 404 {
		t.Fatalf("bogus category: %d %s", status, body)
	}
	if _, _, status, body := get("?region=XX"); status != 400 || !strings.Contains(body, "INVALID_REQUEST") {
		t.Fatalf("bogus region: %d %s", status, body)
	}
	if _, _, status, _ := get("?usage=road"); status != 400 {
		t.Fatalf("unknown parameter: %d", status)
	}
	force, _, status, _ := get("?category=force")
	if status != 200 || len(force) != 0 {
		t.Fatalf("force: %d %+v", status, force)
	}
}

// TestReadableInLocale: one locale field both chooses the region of
// to=auto and writes result.text, free text reaches auto and mixed units,
// and a batch-wide locale serves the items that name none.
func TestReadableInLocale(t *testing.T) {
	f, v := shippedFixture(t)
	js := "application/json"
	cases := []contractCase{
		{name: "free text to auto in the locale's region", method: "POST", target: "/v1/convert", key: "good", contentType: js,
			body: `{"quantity":"5 ft 3 in","to":"auto","usage":"person-height","locale":"de-DE","precision":3}`, status: 200,
			contains: []string{`"input":{"text":"5 ft 3 in","value":"5 3","unit":"ft+in"},"result":{"value":"160","unit":"cm","text":"160 cm"}`, `"exact":false`}},
		{name: "auto to a mixed unit, written in English", method: "GET", target: "/v1/convert?value=1.75&from=m&to=auto&usage=person-height&locale=en-GB&precision=2&unit_display=long", key: "good", status: 200,
			contains: []string{`"result":{"unit":"ft+in","parts":[{"value":"5","unit":"ft"},{"value":"8.9","unit":"in"}],"text":"5 feet 8.9 inches"}`}},
		{name: "region wins over the locale's region", method: "GET", target: "/v1/convert?value=1.75&from=m&to=auto&usage=person-height&locale=en-GB&region=DE", key: "good", status: 200,
			contains: []string{`"result":{"value":"175","unit":"cm","text":"175 cm"}`}},
		{name: "batch-wide locale", method: "POST", target: "/v1/batch", key: "good", contentType: js,
			body: `{"conversions":[{"value":"1.75","from":"m","to":"auto","usage":"person-height"},{"value":"1.75","from":"m","to":"auto","usage":"person-height","locale":"de-AT"}],"locale":"en-US","precision":2}`, status: 200,
			contains: []string{`"result":{"unit":"ft+in","parts":[{"value":"5","unit":"ft"},{"value":"8.9","unit":"in"}],"text":"5 ft 8.9 in"}`, `"text":"1 m 75 cm"`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, f, v) })
	}
}
