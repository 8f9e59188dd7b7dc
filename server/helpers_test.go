package server

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/unitd/unitd/apikey"
	"github.com/unitd/unitd/catalog"
	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/internal/testlog"
	"github.com/unitd/unitd/server/ratelimit"
)

// testGraph is a small fixed catalog, so tests and the OpenAPI golden file
// do not move when the shipped catalog does.
func testGraph(t testing.TB) *engine.Graph {
	t.Helper()
	g, errs := engine.Build(testSpecOf(t))
	if len(errs) > 0 {
		t.Fatalf("test graph: %v", errs)
	}
	return g
}

// testSpecOf is the catalog of testGraph.
func testSpecOf(t testing.TB) engine.Spec {
	t.Helper()
	src := "server test catalog"
	spec := engine.Spec{Version: "test-1", Categories: []engine.CategorySpec{
		{
			ID: "length", Name: "Length", Description: "Distance.", Dimension: map[string]int{"L": 1}, Base: "m",
			Units: []engine.UnitSpec{
				{Symbol: "m", Name: "metre", Plural: "metres", Aliases: []string{"meter", "meters"}, System: "SI", Exact: true, Source: src,
					Prefixes: &engine.PrefixSpec{Set: "si", Only: []string{"k", "c"}}},
				{Symbol: "ft", Name: "foot", Plural: "feet", Symbols: []string{"′"}, System: "international", Exact: true, Source: src,
					Definition: engine.DefinitionSpec{Factor: "0.3048", Unit: "m"},
					Examples:   []engine.ExampleSpec{{Value: "12.5", From: "ft", To: "m", Result: "3.81"}}},
				{Symbol: "in", Name: "inch", Plural: "inches", System: "international", Exact: true, Source: src,
					Definition: engine.DefinitionSpec{Factor: "2.54", Unit: "cm"}},
			},
		},
		{
			ID: "temperature", Name: "Temperature", Dimension: map[string]int{"Θ": 1}, Base: "K", Minimum: "0",
			Units: []engine.UnitSpec{
				{Symbol: "K", Name: "kelvin", Plural: "kelvins", System: "SI", Exact: true, Source: src},
				{Symbol: "degC", Name: "degree Celsius", Plural: "degrees Celsius", Symbols: []string{"°C"}, Aliases: []string{"celsius"}, System: "SI", Exact: true, Source: src,
					Definition: engine.DefinitionSpec{Factor: "1", Offset: "273.15", Unit: "K"}},
			},
		},
		{
			ID: "speed", Name: "Speed", Dimension: map[string]int{"L": 1, "T": -1}, Base: "m/s",
			Units: []engine.UnitSpec{
				{Symbol: "m/s", Name: "metre per second", Plural: "metres per second", System: "SI", Exact: true, Source: src},
				{Symbol: "km/h", Name: "kilometre per hour", Plural: "kilometres per hour", Aliases: []string{"kph"}, System: "metric", Exact: true, Source: src,
					Definition: engine.DefinitionSpec{Factor: "5/18", Unit: "m/s"}},
			},
		},
		{
			ID: "volume", Name: "Volume", Dimension: map[string]int{"L": 3}, Base: "L", SIFactor: "1/1000",
			Units: []engine.UnitSpec{
				{Symbol: "L", Name: "litre", Plural: "litres", System: "metric", Exact: true, Source: src},
				{Symbol: "gal", Name: "US gallon", Plural: "US gallons", System: "US", Exact: true, Source: src,
					Definition: engine.DefinitionSpec{Factor: "3.785411784", Unit: "L"}},
				{Symbol: "gal_imp", Name: "imperial gallon", Plural: "imperial gallons", System: "imperial", Exact: true, Source: src,
					Definition: engine.DefinitionSpec{Factor: "4.54609", Unit: "L"}},
			},
			Ambiguous: []engine.AmbiguousSpec{{Name: "gallon", Candidates: []string{"gal", "gal_imp"}}},
		},
		{
			ID: "time", Name: "Time", Dimension: map[string]int{"T": 1}, Base: "s",
			Units: []engine.UnitSpec{
				{Symbol: "s", Name: "second", Plural: "seconds", System: "SI", Exact: true, Source: src},
				{Symbol: "h", Name: "hour", Plural: "hours", System: "SI", Exact: true, Source: src,
					Definition: engine.DefinitionSpec{Factor: "3600", Unit: "s"}},
			},
		},
		{
			ID: "fuel_economy", Name: "Fuel economy", Dimension: map[string]int{"L": -2}, Base: "km/L",
			Units: []engine.UnitSpec{
				{Symbol: "km/L", Name: "kilometre per litre", Plural: "kilometres per litre", System: "metric", Exact: true, Source: src},
				{Symbol: "L/100km", Name: "litre per 100 kilometres", Plural: "litres per 100 kilometres", System: "metric", Exact: true, Source: src,
					Definition: engine.DefinitionSpec{Unit: "km/L", To: "100 / x", From: "100 / x"}},
			},
		},
	}}
	return spec
}

// fakeKeys is a fixed key set.
type fakeKeys struct{ set *apikey.Set }

func (f fakeKeys) Current() *apikey.Set { return f.set }

// testKeys makes a set with one usable, one revoked and one expired test
// key, and one live key. It returns the set and the keys by name.
func testKeys(t testing.TB) (*apikey.Set, map[string]string) {
	t.Helper()
	past := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	made := map[string]string{}
	var recs []apikey.Record
	for _, k := range []struct {
		name, env string
		revoked   bool
		expired   bool
	}{{"good", "test", false, false}, {"revoked", "test", true, false}, {"expired", "test", false, true}, {"live", "live", false, false}} {
		key, err := apikey.Generate(k.env)
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.Sum256([]byte(key))
		rec := apikey.Record{ID: "key_" + k.name, Name: k.name, Env: k.env, Prefix: key[:12], CreatedAt: past, Hash: hex.EncodeToString(h[:])}
		if k.revoked {
			rec.RevokedAt = &past
		}
		if k.expired {
			rec.ExpiresAt = &past
		}
		recs = append(recs, rec)
		made[k.name] = key
	}
	return apikey.NewSet(recs), made
}

// fakeLimiter answers Take with decide.
type fakeLimiter struct {
	mu     sync.Mutex // guards taken
	taken  []string
	decide func(key string, n int) ratelimit.Decision
}

var _ ratelimit.Limiter = (*fakeLimiter)(nil)

func (f *fakeLimiter) Take(key string) ratelimit.Decision {
	f.mu.Lock()
	f.taken = append(f.taken, key)
	n := len(f.taken)
	f.mu.Unlock()
	return f.decide(key, n)
}

func allowAll(string, int) ratelimit.Decision {
	return ratelimit.Decision{Allowed: true, Limit: 600, Remaining: 599, Reset: 100 * time.Millisecond}
}

type fixture struct {
	srv  *Server
	ts   *httptest.Server
	keys map[string]string
	lim  *fakeLimiter
	logs *testlog.Buffer
}

// shippedFixture is a server of the shipped catalog (its unit
// preferences, code tables and substances included) and a validator of its
// answers against /openapi.json.
func shippedFixture(t *testing.T) (*fixture, *validator) {
	t.Helper()
	f := newFixture(t, nil)
	f.srv.ApplyGraph(shippedGraph(t))
	return f, newValidator(t, f)
}

// shippedGraph is the shipped catalog, compiled once for the tests of the
// package (both passes of TestMain): a graph is immutable, and compiling
// it under the race detector takes seconds.
func shippedGraph(t testing.TB) *engine.Graph {
	t.Helper()
	g, errs := loadShipped()
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return g
}

var loadShipped = sync.OnceValues(func() (*engine.Graph, []error) { return catalog.Load(catalog.Embedded()) })

// newFixture starts the real handler on httptest.NewServer.
func newFixture(t testing.TB, edit func(*Config)) *fixture {
	t.Helper()
	set, ks := testKeys(t)
	lim := &fakeLimiter{decide: allowAll}
	logs := &testlog.Buffer{}
	cfg := Config{
		Keys: fakeKeys{set}, Env: "test", Limiter: lim, Version: "1.2.3",
		Logger: slog.New(slog.NewJSONHandler(logs, nil)),
		Now:    func() time.Time { return time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC) },
	}
	if edit != nil {
		edit(&cfg)
	}
	srv := New(cfg)
	srv.ApplyGraph(testGraph(t))
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	return &fixture{srv: srv, ts: ts, keys: ks, lim: lim, logs: logs}
}

// do sends a request and returns the response with its body read.
func (f *fixture) do(t testing.TB, req *http.Request) (*http.Response, []byte) {
	t.Helper()
	resp, err := f.ts.Client().Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading body: %v", err)
	}
	return resp, body
}

func (f *fixture) request(t testing.TB, method, target, key, contentType, body string) *http.Request {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, f.ts.URL+target, rd)
	if err != nil {
		t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	return req
}
