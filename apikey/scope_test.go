package apikey

import (
	"slices"
	"strings"
	"testing"
)

func TestScopes(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
		err  string
	}{
		{"", nil, ""},
		{"units:write", []string{"units:write"}, ""},
		{"units:write, units:write", []string{"units:write"}, ""},
		{"units:write admin", nil, `unknown scope "admin" (known: units:write)`},
		{"Units:Write", nil, "unknown scope"},
	} {
		got, err := ParseScopes(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseScopes(%q) = %v, %v; want an error containing %q", tt.in, got, err, tt.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("ParseScopes(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	r := Record{Scopes: []string{ScopeUnitsWrite}}
	if !r.Allows(ScopeUnitsWrite) || (Record{}).Allows(ScopeUnitsWrite) {
		t.Error("Allows")
	}
}
