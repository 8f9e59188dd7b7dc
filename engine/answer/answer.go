// Package answer answers one query: a value and two units, or free text,
// in a locale, over a compiled catalog, giving everything an adapter
// writes of it. It is the one place where a request is orchestrated; the
// HTTP server and the command line decode a query, call Run, and encode
// the Answer.
//
// Run takes the same steps for every query, each in the package that owns
// it, and never climbs back:
//
//  1. free text (Query.Form) is read by engine/text, in the locale's
//     separators and unit names and with its region for a unit whose
//     meaning depends on it (pint): the exact numbers, the unit, what was
//     assumed, and an ingredient ("1 cup flour"), which becomes the
//     substance measured unless the query names one;
//  2. the substance fields resolve (engine.Graph.ResolveProperties);
//  3. the engine converts, once (engine.Graph.AppendConvert), to a unit,
//     an expression, a mixed unit or engine.Auto;
//  4. with a locale, the result is written in its words (package locale),
//     in readable digits unless the query gave a precision: the value is
//     rounded once for them, from the exact value where rounding the
//     digits at hand could round twice, and a mixed result is converted
//     again at the last part's readable precision so that a carry lands in
//     the part before (never "5 ft 12 in").
//
// Errors are the engine's: *engine.Error (package engine/fault) with the
// API's code and, for free text, the position in characters; a substance
// field that does not read is *engine.FieldError naming the field.
package answer

import (
	"strings"

	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/engine/text"
	"github.com/unitd/unitd/locale"
)

// Form says how a query gives its quantity.
type Form uint8

const (
	// FormValue is a decimal Value in the unit From ("12.5", "ft"), or a
	// value per part of a mixed unit ("5 3.5", "ft+in").
	FormValue Form = iota
	// FormText is a quantity as people write it, in Text ("5 ft 3 in",
	// "1½ cups flour"), in place of Value and From.
	FormText
	// FormQuestion is a whole question, in Text ("5 ft 3 in to cm"), in
	// place of Value, From and To.
	FormQuestion
)

// Query is one conversion as an adapter decodes it.
type Query struct {
	Form Form
	// Value and From are the quantity of FormValue; Text the free text of
	// FormText and FormQuestion.
	Value, From string
	Text        string
	// To is the target: a unit, a unit expression, a mixed unit ("ft+in")
	// or engine.Auto. A question holds its own.
	To string
	// Precision is the significant digits of the result, 1 to
	// engine.MaxPrecision; 0 is the engine's default, and then Answer.Text
	// has readable digits. InputPrecision, when Precision is 0, asks for as
	// many digits as the value has (as written, or as read from Text).
	Precision      int
	InputPrecision bool
	// Locale, when set, reads free text in its separators and unit names
	// and writes Answer.Text in its words and digits, at Width; nil reads
	// English and writes no text. Tag is the BCP 47 tag the locale was
	// asked by (or the locale's own, when it came from elsewhere): its
	// region settles a unit that depends on it (pint) and, for engine.Auto
	// without a Region, the region whose preferences apply.
	Locale *locale.Locale
	Tag    string
	Width  locale.Width
	// Usage and Region choose the unit of engine.Auto (engine.Request).
	Usage, Region string
	// Properties are what the query says of what is measured, for
	// conversions across kinds. An ingredient read from free text is the
	// substance unless Properties names one.
	Properties engine.PropertyQuery
	// Shared are properties resolved beforehand for many queries (a
	// batch's), from the fields SharedQuery holds: the answer uses them
	// when the query says nothing of its own, and lays its own fields over
	// SharedQuery's when it does.
	Shared      *engine.Properties
	SharedQuery engine.PropertyQuery
	// Budget bounds the slow work of the conversion (engine.Budget); the
	// queries of one request share one.
	Budget *engine.Budget
	// Explain asks for Answer.Explanation.
	Explain bool
}

// Input is the quantity an answer converted: Value and Unit as given, or
// as read from free text (Text), and what reading it assumed.
type Input struct {
	Text        string
	Value, Unit string
	// Assumed says what was read by a stated rule rather than as written
	// (a regional unit, a food's portion), for input.assumed; often "".
	Assumed string
}

// Answer is everything an adapter writes of a query. Run fills it in,
// reusing its storage: an adapter that answers many queries keeps one, and
// passes it by pointer (a copy would share its digits' storage).
type Answer struct {
	// Input is the quantity converted. When Run fails it holds what could
	// be read: the text, and the value and unit once the text was read.
	Input Input
	// To is the target as asked: Query.To, or the unit of a question.
	To string
	// Result is the engine's result; its Value is left empty: Digits
	// holds the value.
	Result engine.Result
	// Digits is the converted value as the engine writes it ("3.81"),
	// empty for a mixed result (Result.Parts). It is storage of the
	// Answer's, overwritten by its next use.
	Digits []byte
	// Exact is the answer's exact flag: Result.Exact, unless the input was
	// a measured value (a food's portion by its mass).
	Exact bool
	// Text is the result in Query.Locale's words ("96,56064 km/h", "5 Fuß
	// 3,5 Zoll"), "" without a locale.
	Text string
	// Explanation says where the digits come from, when Query.Explain.
	Explanation engine.Explanation
	// Work is what reading free text cost (text.Quantity.Work), also when
	// it was refused, for a caller that charges it to a client's budget.
	Work int

	digits [64]byte // Digits' first storage: most values fit
}

// Graph is what a query is answered over: an *engine.Graph, or a stand-in
// for one that tests give.
type Graph interface {
	text.Graph
	locale.Claims
	Substances() []*engine.Substance
	LocaleRegion(tag string) (region, how string, err error)
	ResolveProperties(q engine.PropertyQuery) (*engine.Properties, error)
	Convert(req engine.Request) (engine.Result, error)
	AppendConvert(dst []byte, req *engine.Request, res *engine.Result) ([]byte, error)
	Explain(res *engine.Result) engine.Explanation
}

var _ Graph = (*engine.Graph)(nil)

// Run answers q over g into a. On error a.Input holds what was read and
// a.Work what reading cost; the rest of a is not to be used.
func Run(g Graph, q *Query, a *Answer) error {
	a.Input, a.Text, a.Work, a.Exact = Input{Value: q.Value, Unit: q.From}, "", 0, false
	a.To = q.To
	req := engine.Request{Value: q.Value, From: q.From, To: q.To, Budget: q.Budget,
		Usage: q.Usage, Region: q.Region, Locale: q.Tag}
	own := q.Properties
	measured := false // the input is a measured value: no answer is exact
	if q.Form != FormValue {
		read, err := readText(g, q, a)
		if err != nil {
			return err
		}
		req.Value, req.From, req.To, req.Exact = read.Value, read.Unit, a.To, read.Exact
		if ing := read.Ingredient; ing != nil {
			if own.Substance == "" {
				own.Substance = ing.ID
			}
			measured = ing.Portion != ""
		}
	}
	req.Properties = q.Shared
	if !own.IsZero() {
		p, err := g.ResolveProperties(over(q.SharedQuery, own))
		if err != nil {
			return err
		}
		req.Properties = p
	}
	req.Precision = q.Precision
	if req.Precision == 0 && q.InputPrecision {
		req.Precision = inputDigits(req.Value)
	}
	if a.Digits == nil {
		a.Digits = a.digits[:0]
	}
	var err error
	if a.Digits, err = appendConvert(g, a.Digits[:0], &req, &a.Result); err != nil {
		return err
	}
	a.Exact = a.Result.Exact && !measured
	if q.Locale != nil {
		a.Text = resultText(g, q, &req, a)
	}
	if q.Explain {
		a.Explanation = g.Explain(&a.Result)
	} else if a.Explanation.Kind != "" {
		a.Explanation = engine.Explanation{}
	}
	return nil
}

// appendConvert is g.AppendConvert. An *engine.Graph is called as such,
// so that req stays on its caller's stack (a call through the interface
// would move every request to the heap); a stand-in gets a copy.
func appendConvert(g Graph, dst []byte, req *engine.Request, res *engine.Result) ([]byte, error) {
	if eg, ok := g.(*engine.Graph); ok {
		return eg.AppendConvert(dst, req, res)
	}
	r := *req
	return g.AppendConvert(dst, &r, res)
}

// readText reads the free text of q into a.Input (and a.To for a
// question) and returns what it read.
func readText(g Graph, q *Query, a *Answer) (text.Quantity, error) {
	opts := options(g, q.Locale, q.Tag)
	a.Input = Input{Text: q.Text}
	var read text.Quantity
	var err error
	if q.Form == FormQuestion {
		var qq text.Question
		qq, err = text.ParseQuestion(g, q.Text, opts)
		read, a.To = qq.Quantity, qq.To
	} else {
		read, err = text.Parse(g, q.Text, opts)
	}
	a.Work = read.Work
	if err != nil {
		return read, err
	}
	a.Input.Value, a.Input.Unit, a.Input.Assumed = read.Value, read.Unit, read.Assumed
	return read, nil
}

// over lays the fields a query gives of its own over those it shares.
func over(shared, own engine.PropertyQuery) engine.PropertyQuery {
	pick := func(shared, own string) string {
		if own != "" {
			return own
		}
		return shared
	}
	return engine.PropertyQuery{
		Substance:  pick(shared.Substance, own.Substance),
		MolarMass:  pick(shared.MolarMass, own.MolarMass),
		Density:    pick(shared.Density, own.Density),
		Charge:     pick(shared.Charge, own.Charge),
		Conditions: pick(shared.Conditions, own.Conditions),
	}
}

// inputDigits is the number of significant digits of a decimal value as
// written ("5.50" has 3, "0.0050" has 2), at least 1 and at most the
// engine's maximum precision.
func inputDigits(v string) int {
	if i := strings.IndexAny(v, "eE"); i >= 0 {
		v = v[:i]
	}
	v = strings.TrimLeft(v, "+-")
	v = strings.Replace(v, ".", "", 1)
	v = strings.TrimLeft(v, "0")
	return min(max(len(v), 1), engine.MaxPrecision)
}
