package claim

import (
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/unitd/unitd/engine/codes"
	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/internal/graph"
	"github.com/unitd/unitd/engine/internal/suggest"
)

// Index is a graph's code tables and the catalog's claims on them: which
// unit claims a code of a system, and which codes the catalog keeps
// unclaimed, and why. Build fills it (Claimed, Unclaimed); a restored
// graph decodes the claims, and compiles the tables, on their first use.
// Once built it is safe for concurrent use.
type Index struct {
	// set is the code tables, or nil (read through Tables). A restored
	// graph compiles them on their first use, with compile.
	set     *codes.Set
	setOnce sync.Once
	compile func() *codes.Set
	// claimed maps a system and a code to the catalog unit claiming it.
	claimed map[string]map[string]*graph.Unit
	// unclaimed maps a system and a code the catalog keeps unclaimed to
	// its reason.
	unclaimed map[string]map[string]string
	// decode gives the two maps on their first use in a restored graph.
	decode     func() (map[string]map[string]*graph.Unit, map[string]map[string]string)
	claimsOnce sync.Once
	wasDecoded atomic.Bool
	// near suggests unece codes among those the catalog claims, built on
	// the first unknown one.
	near     suggest.Index
	nearOnce sync.Once
}

// NewIndex returns the index Build fills: the tables set (nil for none)
// and no claims yet, for every system.
func NewIndex(set *codes.Set) *Index {
	x := &Index{set: set, claimed: map[string]map[string]*graph.Unit{}, unclaimed: map[string]map[string]string{}}
	for _, s := range codes.Systems {
		x.claimed[s] = map[string]*graph.Unit{}
		x.unclaimed[s] = map[string]string{}
	}
	return x
}

// Restored returns the index of a restored graph: the claims from decode
// and the tables from compile (nil for none), each called on first use.
func Restored(decode func() (map[string]map[string]*graph.Unit, map[string]map[string]string), compile func() *codes.Set) *Index {
	return &Index{decode: decode, compile: compile}
}

// Claimed returns the claims on codes, by system and code. Build writes
// into it; nothing else may.
func (x *Index) Claimed() map[string]map[string]*graph.Unit {
	x.decoded()
	return x.claimed
}

// Unclaimed returns the codes kept unclaimed with their reasons, by
// system and code. Build writes into it; nothing else may.
func (x *Index) Unclaimed() map[string]map[string]string {
	x.decoded()
	return x.unclaimed
}

// Decoded reports whether the claims are in memory: a restored graph
// decodes them on their first use, which a conversion between catalog
// units never makes.
func (x *Index) Decoded() bool { return x.decode == nil || x.wasDecoded.Load() }

func (x *Index) decoded() {
	if x.decode != nil {
		x.claimsOnce.Do(func() {
			x.claimed, x.unclaimed = x.decode()
			x.wasDecoded.Store(true)
		})
	}
}

// Tables returns the code tables, or nil, compiling them first in a
// restored graph.
func (x *Index) Tables() *codes.Set {
	if x.compile != nil {
		x.setOnce.Do(func() { x.set = x.compile() })
	}
	return x.set
}

// Source says where the table of a system comes from, or "" when there
// are no tables.
func (x *Index) Source(system string) string {
	set := x.Tables()
	if set == nil {
		return ""
	}
	return set.Source(system)
}

// Claimant is the catalog unit that claims a code, or the code it is
// another name of (codes.Set.SameUnit: a deprecated code's replacement,
// the plain unit of a CLDR person unit), or nil.
func (x *Index) Claimant(system, code string) *graph.Unit {
	if u := x.Claimed()[system][code]; u != nil {
		return u
	}
	set := x.Tables()
	if set == nil {
		return nil
	}
	if r, ok := set.SameUnit(system, code); ok {
		return x.Claimed()[system][r]
	}
	return nil
}

// Claim says what the catalog unit claiming a code is (codes.Claims), for
// the tables' reading of codes made of claimed ones.
func (x *Index) Claim(system, code string) (codes.Claim, bool) {
	u := x.Claimed()[system][code]
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

// Unknown is UNKNOWN_UNIT for a code of a known system, with up to five
// suggestions from the system's table, or, for unece, among the codes
// the catalog claims.
func (x *Index) Unknown(system, code string) *fault.Error {
	e := fault.Errorf(fault.UnknownUnit, "unknown %s code %s", system, strconv.Quote(fault.Truncate(code, 64)))
	if system == codes.SystemUNECE {
		x.nearOnce.Do(func() {
			for c := range x.Claimed()[codes.SystemUNECE] {
				x.near.Add(c, codes.SystemUNECE+":"+c)
			}
		})
		e.Suggestions = x.near.Suggest(code, 5)
	} else if set := x.Tables(); set != nil {
		e.Suggestions = set.Suggest(system, code)
	}
	if len(e.Suggestions) > 0 {
		e.Message += "; did you mean " + strings.Join(e.Suggestions, ", ") + "?"
	}
	return e
}
