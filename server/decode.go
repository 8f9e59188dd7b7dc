package server

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/unitd/unitd/engine"
)

// Request bodies are read by a small strict JSON scanner rather than
// encoding/json: it keeps number literals as text, rejects duplicate and
// unknown fields and trailing data, bounds nesting, and allocates only the
// strings it returns. Anything it accepts is valid JSON (FuzzBatchDecode
// checks that against encoding/json).

// maxDepth bounds nesting anywhere in a body.
const maxDepth = 32

// maxBatch is the most conversions one batch may hold.
const maxBatch = 100

// syntaxError is malformed JSON at byte offset off.
type syntaxError struct {
	off int
	msg string
}

func (e *syntaxError) Error() string { return e.msg + " at byte " + strconv.Itoa(e.off) }

// scanner reads one JSON text.
//
// Strings without escapes are returned as views of data, not copies: they
// stay valid only while data is unchanged. Request bodies live in the
// pooled respWriter until the response has been written, so every string
// read from a body is done with before the buffer is reused.
type scanner struct {
	data []byte
	i    int
}

func (s *scanner) fail(msg string) *syntaxError { return &syntaxError{off: s.i, msg: msg} }

func (s *scanner) ws() {
	for s.i < len(s.data) {
		switch s.data[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// peek returns the next non-space byte, or 0 at the end.
func (s *scanner) peek() byte {
	s.ws()
	if s.i < len(s.data) {
		return s.data[s.i]
	}
	return 0
}

// str reads a string; the scanner is at its opening quote.
func (s *scanner) str() (string, error) {
	s.i++ // "
	start := s.i
	for s.i < len(s.data) {
		// Skip the plain ASCII run in a tight loop first.
		for s.i < len(s.data) && plainASCII[s.data[s.i]] {
			s.i++
		}
		if s.i == len(s.data) {
			break
		}
		c := s.data[s.i]
		switch {
		case c == '"':
			var v string
			if s.i > start {
				v = unsafe.String(&s.data[start], s.i-start)
			}
			s.i++
			return v, nil
		case c == '\\':
			return s.strEscaped(start)
		case c < 0x20:
			return "", s.fail("control character in string")
		case c < utf8.RuneSelf:
			s.i++
		default:
			r, size := utf8.DecodeRune(s.data[s.i:])
			if r == utf8.RuneError && size == 1 {
				return "", s.fail("invalid UTF-8 in string")
			}
			s.i += size
		}
	}
	return "", s.fail("unterminated string")
}

// plainASCII marks the bytes a JSON string may hold as they are.
var plainASCII = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// strEscaped finishes a string that contains escapes.
func (s *scanner) strEscaped(start int) (string, error) {
	buf := append([]byte(nil), s.data[start:s.i]...)
	for s.i < len(s.data) {
		c := s.data[s.i]
		switch {
		case c == '"':
			s.i++
			return string(buf), nil
		case c == '\\':
			s.i++
			if s.i >= len(s.data) {
				return "", s.fail("unterminated string")
			}
			e := s.data[s.i]
			s.i++
			switch e {
			case '"', '\\', '/':
				buf = append(buf, e)
			case 'b':
				buf = append(buf, '\b')
			case 'f':
				buf = append(buf, '\f')
			case 'n':
				buf = append(buf, '\n')
			case 'r':
				buf = append(buf, '\r')
			case 't':
				buf = append(buf, '\t')
			case 'u':
				r, ok := s.hex4()
				if !ok {
					return "", s.fail("bad \\u escape")
				}
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if s.i+1 < len(s.data) && s.data[s.i] == '\\' && s.data[s.i+1] == 'u' {
						save := s.i
						s.i += 2
						var ok2 bool
						if r2, ok2 = s.hex4(); !ok2 {
							return "", s.fail("bad \\u escape")
						}
						if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
							r = dec
						} else {
							s.i = save
							r = utf8.RuneError
						}
					} else {
						r = utf8.RuneError
					}
				}
				buf = utf8.AppendRune(buf, r)
			default:
				return "", s.fail("bad escape")
			}
		case c < 0x20:
			return "", s.fail("control character in string")
		case c < utf8.RuneSelf:
			buf = append(buf, c)
			s.i++
		default:
			r, size := utf8.DecodeRune(s.data[s.i:])
			if r == utf8.RuneError && size == 1 {
				return "", s.fail("invalid UTF-8 in string")
			}
			buf = append(buf, s.data[s.i:s.i+size]...)
			s.i += size
		}
	}
	return "", s.fail("unterminated string")
}

func (s *scanner) hex4() (rune, bool) {
	if s.i+4 > len(s.data) {
		return 0, false
	}
	var r rune
	for _, c := range s.data[s.i : s.i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	s.i += 4
	return r, true
}

// number reads a number and returns its literal text.
func (s *scanner) number() (string, error) {
	start := s.i
	d := s.data
	if s.i < len(d) && d[s.i] == '-' {
		s.i++
	}
	switch {
	case s.i < len(d) && d[s.i] == '0':
		s.i++
	case s.i < len(d) && d[s.i] >= '1' && d[s.i] <= '9':
		s.digits()
	default:
		return "", s.fail("bad number")
	}
	if s.i < len(d) && d[s.i] == '.' {
		s.i++
		if s.digits() == 0 {
			return "", s.fail("bad number")
		}
	}
	if s.i < len(d) && (d[s.i] == 'e' || d[s.i] == 'E') {
		s.i++
		if s.i < len(d) && (d[s.i] == '+' || d[s.i] == '-') {
			s.i++
		}
		if s.digits() == 0 {
			return "", s.fail("bad number")
		}
	}
	return string(d[start:s.i]), nil
}

func (s *scanner) digits() int {
	n := 0
	for s.i < len(s.data) && s.data[s.i] >= '0' && s.data[s.i] <= '9' {
		s.i++
		n++
	}
	return n
}

func (s *scanner) literal(word string) error {
	if len(s.data)-s.i < len(word) || string(s.data[s.i:s.i+len(word)]) != word {
		return s.fail("invalid character")
	}
	s.i += len(word)
	return nil
}

// skip reads and discards any value, checking its syntax.
func (s *scanner) skip(depth int) error {
	if depth > maxDepth {
		return s.fail("nesting deeper than " + strconv.Itoa(maxDepth))
	}
	switch c := s.peek(); {
	case c == '{':
		return s.object(depth, func(string) error { return s.skip(depth + 1) })
	case c == '[':
		return s.array(depth, func(int) error { return s.skip(depth + 1) })
	case c == '"':
		_, err := s.str()
		return err
	case c == '-' || (c >= '0' && c <= '9'):
		_, err := s.number()
		return err
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	case s.i >= len(s.data):
		return s.fail("unexpected end of JSON")
	default:
		return s.fail("invalid character " + strconv.QuoteRune(rune(c)))
	}
}

// object reads an object at s.i, calling field for each member with the
// scanner at the member's value; field must consume the value.
func (s *scanner) object(depth int, field func(key string) error) error {
	if depth > maxDepth {
		return s.fail("nesting deeper than " + strconv.Itoa(maxDepth))
	}
	if s.peek() != '{' {
		return s.fail("expected an object")
	}
	s.i++
	if s.peek() == '}' {
		s.i++
		return nil
	}
	for {
		if s.peek() != '"' {
			return s.fail("expected a field name")
		}
		key, err := s.str()
		if err != nil {
			return err
		}
		if s.peek() != ':' {
			return s.fail("expected ':'")
		}
		s.i++
		s.ws()
		if err := field(key); err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			s.i++
		case '}':
			s.i++
			return nil
		default:
			return s.fail("expected ',' or '}'")
		}
	}
}

// array reads an array, calling elem with the scanner at each element.
func (s *scanner) array(depth int, elem func(i int) error) error {
	if depth > maxDepth {
		return s.fail("nesting deeper than " + strconv.Itoa(maxDepth))
	}
	if s.peek() != '[' {
		return s.fail("expected an array")
	}
	s.i++
	if s.peek() == ']' {
		s.i++
		return nil
	}
	for n := 0; ; n++ {
		s.ws()
		if err := elem(n); err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			s.i++
		case ']':
			s.i++
			return nil
		default:
			return s.fail("expected ',' or ']'")
		}
	}
}

// end checks that nothing but white space follows the top-level value.
func (s *scanner) end() error {
	if s.ws(); s.i < len(s.data) {
		return s.fail("unexpected data after the top-level value")
	}
	return nil
}

// conversion is one requested conversion as read from a body or query.
type conversion struct {
	value, from, to string
	precision       int // 0: not given
	explain         bool
	// has records which fields were read, for the batch input echo.
	hasValue, hasFrom, hasTo bool
	// err is an item-level problem (INVALID_ITEM in a batch).
	err string
}

// Field bits for duplicate detection.
const (
	fValue = 1 << iota
	fFrom
	fTo
	fPrecision
	fConversions
	fExplain
)

// readValue reads the "value" field: a string, or a number by its text.
func (s *scanner) readValue(c *conversion, depth int) error {
	switch ch := s.peek(); {
	case ch == '"':
		v, err := s.str()
		c.value, c.hasValue = v, true
		return err
	case ch == '-' || (ch >= '0' && ch <= '9'):
		v, err := s.number()
		c.value, c.hasValue = v, true
		return err
	}
	c.setErr(`"value" must be a string or a number`)
	return s.skip(depth)
}

func (s *scanner) readUnit(dst *string, has *bool, name string, c *conversion, depth int) error {
	if s.peek() == '"' {
		v, err := s.str()
		*dst, *has = v, true
		return err
	}
	c.setErr(`"` + name + `" must be a string`)
	return s.skip(depth)
}

// readBool reads a JSON true or false. It returns a message when the
// value is of another type.
func (s *scanner) readBool(name string, depth int) (bool, string, error) {
	switch s.peek() {
	case 't':
		return true, "", s.literal("true")
	case 'f':
		return false, "", s.literal("false")
	}
	return false, `"` + name + `" must be true or false`, s.skip(depth)
}

// readPrecision reads a precision: a JSON integer from 1 to MaxPrecision.
// It returns 0 and a message when the value is of the wrong type or range.
func (s *scanner) readPrecision(depth int) (int, string, error) {
	ch := s.peek()
	if ch != '-' && (ch < '0' || ch > '9') {
		return 0, precisionMessage, s.skip(depth)
	}
	lit, err := s.number()
	if err != nil {
		return 0, "", err
	}
	p, ok := parsePrecision(lit)
	if !ok {
		return 0, precisionMessage, nil
	}
	return p, "", nil
}

func (c *conversion) setErr(msg string) {
	if c.err == "" {
		c.err = msg
	}
}

// parseConversionFields reads the members of one conversion object. Errors
// in fields are recorded in c.err; only malformed JSON is returned.
func (s *scanner) conversionObject(c *conversion, depth int) error {
	seen := 0
	return s.object(depth, func(key string) error {
		bit := 0
		switch key {
		case "value":
			bit = fValue
		case "from":
			bit = fFrom
		case "to":
			bit = fTo
		case "precision":
			bit = fPrecision
		case "explain":
			// Top level only: in a batch, explain applies to every item.
			if depth == 0 {
				bit = fExplain
				break
			}
			fallthrough
		default:
			known := "value, from, to, precision"
			if depth == 0 {
				known += ", explain"
			}
			c.setErr("unknown field " + strconv.Quote(truncate(key, 40)) + " (expected " + known + ")")
			return s.skip(depth + 1)
		}
		if seen&bit != 0 {
			c.setErr("duplicate field " + strconv.Quote(key))
			return s.skip(depth + 1)
		}
		seen |= bit
		switch bit {
		case fValue:
			return s.readValue(c, depth+1)
		case fFrom:
			return s.readUnit(&c.from, &c.hasFrom, "from", c, depth+1)
		case fTo:
			return s.readUnit(&c.to, &c.hasTo, "to", c, depth+1)
		case fExplain:
			e, msg, err := s.readBool("explain", depth+1)
			if msg != "" {
				c.setErr(msg)
			}
			c.explain = e
			return err
		default:
			p, msg, err := s.readPrecision(depth + 1)
			if msg != "" {
				c.setErr(msg)
			}
			c.precision = p
			return err
		}
	})
}

// missing records the first missing required field.
func (c *conversion) checkRequired() {
	switch {
	case !c.hasValue:
		c.setErr(`missing field "value"`)
	case !c.hasFrom:
		c.setErr(`missing field "from"`)
	case !c.hasTo:
		c.setErr(`missing field "to"`)
	}
}

// decodeConvert reads the body of POST /v1/convert.
func decodeConvert(body []byte) (conversion, *apiError) {
	var c conversion
	s := scanner{data: body}
	if s.peek() != '{' {
		if err := s.skip(0); err != nil {
			return c, malformed(err)
		}
		if err := s.end(); err != nil {
			return c, malformed(err)
		}
		return c, invalidRequest("the request body must be a JSON object")
	}
	if err := s.conversionObject(&c, 0); err != nil {
		return c, malformed(err)
	}
	if err := s.end(); err != nil {
		return c, malformed(err)
	}
	c.checkRequired()
	if c.err != "" {
		return c, invalidRequest(c.err)
	}
	return c, nil
}

// batchRequest is a decoded POST /v1/batch body.
type batchRequest struct {
	items     []conversion
	count     int // items in the body, even beyond maxBatch
	precision int
	explain   bool
}

// decodeBatch reads the body of POST /v1/batch into items (reusing its
// storage). Items beyond maxBatch are checked for syntax only.
func decodeBatch(body []byte, items []conversion) (batchRequest, *apiError) {
	req := batchRequest{items: items[:0]}
	s := scanner{data: body}
	if s.peek() != '{' {
		if err := s.skip(0); err != nil {
			return req, malformed(err)
		}
		if err := s.end(); err != nil {
			return req, malformed(err)
		}
		return req, invalidRequest("the request body must be a JSON object")
	}
	seen := 0
	var fieldErr *apiError
	err := s.object(0, func(key string) error {
		var bit int
		switch key {
		case "conversions":
			bit = fConversions
		case "precision":
			bit = fPrecision
		case "explain":
			bit = fExplain
		default:
			if fieldErr == nil {
				fieldErr = invalidRequest("unknown field " + strconv.Quote(truncate(key, 40)) + " (expected conversions, precision, explain)")
			}
			return s.skip(1)
		}
		if seen&bit != 0 {
			if fieldErr == nil {
				fieldErr = invalidRequest("duplicate field " + strconv.Quote(key))
			}
			return s.skip(1)
		}
		seen |= bit
		if bit == fExplain {
			e, msg, err := s.readBool("explain", 1)
			if msg != "" && fieldErr == nil {
				fieldErr = invalidRequest(msg)
			}
			req.explain = e
			return err
		}
		if bit == fPrecision {
			p, msg, err := s.readPrecision(1)
			if msg != "" && fieldErr == nil {
				fieldErr = invalidRequest(msg)
			}
			req.precision = p
			return err
		}
		if s.peek() != '[' {
			if fieldErr == nil {
				fieldErr = invalidRequest(`"conversions" must be an array of conversion objects`)
			}
			return s.skip(1)
		}
		return s.array(1, func(int) error {
			req.count++
			if req.count > maxBatch {
				return s.skip(2)
			}
			req.items = append(req.items, conversion{})
			c := &req.items[len(req.items)-1]
			if s.peek() != '{' {
				c.setErr("item must be an object with value, from and to")
				return s.skip(2)
			}
			if err := s.conversionObject(c, 2); err != nil {
				return err
			}
			c.checkRequired()
			return nil
		})
	})
	if err != nil {
		return req, malformed(err)
	}
	if err := s.end(); err != nil {
		return req, malformed(err)
	}
	switch {
	case fieldErr != nil:
		return req, fieldErr
	case seen&fConversions == 0:
		return req, invalidRequest(`missing field "conversions"`)
	case req.count == 0:
		return req, invalidRequest(`"conversions" is empty; send 1 to ` + strconv.Itoa(maxBatch) + " conversions")
	case req.count > maxBatch:
		e := newError(codeBatchLimitExceeded, "a batch holds at most "+strconv.Itoa(maxBatch)+" conversions; this one has "+strconv.Itoa(req.count))
		e.Details = map[string]any{"limit": maxBatch, "count": req.count}
		return req, e
	}
	return req, nil
}

func malformed(err error) *apiError {
	e := invalidRequest("malformed JSON: " + err.Error())
	if se, ok := err.(*syntaxError); ok {
		e.Details = map[string]any{"offset": se.off}
	}
	return e
}

var precisionMessage = "precision must be a whole number from 1 to " + strconv.Itoa(engine.MaxPrecision)

// parsePrecision reads a decimal integer from 1 to MaxPrecision.
func parsePrecision(s string) (int, bool) {
	if len(s) == 0 || len(s) > 2 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	if n < 1 || n > engine.MaxPrecision {
		return 0, false
	}
	return n, true
}

// truncate shortens s to at most n bytes for a message, on a rune boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
