package engine

import (
	"strconv"
	"strings"
	"sync"

	"github.com/unitd/unitd/engine/claim"
	"github.com/unitd/unitd/engine/codes"
	"github.com/unitd/unitd/engine/codeunit"
	"github.com/unitd/unitd/engine/dimension"
	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/internal/cache"
	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/internal/suggest"
)

// Standard unit codes
//
// Wherever a unit is accepted, "<system>:<code>" names a unit of one of
// four code systems (package codes): ucum:, cldr:, unece: and qudt:
// (also written as a QUDT IRI). There is one identity: a code that a
// catalog unit claims (UnitSpec.Codes, checked by Build against the
// system's table) is that unit, whatever the table says; any other code
// means its owner's definition, read by package codes into unitd's
// dimension model and made an expression of its dimension here (or, for a
// UCUM special unit, a unit of its function). unece: has no definitions of
// its own: it reads the codes the catalog claims.

// The code systems, as written before the colon.
const (
	SystemUCUM  = codes.SystemUCUM
	SystemCLDR  = codes.SystemCLDR
	SystemUNECE = codes.SystemUNECE
	SystemQUDT  = codes.SystemQUDT
)

// CodeSystems lists the code systems in the order unit records print them.
var CodeSystems = codes.Systems

// CodeTables are the standard code systems' tables, compiled (package
// codes); Build checks the catalog's claims against them.
type CodeTables = codes.Set

// SplitCode splits a namespaced unit name into its system (in lower case)
// and code (see codes.Split).
func SplitCode(name string) (system, code string, ok bool) { return codes.Split(name) }

// codeIndex is the code tables of a graph and the catalog's claims on
// them.
type codeIndex struct {
	// set is the code tables, or nil (read through tables()). A restored
	// graph compiles them on their first use, with compile.
	set     *codes.Set
	setOnce sync.Once
	compile func() *codes.Set
	// claimed maps a system and a code to the catalog unit claiming it
	// (claimedMap).
	claimed map[string]map[string]*Unit
	// unclaimed maps a system and a code the catalog keeps unclaimed to
	// its reason (UnclaimedCodeSpec; unclaimedMap).
	unclaimed map[string]map[string]string
	// decodeClaims gives the two maps on their first use in a restored
	// graph.
	decodeClaims func() (map[string]map[string]*Unit, map[string]map[string]string)
	claimsOnce   sync.Once
	// resolved caches resolutions of namespaced names, against the
	// process's cache budget.
	resolved *cache.Map[string, side]
	// near suggests unece codes among those the catalog claims, built on
	// the first unknown one.
	near     suggest.Index
	nearOnce sync.Once
}

// claimedMap returns the claims on codes, by system and code, decoding
// them first in a restored graph.
func (c *codeIndex) claimedMap() map[string]map[string]*Unit {
	c.decodedClaims()
	return c.claimed
}

// unclaimedMap returns the codes kept unclaimed with their reasons, by
// system and code, decoding them first in a restored graph.
func (c *codeIndex) unclaimedMap() map[string]map[string]string {
	c.decodedClaims()
	return c.unclaimed
}

func (c *codeIndex) decodedClaims() {
	if c.decodeClaims != nil {
		c.claimsOnce.Do(func() { c.claimed, c.unclaimed = c.decodeClaims() })
	}
}

// tables returns the code tables, compiling them first if they are
// deferred.
func (c *codeIndex) tables() *codes.Set {
	if c.compile != nil {
		c.setOnce.Do(func() { c.set = c.compile() })
	}
	return c.set
}

func (c *codeIndex) cached(name string) (side, bool) {
	return c.resolved.Get(name)
}

func (c *codeIndex) remember(name string, s side) {
	k := strings.Clone(name)
	c.resolved.Put(k, s, int64(len(k))+256)
}

// Claim says what the catalog unit claiming a code is (codes.Claims).
func (g *Graph) Claim(system, code string) (codes.Claim, bool) {
	u := g.codes.claimedMap()[system][code]
	if u == nil || u.SI == nil {
		return codes.Claim{}, false
	}
	hasOffset := false
	if u.SI.Map != nil {
		if _, o, ok := u.SI.Map.Affine(); ok && o.Sign() != 0 {
			hasOffset = true
		}
	}
	return codes.Claim{Symbol: u.Symbol, Factor: u.Coherent, Dim: u.Category.Dim, Exact: u.Exact && u.Conv.Exact, Offset: hasOffset}, true
}

// CodeSource says where the graph's table of a code system comes from,
// or "" when it has none.
func (g *Graph) CodeSource(system string) string {
	set := g.codes.tables()
	if set == nil {
		return ""
	}
	return set.Source(system)
}

// resolveCode resolves a namespaced name; ok is false when name names no
// code system at all.
func (g *Graph) resolveCode(name string) (s side, err error, ok bool) {
	system, code, ok := codes.Split(name)
	if !ok {
		return side{}, nil, false
	}
	if s, hit := g.codes.cached(name); hit {
		return s, nil, true
	}
	if u := g.claimant(system, code); u != nil {
		s = side{unit: u}
	} else {
		s, err = g.readCode(name, system, code)
	}
	if err != nil {
		return side{}, err, true
	}
	g.codes.remember(name, s)
	return s, nil, true
}

// claimant is the catalog unit that claims a code, or the code it is
// another name of (codes.Set.SameUnit: a deprecated code's replacement,
// the plain unit of a CLDR person unit), or nil.
func (g *Graph) claimant(system, code string) *Unit {
	if u := g.codes.claimedMap()[system][code]; u != nil {
		return u
	}
	set := g.codes.tables()
	if set == nil {
		return nil
	}
	if r, ok := set.SameUnit(system, code); ok {
		return g.codes.claimedMap()[system][r]
	}
	return nil
}

// cldrTarget is what a CLDR unit identifier names in the catalog, for the
// unit preferences: the catalog unit that claims it (claimant), else its
// CLDR definition read through the catalog's units, written with the
// symbols of the units that claim its parts (centimeter-per-hour is cm/h).
func (g *Graph) cldrTarget(id string) (side, error) {
	s, err, _ := g.resolveCode(SystemCLDR + ":" + id)
	return s, err
}

// readCode reads a code that no catalog unit claims.
func (g *Graph) readCode(name, system, code string) (side, error) {
	switch system {
	case SystemUCUM, SystemCLDR, SystemQUDT:
	case SystemUNECE:
		e := g.unknownCode(system, code)
		if exists, _ := g.codes.tables().Exists(code); exists {
			e.Message = "UN/ECE Recommendation 20 code " + code + " names no unit of the catalog" + strings.TrimPrefix(e.Message, "unknown unece code "+strconv.Quote(fault.Truncate(code, 64)))
		}
		return side{}, e
	default:
		e := errorf(CodeUnknownUnit, "unknown unit system %q in %q: the systems are %s", fault.Truncate(system, 64), fault.Truncate(name, 64), strings.Join(CodeSystems, ", "))
		if !strings.Contains(code, "://") {
			for _, sys := range CodeSystems {
				e.Suggestions = append(e.Suggestions, sys+":"+fault.Truncate(code, 64))
			}
		}
		return side{}, e
	}
	set := g.codes.tables()
	if set == nil {
		return side{}, errorf(CodeUnknownUnit, "unknown unit %q: this catalog has no code tables", fault.Truncate(name, 64))
	}
	m, err := set.Read(system, code, g)
	if err != nil {
		return side{}, err
	}
	written := system + ":" + code
	if m.Special != nil {
		u, err := codeunit.Special(codeCatalog{g}, written, m.Special)
		return side{unit: u}, err
	}
	if m.ScaleOf != "" {
		u, err := codeunit.PrefixedScale(codeCatalog{g}, written, system, m)
		return side{unit: u}, err
	}
	symbol := m.Symbol
	if symbol == "" {
		symbol = written
	}
	e, err := codeunit.Expression(codeCatalog{g}, symbol, written, m)
	return side{expr: e}, err
}

// unknownCode is UNKNOWN_UNIT for a code of a known system, with up to
// five suggestions from the system's table, or, for unece, among the
// codes the catalog claims.
func (g *Graph) unknownCode(system, code string) *Error {
	e := errorf(CodeUnknownUnit, "unknown %s code %s", system, strconv.Quote(fault.Truncate(code, 64)))
	if system == SystemUNECE {
		g.codes.nearOnce.Do(func() {
			for c := range g.codes.claimedMap()[SystemUNECE] {
				g.codes.near.Add(c, SystemUNECE+":"+c)
			}
		})
		e.Suggestions = g.codes.near.Suggest(code, 5)
	} else if set := g.codes.tables(); set != nil {
		e.Suggestions = set.Suggest(system, code)
	}
	if len(e.Suggestions) > 0 {
		e.Message += "; did you mean " + strings.Join(e.Suggestions, ", ") + "?"
	}
	return e
}

// function name → *formula.Pair

// checkArbitrary refuses a conversion between arbitrary units that are
// not the same unit (under another prefix), and between an arbitrary unit
// and anything else.
func checkArbitrary(from, to side) *Error {
	fa, ta := "", ""
	if from.expr != nil {
		fa = from.expr.Arbitrary
	}
	if to.expr != nil {
		ta = to.expr.Arbitrary
	}
	if fa == ta {
		return nil
	}
	arb, which := fa, from.symbol()
	if arb == "" {
		arb, which = ta, to.symbol()
	}
	e := errorf(CodeIncompatibleUnits, "cannot convert %s to %s: %s is an arbitrary unit (%s), which converts only to the same unit under another prefix",
		from.symbol(), to.symbol(), which, arb)
	e.Details = dimensionDetails(from.dim(), to.dim())
	return e
}

// linearUnits are the units that can claim a code of a linear or affine
// unit, by dimension (claim.ByDimension).
func (g *Graph) linearUnits() map[dimension.Vector][]*claim.Claimant {
	return claim.ByDimension(g.units, accelerated())
}

// codeStep says what a code that no catalog unit claims means: its
// factor by its system's table and where the table comes from, the
// convention it was read by, and, when a catalog unit has the code's
// spelling but another factor, that the two differ (UCUM's eV goes
// through an older value of the elementary charge).
func (g *Graph) codeStep(e *Expression) Step {
	system, code, _ := codes.Split(e.Code)
	f, ok := exact.FactorText(e.Coherent)
	s := Step{Unit: e.Code, Exact: ok && e.Conv.Exact, Source: g.codes.tables().Source(system),
		Definition: "1 " + e.Code + " = " + f + " " + e.Dim.SIText() + " (as the " + strings.ToUpper(system) + " table defines it)"}
	if e.Note != "" {
		s.Definition += "; " + e.Note
	}
	if u, ok := g.bySymbol.Get(code); ok && u.Category.Dim == e.Dim && u.Coherent.R != nil && u.Coherent.R.Cmp(e.Coherent.R) != 0 {
		uf, _ := exact.FactorText(u.Coherent)
		s.Definition += "; the catalog's " + u.Symbol + " is " + uf + " " + e.Dim.SIText() + ", another value"
	}
	return s
}

// CLDRClaim returns the CLDR unit identifier the catalog unit symbol
// claims ("" when it claims none), and false when the catalog has no unit
// of that symbol: the one mapping between CLDR and the catalog, which
// locale data reads.
func (g *Graph) CLDRClaim(symbol string) (string, bool) {
	u, ok := g.bySymbol.Get(symbol)
	if !ok || u.Symbol != symbol {
		return "", false
	}
	return u.CodeOf(SystemCLDR), true
}

// CLDRClaimant returns the symbol of the catalog unit that claims the
// CLDR unit id, or "".
func (g *Graph) CLDRClaimant(id string) string {
	if u := g.codes.claimedMap()[SystemCLDR][id]; u != nil {
		return u.Symbol
	}
	return ""
}

// codeCatalog is a graph as the catalog the units of codes are made of
// (package codeunit).
type codeCatalog struct{ g *Graph }

func (c codeCatalog) Claimant(system, code string) *Unit {
	return c.g.codes.claimedMap()[system][code]
}

func (c codeCatalog) CategoryOf(d dimension.Vector) *Category { return c.g.byDimension[d] }

func (c codeCatalog) Source(system string) string { return c.g.codes.tables().Source(system) }

// What a code system's table covers of the catalog (package claim).
type (
	Coverage  = claim.Coverage
	Declined  = claim.Declined
	Claimable = claim.Claimable
)

// CodeCoverage reports, per code system, how many of its table's units
// the graph reads and how many the catalog claims, and which unclaimed
// codes a catalog unit could claim (claim.Report).
func (g *Graph) CodeCoverage() []Coverage {
	return claim.Report(g.codes.tables(), coverageOf{g})
}

// coverageOf is a graph as a report of coverage reads it.
type coverageOf struct{ g *Graph }

func (c coverageOf) Reads(system, code string) bool {
	_, err, _ := c.g.resolveCode(system + ":" + code)
	return err == nil
}

func (c coverageOf) Claimant(system, code string) *Unit { return c.g.claimant(system, code) }

func (c coverageOf) Unclaimed(system, code string) (string, bool) {
	reason, ok := c.g.codes.unclaimedMap()[system][code]
	return reason, ok
}

func (c coverageOf) Units() []*Unit { return c.g.units }

func (c coverageOf) Words() bool { return accelerated() }
