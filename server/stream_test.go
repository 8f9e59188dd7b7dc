package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/unitd/unitd/internal/batchmix"
	"github.com/unitd/unitd/internal/promtext"
	"github.com/unitd/unitd/internal/race"
	"github.com/unitd/unitd/server/ratelimit"
)

const ndjson = "application/x-ndjson"

// streamPairs are the pairs of the streaming workload over testGraph:
// linear, affine, aliases, a rational formula, and two that fail (an
// incompatible pair, an unknown unit with suggestions).
var streamPairs = [][2]string{
	{"ft", "m"}, {"degC", "K"}, {"km/h", "m/s"}, {"L/100km", "km/L"}, {"gal", "L"},
	{"in", "cm"}, {"h", "s"}, {"°C", "degC"}, {"meters", "ft"}, {"kph", "km/h"},
	{"ft", "K"}, {"fet", "m"},
}

// streamRow appends row i of the test workload as an NDJSON line.
func streamRow(b []byte, i int) []byte {
	return append(batchmix.AppendItem(b, streamPairs, i), '\n')
}

// ndjsonLines is a body of n lines of the test workload.
func ndjsonLines(n int) string {
	b, _ := io.ReadAll(batchmix.Lines(n, streamRow))
	return string(b)
}

// postStream sends body as an NDJSON batch and returns the answer's lines.
func (f *fixture) postStream(t *testing.T, query string, body io.Reader) (*http.Response, []string) {
	t.Helper()
	req, err := http.NewRequest("POST", f.ts.URL+"/v1/batch"+query, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+f.keys["good"])
	req.Header.Set("Content-Type", ndjson)
	resp, b := f.do(t, req)
	return resp, splitLines(b)
}

func splitLines(b []byte) []string {
	s := strings.TrimSuffix(string(b), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// streamSucceeded is how many of the first n rows of the test workload
// succeed: all but the last two pairs.
func streamSucceeded(n int) int {
	failed := 0
	for i := range n {
		if i%len(streamPairs) >= len(streamPairs)-2 {
			failed++
		}
	}
	return n - failed
}

func metaLine(total, succeeded int) string {
	return fmt.Sprintf(`{"meta":{"total":%d,"succeeded":%d,"failed":%d}}`, total, succeeded, total-succeeded)
}

// logLine returns the one access log line of route, failing unless there
// is exactly one.
func logLine(t *testing.T, logs string) map[string]any {
	t.Helper()
	var found []map[string]any
	for _, l := range splitLines([]byte(logs)) {
		var m map[string]any
		if json.Unmarshal([]byte(l), &m) == nil && m["msg"] == "request" && m["route"] == "/v1/batch" {
			found = append(found, m)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d access log lines for /v1/batch, want 1:\n%s", len(found), logs)
	}
	return found[0]
}

// TestStreamLines: every line is answered in order, as the item it
// holds; a line that is not a valid item is a failed item and the stream
// goes on; blank lines are skipped; CR LF line ends and a last line
// without a newline are read; the query gives batch-wide options.
func TestStreamLines(t *testing.T) {
	f := newFixture(t, nil)
	body := strings.Join([]string{
		`{"value":"12.5","from":"ft","to":"m"}`,
		`{"value":"abc","from":"ft","to":"m"}`,
		``,
		`   `,
		`{"value":"1","from":"ft"`,
		`{"value":100,"from":"degC","to":"K","precision":2}` + "\r",
		`[1,2]`,
		`{"value":"1","from":"ft","to":"m","foo":1}`,
		`{"value":"1","from":"ft","to":"m"} {}`,
		"{\"value\":\"1\",\"from\":\"\xff\",\"to\":\"m\"}",
		` {"to":"cm","from":"in","value":"1"} `,
		`{"value":"1","from":"gallon","to":"L"}`,
		`{"value":"2","from":"m","to":"ft"}`, // the last line, without a newline
	}, "\n")
	resp, lines := f.postStream(t, "?precision=4", strings.NewReader(body))
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != ndjson {
		t.Fatalf("status %d, Content-Type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	want := []string{
		`{"index":0,"status":"success","input":{"value":"12.5","unit":"ft"},"result":{"value":"3.81","unit":"m"},"category":"length","exact":true}`,
		`{"index":1,"status":"error","input":{"value":"abc","unit":"ft"},"error":{"code":"INVALID_VALUE",`,
		`{"index":2,"status":"error","input":{"value":"1","unit":"ft"},"error":{"code":"INVALID_ITEM","message":"malformed JSON: expected ',' or '}' at byte 24"}}`,
		`{"index":3,"status":"success","input":{"value":"100","unit":"degC"},"result":{"value":"370","unit":"K"},"category":"temperature","exact":false}`,
		`{"index":4,"status":"error","input":{},"error":{"code":"INVALID_ITEM","message":"item must be an object with value, from and to"}}`,
		`{"index":5,"status":"error","input":{"value":"1","unit":"ft"},"error":{"code":"INVALID_ITEM","message":"unknown field \"foo\" (expected value, from, to, precision, quantity, q, locale, unit_display, usage, region, parts, substance, molar_mass, density, charge, conditions)"}}`,
		`{"index":6,"status":"error","input":{"value":"1","unit":"ft"},"error":{"code":"INVALID_ITEM","message":"malformed JSON: unexpected data after the top-level value at byte 35"}}`,
		`{"index":7,"status":"error","input":{"value":"1"},"error":{"code":"INVALID_ITEM","message":"malformed JSON: invalid UTF-8 in string at byte 21"}}`,
		`{"index":8,"status":"success","input":{"value":"1","unit":"in"},"result":{"value":"2.54","unit":"cm"},"category":"length","exact":true}`,
		`{"index":9,"status":"error","input":{"value":"1","unit":"gallon"},"error":{"code":"AMBIGUOUS_UNIT",`,
		`{"index":10,"status":"success","input":{"value":"2","unit":"m"},"result":{"value":"6.562","unit":"ft"},"category":"length","exact":false}`,
		metaLine(11, 4),
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), strings.Join(lines, "\n"))
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d = %s\nwant %s", i, lines[i], w)
		}
		if !json.Valid([]byte(lines[i])) {
			t.Errorf("line %d is not JSON: %s", i, lines[i])
		}
	}
	if l := logLine(t, f.logs.String()); l["items"] != 11.0 || l["succeeded"] != 4.0 || l["failed"] != 7.0 || l["end"] != endComplete {
		t.Errorf("log line %v", l)
	}
}

// TestStreamItemsMatchBatch: a line of a stream is read and answered
// exactly as the same item in "conversions" of a JSON batch, and the
// query's precision and explain act as the JSON batch's top-level ones.
func TestStreamItemsMatchBatch(t *testing.T) {
	f := newFixture(t, nil)
	items := []string{
		`{"value":"12.5","from":"ft","to":"m"}`,
		`{"to":"m","value":"1","from":"ft"}`,
		`{ "value" : 1e3 , "from" : "km" , "to" : "m" , "precision" : 3 }`,
		`{"value":"-300","from":"degC","to":"K"}`,
		`{"value":"x","from":"gallon","to":"L"}`,
		`7`, `null`, `"ft"`, `{}`,
		`{"value":"1","from":"m\u0000","to":"\ud800ft"}`,
		`{"value":"1","from":"m","to":"ft","to":"in"}`,
		`{"value":[[[{}]]],"from":"m","to":"ft"}`,
		`{"value":"1","from":"\u00b0C","to":"K"}`,
		`{"value":"1","from":"fet","to":"m"}`,
		`{"value":"1","from":"ft","to":"K"}`,
		`{"value":"1","from":"ft","to":"m","precision":0}`,
		`{"value":"1","from":"ft","to":"m","explain":true}`,
		`{"value":"1","from":"L/100km","to":"km/L"}`,
		`{"value":"","from":"","to":""}`,
	}
	for _, opts := range []struct{ query, fields string }{{"", ""}, {"?precision=5&explain=true", `,"precision":5,"explain":true`}} {
		_, b := f.do(t, f.request(t, "POST", "/v1/batch", f.keys["good"], js,
			`{"conversions":[`+strings.Join(items, ",")+`]`+opts.fields+`}`))
		var batch struct{ Data []json.RawMessage }
		if err := json.Unmarshal(b, &batch); err != nil || len(batch.Data) != len(items) {
			t.Fatalf("batch: %v %s", err, b)
		}
		_, lines := f.postStream(t, opts.query, strings.NewReader(strings.Join(items, "\n")))
		if len(lines) != len(items)+1 {
			t.Fatalf("%d lines for %d items", len(lines), len(items))
		}
		for i := range items {
			if lines[i] != string(batch.Data[i]) {
				t.Errorf("%s%s: item %s\nstream: %s\nbatch:  %s", opts.query, opts.fields, items[i], lines[i], batch.Data[i])
			}
		}
	}
}

// TestStreamMillionLines: a stream of a million lines, made as it is
// sent, is answered with a million lines in order and the meta line. Each
// line is checked: its index, and the rest against the JSON batch's answer
// to the same row; three are checked by value. Under the race detector,
// which makes it thirty seconds long, it sends 50,000 lines; `make test`
// also runs it without the detector, at full size.
func TestStreamMillionLines(t *testing.T) {
	lines := 1_000_000
	if race.Enabled {
		lines = 50_000
	}
	f := newFixture(t, func(c *Config) { c.Metrics = NewMetrics(promtext.NewRegistry()) })
	// The answer to each row, without its {"index":n, prefix, from JSON
	// batches of 100 rows.
	want := make([][]byte, batchmix.Rows)
	wantOK := 0
	for start := 0; start < batchmix.Rows; start += maxBatch {
		var b []byte
		for i := start; i < start+maxBatch; i++ {
			if i > start {
				b = append(b, ',')
			}
			b = batchmix.AppendItem(b, streamPairs, i)
		}
		_, body := f.do(t, f.request(t, "POST", "/v1/batch", f.keys["good"], js, `{"conversions":[`+string(b)+`]}`))
		var batch struct{ Data []json.RawMessage }
		if err := json.Unmarshal(body, &batch); err != nil || len(batch.Data) != maxBatch {
			t.Fatalf("batch: %v %s", err, body)
		}
		for k, item := range batch.Data {
			i := start + k
			prefix := `{"index":` + strconv.Itoa(k) + `,`
			if !bytes.HasPrefix(item, []byte(prefix)) {
				t.Fatalf("batch item %d: %s", k, item)
			}
			want[i] = item[len(prefix):]
			if bytes.Contains(item, []byte(`"status":"success"`)) {
				wantOK++
			}
		}
	}
	succeeded := wantOK * (lines / batchmix.Rows)
	for i := range lines % batchmix.Rows {
		if bytes.Contains(want[i], []byte(`"status":"success"`)) {
			succeeded++
		}
	}

	req, err := http.NewRequest("POST", f.ts.URL+"/v1/batch", batchmix.Lines(lines, streamRow))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+f.keys["good"])
	req.Header.Set("Content-Type", ndjson)
	resp, err := f.ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	n := 0
	var prefix []byte
	var last string
	for sc.Scan() {
		line := sc.Bytes()
		if n >= lines {
			last = string(line)
			n++
			continue
		}
		prefix = append(strconv.AppendInt(append(prefix[:0], `{"index":`...), int64(n), 10), ',')
		if !bytes.HasPrefix(line, prefix) || !bytes.Equal(line[len(prefix):], want[n%batchmix.Rows]) {
			t.Fatalf("line %d = %s\nwant %s%s", n, line, prefix, want[n%batchmix.Rows])
		}
		switch n {
		case 0, lines/2/batchmix.Rows*batchmix.Rows + 1, lines - 1:
			spotCheck(t, n, line, n == lines-1)
		}
		n++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n != lines+1 || last != metaLine(lines, succeeded) {
		t.Fatalf("%d lines ending %s; want %d and %s", n, last, lines+1, metaLine(lines, succeeded))
	}
}

// spotCheck checks line n of the million-line stream by value: row 0, 1 or
// (last) 1999 of the workload.
func spotCheck(t *testing.T, n int, line []byte, last bool) {
	t.Helper()
	var got struct {
		Index  int
		Status string
		Input  struct{ Value, Unit string }
		Result struct{ Value, Unit string }
	}
	if err := json.Unmarshal(line, &got); err != nil {
		t.Fatal(err)
	}
	rows := map[int][4]string{
		0:    {"1", "ft", "0.3048", "m"},
		1:    {"2.5", "degC", "275.65", "K"},
		1999: {"2000e1", "°C", "20000", "degC"},
	}
	want, ok := rows[n%batchmix.Rows]
	if !ok || last != (n%batchmix.Rows == 1999) {
		t.Fatalf("line %d is not a row to check", n)
	}
	if got.Index != n || got.Input.Value != want[0] || got.Input.Unit != want[1] || got.Result.Value != want[2] || got.Result.Unit != want[3] {
		t.Errorf("line %d = %s, want %v", n, line, want)
	}
}

// TestStreamAnswersWhileSending: the answer to a line leaves before the
// body ends, line by line, and then the meta line.
func TestStreamAnswersWhileSending(t *testing.T) {
	f := newFixture(t, nil)
	pr, pw := io.Pipe()
	req, err := http.NewRequest("POST", f.ts.URL+"/v1/batch", pr)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+f.keys["good"])
	req.Header.Set("Content-Type", ndjson)
	type answer struct {
		resp *http.Response
		err  error
	}
	answers := make(chan answer, 1)
	go func() {
		resp, err := f.ts.Client().Do(req)
		answers <- answer{resp, err}
	}()
	io.WriteString(pw, `{"value":"1","from":"ft","to":"m"}`+"\n")
	a := <-answers
	if a.err != nil {
		t.Fatal(a.err)
	}
	defer a.resp.Body.Close()
	rd := bufio.NewReader(a.resp.Body)
	for i, v := range []string{"1", "2", "3"} {
		if i > 0 {
			io.WriteString(pw, `{"value":"`+v+`","from":"ft","to":"m"}`+"\n")
		}
		line, err := rd.ReadString('\n')
		if err != nil || !strings.HasPrefix(line, `{"index":`+strconv.Itoa(i)+`,"status":"success","input":{"value":"`+v+`"`) {
			t.Fatalf("answer %d = %q, %v", i, line, err)
		}
	}
	pw.Close()
	rest, err := io.ReadAll(rd)
	if err != nil || string(rest) != metaLine(3, 3)+"\n" {
		t.Errorf("after the body: %q, %v", rest, err)
	}
}

// rawStream opens a connection to addr and sends the head of an NDJSON
// batch with the extra header lines.
func rawStream(t *testing.T, addr, key, headers string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	conn.SetDeadline(time.Now().Add(time.Minute))
	fmt.Fprintf(conn, "POST /v1/batch HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Type: %s\r\n%s\r\n", key, ndjson, headers)
	return conn
}

// TestStreamCutOff: a body that breaks off (its connection half-closed
// before Content-Length bytes came) is answered for what it has, its
// partial last line as a failed item, then the meta line.
func TestStreamCutOff(t *testing.T) {
	f := newFixture(t, nil)
	conn := rawStream(t, f.ts.Listener.Addr().String(), f.keys["good"], "Content-Length: 1000\r\n")
	io.WriteString(conn, `{"value":"1","from":"ft","to":"m"}`+"\n"+`{"value":"2","from":"ft","to":"m"}`+"\n"+`{"value":"3","fr`)
	conn.(*net.TCPConn).CloseWrite()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	lines := splitLines(b)
	if resp.StatusCode != 200 || len(lines) != 4 ||
		!strings.HasPrefix(lines[1], `{"index":1,"status":"success"`) ||
		!strings.HasPrefix(lines[2], `{"index":2,"status":"error","input":{"value":"3"},"error":{"code":"INVALID_ITEM","message":"malformed JSON: `) ||
		lines[3] != metaLine(3, 2) {
		t.Fatalf("%d:\n%s", resp.StatusCode, b)
	}
	if l := logLine(t, f.logs.String()); l["end"] != endCutOff {
		t.Errorf("log line %v", l)
	}
}

// smallBuffers gives the connections it accepts a small send buffer: the
// kernel holds little, so a client that stops reading blocks the server's
// writes soon.
type smallBuffers struct{ net.Listener }

func (l smallBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetWriteBuffer(8 << 10)
	}
	return c, err
}

// httptestServer serves h on a listener that wrap wraps, until the test
// ends, and returns its address.
func httptestServer(t *testing.T, h http.Handler, wrap func(net.Listener) net.Listener) string {
	t.Helper()
	ts := httptest.NewUnstartedServer(h)
	ts.Listener = wrap(ts.Listener)
	ts.Start()
	t.Cleanup(ts.Close)
	return ts.Listener.Addr().String()
}

// waitGoroutines waits until no more goroutines run than base.
func waitGoroutines(t *testing.T, base int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for runtime.NumGoroutine() > base {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines, %d before the stream:\n%s", runtime.NumGoroutine(), base, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitLog waits for the access log of the stream to say how it ended.
func waitLog(t *testing.T, f *fixture) map[string]any {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(f.logs.String(), `"end":`) {
		if time.Now().After(deadline) {
			t.Fatalf("the stream did not end:\n%s", f.logs.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	return logLine(t, f.logs.String())
}

// TestStreamClientGone: a client that disconnects in the middle of a
// stream pins nothing: the handler ends, its goroutines and buffers are
// let go (the goroutine count returns to what it was, no stream is in
// flight) and the stream's one log line says the client is gone.
func TestStreamClientGone(t *testing.T) {
	reg := promtext.NewRegistry()
	f := newFixture(t, func(c *Config) { c.Metrics = NewMetrics(reg) })
	base := runtime.NumGoroutine()
	conn := rawStream(t, f.ts.Listener.Addr().String(), f.keys["good"], "Transfer-Encoding: chunked\r\n")
	sent := make(chan struct{})
	go func() {
		defer close(sent)
		chunk := ndjsonLines(200)
		for {
			if _, err := fmt.Fprintf(conn, "%x\r\n%s\r\n", len(chunk), chunk); err != nil {
				return
			}
		}
	}()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(resp.Body, make([]byte, 100_000)); err != nil {
		t.Fatal(err)
	}
	conn.Close()
	<-sent
	if end := waitLog(t, f)["end"]; end != endClientGone && end != endCutOff {
		t.Errorf("end %v, want %s or %s", end, endClientGone, endCutOff)
	}
	waitGoroutines(t, base)
	fams := scrape(t, f.srv.AdminHandler(reg))
	if v := value(fams, "unitd_batch_streams_in_flight", nil); v != 0 {
		t.Errorf("%v streams in flight", v)
	}
}

// TestStreamClientStopsReading: a client that keeps its connection but
// stops reading the answer is let go within the write timeout.
func TestStreamClientStopsReading(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.WriteTimeout = 200 * time.Millisecond })
	ts := httptestServer(t, f.srv.Handler(), func(l net.Listener) net.Listener { return smallBuffers{l} })
	base := runtime.NumGoroutine()
	conn := rawStream(t, ts, f.keys["good"], "Transfer-Encoding: chunked\r\n")
	conn.(*net.TCPConn).SetReadBuffer(8 << 10)
	sent := make(chan struct{})
	go func() {
		defer close(sent)
		chunk := ndjsonLines(200)
		for {
			if _, err := fmt.Fprintf(conn, "%x\r\n%s\r\n", len(chunk), chunk); err != nil {
				return
			}
		}
	}()
	if end := waitLog(t, f)["end"]; end != endClientGone {
		t.Errorf("end %v, want %s", end, endClientGone)
	}
	conn.Close()
	<-sent
	waitGoroutines(t, base)
}

// TestStreamLineLimit: past MaxStreamLines the stream ends with a
// BATCH_LIMIT_EXCEEDED line and the meta line of what was answered.
func TestStreamLineLimit(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.MaxStreamLines = 250 })
	resp, lines := f.postStream(t, "", strings.NewReader(ndjsonLines(300)))
	if resp.StatusCode != 200 || len(lines) != 252 {
		t.Fatalf("%d, %d lines", resp.StatusCode, len(lines))
	}
	if !strings.HasPrefix(lines[249], `{"index":249,`) ||
		!strings.HasPrefix(lines[250], `{"error":{"code":"BATCH_LIMIT_EXCEEDED","message":"a stream holds at most 250 lines; the lines after that were not read","request_id":"`) ||
		!strings.HasSuffix(lines[250], `"details":{"limit":250},"resume_from":250}}`) {
		t.Errorf("lines 249, 250:\n%s\n%s", lines[249], lines[250])
	}
	if lines[251] != metaLine(250, streamSucceeded(250)) {
		t.Errorf("meta %s", lines[251])
	}
	if l := logLine(t, f.logs.String()); l["end"] != endLineLimit || l["items"] != 250.0 {
		t.Errorf("log line %v", l)
	}
}

// TestStreamRateLimit: a stream takes one request from the key's budget
// per started 100 lines; when the budget runs out it waits for it, up to
// StreamRateWait in all, and a wait that would pass that ends it with a
// RATE_LIMIT_EXCEEDED line carrying retry_after and resume_from, then the
// meta line.
func TestStreamRateLimit(t *testing.T) {
	reg := promtext.NewRegistry()
	var waits []time.Duration
	f := newFixture(t, func(c *Config) {
		c.Metrics = NewMetrics(reg)
		c.streamSleep = func(d time.Duration, _ <-chan struct{}) bool {
			waits = append(waits, d)
			return true
		}
	})
	// Takes 1 to 3 pass; 4 is refused, and passes after a wait of 4 s;
	// 6 is refused again, and a second wait of 6.5 s would pass the 10 s.
	f.lim.decide = func(key string, n int) ratelimit.Decision {
		switch n {
		case 4:
			return ratelimit.Decision{Allowed: false, Limit: 600, Reset: time.Minute, RetryAfter: 4 * time.Second}
		case 6:
			return ratelimit.Decision{Allowed: false, Limit: 600, Reset: time.Minute, RetryAfter: 6500 * time.Millisecond}
		}
		return allowAll(key, n)
	}
	_, lines := f.postStream(t, "", strings.NewReader(ndjsonLines(550)))
	if len(lines) != 402 {
		t.Fatalf("%d lines", len(lines))
	}
	var stop struct {
		Error struct {
			Code, Message string
			RetryAfter    int `json:"retry_after"`
			ResumeFrom    int `json:"resume_from"`
		}
	}
	if err := json.Unmarshal([]byte(lines[400]), &stop); err != nil || stop.Error.RetryAfter != 7 || stop.Error.Code != codeRateLimitExceeded ||
		stop.Error.ResumeFrom != 400 || !strings.Contains(stop.Error.Message, "after 400 lines") || !strings.Contains(stop.Error.Message, "waits up to 10s in all") {
		t.Errorf("line 400 = %s (%v)", lines[400], err)
	}
	if lines[401] != metaLine(400, streamSucceeded(400)) {
		t.Errorf("meta %s", lines[401])
	}
	if len(f.lim.taken) != 6 || f.lim.taken[5] != "key_good" {
		t.Errorf("limiter asked %v", f.lim.taken)
	}
	if len(waits) != 1 || waits[0] != 4*time.Second {
		t.Errorf("waits %v, want one of 4s", waits)
	}
	fams := scrape(t, f.srv.AdminHandler(reg))
	if v := value(fams, "unitd_rate_limit_rejections_total", map[string]string{"route": "/v1/batch"}); v != 1 {
		t.Errorf("%v rejections", v)
	}
	if v := value(fams, "unitd_batch_streams_total", map[string]string{"end": endRateLimited}); v != 1 {
		t.Errorf("%v rate-limited streams", v)
	}
}

// TestStreamRateLimitCountsStartedHundreds: 100 lines are one request,
// 101 lines two.
func TestStreamRateLimitCountsStartedHundreds(t *testing.T) {
	for lines, takes := range map[int]int{1: 1, 100: 1, 101: 2, 200: 2, 201: 3} {
		f := newFixture(t, nil)
		f.postStream(t, "", strings.NewReader(ndjsonLines(lines)))
		if len(f.lim.taken) != takes {
			t.Errorf("%d lines took %d requests, want %d", lines, len(f.lim.taken), takes)
		}
	}
}

// TestStreamBodyLimit: a Content-Length over MaxStreamBody is refused
// before anything is read; a chunked body that grows past it is answered
// for the lines within it, then ends with PAYLOAD_TOO_LARGE; a body of
// exactly the limit is whole.
func TestStreamBodyLimit(t *testing.T) {
	const limit = 1000
	f := newFixture(t, func(c *Config) { c.MaxStreamBody = limit })
	line := `{"value":"1.5","from":"ft","to":"m"}` + "\n" // 37 bytes
	req := f.request(t, "POST", "/v1/batch", f.keys["good"], ndjson, strings.Repeat(line, 30))
	resp, b := f.do(t, req)
	if resp.StatusCode != 413 || !strings.Contains(string(b), `"code":"PAYLOAD_TOO_LARGE"`) {
		t.Errorf("Content-Length over the limit: %d %s", resp.StatusCode, b)
	}

	_, lines := f.postStream(t, "", io.MultiReader(strings.NewReader(strings.Repeat(line, 30))))
	if len(lines) != limit/len(line)+2 || !strings.HasPrefix(lines[27], `{"error":{"code":"PAYLOAD_TOO_LARGE","message":"the request body is larger than 1000 bytes"`) ||
		lines[28] != metaLine(27, 27) {
		t.Errorf("chunked body over the limit:\n%s", strings.Join(lines, "\n"))
	}

	exact := strings.Repeat(line, 27) + strings.Repeat(" ", limit-27*len(line))
	_, lines = f.postStream(t, "", io.MultiReader(strings.NewReader(exact)))
	if len(lines) != 28 || lines[27] != metaLine(27, 27) {
		t.Errorf("body of the limit:\n%s", strings.Join(lines, "\n"))
	}
}

// TestStreamLongLine: a line longer than MaxStreamLine is a failed item,
// read past without being kept, however long; the lines around it are
// answered.
func TestStreamLongLine(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.MaxStreamLine = 100 })
	ok := `{"value":"1","from":"ft","to":"m"}` + "\n"
	long := `{"value":"` + strings.Repeat("1", 150) + `","from":"ft","to":"m"}` + "\n"
	huge := `{"value":"` + strings.Repeat("9", 300_000) + `","from":"ft","to":"m"}` + "\n"
	limitLine := ok[:len(ok)-1] + strings.Repeat(" ", 100-(len(ok)-1)) + "\n" // 100 bytes and a newline
	_, lines := f.postStream(t, "", io.MultiReader(strings.NewReader(ok+long+ok+huge+limitLine+huge[:len(huge)-1])))
	want := []string{
		`{"index":0,"status":"success"`,
		`{"index":1,"status":"error","input":{},"error":{"code":"INVALID_ITEM","message":"the line is longer than 100 bytes"}}`,
		`{"index":2,"status":"success"`,
		`{"index":3,"status":"error","input":{},"error":{"code":"INVALID_ITEM","message":"the line is longer than 100 bytes"}}`,
		`{"index":4,"status":"success"`,
		`{"index":5,"status":"error","input":{},"error":{"code":"INVALID_ITEM","message":"the line is longer than 100 bytes"}}`,
		metaLine(6, 3),
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d = %s\nwant %s", i, lines[i], w)
		}
	}
}

// TestStreamLineLimitIsNotMaxBody: the line limit of streams is its own,
// 64 KiB by default, whatever MaxBody is: with a MaxBody of 16 MiB a line
// of 4 MiB is a failed item, the stream holds no buffer of its size (the
// memory the stream took stays under a MiB), and the stream goes on.
func TestStreamLineLimitIsNotMaxBody(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.MaxBody = 16 << 20 })
	ok := `{"value":"1","from":"ft","to":"m"}` + "\n"
	long := `{"value":"1","from":"ft","to":"m","q":"` + strings.Repeat("x", 4<<20) + `"}` + "\n"
	body := ok + long + ok
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	// A reader of the body without WriteTo, so that the client copies
	// it a buffer at a time rather than as one 4 MiB string.
	_, lines := f.postStream(t, "", struct{ io.Reader }{strings.NewReader(body)})
	runtime.ReadMemStats(&after)
	if len(lines) != 4 || !strings.HasPrefix(lines[0], `{"index":0,"status":"success"`) || !strings.HasPrefix(lines[2], `{"index":2,"status":"success"`) ||
		lines[1] != `{"index":1,"status":"error","input":{},"error":{"code":"INVALID_ITEM","message":"the line is longer than 65536 bytes"}}` {
		t.Fatalf("%d lines:\n%.2000s", len(lines), strings.Join(lines, "\n"))
	}
	if took := after.TotalAlloc - before.TotalAlloc; took > 1<<20 {
		t.Errorf("the stream of a %d-byte line allocated %d bytes", len(long), took)
	}
}

// TestStreamRequestErrors: what is checked before a stream starts keeps
// the contract's order and JSON error answers.
func TestStreamRequestErrors(t *testing.T) {
	f := newFixture(t, nil)
	for _, tc := range []struct {
		name, target, key, contentType, code string
		status                               int
	}{
		{"no key", "/v1/batch", "", ndjson, codeUnauthorized, 401},
		{"bad query", "/v1/batch?precison=3", "good", ndjson, codeInvalidRequest, 400},
		{"bad precision", "/v1/batch?precision=0", "good", ndjson, codeInvalidRequest, 400},
		{"bad explain", "/v1/batch?explain=yes", "good", ndjson, codeInvalidRequest, 400},
		{"other charset", "/v1/batch", "good", ndjson + "; charset=latin1", codeUnsupportedMediaType, 415},
		{"json lines type", "/v1/batch", "good", "application/jsonl", codeUnsupportedMediaType, 415},
	} {
		resp, b := f.do(t, f.request(t, "POST", tc.target, f.keys[tc.key], tc.contentType, `{"value":"1","from":"ft","to":"m"}`))
		if resp.StatusCode != tc.status || !strings.Contains(string(b), `"code":"`+tc.code+`"`) || resp.Header.Get("Content-Type") != js {
			t.Errorf("%s: %d %s", tc.name, resp.StatusCode, b)
		}
	}
	_, b := f.do(t, f.request(t, "POST", "/v1/batch", f.keys["good"], "text/plain", `{}`))
	if !strings.Contains(string(b), ndjson) {
		t.Errorf("415 does not name the NDJSON media type: %s", b)
	}
	resp, lines := f.postStream(t, "", strings.NewReader(""))
	if resp.StatusCode != 200 || len(lines) != 1 || lines[0] != metaLine(0, 0) {
		t.Errorf("empty stream: %d %v", resp.StatusCode, lines)
	}
}

// TestStreamMetricsAndLog: a stream's conversions count by category in the
// same counters as a batch's, and the stream has one access log line.
func TestStreamMetricsAndLog(t *testing.T) {
	reg := promtext.NewRegistry()
	f := newFixture(t, func(c *Config) { c.Metrics = NewMetrics(reg) })
	_, lines := f.postStream(t, "", strings.NewReader(ndjsonLines(24)))
	if len(lines) != 25 {
		t.Fatalf("%d lines", len(lines))
	}
	fams := scrape(t, f.srv.AdminHandler(reg))
	for _, c := range []struct {
		labels map[string]string
		want   float64
	}{
		{map[string]string{"category": "length", "outcome": "success"}, 6},
		{map[string]string{"category": "volume", "outcome": "success"}, 2},
		{map[string]string{"category": "time", "outcome": "success"}, 2},
		{map[string]string{"category": "temperature", "outcome": "success"}, 4},
		{map[string]string{"category": "speed", "outcome": "success"}, 4},
		{map[string]string{"category": "fuel_economy", "outcome": "success"}, 2},
		{map[string]string{"category": "none", "outcome": "INCOMPATIBLE_UNITS"}, 2},
		{map[string]string{"category": "none", "outcome": "UNKNOWN_UNIT"}, 2},
	} {
		if got := value(fams, "unitd_conversions_total", c.labels); got != c.want {
			t.Errorf("conversions %v = %v, want %v", c.labels, got, c.want)
		}
	}
	if v := value(fams, "unitd_batch_streams_total", map[string]string{"end": endComplete}); v != 1 {
		t.Errorf("%v complete streams", v)
	}
	if v := value(fams, "unitd_http_requests_total", map[string]string{"route": "/v1/batch", "status": "200"}); v != 1 {
		t.Errorf("%v requests", v)
	}
	if fams["unitd_http_request_duration_seconds"] != nil && value(fams, "unitd_http_request_duration_seconds", map[string]string{"route": "/v1/batch"}) != 0 {
		t.Errorf("a stream's duration is in the latency histogram")
	}
	if l := logLine(t, f.logs.String()); l["items"] != 24.0 || l["succeeded"] != 20.0 || l["failed"] != 4.0 || l["key_id"] != "key_good" {
		t.Errorf("log line %v", l)
	}
}

// streamThroughServe starts Serve on a fresh listener and an NDJSON batch
// whose body is written through the returned pipe; it returns the
// answer's reader.
func streamThroughServe(t *testing.T, f *fixture) (ctxCancel context.CancelFunc, served chan error, body *io.PipeWriter, answer *bufio.Reader) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served = make(chan error, 1)
	go func() { served <- f.srv.Serve(ctx, ln) }()
	t.Cleanup(cancel)
	pr, pw := io.Pipe()
	req, err := http.NewRequest("POST", "http://"+ln.Addr().String()+"/v1/batch", pr)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+f.keys["good"])
	req.Header.Set("Content-Type", ndjson)
	go io.WriteString(pw, ndjsonLines(150))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	rd := bufio.NewReader(resp.Body)
	for i := range 150 {
		line, err := rd.ReadString('\n')
		if err != nil || !strings.HasPrefix(line, `{"index":`+strconv.Itoa(i)+`,`) {
			t.Fatalf("answer %d = %q, %v", i, line, err)
		}
	}
	return cancel, served, pw, rd
}

// TestStreamShutdownEndsStreams: a graceful shutdown gives a stream in
// flight half of the shutdown timeout; one still open then ends with a
// SERVICE_UNAVAILABLE line and the meta line of what was answered, and
// the server shuts down cleanly.
func TestStreamShutdownEndsStreams(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.ShutdownTimeout = 4 * time.Second })
	cancel, served, pw, rd := streamThroughServe(t, f)
	defer pw.Close()
	cancel()
	rest, err := io.ReadAll(rd)
	if err != nil {
		t.Fatal(err)
	}
	lines := splitLines(rest)
	if len(lines) != 2 || !strings.HasPrefix(lines[0], `{"error":{"code":"SERVICE_UNAVAILABLE","message":"the server is shutting down; `) ||
		lines[1] != metaLine(150, streamSucceeded(150)) {
		t.Fatalf("after the shutdown began: %s", rest)
	}
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
	if l := logLine(t, f.logs.String()); l["end"] != endShutdown {
		t.Errorf("log line %v", l)
	}
}

// TestStreamShutdownFinishesStreams: a stream that ends within half of
// the shutdown timeout is answered whole.
func TestStreamShutdownFinishesStreams(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.ShutdownTimeout = 10 * time.Minute })
	cancel, served, pw, rd := streamThroughServe(t, f)
	cancel()
	for !f.srv.draining.Load() {
		time.Sleep(time.Millisecond)
	}
	io.WriteString(pw, `{"value":"1","from":"ft","to":"m"}`+"\n")
	pw.Close()
	rest, err := io.ReadAll(rd)
	if err != nil {
		t.Fatal(err)
	}
	lines := splitLines(rest)
	if len(lines) != 2 || !strings.HasPrefix(lines[0], `{"index":150,"status":"success"`) || lines[1] != metaLine(151, streamSucceeded(151)) {
		t.Fatalf("after the shutdown began: %s", rest)
	}
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
}

// FuzzStreamLines sends arbitrary bodies as NDJSON batches. Properties: no
// panic; a 200 whose every line is JSON; one answer per line that is not
// blank, in order, then a meta line that counts them; and a line that is a
// JSON value is answered exactly as the same item in a JSON batch.
func FuzzStreamLines(f *testing.F) {
	for _, seed := range []string{
		`{"value":"12.5","from":"ft","to":"m"}` + "\n" + `{"value":"x","from":"gallon","to":"L"}`,
		"\n\n  \r\n{\"value\":1e3,\"from\":\"km\",\"to\":\"m\",\"precision\":3}\r\n7\nnull\n[",
		`{"value":"1","from":"m\u0000","to":"\ud800ft"}` + "\n\xff\n{\"a\":",
		`{"value":[[[[{}]]]],"from":"m","to":"ft"} {}`,
		`{"to":"m","value":"1","from":"ft","to":"ft"}` + "\n" + `"ft"`,
	} {
		f.Add([]byte(seed))
	}
	set, ks := testKeys(f)
	s := New(Config{Keys: fakeKeys{set}, Env: "test", MaxBody: 256, MaxStreamLine: 256})
	s.ApplyGraph(testGraph(f))
	h := s.Handler()
	auth := "Bearer " + ks["good"]
	post := func(contentType string, body []byte) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, "/v1/batch", bytes.NewReader(body))
		req.Header.Set("Authorization", auth)
		req.Header.Set("Content-Type", contentType)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		rec := post(ndjson, body)
		if rec.Code != 200 || rec.Header().Get("Content-Type") != ndjson {
			t.Fatalf("status %d, %q for %q: %s", rec.Code, rec.Header().Get("Content-Type"), body, rec.Body)
		}
		answers := splitLines(rec.Body.Bytes())
		var items [][]byte
		for _, line := range bytes.Split(body, []byte("\n")) {
			if len(trimSpace(line)) > 0 {
				items = append(items, line)
			}
		}
		if len(answers) != len(items)+1 {
			t.Fatalf("%d answers for %d lines of %q:\n%s", len(answers), len(items), body, rec.Body)
		}
		succeeded := 0
		for i, a := range answers {
			if !json.Valid([]byte(a)) {
				t.Fatalf("answer %d is not JSON: %s", i, a)
			}
			if i == len(items) {
				break
			}
			if !strings.HasPrefix(a, `{"index":`+strconv.Itoa(i)+`,`) {
				t.Fatalf("answer %d out of order: %s", i, a)
			}
			if strings.Contains(a, `"status":"success"`) {
				succeeded++
			}
			line := trimSpace(items[i])
			if len(line) > 256 || !json.Valid(line) {
				continue
			}
			batch := post(js, []byte(`{"conversions":[`+string(line)+`]}`))
			var b struct{ Data []json.RawMessage }
			if batch.Code == 200 && json.Unmarshal(batch.Body.Bytes(), &b) == nil && len(b.Data) == 1 &&
				`{"index":`+strconv.Itoa(i)+string(bytes.TrimPrefix(b.Data[0], []byte(`{"index":0`))) != a {
				t.Fatalf("line %q\nstream: %s\nbatch:  %s", line, a, b.Data[0])
			}
		}
		if answers[len(items)] != metaLine(len(items), succeeded) {
			t.Fatalf("meta %s for %d items, %d succeeded", answers[len(items)], len(items), succeeded)
		}
	})
}
