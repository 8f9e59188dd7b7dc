package spec

import (
	"reflect"
	"testing"

	"github.com/unitd/unitd/engine/prefix"
)

// TestSameUnitSeesEveryField changes each field of a unit spec in
// turn: SameUnit must tell every change apart, or a compilation
// would reuse a unit whose definition changed.
func TestSameUnitSeesEveryField(t *testing.T) {
	base := Unit{Symbol: "smoot", Name: "smoot", Definition: Definition{Factor: "1.7018", Unit: "m"},
		Examples: []Example{{Value: "1", From: "smoot", To: "m", Result: "1.7018"}}, Prefixes: &Prefix{Set: "si"}}
	v := reflect.ValueOf(&base).Elem()
	for i := range v.NumField() {
		changed := *base.Clone()
		f := reflect.ValueOf(&changed).Elem().Field(i)
		name := v.Type().Field(i).Name
		switch f.Kind() {
		case reflect.String:
			f.SetString(f.String() + "x")
		case reflect.Bool:
			f.SetBool(!f.Bool())
		case reflect.Slice:
			f.Set(reflect.Append(f, reflect.Zero(f.Type().Elem())))
		case reflect.Map:
			f.Set(reflect.MakeMapWithSize(f.Type(), 1))
			f.SetMapIndex(reflect.ValueOf("ucum"), reflect.ValueOf("x"))
		case reflect.Pointer:
			f.Set(reflect.Zero(f.Type()))
		case reflect.Struct:
			f.Field(0).SetString(f.Field(0).String() + "x")
		default:
			t.Fatalf("field %s: kind %s not handled here", name, f.Kind())
		}
		if SameUnit(&base, &changed) {
			t.Errorf("SameUnit misses a change of %s", name)
		}
	}
	if !SameUnit(&base, base.Clone()) {
		t.Error("a copy differs")
	}
}

// TestCountUnits: a unit counts once with its symbol, name, plural,
// symbols and aliases, and once more under each prefix it takes, with
// every spelling of the prefix before every symbol of the unit.
func TestCountUnits(t *testing.T) {
	si := len(prefix.Sets["si"])
	cats := []Category{{Units: []Unit{
		{Symbol: "m", Symbols: []string{"mtr"}, Aliases: []string{"meter"}, Prefixes: &Prefix{Set: "si", Except: []string{"k"}}},
		{Symbol: "ft"},
	}}, {Units: []Unit{{Symbol: "B", Prefixes: &Prefix{Set: "binary", Only: []string{"Ki", "Mi"}}}}}}
	units, names := CountUnits(cats)
	if want := 1 + (si - 1) + 1 + 1 + 2; units != want {
		t.Errorf("%d units, want %d", units, want)
	}
	// m: 3 + 1 + 1; each prefix but k: its spellings × 2 symbols, a name,
	// a plural and the alias; ft: 3; B: 3, and 2 × (1 × 1 + 2).
	wantNames := 5 + 3 + 3 + 2*3
	for _, p := range prefix.Sets["si"] {
		if p.Symbol != "k" {
			wantNames += (1+len(p.Symbols))*2 + 2 + 1
		}
	}
	if names != wantNames {
		t.Errorf("%d names, want %d", names, wantNames)
	}
}
