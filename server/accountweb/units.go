package accountweb

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/unitd/unitd/account"
	"github.com/unitd/unitd/engine"
)

// The Units tab: the units the account defines for itself (units of your
// own). A user lists them, adds or changes one (a document in the
// catalog's schema, checked as it is typed, with a preview conversion),
// deletes one and reads each one's history. The store and the rules are
// those of the API (package accountunits).

// Units is what the Units tab needs of the units of accounts
// (accountunits.Service).
type Units interface {
	Units(ctx context.Context, accountID string) ([]account.UnitDoc, error)
	Unit(ctx context.Context, accountID, symbol string) (account.UnitDoc, error)
	History(ctx context.Context, accountID, symbol string, limit int) ([]account.UnitChange, error)
	Put(ctx context.Context, base *engine.Graph, accountID, symbol string, document []byte, format string, actor account.Actor) (account.UnitDoc, bool, error)
	Delete(ctx context.Context, base *engine.Graph, accountID, symbol string, actor account.Actor) error
	// Graph returns the graph the account's requests convert with.
	Graph(ctx context.Context, accountID string, base *engine.Graph) (*engine.Graph, error)
	// Try checks a document as Put would, storing nothing, and returns
	// the account's graph with it and the unit's symbol.
	Try(ctx context.Context, base *engine.Graph, accountID string, document []byte) (*engine.Graph, string, error)
}

// maxUnitDocument bounds the document the form sends (the catalog's
// limit is smaller; the rules say so with a position).
const maxUnitDocument = 12 << 10

// unitRow is one unit as the tab lists it.
type unitRow struct {
	account.UnitDoc
	Name       string // my:<symbol>
	Definition string // as served, or why it is not
}

// problem is one problem of a document, for the page and the live check.
type problem struct {
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	Message string `json:"message"`
}

func problemsOf(err error) ([]problem, bool) {
	var p interface{ Problems() []error }
	if !errors.As(err, &p) {
		return nil, false
	}
	var out []problem
	for _, e := range p.Problems() {
		pr := problem{Message: e.Error()}
		var se *engine.SpecError
		if errors.As(e, &se) {
			pr = problem{Line: se.Origin.Line, Column: se.Origin.Column, Message: se.Message}
			if se.Subject != "" {
				pr.Message = se.Subject + ": " + se.Message
			}
		}
		out = append(out, pr)
	}
	return out, true
}

// unitsEnabled answers 404 when the server keeps no account units.
func (h *Handler) unitsEnabled(w http.ResponseWriter, r *http.Request) bool {
	if h.cfg.Units == nil || h.cfg.Graph == nil {
		h.errorPage(w, r, account.CodeNotFound, "This server keeps no units of accounts.")
		return false
	}
	return true
}

// unitsPage is GET /account/units.
func (h *Handler) unitsPage(w http.ResponseWriter, r *http.Request, s account.Session) {
	if !h.unitsEnabled(w, r) {
		return
	}
	h.renderUnits(w, r, s, http.StatusOK, "", r.URL.Query().Get("edit"), nil)
}

// renderUnits renders the tab, with the form holding doc and its problems
// (after a refused save); edit names a unit whose document fills the
// form.
func (h *Handler) renderUnits(w http.ResponseWriter, r *http.Request, s account.Session, status int, doc, edit string, probs []problem) {
	ctx := r.Context()
	docs, err := h.cfg.Units.Units(ctx, s.AccountID)
	if err != nil {
		h.storeDown(w, r, err)
		return
	}
	g, err := h.cfg.Units.Graph(ctx, s.AccountID, h.cfg.Graph())
	if err != nil {
		g = nil
	}
	rows := make([]unitRow, 0, len(docs))
	for _, d := range docs {
		row := unitRow{UnitDoc: d, Name: engine.AccountPrefix + d.Symbol, Definition: "not served: it does not compile with the catalog now"}
		if g != nil {
			if u, err := g.Lookup(engine.AccountPrefix + d.Symbol); err == nil {
				row.Definition = describe(u)
			}
		}
		rows = append(rows, row)
		if d.Symbol == edit && doc == "" {
			doc = d.Document
		}
	}
	if doc == "" {
		doc = exampleDocument
	}
	h.render(w, r, status, "units", map[string]any{
		"Title": "Your units", "Session": s, "Units": rows, "Document": doc, "Problems": probs, "Editing": edit,
	})
}

// exampleDocument fills an empty form.
const exampleDocument = `category: length
symbol: smoot
name: smoot
plural: smoots
system: MIT
definition: {factor: 1.7018, unit: m}
exact: true
source: Oliver R. Smoot's height, Harvard Bridge, 1958
examples: ["1 smoot = 1.7018 m"]
`

// describe says what a unit is, as the list shows it.
func describe(u *engine.Unit) string {
	d := u.Doc().Definition
	switch d.Kind {
	case "linear":
		return "1 " + u.Symbol + " = " + d.Factor + " " + d.Unit
	case "affine":
		return u.Symbol + " = " + d.Factor + " × " + d.Unit + " + " + d.Offset
	case "base", "":
		return "the base of " + u.Category.Name
	}
	return u.Symbol + ": " + d.To
}

// formatOf tells a JSON document from a YAML one.
func formatOf(doc string) string {
	if t := strings.TrimSpace(doc); strings.HasPrefix(t, "{") {
		return "json"
	}
	return "yaml"
}

// saveUnit is POST /account/units: define or change the unit the form
// holds.
func (h *Handler) saveUnit(w http.ResponseWriter, r *http.Request, s account.Session) {
	if !h.unitsEnabled(w, r) {
		return
	}
	doc := r.PostFormValue("document")
	if len(doc) > maxUnitDocument {
		h.renderUnits(w, r, s, http.StatusRequestEntityTooLarge, "", "", []problem{{Message: "The document is too large."}})
		return
	}
	ctx := r.Context()
	base := h.cfg.Graph()
	_, sym, err := h.cfg.Units.Try(ctx, base, s.AccountID, []byte(doc))
	if err == nil {
		_, _, err = h.cfg.Units.Put(ctx, base, s.AccountID, sym, []byte(doc), formatOf(doc), actor(r, s))
	}
	if err != nil {
		probs, ok := problemsOf(err)
		if !ok {
			h.fail(w, r, err, nil)
			return
		}
		h.renderUnits(w, r, s, http.StatusBadRequest, doc, "", probs)
		return
	}
	http.Redirect(w, r, "/account/units/"+url.PathEscape(sym), http.StatusSeeOther)
}

// checkUnit is POST /account/units/check: the live check of the form. It
// answers JSON: the problems of the document, or its symbol and, when a
// value and a unit are given, the preview conversion.
func (h *Handler) checkUnit(w http.ResponseWriter, r *http.Request, s account.Session) {
	if !h.unitsEnabled(w, r) {
		return
	}
	doc := r.PostFormValue("document")
	ans := struct {
		OK       bool      `json:"ok"`
		Symbol   string    `json:"symbol,omitempty"`
		Problems []problem `json:"problems,omitempty"`
		Preview  string    `json:"preview,omitempty"`
	}{}
	if len(doc) > maxUnitDocument {
		ans.Problems = []problem{{Message: "The document is too large."}}
	} else {
		g, sym, err := h.cfg.Units.Try(r.Context(), h.cfg.Graph(), s.AccountID, []byte(doc))
		ans.Symbol = sym
		switch probs, isProblem := problemsOf(err); {
		case err == nil:
			ans.OK = true
			value, to := strings.TrimSpace(r.PostFormValue("value")), strings.TrimSpace(r.PostFormValue("to"))
			if value != "" && to != "" && len(value) <= 100 && len(to) <= 100 {
				res, err := g.Convert(engine.Request{Value: value, From: engine.AccountPrefix + sym, To: to, Precision: 10})
				if err != nil {
					ans.Preview = err.Error()
				} else {
					ans.Preview = value + " " + sym + " = " + res.Value + " " + res.Unit
				}
			}
		case isProblem:
			ans.Problems = probs
		default:
			h.logger.Error("account page: checking a unit", "error", err)
			ans.Problems = []problem{{Message: "The store did not answer; try again."}}
		}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(ans)
}

// unitPage is GET /account/units/{symbol}: the unit and its history.
func (h *Handler) unitPage(w http.ResponseWriter, r *http.Request, s account.Session) {
	if !h.unitsEnabled(w, r) {
		return
	}
	sym := r.PathValue("symbol")
	ctx := r.Context()
	d, err := h.cfg.Units.Unit(ctx, s.AccountID, sym)
	if err != nil && !errors.Is(err, account.ErrNotFound) {
		h.storeDown(w, r, err)
		return
	}
	hist, err := h.cfg.Units.History(ctx, s.AccountID, sym, account.MaxUnitHistory)
	if err != nil {
		h.storeDown(w, r, err)
		return
	}
	if d.Symbol == "" && len(hist) == 0 {
		h.errorPage(w, r, account.CodeNotFound, "Your account has no such unit.")
		return
	}
	h.render(w, r, http.StatusOK, "unit", map[string]any{
		"Title": "Unit " + sym, "Session": s, "Symbol": sym, "Name": engine.AccountPrefix + sym, "Unit": d, "Exists": d.Symbol != "", "History": hist,
	})
}

// deleteUnit is POST /account/units/{symbol}/delete.
func (h *Handler) deleteUnit(w http.ResponseWriter, r *http.Request, s account.Session) {
	if !h.unitsEnabled(w, r) {
		return
	}
	sym := r.PathValue("symbol")
	err := h.cfg.Units.Delete(r.Context(), h.cfg.Graph(), s.AccountID, sym, actor(r, s))
	if probs, ok := problemsOf(err); ok {
		msgs := make([]string, len(probs))
		for i, p := range probs {
			msgs[i] = p.Message
		}
		h.errorPage(w, r, account.CodeInvalid, "The unit "+sym+" cannot be deleted: "+strings.Join(msgs, "; "))
		return
	}
	if err != nil {
		h.fail(w, r, err, map[string]string{account.CodeNotFound: "Your account has no such unit."})
		return
	}
	http.Redirect(w, r, "/account/units", http.StatusSeeOther)
}
