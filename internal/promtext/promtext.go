// Package promtext keeps a process's metrics — counters, gauges and
// histograms, with or without labels — and serves them in Prometheus' text
// exposition format (version 0.0.4), byte for byte as the Prometheus Go
// client (client_golang's registry and promhttp) writes the same metrics,
// with the Go runtime's and the process's standard metrics beside them
// (go.go, process.go).
//
// It is what unitd needs of a metrics client and no more: a process that
// only converts a value links none of the Prometheus client, its protobuf
// types and their package initialisation, which cost a command-line
// conversion a sixth of its time. The tests compare its output with
// client_golang's for the same metrics and operations.
//
// Names, help texts, label names and bucket bounds are the program's own
// constants: registering a name twice, or a metric of bad shape, is a bug
// and panics, as client_golang's MustRegister does. Label values are
// escaped as the format asks.
package promtext

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Kind is the type of a family, as its # TYPE line says it.
type Kind string

// The kinds of metric families.
const (
	KindCounter   Kind = "counter"
	KindGauge     Kind = "gauge"
	KindHistogram Kind = "histogram"
	KindSummary   Kind = "summary"
)

// A Family is one metric family at a scrape: its samples, each with its
// label values in the order of Labels.
type Family struct {
	Name, Help string
	Kind       Kind
	Labels     []string // label names, sorted
	Samples    []Sample
}

// A Sample is one series of a family: a value for a counter or a gauge;
// buckets, a sum and a count for a histogram or a summary.
type Sample struct {
	Values  []string // label values, in the order of Family.Labels
	Value   float64
	Buckets []Bucket
	Sum     float64
	Count   uint64
}

// A Bucket is a histogram's cumulative count of the observations up to an
// upper bound (the +Inf bucket, the count, is implied), or a summary's
// value at a quantile.
type Bucket struct {
	Bound, Value float64
}

// A Collector adds families to a scrape: the Go runtime's (Go), the
// process's (Process).
type Collector interface {
	Collect(add func(Family))
}

// Registry holds the metrics a process serves.
type Registry struct {
	mu         sync.Mutex
	names      map[string]bool
	metrics    []collector // in registration order; a scrape sorts
	collectors []Collector
}

// collector is a registered metric: it writes its family at a scrape, or
// nothing when it has no series yet (a vector no label set was used of).
type collector interface {
	family() (Family, bool)
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{names: map[string]bool{}} }

func (r *Registry) add(name string, c collector) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.names[name] {
		panic("promtext: " + name + " is registered twice")
	}
	r.names[name] = true
	r.metrics = append(r.metrics, c)
}

// Register adds a collector of families of its own, such as Go or Process.
func (r *Registry) Register(c Collector) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.collectors = append(r.collectors, c)
}

// Gather returns every family with a series, sorted by name, each family's
// samples sorted by their label values.
func (r *Registry) Gather() []Family {
	r.mu.Lock()
	metrics, collectors := slices.Clone(r.metrics), slices.Clone(r.collectors)
	r.mu.Unlock()
	var fams []Family
	for _, m := range metrics {
		if f, ok := m.family(); ok {
			fams = append(fams, f)
		}
	}
	for _, c := range collectors {
		c.Collect(func(f Family) {
			if len(f.Samples) > 0 {
				fams = append(fams, f)
			}
		})
	}
	for _, f := range fams {
		sort.SliceStable(f.Samples, func(i, j int) bool { return slices.Compare(f.Samples[i].Values, f.Samples[j].Values) < 0 })
	}
	sort.SliceStable(fams, func(i, j int) bool { return fams[i].Name < fams[j].Name })
	return fams
}

// WriteText writes every family in the text exposition format.
func (r *Registry) WriteText(w io.Writer) error {
	b := bufio.NewWriter(w)
	for _, f := range r.Gather() {
		writeFamily(b, &f)
	}
	return b.Flush()
}

// ContentType is the media type of what WriteText writes, as promhttp
// names it.
const ContentType = "text/plain; version=0.0.4; charset=utf-8; escaping=underscores"

// Handler serves the registry's metrics as promhttp.HandlerFor does in the
// text format: gzip-compressed when the client accepts it.
func (r *Registry) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		h := w.Header()
		h.Set("Content-Type", ContentType)
		h.Add("Vary", "Accept")
		h.Add("Vary", "Accept-Encoding")
		var out io.Writer = w
		if acceptsGzip(req.Header.Get("Accept-Encoding")) {
			h.Set("Content-Encoding", "gzip")
			gz := gzip.NewWriter(w)
			defer gz.Close()
			out = gz
		}
		r.WriteText(out)
	})
}

// acceptsGzip reports whether an Accept-Encoding header accepts gzip.
func acceptsGzip(header string) bool {
	for part := range strings.SplitSeq(header, ",") {
		coding, params, _ := strings.Cut(part, ";")
		if strings.TrimSpace(coding) != "gzip" {
			continue
		}
		if q, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			v, err := strconv.ParseFloat(q, 64)
			return err == nil && v > 0
		}
		return true
	}
	return false
}

// The text format

var (
	helpEscaper  = strings.NewReplacer(`\`, `\\`, "\n", `\n`)
	valueEscaper = strings.NewReplacer(`\`, `\\`, "\n", `\n`, `"`, `\"`)
)

func writeFamily(w *bufio.Writer, f *Family) {
	w.WriteString("# HELP ")
	w.WriteString(f.Name)
	w.WriteByte(' ')
	helpEscaper.WriteString(w, f.Help)
	w.WriteString("\n# TYPE ")
	w.WriteString(f.Name)
	w.WriteByte(' ')
	w.WriteString(string(f.Kind))
	w.WriteByte('\n')
	for i := range f.Samples {
		s := &f.Samples[i]
		switch f.Kind {
		case KindHistogram:
			for _, b := range s.Buckets {
				writeSample(w, f, s, "_bucket", "le", b.Bound, b.Value)
			}
			writeSample(w, f, s, "_bucket", "le", math.Inf(1), float64(s.Count))
			writeSample(w, f, s, "_sum", "", 0, s.Sum)
			writeSample(w, f, s, "_count", "", 0, float64(s.Count))
		case KindSummary:
			for _, b := range s.Buckets {
				writeSample(w, f, s, "", "quantile", b.Bound, b.Value)
			}
			writeSample(w, f, s, "_sum", "", 0, s.Sum)
			writeSample(w, f, s, "_count", "", 0, float64(s.Count))
		default:
			writeSample(w, f, s, "", "", 0, s.Value)
		}
	}
}

// writeSample writes one line: the name with its suffix, the sample's
// labels and one more (le, quantile) when extra is not "", the value.
func writeSample(w *bufio.Writer, f *Family, s *Sample, suffix, extra string, extraValue, v float64) {
	w.WriteString(f.Name)
	w.WriteString(suffix)
	sep := byte('{')
	for i, name := range f.Labels {
		w.WriteByte(sep)
		w.WriteString(name)
		w.WriteString(`="`)
		valueEscaper.WriteString(w, s.Values[i])
		w.WriteByte('"')
		sep = ','
	}
	if extra != "" {
		w.WriteByte(sep)
		w.WriteString(extra)
		w.WriteString(`="`)
		writeFloat(w, extraValue)
		w.WriteByte('"')
		sep = ','
	}
	if sep == ',' {
		w.WriteByte('}')
	}
	w.WriteByte(' ')
	writeFloat(w, v)
	w.WriteByte('\n')
}

// writeFloat writes v as the Prometheus text format's writers do.
func writeFloat(w *bufio.Writer, v float64) {
	switch {
	case v == 1:
		w.WriteByte('1')
	case v == 0:
		w.WriteByte('0')
	case v == -1:
		w.WriteString("-1")
	case math.IsNaN(v):
		w.WriteString("NaN")
	case math.IsInf(v, 1):
		w.WriteString("+Inf")
	case math.IsInf(v, -1):
		w.WriteString("-Inf")
	default:
		var buf [32]byte
		w.Write(strconv.AppendFloat(buf[:0], v, 'g', -1, 64))
	}
}

// Metrics

// atomicFloat is a float64 updated atomically: integral additions count
// in a word of their own, as client_golang's counters do, so that the two
// print the same sums.
type atomicFloat struct {
	bits atomic.Uint64 // the float part
	n    atomic.Uint64 // the integral additions
}

func (a *atomicFloat) add(v float64) {
	if n := uint64(v); v >= 0 && float64(n) == v {
		a.n.Add(n)
		return
	}
	a.addFloat(v)
}

func (a *atomicFloat) addFloat(v float64) {
	for {
		old := a.bits.Load()
		if a.bits.CompareAndSwap(old, math.Float64bits(math.Float64frombits(old)+v)) {
			return
		}
	}
}

func (a *atomicFloat) set(v float64) {
	a.bits.Store(math.Float64bits(v))
}

func (a *atomicFloat) get() float64 {
	return math.Float64frombits(a.bits.Load()) + float64(a.n.Load())
}

// Counter is a value that only goes up.
type Counter struct{ v atomicFloat }

// Inc adds one.
func (c *Counter) Inc() { c.v.n.Add(1) }

// Add adds v, which must not be negative.
func (c *Counter) Add(v float64) {
	if v < 0 {
		panic("promtext: a counter cannot decrease")
	}
	c.v.add(v)
}

// Gauge is a value that goes up and down.
type Gauge struct{ v atomicFloat }

// Set sets the gauge to v.
func (g *Gauge) Set(v float64) { g.v.set(v) }

// Inc adds one.
func (g *Gauge) Inc() { g.v.addFloat(1) }

// Dec subtracts one.
func (g *Gauge) Dec() { g.v.addFloat(-1) }

// Histogram counts observations in buckets of upper bounds.
type Histogram struct {
	bounds []float64
	counts []atomic.Uint64 // per bucket, the last for above every bound
	sum    atomicFloat
}

func newHistogram(bounds []float64) *Histogram {
	return &Histogram{bounds: bounds, counts: make([]atomic.Uint64, len(bounds)+1)}
}

// Observe counts v in its bucket.
func (h *Histogram) Observe(v float64) {
	i := len(h.bounds)
	for j, b := range h.bounds {
		if v <= b {
			i = j
			break
		}
	}
	h.counts[i].Add(1)
	h.sum.addFloat(v)
}

func (h *Histogram) sample(values []string) Sample {
	s := Sample{Values: values, Buckets: make([]Bucket, len(h.bounds))}
	var n uint64
	for i := range h.counts {
		n += h.counts[i].Load()
		if i < len(h.bounds) {
			s.Buckets[i] = Bucket{h.bounds[i], float64(n)}
		}
	}
	s.Count, s.Sum = n, h.sum.get()
	return s
}

// desc is what every metric of a family has: its name, help and label
// names.
type desc struct {
	name, help string
	kind       Kind
	labels     []string // as given, the order of a vector's values
}

// sorted returns the label names sorted and, for values in the order
// given, a function that puts them in that order.
func (d *desc) sorted() ([]string, func([]string) []string) {
	names := slices.Clone(d.labels)
	order := make([]int, len(names))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return names[order[i]] < names[order[j]] })
	sortedNames := make([]string, len(names))
	for i, o := range order {
		sortedNames[i] = names[o]
	}
	return sortedNames, func(values []string) []string {
		out := make([]string, len(values))
		for i, o := range order {
			out[i] = values[o]
		}
		return out
	}
}

func newDesc(name, help string, kind Kind, labels []string) desc {
	if name == "" || help == "" {
		panic("promtext: a metric needs a name and a help text")
	}
	return desc{name: name, help: help, kind: kind, labels: labels}
}

// single is a metric without labels.
type single struct {
	desc
	value func() Sample
}

func (s *single) family() (Family, bool) {
	return Family{Name: s.name, Help: s.help, Kind: s.kind, Samples: []Sample{s.value()}}, true
}

// Counter registers a counter without labels.
func (r *Registry) Counter(name, help string) *Counter {
	c := new(Counter)
	r.add(name, &single{newDesc(name, help, KindCounter, nil), func() Sample { return Sample{Value: c.v.get()} }})
	return c
}

// Gauge registers a gauge without labels.
func (r *Registry) Gauge(name, help string) *Gauge {
	g := new(Gauge)
	r.add(name, &single{newDesc(name, help, KindGauge, nil), func() Sample { return Sample{Value: g.v.get()} }})
	return g
}

// GaugeFunc registers a gauge whose value f gives at each scrape.
func (r *Registry) GaugeFunc(name, help string, f func() float64) {
	r.add(name, &single{newDesc(name, help, KindGauge, nil), func() Sample { return Sample{Value: f()} }})
}

// Histogram registers a histogram without labels, of the upper bounds
// buckets (increasing; +Inf is implied).
func (r *Registry) Histogram(name, help string, buckets []float64) *Histogram {
	checkBuckets(buckets)
	h := newHistogram(buckets)
	r.add(name, &single{newDesc(name, help, KindHistogram, nil), func() Sample { return h.sample(nil) }})
	return h
}

func checkBuckets(b []float64) {
	if len(b) == 0 || !sort.Float64sAreSorted(b) || math.IsInf(b[len(b)-1], 1) {
		panic("promtext: histogram buckets must be increasing, without +Inf")
	}
}

// vec is a metric with labels: a child per set of label values, made on
// first use.
type vec[T any] struct {
	desc
	make   func() *T
	sample func(*T, []string) Sample

	mu       sync.RWMutex
	children map[string]*child[T]
}

type child[T any] struct {
	values []string
	m      *T
}

// with returns the child of the label values, making it first.
func (v *vec[T]) with(values []string) *T {
	if len(values) != len(v.labels) {
		panic(fmt.Sprintf("promtext: %s takes %d label values, got %d", v.name, len(v.labels), len(values)))
	}
	key := strings.Join(values, "\xff")
	v.mu.RLock()
	c, ok := v.children[key]
	v.mu.RUnlock()
	if ok {
		return c.m
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if c, ok := v.children[key]; ok {
		return c.m
	}
	c = &child[T]{values: slices.Clone(values), m: v.make()}
	v.children[key] = c
	return c.m
}

func (v *vec[T]) family() (Family, bool) {
	names, order := v.sorted()
	v.mu.RLock()
	defer v.mu.RUnlock()
	if len(v.children) == 0 {
		return Family{}, false
	}
	f := Family{Name: v.name, Help: v.help, Kind: v.kind, Labels: names}
	for _, c := range v.children {
		f.Samples = append(f.Samples, v.sample(c.m, order(c.values)))
	}
	return f, true
}

func newVec[T any](name, help string, kind Kind, labels []string, make func() *T, sample func(*T, []string) Sample) *vec[T] {
	if len(labels) == 0 {
		panic("promtext: a vector needs labels")
	}
	return &vec[T]{desc: newDesc(name, help, kind, slices.Clone(labels)), make: make, sample: sample, children: map[string]*child[T]{}}
}

// CounterVec is a counter per set of label values.
type CounterVec struct{ v *vec[Counter] }

// With returns the counter of the label values, in the order the labels
// were registered.
func (c *CounterVec) With(values ...string) *Counter { return c.v.with(values) }

// CounterVec registers a counter with labels.
func (r *Registry) CounterVec(name, help string, labels ...string) *CounterVec {
	v := newVec(name, help, KindCounter, labels, func() *Counter { return new(Counter) },
		func(c *Counter, values []string) Sample { return Sample{Values: values, Value: c.v.get()} })
	r.add(name, v)
	return &CounterVec{v}
}

// HistogramVec is a histogram per set of label values.
type HistogramVec struct{ v *vec[Histogram] }

// With returns the histogram of the label values, in the order the labels
// were registered.
func (h *HistogramVec) With(values ...string) *Histogram { return h.v.with(values) }

// HistogramVec registers a histogram with labels.
func (r *Registry) HistogramVec(name, help string, buckets []float64, labels ...string) *HistogramVec {
	checkBuckets(buckets)
	v := newVec(name, help, KindHistogram, labels, func() *Histogram { return newHistogram(buckets) },
		func(h *Histogram, values []string) Sample { return h.sample(values) })
	r.add(name, v)
	return &HistogramVec{v}
}
