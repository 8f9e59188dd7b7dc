package server

import (
	"encoding/json"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/unitd/unitd/engine"
)

// The OpenAPI 3.1 document is generated from the route table and the
// current graph (category ids, example unit symbols), once per snapshot.

// opDoc describes one route for the OpenAPI document.
type opDoc struct {
	id, summary, description, tag string
	query                         []paramDoc
	pathParam                     *paramDoc
	body                          string // schema of the request body; "" for none
	ok                            string // schema of the 200 body
	conditional                   bool   // ETag and 304
	errors                        []int  // error statuses besides those of auth
}

type paramDoc struct {
	name, description string
	required          bool
	schema            map[string]any
	example           any
}

var (
	strSchema = map[string]any{"type": "string"}
	precParam = paramDoc{"precision", "Significant digits of the result, 1–50 (default 34).", false,
		map[string]any{"type": "integer", "minimum": 1, "maximum": engine.MaxPrecision}, 10}
)

var (
	docConvertGET = opDoc{
		id: "convertGet", tag: "conversion", summary: "Convert a value (query parameters)",
		description: "Converts `value` from unit `from` to unit `to`. Needs a Bearer key. Check order: authentication, rate limit, parameters.",
		query: []paramDoc{
			{"value", "Decimal text: optional sign, digits, optional fraction and exponent (at most 100 characters, exponent within ±1000).", true, strSchema, "12.5"},
			{"from", "Unit to convert from: a symbol (case-sensitive) or an alias (case-insensitive for words).", true, strSchema, "ft"},
			{"to", "Unit to convert to.", true, strSchema, "m"},
			precParam,
		},
		ok:     "ConvertResponse",
		errors: []int{400, 422},
	}
	docConvertPOST = opDoc{
		id: "convertPost", tag: "conversion", summary: "Convert a value (JSON body)",
		description: "Converts one value. Check order: authentication, rate limit, media type, size, JSON, fields.",
		body:        "ConvertRequest", ok: "ConvertResponse",
		errors: []int{400, 413, 415, 422},
	}
	docBatch = opDoc{
		id: "convertBatch", tag: "conversion", summary: "Convert up to 100 values",
		description: "Converts 1–100 values on one catalog snapshot. The answer is 200 with one item per conversion, in order; a failed item carries its own error (INVALID_ITEM for an item that is not an object or has a missing, unknown, duplicate or wrongly typed field). A top-level `precision` applies to every item that does not give its own.",
		body:        "BatchRequest", ok: "BatchResponse",
		errors: []int{400, 413, 415},
	}
	docCategories = opDoc{
		id: "listCategories", tag: "discovery", summary: "List categories",
		description: "Every category of the catalog, sorted by id. Takes no query parameters.",
		ok:          "CategoryList", conditional: true, errors: []int{400},
	}
	docCategory = opDoc{
		id: "getCategory", tag: "discovery", summary: "Get a category and its units",
		pathParam: &paramDoc{"category", "Category id.", true, strSchema, "length"},
		ok:        "CategoryResponse", conditional: true, errors: []int{400, 404},
	}
	docUnits = opDoc{
		id: "listUnits", tag: "discovery", summary: "List units",
		description: "Every unit, by category and then in catalog order, optionally filtered. Other query parameters are refused (400); an unknown category is 404.",
		query: []paramDoc{
			{"category", "Only units of this category id.", false, strSchema, "length"},
			{"q", "Only units whose symbol, name, plural or an alias contains this text (case-insensitive).", false, strSchema, "met"},
		},
		ok: "UnitList", conditional: true, errors: []int{400, 404},
	}
	docUnit = opDoc{
		id: "getUnit", tag: "discovery", summary: "Get a unit by symbol or alias",
		description: "Symbols containing `/` are percent-encoded (`km%2Fh`). An unknown unit is 404 with `suggestions`; an ambiguous name is 400 AMBIGUOUS_UNIT with `candidates`.",
		pathParam:   &paramDoc{"unit", "Unit symbol or alias, percent-encoded.", true, strSchema, "ft"},
		ok:          "UnitResponse", conditional: true, errors: []int{400, 404},
	}
	docHealth = opDoc{
		id: "health", tag: "operations", summary: "Service health",
		description: "Always `ok` while a catalog is serving; `catalog.last_reload` reports the last reload attempt, successful or not.",
		ok:          "Health",
	}
	docOpenAPI = opDoc{
		id: "openapi", tag: "operations", summary: "This document",
		ok: "OpenAPIDocument", conditional: true,
	}
)

// openAPIPath turns "/v1/units/:unit" into "/v1/units/{unit}".
func openAPIPath(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		if strings.HasPrefix(s, ":") {
			parts[i] = "{" + s[1:] + "}"
		}
	}
	return strings.Join(parts, "/")
}

type obj = map[string]any

func ref(kind, name string) obj { return obj{"$ref": "#/components/" + kind + "/" + name} }

// errorCodesByStatus lists the codes each error status can carry.
func errorCodesByStatus() map[int][]string {
	m := map[int][]string{}
	for code, st := range statusOf {
		if !apiOnly(code) {
			continue
		}
		m[st] = append(m[st], code)
	}
	for _, codes := range m {
		sort.Strings(codes)
	}
	return m
}

var errorExamples = map[string]obj{
	codeInvalidRequest:                   {"code": codeInvalidRequest, "message": `unknown query parameter "unit" (expected value, from, to, precision)`, "request_id": "3f2a9c0e5b7d4a1e8c6f0b2d4e6a8c0f"},
	codeBatchLimitExceeded:               {"code": codeBatchLimitExceeded, "message": "a batch holds at most 100 conversions; this one has 101", "request_id": "3f2a9c0e5b7d4a1e8c6f0b2d4e6a8c0f", "details": obj{"limit": 100, "count": 101}},
	codePayloadTooLarge:                  {"code": codePayloadTooLarge, "message": "the request body is larger than 65536 bytes", "request_id": "3f2a9c0e5b7d4a1e8c6f0b2d4e6a8c0f", "details": obj{"limit": 65536}},
	codeUnsupportedMediaType:             {"code": codeUnsupportedMediaType, "message": `send the body as "Content-Type: application/json"`, "request_id": "3f2a9c0e5b7d4a1e8c6f0b2d4e6a8c0f"},
	codeUnauthorized:                     {"code": codeUnauthorized, "message": `send an API key as "Authorization: Bearer <key>"`, "request_id": "3f2a9c0e5b7d4a1e8c6f0b2d4e6a8c0f"},
	codeInvalidAPIKey:                    {"code": codeInvalidAPIKey, "message": "the API key is not valid", "request_id": "3f2a9c0e5b7d4a1e8c6f0b2d4e6a8c0f"},
	codeRateLimitExceeded:                {"code": codeRateLimitExceeded, "message": "rate limit of 600 requests reached for this key; retry after 1 s", "request_id": "3f2a9c0e5b7d4a1e8c6f0b2d4e6a8c0f"},
	codeNotFound:                         {"code": codeNotFound, "message": `unknown unit "fet"; did you mean ft?`, "request_id": "3f2a9c0e5b7d4a1e8c6f0b2d4e6a8c0f", "suggestions": []string{"ft"}},
	codeMethodNotAllowed:                 {"code": codeMethodNotAllowed, "message": "method DELETE is not allowed here; allowed: GET, POST", "request_id": "3f2a9c0e5b7d4a1e8c6f0b2d4e6a8c0f"},
	codeInternal:                         {"code": codeInternal, "message": "internal error; quote the request id when reporting it", "request_id": "3f2a9c0e5b7d4a1e8c6f0b2d4e6a8c0f"},
	string(engine.CodeInvalidValue):      {"code": string(engine.CodeInvalidValue), "message": `value "abc" is not a decimal number (expected digits, optional fraction and exponent, e.g. 12.5 or 1.5e3)`, "request_id": "3f2a9c0e5b7d4a1e8c6f0b2d4e6a8c0f"},
	string(engine.CodeUnknownUnit):       {"code": string(engine.CodeUnknownUnit), "message": `unknown unit "fet"; did you mean ft?`, "request_id": "3f2a9c0e5b7d4a1e8c6f0b2d4e6a8c0f", "suggestions": []string{"ft"}},
	string(engine.CodeAmbiguousUnit):     {"code": string(engine.CodeAmbiguousUnit), "message": `"gallon" is ambiguous: it could mean gal (US gallon), gal_imp (imperial gallon)`, "request_id": "3f2a9c0e5b7d4a1e8c6f0b2d4e6a8c0f", "candidates": []string{"gal", "gal_imp"}},
	string(engine.CodeIncompatibleUnits): {"code": string(engine.CodeIncompatibleUnits), "message": "cannot convert ft (Length) to K (Temperature): length and temperature are different categories", "request_id": "3f2a9c0e5b7d4a1e8c6f0b2d4e6a8c0f"},
	string(engine.CodeValueOutOfRange):   {"code": string(engine.CodeValueOutOfRange), "message": "-500 degC is out of range: below the minimum of Temperature (0 K)", "request_id": "3f2a9c0e5b7d4a1e8c6f0b2d4e6a8c0f"},
}

// openAPIDocument renders the document for g.
func (s *Server) openAPIDocument(g *engine.Graph) []byte {
	doc := s.openAPI(g)
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		panic("server: rendering OpenAPI: " + err.Error())
	}
	return append(b, '\n')
}

func (s *Server) openAPI(g *engine.Graph) obj {
	paths := obj{}
	for _, rt := range s.routes {
		p := openAPIPath(rt.path)
		item, _ := paths[p].(obj)
		if item == nil {
			item = obj{}
			paths[p] = item
		}
		item[strings.ToLower(rt.method)] = s.operation(rt, g)
	}
	return obj{
		"openapi":           "3.1.0",
		"jsonSchemaDialect": "https://spec.openapis.org/oas/3.1/dialect/base",
		"info": obj{
			"title":   "unitd",
			"version": s.cfg.Version,
			"summary": "Exact unit conversion over HTTP.",
			"description": "Converts quantities between units with exact decimal arithmetic. Numbers travel as decimal strings. " +
				"Every response carries `X-Request-Id`; every error body is `{\"error\":{\"code\",\"message\",\"request_id\"}}`. " +
				"Catalog version: `" + g.Version() + "`.",
		},
		"servers": []obj{{"url": "/"}},
		"tags": []obj{
			{"name": "conversion", "description": "Conversions; need a Bearer API key."},
			{"name": "discovery", "description": "The compiled catalog; public, cacheable with ETag / If-None-Match."},
			{"name": "operations", "description": "Health and this description."},
		},
		"paths":      paths,
		"components": s.components(g),
	}
}

func (s *Server) operation(rt route, g *engine.Graph) obj {
	d := rt.doc
	op := obj{"operationId": d.id, "summary": d.summary, "tags": []string{d.tag}}
	if d.description != "" {
		op["description"] = d.description
	}
	var params []obj
	if d.pathParam != nil {
		pp := *d.pathParam
		schema := pp.schema
		switch pp.name {
		case "category":
			schema = obj{"type": "string", "examples": categoryIDs(g)}
		case "unit":
			schema = obj{"type": "string", "examples": unitSymbols(g, 10)}
		}
		params = append(params, obj{"name": pp.name, "in": "path", "required": true, "description": pp.description, "schema": schema, "example": pp.example})
	}
	for _, q := range d.query {
		params = append(params, obj{"name": q.name, "in": "query", "required": q.required, "description": q.description, "schema": q.schema, "example": q.example})
	}
	if d.conditional {
		params = append(params, obj{"name": "If-None-Match", "in": "header", "required": false,
			"description": "An ETag from an earlier answer; 304 when it still matches.", "schema": strSchema})
	}
	params = append(params, obj{"name": "X-Request-Id", "in": "header", "required": false,
		"description": "Echoed in the response when 1–128 printable ASCII characters.", "schema": obj{"type": "string", "maxLength": 128}})
	op["parameters"] = params
	if d.body != "" {
		op["requestBody"] = obj{"required": true, "content": obj{"application/json": obj{
			"schema":  ref("schemas", d.body),
			"example": requestExample(d.body),
		}}}
	}

	okHeaders := obj{"X-Request-Id": ref("headers", "X-Request-Id")}
	if rt.auth {
		for _, h := range []string{"RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"} {
			okHeaders[h] = ref("headers", h)
		}
	}
	if d.conditional {
		okHeaders["ETag"] = ref("headers", "ETag")
		okHeaders["Cache-Control"] = ref("headers", "Cache-Control")
	}
	okContent := obj{"schema": ref("schemas", d.ok)}
	if ex := responseExample(d.ok); ex != nil {
		okContent["example"] = ex
	}
	resp := obj{"200": obj{
		"description": "Success.",
		"headers":     okHeaders,
		"content":     obj{"application/json": okContent},
	}}
	if d.conditional {
		resp["304"] = obj{"description": "Not modified: the If-None-Match ETag still matches.",
			"headers": obj{"X-Request-Id": ref("headers", "X-Request-Id"), "ETag": ref("headers", "ETag")}}
	}
	statuses := append([]int(nil), d.errors...)
	if rt.auth {
		statuses = append(statuses, 401, 429)
		op["security"] = []obj{{"bearerAuth": []string{}}}
	}
	statuses = append(statuses, 405, 500)
	for _, st := range statuses {
		resp[strconv.Itoa(st)] = ref("responses", errorResponseName(st, rt.auth))
	}
	op["responses"] = resp
	return op
}

func errorResponseName(status int, auth bool) string {
	name := strings.ReplaceAll(http.StatusText(status), " ", "")
	name = strings.ReplaceAll(name, "-", "")
	if auth && status != 401 && status != 429 {
		name += "Authenticated"
	}
	return name
}

func categoryIDs(g *engine.Graph) []string {
	ids := []string{}
	for _, c := range g.Categories() {
		ids = append(ids, c.ID)
	}
	return ids
}

// unitSymbols returns up to n symbols of base and unprefixed units.
func unitSymbols(g *engine.Graph, n int) []string {
	out := []string{}
	for _, u := range g.Units() {
		if u.Prefixed == nil && len(out) < n {
			out = append(out, u.Symbol)
		}
	}
	return out
}

func requestExample(schema string) any {
	switch schema {
	case "ConvertRequest":
		return obj{"value": "12.5", "from": "ft", "to": "m"}
	case "BatchRequest":
		return obj{"conversions": []obj{{"value": "12.5", "from": "ft", "to": "m"}, {"value": "abc", "from": "ft", "to": "m"}}, "precision": 10}
	}
	return nil
}

func responseExample(schema string) any {
	switch schema {
	case "ConvertResponse":
		return obj{"data": obj{"input": obj{"value": "12.5", "unit": "ft"}, "result": obj{"value": "3.81", "unit": "m"}, "category": "length", "exact": true}}
	case "BatchResponse":
		return obj{"data": []obj{
			{"index": 0, "status": "success", "input": obj{"value": "12.5", "unit": "ft"}, "result": obj{"value": "3.81", "unit": "m"}, "category": "length", "exact": true},
			{"index": 1, "status": "error", "input": obj{"value": "abc", "unit": "ft"}, "error": obj{"code": "INVALID_VALUE", "message": `value "abc" is not a decimal number`}},
		}, "meta": obj{"total": 2, "succeeded": 1, "failed": 1}}
	}
	return nil
}

func (s *Server) components(g *engine.Graph) obj {
	str := func(desc string) obj { return obj{"type": "string", "description": desc} }
	decimal := obj{"type": "string", "description": "A decimal number as text.", "examples": []string{"3.81", "1.602176634e-19"}}
	nullableString := obj{"type": []string{"string", "null"}}
	allCodes := []string{}
	for code := range statusOf {
		if apiOnly(code) || code == codeInvalidItem {
			allCodes = append(allCodes, code)
		}
	}
	sort.Strings(allCodes)
	catIDs := categoryIDs(g)
	catIDSchema := obj{"type": "string", "description": "Category id."}
	if len(catIDs) > 0 {
		catIDSchema["enum"] = catIDs
	}
	closed := func(required []string, props obj) obj {
		return obj{"type": "object", "required": required, "properties": props, "additionalProperties": false}
	}
	input := closed([]string{}, obj{
		"value": str("The submitted value, as sent."),
		"unit":  str("The submitted unit, as sent."),
	})
	successMembers := obj{
		"input":    ref("schemas", "Input"),
		"result":   closed([]string{"value", "unit"}, obj{"value": decimal, "unit": str("Canonical symbol of the target unit.")}),
		"category": catIDSchema,
		"exact":    obj{"type": "boolean", "description": "True when the digits are the exact result (no rounding anywhere)."},
	}
	conversion := closed([]string{"input", "result", "category", "exact"}, successMembers)
	itemSuccess := closed([]string{"index", "status", "input", "result", "category", "exact"}, obj{
		"index": obj{"type": "integer", "minimum": 0}, "status": obj{"const": "success"},
		"input": successMembers["input"], "result": successMembers["result"],
		"category": catIDSchema, "exact": successMembers["exact"],
	})
	itemError := closed([]string{"index", "status", "input", "error"}, obj{
		"index": obj{"type": "integer", "minimum": 0}, "status": obj{"const": "error"},
		"input": ref("schemas", "Input"), "error": ref("schemas", "ItemError"),
	})
	convertFields := obj{
		"value":     obj{"type": []string{"string", "number"}, "description": "Decimal text, or a JSON number taken by its literal text.", "examples": []any{"12.5", 12.5}},
		"from":      str("Unit to convert from (symbol or alias)."),
		"to":        str("Unit to convert to (symbol or alias)."),
		"precision": obj{"type": "integer", "minimum": 1, "maximum": engine.MaxPrecision, "description": "Significant digits (default 34)."},
	}
	errorProps := obj{
		"code":        obj{"type": "string", "enum": allCodes},
		"message":     str("Human-readable, safe to show."),
		"request_id":  str("The X-Request-Id of the request."),
		"details":     obj{"type": "object", "description": "Extra facts, such as the byte offset of a JSON syntax error or a limit."},
		"suggestions": obj{"type": "array", "items": strSchema, "maxItems": 5, "description": "Close matches of an unknown unit."},
		"candidates":  obj{"type": "array", "items": strSchema, "description": "Symbols an ambiguous name could mean."},
	}
	itemErrProps := obj{}
	for k, v := range errorProps {
		if k != "request_id" {
			itemErrProps[k] = v
		}
	}
	definition := obj{
		"type":     "object",
		"required": []string{"kind"},
		"properties": obj{
			"kind":   obj{"type": "string", "enum": []string{"linear", "affine", "formula"}},
			"factor": str("Exact factor: decimal or fraction text (\"0.3048\", \"5/18\")."),
			"offset": str("Exact offset: decimal or fraction text."),
			"unit":   str("Symbol of the reference unit (the unit itself for a category's base unit)."),
			"to":     str("Formula from this unit to the reference unit, in x."),
			"from":   str("Formula from the reference unit to this unit, in x."),
		},
		"additionalProperties": false,
		"examples":             []obj{{"kind": "linear", "factor": "0.3048", "unit": "m"}, {"kind": "affine", "factor": "1", "offset": "273.15", "unit": "K"}},
	}
	unit := closed([]string{"symbol", "name", "plural", "aliases", "category", "system", "definition", "exact", "source"}, obj{
		"symbol":        str("Canonical symbol (case-sensitive)."),
		"name":          str("Name."),
		"plural":        str("Plural name."),
		"aliases":       obj{"type": "array", "items": strSchema, "description": "Other accepted spellings: symbols such as °C, then word aliases."},
		"category":      catIDSchema,
		"system":        str("SI, metric, US, imperial, …"),
		"definition":    ref("schemas", "Definition"),
		"exact":         obj{"type": "boolean", "description": "The definition is exact."},
		"source":        str("Citation for the definition."),
		"description":   str("Notes."),
		"prefixed_from": str("The unit this one was derived from by an SI or binary prefix."),
		"examples": obj{"type": "array", "items": closed([]string{"value", "from", "to", "result", "approx"}, obj{
			"value": decimal, "from": strSchema, "to": strSchema, "result": decimal, "approx": obj{"type": "boolean"},
		})},
	})
	category := closed([]string{"id", "name", "base_unit", "dimension", "unit_count"}, obj{
		"id": catIDSchema, "name": strSchema, "description": strSchema,
		"base_unit": str("Symbol of the base unit."), "dimension": str("Dimension such as \"L T^-1\", or \"1\"."),
		"unit_count": obj{"type": "integer", "minimum": 0}, "minimum": str("Smallest allowed value, in the base unit."),
	})
	categoryDetailProps := obj{}
	for k, v := range category["properties"].(obj) {
		categoryDetailProps[k] = v
	}
	categoryDetailProps["units"] = obj{"type": "array", "items": ref("schemas", "Unit")}
	metaTotal := closed([]string{"total"}, obj{"total": obj{"type": "integer", "minimum": 0}})
	timestamp := obj{"type": "string", "format": "date-time"}

	schemas := obj{
		"Input":           input,
		"ConvertRequest":  closed([]string{"value", "from", "to"}, convertFields),
		"ConversionItem":  closed([]string{"value", "from", "to"}, convertFields),
		"Conversion":      conversion,
		"ConvertResponse": closed([]string{"data"}, obj{"data": ref("schemas", "Conversion")}),
		"BatchRequest": closed([]string{"conversions"}, obj{
			"conversions": obj{"type": "array", "minItems": 1, "maxItems": maxBatch, "items": ref("schemas", "ConversionItem")},
			"precision":   convertFields["precision"],
		}),
		"BatchItemSuccess": itemSuccess,
		"BatchItemError":   itemError,
		"BatchResponse": closed([]string{"data", "meta"}, obj{
			"data": obj{"type": "array", "items": obj{"oneOf": []obj{ref("schemas", "BatchItemSuccess"), ref("schemas", "BatchItemError")}}},
			"meta": closed([]string{"total", "succeeded", "failed"}, obj{
				"total": obj{"type": "integer", "minimum": 0}, "succeeded": obj{"type": "integer", "minimum": 0}, "failed": obj{"type": "integer", "minimum": 0},
			}),
		}),
		"Error":            closed([]string{"code", "message", "request_id"}, errorProps),
		"ItemError":        closed([]string{"code", "message"}, itemErrProps),
		"ErrorResponse":    closed([]string{"error"}, obj{"error": ref("schemas", "Error")}),
		"Definition":       definition,
		"Unit":             unit,
		"Category":         category,
		"CategoryDetail":   closed([]string{"id", "name", "base_unit", "dimension", "unit_count", "units"}, categoryDetailProps),
		"CategoryList":     closed([]string{"data", "meta"}, obj{"data": obj{"type": "array", "items": ref("schemas", "Category")}, "meta": metaTotal}),
		"CategoryResponse": closed([]string{"data"}, obj{"data": ref("schemas", "CategoryDetail")}),
		"UnitList":         closed([]string{"data", "meta"}, obj{"data": obj{"type": "array", "items": ref("schemas", "Unit")}, "meta": metaTotal}),
		"UnitResponse":     closed([]string{"data"}, obj{"data": ref("schemas", "Unit")}),
		"Health": closed([]string{"status", "version", "catalog"}, obj{
			"status":  obj{"const": "ok"},
			"version": str("Server version."),
			"catalog": closed([]string{"version", "categories", "units", "loaded_at", "last_reload"}, obj{
				"version":    str("Catalog version."),
				"categories": obj{"type": "integer", "minimum": 0},
				"units":      obj{"type": "integer", "minimum": 0},
				"loaded_at":  timestamp,
				"last_reload": closed([]string{"at", "ok", "error"}, obj{
					"at": timestamp, "ok": obj{"type": "boolean"}, "error": nullableString,
				}),
			}),
			"keys": closed([]string{"count", "loaded_at", "checked_at", "ok", "error"}, obj{
				"count":      obj{"type": "integer", "minimum": 0},
				"loaded_at":  obj{"type": []string{"string", "null"}, "format": "date-time"},
				"checked_at": obj{"type": []string{"string", "null"}, "format": "date-time"},
				"ok":         obj{"type": "boolean"},
				"error":      nullableString,
			}),
		}),
		"OpenAPIDocument": obj{"type": "object", "required": []string{"openapi", "info"}, "description": "An OpenAPI 3.1 document."},
	}

	headers := obj{
		"X-Request-Id":        obj{"description": "The caller's X-Request-Id when 1–128 printable ASCII characters, else a fresh id.", "required": true, "schema": obj{"type": "string", "minLength": 1, "maxLength": 128}},
		"RateLimit-Limit":     obj{"description": "Requests allowed per window (burst size) for this key.", "schema": obj{"type": "integer", "minimum": 0}},
		"RateLimit-Remaining": obj{"description": "Requests left in the window.", "schema": obj{"type": "integer", "minimum": 0}},
		"RateLimit-Reset":     obj{"description": "Seconds until the window is full again.", "schema": obj{"type": "integer", "minimum": 0}},
		"Retry-After":         obj{"description": "Seconds to wait before retrying.", "required": true, "schema": obj{"type": "integer", "minimum": 1}},
		"WWW-Authenticate":    obj{"description": "`Bearer realm=\"unitd\"` when no key was sent; `Bearer error=\"invalid_token\"` when the key is not valid.", "required": true, "schema": strSchema},
		"Allow":               obj{"description": "Methods the route supports.", "required": true, "schema": strSchema},
		"ETag":                obj{"description": "Strong validator of the catalog version and the resource.", "required": true, "schema": strSchema},
		"Cache-Control":       obj{"description": "`no-cache`: revalidate with If-None-Match.", "schema": strSchema},
	}

	codes := errorCodesByStatus()
	responses := obj{}
	for st, list := range codes {
		for _, auth := range []bool{false, true} {
			if auth && (st == 401 || st == 429) {
				continue
			}
			if !auth && (st == 401 || st == 429) {
				auth = true // these only exist on authenticated routes
			}
			h := obj{"X-Request-Id": ref("headers", "X-Request-Id")}
			switch st {
			case 401:
				h["WWW-Authenticate"] = ref("headers", "WWW-Authenticate")
			case 429:
				h["Retry-After"] = ref("headers", "Retry-After")
			case 405:
				h["Allow"] = ref("headers", "Allow")
			}
			if auth && st != 401 {
				for _, name := range []string{"RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"} {
					h[name] = ref("headers", name)
				}
			}
			examples := obj{}
			for _, code := range list {
				if ex, ok := errorExamples[code]; ok {
					examples[code] = obj{"summary": code, "value": obj{"error": ex}}
				}
			}
			desc := "Error: " + strings.Join(list, ", ") + "."
			if st == 429 {
				desc += " Per-key limit reached (with RateLimit-* headers), or too many invalid keys from this address (without them)."
			}
			responses[errorResponseName(st, auth)] = obj{
				"description": desc,
				"headers":     h,
				"content":     obj{"application/json": obj{"schema": ref("schemas", "ErrorResponse"), "examples": examples}},
			}
		}
	}

	return obj{
		"schemas":   schemas,
		"headers":   headers,
		"responses": responses,
		"securitySchemes": obj{"bearerAuth": obj{
			"type": "http", "scheme": "bearer", "bearerFormat": "uc_live_… or uc_test_… (43 base64url characters)",
			"description": "An API key of the server's environment.",
		}},
	}
}

// openapi serves GET /openapi.json.
func (s *Server) openapi(c *call) reply { return okCached(c.snap.openapi) }
