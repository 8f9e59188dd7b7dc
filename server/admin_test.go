package server

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/unitd/unitd/internal/promtext"
	"github.com/unitd/unitd/server/ratelimit"
)

// scrape reads /metrics from the admin handler and parses it with the
// Prometheus text parser.
func scrape(t *testing.T, admin http.Handler) map[string]*dto.MetricFamily {
	t.Helper()
	rec := httptest.NewRecorder()
	admin.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != 200 {
		t.Fatalf("/metrics: %d", rec.Code)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(strings.NewReader(rec.Body.String()))
	if err != nil {
		t.Fatalf("parsing /metrics: %v\n%s", err, rec.Body.String())
	}
	return fams
}

// value returns the counter, gauge or histogram count of the series of
// name whose labels include want; 0 when there is none.
func value(fams map[string]*dto.MetricFamily, name string, want map[string]string) float64 {
	f := fams[name]
	if f == nil {
		return 0
	}
	sum := 0.0
next:
	for _, m := range f.Metric {
		have := map[string]string{}
		for _, l := range m.Label {
			have[l.GetName()] = l.GetValue()
		}
		for k, v := range want {
			if have[k] != v {
				continue next
			}
		}
		switch {
		case m.Counter != nil:
			sum += m.Counter.GetValue()
		case m.Gauge != nil:
			sum += m.Gauge.GetValue()
		case m.Histogram != nil:
			sum += float64(m.Histogram.GetSampleCount())
		}
	}
	return sum
}

// TestMetricsMove: the counters move as requests are made, and the text
// parses.
func TestMetricsMove(t *testing.T) {
	reg := promtext.NewRegistry()
	m := NewMetrics(reg)
	limited := 0
	f := newFixture(t, func(c *Config) {
		c.Metrics = m
		c.Limiter = &fakeLimiter{decide: func(key string, n int) ratelimit.Decision {
			if n > 3 {
				limited++
				return ratelimit.Decision{Limit: 3, RetryAfter: time.Second, Reset: time.Second}
			}
			return allowAll(key, n)
		}}
	})
	admin := f.srv.AdminHandler(reg)
	before := scrape(t, admin)
	if v := value(before, "unitd_catalog_last_reload_success_timestamp_seconds", nil); v == 0 {
		t.Error("the initial catalog load is not recorded as the last good one")
	}

	f.do(t, f.request(t, "GET", "/v1/health", "", "", ""))
	f.do(t, f.request(t, "GET", "/v1/convert?value=1&from=ft&to=m", f.keys["good"], "", ""))
	f.do(t, f.request(t, "GET", "/v1/convert?value=1&from=ft&to=K", f.keys["good"], "", ""))
	f.do(t, f.request(t, "POST", "/v1/batch", f.keys["good"], "application/json",
		`{"conversions":[{"value":"1","from":"m","to":"ft"},{"value":"2","from":"L","to":"gal"},{"value":"x","from":"m","to":"ft"}]}`))
	resp, _ := f.do(t, f.request(t, "GET", "/v1/convert?value=1&from=ft&to=m", f.keys["good"], "", ""))
	if resp.StatusCode != 429 {
		t.Fatalf("fourth keyed request: %d, want 429", resp.StatusCode)
	}
	f.srv.ReportReload(time.Now(), errors.New("broken.yaml:1:1: bad"))

	after := scrape(t, admin)
	checks := []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"unitd_http_requests_total", map[string]string{"route": "/v1/health", "status": "200", "method": "GET"}, 1},
		{"unitd_http_requests_total", map[string]string{"route": "/v1/convert", "status": "200"}, 1},
		{"unitd_http_requests_total", map[string]string{"route": "/v1/convert", "status": "422"}, 1},
		{"unitd_http_requests_total", map[string]string{"route": "/v1/batch", "status": "200"}, 1},
		{"unitd_http_request_duration_seconds", map[string]string{"route": "/v1/convert"}, 3},
		{"unitd_conversions_total", map[string]string{"category": "length", "outcome": "success"}, 2},
		{"unitd_conversions_total", map[string]string{"category": "volume", "outcome": "success"}, 1},
		{"unitd_conversions_total", map[string]string{"outcome": "INCOMPATIBLE_UNITS"}, 1},
		{"unitd_conversions_total", map[string]string{"outcome": "INVALID_VALUE"}, 1},
		{"unitd_batch_size", nil, 1},
		{"unitd_rate_limit_rejections_total", map[string]string{"route": "/v1/convert"}, 1},
		{"unitd_catalog_reloads_total", map[string]string{"result": "failure"}, 1},
		{"unitd_catalog_last_reload_successful", nil, 0},
	}
	for _, c := range checks {
		if got := value(after, c.name, c.labels) - value(before, c.name, c.labels); got != c.want {
			t.Errorf("%s%v moved by %v, want %v", c.name, c.labels, got, c.want)
		}
	}
	if limited != 1 {
		t.Errorf("limiter refused %d requests, want 1", limited)
	}
}

// TestReadiness: /readyz is 503 before a catalog, 200 once one serves and
// the store is ready, 503 while the store is not, and 503 once draining;
// /livez is 200 throughout.
func TestReadiness(t *testing.T) {
	storeErr := errors.New("key store not loaded")
	srv := New(Config{Ready: func() error { return storeErr }})
	admin := srv.AdminHandler(promtext.NewRegistry())
	get := func(path string) (int, string) {
		rec := httptest.NewRecorder()
		admin.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		return rec.Code, rec.Body.String()
	}
	if code, body := get("/readyz"); code != 503 || !strings.Contains(body, "catalog") {
		t.Errorf("before a catalog: %d %q", code, body)
	}
	srv.ApplyGraph(testGraph(t))
	if code, body := get("/readyz"); code != 503 || !strings.Contains(body, "key store") {
		t.Errorf("store not ready: %d %q", code, body)
	}
	storeErr = nil
	if code, _ := get("/readyz"); code != 200 {
		t.Errorf("ready: %d", code)
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	resp, err := http.Get("http://" + ln.Addr().String() + "/v1/health")
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if code, body := get("/readyz"); code != 503 || !strings.Contains(body, "draining") {
		t.Errorf("after shutdown began: %d %q", code, body)
	}
	if code, _ := get("/livez"); code != 200 {
		t.Errorf("/livez: %d", code)
	}
}

// TestHealthShowsLimiter: health says which limiter decides.
func TestHealthShowsLimiter(t *testing.T) {
	f := newFixture(t, func(c *Config) {
		c.Limits = func() LimitsStatus {
			return LimitsStatus{Backend: "local", Shared: false, Since: time.Date(2025, 6, 1, 11, 0, 0, 0, time.UTC), Error: "dial tcp: connection refused"}
		}
	})
	_, body := f.do(t, f.request(t, "GET", "/v1/health", "", "", ""))
	want := `"rate_limit":{"backend":"local","shared":false,"since":"2025-06-01T11:00:00Z","error":"dial tcp: connection refused"}`
	if !strings.Contains(string(body), want) {
		t.Errorf("health %s\nlacks %s", body, want)
	}
}

// TestTallyCounts: a batch's tally adds to the counters exactly what
// counting each conversion would, also when it holds more label pairs than
// it has rows and flushes in the middle.
func TestTallyCounts(t *testing.T) {
	reg := promtext.NewRegistry()
	m := NewMetrics(reg)
	var tl tally
	want := map[string]float64{}
	for i := range 200 {
		cat := "c" + strconv.Itoa(i%40) // 40 pairs: more than a tally's rows
		outcome := "success"
		if i%3 == 0 {
			outcome = "INVALID_VALUE"
		}
		tl.add(m, cat, outcome)
		want[cat+" "+outcome]++
	}
	tl.add(m, "", "UNKNOWN_UNIT")
	want["none UNKNOWN_UNIT"]++
	tl.flush(m)
	tl.flush(m) // a second flush adds nothing
	fams := scrape(t, New(Config{}).AdminHandler(reg))
	for k, n := range want {
		cat, outcome, _ := strings.Cut(k, " ")
		got := value(fams, "unitd_conversions_total", map[string]string{"category": cat, "outcome": outcome})
		if got != n {
			t.Errorf("%s: %v, want %v", k, got, n)
		}
	}
	var none tally
	none.add(nil, "length", "success") // a nil *Metrics records nothing
	none.flush(nil)
}
