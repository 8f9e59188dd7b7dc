package client

import (
	"context"
	"net/url"
	"strconv"
)

// Request is one conversion: Value, From and To; or Quantity (free text)
// and To; or Q (a whole question) alone. The other fields are optional.
type Request struct {
	Value    string `json:"value,omitempty"`    // decimal text, "12.5"; a mixed unit's values separated by spaces, "5 3.5"
	From     string `json:"from,omitempty"`     // symbol, alias, unit expression or code: "ft", "feet", "kg*m/s^2", "ucum:mg/dL"
	To       string `json:"to,omitempty"`       // as From, or a mixed unit ("ft+in"), or "auto" (with Usage and Region or Locale)
	Quantity string `json:"quantity,omitempty"` // in place of Value and From: "5 ft 3 in", "-40 °F"
	Q        string `json:"q,omitempty"`        // a whole question, alone: "5 ft 3 in to cm"

	Precision Precision `json:"precision,omitzero"`

	Locale      string `json:"locale,omitempty"`       // BCP 47 tag: adds Result.Text in that locale, reads free text in it
	UnitDisplay string `json:"unit_display,omitempty"` // long, short (default) or narrow: the unit names of Result.Text
	Usage       string `json:"usage,omitempty"`        // with To "auto": CLDR's usage, "person-height"
	Region      string `json:"region,omitempty"`       // with To "auto": "GB", "001"

	// What is measured, for conversions across kinds (mg/dL ↔ mmol/L,
	// kg ↔ L): a substance, or values that win over its own.
	Substance  string `json:"substance,omitempty"`  // "glucose", "C6H12O6", "50-99-7"
	MolarMass  string `json:"molar_mass,omitempty"` // "180.156 g/mol"
	Density    string `json:"density,omitempty"`    // "0.745 kg/L"
	Charge     int    `json:"charge,omitempty"`     // charge number of an ion
	Conditions string `json:"conditions,omitempty"` // "25 degC, 101.325 kPa", "STP"
}

// Precision is the number of significant digits of a result, 1 to 50. The
// zero value leaves the server's default (34, or as many as a free-text
// quantity has); PrecisionInput asks for as many as the value has.
type Precision int

// PrecisionInput is precision "input": as many significant digits as the
// value has ("5.50" has 3).
const PrecisionInput Precision = -1

// MarshalJSON writes the number, or "input".
func (p Precision) MarshalJSON() ([]byte, error) {
	if p == PrecisionInput {
		return []byte(`"input"`), nil
	}
	return strconv.AppendInt(nil, int64(p), 10), nil
}

// Conversion is the answer to one conversion.
type Conversion struct {
	Input  Input  `json:"input"`
	Result Result `json:"result"`
	// Category is the category id ("length"); for a unit expression whose
	// dimension no category has, the dimension ("M T^-3 Θ^-1").
	Category string `json:"category"`
	// Exact is true when Result's digits are the exact result and every
	// definition used is exact.
	Exact bool `json:"exact"`
	// Explain says where every digit came from (Client.Explain).
	Explain *Explanation `json:"explain,omitempty"`
}

// Input echoes what was converted.
type Input struct {
	Text  string `json:"text,omitempty"` // the free text submitted
	Value string `json:"value,omitempty"`
	Unit  string `json:"unit,omitempty"`
	Parts []Part `json:"parts,omitempty"`
}

// Result is a converted value.
type Result struct {
	// Value is the decimal result, rounded once to the precision ("3.81",
	// "1.602176634e-19"); "" for a mixed unit, whose Parts hold it.
	Value string `json:"value,omitempty"`
	// Unit is the canonical symbol of the target.
	Unit  string `json:"unit"`
	Parts []Part `json:"parts,omitempty"`
	// Text is the result in the words of the request's locale
	// ("96,56064 km/h"); Code, the target in its code system when To named
	// one ("ucum:mmol/L").
	Text string `json:"text,omitempty"`
	Code string `json:"code,omitempty"`
}

// Part is one part of a mixed quantity: 5 ft, then 3.5 in.
type Part struct {
	Value string `json:"value"`
	Unit  string `json:"unit"`
}

// Explanation is the explain object: the exact factor and the catalog
// definitions a conversion used.
type Explanation struct {
	CatalogVersion string `json:"catalog_version"`
	Kind           string `json:"kind"` // linear, affine or formula
	// Factor is the exact multiplier ("0.3048", "1200/3937", or 50 digits
	// of a factor through π with FactorExact false); affine conversions
	// add Offset.
	Factor      string `json:"factor,omitempty"`
	FactorExact *bool  `json:"factor_exact,omitempty"`
	Offset      string `json:"offset,omitempty"`
	OffsetExact *bool  `json:"offset_exact,omitempty"`
	Steps       []Step `json:"steps"`
	// Inexact names the definitions that make the answer inexact however
	// exact its arithmetic.
	Inexact []string `json:"inexact,omitempty"`
}

// Step is one catalog definition a conversion used.
type Step struct {
	Unit       string `json:"unit"`
	Exponent   int    `json:"exponent,omitempty"`
	Definition string `json:"definition"` // "1 ft = 12 in"
	Exact      bool   `json:"exact"`
	Source     string `json:"source"`
}

// Convert converts one value (POST /v1/convert).
func (c *Client) Convert(ctx context.Context, r Request) (*Conversion, error) {
	return c.convert(ctx, r, false)
}

// Explain converts one value and says where every digit came from:
// Conversion.Explain is set.
func (c *Client) Explain(ctx context.Context, r Request) (*Conversion, error) {
	return c.convert(ctx, r, true)
}

func (c *Client) convert(ctx context.Context, r Request, explain bool) (*Conversion, error) {
	body := struct {
		Request
		Explain bool `json:"explain,omitempty"`
	}{r, explain}
	var out Conversion
	if err := c.call(ctx, "POST", "/v1/convert", nil, body, data(&out)); err != nil {
		return nil, err
	}
	return &out, nil
}

// BatchOptions apply to every item of a batch or stream that does not give
// its own.
type BatchOptions struct {
	Precision   Precision
	Explain     bool // adds Explain to every successful item
	Locale      string
	UnitDisplay string
	Usage       string
	Region      string
	Substance   string
	MolarMass   string
	Density     string
	Charge      int
	Conditions  string
}

// Item is the answer to one item of a batch or stream: a Conversion, or
// Err when the item failed.
type Item struct {
	Index int // the item's position, from 0
	Conversion
	Err *Error // the item's own error (its Status is 0); nil on success
}

// wireItem is an item's answer, or a line of a stream.
type wireItem struct {
	Index  int        `json:"index"`
	Status string     `json:"status"`
	Error  *wireError `json:"error"`
	Conversion
	Meta *meta `json:"meta"` // a stream's last line
}

type meta struct {
	Total     int `json:"total"`
	Succeeded int `json:"succeeded"`
	Failed    int `json:"failed"`
}

func (w *wireItem) item() Item {
	it := Item{Index: w.Index, Conversion: w.Conversion}
	if w.Error != nil {
		it.Err = w.Error.err(0)
	}
	return it
}

// Batch converts up to 100 values on one catalog snapshot (POST
// /v1/batch): one Item per request, in order. A failed item carries its own
// Err; the error is for the batch as a whole.
func (c *Client) Batch(ctx context.Context, reqs []Request, opts BatchOptions) ([]Item, error) {
	body := struct {
		Conversions []Request `json:"conversions"`
		Precision   Precision `json:"precision,omitzero"`
		Explain     bool      `json:"explain,omitempty"`
		Locale      string    `json:"locale,omitempty"`
		UnitDisplay string    `json:"unit_display,omitempty"`
		Usage       string    `json:"usage,omitempty"`
		Region      string    `json:"region,omitempty"`
		Substance   string    `json:"substance,omitempty"`
		MolarMass   string    `json:"molar_mass,omitempty"`
		Density     string    `json:"density,omitempty"`
		Charge      int       `json:"charge,omitempty"`
		Conditions  string    `json:"conditions,omitempty"`
	}{reqs, opts.Precision, opts.Explain, opts.Locale, opts.UnitDisplay, opts.Usage, opts.Region,
		opts.Substance, opts.MolarMass, opts.Density, opts.Charge, opts.Conditions}
	if body.Conversions == nil {
		body.Conversions = []Request{} // the server says what an empty batch is
	}
	var wire []wireItem
	if err := c.call(ctx, "POST", "/v1/batch", nil, body, data(&wire)); err != nil {
		return nil, err
	}
	items := make([]Item, len(wire))
	for i := range wire {
		items[i] = wire[i].item()
	}
	return items, nil
}

// query is opts as the query string of a stream.
func (opts BatchOptions) query() url.Values {
	q := url.Values{}
	set := func(name, v string) {
		if v != "" {
			q.Set(name, v)
		}
	}
	if opts.Precision == PrecisionInput {
		set("precision", "input")
	} else if opts.Precision != 0 {
		set("precision", strconv.Itoa(int(opts.Precision)))
	}
	if opts.Explain {
		set("explain", "true")
	}
	set("locale", opts.Locale)
	set("unit_display", opts.UnitDisplay)
	set("usage", opts.Usage)
	set("region", opts.Region)
	set("substance", opts.Substance)
	set("molar_mass", opts.MolarMass)
	set("density", opts.Density)
	if opts.Charge != 0 {
		set("charge", strconv.Itoa(opts.Charge))
	}
	set("conditions", opts.Conditions)
	return q
}
