package locale

import "strings"

// Which CLDR unit a catalog unit is, is the catalog's claim: the unit's
// codes' cldr ("ft" claims foot). The data holds CLDR's patterns of every
// CLDR unit and no table of its own, so a catalog that claims more (or
// is reloaded) is written with them at once.

// Claims is what the package reads of a catalog: which CLDR unit each of
// its units claims. *engine.Graph has it.
type Claims interface {
	// CLDRClaim returns the CLDR unit identifier the catalog unit symbol
	// claims ("" when it claims none), and false when the catalog has no
	// unit of that symbol.
	CLDRClaim(symbol string) (id string, ok bool)
	// CLDRClaimant returns the symbol of the catalog unit that claims the
	// CLDR unit id, or "".
	CLDRClaimant(id string) string
}

type noClaims struct{}

func (noClaims) CLDRClaim(string) (string, bool) { return "", false }
func (noClaims) CLDRClaimant(string) string      { return "" }

// unitID is the CLDR unit identifier of a catalog symbol: the claim of
// its unit, or, for a unit (or expression) written as the quotient of two
// units that claim CLDR units ("km/h": kilometer and hour) and claims
// none itself, CLDR's compound of them ("kilometer-per-hour", UTS #35
// Part 6's identifier syntax). "" when CLDR names neither.
func unitID(c Claims, symbol string) string {
	if id, ok := c.CLDRClaim(symbol); id != "" || (ok && !strings.Contains(symbol, "/")) {
		return id
	}
	num, den, ok := strings.Cut(symbol, "/")
	if !ok || strings.Contains(den, "/") {
		return ""
	}
	a, _ := c.CLDRClaim(num)
	b, _ := c.CLDRClaim(den)
	if a == "" || b == "" || strings.Contains(a, "-per-") || strings.Contains(b, "-per-") {
		return ""
	}
	return a + "-per-" + b
}

// claimant is the catalog symbol of a CLDR unit identifier: the unit that
// claims it, or the catalog unit written as the quotient of the units
// claiming its numerator and denominator (unitID's inverse); "" when the
// catalog has none.
func claimant(c Claims, id string) string {
	if s := c.CLDRClaimant(id); s != "" {
		return s
	}
	a, b, ok := strings.Cut(id, "-per-")
	if !ok {
		return ""
	}
	sa, sb := c.CLDRClaimant(a), c.CLDRClaimant(b)
	if sa == "" || sb == "" {
		return ""
	}
	sym := sa + "/" + sb
	if _, ok := c.CLDRClaim(sym); !ok || unitID(c, sym) != id {
		return ""
	}
	return sym
}
