package answer

import (
	"testing"

	"github.com/unitd/unitd/catalog"
	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/locale"
)

// TestOverlaysShareTheirCatalogsKitchen: free text over overlays made one
// per request, as a request's definitions make them, reads foods through
// the catalog's pantry and answers as the catalog does, and the table of
// pantries holds catalogs only, however many overlays came and went.
func TestOverlaysShareTheirCatalogsKitchen(t *testing.T) {
	g, errs := catalog.LoadEmbedded()
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	us, err := locale.Match("en-US")
	if err != nil {
		t.Fatal(err)
	}
	q := Query{Form: FormText, Text: "1 1/2 cups flour", To: "g", Locale: us, Tag: "en-US"}
	var want Answer
	if err := Run(g, &q, &want); err != nil {
		t.Fatal(err)
	}
	for i := range 40 {
		spec := engine.Spec{Categories: []engine.CategorySpec{{ID: "length", Units: []engine.UnitSpec{{
			Symbol: "smoot", Name: "smoot", Plural: "smoots", System: "other", Source: "a request", Exact: true,
			Definition: engine.DefinitionSpec{Unit: "cm", Factor: "170.18"},
		}}}}}
		ov, errs := engine.Overlay(g, spec, engine.OverlayOptions{Version: string(rune('a' + i%26))})
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		var got Answer
		if err := Run(ov, &q, &got); err != nil {
			t.Fatalf("overlay %d: %v", i, err)
		}
		if got.Result.Value != want.Result.Value || got.Result.Unit != want.Result.Unit || got.Input != want.Input {
			t.Fatalf("overlay %d: %s %s from %+v, want %s %s from %+v", i, got.Result.Value, got.Result.Unit, got.Input, want.Result.Value, want.Result.Unit, want.Input)
		}
	}
	for i := range kitchens.slots {
		if k := kitchens.slots[i].Load(); k != nil {
			if eg, ok := k.g.(*engine.Graph); !ok || eg.Catalog() != eg {
				t.Errorf("slot %d holds the pantry of %T %p, not a catalog's", i, k.g, k.g)
			}
		}
	}
}
