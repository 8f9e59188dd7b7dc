package server

import (
	"encoding/json"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/server/errcode"
)

// The OpenAPI 3.1 document is generated from the route table and the
// current graph (category ids, example unit symbols), once per snapshot,
// into the typed model of openapi_model.go. Limits in descriptions come
// from the constants that enforce them.

// opDoc describes one route for the OpenAPI document.
type opDoc struct {
	id, summary, description, tag string
	query                         []paramDoc
	pathParam                     *paramDoc
	body                          string // schema of the JSON request body; "" for none
	ok                            string // schema of the JSON 200 body
	// streamIn and streamOut make an NDJSON operation (stream.go): the
	// schemas of each line of the body and of the answer, in place of body
	// and ok.
	streamIn, streamOut string
	conditional         bool  // ETag and 304
	errors              []int // error statuses besides those of auth
	// yamlBody says the body may be YAML too; created that a new
	// resource is answered with 201 (and a change with 200).
	yamlBody, created bool
}

type paramDoc struct {
	name, description string
	required          bool
	schema            *schema
	example           any
}

// freeTextDoc describes free text and locales on conversions.
const freeTextDoc = "Free text that cannot be read without guessing is 400 INVALID_QUANTITY, whose message and `details.position` name the position (in characters from 1), with `candidates` for an ambiguous name and `suggestions` for an unknown one. The answer echoes `input.text` and the `input.value` and `input.unit` understood (a mixed quantity as `\"5 3\"` of `ft+in`). `locale` (else the best match of `Accept-Language`) adds `result.text`, the result in that locale's words, plural forms and digits (CLDR), and free text is read with the locale's decimal separator and unit names."

var (
	localeParam      = paramDoc{"locale", "BCP 47 language tag (`de`, `fr-CA`, `ar-SA`, `hi-u-nu-deva`) for `result.text` and for reading free text; the best match among CLDR's modern locales is used, else `Accept-Language`. With `to=auto` and no `region`, its region is used too (its `-u-rg-` or region subtag, else its language's likely region; `-u-ms-` and `-u-mu-` are honoured).", false, strSchema, "de"}
	unitDisplayParam = paramDoc{"unit_display", "Width of unit names in `result.text`: `short` (default, `96,56064 km/h`), `long` (`96,56064 Kilometer pro Stunde`) or `narrow`.", false,
		&schema{Type: typ("string"), Enum: []string{"long", "short", "narrow"}}, "long"}
	discoveryLocaleParam = paramDoc{"locale", "BCP 47 language tag: unit records add `display_name` in that locale (CLDR's long, short and narrow names, for the units CLDR names), and `q` also matches the locale's names.", false, strSchema, "de"}
	strSchema            = &schema{Type: typ("string")}
	precParam            = paramDoc{"precision",
		"Significant digits of the result, 1–" + strconv.Itoa(engine.MaxPrecision) + " (default " + strconv.Itoa(engine.DefaultPrecision) + "), or `input`: as many as the value has (`5.50` has 3).", false,
		&schema{Type: typ("string"), Pattern: "^([1-9]|[1-4][0-9]|50|input)$"}, "10"}
)

var (
	usageParam  = paramDoc{"usage", "With `to=auto`: CLDR's usage (`default`, `person-height`, `road`, `fluid`, `food`, `weather`, `rainfall`, `vehicle-fuel`, `blood-glucose`, …); GET /v1/preferences lists them. A usage the data does not know, even shortened by its last parts, is INVALID_REQUEST naming the category's usages.", false, strSchema, "person-height"}
	regionParam = paramDoc{"region", "With `to=auto`: ISO 3166-1 alpha-2 code or UN M.49 area (`001`, the default); an unknown one is INVALID_REQUEST.", false, strSchema, "GB"}
)

var (
	docConvertGET = opDoc{
		id: "convertGet", tag: "conversion", summary: "Convert a value (query parameters)",
		description: "Converts `value` from unit `from` to unit `to`; or a free-text `quantity` (in place of `value` and `from`) to `to`; or a whole question `q` (\"5 ft 3 in to cm\") alone. Needs a Bearer key. Check order: authentication, rate limit, parameters. `to=auto` chooses the unit people use for the quantity from CLDR's unit preferences (with `usage` and `region` or `locale`). A mixed unit (`ft+in`, `st+lb`, `h+min+s`, CLDR's `foot-and-inch`) as `to` answers `result.parts` instead of `result.value`; as `from` it takes one value per part, separated by spaces (`5 3.5`). " + freeTextDoc,
		query: []paramDoc{
			{"value", "Decimal text: optional sign, digits, optional fraction and exponent (at most " + strconv.Itoa(engine.MaxValueLength) +
				" characters, exponent within ±" + strconv.Itoa(engine.MaxValueExponent) + "). Required unless `quantity` or `q` is given.", false, strSchema, "12.5"},
			{"from", "Unit to convert from: a symbol (case-sensitive), an alias (case-insensitive for words), a unit expression such as `kg*m/s^2`, or a standard code `<system>:<code>` (`ucum:mg/dL`, `cldr:kilometer-per-hour`, `unece:KGM`, `qudt:KiloM-PER-HR` or a QUDT IRI). Required unless `quantity` or `q` is given.", false, strSchema, "ft"},
			{"to", "Unit, unit expression or standard code to convert to; a code adds `result.code`. Required unless `q` is given.", false, strSchema, "m"},
			precParam,
			{"explain", "`true` adds an `explain` object to the result: the exact factor and the catalog definitions used.", false, &schema{Type: typ("string"), Enum: []string{"true", "false"}}, "true"},
			{"quantity", "A quantity as people write it, in place of `value` and `from`: `5 ft 3 in`, `5'3\"`, `1 1/2 in`, `½ tsp`, `1h30m`, `-40 °F`, `12,5 km` (in a locale with a decimal comma).", false, strSchema, "5 ft 3 in"},
			{"q", "A whole question: a quantity, then `to`, `in`, `as`, `->` or `→`, then a unit (`5 ft 3 in to cm`). Leaves out value, from, to and quantity.", false, strSchema, "5 ft 3 in to cm"},
			localeParam,
			unitDisplayParam,
			usageParam, regionParam,
			{"substance", "What is measured, for conversions across kinds (mg/dL ↔ mmol/L, kg ↔ L, ppm ↔ mg/m³, mEq ↔ mmol): id, name, alias, CAS number or formula. When such a conversion lacks it, INCOMPATIBLE_UNITS says so in `details.needs`. A measurand (`HbA1c`) converts its units by its published equations (% ↔ mmol/mol ↔ eAG).", false, strSchema, "glucose"},
			{"molar_mass", "Molar mass with its unit, winning over the substance's.", false, strSchema, "180.156 g/mol"},
			{"density", "Density with its unit, winning over the substance's.", false, strSchema, "0.745 kg/L"},
			{"charge", "Charge number of an ion (non-zero integer).", false, &schema{Type: typ("integer")}, 2},
			{"conditions", "Gas temperature and pressure, or a named set (STP, NTP, SATP).", false, strSchema, "25 degC, 101.325 kPa"},
			defineParam,
		},
		ok:     "ConvertResponse",
		errors: []int{400, 422},
	}
	docConvertPOST = opDoc{
		id: "convertPost", tag: "conversion", summary: "Convert a value (JSON body)",
		description: "Converts one value: `value`, `from` and `to`; or `quantity` (free text) and `to`; or `q` (a whole question). Check order: authentication, rate limit, media type, size, JSON, fields. " + freeTextDoc,
		body:        "ConvertRequest", ok: "ConvertResponse",
		errors: []int{400, 413, 415, 422},
	}
	docBatch = opDoc{
		id: "convertBatch", tag: "conversion", summary: "Convert up to " + strconv.Itoa(maxBatch) + " values",
		description: "Converts 1–" + strconv.Itoa(maxBatch) + " values on one catalog snapshot. The answer is 200 with one item per conversion, in order; a failed item carries its own error (INVALID_ITEM for an item that is not an object or has a missing, unknown, duplicate or wrongly typed field). A top-level `precision`, `locale` or `unit_display` applies to every item that does not give its own; a top-level `explain` applies to every item. Items may be free text (`quantity`, `q`) as in POST /v1/convert.\n\n" +
			"Any number of values stream as NDJSON through POST /v1/batch/stream. This route answers an NDJSON body (`Content-Type: " + ndjsonContentType + "`) too, exactly as that one does, but is described with its JSON body only: one operation, one media type, so that client generators give its answer one type.",
		body: "BatchRequest", ok: "BatchResponse",
		errors: []int{400, 413, 415},
	}
	docBatchStream = opDoc{
		id: "convertStream", tag: "conversion", summary: "Stream any number of values as NDJSON",
		description: "The body holds one item per line (a `ConversionItem`, read exactly as an element of `conversions` in POST /v1/batch), any number of lines; blank lines are skipped. The answer is one line per item, in order (a `BatchItemSuccess` or `BatchItemError`), streamed: the first answers leave while the body is still being sent, so a client must read the answer as it sends. Its last line is a `BatchStreamMeta`. Every line of the answer is a `BatchStreamLine`. A line that is not a valid item is a failed item, never the end of the stream; a body cut off mid-line is answered for what it has, its partial last line as a failed item, then the meta line. The query's `precision`, `explain`, `locale`, `unit_display`, `usage`, `region` and substance fields (`substance`, `molar_mass`, `density`, `charge`, `conditions`) act as the JSON batch's top-level ones. " +
			"The key's rate limit counts one request per started " + strconv.Itoa(streamItemsPerRequest) + " lines; a stream that finds the key's budget empty sends what it has answered and waits for it (for a bounded time in all, stated with the limits of the NDJSON body). " +
			"A stream that ends early ends on a line boundary with one `BatchStreamError` line and then the meta line: the rate limit still reached after the wait (RATE_LIMIT_EXCEEDED with `retry_after`), the key revoked or expired while the stream runs (INVALID_API_KEY, within a second of the change), a body that comes too slowly (REQUEST_TIMEOUT: nothing for the read timeout, or below the least rate stated with the limits), the line limit (BATCH_LIMIT_EXCEEDED), the body limit (PAYLOAD_TOO_LARGE; a `Content-Length` over it is refused with 413 before anything is read), or a graceful shutdown of the server that outlasts half of its timeout (SERVICE_UNAVAILABLE). Its `resume_from` is the index of the first line not answered: every line before it was answered exactly once and none after it was, so send the lines from `resume_from` on again (after `retry_after` seconds, when given). " +
			"A key may have a bounded number of streams open at once, and streams in all a bounded share of the server's connections; past either, a new stream is refused with 429 and `Retry-After` before its body is read. The connection closes after a stream; a stream that ended early reads what its client still sends before it closes, so that the last lines arrive." +
			"\n\n" +
			"Why a route of its own: an operation has one answer per status, and a generator types it by its media types; POST /v1/batch answering both JSON and NDJSON made generated clients type its answer as the JSON body or a string. OpenAPI 3.1 has no keyword for the schema of each line (3.2's `itemSchema`), so the body and the answer are described as text, with the schema of a line in `x-itemSchema` and in the component schemas `ConversionItem` and `BatchStreamLine`.",
		query: []paramDoc{
			{"precision", "Significant digits of every item that does not give its own, 1–" + strconv.Itoa(engine.MaxPrecision) + ", or `input`: as many as each value has.", false,
				precParam.schema, "10"},
			{"explain", "`true` adds an `explain` object to every successful item.", false, &schema{Type: typ("string"), Enum: []string{"true", "false"}}, "true"},
			{"locale", "The BCP 47 locale of every item that names none.", false, strSchema, "de"},
			{"unit_display", "The width of unit names in `result.text` of every item that names none: long, short or narrow.", false, &schema{Type: typ("string"), Enum: []string{"long", "short", "narrow"}}, "long"},
			{"usage", "With `to=auto`: the usage of every item that gives none.", false, strSchema, "person-height"},
			{"region", "With `to=auto`: the region of every item that gives none.", false, strSchema, "GB"},
			{"substance", "The substance of every item, under each item's own substance fields, field by field.", false, strSchema, "glucose"},
			{"molar_mass", "The batch-wide molar mass.", false, strSchema, "180.156 g/mol"},
			{"density", "The batch-wide density.", false, strSchema, "0.745 kg/L"},
			{"charge", "The batch-wide charge number.", false, &schema{Type: typ("integer")}, 2},
			{"conditions", "The batch-wide gas conditions.", false, strSchema, "25 degC, 101.325 kPa"},
			defineParam,
		},
		streamIn: "ConversionItem", streamOut: "BatchStreamLine",
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
		query:     []paramDoc{discoveryLocaleParam},
		ok:        "CategoryResponse", conditional: true, errors: []int{400, 404},
	}
	docUnits = opDoc{
		id: "listUnits", tag: "discovery", summary: "List units",
		description: "Every unit, by category and then in catalog order, optionally filtered; with q, the best matches first. Other query parameters are refused (400); an unknown category is 404. " + discoveryKeyDoc,
		query: []paramDoc{
			{"category", "Only units of this category id.", false, strSchema, "length"},
			{"q", "Only units whose symbol, name, plural or an alias (with locale, also a name in that locale) contains this text, case aside; ranked: the symbol exactly, a symbol in another case, a name, alias or the locale's name exactly, a prefix, a part; ties by the shorter name, then the symbol.", false, strSchema, "met"},
			{"dimension", "Only units of this dimension, written as category records write it (`L T^-1`, `M L^2 T^-2`, `1`), in any order.", false, strSchema, "L T^-1"},
			discoveryLocaleParam,
		},
		ok: "UnitList", conditional: true, errors: []int{400, 404},
	}
	docUnit = opDoc{
		id: "getUnit", tag: "discovery", summary: "Get a unit by symbol or alias",
		description: "Symbols containing `/` are percent-encoded (`km%2Fh`). A unit expression (`kg*m%2Fs^2`) answers a record of kind `expression` with its canonical symbol, category, dimension and exact factor to the coherent SI unit. An unknown unit is 404 with `suggestions`; an ambiguous name is 400 AMBIGUOUS_UNIT with `candidates`; a malformed expression is 400 INVALID_UNIT_EXPRESSION. " + discoveryKeyDoc,
		pathParam:   &paramDoc{"unit", "Unit symbol or alias, percent-encoded.", true, strSchema, "ft"},
		query:       []paramDoc{discoveryLocaleParam},
		ok:          "UnitResponse", conditional: true, errors: []int{400, 404},
	}
	docSubstances = opDoc{
		id: "listSubstances", tag: "discovery", summary: "List substances",
		description: "The substance catalog: what conversions across kinds (mg/dL ↔ mmol/L, kg ↔ L, ppm ↔ mg/m³, mEq ↔ mmol) may name in `substance`, with each value's source. Other query parameters are refused (400).",
		query:       []paramDoc{{"q", "Only substances whose id, name, alias, formula or CAS number contains this text (case-insensitive).", false, strSchema, "glu"}},
		ok:          "SubstanceList", conditional: true, errors: []int{400},
	}
	docSubstance = opDoc{
		id: "getSubstance", tag: "discovery", summary: "Get a substance",
		description: "By id, or by name, alias, CAS number or formula (`glucose`, `50-99-7`, `C6H12O6`). An unknown one is 404 with `suggestions`.",
		pathParam:   &paramDoc{"id", "Substance id, name, alias, CAS number or formula, percent-encoded.", true, strSchema, "glucose"},
		ok:          "SubstanceResponse", conditional: true, errors: []int{400, 404},
	}
	docPreferences = opDoc{
		id: "listPreferences", tag: "discovery", summary: "List unit preferences",
		description: "The unit preferences of Unicode CLDR that `to=auto` chooses from: for each category (and CLDR quantity), its usages and their units, largest first, each used from its threshold `geq` (in `geq_unit`). Without `region` or `locale`, every list with its regions; with one, the list that applies there (`matched_region`: the region itself, or the nearest region containing it that has a list of its own, up to 001). An unknown category is 404; an unknown region or a malformed locale is 400.",
		query: []paramDoc{
			{"category", "Only this category id.", false, strSchema, "length"},
			{"region", "ISO 3166-1 alpha-2 code or UN M.49 area (`001` is the world).", false, strSchema, "GB"},
			{"locale", "BCP 47 locale whose region (or its language's likely region) to use when no region is given.", false, strSchema, "en-GB"},
		},
		ok: "PreferenceList", conditional: true, errors: []int{400, 404},
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

// decimalPattern matches the decimals the server writes: plain notation, or
// scientific with a lower-case e (engine/internal/digits.Format).
const decimalPattern = `^-?[0-9]+(\.[0-9]+)?(e[+-]?[0-9]+)?$`

// obj is a JSON object in an example value.
type obj = map[string]any

// errorCodesByStatus lists the codes each error status can carry.
func errorCodesByStatus() map[int][]string {
	m := map[int][]string{}
	for _, code := range errcode.Codes() {
		st := errcode.Status(code)
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
	codeInvalidRequest:                       {"code": codeInvalidRequest, "message": `unknown query parameter "unit" (expected value, from, to, precision)`, "request_id": "3f2a9c0e5b7d4a1e8c6f0b2d4e6a8c0f"},
	codeBatchLimitExceeded:                   {"code": codeBatchLimitExceeded, "message": "a batch holds at most 100 conversions; this one has 101", "request_id": "3f2a9c0e5b7d4a1e8c6f0b2d4e6a8c0f", "details": obj{"limit": 100, "count": 101}},
	codePayloadTooLarge:                      {"code": codePayloadTooLarge, "message": "the request body is larger than 65536 bytes", "request_id": "3f2a9c0e5b7d4a1e8c6f0b2d4e6a8c0f", "details": obj{"limit": 65536}},
	codeUnsupportedMediaType:                 {"code": codeUnsupportedMediaType, "message": `send the body as "Content-Type: application/json"`, "request_id": "3f2a9c0e5b7d4a1e8c6f0b2d4e6a8c0f"},
	codeUnauthorized:                         {"code": codeUnauthorized, "message": `send an API key as "Authorization: Bearer <key>"`, "request_id": "3f2a9c0e5b7d4a1e8c6f0b2d4e6a8c0f"},
	codeInvalidAPIKey:                        {"code": codeInvalidAPIKey, "message": "the API key is not valid", "request_id": "3f2a9c0e5b7d4a1e8c6f0b2d4e6a8c0f"},
	codeInsufficientScope:                    {"code": codeInsufficientScope, "message": "this key may not change the account's units: it needs the scope units:write", "request_id": "3f2a9c0e5b7d4a1e8c6f0b2d4e6a8c0f"},
	codeRateLimitExceeded:                    {"code": codeRateLimitExceeded, "message": "rate limit of 600 requests reached for this key; retry after 1 s", "request_id": "3f2a9c0e5b7d4a1e8c6f0b2d4e6a8c0f"},
	codeNotFound:                             {"code": codeNotFound, "message": `unknown unit "fet"; did you mean ft?`, "request_id": "3f2a9c0e5b7d4a1e8c6f0b2d4e6a8c0f", "suggestions": []string{"ft"}},
	codeMethodNotAllowed:                     {"code": codeMethodNotAllowed, "message": "method DELETE is not allowed here; allowed: GET, POST", "request_id": "3f2a9c0e5b7d4a1e8c6f0b2d4e6a8c0f"},
	codeInternal:                             {"code": codeInternal, "message": "internal error; quote the request id when reporting it", "request_id": "3f2a9c0e5b7d4a1e8c6f0b2d4e6a8c0f"},
	string(engine.CodeInvalidValue):          {"code": string(engine.CodeInvalidValue), "message": `value "abc" is not a decimal number (expected digits, optional fraction and exponent, e.g. 12.5 or 1.5e3)`, "request_id": "3f2a9c0e5b7d4a1e8c6f0b2d4e6a8c0f"},
	string(engine.CodeUnknownUnit):           {"code": string(engine.CodeUnknownUnit), "message": `unknown unit "fet"; did you mean ft?`, "request_id": "3f2a9c0e5b7d4a1e8c6f0b2d4e6a8c0f", "suggestions": []string{"ft"}},
	string(engine.CodeAmbiguousUnit):         {"code": string(engine.CodeAmbiguousUnit), "message": `"gallon" is ambiguous: it could mean gal (US gallon), gal_imp (imperial gallon)`, "request_id": "3f2a9c0e5b7d4a1e8c6f0b2d4e6a8c0f", "candidates": []string{"gal", "gal_imp"}},
	string(engine.CodeIncompatibleUnits):     {"code": string(engine.CodeIncompatibleUnits), "message": "cannot convert W (power) to J (energy): dimension M L^2 T^-3 is not M L^2 T^-2; multiply by a time", "request_id": "3f2a9c0e5b7d4a1e8c6f0b2d4e6a8c0f", "details": obj{"from_dimension": "M L^2 T^-3", "to_dimension": "M L^2 T^-2"}},
	string(engine.CodeInvalidUnitExpression): {"code": string(engine.CodeInvalidUnitExpression), "message": `invalid unit expression "kg*/m": expected a unit at position 4, found '/'`, "request_id": "3f2a9c0e5b7d4a1e8c6f0b2d4e6a8c0f"},
	string(engine.CodeValueOutOfRange):       {"code": string(engine.CodeValueOutOfRange), "message": "-500 degC is out of range: below the minimum of Temperature (0 K)", "request_id": "3f2a9c0e5b7d4a1e8c6f0b2d4e6a8c0f"},
	string(engine.CodeWorkBudgetExceeded):    {"code": string(engine.CodeWorkBudgetExceeded), "message": "converting 1.000000000000000000000000000000000000000001 mW to dBm needs more exact-rounding work than this request has left (32 slow evaluations per request); send it in a request of its own", "request_id": "3f2a9c0e5b7d4a1e8c6f0b2d4e6a8c0f"},
}

// openAPIDocument renders the document for g.
func (s *Server) openAPIDocument(g *engine.Graph) []byte {
	b, err := json.MarshalIndent(s.openAPI(g), "", "  ")
	if err != nil {
		panic("server: rendering OpenAPI: " + err.Error())
	}
	return append(b, '\n')
}

func (s *Server) openAPI(g *engine.Graph) *apiDocument {
	paths := map[string]apiPath{}
	for _, rt := range s.routes {
		p := openAPIPath(rt.path)
		if paths[p] == nil {
			paths[p] = apiPath{}
		}
		paths[p][strings.ToLower(rt.method)] = s.operation(rt, g)
	}
	return &apiDocument{
		OpenAPI:           "3.1.0",
		JSONSchemaDialect: "https://spec.openapis.org/oas/3.1/dialect/base",
		Info: apiInfo{
			Title:   "unitd",
			Version: s.cfg.Version,
			Summary: "Exact unit conversion over HTTP.",
			Description: "Converts quantities between units with exact decimal arithmetic. Numbers travel as decimal strings. " +
				"Every response carries `X-Request-Id`; every error body is `{\"error\":{\"code\",\"message\",\"request_id\"}}`. " +
				"Catalog version: `" + g.Version() + "`.",
		},
		Servers: []apiServer{{URL: "/"}},
		Tags: []apiTag{
			{Name: "conversion", Description: "Conversions; need a Bearer API key."},
			{Name: "discovery", Description: "The compiled catalog; public, cacheable with ETag / If-None-Match."},
			{Name: "account units", Description: "Units of your own: the units the key's account defines, which its requests convert with."},
			{Name: "operations", Description: "Health and this description."},
		},
		Paths:      paths,
		Components: s.components(g),
	}
}

func headerRef(name string) apiHeader { return apiHeader{Ref: "#/components/headers/" + name} }

func responseRef(name string) apiResponse { return apiResponse{Ref: "#/components/responses/" + name} }

func (s *Server) operation(rt route, g *engine.Graph) *apiOperation {
	d := rt.doc
	op := &apiOperation{OperationID: d.id, Summary: d.summary, Tags: []string{d.tag}, Description: d.description,
		Security: []map[string][]string{}}
	if d.pathParam != nil {
		pp := *d.pathParam
		sc := pp.schema
		switch pp.name {
		case "category":
			sc = &schema{Type: typ("string"), Examples: toAny(categoryIDs(g))}
		case "unit":
			sc = &schema{Type: typ("string"), Examples: toAny(unitSymbols(g, 10))}
		}
		op.Parameters = append(op.Parameters, apiParameter{Name: pp.name, In: "path", Required: true, Description: pp.description, Schema: sc, Example: pp.example})
	}
	for _, q := range d.query {
		op.Parameters = append(op.Parameters, apiParameter{Name: q.name, In: "query", Required: q.required, Description: q.description, Schema: q.schema, Example: q.example})
	}
	if d.conditional {
		op.Parameters = append(op.Parameters, apiParameter{Name: "If-None-Match", In: "header",
			Description: "An ETag from an earlier answer; 304 when it still matches.", Schema: strSchema})
	}
	op.Parameters = append(op.Parameters, apiParameter{Name: "X-Request-Id", In: "header",
		Description: "Echoed in the response when 1–" + strconv.Itoa(maxRequestID) + " printable ASCII characters.",
		Schema:      &schema{Type: typ("string"), MaxLength: intp(maxRequestID)}})
	if d.body != "" {
		op.RequestBody = &apiRequestBody{Required: true, Content: map[string]apiMediaType{
			"application/json": {Schema: ref(d.body), Example: requestExample(d.body)},
		}}
		if d.yamlBody {
			op.RequestBody.Content["application/yaml"] = apiMediaType{Schema: ref(d.body)}
		}
	}
	if d.streamIn != "" {
		op.RequestBody = &apiRequestBody{Required: true, Content: map[string]apiMediaType{
			ndjsonContentType: {Schema: &schema{Type: typ("string"),
				Description: "NDJSON: one `" + d.streamIn + "` object per line, at most " + strconv.Itoa(s.cfg.MaxStreamLines) + " lines and " +
					strconv.FormatInt(s.cfg.MaxStreamBody, 10) + " bytes, each line at most " + strconv.Itoa(s.cfg.MaxStreamLine) + " bytes. " + s.streamLimitsDoc()},
				ItemSchema: ref(d.streamIn),
				Example:    "{\"value\":\"12.5\",\"from\":\"ft\",\"to\":\"m\"}\n{\"value\":\"abc\",\"from\":\"ft\",\"to\":\"m\"}\n"},
		}}
	}

	okHeaders := map[string]apiHeader{"X-Request-Id": headerRef("X-Request-Id")}
	if rt.auth {
		for _, h := range []string{"RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"} {
			okHeaders[h] = headerRef(h)
		}
	}
	if d.conditional {
		okHeaders["ETag"] = headerRef("ETag")
		okHeaders["Cache-Control"] = headerRef("Cache-Control")
	}
	ok := apiResponse{Description: "Success.", Headers: okHeaders}
	if d.streamOut != "" {
		ok.Content = map[string]apiMediaType{ndjsonContentType: {Schema: &schema{Type: typ("string"),
			Description: "NDJSON: one `" + d.streamOut + "` per line: an item's answer (`BatchItemSuccess` or `BatchItemError`) per item in order, perhaps one `BatchStreamError` line, then a `BatchStreamMeta` line."},
			ItemSchema: ref(d.streamOut),
			Example: `{"index":0,"status":"success","input":{"value":"12.5","unit":"ft"},"result":{"value":"3.81","unit":"m"},"category":"length","exact":true}` + "\n" +
				`{"index":1,"status":"error","input":{"value":"abc","unit":"ft"},"error":{"code":"INVALID_VALUE","message":"value \"abc\" is not a decimal number"}}` + "\n" +
				`{"meta":{"total":2,"succeeded":1,"failed":1}}` + "\n"}}
	} else {
		ok.Content = map[string]apiMediaType{"application/json": {Schema: ref(d.ok), Example: responseExample(d.ok)}}
	}
	op.Responses = map[string]apiResponse{"200": ok}
	if d.created {
		created := ok
		created.Description = "Created."
		op.Responses["201"] = created
		ok.Description = "Changed."
		op.Responses["200"] = ok
	}
	if d.conditional {
		op.Responses["304"] = apiResponse{Description: "Not modified: the If-None-Match ETag still matches.",
			Headers: map[string]apiHeader{"X-Request-Id": headerRef("X-Request-Id"), "ETag": headerRef("ETag")}}
	}
	statuses := append([]int(nil), d.errors...)
	if rt.auth {
		statuses = append(statuses, 401)
		op.Security = []map[string][]string{{"bearerAuth": {}}}
	}
	// 429: per key on conversions, per client address on public routes.
	statuses = append(statuses, 429, 405, 500)
	for _, st := range statuses {
		op.Responses[strconv.Itoa(st)] = responseRef(errorResponseName(st, rt.auth))
	}
	return op
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// streamLimitsDoc states the limits of streams that come from the
// configuration.
func (s *Server) streamLimitsDoc() string {
	wait := "A stream does not wait for the rate limit."
	if s.cfg.StreamRateWait > 0 {
		wait = "A stream waits for its key's rate limit up to " + s.cfg.StreamRateWait.String() + " in all."
	}
	rate := ""
	if s.cfg.StreamMinRate > 0 {
		rate = " After its first " + s.cfg.StreamGrace.String() + ", the body must come at " + strconv.FormatInt(s.cfg.StreamMinRate, 10) + " bytes a second or more (time spent waiting for the rate limit excepted)."
	}
	total := ""
	if s.cfg.MaxStreams > 0 {
		total = ", " + strconv.Itoa(s.cfg.MaxStreams) + " in all"
	}
	return wait + rate + " Streams open at once: " + strconv.Itoa(s.cfg.MaxStreamsPerKey) + " per key" + total + "."
}

func errorResponseName(status int, auth bool) string {
	name := strings.ReplaceAll(http.StatusText(status), " ", "")
	name = strings.ReplaceAll(name, "-", "")
	switch {
	case status == 429 && !auth:
		name += "Public"
	case auth && status != 401 && status != 429:
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
		return obj{"value": "1.75", "from": "m", "to": "auto", "usage": "person-height", "region": "GB", "precision": 2}
	case "BatchRequest":
		return obj{"conversions": []obj{{"value": "12.5", "from": "ft", "to": "m"}, {"value": "abc", "from": "ft", "to": "m"}}, "precision": 10}
	}
	return nil
}

func responseExample(schema string) any {
	switch schema {
	case "ConvertResponse":
		return obj{"data": obj{"input": obj{"value": "12.5", "unit": "ft"}, "result": obj{"value": "3.81", "unit": "m"}, "category": "length", "exact": true}}
	case "PreferenceList":
		return obj{"data": []obj{{"category": "length", "quantity": "length", "usage": "person-height", "region": "GB", "matched_region": "GB",
			"units": []obj{{"unit": "ft+in", "cldr": "foot-and-inch", "geq": "3.0", "geq_unit": "ft"}, {"unit": "in", "cldr": "inch"}}}},
			"meta": obj{"total": 1, "cldr_version": "48", "licence": "Unicode-3.0", "region": "GB", "region_from": "region"}}
	case "BatchResponse":
		return obj{"data": []obj{
			{"index": 0, "status": "success", "input": obj{"value": "12.5", "unit": "ft"}, "result": obj{"value": "3.81", "unit": "m"}, "category": "length", "exact": true},
			{"index": 1, "status": "error", "input": obj{"value": "abc", "unit": "ft"}, "error": obj{"code": "INVALID_VALUE", "message": `value "abc" is not a decimal number`}},
		}, "meta": obj{"total": 2, "succeeded": 1, "failed": 1}}
	}
	return nil
}

func (s *Server) components(g *engine.Graph) apiComponents {
	str := func(desc string) *schema { return &schema{Type: typ("string"), Description: desc} }
	integer := func(min int) *schema { return &schema{Type: typ("integer"), Minimum: intp(min)} }
	boolean := func(desc string) *schema { return &schema{Type: typ("boolean"), Description: desc} }
	// A decimal travels as text, so that no client reads it through a
	// binary float: format "decimal" says so to a reader, and generators
	// that know no such format keep the string.
	decimal := &schema{Type: typ("string"), Format: "decimal", Pattern: decimalPattern,
		Description: "A decimal number as text, with its exact digits: read it into a decimal type, never a binary float.", Examples: []any{"3.81", "1.602176634e-19"}}
	constant := func(v string) *schema { return &schema{Type: typ("string"), Const: v} }
	nullableString := &schema{Type: typ("string", "null")}
	allCodes := []string{}
	for _, code := range errcode.Codes() {
		if apiOnly(code) || code == codeInvalidItem {
			allCodes = append(allCodes, code)
		}
	}
	sort.Strings(allCodes)
	catIDSchema := &schema{Type: typ("string"), Description: "Category id.", Enum: categoryIDs(g)}
	closed := func(required []string, props map[string]*schema) *schema {
		return &schema{Type: typ("object"), Required: required, Properties: props, AdditionalProperties: boolp(false)}
	}
	part := closed([]string{"value", "unit"}, map[string]*schema{"value": decimal, "unit": str("Canonical symbol of the part's unit.")})
	input := closed(nil, map[string]*schema{
		"text":    str("The free text submitted (`quantity` or `q`), as sent."),
		"assumed": str("What free text was read as by a stated rule rather than as written: a unit whose meaning depends on the region, read as the locale's region's (\"pt: US liquid pint (region US)\"), or a portion of a food by its catalog mass (\"1 stick of butter = 113 g (butter)\")."),
		"value":   str("The submitted value, as sent; for free text, the value understood (a mixed quantity's values separated by spaces, \"5 3\")."),
		"unit":    str("The submitted unit, as sent; for free text, the unit understood (\"ft\", or \"ft+in\" for a mixed quantity); for parts, their units joined with +."),
		"parts":   {Type: typ("array"), Items: closed([]string{"value", "unit"}, map[string]*schema{"value": strSchema, "unit": strSchema}), Description: "The submitted parts of a mixed quantity."},
	})
	result := closed([]string{"unit"}, map[string]*schema{
		"value":    decimal,
		"unit":     str("Canonical symbol of the target unit, or the target expression with canonical symbols and ASCII operators (\"kg*m*s^-2\"), or a mixed unit (\"ft+in\"); a code no catalog unit claims stays namespaced (\"ucum:/nL\")."),
		"parts":    {Type: typ("array"), Items: part, Description: "A mixed result, in place of value: every part but the last a whole number, the last rounded to the precision; a negative quantity has its sign on its first part that is not zero."},
		"text":     str("The result for a reader of the request's locale: CLDR's unit pattern in the plural form the number takes, with the locale's number symbols and digits (\"96,56064 km/h\", \"5 километров\", \"5 Fuß 3,5 Zoll\")."),
		"code":     str("The target in its code system, when `to` named one (\"ucum:mmol/L\")."),
		"quantity": withDescription(ref("FHIRQuantity"), "With a FHIR `quantity` in the request: the result as a FHIR Quantity, with the input's comparator."),
	})
	fhirQuantity := closed([]string{"value"}, map[string]*schema{
		// FHIR makes it a JSON number; its digits are kept, so a Go
		// client holds it as json.Number rather than a float.
		"value": {Type: typ("number"), Description: "The value, a JSON number read (or written) by its literal digits: read it into a decimal type to keep them.",
			GoType: "json.Number"},
		"comparator": {Type: typ("string"), Enum: []string{"<", "<=", ">=", ">", "ad"}},
		"unit":       str("Display text of the unit."),
		"system":     {Type: typ("string"), Enum: []string{"http://unitsofmeasure.org", "http://qudt.org/vocab/unit"}, Description: "The code system: UCUM or QUDT."},
		"code":       str("The unit's code in system."),
	})
	fhirQuantity.Description = "An HL7 FHIR Quantity."
	exact := boolean("True when the digits are the exact result (no rounding anywhere).")
	resultCategory := &schema{Type: typ("string"), Description: "Category id; for a unit expression whose dimension no category has, the dimension itself (\"M T^-3 Θ^-1\").", Examples: []any{"length", "M T^-3 Θ^-1"}}
	hint := str("Beside a result answered as the plain ratio of two units that a measurand relates by a published equation instead (% → mmol/mol: HbA1c's IFCC–NGSP master equation): names the measurand to pass as `substance` to convert by it.")
	conversion := closed([]string{"input", "result", "category", "exact"}, map[string]*schema{
		"input": ref("Input"), "result": ref("Result"), "hint": hint, "category": resultCategory, "exact": exact, "explain": ref("Explain"),
	})
	itemSuccess := closed([]string{"index", "status", "input", "result", "category", "exact"}, map[string]*schema{
		"index": integer(0), "status": constant("success"),
		"input": ref("Input"), "result": ref("Result"), "hint": hint, "category": resultCategory, "exact": exact, "explain": ref("Explain"),
	})
	explainStep := closed([]string{"unit", "definition", "exact", "source"}, map[string]*schema{
		"unit":       str("The unit this definition defines."),
		"exponent":   {Type: typ("integer"), Description: "The operand's exponent in a unit expression."},
		"definition": str("The catalog definition, for a person (\"1 ft = 12 in\")."),
		"exact":      boolean("The definition is exact by its source."),
		"source":     str("Citation for the definition."),
	})
	explain := closed([]string{"catalog_version", "kind", "steps"}, map[string]*schema{
		"catalog_version": str("The catalog version, as catalog.version in health."),
		"kind":            {Type: typ("string"), Enum: []string{"linear", "affine", "formula"}},
		"factor":          str("Exact multiplier from source to target: a terminating decimal (\"0.3048\"), p/q in lowest terms (\"1200/3937\"), or, through π, 50 significant digits with factor_exact false."),
		"factor_exact":    {Type: typ("boolean")},
		"offset":          str("Added after the factor, for affine conversions; written as factor is."),
		"offset_exact":    {Type: typ("boolean")},
		"formulas": {Type: typ("array"), Items: closed([]string{"unit", "reference", "to", "from"}, map[string]*schema{
			"unit": strSchema, "reference": strSchema, "to": str("Formula in x into the reference unit."), "from": str("Formula in x out of the reference unit."),
		})},
		"steps": {Type: typ("array"), Items: explainStep, Description: "Every catalog definition used, from each unit (each operand of an expression) down to its category base, then any bridge between categories."},
		"substance": closed([]string{"values"}, map[string]*schema{
			"id":      str("The catalog substance named, if any."),
			"formula": str("A formula that names no catalog substance."),
			"values": {Type: typ("array"), Description: "Every substance value the conversion used (molar_mass, density, charge, temperature, pressure, gas_constant), with its source and conditions.", Items: closed([]string{"property", "value", "source"}, map[string]*schema{
				"property": strSchema, "value": strSchema, "source": strSchema,
				"conditions": str("The conditions the value holds at."),
				"sum":        str("How a molar mass was summed from the standard atomic weights."),
			})},
		}),
		"inexact": {Type: typ("array"), Items: strSchema, Description: "The units (and bridges, by their from unit) of the steps whose definitions are not exact: the result is then exact:false however exact its arithmetic."},
		"equations": {Type: typ("array"), Description: "The published equations of a measurand (substance HbA1c) the conversion followed, in order; factor and offset are those of the whole conversion.", Items: closed([]string{"name", "equation", "applied", "inverse", "exact", "source"}, map[string]*schema{
			"name":     str("The equation's name (\"IFCC–NGSP master equation\")."),
			"equation": str("As published, with the scales' units (\"NGSP (%) = 0.09148 × IFCC (mmol/mol) + 2.152\")."),
			"applied":  str("As applied: the equation, or solved for its right-hand scale when inverse."),
			"inverse":  {Type: typ("boolean")},
			"exact":    boolean("False when the coefficients were fitted to data; the result is then exact:false."),
			"source":   str("Citation."),
			"note":     strSchema,
		})},
		"mixed": closed([]string{"unit", "last_part", "parts"}, map[string]*schema{
			"unit": strSchema, "last_part": str("The unit factor and steps lead to."),
			"parts": {Type: typ("array"), Items: closed([]string{"unit", "per_last"}, map[string]*schema{"unit": strSchema, "per_last": str("How many of the last part this part is.")})},
		}),
		"preference": ref("PreferenceChoice"),
	})
	batchItem := &schema{OneOf: []*schema{ref("BatchItemSuccess"), ref("BatchItemError")},
		Discriminator: &apiDiscriminator{PropertyName: "status", Mapping: map[string]string{
			"success": "#/components/schemas/BatchItemSuccess", "error": "#/components/schemas/BatchItemError"}}}
	explainField := boolean("Add an explain object to each successful result.")
	itemError := closed([]string{"index", "status", "input", "error"}, map[string]*schema{
		"index": integer(0), "status": constant("error"),
		"input": ref("Input"), "error": ref("ItemError"),
	})
	// Request fields have one type each, the one a generated client sends:
	// a union (oneOf) costs Go clients a From… call per field. Where the
	// server takes another form as well, the description says so.
	precision := &schema{Type: typ("integer"), Minimum: intp(1), Maximum: intp(engine.MaxPrecision),
		Description: "Significant digits (default " + strconv.Itoa(engine.DefaultPrecision) + ", or with a quantity \"input\"). Also accepted in place of the number: the string \"input\", as many digits as the value has (\"5.50\" has 3)."}
	withExplain := func(m map[string]*schema) map[string]*schema {
		m["explain"] = explainField
		return m
	}
	withDefine := func(m map[string]*schema) map[string]*schema {
		m["define"] = ref("ConvertRequestDefine")
		return m
	}
	convertFields := func() map[string]*schema {
		return map[string]*schema{
			"value": {Type: typ("string"), Description: "Decimal text (\"12.5\"; a mixed unit's values separated by spaces, \"5 3.5\"). Also accepted: a JSON number, taken by its literal text (12.5); the string keeps its digits in every client.",
				Examples: []any{"12.5"}},
			"from":         str("Unit to convert from: symbol, alias, unit expression, or standard code (`ucum:mg/dL`, `cldr:foot`, `unece:KGM`, `qudt:FT`); or a mixed unit (\"ft+in\") with one value per part (\"5 3.5\")."),
			"to":           str("Unit to convert to, as from, a mixed unit (\"ft+in\"), or \"auto\". Also accepted: as in FHIR, an object {\"system\": \"http://unitsofmeasure.org\", \"code\": \"mmol/L\"}."),
			"precision":    precision,
			"quantity":     str("In place of value and from: free text as people write it (\"5 ft 3 in\"). Also accepted: a FHIR Quantity object (`FHIRQuantity`: its system and code name the unit; without a code its unit text does; precision then defaults to \"input\")."),
			"q":            str("A whole question (\"5 ft 3 in to cm\"), alone."),
			"locale":       str(localeParam.description),
			"unit_display": {Type: typ("string"), Enum: []string{"long", "short", "narrow"}, Description: "Width of unit names in result.text (default short)."},
			"usage":        str(usageParam.description),
			"region":       str(regionParam.description),
			"parts": {Type: typ("array"), MinItems: intp(1), MaxItems: intp(maxParts), Description: "A mixed quantity part by part, in place of value and from.",
				Items: closed([]string{"value", "unit"}, map[string]*schema{"value": str("Decimal text; also accepted: a JSON number, taken by its literal text."), "unit": strSchema})},
			"substance":  str("What is measured, for conversions across kinds (mg/dL ↔ mmol/L, kg ↔ L, ppm ↔ mg/m³, mEq ↔ mmol): a substance's id, name, alias, CAS number, or a chemical formula (`glucose`, `50-99-7`, `C6H12O6`, `Ca(OH)2`, `CuSO4·5H2O`); or a measurand whose units a published equation relates (`HbA1c`, `A1C`: % ↔ mmol/mol ↔ eAG in mg/dL or mmol/L)."),
			"molar_mass": str("Molar mass with its unit, winning over the substance's (\"180.156 g/mol\")."),
			"density":    str("Density with its unit, winning over the substance's (\"0.745 kg/L\")."),
			"charge":     {Type: typ("integer"), Description: "Charge number of an ion, non-zero, winning over the substance's (mEq ↔ mmol)."},
			"conditions": str("Temperature and pressure of a gas (\"25 degC, 101.325 kPa\"), or a named set (STP, NTP, SATP, DIN 1343, ISO 13443)."),
		}
	}
	errorProps := func(withRequestID bool) map[string]*schema {
		m := map[string]*schema{
			"code":        {Type: typ("string"), Enum: allCodes},
			"message":     str("Human-readable, safe to show."),
			"details":     {Type: typ("object"), Description: "Extra facts, such as the byte offset of a JSON syntax error, a limit, the from_dimension and to_dimension of INCOMPATIBLE_UNITS, or the position of INVALID_QUANTITY."},
			"suggestions": {Type: typ("array"), Items: strSchema, MaxItems: intp(5), Description: "Close matches of an unknown unit."},
			"candidates":  {Type: typ("array"), Items: strSchema, Description: "Symbols an ambiguous name could mean."},
			"hint":        str("What the catalog guesses was meant, for a few common mistakes (C → F: the coulomb and the farad; did you mean degC → degF?). Nothing is converted."),
		}
		if withRequestID {
			m["request_id"] = str("The X-Request-Id of the request.")
		} else {
			m["request_id"] = str("INTERNAL_ERROR only (a bug while converting this item; the other items are answered): the X-Request-Id of the request, to quote when reporting it.")
		}
		return m
	}
	definition := &schema{
		Type:     typ("object"),
		Required: []string{"kind"},
		Properties: map[string]*schema{
			"kind":   {Type: typ("string"), Enum: []string{"linear", "affine", "formula"}},
			"factor": str("Exact factor: decimal or fraction text (\"0.3048\", \"5/18\")."),
			"offset": str("Exact offset: decimal or fraction text."),
			"unit":   str("Symbol of the reference unit (the unit itself for a category's base unit)."),
			"to":     str("Formula from this unit to the reference unit, in x."),
			"from":   str("Formula from the reference unit to this unit, in x."),
		},
		AdditionalProperties: boolp(false),
		Examples: []any{
			map[string]string{"kind": "linear", "factor": "0.3048", "unit": "m"},
			map[string]string{"kind": "affine", "factor": "1", "offset": "273.15", "unit": "K"},
		},
	}
	unit := closed([]string{"symbol", "name", "plural", "aliases", "category", "dimension", "system", "definition", "exact", "source"}, map[string]*schema{
		"symbol":        str("Canonical symbol (case-sensitive)."),
		"name":          str("Name."),
		"plural":        str("Plural name."),
		"aliases":       {Type: typ("array"), Items: strSchema, Description: "Other accepted spellings: symbols such as °C, then word aliases."},
		"category":      unitCategorySchema(g),
		"dimension":     str("The category's dimension, such as \"L T^-1\"."),
		"system":        str("SI, metric, US, imperial, …"),
		"definition":    ref("Definition"),
		"exact":         boolean("The definition is exact."),
		"source":        str("Citation for the definition."),
		"description":   str("Notes."),
		"prefixed_from": str("The unit this one was derived from by an SI or binary prefix."),
		"account":       boolean("True for a unit of the key's account (`my:<symbol>`), listed by discovery with a key."),
		"codes": closed(nil, map[string]*schema{
			"ucum": str("UCUM code."), "cldr": str("CLDR unit identifier."), "unece": str("UN/ECE Recommendation 20 common code."), "qudt": str("QUDT unit local name (IRI http://qudt.org/vocab/unit/<name>)."),
		}),
		"display_name": closed([]string{"long", "short", "narrow"}, map[string]*schema{
			"long": strSchema, "short": strSchema, "narrow": strSchema,
		}),
		"examples": {Type: typ("array"), Items: closed([]string{"value", "from", "to", "result", "approx"}, map[string]*schema{
			"value": decimal, "from": strSchema, "to": strSchema, "result": decimal, "approx": {Type: typ("boolean")},
		})},
	})
	expressionUnit := closed([]string{"symbol", "category", "dimension", "definition", "exact", "terms"}, map[string]*schema{
		"symbol":    str("The expression with canonical symbols and ASCII operators."),
		"category":  resultCategory,
		"dimension": str("Dimension, such as \"M L T^-2\"."),
		"definition": closed([]string{"kind", "factor", "factor_exact", "unit"}, map[string]*schema{
			"kind":         constant("expression"),
			"factor":       str("Exact factor to the coherent SI unit: decimal, p/q, or through π 50 significant digits with factor_exact false."),
			"factor_exact": {Type: typ("boolean")},
			"unit":         str("The coherent SI unit of the dimension (\"kg*m*s^-2\")."),
		}),
		"exact": boolean("Every operand's definition is exact."),
		"terms": {Type: typ("array"), Items: closed([]string{"unit", "exponent"}, map[string]*schema{"unit": strSchema, "exponent": {Type: typ("integer")}})},
	})
	preferenceUnit := closed([]string{"unit", "cldr"}, map[string]*schema{
		"unit":      str("The catalog unit (\"ft+in\")."),
		"cldr":      str("CLDR's identifier (\"foot-and-inch\")."),
		"geq":       str("Threshold from which this unit is used, in geq_unit; absent on the last unit, which takes every smaller value."),
		"geq_unit":  str("The unit of geq: the unit, or the largest part of a mixed unit."),
		"substance": str("What a unit of mass concentration is of (\"glucose\")."),
	})
	preferenceChoice := closed([]string{"quantity", "usage", "matched_usage", "region", "region_from", "matched_region", "units", "chosen", "threshold_reached", "reason", "source"}, map[string]*schema{
		"quantity":          str("CLDR's quantity of the source unit."),
		"usage":             str("The usage asked for (default when none)."),
		"matched_usage":     str("The usage whose preferences were used, after UTS #35's fall-back (without the last parts, then default)."),
		"region":            str("The region the preferences were looked up for."),
		"region_from":       {Type: typ("string"), Enum: []string{"region", "locale", "locale-ms", "locale-rg", "likely", "default"}},
		"locale":            str("The locale the region came from."),
		"matched_region":    str("The region whose list was used: the region, or the nearest containing it that has one, up to 001."),
		"units":             {Type: typ("array"), Items: ref("PreferenceUnit")},
		"chosen":            {Type: typ("integer"), Description: "Index of the chosen unit in units (-1 when a -u-mu- override chose it)."},
		"threshold_reached": boolean("False when the value reached no threshold and the last unit was taken."),
		"override":          str("The locale's -u-mu- unit that chose a temperature's unit."),
		"reason":            str("Why, in a sentence."),
		"source":            str("The data's source."),
	})
	preferenceSet := closed([]string{"category", "quantity", "usage"}, map[string]*schema{
		"category": catIDSchema, "quantity": str("CLDR's quantity."), "usage": str("CLDR's usage."),
		"preferences": {Type: typ("array"), Description: "Without a region: every list, with its regions.",
			Items: closed([]string{"regions", "units"}, map[string]*schema{"regions": {Type: typ("array"), Items: strSchema}, "units": {Type: typ("array"), Items: ref("PreferenceUnit")}})},
		"region":         str("With a region: the region looked up."),
		"matched_region": str("With a region: the region whose list applies."),
		"units":          {Type: typ("array"), Items: ref("PreferenceUnit"), Description: "With a region: the units that apply, largest first."},
	})
	categoryProps := func() map[string]*schema {
		return map[string]*schema{
			"id": catIDSchema, "name": strSchema, "description": strSchema,
			"base_unit": str("Symbol of the base unit."), "dimension": str("Dimension such as \"L T^-1\", or \"1\"."),
			"unit_count": integer(0), "minimum": str("Smallest allowed value, in the base unit."),
		}
	}
	categoryDetailProps := categoryProps()
	categoryDetailProps["units"] = &schema{Type: typ("array"), Items: ref("Unit")}
	metaTotal := closed([]string{"total"}, map[string]*schema{"total": integer(0)})
	propertyRecord := func(withTemperature bool) *schema {
		m := map[string]*schema{"value": str("Value with its unit (\"180.156 g/mol\")."), "source": str("Citation."), "sum": str("How a molar mass was summed from the standard atomic weights.")}
		req := []string{"value", "source"}
		if withTemperature {
			m["temperature"] = str("Temperature the density holds at.")
			req = append(req, "temperature")
		}
		return closed(req, m)
	}
	substanceSchema := closed([]string{"id", "name", "aliases"}, map[string]*schema{
		"id": strSchema, "name": strSchema, "aliases": {Type: typ("array"), Items: strSchema},
		"formula": strSchema, "cas": str("CAS Registry Number."), "description": strSchema,
		"molar_mass": propertyRecord(false), "density": propertyRecord(true),
		"charge": {Type: typ("integer"), Description: "Charge number of an ion."}, "charge_source": strSchema,
		"measurand": closed([]string{"scales", "equations"}, map[string]*schema{
			"scales": {Type: typ("array"), Description: "The scales the measurand is reported on, each in its unit; substance is what a scale's values are amounts of, through which its unit's relatives convert.", Items: closed([]string{"name", "unit"}, map[string]*schema{
				"name": strSchema, "unit": strSchema, "substance": strSchema, "description": strSchema,
			})},
			"equations": {Type: typ("array"), Description: "The published equations between the scales.", Items: closed([]string{"name", "equation", "exact", "source"}, map[string]*schema{
				"name": strSchema, "equation": strSchema, "exact": boolean("False when fitted to data."), "source": str("Citation."), "note": strSchema,
			})},
		}),
	})
	timestamp := &schema{Type: typ("string"), Format: "date-time"}

	schemas := map[string]*schema{
		"Input":           input,
		"Result":          result,
		"ConvertRequest":  closed(nil, withDefine(withExplain(convertFields()))),
		"ConversionItem":  closed(nil, convertFields()),
		"FHIRQuantity":    fhirQuantity,
		"Conversion":      conversion,
		"ConvertResponse": closed([]string{"data"}, map[string]*schema{"data": ref("Conversion")}),
		"BatchRequest": closed([]string{"conversions"}, map[string]*schema{
			"conversions":  {Type: typ("array"), MinItems: intp(1), MaxItems: intp(maxBatch), Items: ref("ConversionItem")},
			"define":       ref("ConvertRequestDefine"),
			"precision":    precision,
			"explain":      explainField,
			"usage":        str("Usage of every item that gives none."),
			"region":       str("Region of every item that gives none."),
			"locale":       str("BCP 47 language tag for every item that names none."),
			"unit_display": {Type: typ("string"), Enum: []string{"long", "short", "narrow"}, Description: "Width of unit names in result.text for every item that names none."},
			"substance":    str("Batch-wide substance; an item's own substance fields win, field by field."),
			"molar_mass":   str("Batch-wide molar mass."),
			"density":      str("Batch-wide density."),
			"charge":       {Type: typ("integer"), Description: "Batch-wide charge number."},
			"conditions":   str("Batch-wide gas conditions."),
		}),
		"BatchItemSuccess": itemSuccess,
		"BatchItemError":   itemError,
		"BatchStreamError": closed([]string{"error"}, map[string]*schema{"error": closed([]string{"code", "message", "request_id", "resume_from"}, map[string]*schema{
			"code":        {Type: typ("string"), Enum: []string{codeBatchLimitExceeded, codeInvalidAPIKey, codePayloadTooLarge, codeRateLimitExceeded, codeRequestTimeout, codeServiceUnavailable}},
			"message":     str("Human-readable, safe to show: what ended the stream."),
			"request_id":  str("The X-Request-Id of the request."),
			"retry_after": {Type: typ("integer"), Minimum: intp(1), Description: "RATE_LIMIT_EXCEEDED: seconds until the key's budget allows another request."},
			"resume_from": {Type: typ("integer"), Minimum: intp(0), Description: "The index of the first line not answered (numbered as `index` numbers the answers: blank lines are not counted): every line before it was answered exactly once, none after it was. Send the lines from it on again."},
			"details":     {Type: typ("object"), Description: "The limit that was reached, when one was."},
		})}),
		"BatchStreamMeta": closed([]string{"meta"}, map[string]*schema{"meta": closed([]string{"total", "succeeded", "failed"}, map[string]*schema{
			"total": integer(0), "succeeded": integer(0), "failed": integer(0),
		})}),
		"BatchStreamLine": {OneOf: []*schema{ref("BatchItemSuccess"), ref("BatchItemError"), ref("BatchStreamError"), ref("BatchStreamMeta")},
			Description: "One line of the answer of POST /v1/batch/stream: an item's answer, the error that ended the stream, or the meta line that ends every stream."},
		"BatchResponse": closed([]string{"data", "meta"}, map[string]*schema{
			"data": {Type: typ("array"), Items: batchItem},
			"meta": closed([]string{"total", "succeeded", "failed"}, map[string]*schema{
				"total": integer(0), "succeeded": integer(0), "failed": integer(0),
			}),
		}),
		"Error":            closed([]string{"code", "message", "request_id"}, errorProps(true)),
		"ItemError":        closed([]string{"code", "message"}, errorProps(false)),
		"ErrorResponse":    closed([]string{"error"}, map[string]*schema{"error": ref("Error")}),
		"Definition":       definition,
		"Unit":             unit,
		"Category":         closed([]string{"id", "name", "base_unit", "dimension", "unit_count"}, categoryProps()),
		"CategoryDetail":   closed([]string{"id", "name", "base_unit", "dimension", "unit_count", "units"}, categoryDetailProps),
		"CategoryList":     closed([]string{"data", "meta"}, map[string]*schema{"data": {Type: typ("array"), Items: ref("Category")}, "meta": metaTotal}),
		"CategoryResponse": closed([]string{"data"}, map[string]*schema{"data": ref("CategoryDetail")}),
		"UnitList":         closed([]string{"data", "meta"}, map[string]*schema{"data": {Type: typ("array"), Items: ref("Unit")}, "meta": metaTotal}),
		"UnitResponse":     closed([]string{"data"}, map[string]*schema{"data": {OneOf: []*schema{ref("Unit"), ref("ExpressionUnit")}}}),
		"ExpressionUnit":   expressionUnit,
		"Explain":          explain,
		"PreferenceUnit":   preferenceUnit,
		"PreferenceChoice": preferenceChoice,
		"PreferenceSet":    preferenceSet,
		"PreferenceList": closed([]string{"data", "meta"}, map[string]*schema{
			"data": {Type: typ("array"), Items: ref("PreferenceSet")},
			"meta": closed([]string{"total"}, map[string]*schema{
				"total": integer(0), "source": str("The data's source."), "cldr_version": str("CLDR's version."), "licence": str("The data's licence (SPDX)."),
				"region": str("The region looked up."), "region_from": str("How the region was found: region, locale, locale-ms, locale-rg, likely or default."),
			}),
		}),
		"Substance":         substanceSchema,
		"SubstanceList":     closed([]string{"data", "meta"}, map[string]*schema{"data": {Type: typ("array"), Items: ref("Substance")}, "meta": metaTotal}),
		"SubstanceResponse": closed([]string{"data"}, map[string]*schema{"data": ref("Substance")}),
		"ConvertRequestDefine": {Type: typ("array"), MaxItems: intp(20), Description: defineDoc,
			Items: &schema{OneOf: []*schema{str("A one-line definition: \"smoot = 1.7018 m\"."), ref("AccountUnitDocument")}}},
		"Health": closed([]string{"status", "version", "catalog"}, map[string]*schema{
			"status":  constant("ok"),
			"version": str("Server version."),
			"catalog": closed([]string{"version", "categories", "units", "loaded_at", "last_reload"}, map[string]*schema{
				"version":    str("Catalog version."),
				"categories": integer(0),
				"units":      integer(0),
				"loaded_at":  timestamp,
				"last_reload": closed([]string{"at", "ok", "error"}, map[string]*schema{
					"at": timestamp, "ok": {Type: typ("boolean")}, "error": nullableString,
				}),
				"reload_in_progress_since": {Type: typ("string"), Format: "date-time", Description: "Start of the catalog reload now running; absent when none is."},
			}),
			"keys": closed([]string{"count", "loaded_at", "checked_at", "ok", "error"}, map[string]*schema{
				"count":      integer(0),
				"loaded_at":  {Type: typ("string", "null"), Format: "date-time"},
				"checked_at": {Type: typ("string", "null"), Format: "date-time"},
				"ok":         {Type: typ("boolean")},
				"error":      nullableString,
			}),
		}),
		"OpenAPIDocument": {Type: typ("object"), Required: []string{"openapi", "info", "paths"}, Description: "An OpenAPI 3.1 document.",
			Properties: map[string]*schema{
				"openapi": str("The OpenAPI version (\"3.1.0\")."),
				"info": {Type: typ("object"), Required: []string{"title", "version"}, Properties: map[string]*schema{
					"title": strSchema, "version": str("The server's version."), "summary": strSchema, "description": strSchema}},
				"paths": {Type: typ("object"), Description: "The operations, by path and method."},
			}},
	}

	headers := map[string]apiHeader{
		"X-Request-Id": {Description: "The caller's X-Request-Id when 1–" + strconv.Itoa(maxRequestID) + " printable ASCII characters, else a fresh id.", Required: true,
			Schema: &schema{Type: typ("string"), MinLength: intp(1), MaxLength: intp(maxRequestID)}},
		"RateLimit-Limit":     {Description: "Requests allowed per window (burst size) for this key.", Schema: integer(0)},
		"RateLimit-Remaining": {Description: "Requests left in the window.", Schema: integer(0)},
		"RateLimit-Reset":     {Description: "Seconds until the window is full again.", Schema: integer(0)},
		"Retry-After":         {Description: "Seconds to wait before retrying.", Required: true, Schema: integer(1)},
		"WWW-Authenticate":    {Description: "`Bearer realm=\"unitd\"` when no key was sent; `Bearer error=\"invalid_token\"` when the key is not valid; `Bearer error=\"insufficient_scope\"` when the key's scopes do not allow the operation.", Required: true, Schema: strSchema},
		"Allow":               {Description: "Methods the route supports.", Required: true, Schema: strSchema},
		"ETag":                {Description: "Strong validator of the catalog version and the resource.", Required: true, Schema: strSchema},
		"Cache-Control":       {Description: "`no-cache`: revalidate with If-None-Match.", Schema: strSchema},
	}

	responses := map[string]apiResponse{}
	for st, list := range errorCodesByStatus() {
		for _, auth := range []bool{false, true} {
			if auth && st == 401 {
				continue
			}
			if !auth && st == 401 {
				auth = true // only exists on authenticated routes
			}
			h := map[string]apiHeader{"X-Request-Id": headerRef("X-Request-Id")}
			switch st {
			case 401, 403:
				h["WWW-Authenticate"] = headerRef("WWW-Authenticate")
			case 429:
				h["Retry-After"] = headerRef("Retry-After")
			case 405:
				h["Allow"] = headerRef("Allow")
			}
			if auth && st != 401 {
				for _, name := range []string{"RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"} {
					h[name] = headerRef(name)
				}
			}
			examples := map[string]apiExample{}
			for _, code := range list {
				if ex, ok := errorExamples[code]; ok {
					examples[code] = apiExample{Summary: code, Value: obj{"error": ex}}
				}
			}
			desc := "Error: " + strings.Join(list, ", ") + "."
			if st == 429 && auth {
				desc += " Per-key limit reached (with RateLimit-* headers), or too many invalid keys from this address (without them)."
			}
			if st == 429 && !auth {
				desc += " Too many requests to public routes from this address."
			}
			responses[errorResponseName(st, auth)] = apiResponse{
				Description: desc,
				Headers:     h,
				Content:     map[string]apiMediaType{"application/json": {Schema: ref("ErrorResponse"), Examples: examples}},
			}
		}
	}

	for name, sc := range accountUnitSchemas(closed, str) {
		schemas[name] = sc
	}
	return apiComponents{
		Schemas:   schemas,
		Headers:   headers,
		Responses: responses,
		SecuritySchemes: map[string]apiSecurityScheme{"bearerAuth": {
			Type: "http", Scheme: "bearer", BearerFormat: "uc_live_… or uc_test_… (43 base64url characters)",
			Description: "An API key of the server's environment.",
		}},
	}
}

// openapi serves GET /openapi.json.
func (s *Server) openapi(c *call) reply { return okCached(c.snap.docs().openapi) }

// withDescription returns s with a description (a $ref may carry one in
// OpenAPI 3.1).
func withDescription(s *schema, d string) *schema {
	s.Description = d
	return s
}

// unitCategorySchema is a unit's category: a catalog category's id, or a
// category of the key's account's own ("my:…"). One string with a
// pattern rather than a union, so that generated clients read it as a
// string.
func unitCategorySchema(g *engine.Graph) *schema {
	ids := categoryIDs(g)
	quoted := make([]string, len(ids))
	for i, id := range ids {
		quoted[i] = regexp.QuoteMeta(id)
	}
	return &schema{Type: typ("string"), Pattern: "^(?:" + strings.Join(quoted, "|") + ")$|^my:",
		Description: "Category id: a catalog category's (/v1/categories), or `my:…`, a category of the key's account's own."}
}
