package server

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine"
)

// TestBatchWorkBudget: a batch shares one work budget. Items whose
// logarithm only the slow path can round (a level of 1.000…001 mW) spend
// it; past it they get WORK_BUDGET_EXCEEDED without being run, while
// ordinary items of the same batch still succeed. The ordinary item is a
// linear conversion, which costs nothing on either of the engine's paths:
// with its accelerators off (-tags unitd_plain) every logarithm is rounded
// by the slow path and spends a unit, so a cheap level such as 0.25 W in
// dBm is ordinary only on the fast path (engine's TestBudget checks that).
func TestBatchWorkBudget(t *testing.T) {
	g := levelGraph(t)
	f := newFixture(t, nil)
	f.srv.ApplyGraph(g)
	slow := "1." + strings.Repeat("0", 90) + "1"
	n := engine.DefaultBudget + 8
	var items []string
	for range n {
		items = append(items, fmt.Sprintf(`{"value":"%s","from":"mW","to":"dBm"}`, slow))
	}
	items = append(items, `{"value":"250","from":"mW","to":"W"}`)
	req := f.request(t, "POST", "/v1/batch", f.keys["good"], "application/json", `{"conversions":[`+strings.Join(items, ",")+`]}`)
	resp, body := f.do(t, req)
	if resp.StatusCode != 200 {
		t.Fatalf("batch: %d %s", resp.StatusCode, body)
	}
	var out struct {
		Data []struct {
			Status string
			Result struct{ Value string }
			Error  struct{ Code, Message string }
		}
		Meta struct{ Succeeded, Failed int }
	}
	if err := json.Unmarshal(body, &out); err != nil {
		t.Fatal(err)
	}
	// The expected levels, 10·log10(x), from apd at 80 digits rounded to
	// the default 34.
	level := func(x string) string {
		c := apd.BaseContext.WithPrecision(80)
		v, _, _ := apd.NewFromString(x)
		var l apd.Decimal
		c.Log10(&l, v)
		c.Mul(&l, &l, apd.New(10, 0))
		apd.BaseContext.WithPrecision(34).Round(&l, &l)
		l.Reduce(&l)
		return engine.FormatDecimal(&l)
	}
	wantSlow, wantOrdinary := level(slow), "0.25"
	for i, it := range out.Data[:n] {
		switch {
		case i < engine.DefaultBudget && (it.Status != "success" || it.Result.Value != wantSlow):
			t.Errorf("item %d within the budget: %+v", i, it)
		case i >= engine.DefaultBudget && it.Error.Code != "WORK_BUDGET_EXCEEDED":
			t.Errorf("item %d past the budget: %+v", i, it)
		}
	}
	if last := out.Data[n]; last.Status != "success" || last.Result.Value != wantOrdinary {
		t.Errorf("an ordinary item after the budget was spent: %+v", last)
	}
	if out.Meta.Failed != 8 {
		t.Errorf("meta: %+v, want 8 failed", out.Meta)
	}
	// A new request has a new budget.
	rec := httptest.NewRecorder()
	f.srv.Handler().ServeHTTP(rec, f.request(t, "GET", "/v1/convert?value="+slow+"&from=mW&to=dBm", f.keys["good"], "", ""))
	if rec.Code != 200 {
		t.Errorf("a single slow conversion in a new request: %d %s", rec.Code, rec.Body)
	}
}

// levelGraph is a catalog of power with the dBm level, a formula unit.
func levelGraph(t testing.TB) *engine.Graph {
	t.Helper()
	src := "server test catalog"
	g, errs := engine.Build(engine.Spec{Version: "budget-1", Categories: []engine.CategorySpec{{
		ID: "power", Name: "Power", Dimension: map[string]int{"M": 1, "L": 2, "T": -3}, Base: "W",
		Units: []engine.UnitSpec{
			{Symbol: "W", Name: "watt", Plural: "watts", System: "SI", Exact: true, Source: src,
				Prefixes: &engine.PrefixSpec{Set: "si", Only: []string{"m", "k"}}},
			{Symbol: "dBm", Name: "decibel-milliwatt", Plural: "decibel-milliwatts", System: "logarithmic", Exact: true, Source: src,
				Definition: engine.DefinitionSpec{Unit: "mW", To: "10 ** (x / 10)", From: "10 * log10(x)"}},
		},
	}}})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return g
}

// BenchmarkWorstBatch times the most expensive request a client can make
// within the limits: 100 formula items (W → dBm and dBm → W, logarithms
// and non-integer powers of ten) at precision 50; and the same with every
// item forced onto the slow path, which the work budget bounds.
func BenchmarkWorstBatch(b *testing.B) {
	set, ks := testKeys(b)
	s := New(Config{Keys: fakeKeys{set}, Env: "test", Limiter: &fakeLimiter{decide: allowAll}})
	s.ApplyGraph(levelGraph(b))
	h, auth := s.Handler(), "Bearer "+ks["good"]
	slow := "1." + strings.Repeat("0", 90) + "1"
	for _, bc := range []struct {
		name string
		item func(i int) string
	}{
		{"formulas_p50", func(i int) string {
			if i%2 == 0 {
				return fmt.Sprintf(`{"value":"%d.%d","from":"W","to":"dBm"}`, 1+i, 7*i+3)
			}
			return fmt.Sprintf(`{"value":"-%d.%d","from":"dBm","to":"W"}`, i%40, 13*i+1)
		}},
		{"slow_path_p50", func(int) string { return `{"value":"` + slow + `","from":"mW","to":"dBm"}` }},
	} {
		items := make([]string, 100)
		for i := range items {
			items[i] = bc.item(i)
		}
		body := `{"precision":50,"conversions":[` + strings.Join(items, ",") + `]}`
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				req := httptest.NewRequest("POST", "/v1/batch", strings.NewReader(body))
				req.Header.Set("Authorization", auth)
				req.Header.Set("Content-Type", "application/json")
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code != 200 {
					b.Fatal(rec.Code, rec.Body)
				}
			}
		})
	}
}
