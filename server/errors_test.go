package server

import (
	"net/http"
	"strings"
	"testing"

	"github.com/unitd/unitd/engine"
)

// TestErrorHint: a conversion error carries the catalog's hint as
// error.hint, alone and inside a batch, and an error without one has no
// hint field.
func TestErrorHint(t *testing.T) {
	spec := testSpecOf(t)
	spec.Hints = []engine.HintSpec{{Code: engine.CodeIncompatibleUnits, From: engine.HintSide{Unit: "ft"}, To: engine.HintSide{Unit: "K"},
		Hint: `a "length" is not a temperature: {from} → {to}`, Source: "test"}}
	g, errs := engine.Build(spec)
	if errs != nil {
		t.Fatal(errs)
	}
	f := newFixture(t, nil)
	f.srv.ApplyGraph(g)
	const want = `"hint":"a \"length\" is not a temperature: ft → K"`
	resp, body := f.do(t, f.request(t, "GET", "/v1/convert?value=1&from=ft&to=K", f.keys["good"], "", ""))
	if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(string(body), want) {
		t.Errorf("convert: %d %s; want 422 with %s", resp.StatusCode, body, want)
	}
	_, body = f.do(t, f.request(t, "POST", "/v1/batch", f.keys["good"], "application/json",
		`{"conversions":[{"value":"1","from":"ft","to":"K"},{"value":"1","from":"m","to":"K"}]}`))
	if strings.Count(string(body), want) != 1 || strings.Count(string(body), `"hint"`) != 1 {
		t.Errorf("batch: %s; want one item with %s", body, want)
	}
}
