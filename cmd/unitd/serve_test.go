package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/unitd/unitd/account"
	"github.com/unitd/unitd/apikey"
	"github.com/unitd/unitd/catalog"
	"github.com/unitd/unitd/server/ratelimit"
)

// testUnit is appended to length.yaml so that tests can change a factor
// and watch the change arrive.
const testUnit = `
  - symbol: zz
    name: test span
    plural: test spans
    system: test
    definition: {factor: %d, unit: m}
    exact: true
    source: test
    examples:
      - 1 zz = %d m
`

type testDaemon struct {
	url, key string
	dir      string
	length   []byte // the shipped length.yaml
	client   *http.Client
	d        *daemon
	stop     func() // shuts the server down gracefully; idempotent
}

// parseServeFlags reads the flags of unitd serve as runServe does.
func parseServeFlags(args []string, stderr io.Writer) (serveConfig, error) {
	return serveFlags(newCall(serveCommand, "unitd serve", args, nil, io.Discard, stderr))
}

// startDaemon runs unitd serve on a copy of the shipped catalog in a temp
// directory, with one test key.
func startDaemon(t testing.TB) *testDaemon { return startDaemonWith(t, nil) }

// startDaemonWith is startDaemon with the serve configuration edited.
func startDaemonWith(t testing.TB, edit func(*serveConfig)) *testDaemon {
	t.Helper()
	dir := t.TempDir()
	catDir := filepath.Join(dir, "catalog")
	if err := os.CopyFS(catDir, catalog.Embedded()); err != nil {
		t.Fatal(err)
	}
	length, err := fs.ReadFile(catalog.Embedded(), "length.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// --keys FILE.json names the store FILE.db beside it.
	keyFile := filepath.Join(dir, "keys.json")
	cfg := serveConfig{
		Addr: "127.0.0.1:0", Catalog: catDir, Keys: keyFile, Env: apikey.EnvTest,
		RateLimit:     ratelimit.Rate{N: 1_000_000, Per: time.Second},
		AuthFailLimit: ratelimit.Rate{N: 1_000_000, Per: time.Second},
		MaxBody:       64 << 10,
	}
	if edit != nil {
		edit(&cfg)
	}
	key := newStoreKey(t, cfg.storeFlags())
	logger := slog.New(slog.DiscardHandler)
	d, err := newDaemon(cfg, logger, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	started := time.Now()
	go func() { done <- d.run(ctx, ln) }()
	// The server serves once its key source has refreshed (and reported
	// what it serves, so that unitd keys counts it as running).
	waitFor(t, "the server's first key refresh", func() bool { return d.keys.Status().CheckedAt.After(started) })
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Error(err)
			}
		})
	}
	t.Cleanup(stop)
	return &testDaemon{url: "http://" + ln.Addr().String(), key: key, dir: catDir, length: length,
		client: &http.Client{Timeout: 10 * time.Second}, d: d, stop: stop}
}

// newStoreKey creates a test key in the store that sf names.
func newStoreKey(t testing.TB, sf storeFlags) string {
	t.Helper()
	ctx := context.Background()
	db, err := sf.open(ctx, slog.New(slog.DiscardHandler), true)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	acct, err := accountByName(ctx, db, account.OperatorAccountName, true)
	if err != nil {
		t.Fatal(err)
	}
	key, _, err := db.CreateKey(ctx, acct.ID, "test", apikey.EnvTest, nil, account.Operator)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// setFactor rewrites length.yaml with the test unit at factor f.
func (d *testDaemon) setFactor(t testing.TB, f int) {
	t.Helper()
	d.writeLength(t, fmt.Sprintf(testUnit, f, f))
}

// writeLength writes length.yaml with unit added at the end of its units.
func (d *testDaemon) writeLength(t testing.TB, unit string) {
	t.Helper()
	units, rest, _ := strings.Cut(string(d.length), "\nambiguous:")
	if rest != "" {
		rest = "\nambiguous:" + rest
	}
	if err := os.WriteFile(filepath.Join(d.dir, "length.yaml"), []byte(units+unit+rest), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (d *testDaemon) get(t testing.TB, path string, v any) int {
	t.Helper()
	req, _ := http.NewRequest("GET", d.url+path, nil)
	req.Header.Set("Authorization", "Bearer "+d.key)
	resp, err := d.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if v != nil {
		if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
			t.Fatal(err)
		}
	}
	return resp.StatusCode
}

type healthReply struct {
	Catalog struct {
		Version    string
		LastReload struct {
			OK    bool
			Error *string
		} `json:"last_reload"`
	}
}

type convertReply struct {
	Data struct {
		Result struct{ Value string }
	}
}

// waitFor polls until cond holds. How soon a change shows depends on the
// machine's load, not on the code under test, so it sets no deadline of its
// own: it gives up, naming what it waited for, only just before go test's
// -timeout would stop the test binary.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	out := outOfTime(t)
	for !cond() {
		select {
		case <-out:
			t.Fatalf("still waiting for %s when the test binary's time ran out", what)
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// outOfTime returns a channel that is closed 5 s before go test's -timeout
// stops the test binary (never, without a timeout), so that a test that
// waits for something can still say what it was.
func outOfTime(t testing.TB) <-chan struct{} {
	d, ok := t.(interface{ Deadline() (time.Time, bool) })
	if !ok {
		return nil
	}
	deadline, ok := d.Deadline()
	if !ok {
		return nil
	}
	c := make(chan struct{})
	timer := time.AfterFunc(time.Until(deadline)-5*time.Second, func() { close(c) })
	t.Cleanup(func() { timer.Stop() })
	return c
}

func (d *testDaemon) zz(t testing.TB) string {
	var r convertReply
	if code := d.get(t, "/v1/convert?value=1&from=zz&to=m", &r); code != http.StatusOK {
		return fmt.Sprintf("status %d", code)
	}
	return r.Data.Result.Value
}

// TestHotReloadUnderLoad edits the catalog of a running server while
// clients convert without pause: no request may fail, no batch may mix
// two catalogs, a broken edit keeps the last good catalog serving and shows
// in /v1/health with file and line, and the next good edit clears it. The
// test moves to the next edit only once batches have been answered with
// the current catalog and single conversions have run since the edit, so
// every version is served under load however the goroutines are scheduled.
func TestHotReloadUnderLoad(t *testing.T) {
	d := startDaemon(t)
	d.setFactor(t, 1)
	waitFor(t, "zz = 1 m", func() bool { return d.zz(t) == "1" })

	var failures, requests, singles atomic.Int64
	var mu sync.Mutex // guards failed and batches
	var failed []string
	batches := map[string]int{} // batch answers by the value of zz in them
	stop := make(chan struct{})
	var wg sync.WaitGroup
	batch := `{"conversions":[` + strings.TrimSuffix(strings.Repeat(`{"value":"1","from":"zz","to":"m"},`, 50), ",") + `]}`
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			client := &http.Client{Timeout: 10 * time.Second}
			for {
				select {
				case <-stop:
					return
				default:
				}
				var req *http.Request
				if i%2 == 0 {
					req, _ = http.NewRequest("GET", d.url+"/v1/convert?value=12.5&from=ft&to=m", nil)
				} else {
					req, _ = http.NewRequest("POST", d.url+"/v1/batch", strings.NewReader(batch))
					req.Header.Set("Content-Type", "application/json")
				}
				req.Header.Set("Authorization", "Bearer "+d.key)
				requests.Add(1)
				resp, err := client.Do(req)
				if err != nil {
					failures.Add(1)
					continue
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				problem := ""
				switch {
				case resp.StatusCode != http.StatusOK:
					problem = fmt.Sprintf("status %d: %s", resp.StatusCode, body)
				case i%2 == 0 && !strings.Contains(string(body), `"value":"3.81"`):
					problem = "wrong result: " + string(body)
				case i%2 == 1 && mixed(body):
					problem = "batch mixed two catalogs: " + string(body)
				}
				mu.Lock()
				switch {
				case problem != "":
					failures.Add(1)
					failed = append(failed, problem)
				case i%2 == 0:
					singles.Add(1)
				default:
					batches[batchValue(body)]++
				}
				mu.Unlock()
			}
		}()
	}
	// underLoad waits until batches have been answered with zz = want and
	// single conversions have run since the edit.
	underLoad := func(want string) {
		t.Helper()
		since := singles.Load()
		waitFor(t, "batches answered with zz = "+want+" m", func() bool {
			mu.Lock()
			defer mu.Unlock()
			return batches[want] > 0
		})
		waitFor(t, "single conversions with zz = "+want+" m", func() bool { return singles.Load() > since })
	}

	var h healthReply
	underLoad("1")
	for f := 2; f <= 5; f++ {
		d.setFactor(t, f)
		want := fmt.Sprint(f)
		waitFor(t, "zz = "+want+" m", func() bool { return d.zz(t) == want })
		underLoad(want)
	}
	// A broken edit: the unit refers to a unit that does not exist.
	d.writeLength(t, strings.Replace(fmt.Sprintf(testUnit, 9, 9), "unit: m}", "unit: mtr}", 1))
	waitFor(t, "health to report the broken edit", func() bool {
		d.get(t, "/v1/health", &h)
		return !h.Catalog.LastReload.OK
	})
	mu.Lock()
	before := batches["5"]
	mu.Unlock()
	waitFor(t, "batches answered after the broken edit", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return batches["5"] > before
	})
	units, _, _ := strings.Cut(string(d.length), "\nambiguous:")
	line := strings.Count(units, "\n") + 6 // the definition line of the test unit
	// Public health gives the message with file and line; the values of
	// the catalog (here "mtr") stay in the log.
	if e := h.Catalog.LastReload.Error; e == nil || !strings.HasPrefix(*e, fmt.Sprintf(`length.yaml:%d:17: unit "…": definition refers to unknown unit "…"`, line)) || strings.Contains(*e, "mtr") {
		t.Errorf("health error = %v, want line %d and no catalog text", derefString(h.Catalog.LastReload.Error), line)
	}
	if got := d.zz(t); got != "5" {
		t.Errorf("after a broken edit zz = %s, want the last good 5", got)
	}
	d.setFactor(t, 6)
	waitFor(t, "the fix to apply", func() bool { return d.zz(t) == "6" })
	underLoad("6")
	d.get(t, "/v1/health", &h)
	if !h.Catalog.LastReload.OK || h.Catalog.LastReload.Error != nil {
		t.Errorf("health after the fix: %+v", h.Catalog.LastReload)
	}

	close(stop)
	wg.Wait()
	if n := failures.Load(); n > 0 {
		t.Errorf("%d of %d requests failed during reloads; first: %v", n, requests.Load(), failed[:min(3, len(failed))])
	}
	mu.Lock()
	defer mu.Unlock()
	for v := range batches {
		if !slices.Contains([]string{"1", "2", "3", "4", "5", "6"}, v) {
			t.Errorf("a batch answered zz = %q m, a value no catalog version had", v)
		}
	}
}

// batchValue returns the first result value of a batch answer.
func batchValue(body []byte) string {
	var r struct {
		Data []struct {
			Result struct{ Value string }
		}
	}
	if json.Unmarshal(body, &r) != nil || len(r.Data) == 0 {
		return ""
	}
	return r.Data[0].Result.Value
}

// mixed reports whether a batch answer holds more than one result value.
func mixed(body []byte) bool {
	var r struct {
		Data []struct {
			Result struct{ Value string }
		}
	}
	if json.Unmarshal(body, &r) != nil || len(r.Data) == 0 {
		return true
	}
	for _, item := range r.Data {
		if item.Result.Value != r.Data[0].Result.Value {
			return true
		}
	}
	return false
}

// TestRevokedKeyRefused revokes a key with the CLI while the server runs.
func TestRevokedKeyRefused(t *testing.T) {
	d := startDaemon(t)
	if code := d.get(t, "/v1/convert?value=1&from=m&to=ft", nil); code != http.StatusOK {
		t.Fatalf("status %d before revoking", code)
	}
	list, err := listKeys(t, filepath.Join(filepath.Dir(d.dir), "keys.json"))
	if err != nil || len(list) != 1 {
		t.Fatal(list, err)
	}
	if code, _, stderr := runCLI(t, "", "keys", "revoke", "--keys", filepath.Join(filepath.Dir(d.dir), "keys.json"), list[0].ID); code != 0 {
		t.Fatal(stderr)
	}
	waitFor(t, "the revoked key to be refused", func() bool {
		return d.get(t, "/v1/convert?value=1&from=m&to=ft", nil) == http.StatusUnauthorized
	})
}

// BenchmarkSaveToVisible measures how long an edit of a catalog file
// takes to show in conversions of a running server (debounce included).
func BenchmarkSaveToVisible(b *testing.B) {
	d := startDaemon(b)
	f := 1
	for b.Loop() {
		f++
		want := fmt.Sprint(f)
		d.setFactor(b, f)
		waitFor(b, "zz = "+want, func() bool { return d.zz(b) == want })
	}
}

func derefString(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

// TestPublicRateLimitFlag: --public-rate-limit (or its variable) limits
// the routes that need no key per client address.
func TestPublicRateLimitFlag(t *testing.T) {
	t.Setenv("UNITD_PUBLIC_RATE_LIMIT", "5/h")
	t.Setenv("UNITD_STORE", filepath.Join(t.TempDir(), "unitd.db")) // not the package directory
	cfg, err := parseServeFlags(nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.PublicLimit != (ratelimit.Rate{N: 5, Per: time.Hour}) {
		t.Errorf("from the environment: %+v", cfg.PublicLimit)
	}
	cfg, err = parseServeFlags([]string{"--public-rate-limit", "2/m"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := parseServeFlags([]string{"--public-rate-limit", "lots"}, io.Discard); err == nil {
		t.Error("a malformed rate was accepted")
	}
	d, err := newDaemon(cfg, slog.New(slog.DiscardHandler), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var codes []int
	for range 3 {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", "/v1/units/fet", nil)
		d.srv.Handler().ServeHTTP(rec, req)
		codes = append(codes, rec.Code)
	}
	if want := []int{404, 404, 429}; !slices.Equal(codes, want) {
		t.Errorf("statuses %v, want %v", codes, want)
	}
}

// TestServeBadCatalogSaysSoOnce: a --catalog that does not load stops
// start-up with one clear message, and nothing claims that a last good
// catalog keeps serving (there is none).
func TestServeBadCatalogSaysSoOnce(t *testing.T) {
	broken := t.TempDir()
	if err := os.WriteFile(filepath.Join(broken, "length.yaml"), []byte("category: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ dir, want string }{
		{filepath.Join(t.TempDir(), "missing"), "is not a directory"},
		{broken, "length.yaml:"},
	} {
		code, _, errOut := runCLI(t, "", "serve", "--addr", "127.0.0.1:0", "--catalog", tt.dir, "--admin-addr", "off",
			"--keys", filepath.Join(t.TempDir(), "keys.db"))
		if code != 1 || strings.Count(errOut, tt.want) != 1 || strings.Contains(errOut, "keeps serving") {
			t.Errorf("serve --catalog %s: exit %d, stderr:\n%s\nwant exit 1 and %q once, no \"keeps serving\"", tt.dir, code, errOut, tt.want)
		}
	}
}

// TestServeRefusesBrokenCatalogAtStart: with no last good catalog, a
// catalog that does not load is an error at start-up, not a crash.
func TestServeRefusesBrokenCatalogAtStart(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "length.yaml"), []byte("category: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := serveConfig{
		Addr: "127.0.0.1:0", Catalog: dir, Store: filepath.Join(t.TempDir(), "unitd.db"), Env: apikey.EnvTest,
		RateLimit: ratelimit.Rate{N: 10, Per: time.Second}, AuthFailLimit: ratelimit.Rate{N: 10, Per: time.Second},
		MaxBody: 64 << 10,
	}
	d, err := newDaemon(cfg, slog.New(slog.DiscardHandler), io.Discard)
	if err == nil || d != nil {
		t.Fatalf("newDaemon with a broken catalog = %v, %v; want an error", d, err)
	}
	if !strings.Contains(err.Error(), "length.yaml:") {
		t.Errorf("error %q does not say where", err)
	}
}
