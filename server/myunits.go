package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/unitd/unitd/account"
	"github.com/unitd/unitd/apikey"
	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/internal/jsonscan"
)

// Units of your own
//
// An account defines units in the catalog's schema (package
// accountunits checks, stores and compiles them); a request with a key
// converts with its account's graph, which has them ("my:smoot", and
// "smoot" where the catalog has no such name). The routes under
// /v1/account/units read them with any key of the account and change
// them with a key that has the units:write scope. A request may also
// define units for itself ("define"), never stored.

// AccountUnits is what the server needs of the units of accounts
// (accountunits.Service).
type AccountUnits interface {
	// Graph returns the graph the account's requests convert with: base
	// with the account's units, or base itself.
	Graph(ctx context.Context, accountID string, base *engine.Graph) (*engine.Graph, error)
	// Units lists the account's units; Unit returns one, or
	// account.ErrNotFound; History lists the changes of one ("" for all),
	// newest first.
	Units(ctx context.Context, accountID string) ([]account.UnitDoc, error)
	Unit(ctx context.Context, accountID, symbol string) (account.UnitDoc, error)
	History(ctx context.Context, accountID, symbol string, limit int) ([]account.UnitChange, error)
	// Put checks and stores a unit (document in format "json" or
	// "yaml") and reports whether it is new; Delete deletes one. A
	// refused change is an error with a Problems() []error method.
	Put(ctx context.Context, base *engine.Graph, accountID, symbol string, document []byte, format string, actor account.Actor) (account.UnitDoc, bool, error)
	Delete(ctx context.Context, base *engine.Graph, accountID, symbol string, actor account.Actor) error
}

// Define compiles the units one request defines over a graph; it is
// accountunits.Define, which the server is given so that it needs no
// YAML.
type Define func(g *engine.Graph, defs []string) (*engine.Graph, error)

const challengeScope = `Bearer error="insufficient_scope"`

// maxDefineParam bounds the define query parameter, in bytes.
const maxDefineParam = 4 << 10

// readDefine reads "define": an array of definitions, each a one-line
// string ("smoot = 1.7018 m") or an object in the catalog's schema, kept
// as its JSON text. It returns a message when the value is of another
// shape.
func readDefine(s *jsonscan.Scanner, depth int) ([]string, string, error) {
	const shape = `"define" must be an array of definitions, each a string such as "smoot = 1.7018 m" or an object in the catalog's schema`
	if s.Peek() != '[' {
		return nil, shape, s.Skip(depth)
	}
	if err := s.OpenArray(depth); err != nil {
		return nil, "", err
	}
	var defs []string
	msg := ""
	for first := true; ; first = false {
		done, err := s.NextElement(first)
		if err != nil || done {
			return defs, msg, err
		}
		switch s.Peek() {
		case '"':
			v, err := s.ReadString()
			if err != nil {
				return nil, "", err
			}
			defs = append(defs, strings.Clone(v))
		case '{':
			raw, err := s.SkipRaw(depth + 1)
			if err != nil {
				return nil, "", err
			}
			defs = append(defs, string(raw))
		default:
			if msg == "" {
				msg = shape
			}
			if err := s.Skip(depth + 1); err != nil {
				return nil, "", err
			}
		}
	}
}

// splitDefine reads the define query parameter: one-line definitions
// separated by ";" or new lines.
func splitDefine(v string) ([]string, *apiError) {
	if len(v) > maxDefineParam {
		return nil, invalidRequest("query parameter \"define\" is longer than " + strconv.Itoa(maxDefineParam) + " bytes")
	}
	var defs []string
	for d := range strings.FieldsFuncSeq(v, func(r rune) bool { return r == ';' || r == '\n' }) {
		if d = strings.TrimSpace(d); d != "" {
			defs = append(defs, d)
		}
	}
	if len(defs) == 0 {
		return nil, invalidRequest(`query parameter "define" holds no definition; write "smoot = 1.7018 m", several separated by ";"`)
	}
	return defs, nil
}

// graph is the graph of a request: its account's (c.key), with the units
// the request defines. Without a key (discovery) it is the catalog's.
func (s *Server) requestGraph(c *call, define []string) (*engine.Graph, *apiError) {
	g := c.snap.graph
	if s.cfg.Units != nil && c.key.AccountID != "" {
		ag, err := s.cfg.Units.Graph(c.r.Context(), c.key.AccountID, g)
		if err != nil {
			return nil, internalError(err)
		}
		g = ag
	}
	if define == nil {
		return g, nil
	}
	if s.cfg.Define == nil {
		return nil, invalidRequest(`"define" is not available on this server`)
	}
	dg, err := s.cfg.Define(g, define)
	if err != nil {
		return nil, problemsError("the definitions of this request are refused", err)
	}
	return dg, nil
}

// problemsError is INVALID_REQUEST for definitions the catalog's loader
// or rules refuse, each problem in details with its position; any other
// error is internal.
func problemsError(msg string, err error) *apiError {
	var p interface{ Problems() []error }
	if !errors.As(err, &p) {
		if errors.Is(err, account.ErrInvalid) {
			return invalidRequest(err.Error())
		}
		return internalError(err)
	}
	errs := p.Problems()
	list := make([]map[string]any, 0, len(errs))
	for _, e := range errs {
		item := map[string]any{"message": e.Error()}
		var se *engine.SpecError
		if errors.As(e, &se) {
			item["message"] = se.Message
			if se.Subject != "" {
				item["subject"] = se.Subject
			}
			if se.Origin.Line > 0 {
				item["line"], item["column"] = se.Origin.Line, se.Origin.Column
			}
			if se.Origin.File != "" {
				item["source"] = se.Origin.File
			}
		}
		list = append(list, item)
	}
	if len(errs) > 0 {
		msg += ": " + truncate(errs[0].Error(), 300)
		if len(errs) > 1 {
			msg += " (and " + strconv.Itoa(len(errs)-1) + " more in details.problems)"
		}
	}
	e := invalidRequest(msg)
	e.Details = map[string]any{"problems": list}
	return e
}

// accountUnitJSON is an account's unit as the API shows it: the document
// as stored, and the unit as compiled when it is served.
type accountUnitJSON struct {
	Symbol    string           `json:"symbol"`
	Name      string           `json:"name"` // "my:" + symbol: the name that always reaches it
	Format    string           `json:"format"`
	Document  string           `json:"document"`
	Revision  int64            `json:"revision"`
	CreatedAt time.Time        `json:"created_at"`
	UpdatedAt time.Time        `json:"updated_at"`
	Unit      *unitRecord      `json:"unit,omitempty"`
	History   []unitChangeJSON `json:"history,omitempty"`
}

type unitChangeJSON struct {
	Revision int64     `json:"revision"`
	Action   string    `json:"action"`
	Actor    string    `json:"actor"`
	At       time.Time `json:"at"`
	Document string    `json:"document,omitempty"`
}

func newAccountUnitJSON(d account.UnitDoc, g *engine.Graph) accountUnitJSON {
	j := accountUnitJSON{Symbol: d.Symbol, Name: engine.AccountPrefix + d.Symbol, Format: d.Format, Document: d.Document,
		Revision: d.Revision, CreatedAt: d.CreatedAt.UTC(), UpdatedAt: d.UpdatedAt.UTC()}
	if g != nil {
		if u, err := g.Lookup(engine.AccountPrefix + d.Symbol); err == nil && u.Account() {
			r := newUnitRecord(u)
			j.Unit = &r
		}
	}
	return j
}

// unitsRoutes checks what every route of /v1/account/units needs: a
// server with the account store, and, to change units, the scope.
func (s *Server) unitsAllowed(c *call, write bool) *apiError {
	if s.cfg.Units == nil || c.key.AccountID == "" {
		return newError(codeNotFound, "this server keeps no account units: they need the store (unitd serve --store)")
	}
	if write && !c.key.Allows(apikey.ScopeUnitsWrite) {
		c.w.Header()["Www-Authenticate"] = []string{challengeScope}
		return newError(codeInsufficientScope, "this key may not change the account's units: it needs the scope "+apikey.ScopeUnitsWrite+" (unitd keys create --scope "+apikey.ScopeUnitsWrite+", or the account page)")
	}
	return nil
}

// accountUnits serves GET /v1/account/units.
func (s *Server) accountUnits(c *call) reply {
	if e := s.unitsAllowed(c, false); e != nil {
		return errReply(e)
	}
	if e := noQuery(c); e != nil {
		return errReply(e)
	}
	docs, err := s.cfg.Units.Units(c.r.Context(), c.key.AccountID)
	if err != nil {
		return errReply(internalError(err))
	}
	g, e := s.requestGraph(c, nil)
	if e != nil {
		return errReply(e)
	}
	out := make([]accountUnitJSON, 0, len(docs))
	for _, d := range docs {
		out = append(out, newAccountUnitJSON(d, g))
	}
	return reply{status: http.StatusOK, body: append(mustJSON(struct {
		Data []accountUnitJSON `json:"data"`
		Meta struct {
			Total int `json:"total"`
		} `json:"meta"`
	}{Data: out, Meta: struct {
		Total int `json:"total"`
	}{len(out)}}), '\n')}
}

// unitSymbolParam reads the symbol in the path.
func unitSymbolParam(c *call) (string, *apiError) {
	sym, ok := param(c.r, "symbol")
	if !ok {
		return "", invalidRequest("the symbol in the path is not valid percent-encoding")
	}
	return strings.TrimPrefix(sym, engine.AccountPrefix), nil
}

// accountUnit serves GET /v1/account/units/:symbol: the unit and its
// history.
func (s *Server) accountUnit(c *call) reply {
	if e := s.unitsAllowed(c, false); e != nil {
		return errReply(e)
	}
	if e := noQuery(c); e != nil {
		return errReply(e)
	}
	sym, e := unitSymbolParam(c)
	if e != nil {
		return errReply(e)
	}
	d, err := s.cfg.Units.Unit(c.r.Context(), c.key.AccountID, sym)
	if errors.Is(err, account.ErrNotFound) {
		return errReply(newError(codeNotFound, "your account has no unit "+strconv.Quote(truncate(sym, 64))+"; GET /v1/account/units lists them"))
	}
	if err != nil {
		return errReply(internalError(err))
	}
	g, e := s.requestGraph(c, nil)
	if e != nil {
		return errReply(e)
	}
	j := newAccountUnitJSON(d, g)
	hist, err := s.cfg.Units.History(c.r.Context(), c.key.AccountID, sym, 50)
	if err != nil {
		return errReply(internalError(err))
	}
	for _, h := range hist {
		j.History = append(j.History, unitChangeJSON{Revision: h.Revision, Action: h.Action, Actor: h.Actor, At: h.At.UTC(), Document: h.Document})
	}
	return reply{status: http.StatusOK, body: wrapData(mustJSON(j))}
}

// putAccountUnit serves PUT /v1/account/units/:symbol: the body is the
// unit's document, JSON (application/json) or YAML (application/yaml).
// 201 for a new unit, 200 for a change.
func (s *Server) putAccountUnit(c *call) reply {
	if e := s.unitsAllowed(c, true); e != nil {
		return errReply(e)
	}
	if e := noQuery(c); e != nil {
		return errReply(e)
	}
	sym, e := unitSymbolParam(c)
	if e != nil {
		return errReply(e)
	}
	format := ""
	if ct := c.r.Header["Content-Type"]; len(ct) == 1 {
		if mt, _, err := mime.ParseMediaType(ct[0]); err == nil {
			switch mt {
			case "application/json":
				format = "json"
			case "application/yaml", "application/x-yaml", "text/yaml":
				format = "yaml"
			}
		}
	}
	if format == "" {
		return errReply(newError(codeUnsupportedMediaType, `send the unit's document as "Content-Type: application/json" or "Content-Type: application/yaml"`))
	}
	limit := s.cfg.MaxBody
	if c.r.ContentLength > limit {
		return errReply(payloadTooLarge(limit))
	}
	body, err := io.ReadAll(http.MaxBytesReader(c.w.ResponseWriter, c.r.Body, limit))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return errReply(payloadTooLarge(limit))
		}
		return errReply(invalidRequest("the request body could not be read"))
	}
	if format == "json" {
		// The document must be one JSON object (YAML would read more).
		var sc jsonscan.Scanner
		sc.Reset(body)
		if sc.Peek() != '{' {
			return errReply(invalidRequest("the body must be a JSON object: the unit's document in the catalog's schema"))
		}
		if err := sc.Skip(0); err != nil {
			return errReply(malformed(err))
		}
		if err := sc.End(); err != nil {
			return errReply(malformed(err))
		}
	}
	actor := account.Actor{Name: "key " + c.key.ID, Addr: clientAddr(c.r), KeyID: c.key.ID}
	d, created, err := s.cfg.Units.Put(c.r.Context(), c.snap.graph, c.key.AccountID, sym, body, format, actor)
	if err != nil {
		return errReply(problemsError("the unit "+strconv.Quote(truncate(sym, 64))+" is refused", err))
	}
	g, e := s.requestGraph(c, nil)
	if e != nil {
		return errReply(e)
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	return reply{status: status, body: wrapData(mustJSON(newAccountUnitJSON(d, g)))}
}

// deleteAccountUnit serves DELETE /v1/account/units/:symbol.
func (s *Server) deleteAccountUnit(c *call) reply {
	if e := s.unitsAllowed(c, true); e != nil {
		return errReply(e)
	}
	if e := noQuery(c); e != nil {
		return errReply(e)
	}
	sym, e := unitSymbolParam(c)
	if e != nil {
		return errReply(e)
	}
	actor := account.Actor{Name: "key " + c.key.ID, Addr: clientAddr(c.r), KeyID: c.key.ID}
	err := s.cfg.Units.Delete(c.r.Context(), c.snap.graph, c.key.AccountID, sym, actor)
	if errors.Is(err, account.ErrNotFound) {
		return errReply(newError(codeNotFound, "your account has no unit "+strconv.Quote(truncate(sym, 64))))
	}
	if err != nil {
		return errReply(problemsError("the unit "+strconv.Quote(truncate(sym, 64))+" cannot be deleted", err))
	}
	return reply{status: http.StatusOK, body: wrapData(mustJSON(struct {
		Symbol  string `json:"symbol"`
		Deleted bool   `json:"deleted"`
	}{sym, true}))}
}

// discoveryAccount is the graph of the account of a discovery request
// that sends a key, when the account has units: discovery is public, and
// with a key it lists the account's units too. A key that is sent must be
// valid. nil without a key, or for an account without units.
func (s *Server) discoveryAccount(c *call) (*engine.Graph, *apiError) {
	if s.cfg.Units == nil || c.r.Header["Authorization"] == nil {
		return nil, nil
	}
	rec, e := s.authorize(c.w, c.r)
	if e != nil {
		return nil, e
	}
	c.key = rec
	g, e := s.requestGraph(c, nil)
	if e != nil || g == c.snap.graph || len(g.AccountUnits()) == 0 {
		return nil, e
	}
	return g, nil
}

// accountUnitsMatching lists the account units of g that the filters of
// GET /v1/units keep.
func accountUnitsMatching(g *engine.Graph, category, dimension, q string) []*engine.Unit {
	lq := strings.ToLower(q)
	var out []*engine.Unit
	for _, u := range g.AccountUnits() {
		if category != "" && u.Category.ID != category {
			continue
		}
		if dimension != "" && u.Category.DimensionText() != dimension {
			continue
		}
		terms := append([]string{u.Symbol, strings.TrimPrefix(u.Symbol, engine.AccountPrefix), u.Name, u.Plural}, append(u.Symbols, u.Aliases...)...)
		if q != "" && !slices.ContainsFunc(terms, func(t string) bool { return strings.Contains(strings.ToLower(t), lq) }) {
			continue
		}
		out = append(out, u)
	}
	return out
}

// unitListWith renders the catalog units idx, then the account's units
// mine, each marked "account": true.
func (sn *snapshot) unitListWith(idx []int, mine []*engine.Unit) []byte {
	units := sn.docs().units
	b := []byte(`{"data":[`)
	for k, i := range idx {
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, units[i].record...)
	}
	for k, u := range mine {
		if k > 0 || len(idx) > 0 {
			b = append(b, ',')
		}
		b = append(b, mustJSON(newUnitRecord(u))...)
	}
	b = append(b, `],"meta":{"total":`...)
	b = appendInt(b, len(idx)+len(mine))
	return append(b, "}}\n"...)
}

// accountReply is a discovery answer that holds an account's units: its
// ETag is the hash of the body, never the catalog's, so that no cache
// answers one account's request with another's.
func accountReply(body []byte) reply {
	h := sha256.Sum256(body)
	return reply{status: http.StatusOK, body: body, etag: `"a-` + hex.EncodeToString(h[:12]) + `"`}
}

// Catalog returns the catalog's graph being served now (nil before
// ApplyGraph), for the account page's Units tab.
func (s *Server) Catalog() *engine.Graph { return s.graph() }
