package answer_test

import (
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/unitd/unitd/catalog"
	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/engine/answer"
	"github.com/unitd/unitd/locale"
)

// shipped is the embedded catalog's graph, compiled once for the
// package's tests (a graph is immutable).
var shipped = sync.OnceValues(func() (*engine.Graph, []error) { return catalog.LoadEmbedded() })

func graph(t *testing.T) *engine.Graph {
	t.Helper()
	g, errs := shipped()
	if len(errs) > 0 || g == nil {
		t.Fatalf("the embedded catalog does not load: %v", errs)
	}
	return g
}

// in returns the locale of tag, as an adapter matches it.
func in(t *testing.T, tag string) *locale.Locale {
	t.Helper()
	l, err := locale.Match(tag)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestRun answers queries of every form through one Answer, reused from
// each to the next as adapters reuse theirs, so that nothing of one
// answer leaks into the next.
func TestRun(t *testing.T) {
	g := graph(t)
	de, en, enUS, enGB := in(t, "de"), in(t, "en"), in(t, "en-US"), in(t, "en-GB")
	glucose, err := g.ResolveProperties(engine.PropertyQuery{Substance: "glucose"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		q    answer.Query
		// value is the result's digits, or a mixed result's parts as
		// engine.PartsText writes them.
		value, unit string
		text        string
		exact       bool
		input       answer.Input
		to          string
	}{
		{name: "value and units",
			q:     answer.Query{Value: "12.5", From: "ft", To: "m"},
			value: "3.81", unit: "m", exact: true, input: answer.Input{Value: "12.5", Unit: "ft"}, to: "m"},
		{name: "free text, a mixed quantity",
			q:     answer.Query{Form: answer.FormText, Text: "5 ft 3 in", To: "cm"},
			value: "160.02", unit: "cm", exact: true, input: answer.Input{Text: "5 ft 3 in", Value: "5 3", Unit: "ft+in"}, to: "cm"},
		{name: "a question, its own target",
			q:     answer.Query{Form: answer.FormQuestion, Text: "3 in in cm"},
			value: "7.62", unit: "cm", exact: true, input: answer.Input{Text: "3 in in cm", Value: "3", Unit: "in"}, to: "cm"},
		{name: "a third of an hour, exactly",
			q:     answer.Query{Form: answer.FormText, Text: "⅓ h", To: "s"},
			value: "1200", unit: "s", exact: true, input: answer.Input{Text: "⅓ h", Value: "1/3", Unit: "h"}, to: "s"},
		{name: "free text in the locale's separators and names",
			q:     answer.Query{Form: answer.FormText, Text: "12,5 Kilometer", To: "m", Locale: de, Tag: "de"},
			value: "12500", unit: "m", text: "12.500 m", exact: true, input: answer.Input{Text: "12,5 Kilometer", Value: "12.5", Unit: "km"}, to: "m"},
		{name: "readable digits in the locale",
			q:     answer.Query{Value: "26.8224", From: "m/s", To: "km/h", Locale: de, Tag: "de"},
			value: "96.56064", unit: "km/h", text: "96,5606 km/h", exact: true, input: answer.Input{Value: "26.8224", Unit: "m/s"}, to: "km/h"},
		{name: "readable digits, long names",
			q:     answer.Query{Value: "26.8224", From: "m/s", To: "km/h", Locale: de, Tag: "de", Width: locale.Long},
			value: "96.56064", unit: "km/h", text: "96,5606 Kilometer pro Stunde", exact: true, input: answer.Input{Value: "26.8224", Unit: "m/s"}, to: "km/h"},
		{name: "a precision given keeps its digits in the text",
			q:     answer.Query{Value: "26.8224", From: "m/s", To: "km/h", Locale: de, Tag: "de", Precision: 7},
			value: "96.56064", unit: "km/h", text: "96,56064 km/h", exact: true, input: answer.Input{Value: "26.8224", Unit: "m/s"}, to: "km/h"},
		{name: "readable digits of an inexact value",
			q:     answer.Query{Value: "1", From: "ft", To: "yd", Locale: en, Tag: "en"},
			value: "0.3333333333333333333333333333333333", unit: "yd", text: "0.333 yd", input: answer.Input{Value: "1", Unit: "ft"}, to: "yd"},
		{name: "readable digits keep the input's figures",
			q:     answer.Query{Value: "1.00000000", From: "mi", To: "km", Locale: en, Tag: "en"},
			value: "1.609344", unit: "km", text: "1.609344 km", exact: true, input: answer.Input{Value: "1.00000000", Unit: "mi"}, to: "km"},
		{name: "precision input: the value's digits",
			q:     answer.Query{Value: "1.0", From: "mi", To: "km", Locale: en, Tag: "en", InputPrecision: true},
			value: "1.6", unit: "km", text: "1.6 km", input: answer.Input{Value: "1.0", Unit: "mi"}, to: "km"},
		{name: "precision input of free text: the digits of the value read (5.50 reads as 5.5)",
			q:     answer.Query{Form: answer.FormText, Text: "5.50 ft", To: "m", InputPrecision: true},
			value: "1.7", unit: "m", input: answer.Input{Text: "5.50 ft", Value: "5.5", Unit: "ft"}, to: "m"},
		{name: "a mixed result in German",
			q:     answer.Query{Value: "161.29", From: "cm", To: "ft+in", Locale: de, Tag: "de", Width: locale.Long},
			value: "5 ft 3.5 in", unit: "ft+in", text: "5 Fuß 3,5 Zoll", exact: true, input: answer.Input{Value: "161.29", Unit: "cm"}, to: "ft+in"},
		{name: "a mixed result's readable digits carry into the part before",
			q:     answer.Query{Value: "5.4431", From: "kg", To: "lb+oz", Locale: en, Tag: "en"},
			value: "11 lb 15.99970228776114554131499169617866 oz", unit: "lb+oz", text: "12 lb 0 oz", input: answer.Input{Value: "5.4431", Unit: "kg"}, to: "lb+oz"},
		{name: "free text to a mixed unit",
			q:     answer.Query{Form: answer.FormQuestion, Text: "63.5 in to ft+in"},
			value: "5 ft 3.5 in", unit: "ft+in", exact: true, input: answer.Input{Text: "63.5 in to ft+in", Value: "63.5", Unit: "in"}, to: "ft+in"},
		{name: "to=auto in the region of the locale",
			q:     answer.Query{Value: "100", From: "km", To: engine.Auto, Usage: "road", Locale: enUS, Tag: "en-US"},
			value: "62.13711922373339696174341843633182", unit: "mi", text: "62.137 mi", input: answer.Input{Value: "100", Unit: "km"}, to: engine.Auto},
		{name: "to=auto in a region, to a mixed unit",
			q:     answer.Query{Value: "1.75", From: "m", To: engine.Auto, Usage: "person-height", Region: "GB", Precision: 2},
			value: "5 ft 8.9 in", unit: "ft+in", input: answer.Input{Value: "1.75", Unit: "m"}, to: engine.Auto},
		{name: "to=auto: the region wins over the locale's",
			q:     answer.Query{Value: "1.75", From: "m", To: engine.Auto, Usage: "person-height", Region: "DE", Locale: enGB, Tag: "en-GB"},
			value: "175", unit: "cm", text: "175 cm", exact: true, input: answer.Input{Value: "1.75", Unit: "m"}, to: engine.Auto},
		{name: "free text to auto in the locale's region",
			q:     answer.Query{Form: answer.FormText, Text: "5 ft 3 in", To: engine.Auto, Usage: "person-height", Locale: in(t, "de-DE"), Tag: "de-DE", Precision: 3},
			value: "160", unit: "cm", text: "160 cm", input: answer.Input{Text: "5 ft 3 in", Value: "5 3", Unit: "ft+in"}, to: engine.Auto},
		{name: "a pint in Britain, said so",
			q:     answer.Query{Form: answer.FormText, Text: "1 pint", To: "mL", Locale: enGB, Tag: "en-GB"},
			value: "568.26125", unit: "mL", text: "568.261 ml", exact: true,
			input: answer.Input{Text: "1 pint", Value: "1", Unit: "pt_imp", Assumed: "pt_imp: imperial pint (region GB, from locale en-GB)"}, to: "mL"},
		{name: "an ingredient is the substance measured",
			q:     answer.Query{Form: answer.FormText, Text: "1 1/2 cups flour", To: "g", Locale: enUS, Tag: "en-US"},
			value: "187.5", unit: "g", text: "187.5 g",
			input: answer.Input{Text: "1 1/2 cups flour", Value: "1.5", Unit: "cup", Assumed: "cup: US customary cup (region US, from locale en)"}, to: "g"},
		{name: "the query's substance wins over the ingredient",
			q:     answer.Query{Form: answer.FormText, Text: "1 cup flour", To: "g", Locale: enUS, Tag: "en-US", Properties: engine.PropertyQuery{Substance: "sugar"}},
			value: "200", unit: "g", text: "200 g",
			input: answer.Input{Text: "1 cup flour", Value: "1", Unit: "cup", Assumed: "cup: US customary cup (region US, from locale en)"}, to: "g"},
		{name: "the query's density lays over the ingredient's",
			q:     answer.Query{Form: answer.FormText, Text: "1 cup flour", To: "g", Locale: enUS, Tag: "en-US", Properties: engine.PropertyQuery{Density: "1 g/mL"}},
			value: "236.5882365", unit: "g", text: "236.588 g",
			input: answer.Input{Text: "1 cup flour", Value: "1", Unit: "cup", Assumed: "cup: US customary cup (region US, from locale en)"}, to: "g"},
		{name: "a portion is a measured mass: not exact",
			q:     answer.Query{Form: answer.FormText, Text: "1 stick butter", To: "g", Locale: enUS, Tag: "en-US"},
			value: "113", unit: "g", text: "113 g",
			input: answer.Input{Text: "1 stick butter", Value: "113", Unit: "g", Assumed: "1 stick butter = 113 g (catalog portion of butter)"}, to: "g"},
		{name: "shared properties",
			q:     answer.Query{Value: "100", From: "mg/dL", To: "mmol/L", Shared: glucose, SharedQuery: engine.PropertyQuery{Substance: "glucose"}},
			value: "5.550744909966917560336597171340394", unit: "mmol/L", input: answer.Input{Value: "100", Unit: "mg/dL"}, to: "mmol/L"},
		{name: "the query's own fields lay over the shared ones",
			q: answer.Query{Value: "100", From: "mg/dL", To: "mmol/L", Shared: glucose, SharedQuery: engine.PropertyQuery{Substance: "glucose"},
				Properties: engine.PropertyQuery{MolarMass: "200 g/mol"}},
			value: "5", unit: "mmol/L", input: answer.Input{Value: "100", Unit: "mg/dL"}, to: "mmol/L"},
	} {
		var fresh answer.Answer
		for _, a := range []*answer.Answer{&fresh, &reuse} {
			if err := answer.Run(g, &c.q, a); err != nil {
				t.Errorf("%s: %v", c.name, err)
				continue
			}
			value := string(a.Digits)
			if len(a.Result.Parts()) > 0 {
				value = engine.PartsText(a.Result.Parts())
				if len(a.Digits) > 0 {
					t.Errorf("%s: a mixed result with digits %q", c.name, a.Digits)
				}
			}
			if value != c.value || a.Result.Unit != c.unit || a.Text != c.text || a.Exact != c.exact || a.Input != c.input || a.To != c.to {
				t.Errorf("%s:\n got %s %s, text %q, exact %v, input %+v, to %q\nwant %s %s, text %q, exact %v, input %+v, to %q", c.name,
					value, a.Result.Unit, a.Text, a.Exact, a.Input, a.To, c.value, c.unit, c.text, c.exact, c.input, c.to)
			}
			if a.Result.Value != "" || a.Work != 0 && c.q.Form == answer.FormValue || a.Work == 0 && c.q.Form != answer.FormValue {
				t.Errorf("%s: Result.Value %q, work %d", c.name, a.Result.Value, a.Work)
			}
			if a.Explanation.Kind != "" {
				t.Errorf("%s: an explanation no one asked for: %+v", c.name, a.Explanation)
			}
		}
	}
}

// reuse is the Answer TestRun reuses from query to query.
var reuse answer.Answer

// TestRunErrors: what Run refuses is an *engine.Error with the API's code
// (and, for free text, the position in characters), or an
// *engine.FieldError naming a substance field; Input holds what was read
// and Work what reading cost.
func TestRunErrors(t *testing.T) {
	g := graph(t)
	for _, c := range []struct {
		name        string
		q           answer.Query
		code        engine.Code
		position    int
		candidates  []string
		suggestion  string
		field       string
		input       answer.Input
		readingCost bool
	}{
		{name: "a separator the locale does not use",
			q:    answer.Query{Form: answer.FormText, Text: "1,5 m", To: "cm"},
			code: engine.CodeInvalidQuantity, position: 2, input: answer.Input{Text: "1,5 m"}, readingCost: true},
		{name: "a unit that means several, with its candidates",
			q:    answer.Query{Form: answer.FormText, Text: "2 gallon", To: "L"},
			code: engine.CodeInvalidQuantity, position: 3, candidates: []string{"gal", "gal_imp"}, input: answer.Input{Text: "2 gallon"}, readingCost: true},
		{name: "an unknown unit, with suggestions",
			q:    answer.Query{Form: answer.FormText, Text: "5 fet", To: "m"},
			code: engine.CodeInvalidQuantity, position: 3, suggestion: "ft", input: answer.Input{Text: "5 fet"}, readingCost: true},
		{name: "a question without a target",
			q:    answer.Query{Form: answer.FormQuestion, Text: "5 ft"},
			code: engine.CodeInvalidQuantity, input: answer.Input{Text: "5 ft"}, readingCost: true},
		{name: "a question read, then refused by the engine",
			q:    answer.Query{Form: answer.FormQuestion, Text: "5 ft to kg"},
			code: engine.CodeIncompatibleUnits, input: answer.Input{Text: "5 ft to kg", Value: "5", Unit: "ft"}, readingCost: true},
		{name: "a value that does not parse",
			q:    answer.Query{Value: "abc", From: "ft", To: "m"},
			code: engine.CodeInvalidValue, input: answer.Input{Value: "abc", Unit: "ft"}},
		{name: "a unit expression that does not parse",
			q:    answer.Query{Value: "1", From: "kg*m/(s", To: "N"},
			code: engine.CodeInvalidUnitExpression, input: answer.Input{Value: "1", Unit: "kg*m/(s"}},
		{name: "an unknown usage of to=auto",
			q:    answer.Query{Value: "1", From: "m", To: engine.Auto, Usage: "bogus"},
			code: engine.CodeInvalidRequest, input: answer.Input{Value: "1", Unit: "m"}},
		{name: "an unknown substance",
			q:    answer.Query{Value: "1", From: "mg/dL", To: "mmol/L", Properties: engine.PropertyQuery{Substance: "nonesuch"}},
			code: engine.CodeUnknownSubstance, input: answer.Input{Value: "1", Unit: "mg/dL"}},
		{name: "a substance field that does not read",
			q:     answer.Query{Value: "1", From: "mg/dL", To: "mmol/L", Properties: engine.PropertyQuery{Density: "abc"}},
			field: "density", input: answer.Input{Value: "1", Unit: "mg/dL"}},
	} {
		var a answer.Answer
		err := answer.Run(g, &c.q, &a)
		if a.Input != c.input || (a.Work > 0) != c.readingCost {
			t.Errorf("%s: input %+v, work %d; want %+v, work > 0 %v", c.name, a.Input, a.Work, c.input, c.readingCost)
		}
		if c.field != "" {
			var fe *engine.FieldError
			if !errors.As(err, &fe) || fe.Field != c.field {
				t.Errorf("%s: %v, want a field error of %s", c.name, err, c.field)
			}
			continue
		}
		var e *engine.Error
		if !errors.As(err, &e) {
			t.Errorf("%s: %v (%T), want an *engine.Error", c.name, err, err)
			continue
		}
		switch {
		case e.Code != c.code:
			t.Errorf("%s: %v, want %s", c.name, e, c.code)
		case c.position > 0 && e.Position != c.position:
			t.Errorf("%s: at position %d, want %d: %v", c.name, e.Position, c.position, e)
		case c.candidates != nil && !slices.Equal(e.Candidates, c.candidates):
			t.Errorf("%s: candidates %v, want %v", c.name, e.Candidates, c.candidates)
		case c.suggestion != "" && !slices.Contains(e.Suggestions, c.suggestion):
			t.Errorf("%s: suggestions %v, want %s among them", c.name, e.Suggestions, c.suggestion)
		}
	}
}

// TestRunExplains: Explain asks for the explanation of the result, the
// one Graph.Explain gives.
func TestRunExplains(t *testing.T) {
	g := graph(t)
	q := answer.Query{Value: "12.5", From: "ft", To: "m", Explain: true}
	var a answer.Answer
	if err := answer.Run(g, &q, &a); err != nil {
		t.Fatal(err)
	}
	want := g.Explain(&a.Result)
	if a.Explanation.Factor != "0.3048" || !a.Explanation.FactorExact || a.Explanation.Kind != want.Kind || len(a.Explanation.Steps) != len(want.Steps) {
		t.Errorf("explanation %+v, want %+v", a.Explanation, want)
	}
}

// TestRunConcurrently: Run keeps the free-text options of each locale and
// graph it has seen (options.go); queries in several locales over two
// graphs at once, as a server's requests are, give the answers they give
// one at a time.
func TestRunConcurrently(t *testing.T) {
	g := graph(t)
	other, errs := catalog.LoadEmbedded()
	if len(errs) > 0 || other == g {
		t.Fatal("a second graph of the embedded catalog:", errs)
	}
	queries := []answer.Query{
		{Form: answer.FormText, Text: "12,5 Kilometer", To: "m", Locale: in(t, "de"), Tag: "de"},
		{Form: answer.FormText, Text: "1 pint", To: "mL", Locale: in(t, "en-GB"), Tag: "en-GB"},
		{Form: answer.FormText, Text: "1 pint", To: "mL", Locale: in(t, "en-US"), Tag: "en-US"},
		{Form: answer.FormQuestion, Text: "3 kilomètres to m", Locale: in(t, "fr"), Tag: "fr"},
		{Form: answer.FormText, Text: "1 1/2 cups flour", To: "g", Locale: in(t, "en-US"), Tag: "en-US"},
		{Form: answer.FormText, Text: "5 ft 3 in", To: "cm"},
		{Value: "161.29", From: "cm", To: "ft+in", Locale: in(t, "de"), Tag: "de", Width: locale.Long},
	}
	describe := func(a *answer.Answer, err error) string {
		if err != nil {
			return err.Error()
		}
		return string(a.Digits) + " " + engine.PartsText(a.Result.Parts()) + " " + a.Result.Unit + " " + a.Text + " " + a.Input.Assumed
	}
	want := make([]string, len(queries))
	for i := range queries {
		var a answer.Answer
		want[i] = describe(&a, answer.Run(g, &queries[i], &a))
	}
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			var a answer.Answer
			for round := range 20 {
				for i := range queries {
					q := queries[(i+w)%len(queries)]
					over := g
					if (round+w)%2 == 1 {
						over = other
					}
					if got := describe(&a, answer.Run(over, &q, &a)); got != want[(i+w)%len(queries)] {
						t.Errorf("worker %d, %s: %s, want %s", w, q.Text+q.Value, got, want[(i+w)%len(queries)])
						return
					}
				}
			}
		})
	}
	wg.Wait()
}
