package server

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/engine/substance"
	"github.com/unitd/unitd/internal/jsonscan"
)

// Conversions that need a substance: the request fields substance,
// molar_mass, density, charge and conditions (GET query, POST body, batch
// items and batch-wide), and how their answers and errors read.

// propertyFields are the request fields, in the order of their field bits
// (fSubstance …) and of propertyTexts.
var propertyFields = [...]string{"substance", "molar_mass", "density", "charge", "conditions"}

const propertyFieldList = "substance, molar_mass, density, charge, conditions"

// propertyBit is the field bit of a substance field, or 0.
func propertyBit(key string) int {
	for i, f := range propertyFields {
		if f == key {
			return fSubstance << i
		}
	}
	return 0
}

// propertyTexts points at the query's fields in propertyFields order.
func propertyTexts(q *engine.PropertyQuery) [5]*string {
	return [5]*string{&q.Substance, &q.MolarMass, &q.Density, &q.Charge, &q.Conditions}
}

// readProperty reads a substance field: a string, or for charge a whole
// JSON number (its text). It returns a message when the type is wrong.
func readProperty(s *jsonscan.Scanner, q *engine.PropertyQuery, bit int, depth int) (string, error) {
	i := 0
	for fSubstance<<i != bit {
		i++
	}
	dst, name := propertyTexts(q)[i], propertyFields[i]
	switch ch := s.Peek(); {
	case bit == fCharge && (ch == '-' || ch >= '0' && ch <= '9'):
		v, err := s.ReadNumber()
		*dst = v
		return "", err
	case bit != fCharge && ch == '"':
		v, err := s.ReadString()
		*dst = v
		return "", err
	}
	if bit == fCharge {
		return `"charge" must be a whole number (the charge number of an ion, such as 2 or -1)`, s.Skip(depth)
	}
	return `"` + name + `" must be a string`, s.Skip(depth)
}

// resolveProperties resolves the substance fields a whole request shares
// (a batch's; a single conversion's are its query's); a value that does
// not read is fieldCode (INVALID_REQUEST) naming the field, an unknown
// substance UNKNOWN_SUBSTANCE.
func resolveProperties(g *engine.Graph, q engine.PropertyQuery, fieldCode string) (*engine.Properties, *apiError) {
	p, err := g.ResolveProperties(q)
	if err != nil {
		return nil, answerError(err, fieldCode)
	}
	return p, nil
}

// answerError is the API error of a conversion refused (by package
// engine/answer): a substance field that does not read is fieldCode
// (INVALID_REQUEST, or INVALID_ITEM in a batch item) naming the field;
// any other error is the engine's (fromEngine).
func answerError(err error, fieldCode string) *apiError {
	if _, ok := err.(*engine.Error); !ok {
		// (Looked for only when err is not the engine's own, the usual
		// error: errors.As costs an allocation.)
		var fe *substance.FieldError
		if errors.As(err, &fe) {
			e := newError(fieldCode, strconv.Quote(fe.Field)+": "+fe.Message)
			e.Details = map[string]any{"field": fe.Field}
			return e
		}
	}
	return fromEngine(err)
}

// substanceExplainJSON is explain's account of a conversion across kinds.
type substanceExplainJSON struct {
	// ID is the catalog substance, if one was named; Formula a formula
	// that names none.
	ID      string              `json:"id,omitempty"`
	Formula string              `json:"formula,omitempty"`
	Values  []propertyValueJSON `json:"values"`
}

type propertyValueJSON struct {
	Property   string `json:"property"`
	Value      string `json:"value"`
	Source     string `json:"source"`
	Conditions string `json:"conditions,omitempty"`
	Sum        string `json:"sum,omitempty"`
}

func substanceExplain(res *engine.Result, used []engine.Property) *substanceExplainJSON {
	if len(used) == 0 && len(res.Equations()) == 0 {
		return nil
	}
	j := &substanceExplainJSON{Values: []propertyValueJSON{}}
	if p := res.Properties; p != nil {
		if p.Substance != nil {
			j.ID = p.Substance.ID
		}
		j.Formula = p.Formula
	}
	for _, u := range used {
		j.Values = append(j.Values, propertyValueJSON{Property: u.Name, Value: u.Value, Source: u.Source, Conditions: u.Conditions, Sum: u.Sum})
	}
	return j
}

// equationStepJSON is a measurand's equation as a conversion applied it,
// in explain.
type equationStepJSON struct {
	Name string `json:"name"`
	// Equation is the equation as published; Applied the same solved
	// for the scale converted to, which differs when Inverse.
	Equation string `json:"equation"`
	Applied  string `json:"applied"`
	Inverse  bool   `json:"inverse"`
	Exact    bool   `json:"exact"`
	Source   string `json:"source"`
	Note     string `json:"note,omitempty"`
}

func newEquationStepJSON(st engine.EquationStep) equationStepJSON {
	e := st.Equation
	return equationStepJSON{Name: e.Name, Equation: e.Text(), Applied: st.Text(), Inverse: st.Inverse, Exact: e.Exact, Source: e.Source, Note: e.Note}
}

// measurandRecord is what a measurand's discovery record adds: its scales
// and the equations between them.
type measurandRecord struct {
	Scales    []scaleRecord    `json:"scales"`
	Equations []equationRecord `json:"equations"`
}

type scaleRecord struct {
	Name        string `json:"name"`
	Unit        string `json:"unit"`
	Substance   string `json:"substance,omitempty"`
	Description string `json:"description,omitempty"`
}

type equationRecord struct {
	Name     string `json:"name"`
	Equation string `json:"equation"`
	Exact    bool   `json:"exact"`
	Source   string `json:"source"`
	Note     string `json:"note,omitempty"`
}

func newMeasurandRecord(m *engine.Measurand) *measurandRecord {
	r := &measurandRecord{Scales: []scaleRecord{}, Equations: []equationRecord{}}
	for _, s := range m.Scales {
		sr := scaleRecord{Name: s.Name, Unit: s.Unit, Description: s.Description}
		if s.Substance != nil {
			sr.Substance = s.Substance.ID
		}
		r.Scales = append(r.Scales, sr)
	}
	for _, e := range m.Equations {
		r.Equations = append(r.Equations, equationRecord{Name: e.Name, Equation: e.Text(), Exact: e.Exact, Source: e.Source, Note: e.Note})
	}
	return r
}

// substanceRecord is a substance in discovery.
type substanceRecord struct {
	ID           string          `json:"id"`
	Name         string          `json:"name"`
	Aliases      []string        `json:"aliases"`
	Formula      string          `json:"formula,omitempty"`
	CAS          string          `json:"cas,omitempty"`
	Description  string          `json:"description,omitempty"`
	MolarMass    *propertyRecord `json:"molar_mass,omitempty"`
	Density      *propertyRecord `json:"density,omitempty"`
	Charge       *int            `json:"charge,omitempty"`
	ChargeSource string          `json:"charge_source,omitempty"`
	// Measurand holds a measurand's scales and equations (HbA1c).
	Measurand *measurandRecord `json:"measurand,omitempty"`
}

type propertyRecord struct {
	Value       string `json:"value"`
	Temperature string `json:"temperature,omitempty"`
	Source      string `json:"source"`
	Sum         string `json:"sum,omitempty"`
}

func newSubstanceRecord(s *engine.Substance) substanceRecord {
	r := substanceRecord{ID: s.ID, Name: s.Name, Aliases: s.Aliases, Formula: s.Formula, CAS: s.CAS, Description: s.Description}
	if r.Aliases == nil {
		r.Aliases = []string{}
	}
	if m := s.MolarMass; m != nil {
		r.MolarMass = &propertyRecord{Value: m.Value, Source: m.Source, Sum: m.Sum}
	}
	if d := s.Density; d != nil {
		r.Density = &propertyRecord{Value: d.Value, Temperature: d.Conditions, Source: d.Source}
	}
	if z := s.Charge; z != nil {
		n, _ := strconv.Atoi(z.Value)
		r.Charge, r.ChargeSource = &n, z.Source
	}
	if s.Measurand != nil {
		r.Measurand = newMeasurandRecord(s.Measurand)
	}
	return r
}

// substanceEntry is a rendered substance record.
type substanceEntry struct {
	record []byte
}

// renderSubstances renders the substance documents of sn and
// indexes the substances for q.
func (d *documents) renderSubstances(sn *snapshot) {
	d.substance = map[string]cached{}
	d.substanceAt = map[*engine.Substance]int{}
	subs := sn.graph.Substances()
	for i, s := range subs {
		rec := mustJSON(newSubstanceRecord(s))
		d.substances = append(d.substances, substanceEntry{record: rec})
		d.substanceAt[s] = i
		d.substance[s.ID] = sn.renderRaw("/v1/substances/"+s.ID, wrapData(rec))
	}
	all := make([][]byte, len(d.substances))
	for i, e := range d.substances {
		all[i] = e.record
	}
	d.allSubstances = sn.renderRaw("/v1/substances", substanceList(all, nil))
}

// substanceList renders {"data":[records…],"meta":{"total":n}}, with
// "suggestions" (substance IDs) in meta when there are any.
func substanceList(records [][]byte, suggestions []string) []byte {
	b := append([]byte(nil), `{"data":[`...)
	for i, r := range records {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, r...)
	}
	b = append(b, `],"meta":{"total":`...)
	b = appendInt(b, len(records))
	if len(suggestions) > 0 {
		b = append(b, `,"suggestions":`...)
		b = append(b, mustJSON(suggestions)...)
	}
	return append(b, "}}\n"...)
}

// substances serves GET /v1/substances[?q=]: every substance, or those q
// names, best first (engine.Graph.SearchSubstances ranks them as the pages
// do). When q names none, data is empty and meta.suggestions lists the IDs
// of the substances spelled closest to it.
func (s *Server) substances(c *call) reply {
	raw := c.r.URL.RawQuery
	if raw == "" {
		return okCached(c.snap.docs().allSubstances)
	}
	qs, err := parseQuery(raw, "q")
	if err != nil {
		return errReply(err)
	}
	q, _ := qs.get(0)
	if strings.TrimSpace(q) == "" {
		return okCached(c.snap.docs().allSubstances)
	}
	var records [][]byte
	var suggestions []string
	for _, m := range c.snap.graph.SearchSubstances(q) {
		if m.Rank == substance.Fuzzy {
			suggestions = append(suggestions, m.Substance.ID)
			continue
		}
		records = append(records, c.snap.docs().substances[c.snap.docs().substanceAt[m.Substance]].record)
	}
	return reply{status: http.StatusOK, body: substanceList(records, suggestions), etag: c.snap.etag("/v1/substances?q=" + q)}
}

// substance serves GET /v1/substances/:id: by ID, or by name, alias, CAS
// number or formula.
func (s *Server) substance(c *call) reply {
	if e := noQuery(c); e != nil {
		return errReply(e)
	}
	id, ok := param(c.r, "id")
	if !ok {
		return errReply(invalidRequest("the substance in the path is not valid percent-encoding"))
	}
	if doc, ok := c.snap.docs().substance[id]; ok {
		return okCached(doc)
	}
	sub, err := c.snap.graph.Substance(id)
	if err != nil {
		e := fromEngine(err)
		e.Code = codeNotFound
		e.Message += "; GET /v1/substances lists them"
		return errReply(e)
	}
	return okCached(c.snap.docs().substance[sub.ID])
}
