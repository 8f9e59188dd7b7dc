package tag

import (
	"errors"
	"testing"
)

// TestParse reads tags as BCP 47 and UTS #35 write them: subtags in any
// case, underscores, extended languages, variants, extensions, private
// use, grandfathered and deprecated codes, and subtags the registry
// lacks; and refuses what is not well-formed.
func TestParse(t *testing.T) {
	tests := []struct {
		in, base, script, region, ms, rg, mu, dropped string
	}{
		{in: "en", base: "en"},
		{in: "EN-gb", base: "en", region: "GB"},
		{in: "en_GB", base: "en", region: "GB"},
		{in: "zh-hant-tw", base: "zh", script: "Hant", region: "TW"},
		{in: "es-419", base: "es", region: "419"},
		{in: "sr-Latn-RS-u-ms-metric", base: "sr", script: "Latn", region: "RS", ms: "metric"},
		{in: "de-CH-1996-u-rg-atzzzz-x-foo", base: "de", region: "CH", rg: "atzzzz"},
		{in: "zh-cmn-Hans", base: "cmn", script: "Hans"},
		{in: "root", base: "und"},
		{in: "und-Latn", base: "und", script: "Latn"},
		{in: "en-a-bbb-u-mu-celsius", base: "en", mu: "celsius"},
		{in: "en-u-rg-uszzzz-ms-metric", base: "en", ms: "metric", rg: "uszzzz"},
		{in: "de-x-ms-ussystem", base: "de"},
		{in: "iw-IL", base: "he", region: "IL"},
		{in: "en-UK", base: "en", region: "GB"},
		{in: "xx", base: "und", dropped: "xx"},
		{in: "i-klingon", base: "tlh"},
	}
	for _, tt := range tests {
		tag, err := Parse(tt.in)
		if err != nil {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		got := [...]string{tag.Base(), tag.Script(), tag.Region(), tag.Unicode("ms"), tag.Unicode("rg"), tag.Unicode("mu"), tag.Dropped()}
		want := [...]string{tt.base, tt.script, tt.region, tt.ms, tt.rg, tt.mu, tt.dropped}
		if got != want {
			t.Errorf("%s: base, script, region, ms, rg, mu, dropped = %q, want %q", tt.in, got, want)
		}
	}
	for _, bad := range []string{"", "e", "en--GB", "en-GB-ü", "en-u", "a-b", "en-", "12", "en_US!", string(make([]byte, MaxLength+1))} {
		if _, err := Parse(bad); !errors.Is(err, ErrMalformed) {
			t.Errorf("%q: %v, want ErrMalformed", bad, err)
		}
	}
}

func TestParseRegion(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"GB", "GB", true}, {"gb", "GB", true}, {"uk", "GB", true}, {"840", "US", true},
		{"001", "001", true}, {"419", "419", true}, {"150", "150", true}, {"EU", "EU", true},
		{"XX", "", false}, {"ZZ", "", false}, {"999", "", false}, {"AA", "", false},
		{"GBR", "", false}, {"G", "", false}, {"4190", "", false}, {"1a", "", false}, {"", "", false},
	}
	for _, tt := range tests {
		got, ok := ParseRegion(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ParseRegion(%q) = %q %v, want %q %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestContains(t *testing.T) {
	tests := []struct {
		area, r string
		want    bool
	}{
		{"001", "419", true}, {"019", "419", true}, {"419", "MX", true}, {"150", "419", false},
		{"154", "NO", true}, {"150", "NO", true}, {"NO", "154", false}, {"GB", "GB", false},
	}
	for _, tt := range tests {
		if got := Contains(tt.area, tt.r); got != tt.want {
			t.Errorf("Contains(%s, %s) = %v, want %v", tt.area, tt.r, got, tt.want)
		}
	}
}
