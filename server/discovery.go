package server

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/unitd/unitd/engine"
	dims "github.com/unitd/unitd/engine/dimension"
	"github.com/unitd/unitd/locale"
)

// snapshot is everything a request needs from one catalog: the graph and
// the discovery documents rendered from it. It is immutable once built.
type snapshot struct {
	graph    *engine.Graph
	loadedAt time.Time
	// tag identifies the rendering (server and catalog version); ETags
	// derive from it.
	tag string
	// docs returns the discovery documents, rendered on their first use:
	// a snapshot is published (and the server listens) before they are,
	// and ApplyGraph renders them in the background at once, so that the
	// first request that reads one rarely waits for it.
	docs func() *documents
}

// documents are the discovery documents of a snapshot, rendered once.
type documents struct {
	categories    cached
	category      map[string]cached    // by category id
	units         []unitEntry          // in graph order
	unitAt        map[*engine.Unit]int // index into units
	unit          map[*engine.Unit]cached
	allUnits      cached
	openapi       cached
	unitsByCatIdx map[string][]int // category id → indexes into units
	// The substance catalog (substance.go).
	substances    []substanceEntry          // in graph order
	substanceAt   map[*engine.Substance]int // index into substances
	substance     map[string]cached         // by substance id
	allSubstances cached
}

// cached is a pre-rendered body and its ETag.
type cached struct {
	body []byte
	etag string
}

type unitEntry struct {
	u      *engine.Unit
	record []byte // the unit record, JSON
}

func (s *Server) newSnapshot(g *engine.Graph, now time.Time) *snapshot {
	sn := &snapshot{
		graph:    g,
		loadedAt: now.UTC(),
		tag:      s.cfg.Version + "\x00" + g.Version(),
	}
	sn.docs = sync.OnceValue(func() *documents { return s.renderDocuments(sn) })
	return sn
}

// renderDocuments renders the discovery documents of sn.
func (s *Server) renderDocuments(sn *snapshot) *documents {
	g := sn.graph
	d := &documents{
		category:      map[string]cached{},
		unit:          map[*engine.Unit]cached{},
		unitAt:        map[*engine.Unit]int{},
		unitsByCatIdx: map[string][]int{},
	}
	cats := make([]categoryRecord, 0, len(g.Categories()))
	for _, c := range g.Categories() {
		cats = append(cats, newCategoryRecord(c))
	}
	d.categories = sn.render("/v1/categories", listBody[categoryRecord]{Data: cats, Meta: meta{Total: len(cats)}})

	for i, u := range g.Units() {
		rec := mustJSON(newUnitRecord(u))
		d.units = append(d.units, unitEntry{u: u, record: rec})
		d.unitAt[u] = i
		d.unitsByCatIdx[u.Category.ID] = append(d.unitsByCatIdx[u.Category.ID], i)
		d.unit[u] = sn.renderRaw("/v1/units/"+u.Symbol, wrapData(rec))
	}
	all := make([]int, len(d.units))
	for i := range all {
		all[i] = i
	}
	d.allUnits = sn.renderRaw("/v1/units", d.unitList(all))

	for _, c := range g.Categories() {
		detail := append([]byte(nil), mustJSON(newCategoryRecord(c))...)
		detail = detail[:len(detail)-1] // drop '}'
		detail = append(detail, `,"units":[`...)
		for k, i := range d.unitsByCatIdx[c.ID] {
			if k > 0 {
				detail = append(detail, ',')
			}
			detail = append(detail, d.units[i].record...)
		}
		detail = append(detail, "]}"...)
		d.category[c.ID] = sn.renderRaw("/v1/categories/"+c.ID, wrapData(detail))
	}
	d.renderSubstances(sn)
	d.openapi = sn.renderRaw("/openapi.json", s.openAPIDocument(g))
	return d
}

// etag is a strong ETag for the document at key in this snapshot.
func (sn *snapshot) etag(key string) string {
	h := sha256.Sum256([]byte(sn.tag + "\x00" + key))
	return `"` + hex.EncodeToString(h[:16]) + `"`
}

func (sn *snapshot) render(key string, v any) cached {
	return sn.renderRaw(key, append(mustJSON(v), '\n'))
}

func (sn *snapshot) renderRaw(key string, body []byte) cached {
	return cached{body: body, etag: sn.etag(key)}
}

func wrapData(rec []byte) []byte {
	b := make([]byte, 0, len(rec)+11)
	b = append(b, `{"data":`...)
	b = append(b, rec...)
	return append(b, "}\n"...)
}

// unitList renders {"data":[records…],"meta":{"total":n}}.
func (d *documents) unitList(idx []int) []byte {
	n := 32
	for _, i := range idx {
		n += len(d.units[i].record) + 1
	}
	b := make([]byte, 0, n)
	b = append(b, `{"data":[`...)
	for k, i := range idx {
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, d.units[i].record...)
	}
	b = append(b, `],"meta":{"total":`...)
	b = appendInt(b, len(idx))
	return append(b, "}}\n"...)
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("server: rendering discovery JSON: " + err.Error())
	}
	return b
}

type meta struct {
	Total int `json:"total"`
}

type listBody[T any] struct {
	Data []T  `json:"data"`
	Meta meta `json:"meta"`
}

type categoryRecord struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	BaseUnit    string `json:"base_unit"`
	Dimension   string `json:"dimension"`
	UnitCount   int    `json:"unit_count"`
	Minimum     string `json:"minimum,omitempty"`
}

func newCategoryRecord(c *engine.Category) categoryRecord {
	return categoryRecord{
		ID: c.ID, Name: c.Name, Description: c.Description, BaseUnit: c.Base.Symbol,
		Dimension: c.DimensionText(), UnitCount: len(c.Units), Minimum: c.Minimum,
	}
}

type unitRecord struct {
	Symbol       string         `json:"symbol"`
	Name         string         `json:"name"`
	Plural       string         `json:"plural"`
	Aliases      []string       `json:"aliases"`
	Category     string         `json:"category"`
	Dimension    string         `json:"dimension"`
	System       string         `json:"system"`
	Definition   definitionJSON `json:"definition"`
	Exact        bool           `json:"exact"`
	Source       string         `json:"source"`
	Description  string         `json:"description,omitempty"`
	PrefixedFrom string         `json:"prefixed_from,omitempty"`
	// Account marks a unit of the key's account.
	Account  bool          `json:"account,omitempty"`
	Examples []exampleJSON `json:"examples,omitempty"`
	// Codes are the unit's codes in the standard code systems; systems
	// that lack the unit are left out.
	Codes *codesJSON `json:"codes,omitempty"`
}

// codesJSON lists a unit's codes in the order of the contract.
type codesJSON struct {
	UCUM  string `json:"ucum,omitempty"`
	CLDR  string `json:"cldr,omitempty"`
	UNECE string `json:"unece,omitempty"`
	QUDT  string `json:"qudt,omitempty"`
}

func newCodes(u *engine.Unit) *codesJSON {
	c := codesJSON{UCUM: u.CodeOf(engine.SystemUCUM), CLDR: u.CodeOf(engine.SystemCLDR), UNECE: u.CodeOf(engine.SystemUNECE), QUDT: u.CodeOf(engine.SystemQUDT)}
	if c == (codesJSON{}) {
		return nil
	}
	return &c
}

type definitionJSON struct {
	Kind   string `json:"kind"`
	Factor string `json:"factor,omitempty"`
	Offset string `json:"offset,omitempty"`
	Unit   string `json:"unit,omitempty"`
	To     string `json:"to,omitempty"`
	From   string `json:"from,omitempty"`
}

type exampleJSON struct {
	Value  string `json:"value"`
	From   string `json:"from"`
	To     string `json:"to"`
	Result string `json:"result"`
	Approx bool   `json:"approx"`
}

// newUnitRecord renders a unit. aliases lists every other spelling the
// API accepts: the case-sensitive symbols (°C) first, then the word
// aliases; name and plural have their own fields. The base unit of a
// category is shown as linear with factor 1 onto itself.
func newUnitRecord(u *engine.Unit) unitRecord {
	doc := u.Doc()
	r := unitRecord{
		Account: u.Account(),
		Symbol:  u.Symbol, Name: u.Name, Plural: u.Plural, Category: u.Category.ID, Dimension: u.Category.DimensionText(),
		System: u.System, Exact: u.Exact, Source: doc.Source, Description: doc.Description,
		Aliases: []string{},
	}
	seen := map[string]bool{u.Symbol: true, u.Name: true, u.Plural: true}
	for _, a := range append(append([]string(nil), u.Symbols...), u.Aliases...) {
		if !seen[a] {
			seen[a] = true
			r.Aliases = append(r.Aliases, a)
		}
	}
	d := doc.Definition
	switch d.Kind {
	case "base", "":
		r.Definition = definitionJSON{Kind: "linear", Factor: "1", Unit: u.Symbol}
	case "linear":
		r.Definition = definitionJSON{Kind: "linear", Factor: d.Factor, Unit: d.Unit}
	case "affine":
		r.Definition = definitionJSON{Kind: "affine", Factor: d.Factor, Offset: d.Offset, Unit: d.Unit}
		if r.Definition.Factor == "" {
			r.Definition.Factor = "1"
		}
	default:
		r.Definition = definitionJSON{Kind: d.Kind, Unit: d.Unit, To: d.To, From: d.From, Factor: d.Factor, Offset: d.Offset}
	}
	if u.Prefixed != nil {
		r.PrefixedFrom = u.Prefixed.Symbol
	}
	r.Codes = newCodes(u)
	for _, e := range doc.Examples {
		r.Examples = append(r.Examples, exampleJSON(e))
	}
	return r
}

// noQuery refuses query parameters on routes that take none.
func noQuery(c *call) *apiError {
	if c.r.URL.RawQuery != "" {
		return invalidRequest("this endpoint takes no query parameters")
	}
	return nil
}

func (s *Server) categories(c *call) reply {
	if e := noQuery(c); e != nil {
		return errReply(e)
	}
	return okCached(c.snap.docs().categories)
}

func (s *Server) category(c *call) reply {
	lc, e := discoveryLocale(c)
	if e != nil {
		return errReply(e)
	}
	id, _ := param(c.r, "category")
	doc, ok := c.snap.docs().category[id]
	if !ok {
		return errReply(newError(codeNotFound, "unknown category "+strconv.Quote(truncate(id, 64))+"; GET /v1/categories lists them"))
	}
	if lc != nil {
		cat, _ := c.snap.graph.Category(id)
		detail := append([]byte(nil), mustJSON(newCategoryRecord(cat))...)
		detail = detail[:len(detail)-1]
		detail = append(detail, `,"units":[`...)
		for k, i := range c.snap.docs().unitsByCatIdx[id] {
			if k > 0 {
				detail = append(detail, ',')
			}
			detail = appendLocalized(detail, c.snap.docs().units[i], lc)
		}
		detail = append(detail, "]}"...)
		return reply{status: http.StatusOK, body: wrapData(detail), etag: c.snap.etag("/v1/categories/" + id + "?locale=" + lc.Tag)}
	}
	return okCached(doc)
}

// unit serves GET /v1/units/:unit. A panic while looking the name up (a
// bug) is an INTERNAL_ERROR, logged and counted (isolate.go).
func (s *Server) unit(c *call) (rep reply) {
	defer func() {
		if v := recover(); v != nil {
			rep = errReply(s.recovered(v, c.w.reqID, c.w.route, -1))
		}
	}()
	lc, e := discoveryLocale(c)
	if e != nil {
		return errReply(e)
	}
	name, ok := param(c.r, "unit")
	if !ok {
		return errReply(invalidRequest("the unit in the path is not valid percent-encoding"))
	}
	s.seam(name)
	g := c.snap.graph
	mine, e := s.discoveryAccount(c)
	if e != nil {
		return errReply(e)
	}
	if mine != nil {
		g = mine
	}
	u, x, err := g.Resolve(name)
	if err != nil {
		e := fromEngine(err)
		if e.Code == string(engine.CodeUnknownUnit) {
			e.Code = codeNotFound
		}
		return errReply(e)
	}
	if u != nil && u.Account() {
		// An account's unit: for its key only, never cached with the
		// catalog's ETag.
		return accountReply(wrapData(mustJSON(newUnitRecord(u))))
	}
	if x != nil && mine != nil {
		return accountReply(wrapData(mustJSON(newExpressionRecord(x))))
	}
	if x != nil {
		return reply{
			status: http.StatusOK,
			body:   wrapData(mustJSON(newExpressionRecord(x))),
			etag:   c.snap.etag("/v1/units/" + x.Symbol),
		}
	}
	if lc != nil {
		for i := range c.snap.docs().units {
			if c.snap.docs().units[i].u == u {
				return reply{status: http.StatusOK, body: wrapData(appendLocalized(nil, c.snap.docs().units[i], lc)), etag: c.snap.etag("/v1/units/" + u.Symbol + "?locale=" + lc.Tag)}
			}
		}
	}
	if doc, ok := c.snap.docs().unit[u]; ok {
		return okCached(doc)
	}
	// A unit made for a code (a UCUM special unit under a prefix, or one
	// no catalog unit claims) is described as it is made.
	return reply{status: http.StatusOK, body: wrapData(mustJSON(newUnitRecord(u))), etag: c.snap.etag("/v1/units/" + u.Symbol)}
}

// discoveryLocale reads the one query parameter of a discovery record,
// locale; nil when it is not given.
func discoveryLocale(c *call) (*locale.Locale, *apiError) {
	if c.r.URL.RawQuery == "" {
		return nil, nil
	}
	qs, err := parseQuery(c.r.URL.RawQuery, "locale")
	if err != nil {
		return nil, err
	}
	tag, _ := qs.get(0)
	l, e := matchLocale(tag)
	if l != nil {
		l = l.In(c.snap.graph)
	}
	return l, e
}

// matchLocale reads a locale query parameter.
func matchLocale(tag string) (*locale.Locale, *apiError) {
	l, err := locale.Match(tag)
	if err != nil {
		return nil, invalidRequest("locale " + strconv.Quote(truncate(tag, 40)) + " is not a BCP 47 language tag (such as de, fr-CA, ar-EG)")
	}
	return l, nil
}

// appendLocalized appends a unit record with its display_name in lc
// (long, short and narrow, CLDR's), when CLDR names the unit.
func appendLocalized(b []byte, e unitEntry, lc *locale.Locale) []byte {
	long, ok1 := lc.DisplayName(e.u.Symbol, locale.Long)
	short, ok2 := lc.DisplayName(e.u.Symbol, locale.Short)
	narrow, ok3 := lc.DisplayName(e.u.Symbol, locale.Narrow)
	if !ok1 || !ok2 || !ok3 {
		return append(b, e.record...)
	}
	b = append(b, e.record[:len(e.record)-1]...)
	b = append(b, `,"display_name":{"long":`...)
	b = appendString(b, long)
	b = append(b, `,"short":`...)
	b = appendString(b, short)
	b = append(b, `,"narrow":`...)
	b = appendString(b, narrow)
	return append(b, "}}"...)
}

// expressionRecord describes a unit expression: its canonical symbol, its
// category (or dimension), and the exact factor to the coherent SI unit.
type expressionRecord struct {
	Symbol     string               `json:"symbol"`
	Category   string               `json:"category"`
	Dimension  string               `json:"dimension"`
	Definition expressionDefinition `json:"definition"`
	Exact      bool                 `json:"exact"`
	Terms      []termJSON           `json:"terms"`
}

type expressionDefinition struct {
	Kind        string `json:"kind"`
	Factor      string `json:"factor"`
	FactorExact bool   `json:"factor_exact"`
	Unit        string `json:"unit"`
}

type termJSON struct {
	Unit     string `json:"unit"`
	Exponent int    `json:"exponent"`
}

func newExpressionRecord(x *engine.Expression) expressionRecord {
	f, exact := x.Factor()
	r := expressionRecord{
		Symbol: x.Symbol, Category: x.CategoryID(), Dimension: x.DimensionText(),
		Definition: expressionDefinition{Kind: "expression", Factor: f, FactorExact: exact, Unit: x.CoherentUnit()},
		Exact:      true, Terms: []termJSON{},
	}
	for _, t := range x.Terms {
		if t.Unit == nil {
			continue
		}
		r.Exact = r.Exact && t.Unit.Exact
		r.Terms = append(r.Terms, termJSON{Unit: t.Unit.Symbol, Exponent: t.Exponent})
	}
	return r
}

// units serves GET /v1/units[?category=id][&q=text]. An unknown category
// is 404; q matches symbols, names, plurals and aliases (and the
// locale's names, with locale) by case-insensitive substring, ranked as
// engine.Graph.SearchUnits ranks them.
func (s *Server) units(c *call) reply {
	raw := c.r.URL.RawQuery
	mine, e := s.discoveryAccount(c)
	if e != nil {
		return errReply(e)
	}
	if raw == "" && mine == nil {
		return okCached(c.snap.docs().allUnits)
	}
	qs, err := parseQuery(raw, unitsParams...)
	if err != nil {
		return errReply(err)
	}
	category, _ := qs.get(0)
	q, _ := qs.get(1)
	dimension, seenDim := qs.get(2)
	var lc *locale.Locale
	if tag, ok := qs.get(3); ok {
		var e *apiError
		if lc, e = matchLocale(tag); e != nil {
			return errReply(e)
		}
		lc = lc.In(c.snap.graph)
	}
	if seenDim {
		d, err := dims.Parse(dimension)
		if err != nil {
			return errReply(invalidRequest("dimension: " + err.Error()))
		}
		dimension = d.String()
	}
	var idx []int
	if category != "" {
		list, ok := c.snap.docs().unitsByCatIdx[category]
		if !ok {
			return errReply(newError(codeNotFound, "unknown category "+strconv.Quote(truncate(category, 64))+"; GET /v1/categories lists them"))
		}
		idx = list
	} else {
		idx = make([]int, len(c.snap.docs().units))
		for i := range idx {
			idx[i] = i
		}
	}
	if seenDim {
		var kept []int
		for _, i := range idx {
			if c.snap.docs().units[i].u.Category.DimensionText() == dimension {
				kept = append(kept, i)
			}
		}
		idx = kept
	}
	if q != "" {
		idx = c.snap.searchUnits(idx, q, lc)
	}
	if mine != nil {
		return accountReply(c.snap.unitListWith(idx, accountUnitsMatching(mine, category, dimension, q)))
	}
	key := "/v1/units?category=" + category + "&q=" + q + "&dimension=" + dimension
	if lc != nil {
		b := []byte(`{"data":[`)
		for k, i := range idx {
			if k > 0 {
				b = append(b, ',')
			}
			b = appendLocalized(b, c.snap.docs().units[i], lc)
		}
		b = append(b, `],"meta":{"total":`...)
		b = appendInt(b, len(idx))
		b = append(b, "}}\n"...)
		return reply{status: http.StatusOK, body: b, etag: c.snap.etag(key + "&locale=" + lc.Tag)}
	}
	return reply{
		status: http.StatusOK,
		body:   c.snap.docs().unitList(idx),
		etag:   c.snap.etag(key),
	}
}

// searchUnits returns the units among idx that q names, best first
// (engine.Graph.SearchUnits), with the names of lc when it is not nil.
func (sn *snapshot) searchUnits(idx []int, q string, lc *locale.Locale) []int {
	d := sn.docs()
	in := make([]bool, len(d.units))
	for _, i := range idx {
		in[i] = true
	}
	var words engine.UnitWords
	if lc != nil {
		words = lc
	}
	var kept []int
	for _, m := range sn.graph.SearchUnits(q, words) {
		if i, ok := d.unitAt[m.Unit]; ok && in[i] {
			kept = append(kept, i)
		}
	}
	return kept
}

func okCached(d cached) reply { return reply{status: http.StatusOK, body: d.body, etag: d.etag} }
