package prefix

import (
	"strings"

	"github.com/unitd/unitd/engine/codes"
)

// Known reports whether symbol is a prefix of the set named set.
func Known(set, symbol string) bool { return known[set][symbol] }

// known is the symbols of each prefix set.
var known = func() map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for name, set := range Sets {
		out[name] = map[string]bool{}
		for _, p := range set {
			out[name][p.Symbol] = true
		}
	}
	return out
}()

// Spellings returns the aliases of a unit under the prefix p (p's name
// before each of the unit's aliases), and the symbols of the prefixed
// unit but its own, symbol: every symbol of p before every symbol of the
// unit (its symbol u, then its further symbols us). Each is nil when it
// has none; their strings share one allocation.
func (p Prefix) Spellings(u string, us, unitAliases []string, symbol string) (aliases, symbols []string) {
	np, nu := 1+len(p.Symbols), 1+len(us)
	pair := func(i, j int) (string, string) { // the first of each is its symbol
		ps, s := p.Symbol, u
		if i > 0 {
			ps = p.Symbols[i-1]
		}
		if j > 0 {
			s = us[j-1]
		}
		return ps, s
	}
	size := len(unitAliases) * len(p.Name)
	for _, a := range unitAliases {
		size += len(a)
	}
	for i := range np {
		for j := range nu {
			ps, s := pair(i, j)
			size += len(ps) + len(s)
		}
	}
	var buf strings.Builder
	buf.Grow(size)
	ends := make([]int, 0, len(unitAliases)+np*nu)
	for _, a := range unitAliases {
		buf.WriteString(p.Name)
		buf.WriteString(a)
		ends = append(ends, buf.Len())
	}
	for i := range np {
		for j := range nu {
			ps, s := pair(i, j)
			buf.WriteString(ps)
			buf.WriteString(s)
			ends = append(ends, buf.Len())
		}
	}
	all, start := buf.String(), 0
	next := func(k int) string {
		s := all[start:ends[k]]
		start = ends[k]
		return s
	}
	if len(unitAliases) > 0 {
		aliases = make([]string, len(unitAliases))
		for k := range aliases {
			aliases[k] = next(k)
		}
	}
	for k := len(unitAliases); k < len(ends); k++ {
		if s := next(k); s != symbol {
			if symbols == nil {
				symbols = make([]string, 0, len(ends)-k)
			}
			symbols = append(symbols, s)
		}
	}
	return aliases, symbols
}

// Codes derives a prefixed unit's codes from its unit's, codeOf: UCUM
// and CLDR write prefixes as unitd does (symbol, name); QUDT capitalises
// the name and, in a compound unit, prefixes its first part, as unitd's
// prefixed compound units do (kA/m is KiloA-PER-M). Build keeps those the
// tables confirm.
func (p Prefix) Codes(codeOf map[string]string) map[string]string {
	if len(codeOf) == 0 {
		return nil
	}
	out := map[string]string{}
	if c, ok := codeOf[codes.SystemUCUM]; ok && !strings.ContainsAny(c, "./") {
		out[codes.SystemUCUM] = p.Symbol + c
	}
	if c, ok := codeOf[codes.SystemCLDR]; ok && !strings.Contains(c, "-") {
		name := p.Name
		if name == "deca" {
			name = "deka"
		}
		out[codes.SystemCLDR] = name + c
	}
	if c, ok := codeOf[codes.SystemQUDT]; ok && !strings.HasPrefix(c, "PER-") {
		out[codes.SystemQUDT] = strings.ToUpper(p.Name[:1]) + p.Name[1:] + c
	}
	return out
}
