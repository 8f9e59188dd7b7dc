package client_test

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/unitd/unitd/client"
	"github.com/unitd/unitd/server/ratelimit"
)

func newClient(t *testing.T, s *testServer, opts ...client.Option) *client.Client {
	t.Helper()
	c, err := client.New(s.URL, append([]client.Option{client.WithKey(s.Key)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestNew(t *testing.T) {
	for _, tc := range []struct {
		base string
		ok   bool
	}{
		{"http://127.0.0.1:8080", true},
		{"https://unitd.example.com/", true},
		{"https://unitd.example.com/api/unitd", true},
		{"127.0.0.1:8080", false},
		{"ftp://unitd.example.com", false},
		{"http://", false},
		{"http://unitd.example.com/?x=1", false},
		{"http://unitd.example.com/#top", false},
		{"http://[::1", false},
	} {
		_, err := client.New(tc.base)
		if (err == nil) != tc.ok {
			t.Errorf("New(%q) = %v, want ok %v", tc.base, err, tc.ok)
		}
	}
}

// wantError checks that err is an *Error with the status and code.
func wantError(t *testing.T, what string, err error, status int, code string) *client.Error {
	t.Helper()
	e, ok := errors.AsType[*client.Error](err)
	if !ok {
		t.Fatalf("%s: %v (%T), want an *client.Error %s", what, err, err, code)
	}
	if e.Status != status || e.Code != code || client.Code(err) != code || e.Message == "" {
		t.Errorf("%s: %d %s %q, want %d %s", what, e.Status, e.Code, e.Message, status, code)
	}
	if status != 0 && len(e.RequestID) < 8 {
		t.Errorf("%s: request id %q", what, e.RequestID)
	}
	return e
}

func TestConvert(t *testing.T) {
	s := startServer(t, nil)
	c := newClient(t, s)
	for _, tc := range []struct {
		name  string
		req   client.Request
		value string // the result's value, or its parts joined with spaces
		unit  string
		exact bool
	}{
		{"decimal", client.Request{Value: "12.5", From: "ft", To: "m"}, "3.81", "m", true},
		{"digits beyond a float's", client.Request{Value: "0.1000000000000000055511151231257827", From: "m", To: "mm", Precision: 50}, "100.0000000000000055511151231257827", "mm", true},
		{"rounded once", client.Request{Value: "72", From: "degF", To: "degC", Precision: 6}, "22.2222", "degC", false},
		{"precision input", client.Request{Value: "5.50", From: "m", To: "cm", Precision: client.PrecisionInput}, "550", "cm", true},
		{"alias and expression", client.Request{Value: "60", From: "mile/hour", To: "km/h"}, "96.56064", "km/h", true},
		{"mixed unit in", client.Request{Value: "5 3", From: "ft+in", To: "cm"}, "160.02", "cm", true},
		{"mixed unit out", client.Request{Value: "160.02", From: "cm", To: "ft+in"}, "5 ft 3 in", "ft+in", true},
		{"free text", client.Request{Quantity: "5 ft 3 in", To: "cm"}, "160.02", "cm", true},
		{"question", client.Request{Q: "100 km/h to m/s", Precision: 6}, "27.7778", "m/s", false},
		{"substance", client.Request{Value: "100", From: "mg/dL", To: "mmol/L", Substance: "glucose", Precision: 4}, "5.551", "mmol/L", false},
		{"unit preference", client.Request{Value: "1.75", From: "m", To: "auto", Usage: "person-height", Region: "GB", Precision: 2}, "5 ft 8.9 in", "ft+in", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			conv, err := c.Convert(t.Context(), tc.req)
			if err != nil {
				t.Fatal(err)
			}
			got := conv.Result.Value
			if conv.Result.Parts != nil {
				var parts []string
				for _, p := range conv.Result.Parts {
					parts = append(parts, p.Value+" "+p.Unit)
				}
				got = strings.Join(parts, " ")
			}
			if got != tc.value || conv.Result.Unit != tc.unit || conv.Exact != tc.exact || conv.Category == "" || conv.Explain != nil {
				t.Errorf("= %s %s exact %v (%+v), want %s %s exact %v", got, conv.Result.Unit, conv.Exact, conv, tc.value, tc.unit, tc.exact)
			}
		})
	}
}

func TestExplain(t *testing.T) {
	s := startServer(t, nil)
	conv, err := newClient(t, s).Explain(t.Context(), client.Request{Value: "1", From: "degC", To: "degF"})
	if err != nil {
		t.Fatal(err)
	}
	x := conv.Explain
	if x == nil || x.Kind != "affine" || x.Factor != "1.8" || x.Offset != "32" || x.CatalogVersion == "" || len(x.Steps) == 0 || conv.Result.Value != "33.8" {
		t.Errorf("explain = %+v, result %+v", x, conv.Result)
	}
}

func TestErrors(t *testing.T) {
	s := startServer(t, nil)
	for _, tc := range []struct {
		name   string
		opts   []client.Option
		req    client.Request
		status int
		code   string
		check  func(*client.Error) bool
	}{
		{"unknown unit", nil, client.Request{Value: "1", From: "meterz", To: "ft"}, 400, client.CodeUnknownUnit,
			func(e *client.Error) bool { return slices.Equal(e.Suggestions, []string{"m"}) }},
		{"ambiguous unit", nil, client.Request{Value: "1", From: "gallon", To: "L"}, 400, client.CodeAmbiguousUnit,
			func(e *client.Error) bool {
				return slices.Contains(e.Candidates, "gal") && slices.Contains(e.Candidates, "gal_imp")
			}},
		{"incompatible units", nil, client.Request{Value: "1", From: "W", To: "J"}, 422, client.CodeIncompatibleUnits,
			func(e *client.Error) bool {
				return e.Details["from_dimension"] == "M L^2 T^-3" && e.Details["to_dimension"] == "M L^2 T^-2"
			}},
		{"invalid value", nil, client.Request{Value: "1,5", From: "m", To: "ft"}, 400, client.CodeInvalidValue, nil},
		{"out of range", nil, client.Request{Value: "-500", From: "degC", To: "K"}, 422, client.CodeValueOutOfRange, nil},
		{"bad precision", nil, client.Request{Value: "1", From: "m", To: "ft", Precision: 51}, 400, client.CodeInvalidRequest, nil},
		{"no key", []client.Option{client.WithKey("")}, client.Request{Value: "1", From: "m", To: "ft"}, 401, client.CodeUnauthorized, nil},
		{"unknown key", []client.Option{client.WithKey("uc_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")}, client.Request{Value: "1", From: "m", To: "ft"}, 401, client.CodeInvalidAPIKey, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := newClient(t, s, tc.opts...).Convert(t.Context(), tc.req)
			e := wantError(t, "Convert", err, tc.status, tc.code)
			if tc.check != nil && !tc.check(e) {
				t.Errorf("%+v", e)
			}
			if want := "unitd: " + tc.code + ": " + e.Message + " (request " + e.RequestID + ")"; e.Error() != want {
				t.Errorf("Error() = %q, want %q", e.Error(), want)
			}
		})
	}
}

func TestRateLimit(t *testing.T) {
	s := startServer(t, nil)
	s.lim.set(func(string) ratelimit.Decision {
		return ratelimit.Decision{Allowed: false, Limit: 600, Reset: time.Minute, RetryAfter: 2500 * time.Millisecond}
	})
	_, err := newClient(t, s).Convert(t.Context(), client.Request{Value: "1", From: "m", To: "ft"})
	if e := wantError(t, "Convert", err, 429, client.CodeRateLimitExceeded); e.RetryAfter != 3*time.Second {
		t.Errorf("RetryAfter = %v, want 3s (Retry-After rounds up)", e.RetryAfter)
	}
}

// TestNotTheServersError: an answer that is not the server's JSON error
// (a proxy's page) is an *Error with its status and no code.
func TestNotTheServersError(t *testing.T) {
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		fmt.Fprint(w, "<html>upstream is down</html>")
	}))
	defer proxy.Close()
	c, err := client.New(proxy.URL)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Health(t.Context())
	e, ok := errors.AsType[*client.Error](err)
	if !ok || e.Status != 502 || e.Code != "" || e.Message != "<html>upstream is down</html>" || client.Code(err) != "" ||
		e.Error() != "unitd: 502 Bad Gateway: <html>upstream is down</html>" {
		t.Errorf("err = %#v", err)
	}
}

func TestCanceled(t *testing.T) {
	s := startServer(t, nil)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := newClient(t, s).Convert(ctx, client.Request{Value: "1", From: "m", To: "ft"}); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

// TestBasePath: a server behind a path prefix, with a symbol that holds a
// slash.
func TestBasePath(t *testing.T) {
	s := startServer(t, func(h http.Handler) http.Handler { return http.StripPrefix("/unitd", h) })
	c, err := client.New(s.URL + "/unitd/")
	if err != nil {
		t.Fatal(err)
	}
	u, err := c.Unit(t.Context(), "km/h")
	if err != nil || u.Symbol != "km/h" {
		t.Fatalf("Unit(km/h) = %+v, %v", u, err)
	}
}

func TestBatch(t *testing.T) {
	s := startServer(t, nil)
	c := newClient(t, s)
	items, err := c.Batch(t.Context(), []client.Request{
		{Value: "12.5", From: "ft", To: "m"},
		{Value: "abc", From: "ft", To: "m"},
		{Value: "1", From: "fet", To: "m"},
		{Value: "10", From: "km", To: "mi"},
	}, client.BatchOptions{Precision: 5, Locale: "de"})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ value, text, code string }{{"3.81", "3,81 m", ""}, {"", "", client.CodeInvalidValue}, {"", "", client.CodeUnknownUnit}, {"6.2137", "6,2137 mi", ""}}
	if len(items) != len(want) {
		t.Fatalf("%d items", len(items))
	}
	for i, w := range want {
		it := items[i]
		code := ""
		if it.Err != nil {
			code = it.Err.Code
			if it.Err.Status != 0 || it.Err.Message == "" {
				t.Errorf("item %d: %+v", i, it.Err)
			}
		}
		if it.Index != i || it.Result.Value != w.value || it.Result.Text != w.text || code != w.code {
			t.Errorf("item %d = %+v (%v), want %s %q %s", i, it.Conversion, it.Err, w.value, w.text, w.code)
		}
	}
	if items[1].Input.Value != "abc" || items[2].Err.Suggestions == nil {
		t.Errorf("failed items = %+v, %+v", items[1], items[2].Err)
	}

	// The batch as a whole.
	for _, tc := range []struct {
		name string
		reqs []client.Request
		code string
	}{
		{"empty", nil, client.CodeInvalidRequest},
		{"over the limit", slices.Repeat([]client.Request{{Value: "1", From: "m", To: "ft"}}, 101), client.CodeBatchLimitExceeded},
	} {
		_, err := c.Batch(t.Context(), tc.reqs, client.BatchOptions{})
		wantError(t, tc.name, err, 400, tc.code)
	}
}

// rows is n requests, every seventh of them failing.
func rows(n int) []client.Request {
	reqs := make([]client.Request, n)
	for i := range reqs {
		reqs[i] = client.Request{Value: strconv.Itoa(i) + ".5", From: "ft", To: "m"}
		if i%7 == 3 {
			reqs[i].Value = "x" + strconv.Itoa(i)
		}
	}
	return reqs
}

// TestStream: a stream answers every row as a batch does, in order.
func TestStream(t *testing.T) {
	s := startServer(t, nil)
	c := newClient(t, s)
	reqs := rows(250)
	var want []client.Item
	for chunk := range slices.Chunk(reqs, 100) {
		items, err := c.Batch(t.Context(), chunk, client.BatchOptions{Precision: 8})
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range items {
			it.Index = len(want)
			want = append(want, it)
		}
	}
	var got []client.Item
	for it, err := range c.Stream(t.Context(), slices.Values(reqs), client.BatchOptions{Precision: 8}) {
		if err != nil {
			t.Fatalf("after %d items: %v", len(got), err)
		}
		got = append(got, it)
	}
	if len(got) != len(want) {
		t.Fatalf("%d items, want %d", len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.Index != i || g.Result.Value != w.Result.Value || g.Result.Unit != w.Result.Unit || g.Input.Value != w.Input.Value || (g.Err == nil) != (w.Err == nil) || g.Err != nil && g.Err.Code != w.Err.Code {
			t.Errorf("item %d = %+v %v, want %+v %v", i, g.Conversion, g.Err, w.Conversion, w.Err)
		}
	}
}

// TestStreamOptions: the batch-wide options of a stream travel in its
// query, and a stream of nothing is answered with nothing.
func TestStreamOptions(t *testing.T) {
	s := startServer(t, nil)
	c := newClient(t, s)
	for _, tc := range []struct {
		name string
		reqs iter.Seq[client.Request]
		opts client.BatchOptions
		want []string // value and text of each item
	}{
		{"no requests", nil, client.BatchOptions{}, nil},
		{"precision input", slices.Values([]client.Request{{Value: "5.50", From: "m", To: "cm"}, {Value: "2", From: "in", To: "cm", Precision: 10}}),
			client.BatchOptions{Precision: client.PrecisionInput}, []string{"550 ", "5.08 "}},
		{"locale and explain", slices.Values([]client.Request{{Value: "1.5", From: "km", To: "m"}}),
			client.BatchOptions{Locale: "de", UnitDisplay: "long", Explain: true}, []string{"1500 1.500 Meter"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for it, err := range c.Stream(t.Context(), tc.reqs, tc.opts) {
				if err != nil || it.Err != nil || it.Explain == nil && tc.opts.Explain {
					t.Fatalf("item %d = %+v, %v, %v", len(got), it, it.Err, err)
				}
				got = append(got, it.Result.Value+" "+it.Result.Text)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("= %q, want %q", got, tc.want)
			}
		})
	}
}

// TestStreamStopsEarly: breaking out of the loop ends the request and the
// reading of an endless source.
func TestStreamStopsEarly(t *testing.T) {
	s := startServer(t, nil)
	c := newClient(t, s)
	stopped := make(chan struct{})
	endless := func(yield func(client.Request) bool) {
		defer close(stopped)
		for i := 0; ; i++ {
			if !yield(client.Request{Value: strconv.Itoa(i), From: "m", To: "cm"}) {
				return
			}
		}
	}
	n := 0
	for it, err := range c.Stream(t.Context(), endless, client.BatchOptions{}) {
		if err != nil || it.Index != n || it.Result.Value != strconv.Itoa(n*100) {
			t.Fatalf("item %d = %+v, %v", n, it, err)
		}
		if n++; n == 5 {
			break
		}
	}
	select {
	case <-stopped:
	case <-time.After(time.Minute):
		t.Fatal("the source is still read after the loop ended")
	}
	// The client works on.
	if _, err := c.Convert(t.Context(), client.Request{Value: "1", From: "m", To: "cm"}); err != nil {
		t.Error(err)
	}
}

// TestStreamErrors: what ends a stream is the iteration's last error.
func TestStreamErrors(t *testing.T) {
	s := startServer(t, nil)

	// The request fails as a whole.
	var errs []error
	for _, err := range newClient(t, s, client.WithKey("")).Stream(t.Context(), slices.Values(rows(3)), client.BatchOptions{}) {
		errs = append(errs, err)
	}
	if len(errs) != 1 {
		t.Fatalf("%d yields, want 1", len(errs))
	}
	wantError(t, "no key", errs[0], 401, client.CodeUnauthorized)

	// The key's budget runs out after the first hundred lines: the
	// server ends the stream with RATE_LIMIT_EXCEEDED.
	taken := 0
	s.lim.set(func(string) ratelimit.Decision {
		if taken++; taken <= 1 {
			return ratelimit.Decision{Allowed: true, Limit: 600, Remaining: 1, Reset: time.Second}
		}
		return ratelimit.Decision{Allowed: false, Limit: 600, Reset: time.Minute, RetryAfter: 4 * time.Second}
	})
	items := 0
	var last error
	for it, err := range newClient(t, s).Stream(t.Context(), slices.Values(rows(250)), client.BatchOptions{}) {
		if err != nil {
			last = err
			break
		}
		if it.Index != items {
			t.Fatalf("item %d has index %d", items, it.Index)
		}
		items++
	}
	if items != 100 {
		t.Errorf("%d items before the limit, want 100", items)
	}
	if e := wantError(t, "rate limit", last, 0, client.CodeRateLimitExceeded); e.RetryAfter != 4*time.Second {
		t.Errorf("RetryAfter = %v", e.RetryAfter)
	}
}

// TestStreamCut: a stream whose connection ends before the meta line
// yields the items it has, then ErrIncomplete.
func TestStreamCut(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		items      int
		want       error
	}{
		{"cut before the meta line", `{"index":0,"status":"success","input":{"value":"1","unit":"m"},"result":{"value":"100","unit":"cm"},"category":"length","exact":true}` + "\n", 1, client.ErrIncomplete},
		{"cut mid-line", `{"index":0,"status":"success","input":{"value":"1","unit":"m"},"result":{"value":"100","unit":"cm"},"category":"length","exact":true}` + "\n" + `{"index":1,"sta`, 1, client.ErrIncomplete},
		{"meta line", `{"meta":{"total":0,"succeeded":0,"failed":0}}` + "\n", 0, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != "/v1/batch/stream" || r.Header.Get("Content-Type") != "application/x-ndjson" {
					http.Error(w, "wrong request", http.StatusBadRequest)
					return
				}
				w.Header().Set("Content-Type", "application/x-ndjson")
				fmt.Fprint(w, tc.body)
			}))
			defer ts.Close()
			c, err := client.New(ts.URL)
			if err != nil {
				t.Fatal(err)
			}
			items, errs := collect(c.Stream(t.Context(), slices.Values(rows(1)), client.BatchOptions{}))
			if len(items) != tc.items || tc.want == nil && len(errs) != 0 || tc.want != nil && (len(errs) != 1 || !errors.Is(errs[0], tc.want)) {
				t.Errorf("%d items, errors %v", len(items), errs)
			}
		})
	}
}

func collect(seq iter.Seq2[client.Item, error]) (items []client.Item, errs []error) {
	for it, err := range seq {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		items = append(items, it)
	}
	return items, errs
}

func TestDiscovery(t *testing.T) {
	s := startServer(t, nil)
	c, err := client.New(s.URL) // no key: the catalog is public
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()

	cats, err := c.Categories(ctx)
	if err != nil || !slices.ContainsFunc(cats, func(c client.Category) bool { return c.ID == "length" && c.BaseUnit == "m" && c.UnitCount > 10 }) {
		t.Errorf("Categories: %d, %v", len(cats), err)
	}
	cat, err := c.Category(ctx, "temperature")
	if err != nil || cat.Minimum != "0" || !slices.ContainsFunc(cat.Units, func(u client.Unit) bool { return u.Symbol == "degF" && u.Definition.Kind == "affine" }) {
		t.Errorf("Category(temperature) = %+v, %v", cat, err)
	}
	units, err := c.Units(ctx, client.UnitQuery{Category: "speed", Q: "km"})
	if err != nil || !slices.ContainsFunc(units, func(u client.Unit) bool { return u.Symbol == "km/h" }) ||
		slices.ContainsFunc(units, func(u client.Unit) bool { return u.Category != "speed" }) {
		t.Errorf("Units(speed, km): %d, %v", len(units), err)
	}

	for _, tc := range []struct {
		name, symbol, kind, factor string
		terms                      int
	}{
		{"feet", "ft", "linear", "12", 0},
		{"km/h", "km/h", "linear", "1000/3600", 0},
		{"°C", "degC", "affine", "1", 0},
		{"kg*m/s^2", "kg*m/s^2", "expression", "1", 2},
	} {
		u, err := c.Unit(ctx, tc.name)
		if err != nil || u.Symbol != tc.symbol || u.Definition.Kind != tc.kind || u.Definition.Factor != tc.factor || len(u.Terms) != tc.terms {
			t.Errorf("Unit(%q) = %+v, %v", tc.name, u, err)
		}
	}
	_, err = c.Unit(ctx, "meterz")
	if e := wantError(t, "Unit(meterz)", err, 404, client.CodeNotFound); !slices.Contains(e.Suggestions, "m") {
		t.Errorf("suggestions %v", e.Suggestions)
	}
	u, err := c.Units(ctx, client.UnitQuery{Q: "Stunde", Locale: "de"})
	if err != nil || !slices.ContainsFunc(u, func(u client.Unit) bool {
		return u.Symbol == "h" && u.DisplayName != nil && u.DisplayName.Long == "Stunden"
	}) {
		t.Errorf("Units(Stunde, de): %d, %v", len(u), err)
	}

	subs, err := c.Substances(ctx, "gluc")
	if err != nil || !slices.ContainsFunc(subs, func(s client.Substance) bool { return s.ID == "glucose" }) {
		t.Errorf("Substances(gluc): %d, %v", len(subs), err)
	}
	sub, err := c.Substance(ctx, "C6H12O6")
	if err != nil || sub.ID != "glucose" || sub.MolarMass == nil || !strings.HasSuffix(sub.MolarMass.Value, " g/mol") || sub.MolarMass.Source == "" {
		t.Errorf("Substance(C6H12O6) = %+v, %v", sub, err)
	}

	h, err := c.Health(ctx)
	if err != nil || h.Status != "ok" || h.Version != "client-test" || h.Catalog.Units < 1000 || !h.Catalog.LastReload.OK || h.Catalog.LoadedAt.IsZero() {
		t.Errorf("Health = %+v, %v", h, err)
	}
}
