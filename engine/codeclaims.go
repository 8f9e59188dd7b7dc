package engine

import (
	"fmt"
	"maps"
	"math/big"
	"slices"
	"sort"
	"strings"

	"github.com/unitd/unitd/engine/codes"
	"github.com/unitd/unitd/engine/dimension"
	"github.com/unitd/unitd/engine/internal/cache"
	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/internal/graph"
)

// The catalog's claims on the standard codes
//
// A unit claims a code with UnitSpec.Codes; Build checks every claim
// against the owner's table (codes.Set.Table): the code exists, has the
// unit's dimension (or the reciprocal one, for a unit defined as k/x of
// its reference), means the unit's factor and offset to the precision the
// table states them in, and is claimed by one unit only. A level claims
// no linear code, and a unit of a category that counts from elsewhere
// than zero (gauge pressure) no code at all: the tables' codes are
// absolute. Codes generated for prefixed units are kept only when the
// table confirms them.

// compileCodes checks the catalog's claims on the code tables, and the
// codes it keeps unclaimed.
func (b *builder) compileCodes(set *codes.Set, unclaimed []UnclaimedCodeSpec) {
	idx := &codeIndex{resolved: cache.New[string, side](nil), set: set, claimed: map[string]map[string]*Unit{}, unclaimed: map[string]map[string]string{}}
	for _, s := range CodeSystems {
		idx.claimed[s] = map[string]*Unit{}
		idx.unclaimed[s] = map[string]string{}
	}
	defer b.unclaimedCodes(set, unclaimed)
	b.g.codes = idx
	// The codes the catalog writes first, then those derived for prefixed
	// units: a code a unit declares is its own, and a derived one that
	// meets it is dropped (J/cm3 declares MegaJ-PER-M3, which MJ/m3
	// would derive).
	declaredFirst := make([]*Unit, 0, len(b.g.units))
	var derived []*Unit
	for _, u := range b.g.units {
		if _, byPrefix := b.prefixCodes[u]; b.specs[u] != nil || byPrefix {
			declaredFirst = append(declaredFirst, u)
		} else {
			derived = append(derived, u)
		}
	}
	ordered := append(declaredFirst, derived...)
	// What is wrong with each claim by itself, for each unit and its
	// systems in order, found in parallel (inParallel): checkCode reads
	// only the unit and the tables.
	problems := make([][]string, len(ordered))
	systemsOf := make([][]string, len(ordered))
	if inParallel(b.ctx, len(ordered), func(i int) {
		u := ordered[i]
		codeOf := b.codes[u]
		if len(codeOf) == 0 || u.Conv.Map == nil && u.Conv.Post == nil {
			return
		}
		systems := make([]string, 0, len(codeOf))
		for s := range codeOf {
			systems = append(systems, s)
		}
		sort.Strings(systems)
		c := &claimant{u: u}
		msgs := make([]string, len(systems))
		for j, system := range systems {
			msgs[j] = b.checkCode(c, system, codeOf[system], set)
		}
		systemsOf[i], problems[i] = systems, msgs
	}) < len(ordered) {
		b.cancelled()
		return
	}
	// The indexes of claims, still empty, sized for every code claimed.
	claims := make([]int, len(CodeSystems))
	for _, systems := range systemsOf {
		for _, s := range systems {
			if k := slices.Index(CodeSystems, s); k >= 0 {
				claims[k]++
			}
		}
	}
	for k, s := range CodeSystems {
		idx.claimed[s] = make(map[string]*Unit, claims[k])
	}
	claimedBy := make(map[string]*Unit, sum(claims))
	for i, u := range ordered {
		codeOf := b.codes[u]
		if len(codeOf) == 0 || u.Conv.Map == nil && u.Conv.Post == nil {
			u.Codes = graph.CodesOf(codeOf)
			continue
		}
		_, byPrefix := b.prefixCodes[u]
		declared := b.specs[u] != nil || byPrefix
		// A declared unit's codes are its spec's map, which a build
		// never writes: copied before a code is dropped.
		owned := b.specs[u] == nil
		for j, system := range systemsOf[i] {
			code := codeOf[system]
			msg := problems[i][j]
			if msg == "" {
				key := system + ":" + code
				if other := claimedBy[key]; other != nil {
					msg = fmt.Sprintf("code %s is already claimed by unit %q (%s)", key, other.Symbol, describeOrigin(other, b.origins[other]))
				} else {
					claimedBy[key] = u
					idx.claimed[system][code] = u
					continue
				}
			}
			if declared {
				b.errorf(b.origins[u], unitSubject(u.Symbol), "%s", msg)
			}
			if !owned {
				codeOf, owned = maps.Clone(codeOf), true
				b.codes[u] = codeOf
			}
			delete(codeOf, system)
		}
		u.Codes = graph.CodesOf(codeOf)
	}
}

func sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}

// claimDigits is the precision a claim of a UCUM or CLDR code is checked
// to: their factors are exact by definition, but for a few that go
// through a rounded constant (UCUM's eV through an older elementary
// charge), which twelve digits let pass.
const claimDigits = 12

// checkCode says what is wrong with a unit's claim of a code, or "".
func (b *builder) checkCode(c *claimant, system, code string, set *codes.Set) string {
	if code == "" || strings.TrimSpace(code) != code {
		return fmt.Sprintf("code %s:%q is empty or has surrounding white space", system, code)
	}
	switch system {
	case SystemUNECE:
		if len(code) < 2 || len(code) > 3 || strings.ToUpper(code) != code {
			return fmt.Sprintf("unece code %q is not a Recommendation 20 common code (two or three upper-case letters or digits)", code)
		}
		if set != nil {
			if exists, ok := set.Exists(code); ok && !exists {
				return fmt.Sprintf("code unece:%s is not in the UN/ECE code list", code)
			}
		}
		return ""
	case SystemUCUM, SystemCLDR, SystemQUDT:
	default:
		return fmt.Sprintf("unknown code system %q (known: %s)", system, strings.Join(CodeSystems, ", "))
	}
	if set == nil {
		return ""
	}
	m, err := set.Table(system, code)
	if err != nil {
		return fmt.Sprintf("code %s:%s: %v", system, code, err)
	}
	return c.problem(system, code, m, true)
}

// claimant is a unit whose claims are checked, with what every check
// reads of its map onto the coherent SI unit, found on the first check
// that needs it: a unit checked against many codes (claimableBy) reads
// its map once.
type claimant struct {
	u *Unit
	// offset is the offset of the unit's map when affined is true and
	// affine is too.
	offset          *big.Rat
	affine, affined bool
}

// affineOffset returns the offset of the unit's map onto the coherent SI
// unit, or ok=false when the map is not affine.
func (c *claimant) affineOffset() (o *big.Rat, ok bool) {
	if !c.affined {
		if m := c.u.SI.Map; m.IsLinear() {
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

// problem says why the unit cannot claim a code whose meaning by the
// owner's table is m, or "". Without explain, it says only whether there
// is a problem: "" or a word, not what the problem is.
func (c *claimant) problem(system, code string, m codes.Meaning, explain bool) string {
	if m.Special != nil {
		return checkSpecial(c.u, code, m.Special)
	}
	digits := claimDigits
	if m.Digits > 0 {
		digits = min(digits, m.Digits)
	}
	return c.problemTo(system, code, m, digits, explain)
}

// refused is what a check that is not to explain itself says of a
// problem.
const refused = "refused"

// problemTo is problem with the factors compared to digits, explaining
// the problem only when explain is set.
func (c *claimant) problemTo(system, code string, m codes.Meaning, digits int, explain bool) string {
	u := c.u
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
	uo, ok := c.affineOffset()
	if !ok {
		return fmt.Sprintf("code %s:%s is a linear unit, but %s is not affine", system, code, u.Symbol)
	}
	if (uo.Sign() != 0) != (m.Offset != nil) {
		if !explain {
			return refused
		}
		return fmt.Sprintf("code %s:%s and the unit differ in offset", system, code)
	}
	if !exact.AgreeWords(u.Coherent, m.Factor, digits, accelerated()) {
		if !explain {
			return refused
		}
		want, _ := exact.FactorText(m.Factor)
		have, _ := exact.FactorText(u.Coherent)
		return fmt.Sprintf("code %s:%s means %s %s, but the unit is %s %s", system, code, shortFactor(want), m.Dim.SIText(), shortFactor(have), m.Dim.SIText())
	}
	if m.Offset != nil && !exact.AgreeWords(exact.Factor{R: uo}, exact.Factor{R: m.Offset}, digits, accelerated()) {
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
func reciprocalClaim(u *Unit, system, code string, f exact.Factor, digits int) string {
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
func checkSpecial(u *Unit, code string, s *codes.Special) string {
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

// prefixedCodes derives a prefixed unit's codes from its unit's: UCUM
// and CLDR write prefixes as unitd does (symbol, name); QUDT capitalises
// the name and, in a compound unit, prefixes its first part, as unitd's
// prefixed compound units do (kA/m is KiloA-PER-M). Build keeps those the
// tables confirm.
func prefixedCodes(codeOf map[string]string, p prefix) map[string]string {
	if len(codeOf) == 0 {
		return nil
	}
	out := map[string]string{}
	if c, ok := codeOf[SystemUCUM]; ok && !strings.ContainsAny(c, "./") {
		out[SystemUCUM] = p.Symbol + c
	}
	if c, ok := codeOf[SystemCLDR]; ok && !strings.Contains(c, "-") {
		name := p.Name
		if name == "deca" {
			name = "deka"
		}
		out[SystemCLDR] = name + c
	}
	if c, ok := codeOf[SystemQUDT]; ok && !strings.HasPrefix(c, "PER-") {
		out[SystemQUDT] = strings.ToUpper(p.Name[:1]) + p.Name[1:] + c
	}
	return out
}

// unclaimedCodes checks the codes the catalog keeps unclaimed: each is a
// code of a table, no unit claims it, it is listed once, and a unit could
// claim it but for the entry (else the entry is stale).
func (b *builder) unclaimedCodes(set *codes.Set, specs []UnclaimedCodeSpec) {
	if set == nil || len(specs) == 0 || b.stopped {
		return
	}
	idx := b.g.codes
	byDim := b.g.linearUnits()
	// Whether a unit could claim each code, found in parallel for the
	// codes that pass the checks below but for being listed twice:
	// claimableBy reads only the units (each unit's offset read here,
	// before they are shared) and the tables.
	for _, cs := range byDim {
		for _, c := range cs {
			c.affineOffset()
		}
	}
	type listed struct {
		us        *UnclaimedCodeSpec
		name      string
		system    string
		code      string
		problem   string // what is wrong with the entry but a repetition
		claimable bool
	}
	var entries []listed
	for i := range specs {
		for _, name := range specs[i].Codes {
			entries = append(entries, listed{us: &specs[i], name: name})
		}
	}
	if inParallel(b.ctx, len(entries), func(i int) {
		e := &entries[i]
		system, code, ok := codes.Split(e.name)
		e.system, e.code = system, code
		switch {
		case !ok || system != SystemUCUM && system != SystemCLDR && system != SystemQUDT:
			e.problem = fmt.Sprintf("%q is not a ucum:, cldr: or qudt: code", e.name)
		case !slices.Contains(set.Codes(system), code):
			e.problem = fmt.Sprintf("%s is not a unit of the %s table", e.name, strings.ToUpper(system))
		case idx.claimed[system][code] != nil:
			e.problem = fmt.Sprintf("%s is claimed by unit %q", e.name, idx.claimed[system][code].Symbol)
		default:
			e.claimable = len(b.g.claimableBy(byDim, system, code)) > 0
		}
	}) < len(entries) {
		b.cancelled()
		return
	}
	k := 0
	for i := range specs {
		us := &specs[i]
		subject := "unclaimed codes"
		if strings.TrimSpace(us.Reason) == "" {
			b.errorf(us.Origin, subject, "the entry gives no reason")
		}
		for range us.Codes {
			e := &entries[k]
			k++
			if e.problem != "" {
				b.errorf(us.Origin, subject, "%s", e.problem)
				continue
			}
			if _, dup := idx.unclaimed[e.system][e.code]; dup {
				b.errorf(us.Origin, subject, "%s is listed twice", e.name)
				continue
			}
			if !e.claimable {
				b.errorf(us.Origin, subject, "no catalog unit could claim %s (none has its meaning, or one that has it claims a code of %s already): delete it from the list", e.name, strings.ToUpper(e.system))
				continue
			}
			idx.unclaimed[e.system][e.code] = us.Reason
		}
	}
}
