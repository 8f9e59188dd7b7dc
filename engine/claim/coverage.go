package claim

import (
	"github.com/unitd/unitd/engine/codes"
	"github.com/unitd/unitd/engine/internal/graph"
)

// Graph is what a report of coverage reads of a compiled catalog.
type Graph interface {
	// Reads reports whether a code of a system resolves to a unit.
	Reads(system, code string) bool
	// Claimant is the catalog unit claiming a code, or nil.
	Claimant(system, code string) *graph.Unit
	// Unclaimed is the reason the catalog gives for keeping a code
	// unclaimed, and whether it keeps it so.
	Unclaimed(system, code string) (reason string, ok bool)
	// Units are the catalog's units.
	Units() []*graph.Unit
	// Words is the accelerators' answer (Claimant.Words).
	Words() bool
}

// Coverage says how much of one code system's table unitd reads.
type Coverage struct {
	System string
	// Source is where the table comes from.
	Source string
	// Units counts the table's units (UCUM atoms, CLDR simple units, QUDT
	// units that are not deprecated); Read those that resolve to a unit
	// unitd converts; Claimed those a catalog unit claims.
	Units, Read, Claimed int
	// Unread and Unclaimed list the codes of the two gaps.
	Unread, Unclaimed []string
	// Claimable lists the unclaimed codes that a catalog unit could claim
	// (Claimable), and NClaimable counts them.
	Claimable  []Claimable
	NClaimable int
	// Declined lists the codes a catalog unit could claim by dimension
	// and factor but that the catalog lists as unclaimed, with its reason
	// (UnclaimedCodeSpec), and NDeclined counts them.
	Declined  []Declined
	NDeclined int
}

// Declined is a code the catalog keeps unclaimed, and why.
type Declined struct {
	Code, Reason string
}

// Claimable is a code that no catalog unit claims but whose meaning by
// its owner's table is that of catalog units claiming no code of its
// system: the same dimension (or the reciprocal one, for a unit defined
// as k/x), a factor that agrees to the digits the table states it in, and
// the same offset; the claim Build would accept.
type Claimable struct {
	Code string
	// Units are the symbols of the catalog units that could claim it.
	Units []string
}

// Report reports, per code system, how many of its table's units
// the graph reads and how many the catalog claims, and which unclaimed
// codes a catalog unit could claim. unece's table says only which codes
// exist, so it reads those the catalog claims.
func Report(set *codes.Set, g Graph) []Coverage {
	if set == nil {
		return nil
	}
	var out []Coverage
	for _, system := range []string{codes.SystemUCUM, codes.SystemCLDR, codes.SystemQUDT, codes.SystemUNECE} {
		list := set.Codes(system)
		c := Coverage{System: system, Source: set.Source(system), Units: len(list)}
		for _, code := range list {
			if g.Reads(system, code) {
				c.Read++
			} else {
				c.Unread = append(c.Unread, code)
			}
			if g.Claimant(system, code) != nil {
				c.Claimed++
			} else {
				c.Unclaimed = append(c.Unclaimed, code)
			}
		}
		c.Claimable = claimable(set, g, system, c.Unclaimed)
		c.NClaimable = len(c.Claimable)
		for _, code := range list {
			if reason, ok := g.Unclaimed(system, code); ok {
				c.Declined = append(c.Declined, Declined{Code: code, Reason: reason})
			}
		}
		c.NDeclined = len(c.Declined)
		out = append(out, c)
	}
	return out
}

// claimable lists the codes of a system, among the unclaimed ones, that
// catalog units claiming no code of the system could claim (Counterparts),
// but those the catalog lists as unclaimed with its reason. unece has no
// meanings to compare.
func claimable(set *codes.Set, g Graph, system string, unclaimed []string) []Claimable {
	if system == codes.SystemUNECE {
		return nil
	}
	byDim := ByDimension(g.Units(), g.Words())
	var out []Claimable
	for _, code := range unclaimed {
		if _, ok := g.Unclaimed(system, code); ok {
			continue
		}
		if units := TableCounterparts(set, byDim, system, code); len(units) > 0 {
			out = append(out, Claimable{Code: code, Units: units})
		}
	}
	return out
}
