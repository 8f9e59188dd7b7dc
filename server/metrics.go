package server

import (
	"strconv"
	"sync"
	"time"
	"unsafe"

	"github.com/unitd/unitd/internal/promtext"
)

// Metrics are the server's Prometheus metrics (package promtext). Label values come from
// small closed sets (route templates, status codes, categories of the
// catalog, error codes), never from what a client typed. A nil *Metrics
// records nothing.
type Metrics struct {
	requests     *promtext.CounterVec
	latency      *promtext.HistogramVec
	conversions  *promtext.CounterVec
	batchSize    *promtext.Histogram
	streams      *promtext.CounterVec
	streaming    *promtext.Gauge
	rejections   *promtext.CounterVec
	reloads      *promtext.CounterVec
	lastGoodLoad *promtext.Gauge
	reloadOK     *promtext.Gauge
	connRefusals *promtext.CounterVec
	panics       *promtext.CounterVec
	// successes and counters cache the conversion counters, of successes
	// by category and of any label pair: With joins and looks up its
	// labels on every call, which cost a fifth of a batch. Labels come
	// from closed sets, so the caches are bounded.
	successes sync.Map // category → *promtext.Counter
	counters  sync.Map // conversionLabels → *promtext.Counter
	// requestSeries caches the series of each request label set in the
	// same way; routes are templates and methods and statuses closed sets.
	requestSeries sync.Map // requestLabels → requestObservers
}

type requestLabels struct {
	route, method string
	status        int
}

type requestObservers struct {
	count   *promtext.Counter
	latency *promtext.Histogram
}

type conversionLabels struct{ category, outcome string }

// NewMetrics registers the server's metrics on reg.
func NewMetrics(reg *promtext.Registry) *Metrics {
	return &Metrics{
		requests: reg.CounterVec("unitd_http_requests_total",
			"HTTP requests answered, by route template, method and status code.",
			"route", "method", "status"),
		latency: reg.HistogramVec("unitd_http_request_duration_seconds",
			"Time from the request's arrival to the end of its answer, by route template.",
			[]float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
			"route"),
		conversions: reg.CounterVec("unitd_conversions_total",
			"Conversions (single or batch items) by category and outcome: success or the error code.",
			"category", "outcome"),
		batchSize: reg.Histogram("unitd_batch_size",
			"Items per accepted POST /v1/batch request.",
			[]float64{1, 2, 5, 10, 20, 50, 100}),
		streams: reg.CounterVec("unitd_batch_streams_total",
			"NDJSON batches (POST /v1/batch streams) by how they ended: complete, cut_off, rate_limited, revoked, timeout, line_limit, too_large, shutdown, client_gone (or panic, a bug). Their items count in unitd_conversions_total.",
			"end"),
		streaming: reg.Gauge("unitd_batch_streams_in_flight",
			"NDJSON batches being answered now."),
		rejections: reg.CounterVec("unitd_rate_limit_rejections_total",
			"Requests refused with 429 RATE_LIMIT_EXCEEDED, by route template.",
			"route"),
		reloads: reg.CounterVec("unitd_catalog_reloads_total",
			"Catalog reload attempts by result (success or failure).",
			"result"),
		lastGoodLoad: reg.Gauge("unitd_catalog_last_reload_success_timestamp_seconds",
			"Unix time of the last catalog load that compiled and is serving."),
		reloadOK: reg.Gauge("unitd_catalog_last_reload_successful",
			"1 if the last catalog reload attempt succeeded, 0 if the last good catalog is serving after a failure."),
		connRefusals: reg.CounterVec("unitd_connections_refused_total",
			"Connections closed at once on arrival: per_address (the address holds its maximum) or total (the server holds its maximum, none idle).",
			"reason"),
		panics: reg.CounterVec("unitd_panics_recovered_total",
			"Panics (bugs) recovered while converting one item or looking up one unit, by route template: each became that item's INTERNAL_ERROR, and the request's other items were answered.",
			"route"),
	}
}

// connRefused counts a connection refused for reason.
func (m *Metrics) connRefused(reason string) {
	if m == nil {
		return
	}
	m.connRefusals.With(reason).Inc()
}

// panicked counts a panic recovered in one item of a request to route.
func (m *Metrics) panicked(route string) {
	if m == nil {
		return
	}
	if route == "" {
		route = "unmatched"
	}
	m.panics.With(route).Inc()
}

// statusLabel is the label of a status code: its three digits, or ""
// for what is no HTTP status. A request's series are cached by their
// labels (requestSeriesOf), so a status is formatted once per series.
func statusLabel(status int) string {
	if status < 100 || status > 599 {
		return ""
	}
	return strconv.Itoa(status)
}

func (m *Metrics) request(route, method string, status int, d time.Duration) {
	if m == nil {
		return
	}
	if route == "" {
		route = "unmatched"
	}
	obs := m.requestSeriesOf(route, method, status)
	obs.count.Inc()
	obs.latency.Observe(d.Seconds())
	if status == 429 {
		m.rejections.With(route).Inc()
	}
}

// requestSeriesOf returns the cached series of one request label set.
func (m *Metrics) requestSeriesOf(route, method string, status int) requestObservers {
	if route == "" {
		route = "unmatched"
	}
	switch method {
	case "GET", "POST", "HEAD", "PUT", "DELETE", "PATCH", "OPTIONS":
	default:
		method = "other"
	}
	key := requestLabels{route, method, status}
	var obs requestObservers
	if v, ok := m.requestSeries.Load(key); ok {
		obs = v.(requestObservers)
	} else {
		obs = requestObservers{m.requests.With(route, method, statusLabel(status)), m.latency.With(route)}
		m.requestSeries.Store(key, obs)
	}
	return obs
}

// streamStarted counts an NDJSON batch in flight until streamEnded.
func (m *Metrics) streamStarted() {
	if m == nil {
		return
	}
	m.streaming.Inc()
}

// streamEnded counts the request of an NDJSON batch that ended as end;
// one ended by the rate limit counts as a rejection.
func (m *Metrics) streamEnded(route, method string, status int, end string) {
	if m == nil {
		return
	}
	m.streaming.Dec()
	m.requestSeriesOf(route, method, status).count.Inc()
	m.streams.With(end).Inc()
	if end == endRateLimited {
		m.rejections.With(route).Inc()
	}
}

// conversion counts one conversion; category is "" when the units were
// not resolved.
func (m *Metrics) conversion(category, outcome string) {
	if m == nil {
		return
	}
	m.counter(category, outcome).Inc()
}

// counter is the conversion counter of one label pair.
func (m *Metrics) counter(category, outcome string) *promtext.Counter {
	if category == "" {
		category = "none"
	}
	if outcome == "success" {
		if c, ok := m.successes.Load(category); ok {
			return c.(*promtext.Counter)
		}
		c := m.conversions.With(category, outcome)
		m.successes.Store(category, c)
		return c
	}
	key := conversionLabels{category, outcome}
	if c, ok := m.counters.Load(key); ok {
		return c.(*promtext.Counter)
	}
	c := m.conversions.With(category, outcome)
	m.counters.Store(key, c)
	return c
}

// tally counts a batch's conversions by label pair, to add them to the
// shared counters in one step per pair (flush): a batch of 100 items of a
// dozen categories touches the counters a dozen times, not 100. Labels
// come from the graph and the error codes, never from the request, so a
// tally may outlive the request's buffers.
type tally struct {
	n    int
	rows [16]tallyRow
}

type tallyRow struct {
	category, outcome string
	count             int
}

// add counts one conversion, flushing first when the tally is full.
func (t *tally) add(m *Metrics, category, outcome string) {
	if m == nil {
		return
	}
	for i := range t.n {
		// Labels are the graph's and the error codes' own strings, so
		// comparing where they lie is enough; two rows for equal labels
		// at different addresses would add to the same counter anyway.
		if r := &t.rows[i]; sameString(r.category, category) && sameString(r.outcome, outcome) {
			r.count++
			return
		}
	}
	if t.n == len(t.rows) {
		t.flush(m)
	}
	t.rows[t.n] = tallyRow{category, outcome, 1}
	t.n++
}

// sameString reports whether a and b are the same bytes in memory.
func sameString(a, b string) bool {
	return len(a) == len(b) && unsafe.StringData(a) == unsafe.StringData(b)
}

// flush adds the counts to m's counters and empties the tally.
func (t *tally) flush(m *Metrics) {
	if m != nil {
		for _, r := range t.rows[:t.n] {
			m.counter(r.category, r.outcome).Add(float64(r.count))
		}
	}
	t.n = 0
}

func (m *Metrics) batch(n int) {
	if m == nil {
		return
	}
	m.batchSize.Observe(float64(n))
}

// applied records a catalog that compiled and now serves.
func (m *Metrics) applied(at time.Time) {
	if m == nil {
		return
	}
	m.lastGoodLoad.Set(float64(at.UnixNano()) / 1e9)
}

// reload records the outcome of a reload attempt.
func (m *Metrics) reload(ok bool) {
	if m == nil {
		return
	}
	if ok {
		m.reloads.With("success").Inc()
		m.reloadOK.Set(1)
		return
	}
	m.reloads.With("failure").Inc()
	m.reloadOK.Set(0)
}
