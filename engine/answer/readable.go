package answer

import (
	"strings"

	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/locale"
)

// resultText is the result of a (the answer to req) in q's locale: the
// value, or a mixed result's parts, with the unit's words at q.Width.
// Without a precision the digits are readable (locale.Readable: at most 3
// fraction digits, or the input's significant figures where more).
func resultText(g Graph, q *Query, req *engine.Request, a *Answer) string {
	lc := q.Locale.In(g)
	readable := req.Precision == 0
	sig := inputFigures(req.Value)
	if parts := a.Result.Parts(); len(parts) > 0 {
		if last := parts[len(parts)-1].Value; readable {
			if r, ok := locale.Readable(last, sig, a.Exact); !ok || r != last {
				// Converted again at the readable precision, so that a
				// carry lands in the part before.
				if again, err := convertAt(g, req, locale.ReadablePrecision(last, sig)); err == nil && len(again.Parts()) == len(parts) {
					parts = again.Parts()
				}
			}
		}
		lp := make([]locale.Part, len(parts))
		for i, p := range parts {
			lp[i] = locale.Part{Value: p.Value, Unit: p.Unit.Symbol}
		}
		return lc.FormatMixed(lp, q.Width)
	}
	v := string(a.Digits)
	if readable {
		v = readableValue(g, req, v, sig, a.Exact)
	}
	var buf [128]byte
	return string(lc.AppendUnit(buf[:0], v, a.Result.Unit, q.Width))
}

// readableValue is v, the result of req at the default precision, in
// readable digits. It rounds v itself when v is exact or its dropped
// digits are no half; else it asks the engine for the value at the
// readable precision, which rounds once from the exact value.
func readableValue(g Graph, req *engine.Request, v string, sig int, exact bool) string {
	r, ok := locale.Readable(v, sig, exact)
	if ok {
		return r
	}
	again, err := convertAt(g, req, locale.ReadablePrecision(v, sig))
	if err != nil || again.Value == "" {
		return v
	}
	return again.Value
}

// convertAt converts req again at precision p.
func convertAt(g Graph, req *engine.Request, p int) (engine.Result, error) {
	r := *req
	r.Precision = min(p, engine.MaxPrecision)
	return g.Convert(r)
}

// inputFigures is the significant figures of the input: of its number,
// or of the part with the most of a mixed quantity's ("5 3.5").
func inputFigures(v string) int {
	n := 0
	for f := range strings.FieldsSeq(v) {
		n = max(n, inputDigits(f))
	}
	return max(n, 1)
}
