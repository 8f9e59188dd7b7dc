package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/unitd/unitd/internal/pgtest"
	"github.com/unitd/unitd/internal/redistest"
	"github.com/unitd/unitd/server/keys"
)

// TestMain lets the test binary stand in for unitd: with UNITD_TEST_MAIN=1
// it runs the command line instead of the tests, so that end-to-end tests
// can start real unitd processes without a separate build.
func TestMain(m *testing.M) {
	if os.Getenv("UNITD_TEST_MAIN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(pgtest.Main(m))
}

// replica is one unitd serve process.
type replica struct {
	url, admin string
	cmd        *exec.Cmd
	mu         sync.Mutex // guards logs
	logs       strings.Builder
}

func (r *replica) log() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.logs.String()
}

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
			r.mu.Lock()
			r.logs.WriteString(line + "\n")
			r.mu.Unlock()
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
	case <-time.After(60 * time.Second):
		t.Fatalf("replica did not start within 60s")
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

// TestReplicasShareLimits runs three unitd processes on one Redis behind a
// round-robin proxy: with 10 requests per minute for one key, 30 requests
// get exactly 10 successes and 20 RATE_LIMIT_EXCEEDED. With Redis killed
// no request fails with a 5xx and each replica reports its local fallback;
// with Redis back they all return to it. A key revoked with the CLI is
// refused by every replica within a second.
func TestReplicasShareLimits(t *testing.T) {
	rds := redistest.StartTCP(t)
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "keys.json")
	store := &keys.Store{Path: keyFile}
	key, rec, err := store.Create("replica test", keys.EnvTest)
	if err != nil {
		t.Fatal(err)
	}
	var replicas []*replica
	for range 3 {
		replicas = append(replicas, startReplica(t, "--keys", keyFile, "--env", "test",
			"--rate-limit", "10/m", "--redis", rds.URL()))
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

	// Redis goes away: requests still get answers (429 from each
	// replica's own, full, local bucket is fine), never a 5xx.
	rds.Stop()
	// Keys made after start-up go into the store the replicas share (the
	// JSON file was imported once, at start).
	other, _ := cliCreateKey(t, keyFile, "during outage")
	// Every replica must know the key before the round-robin requests, or
	// one that has not polled the store yet answers 401 without asking
	// its limiter, and never notices the outage.
	waitAllAccept(t, replicas, other)
	for i := range 12 {
		if status, code := convert(other); status >= 500 {
			t.Fatalf("request %d during the Redis outage: %d %s", i, status, code)
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

	// Revocation through the CLI reaches every replica within a second.
	third, id3 := cliCreateKey(t, keyFile, "to revoke")
	waitAllAccept(t, replicas, third)
	if code, _, stderr := runCLI(t, "", "keys", "revoke", "--keys", keyFile, id3); code != 0 {
		t.Fatal(stderr)
	}
	revokedAt := time.Now()
	for i, r := range replicas {
		waitFor(t, fmt.Sprintf("replica %d refuses the revoked key", i), func() bool {
			return convertAt(t, r.url, third) == 401
		})
	}
	if d := time.Since(revokedAt); d > time.Second {
		t.Errorf("the revoked key was refused by all replicas after %v, want within 1s", d)
	}
	_ = rec
}

// waitAllAccept waits until every replica has accepted key once. Each
// replica is asked until it first says 200 and then left alone: a refused
// key spends no rate-limit token, an accepted one does, so asking replicas
// that already know the key again would drain the key's shared budget while
// a slower one catches up with the store.
func waitAllAccept(t *testing.T, replicas []*replica, key string) {
	t.Helper()
	for i, r := range replicas {
		waitFor(t, fmt.Sprintf("replica %d accepts the new key", i), func() bool {
			return convertAt(t, r.url, key) == 200
		})
	}
}

var createdKeyID = regexp.MustCompile(`Created \w+ key (key_[a-z0-9]+)`)

// cliCreateKey runs `unitd keys create` on the store of keyFile and returns
// the key and its id.
func cliCreateKey(t *testing.T, keyFile, name string) (key, id string) {
	t.Helper()
	code, out, stderr := runCLI(t, "", "keys", "create", "--keys", keyFile, "--name", name)
	m := createdKeyID.FindStringSubmatch(stderr)
	if code != 0 || m == nil {
		t.Fatalf("keys create: %d %s", code, stderr)
	}
	return strings.TrimSpace(out), m[1]
}

func convertAt(t *testing.T, base, key string) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/v1/convert?value=1&from=m&to=ft", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}
