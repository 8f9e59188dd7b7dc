package server

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

// measurandAnswer is what the measurand tests read of a conversion.
type measurandAnswer struct {
	Input  struct{ Value, Unit string }
	Result struct {
		Value, Unit, Code string
		Quantity          *struct {
			Value        json.Number
			Unit, System string
			Code         string
		}
	}
	Hint     *string
	Category string
	Exact    bool
	Explain  *struct {
		Kind      string
		Substance *struct {
			ID     string
			Values []struct{ Property, Value string }
		}
		Equations []struct {
			Name, Equation, Applied, Source string
			Inverse, Exact                  bool
		}
	}
	Error *struct {
		Code        string
		Message     string
		Suggestions []string
	}
}

// postConvert sends body to POST /v1/convert, checks the answer against
// /openapi.json and returns it with its status.
func postConvert(t *testing.T, f *fixture, v *validator, body string) (int, measurandAnswer, string) {
	t.Helper()
	req := f.request(t, "POST", "/v1/convert", f.keys["good"], js, body)
	resp, got := f.do(t, req)
	v.check(t, req, resp, got)
	var ans struct {
		Data  measurandAnswer
		Error *struct {
			Code        string
			Message     string
			Suggestions []string
		}
	}
	if err := json.Unmarshal(got, &ans); err != nil {
		t.Fatalf("%s: %v: %s", body, err, got)
	}
	ans.Data.Error = ans.Error
	return resp.StatusCode, ans.Data, string(got)
}

// TestHbA1cFollowsTheMasterEquation is the HbA1c example: 7.0 % NGSP, a
// FHIR Quantity in UCUM, is 53 mmol/mol IFCC by the IFCC–NGSP master
// equation when the request names the measurand (the FHIR answer keeps
// the input's two significant digits), not exact, and explain cites the
// equation; without the measurand the answer is the plain ratio, 70, with
// a hint naming HbA1c.
func TestHbA1cFollowsTheMasterEquation(t *testing.T) {
	f, v := shippedFixture(t)
	const fhir = `{"quantity":{"value":%s,"system":"http://unitsofmeasure.org","code":"%"},"to":{"system":"http://unitsofmeasure.org","code":"mmol/mol"}%s}`
	for _, name := range []string{"HbA1c", "A1C", "hba1c", "glycated hemoglobin"} {
		status, ans, raw := postConvert(t, f, v, strings.Replace(strings.Replace(fhir, "%s", "7.0", 1), "%s", `,"substance":"`+name+`","explain":true`, 1))
		q := ans.Result.Quantity
		if status != 200 || ans.Result.Value != "53" || ans.Result.Unit != "mmol/mol" || ans.Exact || q == nil || q.Value != "53" || q.Code != "mmol/mol" || q.System != "http://unitsofmeasure.org" {
			t.Fatalf("%s: 7.0 %% → mmol/mol: %d %s", name, status, raw)
		}
		if ans.Hint != nil {
			t.Errorf("%s: a hint on an answer that followed the equation: %s", name, *ans.Hint)
		}
		ex := ans.Explain
		if ex == nil || ex.Kind != "affine" || ex.Substance == nil || ex.Substance.ID != "hba1c" || len(ex.Equations) != 1 {
			t.Fatalf("%s: explain %s", name, raw)
		}
		e := ex.Equations[0]
		if e.Name != "IFCC–NGSP master equation" || e.Equation != "NGSP (%) = 0.09148 × IFCC (mmol/mol) + 2.152" || !e.Inverse ||
			e.Applied != "IFCC (mmol/mol) = (NGSP (%) − 2.152) / 0.09148" || e.Exact || !strings.Contains(e.Source, "Clin Chem 2004;50:166–174") {
			t.Errorf("%s: explained equation %+v", name, e)
		}
	}
	// The JSON number 7 has one significant digit, which the FHIR default
	// precision keeps: 52.99… is 5e1. Two digits are 53.
	if status, ans, raw := postConvert(t, f, v, strings.Replace(strings.Replace(fhir, "%s", "7", 1), "%s", `,"substance":"HbA1c"`, 1)); status != 200 || ans.Result.Value != "50" {
		t.Errorf("7 %% with precision input: %d %s", status, raw)
	}
	if status, ans, raw := postConvert(t, f, v, strings.Replace(strings.Replace(fhir, "%s", "7", 1), "%s", `,"substance":"HbA1c","precision":2`, 1)); status != 200 || ans.Result.Value != "53" {
		t.Errorf("7 %% with precision 2: %d %s", status, raw)
	}
	// And back, as plain fields: 53 mmol/mol is 7.0 % (7.00044…).
	if status, ans, raw := postConvert(t, f, v, `{"value":"53","from":"mmol/mol","to":"%","substance":"HbA1c","precision":3}`); status != 200 || ans.Result.Value != "7" || ans.Exact {
		t.Errorf("53 mmol/mol → %%: %d %s", status, raw)
	}

	// Without the measurand: the ratio, exact, and the hint beside result.
	for _, extra := range []string{"", `,"substance":"glucose"`} {
		status, ans, raw := postConvert(t, f, v, strings.Replace(strings.Replace(fhir, "%s", "7", 1), "%s", extra, 1))
		if status != 200 || ans.Result.Value != "70" || !ans.Exact || ans.Hint == nil ||
			!strings.Contains(*ans.Hint, `substance "hba1c"`) || !strings.Contains(*ans.Hint, "IFCC–NGSP master equation") {
			t.Errorf("without the measurand%s: %d %s", extra, status, raw)
		}
		if i, j := strings.Index(raw, `"result":`), strings.Index(raw, `"hint":`); i < 0 || j < i {
			t.Errorf("hint is not beside result: %s", raw)
		}
	}
	for _, pair := range [][2]string{{"mmol/mol", "%"}, {"%", "ucum:mmol/mol"}, {"percent", "mmol/mol"}} {
		q := url.Values{"value": {"7"}, "from": {pair[0]}, "to": {pair[1]}}
		req := f.request(t, "GET", "/v1/convert?"+q.Encode(), f.keys["good"], "", "")
		resp, body := f.do(t, req)
		v.check(t, req, resp, body)
		if resp.StatusCode != 200 || !strings.Contains(string(body), `"hint":"converted as a plain ratio; for hemoglobin A1c`) {
			t.Errorf("GET %s → %s: %d %s", pair[0], pair[1], resp.StatusCode, body)
		}
	}
	// Units no measurand relates differently carry none.
	for _, body := range []string{`{"value":"7","from":"%","to":"ratio"}`, `{"value":"7","from":"ppm","to":"mmol/mol"}`, `{"value":"7","from":"ft","to":"m"}`,
		`{"value":"100","from":"mg/dL","to":"mmol/L","substance":"glucose"}`} {
		if status, ans, raw := postConvert(t, f, v, body); status != 200 || ans.Hint != nil {
			t.Errorf("%s: %d %s", body, status, raw)
		}
	}
	// In a batch, each item carries its own.
	req := f.request(t, "POST", "/v1/batch", f.keys["good"], js, `{"conversions":[
		{"value":"7","from":"%","to":"mmol/mol"},
		{"value":"7","from":"%","to":"mmol/mol","substance":"HbA1c","precision":2},
		{"value":"7","from":"ft","to":"m"}]}`)
	resp, body := f.do(t, req)
	v.check(t, req, resp, body)
	var batch struct{ Data []measurandAnswer }
	if err := json.Unmarshal(body, &batch); err != nil || len(batch.Data) != 3 {
		t.Fatalf("batch: %d %s", resp.StatusCode, body)
	}
	if d := batch.Data; d[0].Hint == nil || d[0].Result.Value != "70" || d[1].Hint != nil || d[1].Result.Value != "53" || d[2].Hint != nil {
		t.Errorf("batch: %s", body)
	}
}

// TestMeasurandNamesAndSuggestions: HbA1c is a substance name now, and a
// misspelt one is UNKNOWN_SUBSTANCE with it among the suggestions.
func TestMeasurandNamesAndSuggestions(t *testing.T) {
	f, v := shippedFixture(t)
	for _, tt := range []struct{ name, want string }{
		{"HbA1d", "hba1c"},
		{"hemoglobn", "hemoglobin"},
		{"haemoglobin A1", "hba1c"},
	} {
		status, ans, raw := postConvert(t, f, v, `{"value":"7","from":"%","to":"mmol/mol","substance":"`+tt.name+`"}`)
		if status != 400 || ans.Error == nil || ans.Error.Code != "UNKNOWN_SUBSTANCE" || len(ans.Error.Suggestions) == 0 || ans.Error.Suggestions[0] != tt.want {
			t.Errorf("%s: %d %s", tt.name, status, raw)
		}
	}
	// A record of a measurand: its scales and cited equations.
	req := f.request(t, "GET", "/v1/substances/A1C", "", "", "")
	resp, body := f.do(t, req)
	v.check(t, req, resp, body)
	var rec struct {
		Data struct {
			ID        string
			Measurand struct {
				Scales []struct {
					Name, Unit, Substance string
				}
				Equations []struct {
					Name, Equation, Source string
					Exact                  bool
				}
			}
		}
	}
	if err := json.Unmarshal(body, &rec); err != nil || resp.StatusCode != 200 || rec.Data.ID != "hba1c" {
		t.Fatalf("GET /v1/substances/A1C: %d %s", resp.StatusCode, body)
	}
	m := rec.Data.Measurand
	if len(m.Scales) != 3 || m.Scales[2].Name != "eAG" || m.Scales[2].Substance != "glucose" || len(m.Equations) != 2 {
		t.Fatalf("hba1c record: %s", body)
	}
	for _, e := range m.Equations {
		if e.Exact || e.Source == "" {
			t.Errorf("equation %s: exact %v, source %q", e.Name, e.Exact, e.Source)
		}
	}
	if m.Equations[1].Equation != "eAG (mg/dL) = 28.7 × NGSP (%) − 46.7" {
		t.Errorf("ADAG equation reads %q", m.Equations[1].Equation)
	}
}

// TestNursesFlow converts a patient's results from US to SI units as a
// nurse's app would: FHIR Quantities in UCUM in, FHIR Quantities out, each
// naming what was measured, their digits those of the input (FHIR's
// default) unless the app fixes them.
func TestNursesFlow(t *testing.T) {
	f, v := shippedFixture(t)
	type step struct {
		what             string
		value, from, to  string
		substance, extra string
		want             string
		equation         string
	}
	for _, s := range []step{
		{"fasting glucose", "126", "mg/dL", "mmol/L", "glucose", "", "6.99", ""},
		{"creatinine", "1.20", "mg/dL", "umol/L", "creatinine", "", "106", ""},
		{"total cholesterol", "200", "mg/dL", "mmol/L", "cholesterol", "", "5.17", ""},
		{"LDL cholesterol", "130", "mg/dL", "mmol/L", "LDL", "", "3.36", ""},
		{"BUN", "14", "mg/dL", "mmol/L", "BUN", "", "5", ""},
		{"HbA1c", "7.0", "%", "mmol/mol", "HbA1c", "", "53", "IFCC–NGSP master equation"},
		{"HbA1c as eAG", "7.0", "%", "mg/dL", "A1C", `,"precision":3`, "154", "ADAG equation"},
		{"HbA1c as eAG in SI", "7.0", "%", "mmol/L", "A1C", `,"precision":2`, "8.6", "ADAG equation"},
		{"HbA1c from IFCC", "53", "mmol/mol", "%", "HbA1c", `,"precision":2`, "7", "IFCC–NGSP master equation"},
		{"hemoglobin", "14.0", "g/dL", "mmol/L", "hemoglobin", "", "8.69", ""},
		{"hemoglobin as the tetramer", "14.0", "g/dL", "mmol/L", "hemoglobin-tetramer", "", "2.17", ""},
	} {
		body := `{"quantity":{"value":` + s.value + `,"unit":"` + s.from + `","system":"http://unitsofmeasure.org","code":"` + s.from + `"},` +
			`"to":{"system":"http://unitsofmeasure.org","code":"` + s.to + `"},"substance":"` + s.substance + `","explain":true` + s.extra + `}`
		status, ans, raw := postConvert(t, f, v, body)
		q := ans.Result.Quantity
		if status != 200 || ans.Result.Value != s.want || ans.Exact || q == nil || q.Value.String() != s.want || q.Code != s.to || q.System != "http://unitsofmeasure.org" {
			t.Errorf("%s: %s %s → %s: %d %s; want %s", s.what, s.value, s.from, s.to, status, raw, s.want)
			continue
		}
		ex := ans.Explain
		switch {
		case ex == nil || ex.Substance == nil:
			t.Errorf("%s: explain names no substance: %s", s.what, raw)
		case s.equation == "" && (len(ex.Equations) > 0 || len(ex.Substance.Values) == 0 || ex.Substance.Values[0].Property != "molar_mass"):
			t.Errorf("%s: explain %s", s.what, raw)
		case s.equation != "" && (len(ex.Equations) == 0 || ex.Equations[len(ex.Equations)-1].Name != s.equation && ex.Equations[0].Name != s.equation):
			t.Errorf("%s: explain cites no %s: %s", s.what, s.equation, raw)
		}
	}
}
