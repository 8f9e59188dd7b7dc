package server

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

// TestContractSubstanceExamples sends the conversions of the contract's
// section on substances by GET, POST, as batch items and with batch-wide
// fields, and checks each answer and its shape against /openapi.json.
func TestContractSubstanceExamples(t *testing.T) {
	f, v := shippedFixture(t)
	type result struct {
		Result   struct{ Value, Unit string }
		Category string
		Exact    bool
		Explain  *struct {
			Substance *struct {
				ID     string
				Values []struct{ Property, Value, Source, Conditions string }
			}
		}
		Error *struct {
			Code    string
			Details map[string]any
		}
	}
	examples := []struct {
		fields          map[string]any
		value, from, to string
		precision       int
		want, unit, cat string
	}{
		{map[string]any{"substance": "glucose"}, "100", "mg/dL", "mmol/L", 5, "5.5507", "mmol/L", "amount_concentration"},
		{map[string]any{"substance": "50-99-7"}, "1", "mmol/L", "mg/dL", 5, "18.016", "mg/dL", "density"},
		{map[string]any{"substance": "C6H12O6"}, "90", "mg/dL", "umol/L", 6, "4995.67", "umol/L", "amount_concentration"},
		{map[string]any{"substance": "creatinine"}, "1", "mg/dL", "umol/L", 3, "88.4", "umol/L", "amount_concentration"},
		{map[string]any{"substance": "Ca(OH)2"}, "74.092", "g", "mol", 10, "1", "mol", "amount"},
		{map[string]any{"substance": "CuSO4·5H2O"}, "249.677", "g", "mol", 10, "1", "mol", "amount"},
		{map[string]any{"molar_mass": "180.156 g/mol"}, "180.156", "g/h", "mol/h", 10, "1", "mol/h", "standard_gas_flow"},
		{map[string]any{"substance": "calcium"}, "2", "mEq/L", "mmol/L", 10, "1", "mmol/L", "amount_concentration"},
		{map[string]any{"charge": 2}, "1", "mmol", "mEq", 10, "2", "mEq", "equivalents"},
		{map[string]any{"density": "0.745 kg/L"}, "0.745", "kg", "L", 10, "1", "L", "volume"},
		{map[string]any{"substance": "gasoline"}, "1000", "L", "kg", 10, "747.5", "kg", "mass"},
		{map[string]any{"substance": "CO2", "conditions": "25 degC, 101.325 kPa"}, "1", "ppm", "mg/m3", 4, "1.799", "mg/m3", "density"},
		{map[string]any{"substance": "benzene", "conditions": "25 degC, 1 atm"}, "1", "ppb", "ug/m3", 4, "3.193", "ug/m3", "density"},
		{map[string]any{"conditions": "STP"}, "1", "m3", "mol", 4, "44.03", "mol", "amount"},
		{map[string]any{"substance": "methane"}, "1", "Nm3", "kg", 4, "0.7158", "kg", "mass"},
	}
	check := func(t *testing.T, got result, i int) {
		t.Helper()
		ex := examples[i]
		if got.Result.Value != ex.want || got.Result.Unit != ex.unit || got.Category != ex.cat || got.Exact {
			t.Errorf("%v %s %s → %s = %+v, want %s %s (%s, not exact)", ex.fields, ex.value, ex.from, ex.to, got, ex.want, ex.unit, ex.cat)
		}
		if got.Explain == nil || got.Explain.Substance == nil || len(got.Explain.Substance.Values) == 0 || got.Explain.Substance.Values[0].Source == "" {
			t.Errorf("%s → %s: explain lists no substance values: %+v", ex.from, ex.to, got.Explain)
		}
	}
	var items []string
	for i, ex := range examples {
		q := url.Values{"value": {ex.value}, "from": {ex.from}, "to": {ex.to}, "explain": {"true"}, "precision": {strings.TrimSpace(strings.Repeat(" ", 0)) + itoa(ex.precision)}}
		body := map[string]any{"value": ex.value, "from": ex.from, "to": ex.to, "precision": ex.precision}
		for k, val := range ex.fields {
			q.Set(k, toText(val))
			body[k] = val
		}
		req := f.request(t, "GET", "/v1/convert?"+q.Encode(), f.keys["good"], "", "")
		resp, got := f.do(t, req)
		v.check(t, req, resp, got)
		var get struct{ Data result }
		if err := json.Unmarshal(got, &get); err != nil || resp.StatusCode != 200 {
			t.Fatalf("GET %s: %d %s", q.Encode(), resp.StatusCode, got)
		}
		check(t, get.Data, i)
		item, _ := json.Marshal(body)
		items = append(items, string(item))
		body["explain"] = true
		post, _ := json.Marshal(body)
		req = f.request(t, "POST", "/v1/convert", f.keys["good"], js, string(post))
		resp, got = f.do(t, req)
		v.check(t, req, resp, got)
		var p struct{ Data result }
		if err := json.Unmarshal(got, &p); err != nil || resp.StatusCode != 200 {
			t.Fatalf("POST %s: %d %s", post, resp.StatusCode, got)
		}
		check(t, p.Data, i)
	}
	req := f.request(t, "POST", "/v1/batch", f.keys["good"], js, `{"conversions":[`+strings.Join(items, ",")+`],"explain":true}`)
	resp, body := f.do(t, req)
	v.check(t, req, resp, body)
	var batch struct{ Data []result }
	if err := json.Unmarshal(body, &batch); err != nil || len(batch.Data) != len(examples) {
		t.Fatalf("batch: %d %s", resp.StatusCode, body)
	}
	for i, got := range batch.Data {
		check(t, got, i)
	}

	// Batch-wide fields, and an item's own winning over them.
	req = f.request(t, "POST", "/v1/batch", f.keys["good"], js, `{"substance":"glucose","conversions":[
		{"value":"100","from":"mg/dL","to":"mmol/L","precision":5},
		{"value":"1","from":"mg/dL","to":"umol/L","substance":"creatinine","precision":3},
		{"value":"1","from":"mg/dL","to":"mmol/L","molar_mass":"100 g/mol"},
		{"value":"1","from":"mg/dL","to":"mmol/L","substance":"unobtainium"},
		{"value":"1","from":"mg/dL","to":"mmol/L","density":"0 kg/L"},
		{"value":"1","from":"mg/dL","to":"mmol/L","charge":"2"}]}`)
	resp, body = f.do(t, req)
	v.check(t, req, resp, body)
	if err := json.Unmarshal(body, &batch); err != nil || len(batch.Data) != 6 {
		t.Fatalf("batch-wide: %d %s", resp.StatusCode, body)
	}
	for i, want := range []string{"5.5507", "88.4", "0.1", "UNKNOWN_SUBSTANCE", "INVALID_ITEM", "INVALID_ITEM"} {
		got := batch.Data[i].Result.Value
		if e := batch.Data[i].Error; e != nil {
			got = e.Code
		}
		if got != want {
			t.Errorf("batch-wide item %d: %s, want %s", i, got, want)
		}
	}

	// What a conversion lacks, and hostile fields.
	refused := []struct {
		body   string
		status int
		code   string
		has    string
	}{
		{`{"value":"1","from":"mg/dL","to":"mmol/L"}`, 422, "INCOMPATIBLE_UNITS", `"needs":["molar_mass"]`},
		{`{"value":"1","from":"mg/dL","to":"mmol/L"}`, 422, "INCOMPATIBLE_UNITS", "needs a molar mass: pass `substance` or `molar_mass`"},
		{`{"value":"1","from":"ppm","to":"mg/m3","substance":"CO2"}`, 422, "INCOMPATIBLE_UNITS", `"needs":["conditions"]`},
		{`{"value":"1","from":"mEq/L","to":"mmol/L"}`, 422, "INCOMPATIBLE_UNITS", `"needs":["charge"]`},
		{`{"value":"1","from":"kg","to":"L"}`, 422, "INCOMPATIBLE_UNITS", `"needs":["density"]`},
		{`{"value":"1","from":"kg","to":"mol","substance":"glucos"}`, 400, "UNKNOWN_SUBSTANCE", `"suggestions":["glucose"]`},
		{`{"value":"1","from":"kg","to":"mol","substance":"` + strings.Repeat("C", 10000) + `"}`, 400, "UNKNOWN_SUBSTANCE", "longer than 256"},
		{`{"value":"1","from":"kg","to":"mol","substance":"` + strings.Repeat("(", 1000) + `"}`, 400, "UNKNOWN_SUBSTANCE", "longer than 256"},
		{`{"value":"1","from":"kg","to":"mol","substance":"((((((((((H))))))))))"}`, 400, "UNKNOWN_SUBSTANCE", "nested more than 8 deep"},
		{`{"value":"1","from":"kg","to":"mol","substance":"C99999999"}`, 400, "UNKNOWN_SUBSTANCE", `"position":2`},
		{`{"value":"1","from":"kg","to":"L","density":"0 kg/L"}`, 400, "INVALID_REQUEST", `"density"`},
		{`{"value":"1","from":"kg","to":"mol","molar_mass":"-180 g/mol"}`, 400, "INVALID_REQUEST", "greater than zero"},
		{`{"value":"1","from":"m3","to":"mol","conditions":"-300 degC, 1 atm"}`, 400, "INVALID_REQUEST", "absolute zero"},
		{`{"value":"1","from":"mmol","to":"mEq","charge":0}`, 400, "INVALID_REQUEST", "non-zero"},
		{`{"value":"1","from":"mmol","to":"mEq","charge":"2"}`, 400, "INVALID_REQUEST", "must be a whole number (the charge number"},
		{`{"value":"1","from":"mmol","to":"mEq","substance":2}`, 400, "INVALID_REQUEST", `substance\" must be a string`},
	}
	for _, r := range refused {
		req := f.request(t, "POST", "/v1/convert", f.keys["good"], js, r.body)
		resp, got := f.do(t, req)
		v.check(t, req, resp, got)
		if resp.StatusCode != r.status || !strings.Contains(string(got), `"code":"`+r.code+`"`) || !strings.Contains(string(got), r.has) {
			t.Errorf("%.80s: %d %.300s; want %d %s with %s", r.body, resp.StatusCode, got, r.status, r.code, r.has)
		}
	}
	// to=auto may choose a unit of another kind: blood glucose in GB is
	// in mmol/L, through glucose (what CLDR's usage measures).
	req = f.request(t, "GET", "/v1/convert?value=100&from=mg%2FdL&to=auto&usage=blood-glucose&region=GB&precision=5&explain=true", f.keys["good"], "", "")
	resp, body = f.do(t, req)
	v.check(t, req, resp, body)
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"result":{"value":"5.5507","unit":"mmol/L"}`) ||
		!strings.Contains(string(body), `"exact":false`) || !strings.Contains(string(body), `"substance":{"id":"glucose"`) {
		t.Errorf("to=auto for blood glucose in GB: %d %s", resp.StatusCode, body)
	}
	// GET takes the same fields.
	req = f.request(t, "GET", "/v1/convert?value=1&from=mg%2FdL&to=mmol%2FL&substance=unobtainium", f.keys["good"], "", "")
	resp, body = f.do(t, req)
	v.check(t, req, resp, body)
	if resp.StatusCode != 400 || !strings.Contains(string(body), "UNKNOWN_SUBSTANCE") {
		t.Errorf("GET with an unknown substance: %d %s", resp.StatusCode, body)
	}
}

// TestSubstanceDiscovery serves /v1/substances and /v1/substances/:id.
func TestSubstanceDiscovery(t *testing.T) {
	f, v := shippedFixture(t)
	get := func(target string) (int, []byte, string) {
		req := f.request(t, "GET", target, "", "", "")
		resp, body := f.do(t, req)
		v.check(t, req, resp, body)
		return resp.StatusCode, body, resp.Header.Get("ETag")
	}
	status, body, etag := get("/v1/substances")
	list0 := body
	var list struct {
		Data []struct {
			ID, Name, Formula, CAS string
			MolarMass              *struct{ Value, Source string } `json:"molar_mass"`
			Density                *struct{ Value, Temperature, Source string }
			Charge                 *int
			Measurand              *struct {
				Equations []struct{ Source string }
			}
		}
		Meta struct{ Total int }
	}
	if err := json.Unmarshal(body, &list); err != nil || status != 200 || list.Meta.Total < 50 || etag == "" {
		t.Fatalf("list: %d, %d substances, etag %q", status, list.Meta.Total, etag)
	}
	for _, s := range list.Data {
		if s.MolarMass == nil && s.Density == nil && s.Charge == nil && (s.Measurand == nil || len(s.Measurand.Equations) == 0) {
			t.Errorf("%s: neither molar mass, density, charge nor equations", s.ID)
		}
		if s.Measurand != nil {
			for _, e := range s.Measurand.Equations {
				if e.Source == "" {
					t.Errorf("%s: an equation without source", s.ID)
				}
			}
		}
		if s.MolarMass != nil && s.MolarMass.Source == "" || s.Density != nil && (s.Density.Source == "" || s.Density.Temperature == "") {
			t.Errorf("%s: a value without source or temperature", s.ID)
		}
	}
	req := f.request(t, "GET", "/v1/substances", "", "", "")
	req.Header.Set("If-None-Match", etag)
	if resp, _ := f.do(t, req); resp.StatusCode != 304 {
		t.Errorf("If-None-Match: %d, want 304", resp.StatusCode)
	}
	if _, body, _ := get("/v1/substances?q=CHOLEST"); !strings.Contains(string(body), `"total":3`) {
		t.Errorf("q=CHOLEST: %s", body)
	}
	// q ranks as the pages do: exact (the formula as written, an
	// abbreviation, a food's name for each of its states), then prefixes
	// and parts; an empty q is every substance.
	for _, tt := range []struct{ q, ids string }{
		{"CO2", "carbon-dioxide bicarbonate"},
		{"BUN", "urea-nitrogen"},
		{"LDL", "ldl-cholesterol"},
		{"a1c", "hba1c"},
		{"HbA1c", "hba1c"},
		{"hemoglobin", "hemoglobin hba1c hemoglobin-tetramer"},
		{"Hb", "hemoglobin hemoglobin-tetramer hba1c"},
		{"50-99-7", "glucose"},
		{"brown sugar", "brown-sugar-brownulated brown-sugar-packed brown-sugar-unpacked"},
		{"sugar brown packed", "brown-sugar-packed brown-sugar-unpacked"},
		{"NaCl", ""},
	} {
		status, body, etag := get("/v1/substances?q=" + url.QueryEscape(tt.q))
		var ans struct {
			Data []struct{ ID string }
			Meta map[string]any
		}
		if err := json.Unmarshal(body, &ans); err != nil || status != 200 || etag == "" {
			t.Fatalf("q=%s: %d %s", tt.q, status, body)
		}
		var ids []string
		for _, d := range ans.Data {
			ids = append(ids, d.ID)
		}
		if got := strings.Join(ids, " "); got != tt.ids || ans.Meta["total"] != float64(len(ids)) || ans.Meta["suggestions"] != nil {
			t.Errorf("q=%s: %s, meta %v; want %s", tt.q, got, ans.Meta, tt.ids)
		}
	}
	if _, body, _ := get("/v1/substances?q=%20"); !bytes.Equal(body, list0) {
		t.Errorf("q=%%20 is not the whole list: %.200s", body)
	}
	// An unknown name: no data, and the closest substances in meta. (Not
	// checked against the OpenAPI document, whose meta holds total only.)
	req = f.request(t, "GET", "/v1/substances?q=glucsoe", "", "", "")
	if resp, body := f.do(t, req); resp.StatusCode != 200 || string(body) != `{"data":[],"meta":{"total":0,"suggestions":["glucose"]}}`+"\n" {
		t.Errorf("q=glucsoe: %d %s", resp.StatusCode, body)
	}
	for _, name := range []string{"glucose", "Glucose", "50-99-7", "C6H12O6", "dextrose"} {
		status, body, _ := get("/v1/substances/" + url.PathEscape(name))
		if status != 200 || !strings.Contains(string(body), `"id":"glucose"`) || !strings.Contains(string(body), `"value":"180.156 g/mol"`) {
			t.Errorf("%s: %d %s", name, status, body)
		}
	}
	if status, body, _ := get("/v1/substances/glucos"); status != 404 || !strings.Contains(string(body), `"suggestions":["glucose"]`) {
		t.Errorf("glucos: %d %s", status, body)
	}
	if status, _, _ := get("/v1/substances?x=1"); status != 400 {
		t.Errorf("unknown parameter: %d", status)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func toText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// TestSubstanceStream: an NDJSON line takes the substance fields as a
// batch item does, and the query's are batch-wide, under each line's own.
func TestSubstanceStream(t *testing.T) {
	f := newFixture(t, nil)
	f.srv.ApplyGraph(shippedGraph(t))
	body := strings.Join([]string{
		`{"value":"100","from":"mg/dL","to":"mmol/L"}`,
		`{"value":"1","from":"mg/dL","to":"umol/L","substance":"creatinine","precision":3}`,
		`{"value":"1","from":"mg/dL","to":"mmol/L","molar_mass":"100 g/mol"}`,
		`{"value":"1","from":"mg/dL","to":"mmol/L","substance":"glucos"}`,
		`{"value":"1","from":"kg","to":"L","density":"0 kg/L"}`,
		`{"value":"1","from":"ppm","to":"mg/m3","substance":"CO2","conditions":"25 degC, 101.325 kPa","precision":4}`,
		`{"value":"12.5","from":"ft","to":"m"}`,
	}, "\n")
	resp, lines := f.postStream(t, "?substance=glucose&precision=5&explain=true", strings.NewReader(body))
	if resp.StatusCode != 200 || len(lines) != 8 {
		t.Fatalf("status %d, %d lines:\n%s", resp.StatusCode, len(lines), strings.Join(lines, "\n"))
	}
	want := []string{
		`"result":{"value":"5.5507","unit":"mmol/L"},"category":"amount_concentration","exact":false,"explain":`,
		`"result":{"value":"88.4","unit":"umol/L"},"category":"amount_concentration","exact":false,"explain":`,
		`"result":{"value":"0.1","unit":"mmol/L"},"category":"amount_concentration","exact":false,"explain":`,
		`"code":"UNKNOWN_SUBSTANCE"`,
		`"code":"INVALID_ITEM","message":"\"density\": `,
		`"result":{"value":"1.799","unit":"mg/m3"},"category":"density","exact":false,"explain":`,
		`"result":{"value":"3.81","unit":"m"},"category":"length","exact":true,"explain":`,
		metaLine(7, 5),
	}
	for i, w := range want {
		if !strings.Contains(lines[i], w) {
			t.Errorf("line %d = %s\nwant it to hold %s", i, lines[i], w)
		}
	}
	for i, id := range []string{"glucose", "creatinine"} {
		if !strings.Contains(lines[i], `"substance":{"id":"`+id+`","values":[{"property":"molar_mass"`) {
			t.Errorf("line %d explains no molar mass of %s: %s", i, id, lines[i])
		}
	}
	if strings.Contains(lines[6], `"substance":{`) {
		t.Errorf("a plain conversion explains a substance: %s", lines[6])
	}
	// A batch-wide field that does not resolve refuses the stream.
	resp, lines = f.postStream(t, "?substance=unobtainium", strings.NewReader(body))
	if resp.StatusCode != 400 || len(lines) != 1 || !strings.Contains(lines[0], "UNKNOWN_SUBSTANCE") {
		t.Errorf("an unknown batch-wide substance: %d %s", resp.StatusCode, strings.Join(lines, "\n"))
	}
	resp, lines = f.postStream(t, "?conditions=-300%20degC,%201%20atm", strings.NewReader(body))
	if resp.StatusCode != 400 || len(lines) != 1 || !strings.Contains(lines[0], "absolute zero") {
		t.Errorf("batch-wide conditions below absolute zero: %d %s", resp.StatusCode, strings.Join(lines, "\n"))
	}
}
