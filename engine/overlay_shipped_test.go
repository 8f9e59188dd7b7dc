package engine_test

import (
	"errors"
	"fmt"
	"strconv"
	"testing"

	"github.com/unitd/unitd/engine"
)

// accountSpec is an account's units as the tests define them: n linear
// units of length, each with a worked example, the first the smoot.
func accountSpec(n int, smoot string) engine.Spec {
	units := make([]engine.UnitSpec, 0, n)
	for i := range n {
		sym, factor := "acct"+strconv.Itoa(i), strconv.Itoa(i+1)+".25"
		if i == 0 {
			sym, factor = "smoot", smoot
		}
		o := engine.Origin{File: sym, Line: 1, Column: 1}
		units = append(units, engine.UnitSpec{
			Symbol: sym, Name: sym + " unit", Plural: sym + " units", System: "account", Exact: true, Source: "test account",
			Definition: engine.DefinitionSpec{Factor: factor, Unit: "m", Origin: o},
			Examples:   []engine.ExampleSpec{{Value: "1", From: sym, To: "m", Result: factor, Origin: o}},
			Origin:     o,
		})
	}
	return engine.Spec{Categories: []engine.CategorySpec{{ID: "length", Units: units}}}
}

func overlayOf(t testing.TB, base *engine.Graph, spec engine.Spec) *engine.Graph {
	t.Helper()
	g, errs := engine.Overlay(base, spec, engine.OverlayOptions{Lenient: true})
	if len(errs) > 0 || g == nil {
		t.Fatalf("overlay: %v", errs)
	}
	return g
}

// TestAccountAuto converts from account units to the unit people use,
// through the catalog's preferences, in turns with another account whose
// smoot differs and with the catalog's graph, so that a choice cached
// for one name in one account would show in the other.
func TestAccountAuto(t *testing.T) {
	base := shipped(t)
	a := overlayOf(t, base, accountSpec(1, "1.7018"))
	b := overlayOf(t, base, accountSpec(1, "1000"))
	for range 2 {
		for _, tt := range []struct {
			g          *engine.Graph
			from, want string
		}{
			{a, "smoot", "1.7018 m"},
			{b, "smoot", "1 km"},
			{a, "my:smoot", "1.7018 m"},
			{b, "my:smoot", "1 km"},
			{a, "m", "1 m"},
		} {
			res, err := tt.g.Convert(engine.Request{Value: "1", From: tt.from, To: engine.Auto, Region: "001"})
			if err != nil {
				t.Fatalf("1 %s → auto: %v", tt.from, err)
			}
			if got := res.Value + " " + res.Unit; got != tt.want {
				t.Errorf("1 %s → auto = %s, want %s", tt.from, got, tt.want)
			}
			if tt.from != "m" && (res.From == nil || res.From.Symbol != "my:smoot" || res.Preference() == nil) {
				t.Errorf("1 %s → auto: from %v, preference %v", tt.from, res.From, res.Preference())
			}
		}
		_, err := base.Convert(engine.Request{Value: "1", From: "smoot", To: engine.Auto})
		var e *engine.Error
		if !errors.As(err, &e) || e.Code != engine.CodeUnknownUnit {
			t.Errorf("catalog graph, smoot → auto: %v", err)
		}
	}
	// US person heights come in feet and inches.
	res, err := a.Convert(engine.Request{Value: "1", From: "smoot", To: engine.Auto, Usage: "person-height", Region: "US"})
	if err != nil || res.Unit != "ft+in" || len(res.Parts()) != 2 || res.Parts()[0].Value != "5" {
		t.Errorf("1 smoot → auto (person-height, US) = %+v, %v", res, err)
	}
}

// TestAccountExplainShipped explains a conversion through an account's
// unit on the shipped catalog.
func TestAccountExplainShipped(t *testing.T) {
	a := overlayOf(t, shipped(t), accountSpec(1, "1.7018"))
	res, err := a.Convert(engine.Request{Value: "364.4", From: "smoot", To: "ft", Precision: 6})
	if err != nil {
		t.Fatal(err)
	}
	if res.Value != "2034.57" || res.Exact {
		t.Errorf("364.4 smoot = %s ft exact=%v", res.Value, res.Exact)
	}
	ex := a.Explain(&res)
	if ex.Steps[0].Unit != "my:smoot" || ex.Steps[0].Definition != "1 my:smoot = 1.7018 m" || ex.Steps[0].Source != "test account" {
		t.Errorf("first step %+v", ex.Steps[0])
	}
}

// BenchmarkAccountConvert times a warm conversion through an account's
// unit against the same through a catalog unit: ft → m on the catalog's
// graph, acct_ft (an account's unit of 0.3048 m) → m on the account's,
// and ft → m on the account's (what an account's graph costs the
// catalog's names).
func BenchmarkAccountConvert(b *testing.B) {
	base := shippedBench(b)
	spec := accountSpec(1000, "1.7018")
	spec.Categories[0].Units[1].Definition.Factor = "0.3048"
	spec.Categories[0].Units[1].Examples[0].Result = "0.3048"
	acct := overlayOf(b, base, spec)
	for _, c := range []struct {
		name string
		g    *engine.Graph
		from string
	}{
		{"catalog_unit", base, "ft"},
		{"account_unit", acct, "acct1"},
		{"account_unit_my", acct, "my:acct1"},
		{"catalog_unit_on_account_graph", acct, "ft"},
	} {
		b.Run(c.name, func(b *testing.B) {
			req := engine.Request{Value: "12.5", From: c.from, To: "m"}
			var res engine.Result
			buf := make([]byte, 0, 64)
			if _, err := c.g.AppendConvert(buf, &req, &res); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				c.g.AppendConvert(buf[:0], &req, &res)
			}
		})
	}
}

// BenchmarkAccountFirstConversion times what the first conversion after
// a change to an account of n units costs: the account's graph compiled
// again from the one before (changed/), the way a server does, or from
// nothing (cold/, a server that has not served the account yet), and
// one conversion through the changed unit.
func BenchmarkAccountFirstConversion(b *testing.B) {
	base := shippedBench(b)
	for _, from := range []string{"changed", "cold"} {
		for _, n := range []int{10, 100, 1000} {
			b.Run(fmt.Sprintf("%s/units=%d", from, n), func(b *testing.B) {
				spec := accountSpec(n, "1.7018")
				units := spec.Categories[0].Units
				prev := overlayOf(b, base, spec)
				i := 0
				b.ReportAllocs()
				for b.Loop() {
					// The change: one unit's factor, and its example.
					i++
					f := strconv.Itoa(i%9+1) + ".5"
					units[n/2].Definition.Factor, units[n/2].Examples[0].Result = f, f
					opt := engine.OverlayOptions{Lenient: true}
					if from == "changed" {
						opt.Previous = prev
					}
					g, errs := engine.Overlay(base, spec, opt)
					if len(errs) > 0 {
						b.Fatal(errs)
					}
					res, err := g.Convert(engine.Request{Value: "1", From: units[n/2].Symbol, To: "m"})
					if err != nil || res.Value != f {
						b.Fatal(res.Value, err)
					}
					prev = g
				}
			})
		}
	}
}
