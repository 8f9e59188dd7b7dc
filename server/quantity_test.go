package server

import (
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/server/ratelimit"
)

// TestFreeTextAndLocale holds the contract's examples of quantities as
// people write them and of answers in their language, over HTTP.
func TestFreeTextAndLocale(t *testing.T) {
	f, v := shippedFixture(t)
	js := "application/json"
	q := url.QueryEscape
	cases := []contractCase{
		{name: "GET q", method: "GET", target: "/v1/convert?q=" + q("5 ft to cm"), key: "good", status: 200,
			wantBody: `{"data":{"input":{"text":"5 ft to cm","value":"5","unit":"ft"},"result":{"value":"152.4","unit":"cm"},"category":"length","exact":true}}`},
		{name: "GET q inch trap", method: "GET", target: "/v1/convert?q=" + q("3 in in cm"), key: "good", status: 200,
			contains: []string{`"input":{"text":"3 in in cm","value":"3","unit":"in"},"result":{"value":"7.62","unit":"cm"}`}},
		{name: "GET q arrow", method: "GET", target: "/v1/convert?q=" + q("-40 °C → K"), key: "good", status: 200,
			contains: []string{`"value":"233.15","unit":"K"`}},
		{name: "GET quantity", method: "GET", target: "/v1/convert?quantity=" + q("1 1/2 ft") + "&to=in", key: "good", status: 200,
			contains: []string{`"input":{"text":"1 1/2 ft","value":"1.5","unit":"ft"},"result":{"value":"18","unit":"in"}`}},
		{name: "POST quantity vulgar", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"quantity":"½ ft","to":"in"}`, status: 200,
			contains: []string{`"value":"6","unit":"in"`, `"exact":true`}},
		{name: "POST quantity mark", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"quantity":"5′","to":"in"}`, status: 200,
			contains: []string{`"value":"60","unit":"in"`}},
		{name: "POST quantity exponent", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"quantity":"1.2e3 m","to":"km"}`, status: 200,
			contains: []string{`"input":{"text":"1.2e3 m","value":"1200","unit":"m"},"result":{"value":"1.2","unit":"km"}`}},
		{name: "POST quantity a third of an hour is 1200 s exactly", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"quantity":"⅓ h","to":"s"}`, status: 200,
			contains: []string{`"input":{"text":"⅓ h","value":"1/3","unit":"h"}`, `"value":"1200","unit":"s"`, `"exact":true`}},
		{name: "POST quantity a third of a cup rounds once", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"quantity":"⅓ cup","to":"tbsp","locale":"en-US"}`, status: 200,
			contains: []string{`"value":"5.333333333333333333333333333333333","unit":"tbsp"`, `"exact":false`}},
		{name: "POST quantity rounded once on a boundary", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"quantity":"7/24 h","to":"s","precision":2}`, status: 200,
			contains: []string{`"result":{"value":"1000","unit":"s"}`, `"exact":false`}},
		{name: "POST q", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"q":"60 km/h to m/s","precision":5}`, status: 200,
			contains: []string{`"value":"16.667","unit":"m/s"`}},
		{name: "INVALID_QUANTITY position", method: "GET", target: "/v1/convert?quantity=" + q("1,5 m") + "&to=cm", key: "good", status: 400, code: "INVALID_QUANTITY",
			contains: []string{`"details":{"position":2}`, `at position 2`}},
		{name: "INVALID_QUANTITY ambiguous", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"quantity":"2 gallon","to":"L"}`, status: 400, code: "INVALID_QUANTITY",
			contains: []string{`"candidates":["gal","gal_imp"]`, `"position":3`}},
		{name: "INVALID_QUANTITY in alone", method: "GET", target: "/v1/convert?q=in", key: "good", status: 400, code: "INVALID_QUANTITY"},
		{name: "INVALID_QUANTITY no target", method: "GET", target: "/v1/convert?q=" + q("5 ft"), key: "good", status: 400, code: "INVALID_QUANTITY", contains: []string{"no target unit"}},
		{name: "q with to", method: "GET", target: "/v1/convert?q=" + q("5 ft to cm") + "&to=m", key: "good", status: 400, code: "INVALID_REQUEST"},
		{name: "quantity with value", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"quantity":"5 ft","value":"5","to":"m"}`, status: 400, code: "INVALID_REQUEST"},
		{name: "quantity without to", method: "GET", target: "/v1/convert?quantity=5%20ft", key: "good", status: 400, code: "INVALID_REQUEST", contains: []string{`missing query parameter \"to\"`}},
		{name: "quantity object", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"quantity":5,"to":"m"}`, status: 400, code: "INVALID_REQUEST"},

		// Locales.
		{name: "mixed result in German", method: "GET", target: "/v1/convert?value=161.29&from=cm&to=ft%2Bin&locale=de&unit_display=long", key: "good", status: 200,
			contains: []string{`"parts":[{"value":"5","unit":"ft"},{"value":"3.5","unit":"in"}],"text":"5 Fuß 3,5 Zoll"`}},
		{name: "free text to a mixed unit", method: "GET", target: "/v1/convert?q=" + q("63.5 in to ft+in"), key: "good", status: 200,
			contains: []string{`"input":{"text":"63.5 in to ft+in","value":"63.5","unit":"in"},"result":{"unit":"ft+in","parts":[{"value":"5","unit":"ft"},{"value":"3.5","unit":"in"}]}`}},
		// Text has readable digits: at most 3 fraction digits, or the
		// input's significant figures (26.8224 has 6) where more.
		{name: "locale de short", method: "GET", target: "/v1/convert?value=26.8224&from=m%2Fs&to=km%2Fh&locale=de", key: "good", status: 200,
			contains: []string{`"result":{"value":"96.56064","unit":"km/h","text":"96,5606 km/h"}`}},
		{name: "locale de long", method: "GET", target: "/v1/convert?value=26.8224&from=m%2Fs&to=km%2Fh&locale=de&unit_display=long", key: "good", status: 200,
			contains: []string{`"text":"96,5606 Kilometer pro Stunde"`}},
		{name: "precision given: the text keeps it", method: "GET", target: "/v1/convert?value=26.8224&from=m%2Fs&to=km%2Fh&locale=de&precision=7", key: "good", status: 200,
			contains: []string{`"result":{"value":"96.56064","unit":"km/h","text":"96,56064 km/h"}`}},
		{name: "readable: 3 fraction digits", method: "GET", target: "/v1/convert?value=1&from=mi&to=km&locale=en", key: "good", status: 200,
			contains: []string{`"result":{"value":"1.609344","unit":"km","text":"1.609 km"}`}},
		{name: "readable: an inexact value", method: "GET", target: "/v1/convert?value=1&from=ft&to=yd&locale=en", key: "good", status: 200,
			contains: []string{`"value":"0.3333333333333333333333333333333333"`, `"text":"0.333 yd"`}},
		{name: "readable: the input's figures", method: "GET", target: "/v1/convert?value=1.00000000&from=mi&to=km&locale=en", key: "good", status: 200,
			contains: []string{`"text":"1.609344 km"`}},
		{name: "readable: precision input", method: "GET", target: "/v1/convert?value=1.0&from=mi&to=km&locale=en&precision=input", key: "good", status: 200,
			contains: []string{`"result":{"value":"1.6","unit":"km","text":"1.6 km"}`}},
		{name: "Accept-Language", method: "GET", target: "/v1/convert?value=2&from=km&to=m", key: "good", header: map[string]string{"Accept-Language": "ru-RU,ru;q=0.9,en;q=0.5"}, status: 200,
			contains: []string{"\"text\":\"2\u00a0000 м\""}},
		{name: "locale wins over Accept-Language", method: "GET", target: "/v1/convert?value=1&from=km&to=m&locale=en&unit_display=long", key: "good", header: map[string]string{"Accept-Language": "de"}, status: 200,
			contains: []string{`"text":"1,000 meters"`}},
		{name: "plural one", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"value":"12","from":"in","to":"ft","locale":"en","unit_display":"long"}`, status: 200,
			contains: []string{`"text":"1 foot"`}},
		{name: "free text in the locale", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"quantity":"12,5 Kilometer","to":"m","locale":"de"}`, status: 200,
			contains: []string{`"input":{"text":"12,5 Kilometer","value":"12.5","unit":"km"},"result":{"value":"12500","unit":"m","text":"12.500 m"}`}},
		{name: "free text in French", method: "GET", target: "/v1/convert?q=" + q("3 kilomètres to m") + "&locale=fr", key: "good", status: 200,
			contains: []string{`"value":"3000","unit":"m"`}},
		{name: "1,000 in German is one", method: "GET", target: "/v1/convert?quantity=" + q("1,000 km") + "&to=m&locale=de", key: "good", status: 200,
			contains: []string{`"value":"1000","unit":"m"`, `"input":{"text":"1,000 km","value":"1","unit":"km"}`}},
		{name: "native digits", method: "GET", target: "/v1/convert?value=1234.5&from=km&to=km&locale=ar-SA&unit_display=long", key: "good", status: 200,
			contains: []string{`"text":"١٬٢٣٤٫٥ كيلومتر"`}},
		{name: "bad locale", method: "GET", target: "/v1/convert?value=1&from=m&to=m&locale=" + q("en_US!"), key: "good", status: 400, code: "INVALID_REQUEST", contains: []string{"BCP 47"}},
		{name: "well-formed tag CLDR lacks", method: "GET", target: "/v1/convert?value=2&from=km&to=m&locale=tlh&unit_display=long", key: "good", status: 200,
			contains: []string{`"text":"2,000 meters"`}},
		{name: "well-formed tag the registry lacks", method: "GET", target: "/v1/convert?value=2&from=km&to=m&locale=xx&unit_display=long", key: "good", status: 200,
			contains: []string{`"text":"2,000 meters"`}},
		{name: "well-formed tag the registry lacks, with a region", method: "GET", target: "/v1/convert?value=2&from=km&to=m&locale=zz-ZZ&unit_display=long", key: "good", status: 200,
			contains: []string{`"text":"2,000 meters"`}},
		{name: "malformed tag", method: "GET", target: "/v1/convert?value=1&from=m&to=m&locale=en--GB", key: "good", status: 400, code: "INVALID_REQUEST", contains: []string{"BCP 47"}},
		{name: "Accept-Language over the cap", method: "GET", target: "/v1/convert?value=2&from=km&to=m", key: "good",
			header: map[string]string{"Accept-Language": strings.Repeat("de;q=0.5,", 120)}, status: 400, code: "INVALID_REQUEST", contains: []string{"Accept-Language header is longer than 1024 bytes"}},
		{name: "Accept-Language over the cap, on discovery", method: "GET", target: "/v1/units/m",
			header: map[string]string{"Accept-Language": strings.Repeat("de;q=0.5,", 120)}, status: 400, code: "INVALID_REQUEST", contains: []string{"Accept-Language"}},
		{name: "Accept-Language steers to=auto", method: "GET", target: "/v1/convert?value=100&from=km&to=auto&usage=road", key: "good",
			header: map[string]string{"Accept-Language": "en-US"}, status: 200, contains: []string{`"unit":"mi"`, `"text":"62.137 mi"`}},
		{name: "without Accept-Language to=auto takes the default region", method: "GET", target: "/v1/convert?value=100&from=km&to=auto&usage=road", key: "good",
			status: 200, contains: []string{`"unit":"km"`}, absent: []string{`"text"`}},
		// Units whose meaning depends on the region, said aloud.
		{name: "pint in the US", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"quantity":"1 pint","to":"mL","locale":"en-US"}`, status: 200,
			contains: []string{`"assumed":"pt: US pint (region US, from locale en)"`, `"result":{"value":"473.176473","unit":"mL"`}},
		{name: "pint in Britain", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"quantity":"1 pint","to":"mL","locale":"en-GB"}`, status: 200,
			contains: []string{`"assumed":"pt_imp: imperial pint (region GB, from locale en-GB)"`, `"result":{"value":"568.26125","unit":"mL"`}},
		{name: "pt symbol without a locale", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"quantity":"2 pt","to":"mL"}`, status: 400, code: "INVALID_QUANTITY",
			contains: []string{`"candidates":["pt","pt_imp","dry_pt"]`, `"position":3`}},
		{name: "EL in a German recipe", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"quantity":"2 EL","to":"mL","locale":"de"}`, status: 200,
			contains: []string{`"assumed":"tbsp_metric: metric tablespoon (region DE, the likely region of de)"`, `"result":{"value":"30","unit":"mL"`}},
		{name: "EL without a locale is no exalitre", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"quantity":"2 EL","to":"mL"}`, status: 400, code: "INVALID_QUANTITY",
			contains: []string{`"candidates":["tbsp"]`}},
		{name: "no assumed for a plain unit", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"quantity":"5 km","to":"m","locale":"en-US"}`, status: 200,
			absent: []string{`"assumed"`}},
		// The kitchen.
		{name: "cups of flour to grams", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"quantity":"1 1/2 cups flour","to":"g","locale":"en-US"}`, status: 200,
			contains: []string{`"result":{"value":"187.5","unit":"g"`, `"exact":false`}},
		{name: "a stick of butter", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"quantity":"1 stick butter","to":"g","locale":"en-US"}`, status: 200,
			contains: []string{`"assumed":"1 stick butter = 113 g (catalog portion of butter)"`, `"result":{"value":"113","unit":"g"`, `"exact":false`}},
		{name: "brown sugar is refused with its states", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"quantity":"1 cup brown sugar","to":"g","locale":"en-US"}`, status: 400, code: "INVALID_QUANTITY",
			contains: []string{`"candidates":["brown-sugar-brownulated","brown-sugar-packed","brown-sugar-unpacked"]`}},
		{name: "flour by its German word, to cups", method: "GET", target: "/v1/convert?q=" + q("200 g Mehl in Tassen") + "&locale=de", key: "good", status: 200,
			contains: []string{`"result":{"value":"1.5141647136","unit":"cup_metric"`, `"exact":false`}},
		{name: "a German food word without the locale", method: "GET", target: "/v1/convert?q=" + q("200 g Mehl to mL"), key: "good", status: 400, code: "INVALID_QUANTITY",
			contains: []string{"unknown ingredient", `"position":7`}},
		{name: "control character in free text", method: "POST", target: "/v1/convert", key: "good", contentType: js, body: `{"quantity":"5\u0000km","to":"m"}`,
			status: 400, code: "INVALID_QUANTITY", contains: []string{`"details":{"position":2}`, "control character"}},
		{name: "control character in q", method: "GET", target: "/v1/convert?q=5%00km%20to%20m", key: "good", status: 400, code: "INVALID_QUANTITY", contains: []string{`"position":2`}},
		{name: "control character in a unit", method: "GET", target: "/v1/convert?value=5&from=km%0A&to=m", key: "good", status: 400, code: "INVALID_REQUEST", contains: []string{`\"from\" may not hold a control character`}},
		{name: "control character in locale", method: "GET", target: "/v1/convert?value=5&from=km&to=m&locale=de%00", key: "good", status: 400, code: "INVALID_REQUEST", contains: []string{"locale"}},
		{name: "bad unit_display", method: "GET", target: "/v1/convert?value=1&from=m&to=m&unit_display=wide", key: "good", status: 400, code: "INVALID_REQUEST"},
		{name: "no locale, no text", method: "GET", target: "/v1/convert?value=1&from=m&to=m", key: "good", status: 200, absent: []string{`"text"`}},

		// Batches.
		{name: "batch free text", method: "POST", target: "/v1/batch", key: "good", contentType: js,
			body:   `{"conversions":[{"quantity":"5 ft","to":"m"},{"q":"2 h to s"},{"quantity":"5 fet","to":"m"},{"quantity":"1,5 km","to":"m","locale":"de"},{"value":"1","from":"km","to":"m","locale":"bad tag!"}],"locale":"fr","unit_display":"long"}`,
			status: 200,
			contains: []string{
				`{"index":0,"status":"success","input":{"text":"5 ft","value":"5","unit":"ft"},"result":{"value":"1.524","unit":"m","text":"1,524` + "\u00a0" + `mètre"}`,
				`{"index":1,"status":"success","input":{"text":"2 h to s","value":"2","unit":"h"},"result":{"value":"7200","unit":"s","text":"7` + "\u202f" + `200` + "\u00a0" + `secondes"}`,
				`{"index":2,"status":"error","input":{"text":"5 fet"},"error":{"code":"INVALID_QUANTITY"`,
				`"result":{"value":"1500","unit":"m","text":"1.500 Meter"}`,
				`{"index":4,"status":"error","input":{"value":"1","unit":"km"},"error":{"code":"INVALID_ITEM"`,
				`"meta":{"total":5,"succeeded":3,"failed":2}`,
			}},
		// Discovery in a locale.
		{name: "unit display_name", method: "GET", target: "/v1/units/km%2Fh?locale=de", status: 200,
			contains: []string{`"display_name":{"long":"Kilometer pro Stunde","short":"km/h","narrow":"km/h"}`}},
		{name: "units q in the locale's names", method: "GET", target: "/v1/units?q=" + q("Fuß") + "&locale=de", status: 200,
			contains: []string{`"symbol":"ft"`, `"display_name":{"long":"Fuß","short":"Fuß","narrow":"ft"}`}},
		{name: "units q without the locale", method: "GET", target: "/v1/units?q=" + q("Fuß"), status: 200, contains: []string{`"meta":{"total":0}`}},
		{name: "category in a locale", method: "GET", target: "/v1/categories/length?locale=fr", status: 200, contains: []string{`"display_name":{"long":"pieds"`}},
		{name: "unit bad locale", method: "GET", target: "/v1/units/m?locale=%21", status: 400, code: "INVALID_REQUEST"},
		{name: "unit other parameter", method: "GET", target: "/v1/units/m?x=1", status: 400, code: "INVALID_REQUEST"},
		{name: "batch bad locale", method: "POST", target: "/v1/batch", key: "good", contentType: js, body: `{"conversions":[{"value":"1","from":"m","to":"m"}],"locale":"!"}`, status: 400, code: "INVALID_REQUEST"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, f, v) })
	}
}

// TestReadableRoundsOnce: result.text rounds the exact value once. A
// value whose 34 digits end in a half at the readable precision
// (1.0014999…, 37 digits, is 1.0015 at 34) is converted again at the
// readable precision rather than rounded twice (1.002); an exact half
// rounds to even.
func TestReadableRoundsOnce(t *testing.T) {
	spec := testSpecOf(t)
	for i := range spec.Categories {
		if spec.Categories[i].ID != "length" {
			continue
		}
		spec.Categories[i].Units = append(spec.Categories[i].Units,
			engine.UnitSpec{Symbol: "u_near", Name: "near half", Plural: "near halves", System: "test", Exact: true, Source: "test",
				Definition: engine.DefinitionSpec{Factor: "1.00149999999999999999999999999999999999", Unit: "m"}},
			engine.UnitSpec{Symbol: "u_half", Name: "half", Plural: "halves", System: "test", Exact: true, Source: "test",
				Definition: engine.DefinitionSpec{Factor: "1.0015", Unit: "m"}},
			engine.UnitSpec{Symbol: "u_odd", Name: "odd", Plural: "odds", System: "test", Exact: true, Source: "test",
				Definition: engine.DefinitionSpec{Factor: "1.0025", Unit: "m"}})
	}
	g, errs := engine.Build(spec)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	f := newFixture(t, nil)
	f.srv.ApplyGraph(g)
	for _, c := range []struct{ from, value, text string }{
		{"u_near", `"value":"1.0015"`, `"text":"1.001 m"`},
		{"u_half", `"value":"1.0015"`, `"text":"1.002 m"`},
		{"u_odd", `"value":"1.0025"`, `"text":"1.002 m"`},
	} {
		req := f.request(t, "GET", "/v1/convert?value=1&from="+c.from+"&to=m&locale=en", f.keys["good"], "", "")
		resp, body := f.do(t, req)
		if resp.StatusCode != 200 || !strings.Contains(string(body), c.value) || !strings.Contains(string(body), c.text) {
			t.Errorf("%s: %d %s; want %s and %s", c.from, resp.StatusCode, body, c.value, c.text)
		}
	}
}

// TestFreeTextWorkIsCharged: free text that costs much work spends the
// key's budget in proportion, in a single answer, a batch and a stream;
// an everyday text costs its request's token only.
func TestFreeTextWorkIsCharged(t *testing.T) {
	hard := strings.Repeat("1h30m->", 36) + "s"
	for _, tt := range []struct {
		name, ctype, body, target string
		min, max                  int // tokens charged beyond the requests'
	}{
		{"everyday", "application/json", `{"quantity":"5 ft 3 in","to":"cm"}`, "/v1/convert", 0, 0},
		{"hard question", "application/json", `{"q":"` + hard + `"}`, "/v1/convert", 1, 50},
		{"batch of hard questions", "application/json", `{"conversions":[` + strings.TrimSuffix(strings.Repeat(`{"q":"`+hard+`"},`, 20), ",") + `]}`, "/v1/batch", 20, 1000},
		{"stream of hard questions", ndjsonContentType, strings.Repeat(`{"q":"`+hard+`"}`+"\n", 20), "/v1/batch", 20, 1000},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ch := &chargeCounter{}
			f := newFixture(t, func(c *Config) { c.Limiter = ch })
			resp, body := f.do(t, f.request(t, "POST", tt.target, f.keys["good"], tt.ctype, tt.body))
			if resp.StatusCode != 200 && resp.StatusCode != 400 {
				t.Fatalf("status %d: %s", resp.StatusCode, body)
			}
			if got := ch.charged(); got < tt.min || got > tt.max {
				t.Errorf("charged %d tokens beyond the requests', want %d to %d", got, tt.min, tt.max)
			}
		})
	}
}

// chargeCounter allows every request and counts what is charged after.
type chargeCounter struct {
	mu sync.Mutex
	n  int
}

func (c *chargeCounter) Take(string) ratelimit.Decision {
	return ratelimit.Decision{Allowed: true, Limit: 1000, Remaining: 999}
}

func (c *chargeCounter) Charge(_ string, n int) {
	c.mu.Lock()
	c.n += n
	c.mu.Unlock()
}

func (c *chargeCounter) charged() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// TestBatchLocaleReadsFreeText: a batch's locale stands for every item
// that names none, in reading its free text as in writing result.text:
// "1 pint" in a batch in en-GB is the imperial pint, said so, as it is
// in an item of its own in en-GB; an item's own locale wins.
func TestBatchLocaleReadsFreeText(t *testing.T) {
	f, v := shippedFixture(t)
	tc := contractCase{name: "batch locale", method: "POST", target: "/v1/batch", key: "good", contentType: "application/json",
		body:   `{"conversions":[{"quantity":"1 pint","to":"mL"},{"quantity":"1 pint","to":"mL","locale":"en-US"}],"locale":"en-GB"}`,
		status: 200,
		contains: []string{
			`{"index":0,"status":"success","input":{"text":"1 pint","assumed":"pt_imp: imperial pint (region GB, from locale en-GB)","value":"1","unit":"pt_imp"},"result":{"value":"568.26125","unit":"mL","text":"568.261 ml"}`,
			`{"index":1,"status":"success","input":{"text":"1 pint","assumed":"pt: US pint (region US, from locale en)","value":"1","unit":"pt"},"result":{"value":"473.176473","unit":"mL","text":"473.176 mL"}`,
		}}
	tc.run(t, f, v)
}
