package server

import (
	"net/http"
	"strconv"

	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/engine/answer"
	"github.com/unitd/unitd/locale"
)

// batch serves POST /v1/batch: a JSON body of up to maxBatch items, or an
// NDJSON stream of any number of them (stream.go). The whole batch runs on
// one snapshot. An item's own precision, when given, wins over the
// batch's.
func (s *Server) batch(c *call) reply {
	if ct := c.r.Header["Content-Type"]; !isJSON(ct) {
		if isNDJSON(ct) {
			return s.batchStream(c)
		}
		return errReply(newError(codeUnsupportedMediaType, `send the body as "Content-Type: application/json", or as "Content-Type: `+ndjsonContentType+`" to stream one item per line`))
	}
	body, e := s.readJSONBody(c)
	if e != nil {
		return errReply(e)
	}
	req, e := decodeBatch(body, c.w.items)
	c.w.items = req.items
	if e != nil {
		return errReply(e)
	}
	loc, e := req.batchLocale()
	if e != nil {
		return errReply(e)
	}
	g, e := s.requestGraph(c, req.define)
	if e != nil {
		return errReply(e)
	}
	// The batch-wide substance, resolved once; an item's own fields win.
	props, e := resolveProperties(g, req.props, codeInvalidRequest)
	if e != nil {
		return errReply(e)
	}
	// One work budget for the whole batch (see engine.Budget).
	run := batchRun{s: s, g: g, opts: req, reqID: c.w.reqID, r: c.r, loc: loc, props: props,
		budget: engine.NewBudget(engine.DefaultBudget), ans: &c.w.ans}
	s.cfg.Metrics.batch(len(req.items))
	b := append(c.w.buf[:0], `{"data":[`...)
	succeeded := 0
	defer run.counts.flush(s.cfg.Metrics)
	for i := range req.items {
		if i > 0 {
			b = append(b, ',')
		}
		var ok bool
		if b, ok = run.appendItem(b, i, &req.items[i]); ok {
			succeeded++
		}
	}
	run.work = s.chargeWork(c.w.keyID, run.work)
	n := len(req.items)
	b = append(b, `],"meta":`...)
	b = appendMeta(b, n, succeeded)
	b = append(b, "}\n"...)
	c.w.buf = b
	return reply{status: http.StatusOK, body: b}
}

// batchRun is what the items of one batch share, JSON or NDJSON: the
// graph, the batch-wide options, the work budget and the tally of
// outcomes for the metrics.
type batchRun struct {
	s      *Server
	g      *engine.Graph
	opts   batchRequest // batch-wide options; its items are not read
	budget *engine.Budget
	counts tally
	// ans is the answer of the item at hand, its storage reused.
	ans   *answer.Answer
	reqID string
	// r is the request (its Accept-Language), loc the batch-wide locale
	// or nil.
	r   *http.Request
	loc *locale.Locale
	// props are the batch-wide substance fields resolved (opts.props),
	// or nil.
	props *engine.Properties
	// work is the free-text work of the items not charged to the key yet
	// (chargeWork).
	work int
}

// batchLocale returns the batch-wide locale, nil when none is given, and
// checks the batch-wide unit_display.
func (req *batchRequest) batchLocale() (*locale.Locale, *apiError) {
	if _, e := parseWidth(req.unitDisplay); e != nil {
		return nil, e
	}
	if !req.shared.hasLoc {
		return nil, nil
	}
	l, err := locale.Match(req.shared.locale)
	if err != nil {
		return nil, invalidRequest("locale " + strconv.Quote(truncate(req.shared.locale, 40)) + " is not a BCP 47 language tag (such as de, fr-CA, ar-EG)")
	}
	return l, nil
}

// appendItem converts item i of the batch and appends its answer, the
// object {"index":i,"status":…}. It reports whether the item succeeded. A
// panic while converting the item (a bug) makes it an INTERNAL_ERROR with
// the request id, and the batch goes on (isolate.go).
func (r *batchRun) appendItem(b []byte, i int, it *conversion) (out []byte, ok bool) {
	mark := len(b)
	defer func() {
		if v := recover(); v != nil {
			r.counts.add(r.s.cfg.Metrics, "", codeInternal)
			ie := r.s.recovered(v, r.reqID, "/v1/batch", i)
			out, ok = r.appendFailed(appendInt(append(b[:mark], `{"index":`...), i), it, ie), false
		}
	}()
	return r.convertItem(b, i, it)
}

// convertItem is appendItem without its guard.
func (r *batchRun) convertItem(b []byte, i int, it *conversion) ([]byte, bool) {
	m := r.s.cfg.Metrics
	b = append(b, `{"index":`...)
	b = appendInt(b, i)
	r.ans.Input = answer.Input{} // nothing read yet, for appendFailed
	r.s.seam(it.from)
	var ie *apiError
	if it.err != "" {
		ie = newError(codeInvalidItem, it.err)
	} else if q, qe := it.query(r.r, &r.opts, r.loc); qe != nil {
		ie = qe
		if ie.Code == codeInvalidRequest {
			ie.Code = codeInvalidItem
		}
	} else {
		q.Shared, q.Budget = r.props, r.budget
		err := answer.Run(r.g, &q, r.ans)
		r.work += r.ans.Work
		if err == nil {
			mark := len(b)
			b = append(b, `,"status":"success",`...)
			if b, err = appendSuccessMembers(b, it, r.ans); err == nil {
				r.counts.add(m, metricCategory(&r.ans.Result), "success")
				if q.Explain {
					b = appendExplain(b, &r.ans.Result, &r.ans.Explanation)
				}
				return append(b, '}'), true
			}
			b = b[:mark] // the item is an error after all
		}
		ie = answerError(err, codeInvalidItem)
		if ie.Code == codeInternal {
			r.s.logger.Error("internal error in batch item", "request_id", r.reqID, "index", i, "error", err)
		}
	}
	r.counts.add(m, "", ie.Code)
	return r.appendFailed(b, it, ie), false
}

// appendFailed appends the rest of a failed item after its index:
// ,"status":"error","input":{…},"error":{…}}, the input as far as it was
// read (r.ans.Input: free text, and the value and unit read from it). An
// INTERNAL_ERROR carries the request id, to quote when reporting it.
func (r *batchRun) appendFailed(b []byte, it *conversion, ie *apiError) []byte {
	in := &r.ans.Input
	value, hasValue, unit, hasUnit := it.value, it.hasValue, it.from, it.hasFrom
	if in.Unit != "" {
		value, hasValue, unit, hasUnit = in.Value, true, in.Unit, true
	}
	b = append(b, `,"status":"error","input":{`...)
	sep := false
	if in.Text != "" {
		b = append(b, `"text":`...)
		b = appendString(b, in.Text)
		sep = true
	}
	if hasValue {
		if sep {
			b = append(b, ',')
		}
		b = append(b, `"value":`...)
		b = appendString(b, value)
		sep = true
	}
	if hasUnit {
		if sep {
			b = append(b, ',')
		}
		b = append(b, `"unit":`...)
		b = appendString(b, unit)
	}
	b = append(b, `},"error":`...)
	reqID := ""
	if ie.Code == codeInternal {
		reqID = r.reqID
	}
	b = appendErrorObject(b, ie, reqID)
	return append(b, '}')
}

// appendMeta appends the meta object of a batch answer:
// {"total":n,"succeeded":s,"failed":n-s}.
func appendMeta(b []byte, n, succeeded int) []byte {
	b = append(b, `{"total":`...)
	b = appendInt(b, n)
	b = append(b, `,"succeeded":`...)
	b = appendInt(b, succeeded)
	b = append(b, `,"failed":`...)
	b = appendInt(b, n-succeeded)
	return append(b, '}')
}
