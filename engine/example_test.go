package engine_test

import (
	"fmt"

	"github.com/unitd/unitd/engine"
)

func ExampleGraph_Convert() {
	spec := engine.Spec{Categories: []engine.CategorySpec{{
		ID: "length", Name: "Length", Base: "m",
		Units: []engine.UnitSpec{
			{Symbol: "m", Name: "metre", Plural: "metres", System: "SI", Exact: true, Source: "SI Brochure"},
			{Symbol: "ft", Name: "foot", Plural: "feet", System: "international", Exact: true, Source: "NIST SP 811",
				Definition: engine.DefinitionSpec{Factor: "0.3048", Unit: "m"}},
			{Symbol: "yd", Name: "yard", Plural: "yards", System: "international", Exact: true, Source: "NIST SP 811",
				Definition: engine.DefinitionSpec{Factor: "3", Unit: "ft"}},
		},
	}}}
	g, errs := engine.Build(spec)
	if len(errs) > 0 {
		fmt.Println(errs)
		return
	}
	for _, req := range []engine.Request{
		{Value: "12.5", From: "ft", To: "m"},
		{Value: "1", From: "foot", To: "yards", Precision: 10},
		{Value: "3", From: "feet", To: "yd"},
	} {
		r, _ := g.Convert(req)
		fmt.Println(req.Value, req.From, "=", r.Value, r.To.Symbol, "exact:", r.Exact)
	}
	// Output:
	// 12.5 ft = 3.81 m exact: true
	// 1 foot = 0.3333333333 yd exact: false
	// 3 feet = 1 yd exact: true
}
