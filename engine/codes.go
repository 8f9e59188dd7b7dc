package engine

import (
	"strings"

	"github.com/unitd/unitd/engine/claim"
	"github.com/unitd/unitd/engine/codes"
	"github.com/unitd/unitd/engine/codeunit"
	"github.com/unitd/unitd/engine/dimension"
	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/internal/plan"
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

// Claim says what the catalog unit claiming a code is (codes.Claims).
func (g *Graph) Claim(system, code string) (codes.Claim, bool) { return g.t.Codes.Claim(system, code) }

// CodeSource says where the graph's table of a code system comes from,
// or "" when it has none.
func (g *Graph) CodeSource(system string) string { return g.t.Codes.Source(system) }

// resolveCode resolves a namespaced name; ok is false when name names no
// code system at all.
func (g *Graph) resolveCode(name string) (s plan.Side, err error, ok bool) {
	system, code, ok := codes.Split(name)
	if !ok {
		return plan.Side{}, nil, false
	}
	if s, hit := g.codeSides.Get(name); hit {
		return s, nil, true
	}
	if u := g.t.Codes.Claimant(system, code); u != nil {
		s = plan.Side{Unit: u}
	} else {
		s.Unit, s.Expr, err = codeunit.Read(codeCatalog{g}, g.t.Codes, name, system, code)
	}
	if err != nil {
		return plan.Side{}, err, true
	}
	k := strings.Clone(name) // name may be a view of a pooled request buffer
	g.codeSides.Put(k, s, int64(len(k))+256)
	return s, nil, true
}

// cldrTarget is what a CLDR unit identifier names in the catalog, for the
// unit preferences: the catalog unit that claims it (claimant), else its
// CLDR definition read through the catalog's units, written with the
// symbols of the units that claim its parts (centimeter-per-hour is cm/h).
func (g *Graph) cldrTarget(id string) (plan.Side, error) {
	s, err, _ := g.resolveCode(SystemCLDR + ":" + id)
	return s, err
}

// codeStep says what a code that no catalog unit claims means: its
// factor by its system's table and where the table comes from, the
// convention it was read by, and, when a catalog unit has the code's
// spelling but another factor, that the two differ (UCUM's eV goes
// through an older value of the elementary charge).
func (g *Graph) codeStep(e *Expression) Step {
	system, code, _ := codes.Split(e.Code)
	f, ok := exact.FactorText(e.Coherent)
	s := Step{Unit: e.Code, Exact: ok && e.Conv.Exact, Source: g.t.Codes.Source(system),
		Definition: "1 " + e.Code + " = " + f + " " + e.Dim.SIText() + " (as the " + strings.ToUpper(system) + " table defines it)"}
	if e.Note != "" {
		s.Definition += "; " + e.Note
	}
	if u, ok := g.t.BySymbol.Get(code); ok && u.Category.Dim == e.Dim && u.Coherent.R != nil && u.Coherent.R.Cmp(e.Coherent.R) != 0 {
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
	u, ok := g.t.BySymbol.Get(symbol)
	if !ok || u.Symbol != symbol {
		return "", false
	}
	return u.CodeOf(SystemCLDR), true
}

// CLDRClaimant returns the symbol of the catalog unit that claims the
// CLDR unit id, or "".
func (g *Graph) CLDRClaimant(id string) string {
	if u := g.t.Codes.Claimed()[SystemCLDR][id]; u != nil {
		return u.Symbol
	}
	return ""
}

// codeCatalog is a graph as the catalog the units of codes are made of
// (package codeunit).
type codeCatalog struct{ g *Graph }

func (c codeCatalog) Claimant(system, code string) *Unit {
	return c.g.t.Codes.Claimed()[system][code]
}

func (c codeCatalog) CategoryOf(d dimension.Vector) *Category { return c.g.t.ByDimension[d] }

func (c codeCatalog) Source(system string) string { return c.g.t.Codes.Source(system) }

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
	return claim.Report(g.t.Codes.Tables(), coverageOf{g})
}

// coverageOf is a graph as a report of coverage reads it.
type coverageOf struct{ g *Graph }

func (c coverageOf) Reads(system, code string) bool {
	_, err, _ := c.g.resolveCode(system + ":" + code)
	return err == nil
}

func (c coverageOf) Claimant(system, code string) *Unit { return c.g.t.Codes.Claimant(system, code) }

func (c coverageOf) Unclaimed(system, code string) (string, bool) {
	reason, ok := c.g.t.Codes.Unclaimed()[system][code]
	return reason, ok
}

func (c coverageOf) Units() []*Unit { return c.g.t.Units }

func (c coverageOf) Words() bool { return accelerated() }
