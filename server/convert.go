package server

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/engine/answer"
)

// convertGET serves GET /v1/convert?value=&from=&to=[&precision=].
func (s *Server) convertGET(c *call) reply {
	conv, e := parseConvertQuery(c.r.URL.RawQuery)
	if e != nil {
		return errReply(e)
	}
	return s.convertOne(c, &conv)
}

// convertPOST serves POST /v1/convert.
func (s *Server) convertPOST(c *call) reply {
	body, e := s.readJSONBody(c)
	if e != nil {
		return errReply(e)
	}
	conv, e := decodeConvert(body)
	if e != nil {
		return errReply(e)
	}
	return s.convertOne(c, &conv)
}

// convertOne answers one conversion. A panic while converting it (a bug)
// is its INTERNAL_ERROR, logged and counted (isolate.go).
func (s *Server) convertOne(c *call, conv *conversion) (rep reply) {
	defer func() {
		if v := recover(); v != nil {
			s.cfg.Metrics.conversion("", codeInternal)
			rep = errReply(s.recovered(v, c.w.reqID, c.w.route, -1))
		}
	}()
	s.seam(conv.from)
	g, e := s.requestGraph(c, conv.define)
	if e != nil {
		return errReply(e)
	}
	q, e := conv.query(c.r, nil, nil)
	if e != nil {
		if e.Code == string(engine.CodeInvalidQuantity) {
			s.cfg.Metrics.conversion("", e.Code)
		}
		return errReply(e)
	}
	q.Budget = engine.NewBudget(engine.DefaultBudget)
	a := &c.w.ans
	err := answer.Run(g, &q, a)
	s.chargeWork(c.w.keyID, a.Work)
	b := append(c.w.buf[:0], `{"data":{`...)
	if err == nil {
		b, err = appendSuccessMembers(b, conv, a)
	}
	if err != nil {
		e := answerError(err, codeInvalidRequest)
		s.cfg.Metrics.conversion("", e.Code)
		return errReply(e)
	}
	s.cfg.Metrics.conversion(metricCategory(&a.Result), "success")
	if q.Explain {
		b = appendExplain(b, &a.Result, &a.Explanation)
	}
	b = append(b, "}}\n"...)
	c.w.buf = b
	return reply{status: http.StatusOK, body: b}
}

// appendSuccessMembers appends the answer a of conv as
// "input":…,"result":…,"category":…,"exact":… without braces, for a single
// answer and for a batch item alike. On error (a result that a FHIR
// Quantity cannot hold) b is returned as it came.
func appendSuccessMembers(b []byte, conv *conversion, a *answer.Answer) ([]byte, error) {
	mark := len(b)
	res := &a.Result
	b = append(b, `"input":{`...)
	if a.Input.Text != "" {
		b = append(b, `"text":`...)
		b = appendString(b, a.Input.Text)
		b = append(b, ',')
	}
	if a.Input.Assumed != "" {
		b = append(b, `"assumed":`...)
		b = appendString(b, a.Input.Assumed)
		b = append(b, ',')
	}
	// Both values are decimal numbers (the input passed the value syntax,
	// or was read from free text as digits; the result is formatted by the
	// engine): nothing in them needs escaping.
	if conv.parts != nil {
		b = appendInputParts(b, conv)
	} else {
		b = append(b, `"value":"`...)
		b = append(b, a.Input.Value...)
		b = append(b, `","unit":`...)
		b = appendString(b, a.Input.Unit)
	}
	b = append(b, `},"result":{`...)
	if len(res.Parts()) > 0 {
		b = appendResultParts(b, res)
		b = appendText(b, a.Text)
	} else {
		value := a.Digits
		if conv.fhir != nil && !float64Holds(value) {
			return b[:mark], &engine.Error{Code: engine.CodeValueOutOfRange, Message: "the result " + string(value) + " is beyond what the value of a FHIR Quantity holds (a JSON number a float64 reader can read: magnitudes from about 4.9e-324 to 1.8e308, or 0); convert with value and from instead of quantity for the result as a decimal string, which has no such limit"}
		}
		b = append(b, `"value":"`...)
		b = append(b, value...)
		b = append(b, `","unit":`...)
		b = appendString(b, res.Unit)
		b = appendText(b, a.Text)
		b = appendCodeMembers(b, conv, a.To, res, value)
	}
	b = append(b, '}')
	if res.Hint() != "" {
		// A measurand relates the two units by an equation, not by the
		// ratio answered (% → mmol/mol: HbA1c).
		b = append(b, `,"hint":`...)
		b = appendString(b, res.Hint())
	}
	b = append(b, `,"category":`...)
	b = appendString(b, res.CategoryID)
	b = append(b, `,"exact":`...)
	return appendBool(b, a.Exact), nil
}

// appendText appends ,"text":… when the answer has the result in words
// (a locale was asked for).
func appendText(b []byte, text string) []byte {
	if text == "" {
		return b
	}
	b = append(b, `,"text":`...)
	return appendString(b, text)
}

// float64Holds reports whether a reader of JSON numbers as float64 (what
// FHIR clients are) reads the decimal digits as a number: neither beyond
// the largest float64 nor, not being zero, so small that it reads as 0.
// It is a check of range only; the digits sent are the exact ones.
func float64Holds(digits []byte) bool {
	f, err := strconv.ParseFloat(string(digits), 64)
	if err != nil {
		return false
	}
	mantissa, _, _ := bytes.Cut(digits, []byte("e"))
	return f != 0 || !bytes.ContainsAny(mantissa, "123456789")
}

// metricCategory labels a conversion in metrics: its category, or
// "expression" for an expression of a dimension no category has (a label
// per dimension would let callers grow the metric without bound).
func metricCategory(res *engine.Result) string {
	if res.Category == nil {
		return "expression"
	}
	return res.Category.ID
}

// explainJSON is the "explain" member of a successful result.
type explainJSON struct {
	CatalogVersion string          `json:"catalog_version"`
	Kind           string          `json:"kind"`
	Factor         string          `json:"factor,omitempty"`
	FactorExact    *bool           `json:"factor_exact,omitempty"`
	Offset         string          `json:"offset,omitempty"`
	OffsetExact    *bool           `json:"offset_exact,omitempty"`
	Formulas       []formulaJSON   `json:"formulas,omitempty"`
	Steps          []stepJSON      `json:"steps"`
	Inexact        []string        `json:"inexact,omitempty"`
	Mixed          *mixedJSON      `json:"mixed,omitempty"`
	Preference     *preferenceJSON `json:"preference,omitempty"`
	// Substance lists the substance values a conversion across kinds
	// used (substance.go).
	Substance *substanceExplainJSON `json:"substance,omitempty"`
	// Equations are a measurand's published equations the conversion
	// followed (substance.go).
	Equations []equationStepJSON `json:"equations,omitempty"`
}

type formulaJSON struct {
	Unit      string `json:"unit"`
	Reference string `json:"reference"`
	To        string `json:"to"`
	From      string `json:"from"`
}

type stepJSON struct {
	Unit       string `json:"unit"`
	Exponent   int    `json:"exponent,omitempty"`
	Definition string `json:"definition"`
	Exact      bool   `json:"exact"`
	Source     string `json:"source"`
}

// appendExplain appends ,"explain":{…} for a successful conversion: ex
// explains res.
func appendExplain(b []byte, res *engine.Result, ex *engine.Explanation) []byte {
	j := explainJSON{CatalogVersion: ex.CatalogVersion, Kind: ex.Kind, Factor: ex.Factor, Offset: ex.Offset, Steps: []stepJSON{}, Inexact: ex.Inexact}
	if ex.Factor != "" {
		j.FactorExact = &ex.FactorExact
	}
	if ex.Offset != "" {
		j.OffsetExact = &ex.OffsetExact
	}
	for _, f := range ex.Formulas {
		j.Formulas = append(j.Formulas, formulaJSON(f))
	}
	for _, s := range ex.Steps {
		j.Steps = append(j.Steps, stepJSON(s))
	}
	if m := ex.Mixed; m != nil {
		j.Mixed = &mixedJSON{Unit: m.Unit, LastPart: m.LastPart}
		for _, p := range m.Parts {
			j.Mixed.Parts = append(j.Mixed.Parts, mixedPartJSON(p))
		}
	}
	if ex.Preference != nil {
		j.Preference = newPreferenceJSON(ex.Preference)
	}
	j.Substance = substanceExplain(res, ex.Properties)
	for _, st := range ex.Equations {
		j.Equations = append(j.Equations, newEquationStepJSON(st))
	}
	b = append(b, `,"explain":`...)
	return append(b, mustJSON(j)...)
}

// parseBool reads a query flag: true or false.
func parseBool(s string) (bool, bool) {
	switch s {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

// parseConvertQuery reads the query of GET /v1/convert. Unknown, repeated
// or undecodable parameters are INVALID_REQUEST.
func parseConvertQuery(raw string) (conversion, *apiError) {
	var c conversion
	q, err := parseQuery(raw, convertParams...)
	if err != nil {
		return c, err
	}
	c.value, c.hasValue = q.get(0)
	c.from, c.hasFrom = q.get(1)
	c.to, c.hasTo = q.get(2)
	c.quantity, c.hasQuantity = q.get(5)
	c.q, c.hasQ = q.get(6)
	c.locale, c.hasLoc = q.get(7)
	c.unitDisplay, _ = q.get(8)
	if v, ok := q.get(3); ok && v == "input" {
		c.precisionInput = true
	} else if ok {
		p, ok := parsePrecision(v)
		if !ok {
			return c, invalidRequest(precisionMessage)
		}
		c.precision = p
	}
	if v, ok := q.get(4); ok {
		e, ok := parseBool(v)
		if !ok {
			return c, invalidRequest(`explain must be true or false`)
		}
		c.explain = e
	}
	c.usage, _ = q.get(9)
	c.region, _ = q.get(10)
	if v, ok := q.get(16); ok {
		defs, e := splitDefine(v)
		if e != nil {
			return c, e
		}
		c.define, c.hasDefine = defs, true
	}
	for _, i := range [...]int{7, 9, 10} {
		if v, _ := q.get(i); len(v) > maxPreferenceField {
			return c, invalidRequest("query parameter " + strconv.Quote(q.names[i]) + " is longer than " + strconv.Itoa(maxPreferenceField) + " characters")
		}
	}
	for i, dst := range propertyTexts(&c.props) {
		if v, ok := q.get(11 + i); ok {
			*dst = v
		}
	}
	if c.hasQ || c.hasQuantity {
		c.checkRequired()
		if c.err != "" {
			return c, invalidRequest(strings.ReplaceAll(c.err, "field", "query parameter"))
		}
		return c, nil
	}
	for i, has := range [...]bool{c.hasValue, c.hasFrom, c.hasTo} {
		if !has {
			return c, invalidRequest("missing query parameter " + strconv.Quote(q.names[i]))
		}
	}
	return c, nil
}

// convertParams and unitsParams are the query parameters of GET
// /v1/convert and GET /v1/units, in the order query.get reads them.
var (
	convertParams = []string{"value", "from", "to", "precision", "explain", "quantity", "q", "locale", "unit_display", "usage", "region", "substance", "molar_mass", "density", "charge", "conditions", "define"}
	unitsParams   = []string{"category", "q", "dimension", "locale"}
)

// maxQueryParams is the most parameters a route takes.
const maxQueryParams = 17

// query is a decoded query string of known parameters.
type query struct {
	names []string
	vals  [maxQueryParams]string
	given [maxQueryParams]bool
}

// get returns the value of the i-th parameter and whether it was given.
func (q *query) get(i int) (string, bool) { return q.vals[i], q.given[i] }

// parseQuery decodes the raw query of a route that takes the named
// parameters, the one reader of every query of the API: a parameter that
// is not one of names, is given twice, or is not valid percent-encoded
// UTF-8 is INVALID_REQUEST, with the same message wherever it happens.
func parseQuery(raw string, names ...string) (query, *apiError) {
	q := query{names: names}
	for raw != "" {
		var part string
		part, raw, _ = strings.Cut(raw, "&")
		if part == "" {
			continue
		}
		k, v, _ := strings.Cut(part, "=")
		key, err1 := url.QueryUnescape(k)
		val, err2 := url.QueryUnescape(v)
		if err1 != nil || err2 != nil || !utf8.ValidString(key) || !utf8.ValidString(val) {
			return q, invalidRequest("query parameter " + strconv.Quote(truncate(k, 40)) + " is not valid percent-encoded UTF-8")
		}
		i := slices.Index(names, key)
		switch {
		case i < 0:
			return q, invalidRequest("unknown query parameter " + strconv.Quote(truncate(key, 40)) + " (expected " + strings.Join(names, ", ") + ")")
		case q.given[i]:
			return q, invalidRequest("query parameter " + strconv.Quote(key) + " is given more than once")
		}
		q.vals[i], q.given[i] = val, true
	}
	return q, nil
}

// readJSONBody checks the media type and reads the body, refusing one
// over the limit as soon as that is known: from Content-Length before
// reading, or from the byte that crosses the limit.
func (s *Server) readJSONBody(c *call) ([]byte, *apiError) {
	if !isJSON(c.r.Header["Content-Type"]) {
		return nil, newError(codeUnsupportedMediaType, `send the body as "Content-Type: application/json"`)
	}
	limit := s.cfg.MaxBody
	if c.r.ContentLength > limit {
		return nil, payloadTooLarge(limit)
	}
	body := http.MaxBytesReader(c.w.ResponseWriter, c.r.Body, limit)
	buf := c.w.body[:0]
	if n := c.r.ContentLength; n > 0 && int64(cap(buf)) < n {
		buf = make([]byte, 0, n)
	}
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := body.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			c.w.body = buf
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				return nil, payloadTooLarge(limit)
			}
			return nil, invalidRequest("the request body could not be read completely")
		}
	}
	c.w.body = buf
	if !utf8.Valid(buf) {
		return nil, invalidRequest("the request body is not valid UTF-8")
	}
	return buf, nil
}

// isJSON reports whether the one Content-Type is application/json. The
// only charset parameter accepted is utf-8, the encoding JSON is read in.
func isJSON(h []string) bool { return isMediaType(h, jsonContentType) }

// isMediaType reports whether the one Content-Type h is the media type
// mt; parameters are allowed, but a charset must be utf-8.
func isMediaType(h []string, mt string) bool {
	if len(h) != 1 {
		return false
	}
	if h[0] == mt {
		return true
	}
	got, params, err := mime.ParseMediaType(h[0])
	if err != nil || got != mt {
		return false
	}
	cs, ok := params["charset"]
	return !ok || strings.EqualFold(cs, "utf-8")
}
