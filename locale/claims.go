package locale

import (
	"strings"
	"sync"

	"github.com/unitd/unitd/catalog"
	"github.com/unitd/unitd/engine"
)

// Which CLDR unit a catalog unit is, is the catalog's claim: the unit's
// codes' cldr ("ft" claims foot). The data holds CLDR's patterns of every
// CLDR unit and no table of its own, so a catalog that claims more (or
// is reloaded) is written with them at once.

// Claims is what the package reads of a catalog: which CLDR unit each of
// its units claims.
type Claims interface {
	// Claim returns the CLDR unit identifier the catalog unit symbol
	// claims ("" when it claims none), and false when the catalog has no
	// unit of that symbol.
	Claim(symbol string) (id string, ok bool)
	// Claimant returns the symbol of the catalog unit that claims the
	// CLDR unit id, or "".
	Claimant(id string) string
}

// GraphClaims reads the claims of a compiled catalog.
func GraphClaims(g *engine.Graph) Claims { return graphClaims{g} }

type graphClaims struct{ g *engine.Graph }

func (c graphClaims) Claim(symbol string) (string, bool) {
	u, _ := c.g.Find(symbol)
	if u == nil || u.Symbol != symbol {
		return "", false
	}
	return u.Codes[engine.SystemCLDR], true
}

func (c graphClaims) Claimant(id string) string {
	u, _, err := c.g.Resolve(engine.SystemCLDR + ":" + id)
	if err != nil || u == nil || u.Codes[engine.SystemCLDR] != id {
		return ""
	}
	return u.Symbol
}

// embedded are the claims of the embedded catalog, compiled on first use
// by a Locale that was given no other (In).
var embedded = sync.OnceValue(func() Claims {
	g, errs := catalog.Load(catalog.Embedded())
	if len(errs) > 0 || g == nil {
		return noClaims{}
	}
	return GraphClaims(g)
})

type noClaims struct{}

func (noClaims) Claim(string) (string, bool) { return "", false }
func (noClaims) Claimant(string) string      { return "" }

// unitID is the CLDR unit identifier of a catalog symbol: the claim of
// its unit, or, for a unit (or expression) written as the quotient of two
// units that claim CLDR units ("km/h": kilometer and hour) and claims
// none itself, CLDR's compound of them ("kilometer-per-hour", UTS #35
// Part 6's identifier syntax). "" when CLDR names neither.
func unitID(c Claims, symbol string) string {
	if id, ok := c.Claim(symbol); id != "" || (ok && !strings.Contains(symbol, "/")) {
		return id
	}
	num, den, ok := strings.Cut(symbol, "/")
	if !ok || strings.Contains(den, "/") {
		return ""
	}
	a, _ := c.Claim(num)
	b, _ := c.Claim(den)
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
	if s := c.Claimant(id); s != "" {
		return s
	}
	a, b, ok := strings.Cut(id, "-per-")
	if !ok {
		return ""
	}
	sa, sb := c.Claimant(a), c.Claimant(b)
	if sa == "" || sb == "" {
		return ""
	}
	sym := sa + "/" + sb
	if _, ok := c.Claim(sym); !ok || unitID(c, sym) != id {
		return ""
	}
	return sym
}
