package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/unitd/unitd/internal/promtext"
)

// boomUnit is the unit name whose conversion or lookup panics in the
// tests below, through Config.itemSeam: a bug of the engine's, whatever
// the engine's bugs of the day are.
const boomUnit = "boom"

// panickyFixture is a server whose conversions and lookups of boomUnit
// panic, with metrics.
func panickyFixture(t *testing.T) (*fixture, *promtext.Registry) {
	t.Helper()
	reg := promtext.NewRegistry()
	f := newFixture(t, func(c *Config) {
		c.Metrics = NewMetrics(reg)
		c.itemSeam = func(unit string) {
			if unit == boomUnit {
				var parts []string
				_ = parts[len(unit)] // a runtime panic, as a bug would be
			}
		}
	})
	return f, reg
}

// itemAnswer is the part of a batch item the tests below read.
type itemAnswer struct {
	Index  int
	Status string
	Error  struct {
		Code      string
		Message   string
		RequestID string `json:"request_id"`
	}
}

// TestBatchItemPanic: a panic while converting one item of a JSON batch
// or of an NDJSON stream is that item's INTERNAL_ERROR with the request
// id; the other items are answered, the panic is logged with the request
// id and the item's index, and counted.
func TestBatchItemPanic(t *testing.T) {
	f, reg := panickyFixture(t)
	v := newValidator(t, f)
	items := []string{
		`{"value":"1","from":"ft","to":"m"}`,
		`{"value":"1","from":"` + boomUnit + `","to":"m"}`,
		`{"value":"2","from":"ft","to":"m"}`,
	}
	check := func(name string, answers []string, reqID string) {
		t.Helper()
		for i, a := range answers {
			var got itemAnswer
			if err := json.Unmarshal([]byte(a), &got); err != nil {
				t.Fatalf("%s: item %d: %v: %s", name, i, err, a)
			}
			want := "success"
			if i == 1 {
				want = "error"
			}
			if got.Index != i || got.Status != want {
				t.Errorf("%s: item %d = %s", name, i, a)
			}
		}
		var boom itemAnswer
		json.Unmarshal([]byte(answers[1]), &boom)
		if boom.Error.Code != codeInternal || boom.Error.RequestID != reqID || reqID == "" ||
			strings.Contains(answers[1], "index out of range") || strings.Contains(answers[1], "goroutine") {
			t.Errorf("%s: the failed item %s (request id %q)", name, answers[1], reqID)
		}
	}

	req := f.request(t, "POST", "/v1/batch", f.keys["good"], js, `{"conversions":[`+strings.Join(items, ",")+`]}`)
	resp, body := f.do(t, req)
	v.check(t, req, resp, body)
	var batch struct {
		Data []json.RawMessage
		Meta struct{ Total, Succeeded, Failed int }
	}
	if err := json.Unmarshal(body, &batch); err != nil || resp.StatusCode != 200 || len(batch.Data) != 3 {
		t.Fatalf("JSON batch: %d %s", resp.StatusCode, body)
	}
	answers := make([]string, len(batch.Data))
	for i, d := range batch.Data {
		answers[i] = string(d)
	}
	check("JSON batch", answers, resp.Header.Get("X-Request-Id"))
	if batch.Meta.Total != 3 || batch.Meta.Succeeded != 2 || batch.Meta.Failed != 1 {
		t.Errorf("JSON batch meta %+v", batch.Meta)
	}

	resp, lines := f.postStream(t, "", strings.NewReader(strings.Join(items, "\n")+"\n"))
	if resp.StatusCode != 200 || len(lines) != 4 || lines[3] != metaLine(3, 2) {
		t.Fatalf("stream: %d\n%s", resp.StatusCode, strings.Join(lines, "\n"))
	}
	check("stream", lines[:3], resp.Header.Get("X-Request-Id"))

	logs := f.logs.String()
	for _, id := range []string{answersID(t, answers[1]), resp.Header.Get("X-Request-Id")} {
		if !strings.Contains(logs, `"msg":"panic recovered; the other items are answered","request_id":"`+id+`","route":"/v1/batch","index":1,"panic":"runtime error: index out of range [4] with length 0"`) {
			t.Errorf("no log line of the panic of request %s:\n%s", id, logs)
		}
	}
	fams := scrape(t, f.srv.AdminHandler(reg))
	if n := value(fams, "unitd_panics_recovered_total", map[string]string{"route": "/v1/batch"}); n != 2 {
		t.Errorf("%v panics counted, want 2", n)
	}
	if n := value(fams, "unitd_conversions_total", map[string]string{"category": "none", "outcome": codeInternal}); n != 2 {
		t.Errorf("%v INTERNAL_ERROR conversions counted, want 2", n)
	}
}

// answersID is the request id in a failed item.
func answersID(t *testing.T, item string) string {
	t.Helper()
	var a itemAnswer
	if err := json.Unmarshal([]byte(item), &a); err != nil {
		t.Fatal(err)
	}
	return a.Error.RequestID
}

// TestSingleItemPanic: a panic while converting a single conversion, or
// looking up a unit record, is that request's INTERNAL_ERROR with its
// request id, logged and counted; the next request is answered as ever.
func TestSingleItemPanic(t *testing.T) {
	f, reg := panickyFixture(t)
	v := newValidator(t, f)
	for _, tc := range []struct {
		method, target, key, body, route, next string
	}{
		{"GET", "/v1/convert?value=1&from=" + boomUnit + "&to=m", "good", "", "/v1/convert", "/v1/convert?value=1&from=ft&to=m"},
		{"POST", "/v1/convert", "good", `{"value":"1","from":"` + boomUnit + `","to":"m"}`, "/v1/convert", "/v1/convert?value=2&from=ft&to=m"},
		{"GET", "/v1/units/" + boomUnit, "", "", "/v1/units/:unit", "/v1/units/ft"},
	} {
		ct := ""
		if tc.body != "" {
			ct = js
		}
		req := f.request(t, tc.method, tc.target, f.keys[tc.key], ct, tc.body)
		resp, body := f.do(t, req)
		v.check(t, req, resp, body)
		if resp.StatusCode != http.StatusInternalServerError || !strings.Contains(string(body), `"code":"INTERNAL_ERROR"`) ||
			!strings.Contains(string(body), `"request_id":"`+resp.Header.Get("X-Request-Id")+`"`) || strings.Contains(string(body), "index out of range") {
			t.Errorf("%s %s: %d %s", tc.method, tc.target, resp.StatusCode, body)
		}
		if !strings.Contains(f.logs.String(), `"request_id":"`+resp.Header.Get("X-Request-Id")+`","route":"`+tc.route+`","index":-1,"panic":"runtime error: index out of range [4] with length 0"`) {
			t.Errorf("%s %s: the panic is not logged with the request id:\n%s", tc.method, tc.target, f.logs.String())
		}
		resp, body = f.do(t, f.request(t, "GET", tc.next, f.keys[tc.key], "", ""))
		if resp.StatusCode != 200 {
			t.Errorf("after the panic, %s: %d %s", tc.next, resp.StatusCode, body)
		}
	}
	fams := scrape(t, f.srv.AdminHandler(reg))
	if n := value(fams, "unitd_panics_recovered_total", map[string]string{"route": "/v1/convert"}); n != 2 {
		t.Errorf("%v panics counted on /v1/convert, want 2", n)
	}
	if n := value(fams, "unitd_panics_recovered_total", map[string]string{"route": "/v1/units/:unit"}); n != 1 {
		t.Errorf("%v panics counted on /v1/units/:unit, want 1", n)
	}
	if n := value(fams, "unitd_conversions_total", map[string]string{"category": "none", "outcome": codeInternal}); n != 2 {
		t.Errorf("%v INTERNAL_ERROR conversions counted, want 2", n)
	}
}

// TestShippedCodeNeverFailsTheBatch: UCUM's centineper (ucum:cNp), on
// which the engine has panicked, never costs the batch or the stream
// more than its own item, and its unit record is an answer of its own.
// (Whatever the engine answers for it; the tests above prove the
// isolation with a panic of their own.)
func TestShippedCodeNeverFailsTheBatch(t *testing.T) {
	f, v := shippedFixture(t)
	items := `{"value":"1","from":"ft","to":"m"},{"value":"1","from":"ucum:cNp","to":"ucum:Np"},{"value":"2","from":"ft","to":"m"}`
	req := f.request(t, "POST", "/v1/batch", f.keys["good"], js, `{"conversions":[`+items+`]}`)
	resp, body := f.do(t, req)
	v.check(t, req, resp, body)
	if resp.StatusCode != 200 || strings.Count(string(body), `"status":"success"`) < 2 || !strings.Contains(string(body), `"meta":{"total":3,`) {
		t.Errorf("JSON batch: %d %s", resp.StatusCode, body)
	}
	resp, lines := f.postStream(t, "", strings.NewReader(strings.ReplaceAll(items, "},{", "}\n{")))
	if resp.StatusCode != 200 || len(lines) != 4 || !strings.HasPrefix(lines[2], `{"index":2,"status":"success"`) || !strings.HasPrefix(lines[3], `{"meta":{"total":3,`) {
		t.Errorf("stream: %d\n%s", resp.StatusCode, strings.Join(lines, "\n"))
	}
	req = f.request(t, "GET", "/v1/units/ucum:cNp", "", "", "")
	resp, body = f.do(t, req)
	v.check(t, req, resp, body)
	if resp.StatusCode != 200 && resp.StatusCode != 500 {
		t.Errorf("GET /v1/units/ucum:cNp: %d %s", resp.StatusCode, body)
	}
}
