package prefix

import (
	"reflect"
	"testing"
)

// TestSpellings: a prefixed unit is spelt by every symbol of the prefix
// before every symbol of the unit, its own symbol left out, and its
// aliases are the prefix's name before the unit's.
func TestSpellings(t *testing.T) {
	micro := Prefix{Symbol: "u", Symbols: []string{"µ", "μ"}, Name: "micro"}
	aliases, symbols := micro.Spellings("m", []string{"mtr"}, []string{"meter", "metre"}, "um")
	if want := []string{"micrometer", "micrometre"}; !reflect.DeepEqual(aliases, want) {
		t.Errorf("aliases %q, want %q", aliases, want)
	}
	if want := []string{"umtr", "µm", "µmtr", "μm", "μmtr"}; !reflect.DeepEqual(symbols, want) {
		t.Errorf("symbols %q, want %q", symbols, want)
	}
	kilo := Prefix{Symbol: "k", Name: "kilo"}
	if a, s := kilo.Spellings("g", nil, nil, "kg"); a != nil || s != nil {
		t.Errorf("kg: aliases %q, symbols %q, want none", a, s)
	}
}

// TestCodes: a prefixed unit's codes follow each system's spelling of
// prefixes, and none is made where the system prefixes otherwise.
func TestCodes(t *testing.T) {
	kilo := Prefix{Symbol: "k", Name: "kilo"}
	deca := Prefix{Symbol: "da", Name: "deca"}
	for _, c := range []struct {
		p      Prefix
		codeOf map[string]string
		want   map[string]string
	}{
		{kilo, map[string]string{"ucum": "m", "cldr": "meter", "qudt": "M"}, map[string]string{"ucum": "km", "cldr": "kilometer", "qudt": "KiloM"}},
		{deca, map[string]string{"cldr": "liter"}, map[string]string{"cldr": "dekaliter"}},
		{kilo, map[string]string{"ucum": "A/m", "cldr": "meter-per-second", "qudt": "PER-M"}, map[string]string{}},
		{kilo, map[string]string{"qudt": "A-PER-M"}, map[string]string{"qudt": "KiloA-PER-M"}},
		{kilo, nil, nil},
	} {
		if got := c.p.Codes(c.codeOf); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s of %v: %v, want %v", c.p.Name, c.codeOf, got, c.want)
		}
	}
}

// TestKnown: the sets know their own prefixes only.
func TestKnown(t *testing.T) {
	if !Known("si", "k") || !Known("binary", "Ki") || Known("si", "Ki") || Known("binary", "k") || Known("metric", "k") {
		t.Error("Known answers wrongly")
	}
}
