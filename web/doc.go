// Package web serves unitd's pages for people: the converter (/), the
// catalog browser (/catalog, /catalog/:category, /catalog/units/:unit,
// /catalog/substances), the
// API reference (/docs) and the static files they use (/static/…), all
// rendered from the catalog the server is running at the moment of the
// request, so a hot reload shows on the next page load.
//
// Pages are html/template files, one per page, sharing one layout; the
// templates, style sheet, scripts and the vendored API reference renderer
// (Swagger UI, under static/vendor/) are embedded in the binary, so nothing is
// fetched from the network at run time.
//
// Every answer carries a strict Content-Security-Policy (no inline scripts
// or styles, no eval), X-Content-Type-Options: nosniff and a
// Referrer-Policy. Pages and static files carry an ETag computed from their
// bytes and answer If-None-Match with 304. Static URLs written by the
// templates carry the file's hash (?v=…), and such requests may be cached for
// a year; others revalidate.
//
// What pages need of a catalog (category rows, systems, each unit's row)
// is computed once per catalog, and rendered
// answers are kept in a cache per catalog (bounded in bytes and entries),
// so a page is rendered once and then served from memory. An answer
// rendered afresh is charged to the client's public budget by its cost
// (Config.Charge); catalog searches show 50 units to a page.
//
// The converter finds units through GET /web/units?q=… (symbols, names,
// aliases and the reader's names, ranked by engine.Graph.SearchUnits as
// GET /v1/units?q= and the catalog page rank them), and substances, when two units
// convert only through one, through GET /web/substances?q=… (IDs, names,
// aliases, CAS numbers and formulas, ranked by engine.SubstanceIndex as
// GET /v1/substances?q= and /catalog/substances rank them); it converts
// through the server's keyless same-origin route POST /web/convert, which
// runs the very code of POST /v1/convert. No page ever holds an API key.
//
// The package knows nothing of HTTP routing beyond its own paths: the
// server mounts [Routes] on its router and hands each request to [Pages].
package web
