package catalog

import (
	"testing"

	"github.com/unitd/unitd/engine"
)

func TestEmbeddedCatalogCompiles(t *testing.T) {
	g, errs := Load(Embedded())
	for _, err := range errs {
		t.Error(err)
	}
	if g == nil {
		t.Fatal("no graph")
	}
	for _, c := range []struct{ v, from, to string }{
		{"1", "ft", "yd"}, {"3", "ft", "yd"}, {"0.1", "ft", "in"}, {"100", "degF", "degC"}, {"10", "L/100km", "mpg"}, {"-500", "degC", "K"}, {"0", "L/100km", "km/L"}, {"1", "gallon", "L"}, {"5", "Meters", "FEET"}, {"1", "µm", "m"},
	} {
		r, err := g.Convert(engine.Request{Value: c.v, From: c.from, To: c.to})
		t.Logf("%s %s -> %s: %+v %v", c.v, c.from, c.to, r.Value+" exact="+map[bool]string{true: "y", false: "n"}[r.Exact], err)
	}
}
