package server

import (
	"net/http"

	"github.com/unitd/unitd/engine"
)

// batch serves POST /v1/batch. The whole batch runs on one snapshot. An
// item's own precision, when given, wins over the batch's.
func (s *Server) batch(c *call) reply {
	body, e := s.readJSONBody(c)
	if e != nil {
		return errReply(e)
	}
	req, e := decodeBatch(body, c.w.items)
	c.w.items = req.items
	if e != nil {
		return errReply(e)
	}
	g := c.snap.graph
	// One work budget for the whole batch (see engine.Budget).
	budget := engine.NewBudget(engine.DefaultBudget)
	s.cfg.Metrics.batch(len(req.items))
	b := append(c.w.buf[:0], `{"data":[`...)
	succeeded := 0
	var res engine.Result
	var counts tally
	defer counts.flush(s.cfg.Metrics)
	for i := range req.items {
		it := &req.items[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"index":`...)
		b = appendInt(b, i)
		var ie *apiError
		if it.err != "" {
			ie = newError(codeInvalidItem, it.err)
		} else {
			p := it.precision
			if p == 0 {
				p = req.precision
			}
			it.inherit(&req.shared)
			creq := it.request(p, budget)
			var err error
			mark := len(b)
			b = append(b, `,"status":"success",`...)
			if b, err = appendSuccessMembers(b, it, g, &creq, &res); err == nil {
				counts.add(s.cfg.Metrics, metricCategory(&res), "success")
				succeeded++
				if req.explain {
					b = appendExplain(b, g, &res)
				}
				b = append(b, '}')
				continue
			}
			b = b[:mark] // the item is an error after all
			ie = fromEngine(err)
			if ie.Code == codeInternal {
				s.logger.Error("internal error in batch item", "request_id", c.w.reqID, "index", i, "error", err)
			}
		}
		counts.add(s.cfg.Metrics, "", ie.Code)
		b = append(b, `,"status":"error","input":{`...)
		sep := false
		if it.hasValue {
			b = append(b, `"value":`...)
			b = appendString(b, it.value)
			sep = true
		}
		if it.hasFrom {
			if sep {
				b = append(b, ',')
			}
			b = append(b, `"unit":`...)
			b = appendString(b, it.from)
		}
		b = append(b, `},"error":`...)
		b = appendErrorObject(b, ie, "")
		b = append(b, '}')
	}
	n := len(req.items)
	b = append(b, `],"meta":{"total":`...)
	b = appendInt(b, n)
	b = append(b, `,"succeeded":`...)
	b = appendInt(b, succeeded)
	b = append(b, `,"failed":`...)
	b = appendInt(b, n-succeeded)
	b = append(b, "}}\n"...)
	c.w.buf = b
	return reply{status: http.StatusOK, body: b}
}
