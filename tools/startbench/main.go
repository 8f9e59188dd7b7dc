// Command startbench is the start-up part of `make bench`: it times the
// built unitd binary as a whole process, from exec to answer, as a user
// meets it.
//
// Two measurements, each run -n times after one warm-up run that is not
// counted, and printed as min, median and max (quote the median: the
// machine is shared and one slow or lucky run must not move it):
//
//   - serve: `unitd serve` with a fresh SQLite store in a new temporary
//     directory (no admin listener, hashing in its helper process as
//     always), from exec to the first 200 answer of GET /v1/health, which
//     is polled every -poll (target ≤ 100 ms); with -base, an older
//     build is timed in turn, pair by pair, and the ratio printed;
//   - convert: `unitd convert 1 m ft` against GNU units' `units -t 1m ft`
//     (the Debian package units), run in turn, pair by pair, so that the
//     ratio stays meaningful when the machine's speed drifts: wall time
//     from exec to exit and the peak resident memory of each process, as
//     the kernel accounts it. Skipped with a note when units is not
//     installed. `unitd version` runs in the same turn: it execs the
//     same binary and runs its package initialisation but opens no
//     catalog, so its time is the floor any command of this binary
//     starts from, and convert's time less it is what the catalog's
//     restore and the conversion cost.
//
// Every command's answer is checked (health 200; 3.280839… ft from each
// converter; unitd's name from version), so the bench cannot end up
// timing an error. A figure beyond
// its target is marked but does not change the exit status; only a
// failure to run does.
//
// Usage:
//
//	go run ./tools/startbench [-unitd bin/unitd] [-base OLD_UNITD] [-n 15] [-poll 1ms] [-only serve|convert]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

func main() {
	unitd := flag.String("unitd", "bin/unitd", "the unitd `binary` to time")
	n := flag.Int("n", 15, "counted runs of each measurement")
	poll := flag.Duration("poll", time.Millisecond, "how often /v1/health is asked while serve starts")
	only := flag.String("only", "", "run only this measurement: serve or convert")
	base := flag.String("base", "", "another unitd `binary` (an older build) whose serve start-up is timed in turn with -unitd's, pair by pair")
	flag.Parse()
	log.SetFlags(0)
	bin, err := filepath.Abs(*unitd)
	if err != nil {
		log.Fatal(err)
	}
	if *n < 1 {
		log.Fatal("-n must be at least 1")
	}
	if *base != "" {
		if *base, err = filepath.Abs(*base); err != nil {
			log.Fatal(err)
		}
	}
	if *only != "convert" {
		if err := benchServe(bin, *base, *n, *poll); err != nil {
			log.Fatalf("serve: %v", err)
		}
	}
	if *only != "serve" {
		if err := benchConvert(bin, *n); err != nil {
			log.Fatalf("convert: %v", err)
		}
	}
}

// benchServe times `unitd serve` from exec to its first healthy answer;
// with base, base's too, in turn.
func benchServe(bin, base string, n int, poll time.Duration) error {
	var times, baseTimes, ratio []time.Duration
	for i := 0; i <= n; i++ {
		d, err := serveOnce(bin, poll)
		if err != nil {
			return err
		}
		var b time.Duration
		if base != "" {
			if b, err = serveOnce(base, poll); err != nil {
				return fmt.Errorf("%s: %w", base, err)
			}
		}
		if i == 0 { // the first run warms the page cache
			continue
		}
		times = append(times, d)
		if base != "" {
			baseTimes = append(baseTimes, b)
			ratio = append(ratio, time.Duration(float64(d)/float64(b)*1000))
		}
	}
	fmt.Printf("serve: exec to first 200 of /v1/health, fresh SQLite store (%d runs)\n", n)
	fmt.Printf("  %-28s %s%s\n", "unitd serve", spread(times), mark(median(times) > 100*time.Millisecond, "target ≤ 100ms"))
	if base != "" {
		fmt.Printf("  %-28s %s\n", "base: "+filepath.Base(base), spread(baseTimes))
		fmt.Printf("  %-28s %s\n", "ratio unitd/base", ratioText(ratio))
	}
	return nil
}

// serveOnce starts unitd serve in a new temporary directory, polls its
// health until it answers 200 and stops it.
func serveOnce(bin string, poll time.Duration) (time.Duration, error) {
	dir, err := os.MkdirTemp("", "startbench-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	addr, err := freeAddr()
	if err != nil {
		return 0, err
	}
	logf, err := os.Create(filepath.Join(dir, "serve.log"))
	if err != nil {
		return 0, err
	}
	defer logf.Close()
	cmd := exec.Command(bin, "serve", "--addr", addr, "--admin-addr", "off", "--store", filepath.Join(dir, "unitd.db"), "--log-level", "warn")
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = logf, logf
	client := &http.Client{Timeout: time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	url := "http://" + addr + "/v1/health"
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stop := func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
	}
	deadline := start.Add(30 * time.Second)
	for {
		resp, err := client.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				d := time.Since(start)
				stop()
				return d, nil
			}
		}
		select {
		case err := <-exited:
			out, _ := os.ReadFile(logf.Name())
			return 0, fmt.Errorf("unitd serve exited before it was healthy (%v):\n%s", err, out)
		case <-time.After(poll):
		}
		if time.Now().After(deadline) {
			stop()
			return 0, errors.New("unitd serve was not healthy within 30s")
		}
	}
}

// freeAddr is a loopback address with a port nobody listens on now.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// benchConvert times `unitd convert 1 m ft` against `units -t 1m ft`,
// pair by pair.
func benchConvert(bin string, n int) error {
	a := []string{bin, "convert", "1", "m", "ft"}
	b := []string{"units", "-t", "1m", "ft"}
	floor := []string{bin, "version"}
	if _, err := exec.LookPath("units"); err != nil {
		fmt.Println("convert: GNU units is not installed (Debian package units); unitd alone")
		b = nil
	}
	var aw, bw, fw, ratio, floorRatio []time.Duration
	var am, bm []int64
	for i := 0; i <= n; i++ {
		w, m, err := runOnce(a, "3.280839")
		if err != nil {
			return err
		}
		wf, _, err := runOnce(floor, "unitd ")
		if err != nil {
			return err
		}
		if i > 0 {
			aw, am = append(aw, w), append(am, m)
			fw = append(fw, wf)
		}
		if b == nil {
			continue
		}
		w2, m2, err := runOnce(b, "3.280839")
		if err != nil {
			return err
		}
		if i > 0 {
			bw, bm = append(bw, w2), append(bm, m2)
			// ratios are kept in thousandths, as durations
			ratio = append(ratio, time.Duration(float64(w)/float64(w2)*1000))
			floorRatio = append(floorRatio, time.Duration(float64(wf)/float64(w2)*1000))
		}
	}
	fmt.Printf("convert: whole process, exec to exit (%d runs, paired)\n", n)
	fmt.Printf("  %-28s wall %s  peak RSS %s\n", "unitd convert 1 m ft", spread(aw), mib(am))
	fmt.Printf("  %-28s wall %s\n", "unitd version (the floor)", spread(fw))
	if b != nil {
		fmt.Printf("  %-28s wall %s  peak RSS %s\n", "units -t 1m ft", spread(bw), mib(bm))
		fmt.Printf("  %-28s %s%s\n", "ratio unitd/units (wall)", ratioText(ratio), mark(median(ratio) > 2000, "target ≤ 2×"))
		fmt.Printf("  %-28s %s\n", "ratio floor/units (wall)", ratioText(floorRatio))
	}
	return nil
}

// runOnce runs argv to its end, checks that its output holds want and
// returns its wall time and peak resident memory in bytes.
func runOnce(argv []string, want string) (time.Duration, int64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	d := time.Since(start)
	if err != nil {
		return 0, 0, fmt.Errorf("%s: %v\n%s", strings.Join(argv, " "), err, out)
	}
	if !strings.Contains(string(out), want) {
		return 0, 0, fmt.Errorf("%s printed %q, not %q", strings.Join(argv, " "), out, want)
	}
	var rss int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = int64(ru.Maxrss) * 1024 // kilobytes on Linux
	}
	return d, rss, nil
}

func median[T int64 | time.Duration](xs []T) T {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func spread(ts []time.Duration) string {
	s := slices.Clone(ts)
	slices.Sort(s)
	r := func(d time.Duration) string { return d.Round(100 * time.Microsecond).String() }
	return fmt.Sprintf("median %-8s (min %s, max %s)", r(median(s)), r(s[0]), r(s[len(s)-1]))
}

// ratioText prints ratios kept in thousandths, pair by pair.
func ratioText(ratio []time.Duration) string {
	s := slices.Clone(ratio)
	slices.Sort(s)
	return fmt.Sprintf("median %.2f× (min %.2f×, max %.2f×)", float64(median(s))/1000, float64(s[0])/1000, float64(s[len(s)-1])/1000)
}

func mib(xs []int64) string {
	return fmt.Sprintf("median %.1f MiB", float64(median(xs))/(1<<20))
}

func mark(bad bool, target string) string {
	if bad {
		return "  ← " + target
	}
	return ""
}
