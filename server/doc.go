// Package server serves the unitd HTTP API over a compiled engine.Graph.
//
// # Shape
//
// [New] builds a [Server] from a [Config]; [Server.Handler] is the API as an
// http.Handler and [Server.Serve] runs it on a listener with timeouts and a
// graceful shutdown. [Server.ApplyGraph] must be called before the handler
// serves: it renders a snapshot of the catalog (the graph, the discovery
// documents, the OpenAPI description and their ETags) and publishes it
// atomically. Every request loads the snapshot once, so a batch runs on
// one graph, and a reload never disturbs requests in flight.
// [Server.ReportReload] records reload outcomes for /v1/health.
//
// Every route is listed once, in routeTable; each handler has one shape,
// func(*call) reply, and one wrapper writes replies and errors. Error codes
// map to statuses in one table (package server/errcode), which the account
// page (server/accountweb) uses for the account domain's codes too;
// internal errors are logged with the request id and never sent. A
// conversion error may carry the catalog's hint
// (error.hint: "did you mean degC → degF?").
//
// # Pages
//
// The pages for people (package web: /, /catalog…, /docs, /static/…,
// /web/units) are mounted beside the API (pages.go) and read the current
// snapshot's graph on every request. Their conversions go to POST
// /web/convert, which is POST /v1/convert's handler behind a different
// gate: instead of a key, a same-origin check (http.CrossOriginProtection,
// then Sec-Fetch-Site: same-origin or an Origin naming this host, else 403
// CROSS_ORIGIN_REQUEST) and a per-address budget (Config.PageLimiter, 429
// with Retry-After). The route is not in routeTable and not in
// /openapi.json: it serves the pages, not programs. Pages, static files and
// page routes need no key, so each of their requests also counts against
// the address's public budget (Config.PublicLimiter), as discovery does; a
// page rendered afresh rather than from the pages' cache is charged its
// cost beyond that (web.Config.Charge, ratelimit.Charger).
//
// # Deployment
//
// Behind reverse proxies named in Config.Proxies, the client's address and
// scheme come from X-Forwarded-For and X-Forwarded-Proto (package
// forwarded); with an https:// Config.PublicURL, or a request that came
// over HTTPS, answers carry Strict-Transport-Security; Config.TLS makes
// Serve speak HTTPS itself. Serve bounds connections per address and in
// all, closing idle keep-alive ones under pressure (conns.go). The access
// log records what Config.AccessLog chooses, and always server errors and
// slow requests (accesslog.go).
//
// # Conversion requests
//
// Checks run in the order of the API contract: route and method,
// authentication, rate limit, media type, size, JSON, batch limit, items.
// Bodies are read by a strict JSON scanner (internal/jsonscan; the request
// schema is decode.go): a single top-level object, no duplicate or unknown
// fields, no trailing data, nesting at most 32 deep, numbers kept as their
// literal text. A batch item of the usual plain shape is read in one pass
// (jsonscan's PlainObject), an accelerator behind the package's optimize
// gate: the tests run with it and without, and FuzzBatchDecode compares
// the two ways. A decoded conversion becomes an answer.Query, which
// package engine/answer answers (free text read, one conversion, the
// result in the locale's words); the handlers only decode and encode.
// Results are rendered by appending to pooled buffers, without
// reflection; a result's digits are kept in the pooled writer's Answer
// and copied into the response.
//
// # NDJSON streams
//
// POST /v1/batch with Content-Type application/x-ndjson streams (stream.go):
// the body is read a buffer at a time, every whole line is decoded by the
// same item reader as a JSON batch's elements (decodeItem) and answered by
// the same item writer (batchRun.appendItem), and the answers are sent
// after each buffer, so memory stays bounded whatever the body's size. Each
// read and each write has a deadline of its own (ReadTimeout,
// WriteTimeout), so a client that stalls lets go of the handler. Limits:
// MaxStreamBody, MaxStreamLines, MaxBody per line, and the key's rate limit
// once per started 100 lines; what ends a stream early ends it with one
// error line and the meta line. A stream is one request for the access log
// and the request counter (not for the latency histogram); its items count
// in the conversion counters like a batch's.
//
// # Decisions where the contract is silent
//
//   - Substance fields (substance.go): a batch item's substance, molar_mass,
//     density, charge and conditions lie over the batch-wide ones field by
//     field. charge is a JSON integer (a string is refused). A value that
//     does not read (density 0, a negative molar mass, conditions below
//     absolute zero or with no unit) is INVALID_REQUEST, INVALID_ITEM in a
//     batch item, naming the field in the message and details.field. A
//     malformed formula is UNKNOWN_SUBSTANCE with details.position. A
//     conversion across kinds needs conditions for a gas: no default
//     temperature is assumed (25 °C and 20 °C conventions differ by 2 %).
//     explain.substance lists the values used with their sources.
//   - A token that is not in the uc_<env>_<secret> format is INVALID_API_KEY
//     (RFC 6750 invalid_token), like unknown, revoked, expired and
//     wrong-environment keys; UNAUTHORIZED means no usable "Bearer <token>".
//   - With Config.AuthFailLimiter, each refused key takes a token from the
//     bucket of the client address (host of RemoteAddr, or behind a trusted
//     proxy the client's; see Config.Proxies). The request that empties the bucket is still 401;
//     from then on the address gets 429 RATE_LIMIT_EXCEEDED with Retry-After
//     for every request without a valid key, until a token is back; a valid
//     key still gets through, so a client that shares an address with a
//     guesser is not locked out. Missing Authorization headers are not
//     counted.
//   - Without Config.Limiter there is no per-key limit and no RateLimit-*
//     headers.
//   - Batch items may carry their own precision, which wins over the
//     batch's top-level precision. An item's unknown, duplicate, missing or
//     wrongly typed field, or a bad item precision, is INVALID_ITEM; the
//     same problems in a single POST /v1/convert body are INVALID_REQUEST.
//     A failed item's input echoes the value and from unit it could read.
//   - Each conversion request (a whole batch included) gets one
//     engine.Budget of engine.DefaultBudget slow evaluations: the widened
//     apd evaluations that correctly rounded logarithms and exponentials of
//     formula units fall back to when the fixed-point accelerator cannot
//     decide the rounding. Once it is spent, a conversion that would need
//     one is refused, before doing it, with 422 WORK_BUDGET_EXCEEDED (an
//     item error inside a batch); every other conversion goes on. Ordinary
//     inputs never spend any: the worst request within the limits, a batch
//     of 100 W↔dBm items at precision 50, takes about 2 ms
//     (BenchmarkWorstBatch).
//   - precision is a JSON integer (or, in a query, decimal digits) from 1
//     to 50, or "input" (the value's significant digits, at least 1); 5.0,
//     "5" and 5e0 are refused. With a FHIR quantity it defaults to "input".
//   - Standard codes (ucum:, cldr:, unece:, qudt:, QUDT IRIs) are accepted
//     wherever a unit is; a namespaced `to` adds result.code, in lower-case
//     system and the code as sent. A FHIR "quantity" object reads value,
//     comparator, unit, system, code (UCUM's or QUDT's system URI; without
//     a code, unit is read as a unitd name); "quantity" given with "value"
//     or "from" is refused; result.quantity carries the result's digits as
//     a JSON number, the comparator, and the target's code (the catalog
//     unit's UCUM code when "to" was a plain name). "quantity" as a JSON
//     string is free text (below); both forms are read alike by
//     POST /v1/convert, batch items and NDJSON lines, and a stream takes
//     precision=input from its query.
//   - A body that is not valid UTF-8 is INVALID_REQUEST; so is a body that
//     could not be read in time (Serve's ReadTimeout).
//   - In an NDJSON stream, blank lines are skipped and are not items;
//     index counts items. Batch-wide precision and explain come from the
//     query. A line longer than MaxBody is INVALID_ITEM, its bytes skipped.
//     An error line is {"error":{"code","message","request_id",…}}, with
//     retry_after (seconds) for RATE_LIMIT_EXCEEDED; a graceful shutdown
//     gives streams half of ShutdownTimeout, then ends them with
//     SERVICE_UNAVAILABLE. Every 100 items of a stream share one work
//     budget, as a batch of 100 does. The answer says Connection: close:
//     a stream that ended early leaves its body unread.
//   - /v1/units/:unit: an unknown unit is 404 NOT_FOUND with suggestions; a
//     declared ambiguous name is 400 AMBIGUOUS_UNIT with candidates.
//   - /v1/units?category=x with an unknown category is 404 NOT_FOUND; empty
//     category or q means no filter; other or repeated parameters are 400.
//     The other discovery routes refuse any query parameter but locale; /v1/health and
//     /openapi.json ignore the query.
//   - A unit record's aliases are its other case-sensitive symbols (°C)
//     followed by its word aliases; name and plural have their own fields.
//     The base unit's definition is {"kind":"linear","factor":"1","unit":
//     itself}. Records also carry description, prefixed_from, examples and
//     codes ({"ucum","cldr","unece","qudt"}, each only when the unit has it).
//   - ETags are strong, derived from the server version, the catalog
//     version and the resource; If-None-Match uses weak comparison and "*".
//     Discovery answers carry Cache-Control: no-cache, health no-store.
//   - No redirects (trailing slash, case) and no OPTIONS or HEAD handling:
//     unknown paths are 404 and other methods 405 with Allow, all in JSON.
//   - Free text (quantity.go): quantity as a JSON string stands for value
//     and from (and needs to); q, a whole question, stands alone. With
//     value or from beside quantity, or anything beside q, the request is
//     INVALID_REQUEST (INVALID_ITEM in a batch). Unreadable text is 400
//     INVALID_QUANTITY, details.position a number (characters from 1).
//   - locale is read on conversions (body, query, or batch-wide for the
//     items that name none) and on discovery (GET /v1/units,
//     /v1/units/:unit, /v1/categories/:category: display_name and q over
//     the locale's names). Accept-Language is honoured on conversions
//     only, so discovery stays cacheable without Vary; the pages follow
//     it. A malformed tag is INVALID_REQUEST; a well-formed one CLDR has no
//     data for gets its closest language, else English. result.text is
//     added only when a locale was asked for in one of these ways; a
//     mixed result's text has every part ("5 Fuß 3,5 Zoll").
//   - to=auto takes usage, region and locale (query, body, batch item, or
//     batch-wide beside conversions for the items that give none). An
//     unknown usage or region, or a malformed locale, is INVALID_REQUEST
//     (400; an item error in a batch) whose message names the valid ones
//     (details.usages, details.regions). Given with another to, they are
//     ignored. They are at most 64 characters.
//   - A mixed result has "result":{"unit":"ft+in","parts":[…]} and no
//     value; a mixed source given as "parts" (in place of value and from)
//     is echoed as "input":{"parts":[…],"unit":"ft+in"}. "parts" holds 1
//     to 6 objects {"value","unit"}; with value or from beside it, or any
//     other shape, it is INVALID_REQUEST (INVALID_ITEM in a batch).
//   - GET /v1/preferences[?category=…][&region=…|&locale=…] is public
//     discovery: without a region every list with its regions, with one
//     the list that applies there. An unknown category is 404; a category
//     without preferences an empty list.
//   - /v1/health is "ok" whenever a catalog is serving; last_reload shows
//     the initial load until a reload is reported, and "keys" is added when
//     Config.KeyStatus is set.
package server
