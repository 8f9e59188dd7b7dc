package client

import (
	"context"
	"net/url"
	"time"
)

// Category is a category of the catalog: a kind of quantity.
type Category struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	BaseUnit    string `json:"base_unit"`
	Dimension   string `json:"dimension"` // "L T^-1", or "1"
	UnitCount   int    `json:"unit_count"`
	Minimum     string `json:"minimum,omitempty"` // the smallest value allowed, in the base unit
	Units       []Unit `json:"units,omitempty"`   // Client.Category only
}

// Unit is a unit record of the catalog, or of a unit expression
// (Definition.Kind "expression", with Terms).
type Unit struct {
	Symbol       string            `json:"symbol"`
	Name         string            `json:"name,omitempty"`
	Plural       string            `json:"plural,omitempty"`
	Aliases      []string          `json:"aliases,omitempty"`
	Category     string            `json:"category"`
	Dimension    string            `json:"dimension"`
	System       string            `json:"system,omitempty"` // SI, metric, US, imperial, …
	Definition   Definition        `json:"definition"`
	Exact        bool              `json:"exact"` // the definition is exact
	Source       string            `json:"source,omitempty"`
	Description  string            `json:"description,omitempty"`
	PrefixedFrom string            `json:"prefixed_from,omitempty"`
	Codes        map[string]string `json:"codes,omitempty"`        // ucum, cldr, unece, qudt
	DisplayName  *DisplayName      `json:"display_name,omitempty"` // with a locale
	Terms        []Term            `json:"terms,omitempty"`        // an expression's operands
}

// Definition is how a unit is defined: Factor (and Offset) times Unit,
// formulas To and From, or an expression's factor to the coherent SI unit.
type Definition struct {
	Kind        string `json:"kind"` // linear, affine, formula or expression
	Factor      string `json:"factor,omitempty"`
	FactorExact *bool  `json:"factor_exact,omitempty"`
	Offset      string `json:"offset,omitempty"`
	Unit        string `json:"unit,omitempty"`
	To          string `json:"to,omitempty"`
	From        string `json:"from,omitempty"`
}

// DisplayName is a unit's name in a locale, as CLDR writes it.
type DisplayName struct {
	Long   string `json:"long"`
	Short  string `json:"short"`
	Narrow string `json:"narrow"`
}

// Term is one operand of a unit expression.
type Term struct {
	Unit     string `json:"unit"`
	Exponent int    `json:"exponent"`
}

// Substance is what conversions across kinds may name in
// Request.Substance.
type Substance struct {
	ID           string    `json:"id"`
	Name         string    `json:"name"`
	Aliases      []string  `json:"aliases"`
	Formula      string    `json:"formula,omitempty"`
	CAS          string    `json:"cas,omitempty"`
	Description  string    `json:"description,omitempty"`
	MolarMass    *Property `json:"molar_mass,omitempty"`
	Density      *Property `json:"density,omitempty"`
	Charge       int       `json:"charge,omitempty"`
	ChargeSource string    `json:"charge_source,omitempty"`
}

// Property is a value of a substance with its unit and source.
type Property struct {
	Value       string `json:"value"` // "180.156 g/mol"
	Source      string `json:"source"`
	Temperature string `json:"temperature,omitempty"` // where a density holds
	Sum         string `json:"sum,omitempty"`         // how a molar mass was summed
}

// Health is the server's state.
type Health struct {
	Status  string `json:"status"` // "ok" while a catalog is serving
	Version string `json:"version"`
	Catalog struct {
		Version    string    `json:"version"`
		Categories int       `json:"categories"`
		Units      int       `json:"units"`
		LoadedAt   time.Time `json:"loaded_at"`
		LastReload struct {
			At    time.Time `json:"at"`
			OK    bool      `json:"ok"`
			Error string    `json:"error"`
		} `json:"last_reload"`
	} `json:"catalog"`
}

// UnitQuery filters Units; every field is optional.
type UnitQuery struct {
	Category  string // a category id
	Q         string // text in a symbol, name, plural or alias
	Dimension string // "L T^-1"
	Locale    string // adds DisplayName; Q matches the locale's names too
}

// Categories lists the categories of the catalog.
func (c *Client) Categories(ctx context.Context) ([]Category, error) {
	var out []Category
	if err := c.call(ctx, "GET", "/v1/categories", nil, nil, data(&out)); err != nil {
		return nil, err
	}
	return out, nil
}

// Category returns a category with its units.
func (c *Client) Category(ctx context.Context, id string) (*Category, error) {
	var out Category
	if err := c.call(ctx, "GET", "/v1/categories/"+url.PathEscape(id), nil, nil, data(&out)); err != nil {
		return nil, err
	}
	return &out, nil
}

// Units lists the units of the catalog that q selects.
func (c *Client) Units(ctx context.Context, q UnitQuery) ([]Unit, error) {
	query := url.Values{}
	for name, v := range map[string]string{"category": q.Category, "q": q.Q, "dimension": q.Dimension, "locale": q.Locale} {
		if v != "" {
			query.Set(name, v)
		}
	}
	var out []Unit
	if err := c.call(ctx, "GET", "/v1/units", query, nil, data(&out)); err != nil {
		return nil, err
	}
	return out, nil
}

// Unit returns the record of a unit named by its symbol, an alias or a
// unit expression ("km/h", "feet", "kg*m/s^2").
func (c *Client) Unit(ctx context.Context, name string) (*Unit, error) {
	var out Unit
	if err := c.call(ctx, "GET", "/v1/units/"+url.PathEscape(name), nil, nil, data(&out)); err != nil {
		return nil, err
	}
	return &out, nil
}

// Substances lists the substances whose id, name, alias, formula or CAS
// number contains q (all of them when q is "").
func (c *Client) Substances(ctx context.Context, q string) ([]Substance, error) {
	query := url.Values{}
	if q != "" {
		query.Set("q", q)
	}
	var out []Substance
	if err := c.call(ctx, "GET", "/v1/substances", query, nil, data(&out)); err != nil {
		return nil, err
	}
	return out, nil
}

// Substance returns a substance named by its id, name, alias, CAS number or
// formula.
func (c *Client) Substance(ctx context.Context, id string) (*Substance, error) {
	var out Substance
	if err := c.call(ctx, "GET", "/v1/substances/"+url.PathEscape(id), nil, nil, data(&out)); err != nil {
		return nil, err
	}
	return &out, nil
}

// Health returns the server's state.
func (c *Client) Health(ctx context.Context) (*Health, error) {
	var out Health
	if err := c.call(ctx, "GET", "/v1/health", nil, nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
