package server

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

// TestContractExpressionExamples sends the examples of the contract's
// sections on unit expressions, temperature intervals and explain to a
// server of the shipped catalog, by GET, POST and in one batch, and checks
// each answer and its shape against /openapi.json.
func TestContractExpressionExamples(t *testing.T) {
	f, v := shippedFixture(t)
	examples := []struct {
		value, from, to string
		want, unit, cat string
		exact           bool
	}{
		{"1", "kg*m/s^2", "N", "1", "N", "force", true},
		{"60", "mi/h", "km/h", "96.56064", "km/h", "speed", true},
		{"1", "mile/hour", "km/h", "1.609344", "km/h", "speed", true},
		{"1", "N", "kg·m·s⁻²", "1", "kg*m*s^-2", "force", true},
		{"1", "kg*m^2/s^2", "J", "1", "J", "energy", true},
		{"1", "kg*m^2/s^2", "N*m", "1", "N*m", "torque", true},
		{"1", "W/(m2*K)", "BTU/(h*ft2*degF)", "0.1761101836823058407309515389966389", "BTU/(h*ft2*degF)", "heat_transfer_coefficient", false},
		{"2", "W/m2/K", "W/(m2*K)", "2", "W/(m2*K)", "heat_transfer_coefficient", true},
		{"1", "g^2*m", "kg^2*m", "0.000001", "kg^2*m", "M^2 L", true},
		{"1", "ft·lbf", "J", "1.3558179483314004", "J", "energy", true},
		{"1", "ft^3/min", "L/s", "0.4719474432", "L/s", "flow", true},
		{"1", "N/mm²", "MPa", "1", "MPa", "pressure", true},
		{"50", "1/s", "Hz", "50", "Hz", "frequency", true},
		{"1", "delta_degC", "K", "1", "K", "temperature_interval", true},
		{"1", "K", "delta_degF", "1.8", "delta_degF", "temperature_interval", true},
		{"1", "rpm", "deg/s", "6", "deg/s", "angular_velocity", true},
		{"1", "rpm", "rad/s", "0.1047197551196597746154214461093168", "rad/s", "angular_velocity", false},
		{"1", "rpm", "Hz", "0.01666666666666666666666666666666667", "Hz", "frequency", false},
	}
	type result struct {
		Result   struct{ Value, Unit string }
		Category string
		Exact    bool
		Explain  *struct {
			Factor string
			Steps  []struct{ Unit, Definition, Source string }
		}
		Error *struct{ Code string }
	}
	check := func(t *testing.T, got result, i int) {
		t.Helper()
		ex := examples[i]
		if got.Result.Value != ex.want || got.Result.Unit != ex.unit || got.Category != ex.cat || got.Exact != ex.exact {
			t.Errorf("%s %s → %s = %+v, want %s %s (%s, exact %v)", ex.value, ex.from, ex.to, got, ex.want, ex.unit, ex.cat, ex.exact)
		}
		if got.Explain == nil || got.Explain.Factor == "" || len(got.Explain.Steps) == 0 {
			t.Errorf("%s → %s: no explanation: %+v", ex.from, ex.to, got.Explain)
		}
	}
	var items []string
	for i, ex := range examples {
		target := "/v1/convert?value=" + ex.value + "&from=" + url.QueryEscape(ex.from) + "&to=" + url.QueryEscape(ex.to) + "&explain=true"
		req := f.request(t, "GET", target, f.keys["good"], "", "")
		resp, body := f.do(t, req)
		v.check(t, req, resp, body)
		var get struct{ Data result }
		if err := json.Unmarshal(body, &get); err != nil || resp.StatusCode != 200 {
			t.Fatalf("GET %s: %d %s", target, resp.StatusCode, body)
		}
		check(t, get.Data, i)

		item, _ := json.Marshal(map[string]any{"value": ex.value, "from": ex.from, "to": ex.to})
		items = append(items, string(item))
		post := strings.TrimSuffix(string(item), "}") + `,"explain":true}`
		req = f.request(t, "POST", "/v1/convert", f.keys["good"], js, post)
		resp, body = f.do(t, req)
		v.check(t, req, resp, body)
		var got struct{ Data result }
		if err := json.Unmarshal(body, &got); err != nil || resp.StatusCode != 200 {
			t.Fatalf("POST %s: %d %s", post, resp.StatusCode, body)
		}
		check(t, got.Data, i)
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

	refused := []struct{ from, to, code, has string }{
		{"J", "N*m", "INCOMPATIBLE_UNITS", `"details":{"from_dimension":"M L^2 T^-2","to_dimension":"M L^2 T^-2"}`},
		{"W", "J", "INCOMPATIBLE_UNITS", "multiply by a time"},
		{"Hz", "Bq", "INCOMPATIBLE_UNITS", "different kinds of quantity"},
		{"degC", "delta_K", "INCOMPATIBLE_UNITS", "point on a scale"},
		{"dBm*s", "J", "INVALID_UNIT_EXPRESSION", "position 1"},
		{"mpg*L/100km", "m", "INVALID_UNIT_EXPRESSION", "position 5"},
		{"m^99", "m", "INVALID_UNIT_EXPRESSION", "position 2"},
		{"kg*/m", "kg", "INVALID_UNIT_EXPRESSION", "position 4"},
		{"(m/s", "m/s", "INVALID_UNIT_EXPRESSION", "not closed"},
		{strings.Repeat("m*", 10000) + "m", "m", "INVALID_UNIT_EXPRESSION", "longer than"},
		{"kg/metr", "kg/m", "UNKNOWN_UNIT", `"suggestions":[`},
	}
	for _, r := range refused {
		body := `{"value":"1","from":"` + r.from + `","to":"` + r.to + `"}`
		req := f.request(t, "POST", "/v1/convert", f.keys["good"], js, body)
		resp, got := f.do(t, req)
		v.check(t, req, resp, got)
		if resp.StatusCode >= 500 || !strings.Contains(string(got), `"code":"`+r.code+`"`) || !strings.Contains(string(got), r.has) {
			t.Errorf("%s → %s: %d %s; want %s with %q", shortText(r.from), r.to, resp.StatusCode, shortText(string(got)), r.code, r.has)
		}
	}
}

func shortText(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}
