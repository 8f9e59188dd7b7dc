package server

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/unitd/unitd/apikey"
	"github.com/unitd/unitd/server/ratelimit"
)

// fakeClock is a clock the tests move by hand.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// swapKeys is a key source whose set a test replaces, as the store's
// poller does when a key is revoked.
type swapKeys struct{ set atomic.Pointer[apikey.Set] }

func (k *swapKeys) Current() *apikey.Set { return k.set.Load() }

// keyRecords makes n test keys and their records, created at created.
func keyRecords(t *testing.T, n int, created time.Time) ([]apikey.Record, []string) {
	t.Helper()
	var recs []apikey.Record
	var keys []string
	for i := range n {
		key, err := apikey.Generate("test")
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.Sum256([]byte(key))
		recs = append(recs, apikey.Record{ID: "key_" + strconv.Itoa(i), Name: "k" + strconv.Itoa(i), Env: "test", Prefix: key[:12],
			CreatedAt: created, Hash: hex.EncodeToString(h[:])})
		keys = append(keys, key)
	}
	return recs, keys
}

// revoked returns recs with record i revoked at at.
func revoked(recs []apikey.Record, i int, at time.Time) *apikey.Set {
	out := append([]apikey.Record(nil), recs...)
	out[i].RevokedAt = &at
	return apikey.NewSet(out)
}

// rowsReader is the body of rows [next, end) of a stream whose row i is
// {"value":"i","from":"m","to":"km"}: each answer names its row. After
// stop it ends, as a client that saw the stream end stops sending.
type rowsReader struct {
	next, end int
	pending   []byte
	stopped   atomic.Bool
}

func (r *rowsReader) Read(p []byte) (int, error) {
	if r.stopped.Load() {
		return 0, io.EOF
	}
	for len(r.pending) < len(p) && r.next < r.end {
		r.pending = append(r.pending, `{"value":"`...)
		r.pending = strconv.AppendInt(r.pending, int64(r.next), 10)
		r.pending = append(r.pending, `","from":"m","to":"km"}`+"\n"...)
		r.next++
	}
	if len(r.pending) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.pending)
	r.pending = r.pending[:copy(r.pending, r.pending[n:])]
	return n, nil
}

// streamEnd is the error line of a stream that ended early.
type streamEnd struct {
	Error struct {
		Code       string
		Message    string
		RequestID  string `json:"request_id"`
		RetryAfter int    `json:"retry_after"`
		ResumeFrom *int   `json:"resume_from"`
	}
}

// streamMeta is the meta line of a stream.
type streamMeta struct {
	Meta *struct{ Total, Succeeded, Failed int }
}

// readAnswer reads a stream's answer: its item lines (each checked to be
// the answer to row offset+index, in order), its error line if any, and
// its meta line, which must be the last. It calls onEnd when the error
// line comes.
func readAnswer(t *testing.T, rd io.Reader, offset int, onEnd func()) (items int, end *streamEnd, meta streamMeta) {
	t.Helper()
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	var item struct {
		Index  int
		Status string
		Input  struct{ Value string }
	}
	for sc.Scan() {
		line := sc.Bytes()
		if meta.Meta != nil {
			t.Fatalf("a line after the meta line: %s", line)
		}
		switch {
		case bytes.HasPrefix(line, []byte(`{"index":`)):
			if end != nil {
				t.Fatalf("an item after the error line: %s", line)
			}
			if err := json.Unmarshal(line, &item); err != nil {
				t.Fatalf("%v: %s", err, line)
			}
			if item.Index != items || item.Status != "success" || item.Input.Value != strconv.Itoa(offset+items) {
				t.Fatalf("answer %d of the stream from row %d: %s", items, offset, line)
			}
			items++
		case bytes.HasPrefix(line, []byte(`{"error":`)):
			end = new(streamEnd)
			if err := json.Unmarshal(line, end); err != nil || end.Error.ResumeFrom == nil {
				t.Fatalf("error line %s: %v", line, err)
			}
			if onEnd != nil {
				onEnd()
			}
		case bytes.HasPrefix(line, []byte(`{"meta":`)):
			if err := json.Unmarshal(line, &meta); err != nil {
				t.Fatalf("meta line %s: %v", line, err)
			}
		default:
			t.Fatalf("an unexpected line: %s", line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("after %d answers from row %d: %v", items, offset, err)
	}
	if meta.Meta == nil {
		t.Fatalf("no meta line after %d answers from row %d", items, offset)
	}
	return items, end, meta
}

// postRows sends body as a stream with key and returns the response.
func postRows(t *testing.T, client *http.Client, url, key string, body io.Reader) *http.Response {
	t.Helper()
	req, err := http.NewRequest("POST", url+"/v1/batch", body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", ndjson)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// streamLogLines returns the access log lines of /v1/batch.
func streamLogLines(logs string) []map[string]any {
	var found []map[string]any
	for _, l := range splitLines([]byte(logs)) {
		var m map[string]any
		if json.Unmarshal([]byte(l), &m) == nil && m["msg"] == "request" && m["route"] == "/v1/batch" {
			found = append(found, m)
		}
	}
	return found
}

// TestStreamResumeMakeRunDefaults: a stream of 200,000 lines against the
// limits of make run (600 requests a minute per key, a stream waiting up
// to 10 s for them), sent again from where each error line says, yields
// every row exactly once. The first stream ends at 70,000 lines: 600
// requests of 100 lines in the bucket, then 10 s of waiting at 10 a
// second; each later one when its 10 s of waiting run out. Every stream
// ends on a line boundary, its error line's resume_from is the number of
// lines it answered, its meta line says the same, and its access log line
// counts what the client got. The clock is the test's: waiting moves it.
func TestStreamResumeMakeRunDefaults(t *testing.T) {
	const rows = 200_000
	clock := newFakeClock()
	rate, err := ratelimit.ParseRate("600/m") // unitd serve's --rate-limit default
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, func(c *Config) {
		c.Limiter = ratelimit.NewMemory(rate, ratelimit.WithClock(clock.Now))
		c.Now = clock.Now
		c.streamSleep = func(d time.Duration, _ <-chan struct{}) bool {
			clock.Advance(d)
			return true
		}
	})
	if f.srv.cfg.StreamRateWait != 10*time.Second || f.srv.cfg.MaxStreamLine != 64<<10 {
		t.Fatalf("the defaults moved: %v, %d", f.srv.cfg.StreamRateWait, f.srv.cfg.MaxStreamLine)
	}
	seen := make([]byte, rows)
	var rounds []int
	for offset := 0; offset < rows; {
		if len(rounds) > 50 {
			t.Fatalf("%d rounds and still at row %d", len(rounds), offset)
		}
		body := &rowsReader{next: offset, end: rows}
		resp := postRows(t, f.ts.Client(), f.ts.URL, f.keys["good"], body)
		items, end, meta := readAnswer(t, resp.Body, offset, func() { body.stopped.Store(true) })
		resp.Body.Close()
		for i := offset; i < offset+items; i++ {
			seen[i]++
		}
		if meta.Meta.Total != items || meta.Meta.Succeeded != items {
			t.Fatalf("round %d: %d answers, meta %+v", len(rounds), items, *meta.Meta)
		}
		rounds = append(rounds, items)
		if end == nil {
			if offset+items != rows {
				t.Fatalf("a stream from row %d ended after %d answers without an error line", offset, items)
			}
			break
		}
		if end.Error.Code != codeRateLimitExceeded || *end.Error.ResumeFrom != items || end.Error.RetryAfter != 1 {
			t.Fatalf("round %d from row %d, %d answers: %+v", len(rounds), offset, items, end.Error)
		}
		clock.Advance(time.Duration(end.Error.RetryAfter) * time.Second)
		offset += *end.Error.ResumeFrom
	}
	for i, n := range seen {
		if n != 1 {
			t.Fatalf("row %d answered %d times", i, n)
		}
	}
	if rounds[0] != 70_000 {
		t.Errorf("the first stream answered %d lines, want 70,000", rounds[0])
	}
	logs := streamLogLines(f.logs.String())
	if len(logs) != len(rounds) {
		t.Fatalf("%d log lines for %d streams", len(logs), len(rounds))
	}
	for i, l := range logs {
		if l["items"] != float64(rounds[i]) {
			t.Errorf("stream %d: the log counts %v items, the client got %d", i, l["items"], rounds[i])
		}
	}
	t.Logf("%d streams: %v", len(rounds), rounds)
}

// TestStreamSlowReaderGetsTheEnd: a stream that ends early for the rate
// limit while its client is still sending, and reads slowly, reaches the
// client whole: every answer, the error line and the meta line, then a
// clean end of the answer, never a reset. The access log counts what the
// client got.
func TestStreamSlowReaderGetsTheEnd(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.StreamRateWait = -1 })
	f.lim.decide = func(key string, n int) ratelimit.Decision {
		if n <= 3 {
			return allowAll(key, n)
		}
		return ratelimit.Decision{Allowed: false, Limit: 600, Reset: time.Minute, RetryAfter: 30 * time.Second}
	}
	// Small socket buffers on both sides: answers the client has not read
	// yet stay in the server's, where a reset would lose them.
	addr := httptestServer(t, f.srv.Handler(), func(l net.Listener) net.Listener { return smallBuffers{l} })
	client := &http.Client{Transport: &http.Transport{
		DisableKeepAlives: true,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
			if tc, ok := c.(*net.TCPConn); ok {
				tc.SetReadBuffer(4 << 10)
			}
			return c, err
		},
	}}
	// The client sends all of its 20,000 rows whatever the answer says,
	// as curl does.
	resp := postRows(t, client, "http://"+addr, f.keys["good"], &rowsReader{end: 20_000})
	defer resp.Body.Close()
	items, end, meta := readAnswer(t, &slowReader{r: resp.Body}, 0, nil)
	if items != 300 || end == nil || end.Error.Code != codeRateLimitExceeded || *end.Error.ResumeFrom != 300 || end.Error.RetryAfter != 30 ||
		meta.Meta.Total != 300 {
		t.Fatalf("%d answers, end %+v, meta %+v", items, end, meta.Meta)
	}
	if l := waitLog(t, f); l["items"] != 300.0 || l["end"] != endRateLimited {
		t.Errorf("log line %v", l)
	}
}

// slowReader reads a little at a time, yielding between reads.
type slowReader struct{ r io.Reader }

func (s *slowReader) Read(p []byte) (int, error) {
	time.Sleep(200 * time.Microsecond)
	return s.r.Read(p[:min(len(p), 512)])
}

// TestStreamRevokedAtItsNextToken: a stream checks its key at every token
// it takes: the key revoked while the stream runs, it ends at the next
// 100 lines with an INVALID_API_KEY line carrying resume_from, then the
// meta line.
func TestStreamRevokedAtItsNextToken(t *testing.T) {
	clock := newFakeClock()
	recs, keys := keyRecords(t, 1, clock.Now().Add(-time.Hour))
	src := &swapKeys{}
	src.set.Store(apikey.NewSet(recs))
	f := newFixture(t, func(c *Config) { c.Keys, c.Now = src, clock.Now })
	f.lim.decide = func(key string, n int) ratelimit.Decision {
		if n == 2 { // the token of lines 100 to 199
			src.set.Store(revoked(recs, 0, clock.Now()))
		}
		return allowAll(key, n)
	}
	resp := postRows(t, f.ts.Client(), f.ts.URL, keys[0], &rowsReader{end: 350})
	defer resp.Body.Close()
	items, end, meta := readAnswer(t, resp.Body, 0, nil)
	if items != 200 || end == nil || end.Error.Code != codeInvalidAPIKey || *end.Error.ResumeFrom != 200 || meta.Meta.Total != 200 {
		t.Fatalf("%d answers, end %+v, meta %+v", items, end, meta.Meta)
	}
	if l := waitLog(t, f); l["end"] != endRevoked || l["items"] != 200.0 {
		t.Errorf("log line %v", l)
	}
}

// idleStream starts a stream of n rows whose client then sends nothing
// more, and returns its answer's reader after the n answers, and the
// writer of its body.
func idleStream(t *testing.T, url, key string, n int) (*bufio.Reader, *io.PipeWriter) {
	t.Helper()
	pr, pw := io.Pipe()
	t.Cleanup(func() { pw.Close() })
	go io.Copy(pw, &rowsReader{end: n})
	req, err := http.NewRequest("POST", url+"/v1/batch", pr)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", ndjson)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("stream: %d %s", resp.StatusCode, b)
	}
	t.Cleanup(func() { resp.Body.Close() })
	rd := bufio.NewReader(resp.Body)
	for i := range n {
		line, err := rd.ReadString('\n')
		if err != nil || !strings.HasPrefix(line, `{"index":`+strconv.Itoa(i)+`,`) {
			t.Fatalf("answer %d = %q, %v", i, line, err)
		}
	}
	return rd, pw
}

// TestStreamRevokedWhileIdle: a stream whose client sends nothing while
// its key is revoked ends on the timer, within a second of the change
// reaching the server, long before the read timeout, with an
// INVALID_API_KEY line and the meta line.
func TestStreamRevokedWhileIdle(t *testing.T) {
	recs, keys := keyRecords(t, 1, time.Now().Add(-time.Hour))
	src := &swapKeys{}
	src.set.Store(apikey.NewSet(recs))
	f := newFixture(t, func(c *Config) { c.Keys, c.Now, c.ReadTimeout = src, time.Now, time.Minute })
	rd, _ := idleStream(t, f.ts.URL, keys[0], 150)
	at := time.Now()
	src.set.Store(revoked(recs, 0, at))
	rest, err := io.ReadAll(rd)
	took := time.Since(at)
	lines := splitLines(rest)
	if err != nil || len(lines) != 2 || !strings.HasPrefix(lines[0], `{"error":{"code":"INVALID_API_KEY","message":"the API key was revoked or has expired; `) ||
		!strings.HasSuffix(lines[0], `"resume_from":150}}`) || lines[1] != metaLine(150, 150) {
		t.Fatalf("after the revocation (%v): %s %v", took, rest, err)
	}
	if took >= f.srv.cfg.ReadTimeout {
		t.Errorf("the stream ended after %v, the read timeout", took)
	}
	t.Logf("the stream ended %v after its key was revoked", took)
}

// TestStreamKeyExpires: a key that expires while its stream runs ends the
// stream at the next check, as a revocation does.
func TestStreamKeyExpires(t *testing.T) {
	clock := newFakeClock()
	recs, keys := keyRecords(t, 1, clock.Now().Add(-time.Hour))
	expiry := clock.Now().Add(time.Hour)
	recs[0].ExpiresAt = &expiry
	src := &swapKeys{}
	src.set.Store(apikey.NewSet(recs))
	f := newFixture(t, func(c *Config) { c.Keys, c.Now, c.ReadTimeout = src, clock.Now, time.Minute })
	rd, _ := idleStream(t, f.ts.URL, keys[0], 120)
	f.srv.checkStreams() // the key is good for another hour
	clock.Advance(time.Hour)
	f.srv.checkStreams()
	rest, err := io.ReadAll(rd)
	lines := splitLines(rest)
	if err != nil || len(lines) != 2 || !strings.HasPrefix(lines[0], `{"error":{"code":"INVALID_API_KEY"`) ||
		!strings.HasSuffix(lines[0], `"resume_from":120}}`) || lines[1] != metaLine(120, 120) {
		t.Fatalf("after the expiry: %s %v", rest, err)
	}
}

// TestStreamMinRate: a body that trickles, below StreamMinRate once the
// grace has passed, ends with a REQUEST_TIMEOUT line carrying
// resume_from, then the meta line, whatever the read timeout.
func TestStreamMinRate(t *testing.T) {
	f := newFixture(t, func(c *Config) {
		c.ReadTimeout, c.StreamMinRate, c.StreamGrace = time.Minute, 1000, 300*time.Millisecond
	})
	rd, pw := idleStream(t, f.ts.URL, f.keys["good"], 2)
	go func() {
		// A byte every 20 ms: 50 bytes a second.
		for {
			if _, err := pw.Write([]byte(" ")); err != nil {
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	rest, err := io.ReadAll(rd)
	lines := splitLines(rest)
	if err != nil || len(lines) != 2 || !strings.HasPrefix(lines[0], `{"error":{"code":"REQUEST_TIMEOUT","message":"the body came too slowly: nothing for 1m0s, or less than 1000 bytes a second after the first 300ms; `) ||
		!strings.HasSuffix(lines[0], `"resume_from":2}}`) || lines[1] != metaLine(2, 2) {
		t.Fatalf("after trickling: %s %v", rest, err)
	}
	if l := waitLog(t, f); l["end"] != endTimeout {
		t.Errorf("log line %v", l)
	}
}

// TestStreamsPerKey: a key holds at most MaxStreamsPerKey streams at once;
// the next is refused with 429 and Retry-After before its body is read,
// while another key still streams, and a stream that ended frees its
// place.
func TestStreamsPerKey(t *testing.T) {
	recs, keys := keyRecords(t, 2, time.Now().Add(-time.Hour))
	src := &swapKeys{}
	src.set.Store(apikey.NewSet(recs))
	f := newFixture(t, func(c *Config) { c.Keys, c.Now, c.MaxStreamsPerKey = src, time.Now, 2 })
	_, first := idleStream(t, f.ts.URL, keys[0], 1)
	idleStream(t, f.ts.URL, keys[0], 1)
	req := f.request(t, "POST", "/v1/batch", keys[0], ndjson, `{"value":"1","from":"ft","to":"m"}`)
	resp, body := f.do(t, req)
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "1" ||
		!strings.Contains(string(body), `"code":"RATE_LIMIT_EXCEEDED","message":"this key has 2 NDJSON streams open, the most one key may;`) {
		t.Errorf("a third stream of one key: %d %s", resp.StatusCode, body)
	}
	idleStream(t, f.ts.URL, keys[1], 1)
	first.Close()
	for range 1000 { // the first stream ends once its body has
		if resp, _ = f.do(t, f.request(t, "POST", "/v1/batch", keys[0], ndjson, `{"value":"1","from":"ft","to":"m"}`)); resp.StatusCode == 200 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if resp.StatusCode != 200 {
		t.Errorf("after a stream ended: %d", resp.StatusCode)
	}
}

// TestStreamsShareOfConnections: streams take at most half of MaxConns,
// whatever keys they come with: past it a stream is refused with 429,
// and another client's requests still find a connection.
func TestStreamsShareOfConnections(t *testing.T) {
	recs, keys := keyRecords(t, 3, time.Now().Add(-time.Hour))
	src := &swapKeys{}
	src.set.Store(apikey.NewSet(recs))
	f := newFixture(t, func(c *Config) { c.Keys, c.Now, c.MaxConns = src, time.Now, 8 })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- f.srv.Serve(ctx, ln) }()
	t.Cleanup(func() { cancel(); <-served })
	url := "http://" + ln.Addr().String()
	for i := range 4 {
		idleStream(t, url, keys[i%2], 1)
	}
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	req, _ := http.NewRequest("POST", url+"/v1/batch", strings.NewReader(`{"value":"1","from":"ft","to":"m"}`))
	req.Header.Set("Authorization", "Bearer "+keys[2])
	req.Header.Set("Content-Type", ndjson)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 429 || !strings.Contains(string(body), `"message":"the server has 4 NDJSON streams open, the most it holds at once; retry after 1 s"`) {
		t.Errorf("a fifth stream with 8 connections at most: %d %s", resp.StatusCode, body)
	}
	req, _ = http.NewRequest("GET", url+"/v1/convert?value=1&from=ft&to=m", nil)
	req.Header.Set("Authorization", "Bearer "+keys[2])
	if resp, err = client.Do(req); err != nil || resp.StatusCode != 200 {
		t.Errorf("another client's request while streams hold their share: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
}

// failingWriter takes the first budget bytes written to it, then fails,
// as a connection whose client left does.
type failingWriter struct {
	header http.Header
	budget int
	got    bytes.Buffer
}

func (w *failingWriter) Header() http.Header { return w.header }
func (w *failingWriter) WriteHeader(int)     {}
func (w *failingWriter) Flush()              {}
func (w *failingWriter) Write(b []byte) (int, error) {
	n := min(len(b), w.budget-w.got.Len())
	w.got.Write(b[:n])
	if n < len(b) {
		return n, errors.New("connection reset by peer")
	}
	return n, nil
}

// TestStreamLogCountsWhatWasSent: when the client is gone mid-stream, the
// access log counts the lines it was sent, never the ones answered in a
// write that failed.
func TestStreamLogCountsWhatWasSent(t *testing.T) {
	f := newFixture(t, nil)
	w := &failingWriter{header: http.Header{}, budget: 100_000}
	req := httptest.NewRequest("POST", "/v1/batch", &rowsReader{end: 5000})
	req.Header.Set("Authorization", "Bearer "+f.keys["good"])
	req.Header.Set("Content-Type", ndjson)
	f.srv.Handler().ServeHTTP(w, req)
	got := bytes.Count(w.got.Bytes(), []byte("\n")) // whole lines the client got
	l := logLine(t, f.logs.String())
	if l["end"] != endClientGone || l["items"].(float64) > float64(got) || got > 1000 {
		t.Errorf("the client got %d lines; log line %v", got, l)
	}
}
