// Command floodbench measures what a flood of one kind of expensive request
// does to a running unitd: the latency of ordinary API conversions before
// and during the flood, the server's peak memory (VmHWM) and its CPU time.
//
// It builds nothing: -bin names a unitd binary (make build). It creates a
// store in a temporary directory with one account, one user with a password
// and one API key, starts `unitd serve` on a free loopback port, and runs
// two phases of -d each: idle (conversions only) and flood (conversions
// while the flood runs). Conversions go one at a time from -c clients over
// keep-alive connections. The floods:
//
//   - signin: -n clients sign in at once, again and again, each from its
//     own loopback address (127.x.y.z, changed before the per-address
//     limit would refuse it), as unknown users with wrong passwords, so
//     every attempt costs a full Argon2id hash. -n 60 is the attack of
//     60 concurrent sign-ins.
//   - catalog: -n clients from one address load /catalog?q=… pages as
//     fast as they are answered, as a browser or a scraper would, within
//     the public per-address budget.
//
// Flooding clients wait as a 429 or 503 answer's Retry-After says, which
// keeps the server's limits full without measuring a flood of refusals;
// with -rude they ask again at once.
//
// Figures are printed as a table; nothing is asserted, since a shared
// machine's timing is not a test. Linux only (it reads /proc).
//
// Usage:
//
//	go run ./tools/floodbench -bin bin/unitd -flood signin [-n 60] [-d 10s] [-- serve flags…]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("floodbench: ")
	bin := flag.String("bin", "bin/unitd", "the unitd `binary` to run")
	flood := flag.String("flood", "signin", "what floods: signin or catalog")
	n := flag.Int("n", 60, "flooding clients")
	conns := flag.Int("c", 2, "conversion clients")
	d := flag.Duration("d", 10*time.Second, "length of each phase")
	query := flag.String("q", "e", "catalog flood: the search text (a comma-separated list is cycled through)")
	rude := flag.Bool("rude", false, "flooding clients ignore Retry-After and ask again at once")
	flag.Parse()
	if *flood != "signin" && *flood != "catalog" {
		log.Fatalf("-flood %q: want signin or catalog", *flood)
	}
	dir, err := os.MkdirTemp("", "floodbench-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	s, err := start(*bin, dir, flag.Args())
	if err != nil {
		log.Fatal(err)
	}
	defer s.stop()

	idle := s.measure(*conns, *d, nil)
	var fl flooder
	switch *flood {
	case "signin":
		fl = &signinFlood{base: s.base, n: *n, rude: *rude}
	case "catalog":
		fl = &catalogFlood{base: s.base, n: *n, queries: strings.Split(*query, ","), rude: *rude}
	}
	during := s.measure(*conns, *d, fl)
	fmt.Printf("unitd %s, flood %s with %d clients, phases of %v, %d conversion clients\n\n", strings.Join(flag.Args(), " "), *flood, *n, *d, *conns)
	fmt.Printf("%-8s %10s %10s %10s %10s %12s %12s %12s\n", "phase", "requests", "p50 ms", "p99 ms", "max ms", "cpu s", "peak RSS MB", "helpers MB")
	for _, p := range []struct {
		name string
		r    phase
	}{{"idle", idle}, {"flood", during}} {
		fmt.Printf("%-8s %10d %10.2f %10.2f %10.2f %12.2f %12.1f %12.1f\n", p.name, len(p.r.lat), ms(p.r.pct(50)), ms(p.r.pct(99)), ms(p.r.pct(100)), p.r.cpu.Seconds(), float64(p.r.hwm)/(1<<20), float64(p.r.helper)/(1<<20))
	}
	if fl != nil {
		fmt.Println()
		fmt.Println(fl.report())
	}
	fmt.Printf("\nflood p99 / idle p99 = %.2f\n", float64(during.pct(99))/float64(idle.pct(99)))
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// server is the unitd under test.
type server struct {
	cmd  *exec.Cmd
	base string
	key  string
	log  *strings.Builder
}

func run(bin string, args ...string) (string, error) {
	var stderr strings.Builder
	cmd := exec.Command(bin, args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("unitd %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return strings.TrimSpace(string(out)), nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

var tokenRe = regexp.MustCompile(`token=([A-Za-z0-9_-]+)`)

func start(bin, dir string, serveArgs []string) (*server, error) {
	store := filepath.Join(dir, "unitd.db")
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	s := &server{base: fmt.Sprintf("http://127.0.0.1:%d", port), log: &strings.Builder{}}
	if _, err := run(bin, "accounts", "create", "--store", store, "Acme"); err != nil {
		return nil, err
	}
	link, err := run(bin, "users", "create", "--store", store, "--account", "Acme", "--url", s.base, "ada@example.com")
	if err != nil {
		return nil, err
	}
	if s.key, err = run(bin, "keys", "create", "--store", store, "--account", "Acme", "--name", "bench"); err != nil {
		return nil, err
	}
	args := append([]string{"serve", "--addr", fmt.Sprintf("127.0.0.1:%d", port), "--admin-addr", "off",
		"--store", store, "--env", "test", "--log-level", "error", "--rate-limit", "1000000/s"}, serveArgs...)
	s.cmd = exec.Command(bin, args...)
	s.cmd.Stderr = &lockedWriter{w: s.log}
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(s.base + "/v1/health")
		if err == nil {
			resp.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			s.stop()
			return nil, fmt.Errorf("unitd did not answer within 30 s:\n%s", s.log)
		}
		time.Sleep(50 * time.Millisecond)
	}
	m := tokenRe.FindStringSubmatch(link)
	if m == nil {
		return nil, fmt.Errorf("no set-up token in %q", link)
	}
	pw := "correct horse battery staple"
	resp, err := noRedirect.PostForm(s.base+"/account/setup", url.Values{"token": {m[1]}, "password": {pw}, "password2": {pw}})
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		return nil, fmt.Errorf("set-up: %s", resp.Status)
	}
	return s, nil
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

func (s *server) stop() {
	if s.cmd != nil && s.cmd.Process != nil {
		s.cmd.Process.Signal(os.Interrupt)
		s.cmd.Wait()
	}
}

// phase is what one phase measured.
type phase struct {
	lat []time.Duration // conversion latencies, sorted
	cpu time.Duration   // server CPU time (user + system) during the phase
	hwm int64           // peak resident set of the server so far, bytes
	// helper is the peak resident set of its helper processes, bytes.
	helper int64
}

func (p phase) pct(q float64) time.Duration {
	if len(p.lat) == 0 {
		return 0
	}
	i := int(float64(len(p.lat))*q/100+0.5) - 1
	return p.lat[min(max(i, 0), len(p.lat)-1)]
}

// flooder floods the server until ctx is done.
type flooder interface {
	run(ctx context.Context)
	report() string
}

// measure runs conversions from conns clients for d, with fl flooding
// alongside (it starts a second before the measurement).
func (s *server) measure(conns int, d time.Duration, fl flooder) phase {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	if fl != nil {
		wg.Go(func() { fl.run(ctx) })
		time.Sleep(time.Second)
	}
	cpu0 := s.cpu()
	var mu sync.Mutex
	var lat []time.Duration
	end := time.Now().Add(d)
	var cw sync.WaitGroup
	for range conns {
		cw.Go(func() {
			c := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}, Timeout: 30 * time.Second}
			var mine []time.Duration
			for time.Now().Before(end) {
				req, _ := http.NewRequest("GET", s.base+"/v1/convert?value=12.5&from=ft&to=m", nil)
				req.Header.Set("Authorization", "Bearer "+s.key)
				t0 := time.Now()
				resp, err := c.Do(req)
				if err != nil {
					mine = append(mine, 30*time.Second)
					continue
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					log.Fatalf("conversion: %s", resp.Status)
				}
				mine = append(mine, time.Since(t0))
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		})
	}
	cw.Wait()
	p := phase{cpu: s.cpu() - cpu0, hwm: s.hwm(), helper: s.helperHWM()}
	cancel()
	wg.Wait()
	slices.Sort(lat)
	p.lat = lat
	return p
}

// cpu is the server's user and system time so far.
func (s *server) cpu() time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", s.cmd.Process.Pid))
	if err != nil {
		log.Fatal(err)
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * time.Second / 100 // USER_HZ
}

// hwm is the server's peak resident set size.
func (s *server) hwm() int64 { return hwm(s.cmd.Process.Pid) }

// helperHWM is the peak resident set size of the server's child processes
// (its password worker), summed.
func (s *server) helperHWM() int64 {
	var sum int64
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", s.cmd.Process.Pid))
	for _, t := range tasks {
		b, _ := os.ReadFile(t)
		for _, f := range strings.Fields(string(b)) {
			if pid, err := strconv.Atoi(f); err == nil {
				sum += hwm(pid)
			}
		}
	}
	return sum
}

func hwm(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// tally counts answers by status.
type tally struct {
	mu     sync.Mutex
	status map[string]int
	bytes  atomic.Int64
	slow   atomic.Int64 // answers that took over a second
}

func (t *tally) add(s string) {
	t.mu.Lock()
	if t.status == nil {
		t.status = map[string]int{}
	}
	t.status[s]++
	t.mu.Unlock()
}

func (t *tally) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var keys []string
	for k := range t.status {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, " %s×%d", k, t.status[k])
	}
	return b.String()
}

type signinFlood struct {
	base string
	n    int
	rude bool
	t    tally
	addr atomic.Int64
}

// nextAddr returns a fresh loopback address, 127.1.0.1 and on.
func (f *signinFlood) nextAddr() *net.TCPAddr {
	i := f.addr.Add(1)
	return &net.TCPAddr{IP: net.IPv4(127, byte(1+i>>16), byte(i>>8), byte(i))}
}

func (f *signinFlood) run(ctx context.Context) {
	var wg sync.WaitGroup
	for w := range f.n {
		wg.Go(func() {
			var c *http.Client
			used := 0
			for i := 0; ctx.Err() == nil; i++ {
				if c == nil || used == 25 { // the per-address limit is 30 an hour
					d := &net.Dialer{LocalAddr: f.nextAddr()}
					c = &http.Client{Transport: &http.Transport{DialContext: d.DialContext}, Timeout: 60 * time.Second,
						CheckRedirect: noRedirect.CheckRedirect}
					used = 0
				}
				used++
				form := url.Values{"email": {fmt.Sprintf("guess-%d-%d@example.com", w, i)}, "password": {"not the password"}}
				req, _ := http.NewRequestWithContext(ctx, "POST", f.base+"/account/signin", strings.NewReader(form.Encode()))
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				req.Header.Set("Sec-Fetch-Site", "same-origin")
				t0 := time.Now()
				resp, err := c.Do(req)
				if err != nil {
					if ctx.Err() == nil {
						f.t.add("error")
					}
					continue
				}
				n, _ := io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				f.t.bytes.Add(n)
				if time.Since(t0) > time.Second {
					f.t.slow.Add(1)
				}
				f.t.add(strconv.Itoa(resp.StatusCode))
				if !f.rude {
					retryAfter(ctx, resp)
				}
			}
		})
	}
	wg.Wait()
}

// retryAfter waits as a 429 or 503 answer's Retry-After says.
func retryAfter(ctx context.Context, resp *http.Response) {
	if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusServiceUnavailable {
		return
	}
	if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil {
		select {
		case <-ctx.Done():
		case <-time.After(time.Duration(s) * time.Second):
		}
	}
}

func (f *signinFlood) report() string {
	return fmt.Sprintf("sign-in answers:%s; %d took over a second", f.t.String(), f.t.slow.Load())
}

type catalogFlood struct {
	base    string
	n       int
	rude    bool
	queries []string
	t       tally
	count   atomic.Int64
}

func (f *catalogFlood) run(ctx context.Context) {
	var wg sync.WaitGroup
	for range f.n {
		wg.Go(func() {
			c := &http.Client{Timeout: 60 * time.Second}
			for i := 0; ctx.Err() == nil; i++ {
				q := f.queries[i%len(f.queries)]
				req, _ := http.NewRequestWithContext(ctx, "GET", f.base+"/catalog?q="+url.QueryEscape(q), nil)
				resp, err := c.Do(req)
				if err != nil {
					if ctx.Err() == nil && !errors.Is(err, context.Canceled) {
						f.t.add("error")
					}
					continue
				}
				n, _ := io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				f.t.add(strconv.Itoa(resp.StatusCode))
				if resp.StatusCode == 200 {
					f.t.bytes.Add(n)
					f.count.Add(1)
				}
				if !f.rude {
					retryAfter(ctx, resp)
				}
			}
		})
	}
	wg.Wait()
}

func (f *catalogFlood) report() string {
	per := int64(0)
	if c := f.count.Load(); c > 0 {
		per = f.t.bytes.Load() / c
	}
	return fmt.Sprintf("catalog answers:%s; %d bytes per page", f.t.String(), per)
}
