package server

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/unitd/unitd/catalog"
	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/internal/batchmix"
	"github.com/unitd/unitd/internal/promtext"
)

func benchServer(b *testing.B) (http.Handler, string) {
	set, ks := testKeys(b)
	s := New(Config{Keys: fakeKeys{set}, Env: "test", Limiter: &fakeLimiter{decide: allowAll}})
	s.ApplyGraph(testGraph(b))
	return s.Handler(), "Bearer " + ks["good"]
}

// BenchmarkBareHandler is the yardstick: a net/http handler that writes a
// fixed small JSON answer.
func BenchmarkBareHandler(b *testing.B) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"ok":true}`))
	})
	req := httptest.NewRequest(http.MethodGet, "/v1/convert?value=12.5&from=ft&to=m", nil)
	b.ReportAllocs()
	for b.Loop() {
		h.ServeHTTP(httptest.NewRecorder(), req)
	}
}

func BenchmarkConvertHandler(b *testing.B) {
	h, auth := benchServer(b)
	req := httptest.NewRequest(http.MethodGet, "/v1/convert?value=12.5&from=ft&to=m", nil)
	req.Header.Set("Authorization", auth)
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 200 {
			b.Fatal(rec.Code, rec.Body)
		}
	}
}

func BenchmarkBatchHandler(b *testing.B) {
	h, auth := benchServer(b)
	units := [][2]string{{"ft", "m"}, {"degC", "K"}, {"km", "in"}, {"L/100km", "km/L"}, {"m/s", "km/h"}}
	items := make([]string, 100)
	for i := range items {
		u := units[i%len(units)]
		items[i] = `{"value":"` + strings.Repeat("1", 1+i%7) + `.5","from":"` + u[0] + `","to":"` + u[1] + `"}`
	}
	body := `{"conversions":[` + strings.Join(items, ",") + `]}`
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		req := httptest.NewRequest(http.MethodPost, "/v1/batch", strings.NewReader(body))
		req.Header.Set("Authorization", auth)
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 200 {
			b.Fatal(rec.Code, rec.Body)
		}
	}
}

// BenchmarkBatchCatalog is the batch of the HTTP load run (make
// bench-load, package batchmix) against the embedded catalog: 100 items
// cycling through linear, affine, alias, π and rational-formula pairs.
func BenchmarkBatchCatalog(b *testing.B) {
	g, errs := catalog.Load(catalog.Embedded())
	if errs != nil {
		b.Fatal(errs)
	}
	set, ks := testKeys(b)
	// As served: with metrics.
	s := New(Config{Keys: fakeKeys{set}, Env: "test", Limiter: &fakeLimiter{decide: allowAll},
		Metrics: NewMetrics(promtext.NewRegistry())})
	s.ApplyGraph(g)
	h, auth := s.Handler(), "Bearer "+ks["good"]
	body := string(batchmix.Body(batchmix.Pairs))
	serve := func() *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, "/v1/batch", strings.NewReader(body))
		req.Header.Set("Authorization", auth)
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	if rec := serve(); rec.Code != 200 || !strings.Contains(rec.Body.String(), `"failed":0`) {
		b.Fatal(rec.Code, rec.Body)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if rec := serve(); rec.Code != 200 {
			b.Fatal(rec.Code, rec.Body)
		}
	}
}

// BenchmarkDecodeBatch reads the load run's batch body (package batchmix)
// into conversions: the JSON half of a batch's own work.
func BenchmarkDecodeBatch(b *testing.B) {
	body := batchmix.Body(batchmix.Pairs)
	items := make([]conversion, 0, maxBatch)
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		req, e := decodeBatch(body, items)
		if e != nil || len(req.items) != batchmix.Size {
			b.Fatal(e, len(req.items))
		}
	}
}

// BenchmarkConvertBatchItems runs the engine alone over the load run's
// batch, already decoded: the conversion half of a batch's own work.
func BenchmarkConvertBatchItems(b *testing.B) {
	g, errs := catalog.Load(catalog.Embedded())
	if errs != nil {
		b.Fatal(errs)
	}
	req, e := decodeBatch(batchmix.Body(batchmix.Pairs), nil)
	if e != nil {
		b.Fatal(e)
	}
	var buf []byte
	var res engine.Result
	b.ReportAllocs()
	for b.Loop() {
		budget := engine.NewBudget(engine.DefaultBudget)
		for i := range req.items {
			it := &req.items[i]
			var err error
			buf, err = g.AppendConvert(buf[:0], &engine.Request{Value: it.value, From: it.from, To: it.to, Budget: budget}, &res)
			if err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkConvertSubstance is GET /v1/convert through the whole handler
// on the shipped catalog, without a substance (100 mg/dL to lb/ft3, a
// result of 34 digits) and with one (100 mg/dL to mmol/L of glucose; and
// with an explicit molar mass): benchstat -col /substance compares them.
func BenchmarkConvertSubstance(b *testing.B) {
	g, errs := catalog.Load(catalog.Embedded())
	if errs != nil {
		b.Fatal(errs)
	}
	set, ks := testKeys(b)
	s := New(Config{Keys: fakeKeys{set}, Env: "test", Limiter: &fakeLimiter{decide: allowAll}})
	s.ApplyGraph(g)
	h, auth := s.Handler(), "Bearer "+ks["good"]
	for _, c := range []struct{ name, query string }{
		{"none", "value=100&from=mg%2FdL&to=lb%2Fft3"},
		{"glucose", "value=100&from=mg%2FdL&to=mmol%2FL&substance=glucose"},
		{"molar_mass", "value=100&from=mg%2FdL&to=mmol%2FL&molar_mass=180.156%20g%2Fmol"},
	} {
		b.Run("substance="+c.name, func(b *testing.B) {
			req := httptest.NewRequest(http.MethodGet, "/v1/convert?"+c.query, nil)
			req.Header.Set("Authorization", auth)
			b.ReportAllocs()
			for b.Loop() {
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code != 200 {
					b.Fatal(rec.Code, rec.Body)
				}
			}
		})
	}
}
