// Command ndjsonbench is the streaming part of `make bench`: it measures
// how fast a running `unitd serve` answers NDJSON batches (POST /v1/batch,
// application/x-ndjson) on 127.0.0.1, against the rate at which
// `unitd convert -` converts the same rows on its own.
//
// The workload is internal/batchmix's: its Rows rows (linear, affine,
// aliases, π, rational formulas; values of four forms) repeated to
// -lines lines, written once as NDJSON and once as "VALUE FROM TO" lines.
// Three measurements, taken in turn, -rounds times:
//
//   - cli: `unitd convert -` reading the text file, its answers read from
//     a pipe; the rate runs from its first answer to its last, so that
//     loading the catalog does not count (the engine's own streaming rate);
//   - stream: one NDJSON batch of all the lines, sent from the file and its
//     answer read by a Go client, from the request to the meta line
//     (target ≥ 0.7× cli), while the server's resident memory (VmRSS) is
//     sampled every 10 ms (target: its peak within 50 MB of what it was
//     before the stream);
//   - streams: -streams such batches at once (target: total lines per
//     second ≥ 1.5× stream's, on two cores).
//
// Beside unitd, the same two stream measurements run against a bare
// net/http server (this command, run again as a child process) whose
// full-duplex handler answers each line with unitd's recorded answer to
// its row, as unitd does, a read buffer at a time: the floor that
// net/http, the loopback and the client set, and so what the machine
// allows -streams streams to gain over one at the moment.
//
// The server is the unitd binary given by -unitd, run with a store, a test
// key and a per-key rate limit far above what the run needs, in a
// temporary directory. Every answer is checked: the number of lines, and a
// meta line with every item succeeded. The best rate of each measurement
// is compared; a ratio below its target is marked but does not change the
// exit status (shared machines are noisy), only a failure to run does.
//
// Usage:
//
//	go run ./tools/ndjsonbench [-unitd bin/unitd] [-lines 1000000] [-streams 4] [-rounds 3]
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
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/unitd/unitd/internal/batchmix"
	unitdserver "github.com/unitd/unitd/server"
)

type options struct {
	unitd   string
	lines   int
	streams int
	rounds  int
	bare    string // serve the bare handler with these answers (the child process)
}

func main() {
	log.SetFlags(0)
	log.SetPrefix("streambench: ")
	var o options
	flag.StringVar(&o.unitd, "unitd", "bin/unitd", "the unitd `binary` to measure (make build)")
	flag.IntVar(&o.lines, "lines", 1_000_000, "lines per stream")
	flag.IntVar(&o.streams, "streams", 4, "concurrent streams of the streams measurement")
	flag.IntVar(&o.rounds, "rounds", 3, "rounds of the three measurements")
	flag.StringVar(&o.bare, "bare-answers", "", "(internal) serve the bare handler, answering line i with line i of this `file`, cycled")
	flag.Parse()
	if o.bare != "" {
		if err := serveBare(o.bare); err != nil {
			log.Fatal(err)
		}
		return
	}
	if o.lines < batchmix.Rows || o.lines > 20_000_000 || o.streams < 2 || o.streams > 16 || o.rounds < 1 || o.rounds > 10 {
		log.Fatalf("flags out of range: need %d ≤ -lines ≤ 20000000, 2 ≤ -streams ≤ 16, 1 ≤ -rounds ≤ 10", batchmix.Rows)
	}
	if err := run(o); err != nil {
		log.Fatal(err)
	}
}

// figures are the results of one round.
type figures struct {
	cli, stream, streams float64 // lines per second
	bare, bareStreams    float64 // the same through the bare handler
	rssBefore, rssPeak   int64   // bytes, around the single stream
	rssPeakStreams       int64   // bytes, the peak during the concurrent streams
}

func run(o options) error {
	bin, err := filepath.Abs(o.unitd)
	if err != nil {
		return err
	}
	if _, err := os.Stat(bin); err != nil {
		return fmt.Errorf("no unitd binary (run make build): %w", err)
	}
	dir, err := os.MkdirTemp("", "streambench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	text, ndjson := filepath.Join(dir, "rows.txt"), filepath.Join(dir, "rows.ndjson")
	if err := writeLines(text, o.lines, func(b []byte, i int) []byte { return batchmix.AppendText(b, batchmix.Pairs, i) }); err != nil {
		return err
	}
	if err := writeLines(ndjson, o.lines, func(b []byte, i int) []byte {
		return append(batchmix.AppendItem(b, batchmix.Pairs, i), '\n')
	}); err != nil {
		return err
	}
	srv, err := startServer(bin, dir)
	if err != nil {
		return err
	}
	defer srv.stop()
	bare, err := startBare(srv, dir)
	if err != nil {
		return err
	}
	defer bare.stop()

	fmt.Printf("streambench: %d lines of the %d-row mixed workload; GOMAXPROCS=%d, %d CPUs, %s\n",
		o.lines, batchmix.Rows, runtime.GOMAXPROCS(0), runtime.NumCPU(), runtime.Version())
	// A first stream warms the server up (catalog caches, buffers), so
	// that the memory before a measured stream is its resting state.
	if _, err := srv.stream(ndjson, o.lines); err != nil {
		return fmt.Errorf("warm-up stream: %w", err)
	}
	var rounds []figures
	for r := 1; r <= o.rounds; r++ {
		var f figures
		fmt.Fprintf(os.Stderr, "  round %d: cli ...\n", r)
		if f.cli, err = convertCLI(bin, text, o.lines); err != nil {
			return fmt.Errorf("unitd convert -: %w", err)
		}
		fmt.Fprintf(os.Stderr, "  round %d: stream ...\n", r)
		if f.rssBefore, err = rss(srv.cmd.Process.Pid); err != nil {
			return err
		}
		peak := srv.watchRSS()
		d, err := srv.stream(ndjson, o.lines)
		f.rssPeak = peak()
		if err != nil {
			return fmt.Errorf("stream: %w", err)
		}
		f.stream = float64(o.lines) / d.Seconds()
		fmt.Fprintf(os.Stderr, "  round %d: %d streams ...\n", r, o.streams)
		peak = srv.watchRSS()
		f.streams, err = srv.concurrent(ndjson, o.lines, o.streams)
		f.rssPeakStreams = peak()
		if err != nil {
			return fmt.Errorf("%d streams: %w", o.streams, err)
		}
		fmt.Fprintf(os.Stderr, "  round %d: bare, 1 and %d streams ...\n", r, o.streams)
		if d, err = bare.stream(ndjson, o.lines); err != nil {
			return fmt.Errorf("bare stream: %w", err)
		}
		f.bare = float64(o.lines) / d.Seconds()
		if f.bareStreams, err = bare.concurrent(ndjson, o.lines, o.streams); err != nil {
			return fmt.Errorf("bare, %d streams: %w", o.streams, err)
		}
		rounds = append(rounds, f)
	}
	report(os.Stdout, o, rounds)
	return nil
}

// writeLines writes n lines of the workload to path.
func writeLines(path string, n int, appendRow func([]byte, int) []byte) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, batchmix.Lines(n, appendRow)); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// convertCLI runs `unitd convert -` on the text file and returns its rate
// in lines per second, from its first answer to its last.
func convertCLI(bin, text string, lines int) (float64, error) {
	in, err := os.Open(text)
	if err != nil {
		return 0, err
	}
	defer in.Close()
	cmd := exec.Command(bin, "convert", "-")
	cmd.Stdin = in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	buf := make([]byte, 256<<10)
	var first time.Time
	n, errorLines := 0, 0
	for {
		k, err := out.Read(buf)
		if k > 0 && first.IsZero() {
			first = time.Now()
		}
		n += bytes.Count(buf[:k], []byte("\n"))
		errorLines += bytes.Count(buf[:k], []byte("error:"))
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, err
		}
	}
	end := time.Now()
	if err := cmd.Wait(); err != nil {
		return 0, fmt.Errorf("%w: %s", err, stderr.Bytes())
	}
	if n != lines || errorLines != 0 {
		return 0, fmt.Errorf("%d answer lines (%d errors), want %d answers", n, errorLines, lines)
	}
	return float64(n-1) / end.Sub(first).Seconds(), nil
}

// server is a running `unitd serve`.
type server struct {
	cmd  *exec.Cmd
	url  string
	key  string
	done chan error
}

// startServer creates a test key in a store in dir and serves it on a
// free port of 127.0.0.1.
func startServer(bin, dir string) (*server, error) {
	store := filepath.Join(dir, "unitd.db")
	out, err := exec.Command(bin, "keys", "create", "--store", store, "--name", "streambench", "--wait", "0").Output()
	if err != nil {
		return nil, fmt.Errorf("unitd keys create: %w", err)
	}
	return start(exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--store", store, "--env", "test",
		"--rate-limit", "1000000/s", "--admin-addr", "off", "--log-level", "info"), strings.TrimSpace(string(out)))
}

// start runs cmd, a server that logs {"msg":"listening","addr":URL} as
// a JSON line on stderr once it listens.
func start(cmd *exec.Cmd, key string) (*server, error) {
	s := &server{cmd: cmd, key: key, done: make(chan error, 1)}
	s.cmd.Stdout = io.Discard
	logs, err := s.cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(logs)
		sent := false
		for sc.Scan() {
			var line struct{ Msg, Addr string }
			if json.Unmarshal(sc.Bytes(), &line) == nil && line.Msg == "listening" && !sent {
				addr <- line.Addr
				sent = true
			}
		}
	}()
	go func() { s.done <- s.cmd.Wait() }()
	select {
	case s.url = <-addr:
		return s, nil
	case err := <-s.done:
		return nil, fmt.Errorf("unitd serve exited: %v", err)
	case <-time.After(60 * time.Second):
		s.stop()
		return nil, errors.New(s.cmd.Path + " did not listen within 60 s")
	}
}

// startBare records unitd's answers to the workload's Rows rows and runs
// this command again as the bare server that replays them.
func startBare(unitd *server, dir string) (*server, error) {
	rows := filepath.Join(dir, "rows-once.ndjson")
	if err := writeLines(rows, batchmix.Rows, func(b []byte, i int) []byte {
		return append(batchmix.AppendItem(b, batchmix.Pairs, i), '\n')
	}); err != nil {
		return nil, err
	}
	answers, err := unitd.answers(rows)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, "answers.ndjson")
	if err := os.WriteFile(path, answers, 0o600); err != nil {
		return nil, err
	}
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	return start(exec.Command(self, "-bare-answers", path), unitd.key)
}

// answers returns unitd's answer lines to the NDJSON file, without the
// meta line.
func (s *server) answers(path string) ([]byte, error) {
	body, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequest(http.MethodPost, s.url+"/v1/batch", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+s.key)
	req.Header.Set("Content-Type", "application/x-ndjson")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	i := bytes.LastIndex(b, []byte(`{"meta":`))
	if resp.StatusCode != http.StatusOK || i < 0 {
		return nil, fmt.Errorf("recording the answers: status %d: %.200s", resp.StatusCode, b)
	}
	return b[:i], nil
}

// serveBare serves the bare handler on a free port of 127.0.0.1, with
// the http.Server settings of unitd's own Serve, until it is interrupted.
func serveBare(answersFile string) error {
	b, err := os.ReadFile(answersFile)
	if err != nil {
		return err
	}
	var answers [][]byte
	for line := range bytes.Lines(b) {
		answers = append(answers, line)
	}
	if len(answers) == 0 {
		return errors.New("no answers to replay")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	logger := slog.New(slog.NewJSONHandler(os.Stderr, nil))
	srv := unitdserver.New(unitdserver.Config{Logger: logger}).HTTPServer(bareHandler(answers))
	logger.Info("listening", "addr", "http://"+ln.Addr().String())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// bareHandler answers an NDJSON body as unitd does, without converting:
// a read buffer at a time, each whole line with the recorded answer to
// its row, sent and flushed after each read, then the meta line.
func bareHandler(answers [][]byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		if err := rc.EnableFullDuplex(); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/x-ndjson")
		w.Header().Set("Connection", "close")
		in := make([]byte, 64<<10)
		out := make([]byte, 0, 128<<10)
		end, n := 0, 0
		for {
			k, err := r.Body.Read(in[end:])
			end += k
			start := 0
			for {
				i := bytes.IndexByte(in[start:end], '\n')
				if i < 0 {
					break
				}
				out = append(out, answers[n%len(answers)]...)
				n++
				start += i + 1
				if len(out) >= 64<<10 {
					w.Write(out)
					out = out[:0]
				}
			}
			w.Write(out)
			out = out[:0]
			rc.Flush()
			end = copy(in, in[start:end])
			if err != nil {
				break
			}
		}
		fmt.Fprintf(w, `{"meta":{"total":%d,"succeeded":%d,"failed":0}}`+"\n", n, n)
	})
}

// stop ends the server with SIGTERM, as a deployment would.
func (s *server) stop() {
	s.cmd.Process.Signal(os.Interrupt)
	select {
	case <-s.done:
	case <-time.After(20 * time.Second):
		s.cmd.Process.Kill()
		<-s.done
	}
}

// stream sends the NDJSON file as one batch and returns how long the
// answer took, from the request to the meta line, checking it.
func (s *server) stream(path string, lines int) (time.Duration, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, s.url+"/v1/batch", f)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+s.key)
	req.Header.Set("Content-Type", "application/x-ndjson")
	start := time.Now()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		return 0, fmt.Errorf("status %d: %s", resp.StatusCode, b)
	}
	n, last, err := countLines(resp.Body)
	d := time.Since(start)
	if err != nil {
		return 0, err
	}
	want := fmt.Sprintf(`{"meta":{"total":%d,"succeeded":%d,"failed":0}}`, lines, lines)
	if n != lines+1 || last != want {
		return 0, fmt.Errorf("%d lines ending %s, want %d answers and %s", n, last, lines, want)
	}
	return d, nil
}

// countLines reads r to its end and returns its number of lines and the
// last one.
func countLines(r io.Reader) (int, string, error) {
	buf := make([]byte, 256<<10)
	var tail []byte
	n := 0
	for {
		k, err := r.Read(buf)
		chunk := buf[:k]
		if c := bytes.Count(chunk, []byte("\n")); c > 0 {
			n += c
			tail = tail[:0]
			// The last whole line is what follows the second-to-last
			// newline of the chunk (or of the tail kept before it).
			chunk = bytes.TrimSuffix(chunk, []byte("\n"))
			if i := bytes.LastIndexByte(chunk, '\n'); i >= 0 {
				chunk = chunk[i+1:]
			}
		}
		tail = append(tail, chunk...)
		if len(tail) > 1<<16 {
			tail = tail[len(tail)-1<<16:]
		}
		if err == io.EOF {
			return n, strings.TrimSuffix(string(tail), "\n"), nil
		}
		if err != nil {
			return n, "", err
		}
	}
}

// concurrent sends the file as k batches at once and returns the total
// rate in lines per second.
func (s *server) concurrent(path string, lines, k int) (float64, error) {
	var wg sync.WaitGroup
	errs := make([]error, k)
	start := time.Now()
	for i := range k {
		wg.Go(func() { _, errs[i] = s.stream(path, lines) })
	}
	wg.Wait()
	d := time.Since(start)
	if err := errors.Join(errs...); err != nil {
		return 0, err
	}
	return float64(k*lines) / d.Seconds(), nil
}

// watchRSS samples the server's resident memory every 10 ms until the
// returned function is called, which returns the peak.
func (s *server) watchRSS() func() int64 {
	stop := make(chan struct{})
	peak := make(chan int64, 1)
	go func() {
		var max int64
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			if v, err := rss(s.cmd.Process.Pid); err == nil && v > max {
				max = v
			}
			select {
			case <-stop:
				peak <- max
				return
			case <-t.C:
			}
		}
	}()
	return func() int64 { close(stop); return <-peak }
}

// rss reads VmRSS of a process from /proc, in bytes.
func rss(pid int) (int64, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, fmt.Errorf("reading the server's memory (needs Linux /proc): %w", err)
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10, err
		}
	}
	return 0, errors.New("no VmRSS in /proc/" + strconv.Itoa(pid) + "/status")
}

func report(w io.Writer, o options, rounds []figures) {
	const mb = 1 << 20
	fmt.Fprintln(w, "\nPer round (lines per second; server memory around the single stream):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "round\tcli\tstream\tstream/cli\t%d streams\t/stream\tbare\tbare %d\t/bare\tRSS before\tRSS peak\tgrowth\tpeak, %d streams\t\n", o.streams, o.streams, o.streams)
	var best figures
	var growth int64
	for i, f := range rounds {
		fmt.Fprintf(tw, "%d\t%.0f\t%.0f\t%.2f\t%.0f\t%.2f\t%.0f\t%.0f\t%.2f\t%.1f MB\t%.1f MB\t%.1f MB\t%.1f MB\t\n", i+1, f.cli, f.stream, f.stream/f.cli,
			f.streams, f.streams/f.stream, f.bare, f.bareStreams, f.bareStreams/f.bare,
			float64(f.rssBefore)/mb, float64(f.rssPeak)/mb, float64(f.rssPeak-f.rssBefore)/mb, float64(f.rssPeakStreams)/mb)
		best.cli, best.stream, best.streams = max(best.cli, f.cli), max(best.stream, f.stream), max(best.streams, f.streams)
		best.bare, best.bareStreams = max(best.bare, f.bare), max(best.bareStreams, f.bareStreams)
		growth = max(growth, f.rssPeak-f.rssBefore)
	}
	tw.Flush()
	fmt.Fprintf(w, "\nSummary (best of %d):\n", len(rounds))
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "measure\tfigure\ttarget\tresult\t")
	verdict := func(ok bool) string {
		if ok {
			return "PASS"
		}
		return "BELOW TARGET <<<"
	}
	fmt.Fprintf(tw, "one stream ÷ unitd convert -\t%.2f× (%.0f / %.0f lines/s)\t≥ 0.7×\t%s\t\n", best.stream/best.cli, best.stream, best.cli, verdict(best.stream >= 0.7*best.cli))
	fmt.Fprintf(tw, "%d streams ÷ one stream\t%.2f× (%.0f / %.0f lines/s)\t≥ 1.5×\t%s\t\n", o.streams, best.streams/best.stream, best.streams, best.stream, verdict(best.streams >= 1.5*best.stream))
	fmt.Fprintf(tw, "server RSS growth during one stream (worst round)\t%.1f MB\t≤ 50 MB\t%s\t\n", float64(growth)/mb, verdict(growth <= 50*mb))
	tw.Flush()
	fmt.Fprintf(w, "\nThe bare handler (no conversion) on this machine now: one stream %.0f lines/s (unitd %.2f× of it); %d streams ÷ one %.2f×,\n"+
		"the most the machine let %d streams gain over one during this run.\n",
		best.bare, best.stream/best.bare, o.streams, best.bareStreams/best.bare, o.streams)
}
