package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/unitd/unitd/internal/pgtest"
	"github.com/unitd/unitd/internal/redistest"
	"github.com/unitd/unitd/internal/testlog"
)

// TestMain lets the test binary stand in for unitd: with UNITD_TEST_MAIN=1
// it runs the command line instead of the tests, so that end-to-end tests
// can start real unitd processes without a separate build; and it is the
// password worker that `unitd serve` starts (this binary, with the worker's
// command as its first argument). The tests share one PostgreSQL server,
// stopped at the end.
func TestMain(m *testing.M) {
	if os.Getenv("UNITD_TEST_MAIN") == "1" || len(os.Args) > 1 && os.Args[1] == passwordWorkerCommand.name {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(pgtest.Main(m))
}

// replica is one unitd serve process.
type replica struct {
	url, admin string
	cmd        *exec.Cmd
	logs       testlog.Buffer
}

func (r *replica) log() string { return r.logs.String() }

var listenLine = regexp.MustCompile(`"msg":"(listening|admin listening)","addr":"(http://[^"]+)"`)

// startReplica runs `unitd serve` as a child process on free loopback
// ports and waits until it says where it listens.
func startReplica(t *testing.T, args ...string) *replica {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"serve", "--addr", "127.0.0.1:0", "--admin-addr", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(os.Environ(), "UNITD_TEST_MAIN=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := &replica{cmd: cmd}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	})
	found := make(chan struct{})
	started := found
	lines := make(chan string, 1024)
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	go func() {
		var url, admin string
		for line := range lines {
			r.logs.Write([]byte(line + "\n"))
			if m := listenLine.FindStringSubmatch(line); m != nil && found != nil {
				if m[1] == "listening" {
					url = m[2]
				} else {
					admin = m[2]
				}
				if url != "" && admin != "" {
					r.url, r.admin = url, admin
					close(found)
					found = nil
				}
			}
		}
		if found != nil {
			close(found)
		}
	}()
	select {
	case <-started:
	case <-outOfTime(t):
		t.Fatalf("replica had not started when the test binary's time ran out:\n%s", r.log())
	}
	if r.url == "" {
		t.Fatalf("replica exited before listening:\n%s", r.log())
	}
	return r
}

// roundRobin is a reverse proxy on 127.0.0.1 that sends each request to
// the next replica in turn.
func roundRobin(t *testing.T, replicas []*replica) string {
	t.Helper()
	var next atomic.Uint64
	targets := make([]*url.URL, len(replicas))
	for i, r := range replicas {
		u, err := url.Parse(r.url)
		if err != nil {
			t.Fatal(err)
		}
		targets[i] = u
	}
	proxy := &httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) {
		pr.SetURL(targets[next.Add(1)%uint64(len(targets))])
	}}
	ts := httptest.NewServer(proxy)
	t.Cleanup(ts.Close)
	return ts.URL
}

type healthDoc struct {
	RateLimit *struct {
		Backend string `json:"backend"`
		Shared  bool   `json:"shared"`
	} `json:"rate_limit"`
}

func health(t *testing.T, base string) healthDoc {
	t.Helper()
	resp, err := http.Get(base + "/v1/health")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var h healthDoc
	if err := json.NewDecoder(resp.Body).Decode(&h); err != nil {
		t.Fatal(err)
	}
	return h
}

// cli runs one unitd command in process and returns its standard output.
func cli(t *testing.T, args ...string) string {
	t.Helper()
	var stdout, stderr strings.Builder
	if code := run(args, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("unitd %s: exit %d\n%s", strings.Join(args, " "), code, stderr.String())
	}
	return stdout.String()
}

// keyID finds the id of the key named name in the store.
func keyID(t *testing.T, storeURL, name string) string {
	t.Helper()
	var items []struct{ ID, Name string }
	if err := json.Unmarshal([]byte(cli(t, "keys", "list", "--store", storeURL, "--format", "json")), &items); err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		if it.Name == name {
			return it.ID
		}
	}
	t.Fatalf("no key named %q", name)
	return ""
}

// TestReplicasShareLimits runs three unitd processes on one PostgreSQL
// store and one Redis behind a round-robin proxy: with 10 requests per
// minute for one key, 30 requests get exactly 10 successes and 20
// RATE_LIMIT_EXCEEDED. With Redis killed no request fails with a 5xx and
// each replica reports its local fallback; with Redis back they all
// return to it. A key revoked with the CLI is refused by every replica
// as soon as unitd keys confirms it.
func TestReplicasShareLimits(t *testing.T) {
	rds := redistest.StartTCP(t)
	storeURL := pgtest.NewDatabase(t)
	// The keys exist before the replicas start, so that no request is
	// spent (on a budget of 10 an hour) waiting for them to appear. An hour
	// refills one request every 6 minutes: however slowly the 30 requests
	// run, none is allowed by a refill.
	newKey := func(name string) string {
		return strings.TrimSpace(cli(t, "keys", "create", "--store", storeURL, "--name", name, "--env", "test"))
	}
	key, other, third := newKey("replica test"), newKey("during outage"), newKey("to revoke")
	var replicas []*replica
	for range 3 {
		replicas = append(replicas, startReplica(t, "--store", storeURL, "--env", "test",
			"--rate-limit", "10/h", "--auth-fail-limit", "1000000/m", "--redis", rds.URL(),
			// A loaded test machine must not pass for an outage.
			"--redis-timeout", "5s"))
	}
	lb := roundRobin(t, replicas)

	convert := func(k string) (int, string) {
		req, _ := http.NewRequest("GET", lb+"/v1/convert?value=1&from=mi&to=km", nil)
		req.Header.Set("Authorization", "Bearer "+k)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var body struct {
			Error struct{ Code string } `json:"error"`
		}
		json.NewDecoder(resp.Body).Decode(&body)
		return resp.StatusCode, body.Error.Code
	}

	ok, limited := 0, 0
	for i := range 30 {
		status, code := convert(key)
		switch {
		case status == 200:
			ok++
		case status == 429 && code == "RATE_LIMIT_EXCEEDED":
			limited++
		default:
			t.Fatalf("request %d: %d %s", i, status, code)
		}
	}
	if ok != 10 || limited != 20 {
		t.Fatalf("30 requests over 3 replicas: %d succeeded and %d limited, want 10 and 20", ok, limited)
	}
	for i, r := range replicas {
		if h := health(t, r.url); h.RateLimit == nil || h.RateLimit.Backend != "redis" || !h.RateLimit.Shared {
			t.Errorf("replica %d health before the outage: %+v", i, h.RateLimit)
		}
	}

	// Redis goes away in the middle of traffic: requests still get answers
	// (429 from each replica's own, full, local bucket is fine), never a
	// 5xx.
	for i := range 24 {
		if i == 6 {
			rds.Stop()
		}
		if status, code := convert(other); status >= 500 {
			t.Fatalf("request %d around the Redis outage: %d %s", i, status, code)
		}
	}
	for i, r := range replicas {
		h := health(t, r.url)
		if h.RateLimit == nil || h.RateLimit.Backend != "local" || h.RateLimit.Shared {
			t.Errorf("replica %d health during the outage: %+v", i, h.RateLimit)
		}
		if n := strings.Count(r.log(), "Redis unreachable"); n != 1 {
			t.Errorf("replica %d logged the outage %d times, want once", i, n)
		}
	}
	metrics := func(r *replica) string {
		resp, err := http.Get(r.admin + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	if m := metrics(replicas[0]); !strings.Contains(m, "unitd_redis_up 0") {
		t.Errorf("metrics during the outage lack unitd_redis_up 0")
	}

	rds.Restart()
	for i, r := range replicas {
		waitFor(t, fmt.Sprintf("replica %d returns to Redis", i), func() bool {
			h := health(t, r.url)
			return h.RateLimit != nil && h.RateLimit.Backend == "redis"
		})
	}
	if m := metrics(replicas[1]); !strings.Contains(m, "unitd_redis_up 1") {
		t.Errorf("metrics after recovery lack unitd_redis_up 1")
	}

	// A revocation through the CLI: it returns once every replica reports
	// it has loaded it (or fails), so each refuses the key at once.
	for i, r := range replicas {
		if s := convertAt(t, r.url, third); s != 200 {
			t.Fatalf("replica %d refuses the third key before its revocation: %d", i, s)
		}
	}
	var stdout, stderr strings.Builder
	args := []string{"keys", "revoke", "--store", storeURL, keyID(t, storeURL, "to revoke")}
	if code := run(args, strings.NewReader(""), &stdout, &stderr); code != 0 || !strings.Contains(stderr.String(), fmt.Sprintf("In effect on %d running servers", len(replicas))) {
		t.Fatalf("unitd %s: exit %d\n%s", strings.Join(args, " "), code, stderr.String())
	}
	for i, r := range replicas {
		if s := convertAt(t, r.url, third); s != 401 {
			t.Errorf("replica %d confirmed the revocation but answers the revoked key with %d", i, s)
		}
	}
}

func convertAt(t *testing.T, base, key string) int {
	t.Helper()
	req, _ := http.NewRequest("GET", base+"/v1/convert?value=1&from=m&to=ft", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}
