package server

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

// TestContractCodeExamples sends the examples of the contract's section on
// standard unit codes to a server of the shipped catalog, by GET and POST,
// and checks each answer and its shape against /openapi.json.
func TestContractCodeExamples(t *testing.T) {
	f, v := shippedFixture(t)
	examples := []struct{ value, from, to, want, unit, code string }{
		{"100", "ucum:mg/dL", "mg/L", "1000", "mg/L", ""},
		{"1", "ucum:[lb_av]", "kg", "0.45359237", "kg", ""},
		{"1", "ucum:kg.m/s2", "N", "1", "N", ""},
		{"60", "cldr:kilometer-per-hour", "m/s", "16.66666666666666666666666666666667", "m/s", ""},
		{"10", "cldr:liter-per-100-kilometer", "cldr:mile-per-gallon", "23.52145833333333333333333333333333", "mpg", "cldr:mile-per-gallon"},
		{"1", "cldr:meter-per-square-second", "ft/s2", "3.28083989501312335958005249343832", "ft/s2", ""},
		{"2", "qudt:KiloM-PER-HR", "km/h", "2", "km/h", ""},
		{"1", "http://qudt.org/vocab/unit/KiloW-HR", "MJ", "3.6", "MJ", ""},
		{"5.5", "mmol/L", "ucum:mmol/L", "5.5", "mmol/L", "ucum:mmol/L"},
		{"1", "ucum:[cup_m]", "mL", "240", "mL", ""},
		{"100", "ucum:mg{creat}/dL", "ucum:mg/dL", "100", "mg/dL", "ucum:mg/dL"},
		{"1", "UCUM:m", "cm", "100", "cm", ""},
		{"37", "ucum:Cel", "ucum:[degF]", "98.6", "degF", "ucum:[degF]"},
		{"7", "ucum:[pH]", "umol/L", "0.1", "umol/L", ""},
		{"1", "ucum:[IU]", "ucum:m[IU]", "1000", "ucum:m[IU]", "ucum:m[IU]"},
		{"100", "ucum:%[slope]", "deg", "45", "deg", ""},
	}
	type result struct {
		Result struct{ Value, Unit, Code string }
	}
	for _, ex := range examples {
		target := "/v1/convert?value=" + ex.value + "&from=" + url.QueryEscape(ex.from) + "&to=" + url.QueryEscape(ex.to)
		req := f.request(t, "GET", target, f.keys["good"], "", "")
		resp, body := f.do(t, req)
		v.check(t, req, resp, body)
		var got struct{ Data result }
		if err := json.Unmarshal(body, &got); err != nil || resp.StatusCode != 200 {
			t.Errorf("GET %s: %d %s", target, resp.StatusCode, body)
			continue
		}
		if r := got.Data.Result; r.Value != ex.want || r.Unit != ex.unit || r.Code != ex.code {
			t.Errorf("%s %s → %s = %+v, want %s %s code %q", ex.value, ex.from, ex.to, r, ex.want, ex.unit, ex.code)
		}
	}

	// FHIR Quantity in and out, precision "input" by default.
	post := func(body string) (int, string) {
		req := f.request(t, "POST", "/v1/convert", f.keys["good"], js, body)
		resp, got := f.do(t, req)
		v.check(t, req, resp, got)
		return resp.StatusCode, string(got)
	}
	status, got := post(`{"quantity":{"value":5.5,"comparator":"<","unit":"mg/dL","system":"http://unitsofmeasure.org","code":"mg/dL"},"to":{"system":"http://unitsofmeasure.org","code":"g/L"}}`)
	if status != 200 || !strings.Contains(got, `"result":{"value":"0.055","unit":"g/L","code":"ucum:g/L","quantity":{"value":0.055,"comparator":"<","unit":"g/L","system":"http://unitsofmeasure.org","code":"g/L"}}`) {
		t.Errorf("FHIR quantity: %d %s", status, got)
	}
	status, got = post(`{"quantity":{"value":1.50,"system":"http://unitsofmeasure.org","code":"[in_i]"},"to":"cm"}`)
	if status != 200 || !strings.Contains(got, `"value":"3.81"`) || !strings.Contains(got, `"quantity":{"value":3.81,"unit":"cm","system":"http://unitsofmeasure.org","code":"cm"}`) {
		t.Errorf("FHIR quantity to a catalog unit: %d %s", status, got)
	}
	status, got = post(`{"value":"5.50","from":"in","to":"cm","precision":"input"}`)
	if status != 200 || !strings.Contains(got, `"value":"14.0"`) && !strings.Contains(got, `"value":"14"`) {
		t.Errorf(`precision "input": %d %s`, status, got)
	}
	for _, bad := range []struct{ body, has string }{
		{`{"quantity":{"value":1,"code":"mg"},"to":"g"}`, `needs \"quantity.system\"`},
		{`{"quantity":{"value":1,"system":"http://example.org","code":"mg"},"to":"g"}`, "not a system unitd reads"},
		{`{"quantity":{"value":"1","system":"http://unitsofmeasure.org","code":"mg"},"to":"g"}`, "must be a JSON number"},
		{`{"quantity":{"value":1,"system":"http://unitsofmeasure.org","code":"mg"},"value":"1","to":"g"}`, "one or the other"},
	} {
		if status, got := post(bad.body); status != 400 || !strings.Contains(got, `"INVALID_REQUEST"`) || !strings.Contains(got, bad.has) {
			t.Errorf("%s: %d %s; want INVALID_REQUEST with %q", bad.body, status, got, bad.has)
		}
	}
	// In a batch, a bad quantity is INVALID_ITEM and the rest converts.
	req := f.request(t, "POST", "/v1/batch", f.keys["good"], js, `{"conversions":[{"quantity":{"value":1,"code":"mg"},"to":"g"},{"quantity":{"value":2.0,"system":"http://unitsofmeasure.org","code":"kg"},"to":"ucum:g"}]}`)
	resp, body := f.do(t, req)
	v.check(t, req, resp, body)
	if s := string(body); resp.StatusCode != 200 || !strings.Contains(s, `"INVALID_ITEM"`) || !strings.Contains(s, `"value":"2.0e+3"`) && !strings.Contains(s, `"value":"2000"`) {
		t.Errorf("batch with quantities: %d %s", resp.StatusCode, s)
	}

	// Hostile and unknown codes: the contract's errors, never a 5xx.
	refused := []struct{ from, code, has string }{
		{"ucum:" + strings.Repeat("{a}.", 10000) + "m", "INVALID_UNIT_EXPRESSION", "longer than"},
		{"ucum:" + strings.Repeat("(", 10000) + "m", "INVALID_UNIT_EXPRESSION", "longer than"},
		{"ucum:(((((((((m)))))))))", "INVALID_UNIT_EXPRESSION", "nested deeper"},
		{"ucum:10*99999", "INVALID_UNIT_EXPRESSION", "out of range"},
		{"ucum:{", "INVALID_UNIT_EXPRESSION", "not closed"},
		{"ucum:[" + strings.Repeat("x", 256), "INVALID_UNIT_EXPRESSION", "longer than"},
		{"ucum:" + strings.Repeat("x", 250), "UNKNOWN_UNIT", "unknown UCUM unit"},
		{"ucum:m/", "INVALID_UNIT_EXPRESSION", "not followed by a term"},
		{"ucum:0000.m", "INVALID_UNIT_EXPRESSION", "its factor is 0"},
		{"ucum:m/0", "INVALID_UNIT_EXPRESSION", "it divides by zero"},
		{"ucum:Y[IU]/0", "INVALID_UNIT_EXPRESSION", "it divides by zero"},
		{"ucum:cldr:unece:qudt:m", "UNKNOWN_UNIT", "unknown UCUM unit"},
		{"cldr:kilometer-per-hourr", "UNKNOWN_UNIT", "CLDR"},
		{"qudt:NOPE", "UNKNOWN_UNIT", "qudt"},
		{"unece:ZZZ", "UNKNOWN_UNIT", "unece"},
		{"foo:m", "UNKNOWN_UNIT", "ucum, cldr, unece, qudt"},
		{"ucum:[IU]", "INCOMPATIBLE_UNITS", "arbitrary"},
	}
	for _, r := range refused {
		body := `{"value":"1","from":` + mustQuote(r.from) + `,"to":"g"}`
		req := f.request(t, "POST", "/v1/convert", f.keys["good"], js, body)
		resp, got := f.do(t, req)
		v.check(t, req, resp, got)
		if resp.StatusCode >= 500 || !strings.Contains(string(got), `"code":"`+r.code+`"`) || !strings.Contains(string(got), r.has) {
			t.Errorf("%s: %d %s; want %s with %q", shortText(r.from), resp.StatusCode, shortText(string(got)), r.code, r.has)
		}
	}

	// A unit record lists its codes; a code names its unit in discovery.
	req = f.request(t, "GET", "/v1/units/ucum:%5Bft_i%5D", "", "", "")
	resp, body = f.do(t, req)
	v.check(t, req, resp, body)
	if s := string(body); resp.StatusCode != 200 || !strings.Contains(s, `"symbol":"ft"`) || !strings.Contains(s, `"codes":{"ucum":"[ft_i]","cldr":"foot","unece":"FOT","qudt":"FT"}`) {
		t.Errorf("GET /v1/units/ucum:[ft_i]: %d %s", resp.StatusCode, s)
	}
}

func mustQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestQuantityTextOrFHIR sends "quantity" both ways the contract allows,
// as free text (a JSON string) and as a FHIR Quantity (a JSON object), to
// POST /v1/convert, in a JSON batch and on NDJSON lines: each surface
// reads both, and says so when the two forms are mixed up with value and
// from, in whichever order the members come.
func TestQuantityTextOrFHIR(t *testing.T) {
	f, v := shippedFixture(t)
	const (
		text = `{"quantity":"1 1/2 in","to":"cm"}`
		fhir = `{"quantity":{"value":1.50,"system":"http://unitsofmeasure.org","code":"[in_i]"},"to":{"system":"http://unitsofmeasure.org","code":"cm"}}`
	)
	wantText := `"input":{"text":"1 1/2 in","value":"1.5","unit":"in"},"result":{"value":"3.81","unit":"cm"}`
	wantFHIR := `"input":{"value":"1.50","unit":"ucum:[in_i]"},"result":{"value":"3.81","unit":"cm","code":"ucum:cm","quantity":{"value":3.81,"unit":"cm","system":"http://unitsofmeasure.org","code":"cm"}}`
	mixed := []string{
		`{"quantity":{"value":1,"system":"http://unitsofmeasure.org","code":"m"},"from":"ft","to":"cm"}`,
		`{"from":"ft","quantity":{"value":1,"system":"http://unitsofmeasure.org","code":"m"},"to":"cm"}`,
		`{"quantity":"1 m","value":"2","to":"cm"}`,
		`{"value":"2","quantity":"1 m","to":"cm"}`,
	}

	for _, c := range []struct{ body, want string }{{text, wantText}, {fhir, wantFHIR}} {
		req := f.request(t, "POST", "/v1/convert", f.keys["good"], js, c.body)
		resp, body := f.do(t, req)
		v.check(t, req, resp, body)
		if resp.StatusCode != 200 || !strings.Contains(string(body), c.want) {
			t.Errorf("POST /v1/convert %s: %d %s, want %s", c.body, resp.StatusCode, body, c.want)
		}
	}
	for _, m := range mixed {
		req := f.request(t, "POST", "/v1/convert", f.keys["good"], js, m)
		resp, body := f.do(t, req)
		v.check(t, req, resp, body)
		if resp.StatusCode != 400 || !strings.Contains(string(body), `"INVALID_REQUEST"`) || !strings.Contains(string(body), "one or the other") {
			t.Errorf("POST /v1/convert %s: %d %s, want INVALID_REQUEST", m, resp.StatusCode, body)
		}
	}

	items := append([]string{text, fhir}, mixed...)
	check := func(surface string, got []string) {
		t.Helper()
		if len(got) != len(items) {
			t.Fatalf("%s: %d answers, want %d: %q", surface, len(got), len(items), got)
		}
		if !strings.Contains(got[0], `"status":"success",`+wantText) {
			t.Errorf("%s: free text: %s", surface, got[0])
		}
		if !strings.Contains(got[1], `"status":"success",`+wantFHIR) {
			t.Errorf("%s: FHIR Quantity: %s", surface, got[1])
		}
		for i, line := range got[2:] {
			if !strings.Contains(line, `"code":"INVALID_ITEM"`) || !strings.Contains(line, "one or the other") {
				t.Errorf("%s: %s: %s, want INVALID_ITEM", surface, mixed[i], line)
			}
		}
	}

	req := f.request(t, "POST", "/v1/batch", f.keys["good"], js, `{"conversions":[`+strings.Join(items, ",")+`]}`)
	resp, body := f.do(t, req)
	v.check(t, req, resp, body)
	var batch struct{ Data []json.RawMessage }
	if err := json.Unmarshal(body, &batch); err != nil || resp.StatusCode != 200 {
		t.Fatalf("batch: %d %s", resp.StatusCode, body)
	}
	var answers []string
	for _, d := range batch.Data {
		answers = append(answers, string(d))
	}
	check("batch", answers)

	resp, lines := f.postStream(t, "", strings.NewReader(strings.Join(items, "\n")))
	if resp.StatusCode != 200 || len(lines) != len(items)+1 {
		t.Fatalf("NDJSON: %d %q", resp.StatusCode, lines)
	}
	check("NDJSON", lines[:len(items)])

	// A stream takes precision "input" from its query, as a batch does from
	// its body.
	resp, lines = f.postStream(t, "?precision=input", strings.NewReader(`{"value":"5.5","from":"in","to":"cm"}`))
	if resp.StatusCode != 200 || len(lines) != 2 || !strings.Contains(lines[0], `"result":{"value":"14","unit":"cm"}`) {
		t.Errorf("NDJSON with precision=input: %d %q", resp.StatusCode, lines)
	}
}

// TestFHIRValueWithinFloat64: result.quantity.value is always a number a
// float64 reader holds: a result beyond the largest float64, or so small
// it would read as 0, is VALUE_OUT_OF_RANGE when a FHIR Quantity is
// answered, in a single conversion and a batch item alike; the same
// conversion without a quantity answers its decimal string.
func TestFHIRValueWithinFloat64(t *testing.T) {
	f, v := shippedFixture(t)
	fhir := func(value, code, to string) string {
		return `{"quantity":{"value":` + value + `,"system":"http://unitsofmeasure.org","code":"` + code + `"},"to":{"system":"http://unitsofmeasure.org","code":"` + to + `"}}`
	}
	for _, c := range []struct {
		body, want string
		status     int
	}{
		{fhir("1e+995", "km", "m"), `"code":"VALUE_OUT_OF_RANGE","message":"the result 1e+998 is beyond what the value of a FHIR Quantity holds`, 422},
		{fhir("-1.8e305", "km", "m"), `"code":"VALUE_OUT_OF_RANGE","message":"the result -1.8e+308 is beyond`, 422},
		{fhir("1e-995", "m", "km"), `"code":"VALUE_OUT_OF_RANGE","message":"the result 1e-998 is beyond`, 422},
		{fhir("1.7976931348623157e305", "km", "m"), `"quantity":{"value":1.7976931348623157e+308,`, 200},
		{fhir("0", "km", "m"), `"quantity":{"value":0,`, 200},
		{fhir("1e-320", "m", "m"), `"quantity":{"value":1e-320,`, 200},
		{`{"value":"1e+995","from":"ucum:km","to":"ucum:m"}`, `"result":{"value":"1e+998","unit":"m","code":"ucum:m"}`, 200},
	} {
		req := f.request(t, "POST", "/v1/convert", f.keys["good"], js, c.body)
		resp, body := f.do(t, req)
		v.check(t, req, resp, body)
		if resp.StatusCode != c.status || !strings.Contains(string(body), c.want) {
			t.Errorf("POST /v1/convert %s: %d %s\nwant %d %s", c.body, resp.StatusCode, body, c.status, c.want)
		}
		req = f.request(t, "POST", "/v1/batch", f.keys["good"], js, `{"conversions":[`+c.body+`]}`)
		resp, body = f.do(t, req)
		v.check(t, req, resp, body)
		if resp.StatusCode != 200 || !strings.Contains(string(body), c.want) {
			t.Errorf("batch of %s: %d %s\nwant %s", c.body, resp.StatusCode, body, c.want)
		}
	}
}
