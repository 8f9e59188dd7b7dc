package server

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/unitd/unitd/catalog"
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
// bench-load) against the embedded catalog: 100 items cycling through
// linear, affine, alias, π and rational-formula pairs, the values varied
// as the load run varies them.
func BenchmarkBatchCatalog(b *testing.B) {
	g, errs := catalog.Load(catalog.Embedded())
	if errs != nil {
		b.Fatal(errs)
	}
	set, ks := testKeys(b)
	// As served: with metrics.
	s := New(Config{Keys: fakeKeys{set}, Env: "test", Limiter: &fakeLimiter{decide: allowAll},
		Metrics: NewMetrics(prometheus.NewRegistry())})
	s.ApplyGraph(g)
	h, auth := s.Handler(), "Bearer "+ks["good"]
	pairs := [][2]string{
		{"ft", "m"}, {"degC", "degF"}, {"km", "mi"}, {"L/100km", "mpg"}, {"lb", "kg"},
		{"°F", "°C"}, {"meters", "feet"}, {"km/h", "mph"}, {"kWh", "MJ"}, {"psi", "kPa"},
		{"gal", "L"}, {"in", "cm"}, {"K", "degC"}, {"mpg", "L/100km"}, {"oz", "g"},
		{"kn", "m/s"}, {"acre", "ha"}, {"BTU", "kJ"}, {"hp", "kW"}, {"GiB", "MB"},
		{"atm", "mmHg"}, {"µm", "in"}, {"deg", "rad"}, {"cup", "mL"}, {"kilometres", "Miles"},
	}
	items := make([]string, 100)
	for i := range items {
		p := pairs[i%len(pairs)]
		value := strconv.Itoa(i + 1)
		switch i % 4 {
		case 1:
			value += ".5"
		case 2:
			value = strconv.FormatFloat(float64(i)*1.37+0.25, 'f', -1, 64)
		case 3:
			value += "e1"
		}
		items[i] = `{"value":"` + value + `","from":"` + p[0] + `","to":"` + p[1] + `"}`
	}
	body := `{"conversions":[` + strings.Join(items, ",") + `]}`
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
