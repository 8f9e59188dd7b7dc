// Command loadbench is the HTTP load part of `make bench`: it measures how
// many requests per second the real unitd HTTP stack serves on 127.0.0.1,
// under wrk, beside a bare net/http handler that answers with a body of the
// same size, so that the ratio says what unitd's own work costs over the
// floor that net/http and the loopback set.
//
// It starts, in this process, the full server (the embedded catalog, API key
// authentication, a rate limiter that never refuses, metrics, request ids, JSON
// decoding and encoding) through server.Serve, and a bare server with the
// same http.Server timeouts whose handler drains the request body and writes
// a precomputed answer: the same bytes, Content-Type and headers that unitd
// sent for that request. Three scenarios are run:
//
//   - convert:   GET /v1/convert?value=12.5&from=ft&to=m (target ≥ 0.6× bare)
//   - batch:     POST /v1/batch with 100 varied conversions: linear, affine,
//     aliases, rational formulas such as L/100km → mpg (target ≥ 0.7× bare)
//   - convert-redis: GET /v1/convert through a unitd whose per-key limits
//     are in Redis (one script round trip per request, redis-server on a
//     Unix socket) against the same unitd limiting in memory, as the ratio
//     and the p99 latency Redis adds (target ≥ 0.7×); skipped with a note
//     when redis-server is not installed
//   - batch-dBm: the same batch with one pair in 25 replaced by dBm → mW,
//     a formula with a non-integer power of ten (target ≥ 0.4× bare); it is
//     apart because such items cost a thousand times an ordinary one and
//     would otherwise hide every other cost of the batch path
//
// Each scenario is run bare, unitd, bare, unitd (-rounds pairs), all with the
// same wrk settings and the same Authorization header; the best requests/s
// of each side is compared. Before any load, unitd's answers are checked
// (status 200, 12.5 ft = 3.81 m, all 100 batch items succeed), and wrk's
// "Non-2xx or 3xx responses" line must be absent from every unitd run, so the
// bench cannot end up measuring error answers.
//
// Machines are shared and noisy, so a result below its target is marked in
// the table but does not change the exit status; only a failure to run the
// bench at all (no wrk, a wrong answer, errors under load) exits non-zero.
//
// Usage:
//
//	go run ./tools/loadbench [-d 10s] [-c 32] [-t 2] [-rounds 2] [-cpuprofile prefix]
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/unitd/unitd/apikey"
	"github.com/unitd/unitd/catalog"
	"github.com/unitd/unitd/internal/batchmix"
	"github.com/unitd/unitd/internal/promtext"
	"github.com/unitd/unitd/server"
	"github.com/unitd/unitd/server/ratelimit"
	"github.com/unitd/unitd/server/ratelimit/redislimit"
)

// scenario is one request shape, run against unitd and the bare handler.
type scenario struct {
	name   string
	method string
	path   string // with query
	body   []byte // POST body, nil for GET
	target float64
	// baseline and subject, when set, replace the bare handler and unitd:
	// convert-redis compares unitd with Redis-backed limits (subject)
	// against the same unitd limiting in memory (baseline).
	baseline, subject string

	// Filled in by prepare: unitd's answer, replayed by the bare handler.
	header http.Header
	answer []byte
}

// result is what one wrk run reported.
type result struct {
	rps       float64
	requests  int64
	non2xx    int64
	sockErrs  string // "" when wrk printed no socket errors
	latency   map[string]string
	profiled  bool
	rawOutput string
}

type options struct {
	duration time.Duration
	conns    int
	threads  int
	rounds   int
	timeout  time.Duration
	wrk      string
	profile  string
	verbose  bool
	only     string
}

func main() {
	log.SetFlags(0)
	log.SetPrefix("loadbench: ")
	var o options
	flag.DurationVar(&o.duration, "d", 10*time.Second, "duration of each wrk run")
	flag.IntVar(&o.conns, "c", 32, "wrk connections")
	flag.IntVar(&o.threads, "t", 2, "wrk threads")
	flag.IntVar(&o.rounds, "rounds", 2, "bare/unitd pairs per scenario")
	flag.DurationVar(&o.timeout, "timeout", 2*time.Second, "wrk request timeout")
	flag.StringVar(&o.wrk, "wrk", "wrk", "path of the wrk binary")
	flag.StringVar(&o.profile, "cpuprofile", "", "write a CPU profile of the last unitd run of each scenario to `prefix`-<scenario>.pprof")
	flag.BoolVar(&o.verbose, "v", false, "print wrk's full output")
	flag.StringVar(&o.only, "only", "", "run only these `scenarios` (comma-separated names: convert, batch, batch-dBm, convert-redis)")
	flag.Parse()
	if o.duration <= 0 || o.duration > 5*time.Minute || o.conns < 1 || o.threads < 1 || o.threads > o.conns || o.rounds < 1 || o.rounds > 10 {
		log.Fatal("flags out of range: need 0 < -d ≤ 5m, 1 ≤ -t ≤ -c, 1 ≤ -rounds ≤ 10")
	}
	if err := run(o); err != nil {
		log.Fatal(err)
	}
}

func run(o options) error {
	wrkPath, err := exec.LookPath(o.wrk)
	if err != nil {
		return fmt.Errorf("wrk not found (Debian: apt-get install -y wrk; `make bench-load` installs it): %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	unitdURL, key, stopUnitd, err := startUnitd(ctx)
	if err != nil {
		return err
	}
	defer stopUnitd()

	scenarios := []*scenario{
		{name: "convert", method: http.MethodGet, path: "/v1/convert?value=12.5&from=ft&to=m", target: 0.6},
		{name: "batch", method: http.MethodPost, path: "/v1/batch", body: batchmix.Body(batchmix.Pairs), target: 0.7},
		{name: "batch-dBm", method: http.MethodPost, path: "/v1/batch", body: batchmix.Body(batchmix.WithDBm(batchmix.Pairs)), target: 0.4},
	}
	if redisURL, stopRedis, err := startRedis(); err != nil {
		fmt.Fprintf(os.Stderr, "loadbench: no convert-redis scenario: %v\n", err)
	} else {
		defer stopRedis()
		lim, err := redislimit.New(redisURL, ratelimit.Rate{N: 1 << 30, Per: time.Hour}, redislimit.Options{})
		if err != nil {
			return err
		}
		defer lim.Close()
		withRedis, _, stop, err := startUnitdWith(ctx, lim, key)
		if err != nil {
			return err
		}
		defer stop()
		scenarios = append(scenarios, &scenario{name: "convert-redis", method: http.MethodGet,
			path: "/v1/convert?value=12.5&from=ft&to=m", target: 0.7, baseline: unitdURL, subject: withRedis})
	}
	if o.only != "" {
		names := strings.Split(o.only, ",")
		scenarios = slices.DeleteFunc(scenarios, func(sc *scenario) bool { return !slices.Contains(names, sc.name) })
		if len(scenarios) == 0 {
			return fmt.Errorf("-only %q names no scenario", o.only)
		}
	}
	for _, sc := range scenarios {
		base := unitdURL
		if sc.subject != "" {
			base = sc.subject
		}
		if err := prepare(base, key, sc); err != nil {
			return fmt.Errorf("%s: unitd's answer is not right, not benchmarking it: %w", sc.name, err)
		}
	}
	bareURLs := map[string]string{}
	for _, sc := range scenarios {
		if sc.baseline != "" {
			bareURLs[sc.name] = sc.baseline
			continue
		}
		u, stop, err := startBare(sc)
		if err != nil {
			return err
		}
		defer stop()
		bareURLs[sc.name] = u
	}

	tmp, err := os.MkdirTemp("", "loadbench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	fmt.Printf("loadbench: wrk -t%d -c%d -d%s --timeout %s --latency on 127.0.0.1; GOMAXPROCS=%d, %s\n",
		o.threads, o.conns, o.duration, o.timeout, runtime.GOMAXPROCS(0), runtime.Version())
	fmt.Printf("bare = net/http handler that drains the body and writes unitd's recorded answer (same bytes and headers)\n\n")

	runs := map[string]map[string][]result{} // scenario → side → rounds
	for _, sc := range scenarios {
		script := ""
		if sc.method == http.MethodPost {
			script = filepath.Join(tmp, sc.name+".lua")
			if err := os.WriteFile(script, luaScript(sc), 0o600); err != nil {
				return err
			}
		}
		runs[sc.name] = map[string][]result{}
		for round := 1; round <= o.rounds; round++ {
			for _, side := range []string{"bare", "unitd"} {
				base := bareURLs[sc.name]
				if side == "unitd" {
					base = unitdURL
					if sc.subject != "" {
						base = sc.subject
					}
				}
				profile := ""
				if side == "unitd" && o.profile != "" && round == o.rounds {
					profile = o.profile + "-" + sc.name + ".pprof"
				}
				fmt.Fprintf(os.Stderr, "  %s round %d: %s ...\n", sc.name, round, side)
				res, err := runWrk(wrkPath, o, base+sc.path, key, script, profile)
				if err != nil {
					return fmt.Errorf("%s %s round %d: %w", sc.name, side, round, err)
				}
				if o.verbose {
					fmt.Fprintln(os.Stderr, res.rawOutput)
				}
				if side == "unitd" && res.non2xx > 0 {
					return fmt.Errorf("%s round %d: unitd answered %d non-2xx responses under load; the numbers would measure errors",
						sc.name, round, res.non2xx)
				}
				runs[sc.name][side] = append(runs[sc.name][side], res)
			}
		}
		// The server must still answer correctly after the load.
		checked := unitdURL
		if sc.subject != "" {
			checked = sc.subject
		}
		if err := check(checked, key, sc); err != nil {
			return fmt.Errorf("%s: after the load: %w", sc.name, err)
		}
	}
	printReport(os.Stdout, o, scenarios, runs)
	return nil
}

// keySet hands the server one fixed set of keys.
type keySet struct{ set *apikey.Set }

func (k keySet) Current() *apikey.Set { return k.set }

// startUnitd serves the embedded catalog through the real server stack on a
// fresh 127.0.0.1 port and returns its base URL and a usable test key.
func startUnitd(ctx context.Context) (baseURL, key string, stop func(), err error) {
	// A real limiter that never refuses: a bucket of 2^30 requests
	// (2^30 per second is refused as finer than one per nanosecond).
	return startUnitdWith(ctx, ratelimit.NewMemory(ratelimit.Rate{N: 1 << 30, Per: time.Hour}), "")
}

// startUnitdWith is startUnitd with the given per-key limiter, and key
// when it is not "".
func startUnitdWith(ctx context.Context, limiter ratelimit.Limiter, key string) (baseURL, _ string, stop func(), err error) {
	g, errs := catalog.Load(catalog.Embedded())
	if len(errs) > 0 {
		return "", "", nil, fmt.Errorf("embedded catalog: %w", errors.Join(errs...))
	}
	if key == "" {
		if key, err = apikey.Generate(apikey.EnvTest); err != nil {
			return "", "", nil, err
		}
	}
	rec, err := apikey.RecordOf(key, "key_loadbench000000", "loadbench", time.Now())
	if err != nil {
		return "", "", nil, err
	}
	set := apikey.NewSet([]apikey.Record{rec})
	srv := server.New(server.Config{
		Keys:            keySet{set},
		Env:             apikey.EnvTest,
		Limiter:         limiter,
		Logger:          slog.New(slog.DiscardHandler),
		Metrics:         server.NewMetrics(promtext.NewRegistry()), // as served
		Version:         "loadbench",
		ShutdownTimeout: 2 * time.Second,
	})
	srv.ApplyGraph(g)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", "", nil, err
	}
	sctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(sctx, ln) }()
	stop = func() {
		cancel()
		if err := <-done; err != nil {
			log.Printf("unitd Serve: %v", err)
		}
	}
	return "http://" + ln.Addr().String(), key, stop, nil
}

// latencyDiff is a - b for wrk latencies such as "1.21ms", or "?".
func latencyDiff(a, b string) string {
	pa, ea := parseLatency(a)
	pb, eb := parseLatency(b)
	if ea != nil || eb != nil {
		return "?"
	}
	return (pa - pb).String()
}

func parseLatency(s string) (time.Duration, error) {
	return time.ParseDuration(strings.Replace(s, "us", "µs", 1))
}

// startRedis runs redis-server on a Unix socket in a temporary directory
// and returns its URL.
func startRedis() (url string, stop func(), err error) {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		return "", nil, fmt.Errorf("redis-server not installed (Debian: apt-get install -y redis-server)")
	}
	dir, err := os.MkdirTemp("", "loadbench-redis")
	if err != nil {
		return "", nil, err
	}
	sock := filepath.Join(dir, "redis.sock")
	cmd := exec.Command(bin, "--port", "0", "--unixsocket", sock, "--unixsocketperm", "700",
		"--dir", dir, "--save", "", "--appendonly", "no", "--loglevel", "warning")
	if err := cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return "", nil, err
	}
	stop = func() {
		cmd.Process.Kill()
		cmd.Wait()
		os.RemoveAll(dir)
	}
	for deadline := time.Now().Add(10 * time.Second); ; {
		if c, err := net.Dial("unix", sock); err == nil {
			c.Close()
			return "unix://" + sock, stop, nil
		}
		if time.Now().After(deadline) {
			stop()
			return "", nil, errors.New("redis-server did not start within 10s")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// startBare serves sc's recorded answer from a plain net/http handler, on a
// server of its own with the same http.Server settings as server.Serve.
func startBare(sc *scenario) (baseURL string, stop func(), err error) {
	header, answer := sc.header, sc.answer
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		h := w.Header()
		for k, v := range header {
			h[k] = v
		}
		w.Write(answer)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	// The same http.Server settings as unitd's Serve, from the server
	// package itself rather than copied.
	srv := server.New(server.Config{Logger: slog.New(slog.DiscardHandler)}).HTTPServer(handler)
	go srv.Serve(ln)
	stop = func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if srv.Shutdown(ctx) != nil {
			srv.Close()
		}
	}
	return "http://" + ln.Addr().String(), stop, nil
}

// prepare checks unitd's answer to sc and records it for the bare handler.
func prepare(base, key string, sc *scenario) error {
	resp, body, err := do(base, key, sc)
	if err != nil {
		return err
	}
	if err := verify(sc, resp, body); err != nil {
		return err
	}
	sc.header = http.Header{}
	for k, v := range resp.Header {
		switch k {
		case "Date", "Content-Length", "Connection":
			// net/http writes these itself.
		default:
			sc.header[k] = slices.Clone(v)
		}
	}
	sc.answer = body
	return nil
}

// check repeats the request and verifies the answer again.
func check(base, key string, sc *scenario) error {
	resp, body, err := do(base, key, sc)
	if err != nil {
		return err
	}
	return verify(sc, resp, body)
}

func do(base, key string, sc *scenario) (*http.Response, []byte, error) {
	req, err := http.NewRequest(sc.method, base+sc.path, bytes.NewReader(sc.body))
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+key)
	if sc.body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp, body, err
}

type conv struct {
	Status string `json:"status"`
	Input  struct {
		Value string `json:"value"`
		Unit  string `json:"unit"`
	} `json:"input"`
	Result struct {
		Value string `json:"value"`
		Unit  string `json:"unit"`
	} `json:"result"`
	Error *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// verify insists on a 200 with the right content, so the bench measures
// real conversions and not error answers.
func verify(sc *scenario, resp *http.Response, body []byte) error {
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("status %d: %s", resp.StatusCode, body)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		return fmt.Errorf("Content-Type %q", ct)
	}
	switch sc.method {
	case http.MethodGet:
		var v struct{ Data conv }
		if err := json.Unmarshal(body, &v); err != nil {
			return err
		}
		if v.Data.Result.Value != "3.81" || v.Data.Result.Unit != "m" {
			return fmt.Errorf("12.5 ft → %s %s, want 3.81 m", v.Data.Result.Value, v.Data.Result.Unit)
		}
	case http.MethodPost:
		var v struct {
			Data []conv
			Meta struct{ Total, Succeeded, Failed int }
		}
		if err := json.Unmarshal(body, &v); err != nil {
			return err
		}
		for i, c := range v.Data {
			if c.Status != "success" {
				msg := ""
				if c.Error != nil {
					msg = c.Error.Code + ": " + c.Error.Message
				}
				return fmt.Errorf("item %d (%s %s) failed: %s", i, c.Input.Value, c.Input.Unit, msg)
			}
		}
		if v.Meta.Total != batchmix.Size || v.Meta.Succeeded != batchmix.Size || len(v.Data) != batchmix.Size {
			return fmt.Errorf("meta %+v with %d items, want %d succeeded", v.Meta, len(v.Data), batchmix.Size)
		}
		for _, want := range batchChecks {
			got := v.Data[want.index].Result
			if got.Value != want.value || got.Unit != want.unit {
				return fmt.Errorf("item %d = %s %s, want %s %s", want.index, got.Value, got.Unit, want.value, want.unit)
			}
		}
	}
	return nil
}

// batchChecks are spot checks of the batch answer (value, canonical unit).
var batchChecks = []struct {
	index       int
	value, unit string
}{
	{0, "0.3048", "m"},  // 1 ft
	{1, "36.5", "degF"}, // 2.5 °C
}

// luaScript makes wrk send sc's POST body.
func luaScript(sc *scenario) []byte {
	return fmt.Appendf(nil, "wrk.method = %q\nwrk.headers[\"Content-Type\"] = \"application/json\"\nwrk.body = %s\n",
		sc.method, luaString(sc.body))
}

// luaString quotes b as a Lua long string whose level does not occur in b.
func luaString(b []byte) string {
	eq := ""
	for bytes.Contains(b, []byte("]"+eq+"]")) {
		eq += "="
	}
	// A long string drops a newline right after the opening bracket.
	return "[" + eq + "[\n" + string(b) + "]" + eq + "]"
}

var (
	reRPS     = regexp.MustCompile(`(?m)^Requests/sec:\s+([0-9.]+)`)
	reTotal   = regexp.MustCompile(`(?m)^\s*(\d+) requests in `)
	reNon2xx  = regexp.MustCompile(`(?m)^\s*Non-2xx or 3xx responses:\s+(\d+)`)
	reSockErr = regexp.MustCompile(`(?m)^\s*Socket errors:\s+(.*)$`)
	rePct     = regexp.MustCompile(`^\s*(50|75|90|99)%\s+(\S+)\s*$`)
)

// runWrk runs wrk once against url, optionally with a CPU profile of this
// process (the servers) for the duration of the run.
func runWrk(wrk string, o options, url, key, script, profile string) (result, error) {
	args := []string{
		"-t", strconv.Itoa(o.threads), "-c", strconv.Itoa(o.conns),
		"-d", fmt.Sprintf("%ds", max(1, int(o.duration.Round(time.Second)/time.Second))),
		"--timeout", fmt.Sprintf("%ds", max(1, int(o.timeout.Round(time.Second)/time.Second))),
		"--latency",
		"-H", "Authorization: Bearer " + key,
	}
	if script != "" {
		args = append(args, "-s", script)
	}
	args = append(args, url)
	ctx, cancel := context.WithTimeout(context.Background(), o.duration+o.timeout+30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, wrk, args...)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out

	var res result
	if profile != "" {
		f, err := os.Create(profile)
		if err != nil {
			return res, err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return res, err
		}
		res.profiled = true
	}
	err := cmd.Run()
	if profile != "" {
		pprof.StopCPUProfile()
	}
	res.rawOutput = out.String()
	if err != nil {
		return res, fmt.Errorf("wrk: %w\n%s", err, out.String())
	}
	return parseWrk(res, out.String())
}

func parseWrk(res result, out string) (result, error) {
	m := reRPS.FindStringSubmatch(out)
	if m == nil {
		return res, fmt.Errorf("no Requests/sec in wrk's output:\n%s", out)
	}
	res.rps, _ = strconv.ParseFloat(m[1], 64)
	if m := reTotal.FindStringSubmatch(out); m != nil {
		res.requests, _ = strconv.ParseInt(m[1], 10, 64)
	}
	if m := reNon2xx.FindStringSubmatch(out); m != nil {
		res.non2xx, _ = strconv.ParseInt(m[1], 10, 64)
	}
	if m := reSockErr.FindStringSubmatch(out); m != nil {
		res.sockErrs = m[1]
	}
	res.latency = map[string]string{}
	inDist := false
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		if strings.Contains(line, "Latency Distribution") {
			inDist = true
			continue
		}
		if inDist {
			if m := rePct.FindStringSubmatch(line); m != nil {
				res.latency[m[1]] = m[2]
			} else {
				inDist = false
			}
		}
	}
	return res, nil
}

func best(rs []result) result {
	b := rs[0]
	for _, r := range rs[1:] {
		if r.rps > b.rps {
			b = r
		}
	}
	return b
}

func printReport(w io.Writer, o options, scenarios []*scenario, runs map[string]map[string][]result) {
	fmt.Fprintln(w, "Per run (requests/s; latency p50 / p99):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "scenario\tround\tbare req/s\tbare p50\tbare p99\tunitd req/s\tunitd p50\tunitd p99\tratio\t")
	for _, sc := range scenarios {
		bare, unitd := runs[sc.name]["bare"], runs[sc.name]["unitd"]
		for i := range bare {
			note := ""
			if unitd[i].profiled {
				note = " (unitd profiled)"
			}
			if unitd[i].sockErrs != "" || bare[i].sockErrs != "" {
				note += " socket errors: bare[" + bare[i].sockErrs + "] unitd[" + unitd[i].sockErrs + "]"
			}
			fmt.Fprintf(tw, "%s\t%d\t%.0f\t%s\t%s\t%.0f\t%s\t%s\t%.2f\t%s\n", sc.name, i+1,
				bare[i].rps, bare[i].latency["50"], bare[i].latency["99"],
				unitd[i].rps, unitd[i].latency["50"], unitd[i].latency["99"],
				unitd[i].rps/bare[i].rps, note)
		}
	}
	tw.Flush()

	fmt.Fprintf(w, "\nSummary (best of %d run(s) per side):\n", o.rounds)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "scenario\tresponse bytes\tbare req/s\tunitd req/s\tratio\ttarget\tresult\t")
	var below []string
	for _, sc := range scenarios {
		b, u := best(runs[sc.name]["bare"]), best(runs[sc.name]["unitd"])
		ratio := u.rps / b.rps
		verdict := "PASS"
		if ratio < sc.target {
			verdict = "BELOW TARGET <<<"
			below = append(below, sc.name)
		}
		fmt.Fprintf(tw, "%s\t%d\t%.0f\t%.0f\t%.2f\t≥ %.1f\t%s\t\n", sc.name, len(sc.answer), b.rps, u.rps, ratio, sc.target, verdict)
	}
	tw.Flush()
	for _, sc := range scenarios {
		if sc.baseline == "" {
			continue
		}
		fmt.Fprintf(w, "\n%s: \"bare\" is unitd with per-key limits in memory; \"unitd\" the same with limits in Redis.\n", sc.name)
		for i, b := range runs[sc.name]["bare"] {
			u := runs[sc.name]["unitd"][i]
			fmt.Fprintf(w, "  round %d: p99 %s with Redis against %s without (added: %s)\n", i+1, u.latency["99"], b.latency["99"], latencyDiff(u.latency["99"], b.latency["99"]))
		}
	}
	if len(below) > 0 {
		fmt.Fprintf(w, "\n%s below target (reported only; shared machines are noisy, rerun before acting).\n", strings.Join(below, ", "))
	}
}
