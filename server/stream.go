package server

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
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
// the first answers leave while the client is still sending. A stream
// starts with small buffers (streamSmallBuffer) and takes large ones only
// once its body comes faster than they hold, so that a stream that
// trickles holds 8 KiB of buffers; no line is kept past
// Config.MaxStreamLine, whatever Config.MaxBody is.
//
// Each line is read by decodeItem, the reader of a JSON batch's items, at
// the same depth, and answered by batchRun.appendItem, so a line accepts
// and answers exactly what an element of "conversions" does (a panic while
// converting one is that line's INTERNAL_ERROR, isolate.go). Batch-wide
// options come from the query (precision, explain, locale, unit_display,
// and the substance fields, under each line's own). Blank lines are
// skipped, as NDJSON readers may do; they are not items.
//
// Whatever ends a stream early ends it on a line boundary with one error
// line ({"error":{"code",…,"resume_from":n}}) and then the meta line,
// except a client that is gone, to whom nothing can be written.
// resume_from is the index of the first line not answered: every line
// before it was answered exactly once, none after it was, so a client
// sends the lines from resume_from on again. Early ends:
//
//   - the key's rate limit: one request per started 100 items (the first
//     was taken when the request was authenticated). A stream that finds
//     the budget empty sends what it has answered, waits for the next
//     token and goes on; it waits up to Config.StreamRateWait in all,
//     and a wait that would pass that ends it (RATE_LIMIT_EXCEEDED, with
//     retry_after in seconds);
//   - the key revoked or expired: the stream checks its key at every
//     token it takes and every streamKeyCheck on a timer, so it ends
//     within a second of the change reaching the server
//     (INVALID_API_KEY);
//   - a body that comes too slowly: nothing read for the read timeout,
//     or less than Config.StreamMinRate bytes a second after a grace of
//     Config.StreamGrace (the body's deadline is the grace after its start
//     and one second later per StreamMinRate bytes read, time spent
//     waiting for the rate limit excepted: a client cannot hold a stream
//     open by trickling) (REQUEST_TIMEOUT);
//   - more items than Config.MaxStreamLines (BATCH_LIMIT_EXCEEDED);
//   - a body longer than Config.MaxStreamBody (PAYLOAD_TOO_LARGE; a
//     Content-Length over it is refused with 413 before anything is
//     read);
//   - a graceful shutdown that outlasts half of the shutdown timeout
//     (SERVICE_UNAVAILABLE): streams in flight have that long to finish.
//
// A stream that ends early while its client is still sending reads the
// rest of the body and throws it away (for up to lingerTotal, and
// lingerRead without a byte) before the connection closes: closing a
// connection with unread data resets it, and a reset loses the answers
// still on their way, the error line and the meta line among them. What
// the access log counts as a stream's items is what was sent: the lines
// written and flushed to the connection without an error (the conversion
// metrics count every line converted).
//
// A body that ends without a final newline, or breaks off (the client's
// connection), has its last partial line answered as an item like any
// other (usually INVALID_ITEM, as malformed JSON) and then the meta line.
// A line longer than Config.MaxStreamLine is an INVALID_ITEM; its bytes
// are skipped, not kept.
//
// Streams are bounded in number: Config.MaxStreamsPerKey per key, and
// Config.MaxStreams in all (by default half of Config.MaxConns, so that
// streams never take the connections everyone else needs); past either,
// a new stream is refused with 429 RATE_LIMIT_EXCEEDED before its body is
// read (streamset.go).
//
// Every read and every write has a deadline of its own, the server's read
// and write timeouts from the moment it starts: a client that stops
// sending, or stops reading the answer, lets go of the handler's goroutine
// and buffers within one timeout.

// ndjsonContentType is the media type of a streamed batch and its answer.
const ndjsonContentType = "application/x-ndjson"

// Stream limits, and their defaults: unitd serve's flags take these.
const (
	// DefaultMaxStreamBody is the default limit on the body of a stream.
	DefaultMaxStreamBody = 1 << 30
	// DefaultMaxStreamLines is the default limit on the items of a stream.
	DefaultMaxStreamLines = 10_000_000
	// DefaultMaxStreamLine is the default limit on one line of a stream,
	// in bytes.
	DefaultMaxStreamLine = 64 << 10
	// DefaultStreamRateWait is how long a stream waits in all, by
	// default, for its key's rate limit before it ends.
	DefaultStreamRateWait = 10 * time.Second
	// DefaultStreamMinRate is the default least rate of a stream's body,
	// in bytes per second, once the grace (Config.StreamGrace) has passed.
	DefaultStreamMinRate = 500
	// DefaultMaxStreamsPerKey is the default bound on the streams one key
	// has open at once.
	DefaultMaxStreamsPerKey = 8
	// DefaultStreamGrace is how long, by default, a stream's body may
	// take before Config.StreamMinRate applies to it (Apache's
	// mod_reqtimeout gives a body 20 s and then 500 bytes a second).
	DefaultStreamGrace = 20 * time.Second

	// streamItemsPerRequest is how many items of a stream count as one
	// request against the key's rate limit, and share one work budget.
	streamItemsPerRequest = 100
	// streamSmallBuffer is the size of the read buffer a stream starts
	// with; streamBufferSize the size of the one it takes once its body
	// comes faster, and about the amount of answers it sends at a time.
	streamSmallBuffer = 4 << 10
	streamBufferSize  = 64 << 10
	// maxPooledStream is the largest buffer kept for the next stream.
	maxPooledStream = 1 << 20
	// streamKeyCheck is how often the key of every open stream is
	// checked, besides at every token a stream takes.
	streamKeyCheck = 250 * time.Millisecond
	// lingerRead and lingerTotal bound how long a stream that ended early
	// reads what its client still sends (nginx's lingering_timeout and
	// lingering_time, and their defaults).
	lingerRead  = 5 * time.Second
	lingerTotal = 30 * time.Second
)

// How a stream ended: the label of unitd_batch_streams_total and the
// "end" of its log line.
const (
	endComplete    = "complete"     // the body was read to its end
	endCutOff      = "cut_off"      // reading the body failed: the client's connection broke
	endRateLimited = "rate_limited" // the key's rate limit
	endRevoked     = "revoked"      // the key was revoked or expired
	endTimeout     = "timeout"      // the body came too slowly, or not at all for the read timeout
	endLineLimit   = "line_limit"   // more items than MaxStreamLines
	endTooLarge    = "too_large"    // a body longer than MaxStreamBody
	endShutdown    = "shutdown"     // a graceful shutdown ended it
	endClientGone  = "client_gone"  // writing the answer failed: the client left, or stopped reading
	endPanic       = "panic"        // a bug; logged as one
)

// Codes of the error line of a stream that are never a request's status:
// a graceful shutdown cut the stream short, or its body came too slowly.
const (
	codeServiceUnavailable = "SERVICE_UNAVAILABLE"
	codeRequestTimeout     = "REQUEST_TIMEOUT"
)

// Why something else ends a stream (bits of stream.stopping): a graceful
// shutdown, or its key no longer valid.
const (
	stopShutdown int32 = 1 << iota
	stopRevoked
)

// streamParams are the query parameters of a stream, in the order
// query.get reads them.
var streamParams = []string{"precision", "explain", "locale", "unit_display", "usage", "region", "substance", "molar_mass", "density", "charge", "conditions", "define"}

// isNDJSON reports whether the one Content-Type is application/x-ndjson.
func isNDJSON(h []string) bool { return isMediaType(h, ndjsonContentType) }

// streamStats is what the access log and the metrics say of a stream: the
// items sent, and how it ended.
type streamStats struct {
	items, succeeded int
	end              string // "" when the request was not a stream
}

// streamBuffers are a stream's read and write buffers, pooled in two
// sizes.
type streamBuffers struct {
	in, out []byte
	big     bool
}

var (
	smallStreamBuffers = sync.Pool{New: func() any {
		return &streamBuffers{in: make([]byte, streamSmallBuffer), out: make([]byte, 0, streamSmallBuffer)}
	}}
	bigStreamBuffers = sync.Pool{New: func() any {
		return &streamBuffers{in: make([]byte, streamBufferSize), out: make([]byte, 0, 2*streamBufferSize), big: true}
	}}
)

// stream is one NDJSON batch being answered.
type stream struct {
	s    *Server
	w    *respWriter
	rc   *http.ResponseController
	body io.Reader
	run  batchRun
	key  streamKey

	bufs       *streamBuffers
	in         []byte // in[start:end] is read and not yet answered
	start, end int
	out        []byte // answers not yet sent
	long       bool   // skipping the rest of a line longer than maxLine
	fast       bool   // the last read filled the buffer: the body comes faster than it holds

	read     int64 // body bytes read
	bodyDone bool  // a read of the body failed or ended it: nothing more can be read
	maxBody  int64
	maxLines int
	maxLine  int

	readTimeout, writeTimeout time.Duration
	// started is when the stream started; waited how long it waited for
	// the rate limit so far, at most maxWait; minRate is
	// Config.StreamMinRate (0: none).
	started time.Time
	waited  time.Duration
	maxWait time.Duration
	minRate int64

	// stopping is why something else ended the stream (stopShutdown,
	// stopRevoked, or both), 0 while nothing did; wake is closed then.
	// reading says whether the handler is in a read of the body, which a
	// stop interrupts; lingering that the stream has ended and only
	// reads what its client still sends, which only a shutdown
	// interrupts.
	stopping  atomic.Int32
	wake      chan struct{}
	reading   atomic.Bool
	lingering atomic.Bool

	scan jsonscan.Scanner
	conv conversion
	// n is the items answered, ok those of them that succeeded: the
	// meta line, and n is resume_from. stats counts what was sent.
	n, ok int
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
		maxLines: s.cfg.MaxStreamLines, maxLine: s.cfg.MaxStreamLine,
		readTimeout:  orDefault(s.cfg.ReadTimeout, defaultReadTimeout),
		writeTimeout: orDefault(s.cfg.WriteTimeout, defaultWriteTimeout),
		maxWait:      max(s.cfg.StreamRateWait, 0), minRate: max(s.cfg.StreamMinRate, 0),
		wake: make(chan struct{})}
	st.key.token, _ = bearerToken(c.r.Header["Authorization"])
	var opts batchRequest // batch-wide options, from the query
	if e := opts.fromQuery(c.r.URL.RawQuery); e != nil {
		return errReply(e)
	}
	loc, e := opts.batchLocale()
	if e != nil {
		return errReply(e)
	}
	g, e := s.requestGraph(c, opts.define)
	if e != nil {
		return errReply(e)
	}
	props, e := resolveProperties(g, opts.props, codeInvalidRequest)
	if e != nil {
		return errReply(e)
	}
	if e := s.admitStream(st); e != nil {
		return errReply(e)
	}
	defer s.leaveStream(st)
	st.run = batchRun{s: s, g: g, opts: opts, reqID: c.w.reqID, r: c.r, loc: loc, props: props,
		budget: engine.NewBudget(engine.DefaultBudget), ans: &c.w.ans}
	st.rc = http.NewResponseController(c.w)
	// HTTP/1.1 must be told that reads and writes interleave; HTTP/2
	// always lets them, and says it does not support the call.
	if err := st.rc.EnableFullDuplex(); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return errReply(internalError(err))
	}
	st.bufs = smallStreamBuffers.Get().(*streamBuffers)
	st.in, st.out = st.bufs.in, st.bufs.out[:0]
	h := c.w.Header()
	h["Content-Type"] = []string{ndjsonContentType}
	// The connection closes after a stream: a stream that ends early
	// may leave its body unread, and net/http must not read the rest as
	// the next request. (Closing also keeps net/http from starting a
	// second read of the connection after the handler, which panics in
	// full duplex mode: golang.org/issue/68560.)
	h["Connection"] = []string{"close"}

	s.cfg.Metrics.streamStarted()
	st.started = time.Now()
	// When a graceful shutdown ends the streams, a stream waiting for
	// the body or the rate limit stops waiting.
	woken := make(chan struct{})
	stop := context.AfterFunc(s.streamsEnd, func() {
		defer close(woken)
		st.stop(stopShutdown)
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
		// net/http reads up to 256 KiB more of a body left unread before
		// it closes the connection, so that the client gets the answer
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
	if v, ok := q.get(11); ok {
		defs, e := splitDefine(v)
		if e != nil {
			return e
		}
		req.define = defs
	}
	return nil
}

// Errors of fill besides the body's own.
var (
	errTooLarge = errors.New("server: stream body over the limit")
	errStopped  = errors.New("server: the stream was stopped")
)

// serve reads, answers and sends until the body ends or something ends the
// stream, then sends the meta line (unless the client is gone), and reads
// what the client still sends of a body it did not read to its end.
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
		case errors.Is(err, errStopped) || st.stopping.Load() != 0:
			st.stopped()
		case errors.Is(err, errTooLarge):
			st.fail(endTooLarge, payloadTooLarge(st.maxBody), 0)
		case errors.Is(err, io.EOF):
			st.stats.end = endComplete
			st.last()
		case isTimeout(err):
			st.fail(endTimeout, st.timeoutError(), 0)
		default:
			st.stats.end = endCutOff
			st.last()
		}
	}
	if st.stats.end == endClientGone {
		return
	}
	st.out = append(st.out, `{"meta":`...)
	st.out = appendMeta(st.out, st.n, st.ok)
	st.out = append(st.out, "}\n"...)
	if st.flush() && st.stats.end != endShutdown {
		st.linger()
	}
}

// isTimeout reports whether a read failed for its deadline.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, os.ErrDeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}

// timeoutError is the REQUEST_TIMEOUT of a body that came too slowly.
func (st *stream) timeoutError() *apiError {
	msg := "the body came too slowly: nothing for " + st.readTimeout.String()
	if st.minRate > 0 {
		msg += ", or less than " + strconv.FormatInt(st.minRate, 10) + " bytes a second after the first " + st.s.cfg.StreamGrace.String()
	}
	return newError(codeRequestTimeout, msg+"; send the lines from resume_from on again")
}

// fill reads the next part of the body after what is left of the last,
// never past maxBody: a body that holds more returns errTooLarge. Once the
// stream is stopped it reads nothing and returns errStopped.
func (st *stream) fill() error {
	if st.start > 0 {
		st.end = copy(st.in, st.in[st.start:st.end])
		st.start = 0
	}
	if st.end == len(st.in) || st.fast {
		// One line fills the buffer and is not too long yet (see
		// lines), or the body comes faster than the buffer holds.
		st.grow()
	}
	room := st.in[st.end:]
	if left := st.maxBody - st.read; int64(len(room)) > left {
		room = room[:left]
	}
	deadline := time.Now().Add(st.readTimeout)
	if d := st.rateDeadline(); st.minRate > 0 && d.Before(deadline) {
		deadline = d
	}
	n, err := st.readBody(room, deadline)
	st.end += n
	st.read += int64(n)
	st.fast = n > 0 && n == len(room)
	return err
}

// rateDeadline is when the body must have come as far as it has: the
// grace after the start, one second per minRate bytes read, and the time
// spent waiting for the rate limit.
func (st *stream) rateDeadline() time.Time {
	if st.minRate <= 0 {
		return time.Time{}
	}
	perByte := time.Duration(st.read/st.minRate)*time.Second + time.Duration(st.read%st.minRate)*time.Second/time.Duration(st.minRate)
	return st.started.Add(st.s.cfg.StreamGrace + st.waited + perByte)
}

// readBody reads the body into room until deadline. At the limit (room
// is empty) the body must end: one more byte is errTooLarge. Once the
// stream is stopped it reads nothing and returns errStopped.
func (st *stream) readBody(room []byte, deadline time.Time) (int, error) {
	st.rc.SetReadDeadline(deadline)
	// Checked after the deadline is set and reading is marked: stop sees
	// reading and sets the deadline to now, or this sees it stopped, so
	// the read below cannot outwait a stop.
	st.reading.Store(true)
	defer st.reading.Store(false)
	if why := st.stopping.Load(); why != 0 && st.interrupts(why) {
		return 0, errStopped
	}
	var n int
	var err error
	if len(room) == 0 {
		var one [1]byte
		n, err = io.ReadFull(st.body, one[:])
		switch {
		case n > 0:
			n, err = 0, errTooLarge
		case errors.Is(err, io.ErrUnexpectedEOF):
			err = io.EOF
		}
	} else {
		n, err = st.body.Read(room)
	}
	if err != nil && !errors.Is(err, errTooLarge) {
		st.bodyDone = true
	}
	return n, err
}

// stop ends the stream from outside its handler (a graceful shutdown, or
// the key found revoked on the timer): the handler stops at its next
// line, its next read, or at once when it is waiting for the body or the
// rate limit.
func (st *stream) stop(why int32) {
	old := st.stopping.Or(why)
	if old&why != 0 {
		return
	}
	if old == 0 {
		close(st.wake)
	}
	if st.reading.Load() && st.interrupts(why) {
		st.rc.SetReadDeadline(time.Now())
	}
}

// interrupts reports whether a stop for why ends the reads of the body:
// every stop does while the stream answers; once it has ended and only
// reads what its client still sends (linger), only a shutdown does.
func (st *stream) interrupts(why int32) bool {
	return why&stopShutdown != 0 || !st.lingering.Load()
}

// stopped writes the error line of a stream something else stopped, and
// returns false, for the caller to end with.
func (st *stream) stopped() bool {
	switch why := st.stopping.Load(); {
	case why&stopRevoked != 0:
		st.fail(endRevoked, revokedError(), 0)
	case why&stopShutdown != 0:
		st.fail(endShutdown, newError(codeServiceUnavailable, "the server is shutting down; send the lines from resume_from on again"), 0)
	}
	return false
}

// revokedError ends a stream whose key was revoked or expired while it
// ran.
func revokedError() *apiError {
	return newError(codeInvalidAPIKey, "the API key was revoked or has expired; the lines from resume_from on were not answered")
}

// grow gives the stream room to read into: the large buffers for a body
// that comes faster than the small ones hold, or past them a larger read
// buffer for a line longer than it, up to maxLine+1.
func (st *stream) grow() {
	if !st.bufs.big {
		big := bigStreamBuffers.Get().(*streamBuffers)
		copy(big.in, st.in[:st.end])
		big.out = append(big.out[:0], st.out...)
		st.putBuffers(st.bufs, st.in, nil)
		st.bufs, st.in, st.out = big, big.in, big.out
		st.fast = false
		return
	}
	st.fast = false
	if st.end == len(st.in) && len(st.in) <= st.maxLine {
		in := make([]byte, min(2*len(st.in), st.maxLine+1))
		copy(in, st.in[:st.end])
		st.in = in
	}
}

// lines answers every whole line read. It returns false when the stream
// must end: a limit was reached or the stream was stopped (its error line
// is written), or the client is gone.
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
	if st.stopping.Load() != 0 {
		return st.stopped()
	}
	n := st.n
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
	// Free text's work beyond the request's token, charged as it comes
	// (chargeWork), so that the next take sees it.
	st.run.work = st.s.chargeWork(st.w.keyID, st.run.work)
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
	st.n++
	if ok {
		st.ok++
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
// the key's rate limit, after checking that the key is still valid. When
// the budget is empty it sends the answers so far and waits for the next
// token, up to maxWait in all; a wait that would pass that ends the
// stream, as does a key no longer valid.
func (st *stream) take() bool {
	lim := st.s.cfg.Limiter
	for {
		if !st.s.keyValid(&st.key) {
			st.fail(endRevoked, revokedError(), 0)
			return false
		}
		if lim == nil {
			return true
		}
		d := lim.Take(st.w.keyID)
		if d.Allowed {
			st.s.countUsage(st.w.keyID, st.s.cfg.Now())
			return true
		}
		wait := max(d.RetryAfter, time.Millisecond)
		if st.waited+wait > st.maxWait {
			retry := max(d.RetryAfterSeconds(), 1)
			e := newError(codeRateLimitExceeded, "rate limit of "+strconv.Itoa(d.Limit)+" requests reached for this key after "+
				strconv.Itoa(st.n)+" lines (a stream counts one request per started "+strconv.Itoa(streamItemsPerRequest)+
				" lines, and waits up to "+st.maxWait.String()+" in all for them); retry after "+strconv.FormatInt(retry, 10)+" s")
			st.fail(endRateLimited, e, retry)
			return false
		}
		if !st.flush() {
			return false
		}
		if !st.sleep(wait) {
			return st.stopped()
		}
		st.waited += wait
	}
}

// sleep waits for d, or until the stream is stopped (false).
func (st *stream) sleep(d time.Duration) bool {
	if f := st.s.cfg.streamSleep; f != nil {
		return f(d, st.wake)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-st.wake:
		return false
	}
}

// fail ends the stream early with an error line holding resume_from, the
// index of the first line not answered; retryAfter, when positive, is
// added to it as retry_after (seconds).
func (st *stream) fail(end string, e *apiError, retryAfter int64) {
	st.stats.end = end
	b := append(st.out, `{"error":`...)
	b = appendErrorObject(b, e, st.w.reqID)
	b = b[:len(b)-1]
	if retryAfter > 0 {
		b = append(b, `,"retry_after":`...)
		b = strconv.AppendInt(b, retryAfter, 10)
	}
	b = append(b, `,"resume_from":`...)
	b = appendInt(b, st.n)
	st.out = append(b, "}}\n"...)
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
// updates the conversion counters. Once it is done, the lines answered
// count as sent.
func (st *stream) flush() bool {
	st.run.counts.flush(st.s.cfg.Metrics)
	if !st.write() {
		return false
	}
	st.rc.SetWriteDeadline(time.Now().Add(st.writeTimeout))
	if !st.sent(st.rc.Flush()) {
		return false
	}
	st.stats.items, st.stats.succeeded = st.n, st.ok
	return true
}

// sent records a failed write: the client is gone.
func (st *stream) sent(err error) bool {
	if err != nil {
		st.stats.end = endClientGone
		return false
	}
	return true
}

// linger reads and throws away what the client still sends of a body the
// stream did not read to its end, so that the connection closes cleanly
// after the last answers rather than with a reset that would lose them:
// until the body ends, nothing comes for lingerRead, or lingerTotal has
// passed. A shutdown ends it too.
func (st *stream) linger() {
	if st.bodyDone {
		return
	}
	st.lingering.Store(true)
	until := time.Now().Add(lingerTotal)
	buf := st.in[:cap(st.in)]
	for {
		deadline := time.Now().Add(lingerRead)
		if until.Before(deadline) {
			deadline = until
		}
		if _, err := st.readBody(buf, deadline); err != nil {
			return
		}
	}
}

// release returns the buffers to their pool.
func (st *stream) release() {
	st.putBuffers(st.bufs, st.in, st.out)
	st.bufs, st.in, st.out = nil, nil, nil
}

// putBuffers returns b to its pool with in and out, the buffers the
// stream ended with (out nil: b's own), when they are not too large to
// keep.
func (st *stream) putBuffers(b *streamBuffers, in, out []byte) {
	if out == nil || !b.big {
		out = b.out
	}
	if cap(in) > maxPooledStream || cap(out) > maxPooledStream {
		return
	}
	b.in, b.out = in[:cap(in)], out[:0]
	if b.big {
		bigStreamBuffers.Put(b)
	} else {
		smallStreamBuffers.Put(b)
	}
}
