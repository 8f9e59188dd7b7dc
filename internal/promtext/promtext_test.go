package promtext

import (
	"bytes"
	"compress/gzip"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// serve returns what h answers to GET /metrics with the header h sets.
func serve(t *testing.T, h http.Handler, header map[string]string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest("GET", "/metrics", nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 200 {
		t.Fatalf("/metrics: %d %s", rec.Code, rec.Body)
	}
	return rec
}

// TestTextMatchesClientGolang: the same metrics, registered here and in
// client_golang's registry and put through the same random operations,
// are served byte for byte alike, with the same media type: counters fed
// whole and fractional amounts, gauges, gauge functions, histograms with
// observations on, between and beyond their bounds, label names given out
// of order, label values and help texts that need escaping, and a vector
// no label set was used of (left out by both).
func TestTextMatchesClientGolang(t *testing.T) {
	theirs, ours := prometheus.NewRegistry(), NewRegistry()
	const quoteHelp = "Help with a \\ backslash,\na new line and \"quotes\"."
	buckets := []float64{.0001, .00025, .001, .5, 1, 2.5}

	type counterPair struct {
		theirs *prometheus.CounterVec
		ours   *CounterVec
	}
	requests := counterPair{
		prometheus.NewCounterVec(prometheus.CounterOpts{Name: "x_requests_total", Help: "Requests."}, []string{"route", "method", "status"}),
		ours.CounterVec("x_requests_total", "Requests.", "route", "method", "status"),
	}
	escaped := counterPair{
		prometheus.NewCounterVec(prometheus.CounterOpts{Name: "x_escaped_total", Help: quoteHelp}, []string{"v"}),
		ours.CounterVec("x_escaped_total", quoteHelp, "v"),
	}
	unused := counterPair{
		prometheus.NewCounterVec(prometheus.CounterOpts{Name: "x_unused_total", Help: "Never counted."}, []string{"a"}),
		ours.CounterVec("x_unused_total", "Never counted.", "a"),
	}
	latencyTheirs := prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "x_latency_seconds", Help: "Latency.", Buckets: buckets}, []string{"route"})
	latencyOurs := ours.HistogramVec("x_latency_seconds", "Latency.", buckets, "route")
	sizeTheirs := prometheus.NewHistogram(prometheus.HistogramOpts{Name: "x_size", Help: "Sizes.", Buckets: []float64{1, 2, 5, 10}})
	sizeOurs := ours.Histogram("x_size", "Sizes.", []float64{1, 2, 5, 10})
	gaugeTheirs := prometheus.NewGauge(prometheus.GaugeOpts{Name: "x_in_flight", Help: "In flight."})
	gaugeOurs := ours.Gauge("x_in_flight", "In flight.")
	setTheirs := prometheus.NewGauge(prometheus.GaugeOpts{Name: "a_last_time_seconds", Help: "A time."})
	setOurs := ours.Gauge("a_last_time_seconds", "A time.")
	plainTheirs := prometheus.NewCounter(prometheus.CounterOpts{Name: "x_plain_total", Help: "Plain."})
	plainOurs := ours.Counter("x_plain_total", "Plain.")
	var fv float64
	theirs.MustRegister(requests.theirs, escaped.theirs, unused.theirs, latencyTheirs, sizeTheirs, gaugeTheirs, setTheirs, plainTheirs,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "x_func", Help: "A function."}, func() float64 { return fv }))
	ours.GaugeFunc("x_func", "A function.", func() float64 { return fv })

	r := rand.New(rand.NewPCG(1, 2))
	routes := []string{"/v1/convert", "/v1/batch", "/v1/units/:unit", "unmatched"}
	values := []string{`a"b`, `c\d`, "e\nf", "plain", "ünïcode"}
	observations := []float64{0, .0001, .00015, .00025, .3, .5, 1, 2.5, 3, 1e9, -1, math.Inf(1), 1e-12, 7.25}
	compare := func(step int) {
		t.Helper()
		want := serve(t, promhttp.HandlerFor(theirs, promhttp.HandlerOpts{}), nil)
		got := serve(t, ours.Handler(), nil)
		if got.Body.String() != want.Body.String() {
			t.Fatalf("after %d operations the text differs:\n--- client_golang\n%s\n--- promtext\n%s", step, want.Body, got.Body)
		}
		if g, w := got.Header().Get("Content-Type"), want.Header().Get("Content-Type"); g != w {
			t.Fatalf("Content-Type %q, client_golang's %q", g, w)
		}
	}
	compare(0)
	for i := range 3000 {
		switch r.IntN(9) {
		case 0:
			route, method, status := routes[r.IntN(len(routes))], []string{"GET", "POST"}[r.IntN(2)], []string{"200", "404", "429"}[r.IntN(3)]
			requests.theirs.WithLabelValues(route, method, status).Inc()
			requests.ours.With(route, method, status).Inc()
		case 1:
			v := values[r.IntN(len(values))]
			add := []float64{1, 3, 0.5, 1e-3, 12.75, 0}[r.IntN(6)]
			escaped.theirs.WithLabelValues(v).Add(add)
			escaped.ours.With(v).Add(add)
		case 2:
			route, v := routes[r.IntN(len(routes))], observations[r.IntN(len(observations))]
			latencyTheirs.WithLabelValues(route).Observe(v)
			latencyOurs.With(route).Observe(v)
		case 3:
			v := float64(r.IntN(120))
			sizeTheirs.Observe(v)
			sizeOurs.Observe(v)
		case 4:
			gaugeTheirs.Inc()
			gaugeOurs.Inc()
		case 5:
			gaugeTheirs.Dec()
			gaugeOurs.Dec()
		case 6:
			v := r.Float64() * 2e9
			setTheirs.Set(v)
			setOurs.Set(v)
		case 7:
			plainTheirs.Inc()
			plainOurs.Inc()
		default:
			fv = []float64{0, 1, -1, 0.1, 1e21, math.NaN(), -3.5e-7}[r.IntN(7)]
		}
		if i%250 == 0 {
			compare(i + 1)
		}
	}
	compare(3000)
}

// TestHandlerGzip: a client that accepts gzip gets the same text
// compressed, and the answer varies by what was accepted, as promhttp's.
func TestHandlerGzip(t *testing.T) {
	reg := NewRegistry()
	reg.CounterVec("x_total", "X.", "a").With("b").Add(3)
	plain := serve(t, reg.Handler(), nil)
	zipped := serve(t, reg.Handler(), map[string]string{"Accept-Encoding": "gzip, deflate"})
	if zipped.Header().Get("Content-Encoding") != "gzip" || plain.Header().Get("Content-Encoding") != "" {
		t.Fatalf("Content-Encoding %q and %q", zipped.Header().Get("Content-Encoding"), plain.Header().Get("Content-Encoding"))
	}
	zr, err := gzip.NewReader(zipped.Body)
	if err != nil {
		t.Fatal(err)
	}
	text, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if string(text) != plain.Body.String() || !strings.Contains(string(text), `x_total{a="b"} 3`) {
		t.Errorf("gzipped %q, plain %q", text, plain.Body)
	}
	if v := zipped.Header().Values("Vary"); !slices.Equal(v, []string{"Accept", "Accept-Encoding"}) {
		t.Errorf("Vary %q", v)
	}
}

func TestAcceptsGzip(t *testing.T) {
	for _, tt := range []struct {
		header string
		want   bool
	}{
		{"", false},
		{"gzip", true},
		{"deflate, gzip;q=0.5", true},
		{"gzip;q=0", false},
		{"gzip; q=0.0", false},
		{"identity", false},
		{"x-gzip", false},
		{"br, gzip ;q=1.0", true},
	} {
		if got := acceptsGzip(tt.header); got != tt.want {
			t.Errorf("acceptsGzip(%q) = %v, want %v", tt.header, got, tt.want)
		}
	}
}

// TestRuntimeAndProcessMatchClientGolang: the Go runtime's and the
// process's families have client_golang's names, help texts, types and
// series, and equal values where they cannot move between two reads.
func TestRuntimeAndProcessMatchClientGolang(t *testing.T) {
	theirs := prometheus.NewRegistry()
	theirs.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	ours := NewRegistry()
	ours.Register(Go())
	ours.Register(Process())
	want := serve(t, promhttp.HandlerFor(theirs, promhttp.HandlerOpts{}), nil).Body.String()
	got := serve(t, ours.Handler(), nil).Body.String()
	sample := regexp.MustCompile(`^([^ ]+) (.+)$`)
	split := func(text string) (meta, series []string, values map[string]string) {
		values = map[string]string{}
		for line := range strings.SplitSeq(strings.TrimSpace(text), "\n") {
			if strings.HasPrefix(line, "#") {
				meta = append(meta, line)
				continue
			}
			m := sample.FindStringSubmatch(line)
			if m == nil {
				t.Fatalf("not a sample: %q", line)
			}
			series = append(series, m[1])
			values[m[1]] = m[2]
		}
		return meta, series, values
	}
	wantMeta, wantSeries, wantValues := split(want)
	gotMeta, gotSeries, gotValues := split(got)
	if !slices.Equal(gotMeta, wantMeta) {
		t.Errorf("# HELP and # TYPE lines differ:\n--- client_golang\n%s\n--- promtext\n%s", strings.Join(wantMeta, "\n"), strings.Join(gotMeta, "\n"))
	}
	if !slices.Equal(gotSeries, wantSeries) {
		t.Errorf("series differ:\n--- client_golang\n%s\n--- promtext\n%s", strings.Join(wantSeries, "\n"), strings.Join(gotSeries, "\n"))
	}
	for _, s := range []string{`go_info{version="` + runtime.Version() + `"}`, "go_gc_gogc_percent", "go_gc_gomemlimit_bytes",
		"go_sched_gomaxprocs_threads", "process_max_fds", "process_virtual_memory_max_bytes", "process_start_time_seconds"} {
		if gotValues[s] == "" || gotValues[s] != wantValues[s] {
			t.Errorf("%s: %q, client_golang %q", s, gotValues[s], wantValues[s])
		}
	}
}

// TestProcessReadsProc: the process collector reads /proc/PID files as
// proc(5) lays them out: a command name with spaces and parentheses,
// unlimited limits, the IpExt lines of netstat; a file it cannot read
// leaves out its metrics only.
func TestProcessReadsProc(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("stat", "4242 (un (it) d) S 1 4242 4242 0 -1 4194560 900 0 0 0 250 130 0 0 20 0 9 0 12345 1333620736 20005 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n")
	write("limits", "Limit                     Soft Limit           Hard Limit           Units     \n"+
		"Max cpu time              unlimited            unlimited            seconds   \n"+
		"Max open files            20000                20000                files     \n"+
		"Max address space         unlimited            unlimited            bytes     \n")
	write("net/netstat", "TcpExt: SyncookiesSent SyncookiesRecv\nTcpExt: 0 0\nIpExt: InNoRoutes InOctets OutOctets\nIpExt: 0 69204850641 67735377718\n")
	write("fd/0", "")
	write("fd/1", "")
	got := map[string]float64{}
	processCollector{dir: dir}.Collect(func(f Family) { got[f.Name] = f.Samples[0].Value })
	boot, ok := bootTime()
	if !ok {
		t.Fatal("cannot read btime of /proc/stat")
	}
	want := map[string]float64{
		"process_cpu_seconds_total":            3.8,
		"process_virtual_memory_bytes":         1333620736,
		"process_resident_memory_bytes":        float64(20005 * os.Getpagesize()),
		"process_start_time_seconds":           float64(boot) + 123.45,
		"process_open_fds":                     2,
		"process_max_fds":                      20000,
		"process_virtual_memory_max_bytes":     math.MaxUint64,
		"process_network_receive_bytes_total":  69204850641,
		"process_network_transmit_bytes_total": 67735377718,
	}
	for name, w := range want {
		if g, ok := got[name]; !ok || g != w {
			t.Errorf("%s = %v (%v), want %v", name, g, ok, w)
		}
	}
	os.Remove(filepath.Join(dir, "limits"))
	got = map[string]float64{}
	processCollector{dir: dir}.Collect(func(f Family) { got[f.Name] = f.Samples[0].Value })
	if _, ok := got["process_max_fds"]; ok || len(got) != len(want)-2 {
		t.Errorf("without limits: %v", got)
	}
}

// TestConcurrentCounting: counters, gauges and histograms add every
// update made from many goroutines at once.
func TestConcurrentCounting(t *testing.T) {
	reg := NewRegistry()
	c := reg.CounterVec("x_total", "X.", "a")
	g := reg.Gauge("x_gauge", "G.")
	h := reg.Histogram("x_hist", "H.", []float64{1, 2})
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := range 1000 {
				c.With([]string{"p", "q"}[w%2]).Inc()
				c.With("p").Add(0.5)
				g.Inc()
				h.Observe(float64(i % 3))
				if i%100 == 0 {
					reg.WriteText(io.Discard)
				}
			}
		})
	}
	wg.Wait()
	var buf bytes.Buffer
	reg.WriteText(&buf)
	for _, line := range []string{`x_total{a="p"} 8000`, `x_total{a="q"} 4000`, "x_gauge 8000", `x_hist_bucket{le="1"} 5336`, "x_hist_count 8000", "x_hist_sum 7992"} {
		if !strings.Contains(buf.String(), line+"\n") {
			t.Errorf("no line %q in\n%s", line, buf.String())
		}
	}
}

func TestRegisteringTwicePanics(t *testing.T) {
	reg := NewRegistry()
	reg.Counter("x_total", "X.")
	defer func() {
		if recover() == nil {
			t.Error("a second x_total was registered")
		}
	}()
	reg.Gauge("x_total", "X again.")
}
