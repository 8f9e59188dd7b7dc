package server

import (
	"strconv"

	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/internal/jsonscan"
)

// Standard unit codes and FHIR Quantity on the conversion routes.
//
// A conversion (POST /v1/convert, a batch item, an NDJSON line) may carry
// "quantity" as a JSON object, an HL7 FHIR Quantity {value, comparator,
// unit, system, code} (as a JSON string it is free text, quantity.go), in
// place of value and from: its system (UCUM's http://unitsofmeasure.org,
// or QUDT's unit namespace) and code become the namespaced unit
// (ucum:mg/dL), and without a code its unit text is read as a unitd unit. "to" may then be
// {"system", "code"} as well. The answer adds result.quantity, a FHIR
// Quantity of the result with the input's comparator; with a quantity,
// precision defaults to "input" (as many significant digits as the value
// has; free text keeps the default precision). A "to" with a system prefix (ucum:mmol/L) adds result.code.

// fhirSystems maps the FHIR system URIs unitd reads to its code systems.
var fhirSystems = map[string]string{
	"http://unitsofmeasure.org":   engine.SystemUCUM,
	"http://qudt.org/vocab/unit":  engine.SystemQUDT,
	"http://qudt.org/vocab/unit/": engine.SystemQUDT,
}

// fhirURI is the FHIR system URI of a code system, or "".
func fhirURI(system string) string {
	switch system {
	case engine.SystemUCUM:
		return "http://unitsofmeasure.org"
	case engine.SystemQUDT:
		return "http://qudt.org/vocab/unit"
	}
	return ""
}

// fhirQuantity is a FHIR Quantity as read from a request: value is its
// number's literal text and from the unit it names (ucum:mg/dL, or its
// unit text), both moved into the conversion once the request is whole.
type fhirQuantity struct {
	value, from string
	comparator  string
	unit        string
	system      string
	code        string
}

// maxQuantityField bounds each text member of a quantity.
const maxQuantityField = 256

// readFHIRQuantity reads a "quantity" member that is a JSON object, a
// FHIR Quantity. (A string is free text, read by engine/text.)
func readFHIRQuantity(s *jsonscan.Scanner, c *conversion, depth int) error {
	q := &fhirQuantity{}
	c.fhir = q
	seen := map[string]bool{}
	err := s.Object(depth, func(key string) error {
		if seen[key] {
			c.setErr(`duplicate field "quantity.` + truncate(key, 40) + `"`)
			return s.Skip(depth + 1)
		}
		seen[key] = true
		var dst *string
		switch key {
		case "value":
			if ch := s.Peek(); ch != '-' && (ch < '0' || ch > '9') {
				c.setErr(`"quantity.value" must be a JSON number`)
				return s.Skip(depth + 1)
			}
			v, err := s.ReadNumber()
			q.value = v
			return err
		case "comparator":
			dst = &q.comparator
		case "unit":
			dst = &q.unit
		case "system":
			dst = &q.system
		case "code":
			dst = &q.code
		default:
			c.setErr(`unknown field "quantity.` + truncate(key, 40) + `" (expected value, comparator, unit, system, code)`)
			return s.Skip(depth + 1)
		}
		if s.Peek() != '"' {
			c.setErr(`"quantity.` + key + `" must be a string`)
			return s.Skip(depth + 1)
		}
		v, err := s.ReadString()
		if len(v) > maxQuantityField {
			c.setErr(`"quantity.` + key + `" is longer than ` + strconv.Itoa(maxQuantityField) + " bytes")
		}
		*dst = v
		return err
	})
	if err != nil {
		return err
	}
	switch q.comparator {
	case "", "<", "<=", ">=", ">", "ad":
	default:
		c.setErr(`"quantity.comparator" must be one of <, <=, >=, >, ad`)
	}
	switch {
	case q.value == "":
		c.setErr(`"quantity.value" is missing`)
	case q.code != "" && q.system == "":
		c.setErr(`"quantity.code" needs "quantity.system" (http://unitsofmeasure.org for UCUM)`)
	case q.code != "":
		sys, ok := fhirSystems[q.system]
		if !ok {
			c.setErr(`"quantity.system" ` + strconv.Quote(truncate(q.system, 64)) + ` is not a system unitd reads (http://unitsofmeasure.org, http://qudt.org/vocab/unit)`)
			break
		}
		q.from = sys + ":" + q.code
	case q.unit != "":
		q.from = q.unit
	default:
		c.setErr(`"quantity" needs "code" and "system", or "unit"`)
	}
	return nil
}

// readTarget reads "to": a unit name, or with a quantity a FHIR-style
// {"system", "code"}.
func readTarget(s *jsonscan.Scanner, c *conversion, depth int) error {
	if s.Peek() != '{' {
		return readUnit(s, &c.to, &c.hasTo, "to", c, depth)
	}
	var system, code string
	err := s.Object(depth, func(key string) error {
		var dst *string
		switch key {
		case "system":
			dst = &system
		case "code":
			dst = &code
		case "unit":
			return s.Skip(depth + 1) // a display text, not read
		default:
			c.setErr(`unknown field "to.` + truncate(key, 40) + `" (expected system, code)`)
			return s.Skip(depth + 1)
		}
		if s.Peek() != '"' {
			c.setErr(`"to.` + key + `" must be a string`)
			return s.Skip(depth + 1)
		}
		v, err := s.ReadString()
		*dst = v
		return err
	})
	if err != nil {
		return err
	}
	sys, ok := fhirSystems[system]
	switch {
	case code == "" || system == "":
		c.setErr(`"to" as an object needs "system" and "code"`)
	case !ok:
		c.setErr(`"to.system" ` + strconv.Quote(truncate(system, 64)) + ` is not a system unitd reads (http://unitsofmeasure.org, http://qudt.org/vocab/unit)`)
	default:
		c.to, c.hasTo = sys+":"+code, true
	}
	return nil
}

// precisionOf is the precision a conversion asks for: its own, else the
// batch's, else, with "input" or a FHIR quantity, the digits of its value
// (answer.Query.InputPrecision).
func (c *conversion) precisionOf(batch int, batchInput bool) (precision int, input bool) {
	switch {
	case c.precision > 0:
		return c.precision, false
	case c.precisionInput:
		return 0, true
	case batch > 0:
		return batch, false
	}
	return 0, batchInput || c.fhir != nil
}

// appendCodeMembers appends ,"code":… when the target (to, as asked) is
// namespaced and ,"quantity":{…} when the request carried a FHIR
// Quantity, inside the result object; digits are the result's value as
// written.
func appendCodeMembers(b []byte, conv *conversion, to string, res *engine.Result, digits []byte) []byte {
	system, code, namespaced := engine.SplitCode(to)
	if namespaced {
		b = append(b, `,"code":`...)
		b = appendString(b, system+":"+code)
	}
	if conv.fhir == nil {
		return b
	}
	b = append(b, `,"quantity":{"value":`...)
	b = append(b, digits...)
	if conv.fhir.comparator != "" {
		b = append(b, `,"comparator":`...)
		b = appendString(b, conv.fhir.comparator)
	}
	// The target's code: the namespaced one, else the catalog unit's UCUM
	// code when it has one.
	if !namespaced && res.To != nil && res.To.CodeOf(engine.SystemUCUM) != "" {
		system, code, namespaced = engine.SystemUCUM, res.To.CodeOf(engine.SystemUCUM), true
	}
	unit := res.Unit
	if namespaced && fhirURI(system) != "" {
		unit = code
	}
	b = append(b, `,"unit":`...)
	b = appendString(b, unit)
	if namespaced && fhirURI(system) != "" {
		b = append(b, `,"system":`...)
		b = appendString(b, fhirURI(system))
		b = append(b, `,"code":`...)
		b = appendString(b, code)
	}
	return append(b, '}')
}
