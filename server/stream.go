package server

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/internal/jsonscan"
)

// NDJSON streams on POST /v1/batch
//
// A body of Content-Type application/x-ndjson holds one batch item per
// line, as many as the limits allow; the answer (application/x-ndjson
// too) is one result item per line, in order, then the meta line. The
// handler reads the body a buffer at a time, answers every whole line in
// the buffer, sends what it has, and reads on, so memory stays bounded
// (one read buffer, one write buffer) whatever the size of the body, and
// the first answers leave while the client is still sending.
//
// Each line is read by decodeItem, the reader of a JSON batch's items, at
// the same depth, and answered by batchRun.appendItem, so a line accepts
// and answers exactly what an element of "conversions" does. Batch-wide
// options come from the query (precision, explain, locale, unit_display,
// and the substance fields, under each line's own). Blank lines are
// skipped, as NDJSON readers may do; they are not items.
//
// Whatever ends a stream early ends it with one error line
// ({"error":{"code",…}}) and then the meta line, except a client that is
// gone, to whom nothing can be written:
//
//   - the key's rate limit: one request per started 100 items (the first
//     was taken when the request was authenticated); the line carries
//     retry_after, in seconds (RATE_LIMIT_EXCEEDED);
//   - more items than Config.MaxStreamLines (BATCH_LIMIT_EXCEEDED);
//   - a body longer than Config.MaxStreamBody (PAYLOAD_TOO_LARGE; a
//     Content-Length over it is refused with 413 before anything is
//     read);
//   - a graceful shutdown that outlasts half of the shutdown timeout
//     (SERVICE_UNAVAILABLE): streams in flight have that long to finish.
//
// A body that ends without a final newline, or breaks off (the client's
// connection, or nothing read for the read timeout), has its last partial
// line answered as an item like any other (usually INVALID_ITEM, as
// malformed JSON) and then the meta line. A line longer than Config.MaxBody
// is an INVALID_ITEM; its bytes are skipped, not kept.
//
// Every read and every write has a deadline of its own, the server's read
// and write timeouts from the moment it starts: a client that stops
// sending, or stops reading the answer, lets go of the handler's goroutine
// and buffers within one timeout.

// ndjsonContentType is the media type of a streamed batch and its answer.
const ndjsonContentType = "application/x-ndjson"

// Stream limits.
const (
	// DefaultMaxStreamBody is the default limit on the body of a stream.
	DefaultMaxStreamBody = 1 << 30
	// DefaultMaxStreamLines is the default limit on the items of a stream.
	DefaultMaxStreamLines = 10_000_000
	// streamItemsPerRequest is how many items of a stream count as one
	// request against the key's rate limit, and share one work budget.
	streamItemsPerRequest = 100
	// streamBufferSize is the size of a stream's read buffer, and about
	// the amount of answers it sends at a time.
	streamBufferSize = 64 << 10
	// maxPooledStream is the largest buffer kept for the next stream.
	maxPooledStream = 1 << 20
)

// How a stream ended: the label of unitd_batch_streams_total and the
// "end" of its log line.
const (
	endComplete    = "complete"     // the body was read to its end
	endCutOff      = "cut_off"      // reading the body failed: the client's connection, or the read timeout
	endRateLimited = "rate_limited" // the key's rate limit
	endLineLimit   = "line_limit"   // more items than MaxStreamLines
	endTooLarge    = "too_large"    // a body longer than MaxStreamBody
	endShutdown    = "shutdown"     // a graceful shutdown ended it
	endClientGone  = "client_gone"  // writing the answer failed: the client left, or stopped reading
	endPanic       = "panic"        // a bug; logged as one
)

// codeServiceUnavailable ends a stream that a graceful shutdown cut
// short; it is never a request's status.
const codeServiceUnavailable = "SERVICE_UNAVAILABLE"

// streamParams are the query parameters of a stream, in the order
// query.get reads them.
var streamParams = []string{"precision", "explain", "locale", "unit_display", "usage", "region", "substance", "molar_mass", "density", "charge", "conditions"}

// isNDJSON reports whether the one Content-Type is application/x-ndjson.
func isNDJSON(h []string) bool { return isMediaType(h, ndjsonContentType) }

// streamStats is what the access log and the metrics say of a stream.
type streamStats struct {
	items, succeeded int
	end              string // "" when the request was not a stream
}

// streamBuffers are a stream's read and write buffers, pooled.
type streamBuffers struct{ in, out []byte }

var streamPool = sync.Pool{New: func() any {
	return &streamBuffers{in: make([]byte, streamBufferSize), out: make([]byte, 0, 2*streamBufferSize)}
}}

// stream is one NDJSON batch being answered.
type stream struct {
	s    *Server
	w    *respWriter
	rc   *http.ResponseController
	body io.Reader
	run  batchRun

	bufs       *streamBuffers
	in         []byte // in[start:end] is read and not yet answered
	start, end int
	out        []byte // answers not yet sent
	long       bool   // skipping the rest of a line longer than maxLine

	read     int64 // body bytes read
	maxBody  int64
	maxLines int
	maxLine  int

	readTimeout, writeTimeout time.Duration

	scan  jsonscan.Scanner
	conv  conversion
	stats streamStats
}

// batchStream answers an NDJSON batch (see the top of this file). The
// media type has been checked.
func (s *Server) batchStream(c *call) reply {
	maxBody := s.cfg.MaxStreamBody
	if c.r.ContentLength > maxBody {
		return errReply(payloadTooLarge(maxBody))
	}
	st := &stream{s: s, w: c.w, body: c.r.Body, maxBody: maxBody,
		maxLines: s.cfg.MaxStreamLines, maxLine: int(s.cfg.MaxBody),
		readTimeout:  orDefault(s.cfg.ReadTimeout, defaultReadTimeout),
		writeTimeout: orDefault(s.cfg.WriteTimeout, defaultWriteTimeout)}
	var opts batchRequest // batch-wide options, from the query
	if e := opts.fromQuery(c.r.URL.RawQuery); e != nil {
		return errReply(e)
	}
	loc, e := opts.batchLocale()
	if e != nil {
		return errReply(e)
	}
	props, e := resolveProperties(c.snap.graph, opts.props, codeInvalidRequest)
	if e != nil {
		return errReply(e)
	}
	st.run = batchRun{s: s, g: c.snap.graph, opts: opts, reqID: c.w.reqID, r: c.r, loc: loc, props: props,
		budget: engine.NewBudget(engine.DefaultBudget)}
	st.rc = http.NewResponseController(c.w)
	// HTTP/1.1 must be told that reads and writes interleave; HTTP/2
	// always lets them, and says it does not support the call.
	if err := st.rc.EnableFullDuplex(); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return errReply(internalError(err))
	}
	st.bufs = streamPool.Get().(*streamBuffers)
	st.in, st.out = st.bufs.in, st.bufs.out[:0]
	h := c.w.Header()
	h["Content-Type"] = []string{ndjsonContentType}
	// The connection closes after a stream: a stream that ends early
	// leaves its body unread, and net/http must not read the rest as the
	// next request. (Closing also keeps net/http from starting a second
	// read of the connection after the handler, which panics in full
	// duplex mode: golang.org/issue/68560.)
	h["Connection"] = []string{"close"}

	s.cfg.Metrics.streamStarted()
	// When a graceful shutdown ends the streams, a stream waiting for
	// the body stops waiting.
	woken := make(chan struct{})
	stop := context.AfterFunc(s.streamsEnd, func() {
		defer close(woken)
		st.rc.SetReadDeadline(time.Now())
	})
	defer func() {
		if !stop() {
			<-woken // the writer is the pool's again once this returns
		}
		if st.stats.end == "" {
			st.stats.end = endPanic
		}
		c.w.stream = st.stats
		st.release()
	}()
	st.serve()
	if st.stats.end != endComplete {
		// net/http reads up to 256 KiB more of the body before it
		// closes the connection, so that the client gets the answer
		// rather than a reset; that read gets a deadline of its own.
		st.rc.SetReadDeadline(time.Now().Add(time.Second))
	}
	return reply{done: true}
}

// fromQuery reads a stream's batch-wide options from the query string.
func (req *batchRequest) fromQuery(raw string) *apiError {
	q, e := parseQuery(raw, streamParams...)
	if e != nil {
		return e
	}
	if v, ok := q.get(0); ok && v == "input" {
		req.precisionInput = true
	} else if ok {
		p, ok := parsePrecision(v)
		if !ok {
			return invalidRequest(precisionMessage)
		}
		req.precision = p
	}
	if v, ok := q.get(1); ok {
		e, ok := parseBool(v)
		if !ok {
			return invalidRequest(`explain must be true or false`)
		}
		req.explain = e
	}
	if v, ok := q.get(2); ok {
		req.shared.locale, req.shared.hasLoc = v, true
	}
	if v, ok := q.get(3); ok {
		req.unitDisplay = v
	}
	req.shared.usage, _ = q.get(4)
	req.shared.region, _ = q.get(5)
	for _, i := range [...]int{2, 4, 5} {
		if v, _ := q.get(i); len(v) > maxPreferenceField {
			return invalidRequest("query parameter " + strconv.Quote(streamParams[i]) + " is longer than " + strconv.Itoa(maxPreferenceField) + " characters")
		}
	}
	for i, dst := range propertyTexts(&req.props) {
		if v, ok := q.get(6 + i); ok {
			*dst = v
		}
	}
	return nil
}

// Errors of fill besides the body's own.
var (
	errTooLarge = errors.New("server: stream body over the limit")
	errShutdown = errors.New("server: streams end for a shutdown")
)

// serve reads, answers and sends until the body ends or something ends the
// stream, then sends the meta line (unless the client is gone).
func (st *stream) serve() {
	defer st.run.counts.flush(st.s.cfg.Metrics)
	for st.stats.end == "" {
		err := st.fill()
		if !st.lines() {
			break
		}
		switch {
		case err == nil:
			st.flush()
		case errors.Is(err, errShutdown) || st.s.streamsEnd.Err() != nil:
			st.fail(endShutdown, newError(codeServiceUnavailable, "the server is shutting down; send the lines after the last one answered again"), 0)
		case errors.Is(err, errTooLarge):
			st.fail(endTooLarge, payloadTooLarge(st.maxBody), 0)
		case errors.Is(err, io.EOF):
			st.stats.end = endComplete
			st.last()
		default:
			st.stats.end = endCutOff
			st.last()
		}
	}
	if st.stats.end == endClientGone {
		return
	}
	st.out = append(st.out, `{"meta":`...)
	st.out = appendMeta(st.out, st.stats.items, st.stats.succeeded)
	st.out = append(st.out, "}\n"...)
	st.flush()
}

// fill reads the next part of the body after what is left of the last,
// never past maxBody: a body that holds more returns errTooLarge. Once the
// streams must end for a shutdown it reads nothing and returns
// errShutdown.
func (st *stream) fill() error {
	if st.start > 0 {
		st.end = copy(st.in, st.in[st.start:st.end])
		st.start = 0
	}
	if st.end == len(st.in) {
		// One line fills the buffer and is not too long yet (see lines).
		in := make([]byte, min(2*len(st.in), st.maxLine+1))
		copy(in, st.in[:st.end])
		st.in = in
	}
	room := st.in[st.end:]
	if left := st.maxBody - st.read; int64(len(room)) > left {
		room = room[:left]
	}
	st.rc.SetReadDeadline(time.Now().Add(st.readTimeout))
	// Checked after the deadline is set: a shutdown that comes later sets
	// it to now (see batchStream), so the read below cannot outwait it.
	if st.s.streamsEnd.Err() != nil {
		return errShutdown
	}
	if len(room) == 0 {
		// At the limit: the body must end here.
		var one [1]byte
		n, err := io.ReadFull(st.body, one[:])
		switch {
		case n > 0:
			return errTooLarge
		case errors.Is(err, io.ErrUnexpectedEOF):
			return io.EOF
		}
		return err
	}
	n, err := st.body.Read(room)
	st.end += n
	st.read += int64(n)
	return err
}

// lines answers every whole line read. It returns false when the stream
// must end: a limit was reached (its error line is written) or the client
// is gone.
func (st *stream) lines() bool {
	for {
		buf := st.in[st.start:st.end]
		i := bytes.IndexByte(buf, '\n')
		if i < 0 {
			switch {
			case st.long:
				st.start = st.end // still inside a line that is too long
			case len(buf) > st.maxLine:
				st.long = true
				st.start = st.end
			}
			return true
		}
		line := buf[:i]
		st.start += i + 1
		tooLong := st.long || len(line) > st.maxLine
		st.long = false
		if !st.item(line, tooLong) {
			return false
		}
	}
}

// last answers what is left after the last newline, if anything: a last
// line without one, or what a cut-off body ended with.
func (st *stream) last() {
	tail := st.in[st.start:st.end]
	st.start = st.end
	if len(tail) > 0 || st.long {
		tooLong := st.long || len(tail) > st.maxLine
		st.long = false
		st.item(tail, tooLong)
	}
}

// item answers one line. It returns false when the stream must end
// before it.
func (st *stream) item(line []byte, tooLong bool) bool {
	line = trimSpace(line)
	if len(line) == 0 && !tooLong {
		return true // a blank line is not an item
	}
	n := st.stats.items
	if n >= st.maxLines {
		e := newError(codeBatchLimitExceeded, "a stream holds at most "+strconv.Itoa(st.maxLines)+" lines; the lines after that were not read")
		e.Details = map[string]any{"limit": st.maxLines}
		st.fail(endLineLimit, e, 0)
		return false
	}
	if n > 0 && n%streamItemsPerRequest == 0 {
		if !st.take() {
			return false
		}
		st.run.budget = engine.NewBudget(engine.DefaultBudget)
	}
	c := &st.conv
	*c = conversion{}
	if tooLong {
		c.err = "the line is longer than " + strconv.Itoa(st.maxLine) + " bytes"
	} else {
		st.scan.Reset(line)
		err := decodeItem(&st.scan, c)
		if err == nil {
			err = st.scan.End()
		}
		if err != nil {
			c.err = "malformed JSON: " + err.Error()
		}
	}
	var ok bool
	st.out, ok = st.run.appendItem(st.out, n, c)
	st.out = append(st.out, '\n')
	st.stats.items++
	if ok {
		st.stats.succeeded++
	}
	if len(st.out) >= streamBufferSize {
		return st.write()
	}
	return true
}

// trimSpace trims JSON's white space (space, tab, CR, LF) off both ends.
func trimSpace(b []byte) []byte {
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	return b
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// take counts the next streamItemsPerRequest items as one request against
// the key's rate limit. Refused, it ends the stream.
func (st *stream) take() bool {
	lim := st.s.cfg.Limiter
	if lim == nil {
		return true
	}
	d := lim.Take(st.w.keyID)
	if d.Allowed {
		st.s.countUsage(st.w.keyID, st.s.cfg.Now())
		return true
	}
	retry := max(d.RetryAfterSeconds(), 1)
	e := newError(codeRateLimitExceeded, "rate limit of "+strconv.Itoa(d.Limit)+" requests reached for this key after "+
		strconv.Itoa(st.stats.items)+" lines (a stream counts one request per started "+strconv.Itoa(streamItemsPerRequest)+
		" lines); retry after "+strconv.FormatInt(retry, 10)+" s")
	st.fail(endRateLimited, e, retry)
	return false
}

// fail ends the stream with an error line; retryAfter, when positive, is
// added to it as retry_after (seconds).
func (st *stream) fail(end string, e *apiError, retryAfter int64) {
	st.stats.end = end
	b := append(st.out, `{"error":`...)
	b = appendErrorObject(b, e, st.w.reqID)
	if retryAfter > 0 {
		b = append(b[:len(b)-1], `,"retry_after":`...)
		b = strconv.AppendInt(b, retryAfter, 10)
		b = append(b, '}')
	}
	st.out = append(b, "}\n"...)
}

// write sends the answers so far. It returns false when the client is
// gone: the connection failed, or the client did not take the bytes
// within the write timeout (then the connection is closed, the only way
// to let go of a client that stopped reading).
func (st *stream) write() bool {
	if len(st.out) == 0 {
		return true
	}
	st.rc.SetWriteDeadline(time.Now().Add(st.writeTimeout))
	_, err := st.w.Write(st.out)
	st.out = st.out[:0]
	return st.sent(err)
}

// flush sends the answers so far and everything buffered below them, and
// updates the conversion counters.
func (st *stream) flush() bool {
	st.run.counts.flush(st.s.cfg.Metrics)
	if !st.write() {
		return false
	}
	st.rc.SetWriteDeadline(time.Now().Add(st.writeTimeout))
	return st.sent(st.rc.Flush())
}

// sent records a failed write: the client is gone.
func (st *stream) sent(err error) bool {
	if err != nil {
		st.stats.end = endClientGone
		return false
	}
	return true
}

// release returns the buffers to the pool.
func (st *stream) release() {
	if cap(st.in) <= maxPooledStream && cap(st.out) <= maxPooledStream {
		st.bufs.in, st.bufs.out = st.in[:cap(st.in)], st.out[:0]
		streamPool.Put(st.bufs)
	}
	st.bufs, st.in, st.out = nil, nil, nil
}
