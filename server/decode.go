package server

import (
	"strconv"
	"unicode/utf8"

	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/internal/jsonscan"
)

// Request bodies are read with the strict scanner of internal/jsonscan
// rather than encoding/json, so that number literals keep their exact
// text. This file is the request schema on top of it: which fields a
// conversion and a batch have, their types, and that none is unknown or
// repeated. Strings read from a body are views of it (see jsonscan): the
// body lives in the pooled respWriter until the response has been
// written, so every such string is done with before the buffer is reused.

// maxBatch is the most conversions one batch may hold.
const maxBatch = 100

// conversion is one requested conversion as read from a body or query.
type conversion struct {
	value, from, to string
	precision       int // 0: not given
	// precisionInput is precision "input": the digits of the value.
	precisionInput bool
	explain        bool
	// fhir is a FHIR Quantity given (as a JSON object) in place of value
	// and from (see fhir.go).
	fhir *fhirQuantity
	// props is what the request says of the substance measured
	// (substance.go).
	props engine.PropertyQuery
	// usage, region and locale choose the unit of to "auto"; parts is a
	// mixed quantity given part by part, in place of value and from.
	usage, region, locale string
	parts                 []partIn
	// has records which fields were read, for the batch input echo.
	hasValue, hasFrom, hasTo bool
	// err is an item-level problem (INVALID_ITEM in a batch).
	err string

	// Free text and locale (see quantity.go): quantity stands for value
	// and from, q for the whole question. hasLoc says locale was given:
	// it sets result.text's language as well as the region of to "auto".
	quantity, q, unitDisplay  string
	hasQuantity, hasQ, hasLoc bool

	// define are the units the request defines for itself (top level
	// only): each a one-line definition or a document in the catalog's
	// schema, as JSON text (myunits.go).
	define    []string
	hasDefine bool
}

// Field bits for duplicate detection.
const (
	fValue = 1 << iota
	fFrom
	fTo
	fPrecision
	fConversions
	fExplain
	fQuantity
	fQ
	fLocale
	fUnitDisplay
	fUsage
	fRegion
	fParts
	fDefine
	fSubstance // the five fields of substance.go, in the order of propertyFields; the last bits
	fMolarMass
	fDensity
	fCharge
	fConditions
)

// readValue reads the "value" field: a string, or a number by its text.
func readValue(s *jsonscan.Scanner, c *conversion, depth int) error {
	switch ch := s.Peek(); {
	case ch == '"':
		v, err := s.ReadString()
		c.value, c.hasValue = v, err == nil
		return err
	case ch == '-' || (ch >= '0' && ch <= '9'):
		v, err := s.ReadNumber()
		c.value, c.hasValue = v, err == nil
		return err
	}
	c.setErr(`"value" must be a string or a number`)
	return s.Skip(depth)
}

func readUnit(s *jsonscan.Scanner, dst *string, has *bool, name string, c *conversion, depth int) error {
	if s.Peek() == '"' {
		v, err := s.ReadString()
		*dst, *has = v, err == nil
		return err
	}
	c.setErr(`"` + name + `" must be a string`)
	return s.Skip(depth)
}

// readBool reads a JSON true or false. It returns a message when the
// value is of another type.
func readBool(s *jsonscan.Scanner, name string, depth int) (bool, string, error) {
	v, ok, err := s.ReadBool()
	if ok || err != nil {
		return v, "", err
	}
	return false, `"` + name + `" must be true or false`, s.Skip(depth)
}

// readPrecision reads a precision: a JSON integer from 1 to MaxPrecision,
// or the string "input" (returned as -1: the digits of the value). It
// returns 0 and a message when the value is of the wrong type or range.
func readPrecision(s *jsonscan.Scanner, depth int) (int, string, error) {
	ch := s.Peek()
	if ch == '"' {
		v, err := s.ReadString()
		if v != "input" {
			return 0, precisionMessage, err
		}
		return -1, "", err
	}
	if ch != '-' && (ch < '0' || ch > '9') {
		return 0, precisionMessage, s.Skip(depth)
	}
	lit, err := s.ReadNumber()
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

// conversionObject reads the members of one conversion object. Errors
// in fields are recorded in c.err; only malformed JSON is returned.
func conversionObject(s *jsonscan.Scanner, c *conversion, depth int) error {
	if err := s.OpenObject(depth); err != nil {
		return err
	}
	seen := 0
	for first := true; ; first = false {
		key, done, err := s.NextKey(first)
		if err != nil || done {
			return err
		}
		if err := conversionMember(s, c, key, &seen, depth); err != nil {
			return err
		}
	}
}

// conversionMember reads the value of the member key of a conversion
// object; seen holds the field bits read so far.
func conversionMember(s *jsonscan.Scanner, c *conversion, key string, seen *int, depth int) error {
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
	case "quantity":
		bit = fQuantity
	case "q":
		bit = fQ
	case "locale":
		bit = fLocale
	case "unit_display":
		bit = fUnitDisplay
	case "usage":
		bit = fUsage
	case "region":
		bit = fRegion
	case "parts":
		bit = fParts
	case "explain", "define":
		// Top level only: in a batch, explain and define apply to every
		// item.
		if depth == 0 {
			bit = fExplain
			if key == "define" {
				bit = fDefine
			}
			break
		}
		fallthrough
	default:
		if bit = propertyBit(key); bit != 0 {
			break
		}
		known := "value, from, to, precision, quantity, q, locale, unit_display, usage, region, parts, " + propertyFieldList
		if depth == 0 {
			known += ", explain, define"
		}
		c.setErr("unknown field " + strconv.Quote(truncate(key, 40)) + " (expected " + known + ")")
		return s.Skip(depth + 1)
	}
	if *seen&bit != 0 {
		c.setErr("duplicate field " + strconv.Quote(key))
		return s.Skip(depth + 1)
	}
	*seen |= bit
	switch bit {
	case fValue:
		return readValue(s, c, depth+1)
	case fFrom:
		return readUnit(s, &c.from, &c.hasFrom, "from", c, depth+1)
	case fTo:
		return readTarget(s, c, depth+1)
	case fQuantity:
		switch s.Peek() {
		case '"':
			return readUnit(s, &c.quantity, &c.hasQuantity, "quantity", c, depth+1)
		case '{':
			return readFHIRQuantity(s, c, depth+1)
		}
		c.setErr(`"quantity" must be a string (a quantity as people write it, such as "5 ft 3 in") or a FHIR Quantity object`)
		return s.Skip(depth + 1)
	case fQ:
		return readUnit(s, &c.q, &c.hasQ, "q", c, depth+1)
	case fUnitDisplay:
		var has bool
		return readUnit(s, &c.unitDisplay, &has, "unit_display", c, depth+1)
	case fUsage, fRegion, fLocale:
		return readPreferenceField(s, c, key, depth+1)
	case fParts:
		return readParts(s, c, depth+1)
	case fDefine:
		defs, msg, err := readDefine(s, depth+1)
		if msg != "" {
			c.setErr(msg)
		}
		c.define, c.hasDefine = defs, true
		return err
	case fExplain:
		e, msg, err := readBool(s, "explain", depth+1)
		if msg != "" {
			c.setErr(msg)
		}
		c.explain = e
		return err
	case fSubstance, fMolarMass, fDensity, fCharge, fConditions:
		msg, err := readProperty(s, &c.props, bit, depth+1)
		if msg != "" {
			c.setErr(msg)
		}
		return err
	default:
		p, msg, err := readPrecision(s, depth+1)
		if msg != "" {
			c.setErr(msg)
		}
		c.precision = max(p, 0)
		c.precisionInput = p < 0
		return err
	}
}

// missing records the first missing required field: value, from and
// to; or quantity (free text) and to; or q (a whole question) alone.
func (c *conversion) checkRequired() {
	if c.parts != nil {
		c.joinParts()
	}
	switch {
	case c.hasQ && (c.hasValue || c.hasFrom || c.hasTo || c.hasQuantity || c.fhir != nil):
		c.setErr(`"q" holds the whole question ("5 ft 3 in to cm"); leave out value, from, to and quantity`)
	case c.hasQ:
	case (c.hasQuantity || c.fhir != nil) && (c.hasValue || c.hasFrom):
		c.setErr(`"quantity" stands in place of "value" and "from"; send one or the other`)
	case (c.hasQuantity || c.fhir != nil) && !c.hasTo:
		c.setErr(`missing field "to"`)
	case c.hasQuantity:
	case c.fhir != nil:
		c.value, c.hasValue = c.fhir.value, c.fhir.value != ""
		c.from, c.hasFrom = c.fhir.from, c.fhir.from != ""
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
	var s jsonscan.Scanner
	s.Reset(body)
	if s.Peek() != '{' {
		if err := s.Skip(0); err != nil {
			return c, malformed(err)
		}
		if err := s.End(); err != nil {
			return c, malformed(err)
		}
		return c, invalidRequest("the request body must be a JSON object")
	}
	if err := conversionObject(&s, &c, 0); err != nil {
		return c, malformed(err)
	}
	if err := s.End(); err != nil {
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
	// precisionInput is a batch-wide precision "input".
	precisionInput bool
	explain        bool
	// shared holds the batch-wide usage, region and locale, for the items
	// that give none of their own; unitDisplay applies to every item that
	// names none.
	shared      conversion
	unitDisplay string
	// props are the batch-wide substance fields, under each item's own.
	props engine.PropertyQuery
	// define are the units the batch defines for all its items.
	define []string
}

// decodeBatch reads the body of POST /v1/batch into items (reusing its
// storage). Items beyond maxBatch are checked for syntax only.
func decodeBatch(body []byte, items []conversion) (batchRequest, *apiError) {
	req := batchRequest{items: items[:0]}
	var s jsonscan.Scanner
	s.Reset(body)
	if s.Peek() != '{' {
		if err := s.Skip(0); err != nil {
			return req, malformed(err)
		}
		if err := s.End(); err != nil {
			return req, malformed(err)
		}
		return req, invalidRequest("the request body must be a JSON object")
	}
	seen := 0
	var fieldErr *apiError
	err := s.Object(0, func(key string) error {
		var bit int
		switch key {
		case "conversions":
			bit = fConversions
		case "precision":
			bit = fPrecision
		case "explain":
			bit = fExplain
		case "usage":
			bit = fUsage
		case "region":
			bit = fRegion
		case "locale":
			bit = fLocale
		case "unit_display":
			bit = fUnitDisplay
		case "define":
			bit = fDefine
		default:
			if bit = propertyBit(key); bit != 0 {
				break
			}
			if fieldErr == nil {
				fieldErr = invalidRequest("unknown field " + strconv.Quote(truncate(key, 40)) + " (expected conversions, precision, explain, define, usage, region, locale, unit_display, " + propertyFieldList + ")")
			}
			return s.Skip(1)
		}
		if seen&bit != 0 {
			if fieldErr == nil {
				fieldErr = invalidRequest("duplicate field " + strconv.Quote(key))
			}
			return s.Skip(1)
		}
		seen |= bit
		if bit == fDefine {
			defs, msg, err := readDefine(&s, 1)
			if msg != "" && fieldErr == nil {
				fieldErr = invalidRequest(msg)
			}
			req.define = defs
			return err
		}
		if bit == fExplain {
			e, msg, err := readBool(&s, "explain", 1)
			if msg != "" && fieldErr == nil {
				fieldErr = invalidRequest(msg)
			}
			req.explain = e
			return err
		}
		if bit >= fSubstance {
			msg, err := readProperty(&s, &req.props, bit, 1)
			if msg != "" && fieldErr == nil {
				fieldErr = invalidRequest(msg)
			}
			return err
		}
		if bit == fUsage || bit == fRegion || bit == fLocale {
			err := readPreferenceField(&s, &req.shared, key, 1)
			if req.shared.err != "" && fieldErr == nil {
				fieldErr = invalidRequest(req.shared.err)
			}
			return err
		}
		if bit == fUnitDisplay {
			if s.Peek() != '"' {
				if fieldErr == nil {
					fieldErr = invalidRequest(`"unit_display" must be a string`)
				}
				return s.Skip(1)
			}
			v, err := s.ReadString()
			req.unitDisplay = v
			return err
		}
		if bit == fPrecision {
			p, msg, err := readPrecision(&s, 1)
			if msg != "" && fieldErr == nil {
				fieldErr = invalidRequest(msg)
			}
			req.precision = max(p, 0)
			req.precisionInput = p < 0
			return err
		}
		if s.Peek() != '[' {
			if fieldErr == nil {
				fieldErr = invalidRequest(`"conversions" must be an array of conversion objects`)
			}
			return s.Skip(1)
		}
		if err := s.OpenArray(1); err != nil {
			return err
		}
		for first := true; ; first = false {
			done, err := s.NextElement(first)
			if err != nil || done {
				return err
			}
			if err := req.readItem(&s); err != nil {
				return err
			}
		}
	})
	if err != nil {
		return req, malformed(err)
	}
	if err := s.End(); err != nil {
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

// optimize gates the server's one accelerator: a batch item written as
// {"value":"…","from":"…","to":"…"} (members in any order), without white
// space or escapes (what most clients send), is read by jsonscan's
// PlainObject shortcut rather than member by member. The package's tests
// run once with it and once without (TestMain), so both ways stay
// identical.
var optimize = true

// plainItemKeys are the members of a plain batch item, in any order.
var plainItemKeys = []string{"value", "from", "to"}

// itemDepth is the nesting depth at which a batch item is read: inside
// "conversions" of a JSON body, and on a line of its own in an NDJSON
// stream alike, so that both accept exactly the same items.
const itemDepth = 2

// readItem reads one element of "conversions".
func (req *batchRequest) readItem(s *jsonscan.Scanner) error {
	req.count++
	if req.count > maxBatch {
		return s.Skip(itemDepth)
	}
	req.items = append(req.items, conversion{})
	return decodeItem(s, &req.items[len(req.items)-1])
}

// decodeItem reads one batch item into c, which must be zero: the one
// reader of batch items, for the elements of a JSON batch and the lines
// of an NDJSON stream. A problem with the item's fields is recorded in
// c.err (INVALID_ITEM); only malformed JSON is returned.
func decodeItem(s *jsonscan.Scanner, c *conversion) error {
	if optimize {
		var v [3]string
		if s.PlainObject(plainItemKeys, v[:]) {
			*c = conversion{value: v[0], from: v[1], to: v[2], hasValue: true, hasFrom: true, hasTo: true}
			return nil
		}
	}
	if s.Peek() != '{' {
		c.setErr("item must be an object with value, from and to")
		return s.Skip(itemDepth)
	}
	if err := conversionObject(s, c, itemDepth); err != nil {
		return err
	}
	c.checkRequired()
	return nil
}

func malformed(err error) *apiError {
	e := invalidRequest("malformed JSON: " + err.Error())
	if se, ok := err.(*jsonscan.SyntaxError); ok {
		e.Details = map[string]any{"offset": se.Offset}
	}
	return e
}

var precisionMessage = "precision must be a whole number from 1 to " + strconv.Itoa(engine.MaxPrecision) + `, or "input"`

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
