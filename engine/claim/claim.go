// Package claim decides whether a catalog unit may claim a code of a
// standard system (ucum, cldr, qudt): whether the unit's exact map agrees
// with the code's meaning by its owner's table. It keeps a graph's claims
// and its code tables (Index: which unit claims a code, which codes stay
// unclaimed and why, UNKNOWN_UNIT for a code that is none), and reports
// how much of each system's table a catalog reads and claims (Report).
//
// A unit claims a code with the engine's UnitSpec.Codes; Build checks
// every claim against the owner's table (codes.Set.Table): the code
// exists, has the unit's dimension (or the reciprocal one, for a unit
// defined as k/x of its reference), means the unit's factor and offset to
// the precision the table states them in, and is claimed by one unit
// only. A level claims
// no linear code, and a unit of a category that counts from elsewhere
// than zero (gauge pressure) no code at all: the tables' codes are
// absolute. Codes generated for prefixed units are kept only when the
// table confirms them.
package claim

import (
	"fmt"
	"math/big"
	"slices"

	"github.com/unitd/unitd/engine/codes"
	"github.com/unitd/unitd/engine/dimension"
	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/internal/graph"
)

// claimDigits is the precision a claim of a UCUM or CLDR code is checked
// to: their factors are exact by definition, but for a few that go
// through a rounded constant (UCUM's eV through an older elementary
// charge), which twelve digits let pass.
const claimDigits = 12

// Claimant is a unit whose claims are checked, with what every check
// reads of its map onto the coherent SI unit, found on the first check
// that needs it: a unit checked against many codes (claimableBy) reads
// its map once.
type Claimant struct {
	Unit *graph.Unit
	// Words says whether factors are compared in machine words where
	// they fit (the engine's accelerators, exact.AgreeWords).
	Words bool
	// offset is the offset of the unit's map when affined is true and
	// affine is too.
	offset          *big.Rat
	affine, affined bool
}

// AffineOffset returns the offset of the unit's map onto the coherent SI
// unit, or ok=false when the map is not affine.
func (c *Claimant) AffineOffset() (o *big.Rat, ok bool) {
	if !c.affined {
		if m := c.Unit.SI.Map; m.IsLinear() {
			c.offset, c.affine = ratZero, true
		} else {
			c.offset, c.affine = m.Offset()
		}
		c.affined = true
	}
	return c.offset, c.affine
}

// ratZero is the offset of every linear unit; it is never modified.
var ratZero = new(big.Rat)

// Problem says why the unit cannot claim a code whose meaning by the
// owner's table is m, or "". Without explain, it says only whether there
// is a Problem: "" or a word, not what the Problem is.
func (c *Claimant) Problem(system, code string, m codes.Meaning, explain bool) string {
	if m.Special != nil {
		return checkSpecial(c.Unit, code, m.Special)
	}
	return c.problemTo(system, code, m, checkedDigits(m), explain)
}

// checkedDigits is how many digits a claim on a code of meaning m is
// checked to: claimDigits, or fewer where the table states fewer.
func checkedDigits(m codes.Meaning) int {
	if m.Digits > 0 {
		return min(claimDigits, m.Digits)
	}
	return claimDigits
}

// refused is what a check that is not to explain itself says of a
// problem.
const refused = "refused"

// problemTo is problem with the factors compared to digits, explaining
// the problem only when explain is set.
func (c *Claimant) problemTo(system, code string, m codes.Meaning, digits int, explain bool) string {
	u := c.Unit
	if u.Category.Logarithmic {
		return fmt.Sprintf("code %s:%s is a linear unit, but %s is a level", system, code, u.Symbol)
	}
	if lo := u.Category.MinimumRat; lo != nil && lo.Sign() != 0 {
		// The codes of the tables count from absolute zero; a category
		// whose zero is elsewhere (gauge pressure, from the standard
		// atmosphere) reads its units as differences from it.
		return fmt.Sprintf("code %s:%s counts from zero, but %s is of %s, which counts from %s %s", system, code, u.Symbol, u.Category.Name, lo.FloatString(0), u.Category.Base.Symbol)
	}
	dim := u.Category.Dim
	if m.Dim != dim && m.Dim == dim.Inverse() && m.Offset == nil && m.Arbitrary == "" {
		return reciprocalClaim(u, system, code, m.Factor, digits)
	}
	if m.Dim != dim {
		if !explain {
			return refused
		}
		return fmt.Sprintf("code %s:%s has dimension %s, but the unit's is %s", system, code, m.Dim, dim)
	}
	if m.Arbitrary != "" {
		return fmt.Sprintf("code %s:%s is an arbitrary unit, which no catalog unit is", system, code)
	}
	if u.Conv.FormulaUnit {
		return fmt.Sprintf("code %s:%s is a linear unit, but %s is defined by a formula", system, code, u.Symbol)
	}
	uo, ok := c.AffineOffset()
	if !ok {
		return fmt.Sprintf("code %s:%s is a linear unit, but %s is not affine", system, code, u.Symbol)
	}
	if (uo.Sign() != 0) != (m.Offset != nil) {
		if !explain {
			return refused
		}
		return fmt.Sprintf("code %s:%s and the unit differ in offset", system, code)
	}
	if !exact.AgreeWords(u.Coherent, m.Factor, digits, c.Words) {
		if !explain {
			return refused
		}
		want, _ := exact.FactorText(m.Factor)
		have, _ := exact.FactorText(u.Coherent)
		return fmt.Sprintf("code %s:%s means %s %s, but the unit is %s %s", system, code, shortFactor(want), m.Dim.SIText(), shortFactor(have), m.Dim.SIText())
	}
	if m.Offset != nil && !exact.AgreeWords(exact.Factor{R: uo}, exact.Factor{R: m.Offset}, digits, c.Words) {
		if !explain {
			return refused
		}
		return fmt.Sprintf("code %s:%s has offset %s K, but the unit's is %s", system, code, m.Offset.FloatString(6), uo.FloatString(6))
	}
	return ""
}

// reciprocalClaim checks a claim across reciprocal dimensions: a code of
// volume per distance (CLDR's liter-per-100-kilometer, a consumption) on
// a unit of fuel economy defined as its reciprocal (L/100km = 100/x
// km/L). CLDR converts consumption and its inverse into each other by
// the reciprocal, and so does the catalog: the claim holds when the
// unit's map onto its reference is k/x with k = 1/f, f the code's factor.
func reciprocalClaim(u *graph.Unit, system, code string, f exact.Factor, digits int) string {
	var m *exact.Map
	if u.SI != nil {
		m = u.SI.Map
	}
	if m == nil || m.K() != 0 || f.K != 0 || f.R.Sign() == 0 {
		return fmt.Sprintf("code %s:%s has dimension %s, but the unit's is %s", system, code, u.Category.Dim.Inverse(), u.Category.Dim)
	}
	a, b, c, d := m.Coefficients()
	if a.Sign() != 0 || d.Sign() != 0 || b.Sign() == 0 || c.Sign() == 0 {
		return fmt.Sprintf("code %s:%s has the reciprocal dimension of %s, which is not defined as k/x of its reference", system, code, u.Symbol)
	}
	k := new(big.Rat).SetFrac(b, c)
	if !exact.Agree(exact.Factor{R: k}, exact.Factor{R: new(big.Rat).Inv(f.R)}, digits) {
		return fmt.Sprintf("code %s:%s is the reciprocal of %s, but the factors differ", system, code, u.Symbol)
	}
	return ""
}

func shortFactor(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// checkSpecial checks a claim of a UCUM special unit: the unit must be an
// affine scale or a formula unit of the special unit's dimension.
func checkSpecial(u *graph.Unit, code string, s *codes.Special) string {
	dim := s.RefDim
	if u.Category.Logarithmic && dim == (dimension.Vector{}) {
		return ""
	}
	if dim != u.Category.Dim {
		return fmt.Sprintf("code ucum:%s (special unit, function %s) has dimension %s, but the unit's is %s", code, s.Function, dim, u.Category.Dim)
	}
	if !u.Conv.FormulaUnit && u.Conv.Map.IsLinear() {
		return fmt.Sprintf("code ucum:%s is a special unit (function %s), but %s is linear", code, s.Function, u.Symbol)
	}
	return ""
}

// maxClaimDigits is the precision beyond which two factors are taken to
// be the same: the 34 digits of a result.
const maxClaimDigits = 34

// closeness is how many significant digits the unit's factor agrees
// with the code's to, at most maxClaimDigits, for a unit that can claim it.
func (c *Claimant) closeness(system, code string, m codes.Meaning) int {
	lo := checkedDigits(m)
	for d := maxClaimDigits; d > lo; d-- {
		if c.problemTo(system, code, m, d, false) == "" {
			return d
		}
	}
	return lo
}

// ByDimension are the units that can claim a code of a linear or affine
// unit, by dimension, each read through one Claimant.
func ByDimension(units []*graph.Unit, words bool) map[dimension.Vector][]*Claimant {
	byDim := map[dimension.Vector][]*Claimant{}
	all := make([]Claimant, len(units))
	for i, u := range units {
		if u.SI == nil || u.SI.Map == nil || u.Conv.FormulaUnit || u.Coherent.R == nil {
			continue
		}
		all[i] = Claimant{Unit: u, Words: words}
		byDim[u.Category.Dim] = append(byDim[u.Category.Dim], &all[i])
	}
	return byDim
}

// counterparts lists the symbols of the units of byDim that could claim a
// code that no unit claims, whose meaning by its table is m: those that
// can claim it (Problem) and come closest to its factor. Where one of
// those already claims a code of the system, the code is a synonym of
// that code (QUDT's ZOLL of IN), not a claim to make, and the list is
// empty; a unit that merely agrees to the few digits a table states (the
// survey inch to QUDT's 0.0254 m) is no counterpart when another agrees
// to more.
func counterparts(byDim map[dimension.Vector][]*Claimant, system, code string, m codes.Meaning) []string {
	dims := []dimension.Vector{m.Dim}
	if inv := m.Dim.Inverse(); inv != m.Dim {
		dims = append(dims, inv)
	}
	var best []*graph.Unit
	bestDigits := 0
	for _, d := range dims {
		for _, c := range byDim[d] {
			if c.Problem(system, code, m, false) != "" {
				continue
			}
			n := c.closeness(system, code, m)
			switch {
			case n > bestDigits:
				best, bestDigits = []*graph.Unit{c.Unit}, n
			case n == bestDigits:
				best = append(best, c.Unit)
			}
		}
	}
	var units []string
	for _, u := range best {
		if u.CodeOf(system) != "" {
			return nil
		}
		if !slices.Contains(units, u.Symbol) {
			units = append(units, u.Symbol)
		}
	}
	return units
}

// TableCounterparts is counterparts of a code as its system's table
// defines it; none for a code the table does not read, or reads as a
// special or arbitrary unit.
func TableCounterparts(set *codes.Set, byDim map[dimension.Vector][]*Claimant, system, code string) []string {
	m, err := set.Table(system, code)
	if err != nil || m.Special != nil || m.Arbitrary != "" {
		return nil
	}
	return counterparts(byDim, system, code, m)
}
