package apikey

import (
	"fmt"
	"slices"
	"strings"
)

// Scopes
//
// Every valid key converts and reads (discovery, its account's units). A
// scope lets it do more; a key has none unless it was given some when it
// was created, and a rotated key's successor has the scopes it had.

// ScopeUnitsWrite lets a key change its account's units (PUT and DELETE
// under /v1/account/units).
const ScopeUnitsWrite = "units:write"

// Scopes lists every scope, sorted.
var Scopes = []string{ScopeUnitsWrite}

// Allows reports whether the key's scopes include scope.
func (r Record) Allows(scope string) bool { return slices.Contains(r.Scopes, scope) }

// NormalizeScopes checks scopes and returns them sorted, each once; nil
// for none. An unknown scope is an error naming the known ones.
func NormalizeScopes(scopes []string) ([]string, error) {
	var out []string
	for _, s := range scopes {
		if !slices.Contains(Scopes, s) {
			return nil, fmt.Errorf("unknown scope %q (known: %s)", truncateScope(s), strings.Join(Scopes, ", "))
		}
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out, nil
}

// ParseScopes splits a list of scopes written with spaces or commas
// between them ("units:write"), as a store keeps them and a flag takes
// them, and normalizes it.
func ParseScopes(s string) ([]string, error) {
	return NormalizeScopes(strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }))
}

// FormatScopes writes scopes as a store keeps them: space-separated.
func FormatScopes(scopes []string) string { return strings.Join(scopes, " ") }

func truncateScope(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
