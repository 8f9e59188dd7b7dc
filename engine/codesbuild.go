package engine

import (
	"fmt"
	"github.com/unitd/unitd/engine/dimension"
	"github.com/unitd/unitd/engine/internal/suggest"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/internal/pi"
)

// cldrTable is the compiled CLDR table of simple units.
type cldrTable struct {
	units    map[string]*cldrUnit
	aliases  map[string]string // deprecated identifier → replacement
	prefixes []cldrPrefix      // longest name first
	ids      []string
}

type cldrUnit struct {
	id      string
	val     ucumVal  // onto unitd's coherent SI units
	offset  *big.Rat // in coherent SI units, or nil
	ok      bool     // has a unitd dimension
	special string
	digits  int // significant digits of the least precise number in its factor
}

type cldrPrefix struct {
	name string
	f    *big.Rat
}

// cldrBase is what each of CLDR's base units is in unitd's coherent SI
// units. CLDR counts the mole in items; unitd keeps amount of substance,
// so an item is 1/N_A mol. CLDR's year is the Julian year here, as the
// catalog's yr. A part is the number 1.
var cldrBase = map[string]struct{ dim, factor string }{
	"meter": {"L", "1"}, "kilogram": {"M", "1"}, "second": {"T", "1"}, "ampere": {"I", "1"},
	"kelvin": {"Θ", "1"}, "candela": {"J", "1"}, "revolution": {"A", "2*pi"},
	"item": {"N", "1/6.02214076e23"}, "part": {"", "1"}, "bit": {"D", "1"},
	"year": {"T", "31557600"},
}

func compileCLDR(entries []CLDREntry) (*cldrTable, []error) {
	t := &cldrTable{units: map[string]*cldrUnit{}, aliases: map[string]string{}}
	var errs []error
	for _, e := range entries {
		if e.Type == "alias" {
			t.aliases[e.ID] = e.Base
			continue
		}
		if e.Type != "prefix" {
			continue
		}
		r, ok := new(big.Rat).SetString(e.Factor)
		if !ok {
			errs = append(errs, fmt.Errorf("CLDR table: prefix %s: %q is not a number", e.ID, e.Factor))
			continue
		}
		t.prefixes = append(t.prefixes, cldrPrefix{e.ID, r})
	}
	sort.Slice(t.prefixes, func(i, j int) bool { return len(t.prefixes[i].name) > len(t.prefixes[j].name) })
	// Base units first, then every unit onto them.
	base := &cldrTable{units: map[string]*cldrUnit{}}
	for id, b := range cldrBase {
		f, _ := exact.ParseFactor(b.factor)
		base.units[id] = &cldrUnit{id: id, val: ucumVal{f: f, dim: dimension.Product(b.dim)}, ok: true}
	}
	// CLDR's base units that it relates to no SI unit (pixel, em, night)
	// are arbitrary units of their own, as UCUM's [IU] is: a dot is a
	// pixel and a megapixel a million, but a pixel converts to nothing
	// else.
	for _, e := range entries {
		if _, ok := cldrBase[e.ID]; e.Type == "unit" && e.Base == e.ID && !ok && e.Special == "" {
			base.units[e.ID] = &cldrUnit{id: e.ID, val: ucumVal{f: exact.One(), arb: []arbPower{{e.ID, 1}}}, ok: true}
		}
	}
	for _, e := range entries {
		if e.Type != "unit" {
			continue
		}
		u := &cldrUnit{id: e.ID, special: e.Special, digits: leastDigits(e.Factor)}
		t.units[e.ID] = u
		t.ids = append(t.ids, e.ID)
		bv, err := base.parse(e.Base)
		if err != nil {
			continue // a base the table cannot read: the unit stays unread
		}
		f, err := exact.ParseFactor(e.Factor)
		if err != nil {
			errs = append(errs, fmt.Errorf("CLDR table: unit %s: factor: %v", e.ID, err))
			continue
		}
		u.val = ucumVal{f: bv.f.Mul(f), dim: bv.dim}
		if e.Offset != "" {
			o, err := exact.ParseFactor(e.Offset)
			if err != nil || o.K != 0 || bv.f.K != 0 {
				errs = append(errs, fmt.Errorf("CLDR table: unit %s: offset %q is not an exact rational", e.ID, e.Offset))
				continue
			}
			u.offset = new(big.Rat).Mul(o.R, bv.f.R)
		}
		u.ok = e.Special == ""
	}
	sort.Strings(t.ids)
	return t, errs
}

// leastDigits counts the significant digits of the shortest-written
// decimal with a fraction or exponent in an exact expression, or 0 when
// every number is a whole number or exact by how it is written.
func leastDigits(s string) int {
	least := 0
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune("*/()^ ", r) }) {
		if !strings.ContainsAny(f, ".eE") || f == "pi" {
			continue
		}
		mant := f
		if i := strings.IndexAny(f, "eE"); i >= 0 {
			mant = f[:i]
		}
		d := strings.TrimLeft(strings.ReplaceAll(mant, ".", ""), "0")
		if n := len(d); n > 0 && (least == 0 || n < least) {
			least = n
		}
	}
	return least
}

// parse reads a CLDR unit identifier (UTS #35 Part 6): simple units,
// optionally prefixed (kilo, mebi), with square-, cubic- or powN-, joined
// by - into products, with one -per-.
func (t *cldrTable) parse(id string) (ucumVal, error) {
	if r, ok := t.aliases[id]; ok {
		id = r
	}
	fail := func(format string, args ...any) (ucumVal, error) {
		e := errorf(CodeInvalidUnitExpression, format, args...)
		e.Message = "invalid CLDR unit identifier " + strconv.Quote(shorten(id)) + ": " + e.Message
		return ucumVal{}, e
	}
	if id == "" {
		return fail("empty")
	}
	toks := strings.Split(id, "-")
	if len(toks) > 64 {
		return fail("more than 64 parts")
	}
	v := unitVal()
	sign, per, terms := 1, false, 0
	for i := 0; i < len(toks); {
		tok := toks[i]
		switch tok {
		case "per":
			if per {
				return fail("\"per\" may appear once")
			}
			per, sign = true, -1
			i++
			continue
		case "and":
			return fail("mixed units (-and-) name several values, not one unit")
		case "":
			return fail("empty part at part %d", i+1)
		}
		power := 1
		switch {
		case tok == "square":
			power = 2
		case tok == "cubic":
			power = 3
		case strings.HasPrefix(tok, "pow"):
			n, err := strconv.Atoi(tok[3:])
			if err != nil || n < 2 || n > 15 {
				return fail("%q is not a power (pow2 … pow15)", tok)
			}
			power = n
		}
		if power != 1 {
			if i++; i >= len(toks) {
				return fail("%q is not followed by a unit", tok)
			}
			tok = toks[i]
		}
		if r, ok := cldrConstant(tok); ok {
			v = v.mul(ucumVal{f: exact.Factor{R: r}}, sign)
			i++
			continue
		}
		found := false
		for j := min(len(toks), i+6); j > i; j-- {
			cand := strings.Join(toks[i:j], "-")
			u, pf := t.lookup(cand)
			if r, ok := t.aliases[cand]; ok && u == nil && !strings.Contains(r, "-per-") {
				// A deprecated part (portion): its replacement (part).
				if r, ok := cldrConstant(r); ok {
					v = v.mul(ucumVal{f: exact.Factor{R: r}}, sign)
					i, found = j, true
					break
				}
				u, pf = t.lookup(t.aliases[cand])
			}
			if u == nil {
				continue
			}
			if !u.ok {
				if u.special != "" {
					return fail("%s converts by CLDR's special %q algorithm, not by a factor, which unitd does not implement", cand, u.special)
				}
				return fail("%s has no conversion unitd can read", cand)
			}
			if u.offset != nil && (len(toks) > 1) {
				return fail("%s is a scale with an offset and cannot be part of a compound unit", cand)
			}
			w := u.val
			if pf != nil {
				w = ucumVal{f: w.f.Mul(exact.Factor{R: pf}), dim: w.dim, arb: w.arb}
			}
			v = v.mul(w.pow(power), sign)
			if terms++; terms > maxUCUMTerms {
				return fail("more than %d units", maxUCUMTerms)
			}
			i, found = j, true
			break
		}
		if !found {
			e := errorf(CodeUnknownUnit, "unknown CLDR unit %q in %q", shorten(tok), shorten(id))
			e.Suggestions = t.suggest(tok)
			return ucumVal{}, e
		}
	}
	return v, nil
}

// cldrConstant reads a numeric part of an identifier ("100" in
// liter-per-100-kilometer, "1e9").
func cldrConstant(tok string) (*big.Rat, bool) {
	if tok == "" || tok[0] < '0' || tok[0] > '9' || len(tok) > 20 {
		return nil, false
	}
	if !isDigits(tok) {
		i := strings.IndexByte(tok, 'e')
		if i <= 0 || !isDigits(tok[:i]) || !isDigits(tok[i+1:]) {
			return nil, false
		}
	}
	r, ok := new(big.Rat).SetString(tok)
	return r, ok && r.Sign() > 0
}

func (t *cldrTable) lookup(id string) (*cldrUnit, *big.Rat) {
	if u := t.units[id]; u != nil {
		return u, nil
	}
	for _, p := range t.prefixes {
		if len(id) > len(p.name) && strings.HasPrefix(id, p.name) {
			if u := t.units[id[len(p.name):]]; u != nil {
				return u, p.f
			}
		}
	}
	return nil, nil
}

func (t *cldrTable) suggest(tok string) []string {
	var out []string
	if len(tok) > 64 {
		return nil
	}
	for _, id := range t.ids {
		if len(out) == 5 {
			break
		}
		if suggest.Distance(tok, id) <= 2 {
			out = append(out, SystemCLDR+":"+id)
		}
	}
	return out
}

// resolveCLDR reads a CLDR identifier that no catalog unit claims.
func (g *Graph) resolveCLDR(id string) (side, error) {
	if g.codes.cldr == nil {
		return side{}, g.unknownCode(SystemCLDR, id)
	}
	if u := g.codes.cldr.units[id]; u != nil && u.offset != nil {
		return side{}, errorf(CodeUnknownUnit, "CLDR unit %q is a scale with an offset that no catalog unit claims", id)
	}
	v, err := g.codes.cldr.parse(id)
	if err != nil {
		return side{}, err
	}
	e, err := g.codeExpression(SystemCLDR+":"+id, SystemCLDR+":"+id, v)
	return side{expr: e}, err
}

// qudtUnit is a compiled QUDT unit.
type qudtUnit struct {
	entry  QUDTEntry
	val    ucumVal
	offset *big.Rat
	ok     bool
}

// qudtDimensions maps the letters of a QUDT dimension vector to unitd's
// base dimensions; D (dimensionless) carries none.
var qudtDimensions = map[byte]string{'A': "N", 'E': "I", 'L': "L", 'I': "J", 'M': "M", 'H': "Θ", 'T': "T"}

func compileQUDT(entries []QUDTEntry) map[string]*qudtUnit {
	out := make(map[string]*qudtUnit, len(entries))
	for _, e := range entries {
		u := &qudtUnit{entry: e}
		out[e.Name] = u
		dim, ok := qudtDimension(e.Dimension)
		m, okM := new(big.Rat).SetString(e.Multiplier)
		if !ok || !okM || m.Sign() <= 0 {
			continue
		}
		u.val = ucumVal{f: exact.Factor{R: m}, dim: dim}
		if e.Offset != "" {
			o, okO := new(big.Rat).SetString(e.Offset)
			if !okO {
				continue
			}
			if o.Sign() != 0 {
				// QUDT adds the offset before it multiplies.
				u.offset = o.Mul(o, m)
			}
		}
		u.ok = true
	}
	return out
}

// qudtDimension reads "A0E0L1I0M0H0T-1D0"; fractional exponents have no
// unitd dimension.
func qudtDimension(s string) (dimension.Vector, bool) {
	var d dimension.Vector
	if s == "" {
		return d, false
	}
	for i := 0; i < len(s); {
		c := s[i]
		j := i + 1
		for j < len(s) && (s[j] == '-' || s[j] >= '0' && s[j] <= '9') {
			j++
		}
		n, err := strconv.Atoi(s[i+1 : j])
		if err != nil || j < len(s) && s[j] == '.' {
			return d, false
		}
		if name, ok := qudtDimensions[c]; ok {
			d[dimension.Index(name)] = n
		} else if c != 'D' {
			return d, false
		}
		i = j
	}
	return d, true
}

// resolveQUDT reads a QUDT local name that no catalog unit claims.
func (g *Graph) resolveQUDT(name string) (side, error) {
	u := g.codes.qudt[name]
	if u == nil {
		e := g.unknownCode(SystemQUDT, name)
		return side{}, e
	}
	switch {
	case !u.ok:
		return side{}, errorf(CodeIncompatibleUnits, "QUDT unit %s has no conversion unitd can use (dimension vector %q)", name, u.entry.Dimension)
	case u.offset != nil:
		return side{}, errorf(CodeUnknownUnit, "QUDT unit %s is a scale with an offset that no catalog unit claims", name)
	}
	e, err := g.codeExpression(SystemQUDT+":"+name, SystemQUDT+":"+name, u.val)
	return side{expr: e}, err
}

// compileCodes compiles the code tables and checks the catalog's claims
// on them: each declared code exists in its system's table (unece has
// none here), means the unit's factor within the table's precision, and
// is claimed once. Codes generated for prefixed units are kept only when
// the table has them with the same factor.
func (b *builder) compileCodes(tables *CodeTables) {
	idx := &codeIndex{claimed: map[string]map[string]*Unit{}, sources: map[string]string{}}
	for _, s := range CodeSystems {
		idx.claimed[s] = map[string]*Unit{}
	}
	b.g.codes = idx
	if tables != nil {
		ct := compileTables(tables)
		b.tables = ct
		idx.sources, idx.ucum, idx.cldr, idx.qudt, idx.unece = tables.Sources, ct.ucum, ct.cldr, ct.qudt, ct.unece
		for _, err := range ct.errs {
			b.errs = append(b.errs, &SpecError{Message: err.Error()})
		}
	}
	claimedBy := map[string]*Unit{}
	for _, u := range b.g.units {
		if len(u.Codes) == 0 || u.conv.m == nil && u.conv.post == nil {
			continue
		}
		_, byPrefix := b.prefixCodes[u]
		declared := b.specs[u] != nil || byPrefix
		systems := make([]string, 0, len(u.Codes))
		for s := range u.Codes {
			systems = append(systems, s)
		}
		sort.Strings(systems)
		for _, system := range systems {
			code := u.Codes[system]
			msg := b.checkCode(u, system, code, tables != nil)
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
			delete(u.Codes, system)
		}
	}
}

// checkCode says what is wrong with a unit's claim of a code, or "".
func (b *builder) checkCode(u *Unit, system, code string, haveTables bool) string {
	if code == "" || strings.TrimSpace(code) != code {
		return fmt.Sprintf("code %s:%q is empty or has surrounding white space", system, code)
	}
	var (
		val    ucumVal
		offset *big.Rat
		// digits is the precision of the table's factor: a UCUM or CLDR
		// factor is exact by its definition unless it goes through a
		// rounded constant, which 12 digits let pass; a QUDT multiplier
		// is as precise as it is written.
		digits = 12
	)
	idx := b.g.codes
	switch system {
	case SystemUNECE:
		if len(code) < 2 || len(code) > 3 || strings.ToUpper(code) != code {
			return fmt.Sprintf("unece code %q is not a Recommendation 20 common code (two or three upper-case letters or digits)", code)
		}
		if idx.unece != nil && !idx.unece[code] {
			return fmt.Sprintf("code unece:%s is not in the UN/ECE code list", code)
		}
		return ""
	case SystemUCUM:
		if !haveTables {
			return ""
		}
		v, err := b.tables.parsed(SystemUCUM, code, func() (ucumVal, error) {
			p := &ucumParser{t: idx.ucum, src: code}
			return p.parse()
		})
		if err != nil {
			return fmt.Sprintf("code ucum:%s: %v", code, err)
		}
		if v.special != nil {
			return b.checkSpecial(u, code, v)
		}
		val = v
	case SystemCLDR:
		if !haveTables {
			return ""
		}
		cu := idx.cldr.units[code]
		if cu != nil && cu.digits > 0 {
			digits = min(digits, cu.digits)
		}
		if cu != nil && cu.offset != nil {
			val, offset = cu.val, cu.offset
			break
		}
		v, err := b.tables.parsed(SystemCLDR, code, func() (ucumVal, error) { return idx.cldr.parse(code) })
		if err != nil {
			return fmt.Sprintf("code cldr:%s: %v", code, err)
		}
		val = v
	case SystemQUDT:
		if !haveTables {
			return ""
		}
		q := idx.qudt[code]
		if q == nil {
			return fmt.Sprintf("code qudt:%s is not in the QUDT table", code)
		}
		if !q.ok {
			return fmt.Sprintf("code qudt:%s has no conversion unitd can read (dimension vector %q)", code, q.entry.Dimension)
		}
		val, offset = q.val, q.offset
		if n := leastDigits(q.entry.Multiplier); n > 0 {
			digits = min(n, 15)
		}
		// QUDT has no angle or information dimension: its radian and bit
		// are dimensionless.
		if val.dim != u.Category.dim && val.dim == (dimension.Vector{}) && (u.Category.dim[dimension.Index("A")] != 0 || u.Category.dim[dimension.Index("D")] != 0) {
			val.dim = u.Category.dim
		}
	default:
		return fmt.Sprintf("unknown code system %q (known: %s)", system, strings.Join(CodeSystems, ", "))
	}
	if val.dim != u.Category.dim && val.dim == (dimension.Vector{}).Add(u.Category.dim, -1) && offset == nil && len(val.arb) == 0 {
		return reciprocalClaim(u, system, code, val.f, digits)
	}
	if val.dim != u.Category.dim {
		return fmt.Sprintf("code %s:%s has dimension %s, but the unit's is %s", system, code, val.dim, u.Category.dim)
	}
	if len(val.arb) > 0 {
		return fmt.Sprintf("code %s:%s is an arbitrary unit, which no catalog unit is", system, code)
	}
	if u.conv.formulaUnit {
		return fmt.Sprintf("code %s:%s is a linear unit, but %s is defined by a formula", system, code, u.Symbol)
	}
	_, uo, ok := u.si.m.Affine()
	if !ok {
		return fmt.Sprintf("code %s:%s is a linear unit, but %s is not affine", system, code, u.Symbol)
	}
	if (uo.Sign() != 0) != (offset != nil) {
		return fmt.Sprintf("code %s:%s and the unit differ in offset", system, code)
	}
	if !factorsAgree(u.coherent, val.f, digits) {
		want, _ := factorText(val.f)
		have, _ := factorText(u.coherent)
		return fmt.Sprintf("code %s:%s means %s %s, but the unit is %s %s", system, code, shortFactor(want), val.dim.SIText(), shortFactor(have), val.dim.SIText())
	}
	if offset != nil && !factorsAgree(exact.Factor{R: uo}, exact.Factor{R: offset}, digits) {
		return fmt.Sprintf("code %s:%s has offset %s K, but the unit's is %s", system, code, offset.FloatString(6), uo.FloatString(6))
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
	if u.si != nil {
		m = u.si.m
	}
	if m == nil || m.K() != 0 || f.K != 0 || f.R.Sign() == 0 {
		return fmt.Sprintf("code %s:%s has dimension %s, but the unit's is %s", system, code, (dimension.Vector{}).Add(u.Category.dim, -1), u.Category.dim)
	}
	a, b, c, d := m.Coefficients()
	if a.Sign() != 0 || d.Sign() != 0 || b.Sign() == 0 || c.Sign() == 0 {
		return fmt.Sprintf("code %s:%s has the reciprocal dimension of %s, which is not defined as k/x of its reference", system, code, u.Symbol)
	}
	k := new(big.Rat).SetFrac(b, c)
	if !factorsAgree(exact.Factor{R: k}, exact.Factor{R: new(big.Rat).Inv(f.R)}, digits) {
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
func (b *builder) checkSpecial(u *Unit, code string, v ucumVal) string {
	a := v.special
	dim := a.val.dim
	if fn, ok := ucumFunctions[a.entry.Function]; ok && fn.kelvin {
		dim = dimension.Product("Θ")
	}
	if u.Category.Logarithmic && dim == (dimension.Vector{}) {
		return ""
	}
	if dim != u.Category.dim {
		return fmt.Sprintf("code ucum:%s (special unit, function %s) has dimension %s, but the unit's is %s", code, a.entry.Function, dim, u.Category.dim)
	}
	if !u.conv.formulaUnit && u.conv.m.IsLinear() {
		return fmt.Sprintf("code ucum:%s is a special unit (function %s), but %s is linear", code, a.entry.Function, u.Symbol)
	}
	return ""
}

// factorsAgree compares a unit's factor a with a table's b: equal, or
// within half a unit in the last of the table's digits significant digits.
func factorsAgree(a, b exact.Factor, digits int) bool {
	if a.K == b.K && a.R.Cmp(b.R) == 0 {
		return true
	}
	x, y := piFloat(a), piFloat(b)
	diff := new(big.Float).Sub(x, y)
	diff.Abs(diff)
	tol := new(big.Float).Mul(y, big.NewFloat(5*pow10f(-digits)))
	tol.Abs(tol)
	return diff.Cmp(tol) <= 0
}

func pow10f(n int) float64 {
	f := 1.0
	for ; n < 0; n++ {
		f /= 10
	}
	return f
}

// piFloat approximates r·π^k to 200 bits.
func piFloat(a exact.Factor) *big.Float {
	f := new(big.Float).SetPrec(200).SetRat(a.R)
	if a.K != 0 {
		p := new(big.Float).SetPrec(200).SetInt(pi.Scaled(60))
		p.Quo(p, new(big.Float).SetPrec(200).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(60), nil)))
		for range abs(a.K) {
			if a.K > 0 {
				f.Mul(f, p)
			} else {
				f.Quo(f, p)
			}
		}
	}
	return f
}

// prefixedCodes derives a prefixed unit's codes from its unit's: UCUM
// and CLDR write prefixes as unitd does (symbol, name); QUDT capitalises
// the name. Build keeps those the tables confirm.
func prefixedCodes(codes map[string]string, p prefix) map[string]string {
	if len(codes) == 0 {
		return nil
	}
	out := map[string]string{}
	if c, ok := codes[SystemUCUM]; ok && !strings.ContainsAny(c, "./") {
		out[SystemUCUM] = p.Symbol + c
	}
	if c, ok := codes[SystemCLDR]; ok && !strings.Contains(c, "-") {
		name := p.Name
		if name == "deca" {
			name = "deka"
		}
		out[SystemCLDR] = name + c
	}
	if c, ok := codes[SystemQUDT]; ok && !strings.Contains(c, "-") {
		out[SystemQUDT] = strings.ToUpper(p.Name[:1]) + p.Name[1:] + c
	}
	return out
}

// compiledTables are code tables compiled once: they are read-only
// afterwards, so every graph built with the same *CodeTables (the catalog
// loader hands the same one to each load) shares them.
type compiledTables struct {
	ucum  *ucumTable
	cldr  *cldrTable
	qudt  map[string]*qudtUnit
	unece map[string]bool
	errs  []error
	// codes remembers what each claimed code read as (system:code →
	// parsedCode), since a reload checks the same claims again.
	codes sync.Map
}

type parsedCode struct {
	v   ucumVal
	err error
}

// parsed reads a code once per set of tables.
func (ct *compiledTables) parsed(system, code string, read func() (ucumVal, error)) (ucumVal, error) {
	if ct == nil {
		return read()
	}
	key := system + ":" + code
	if p, ok := ct.codes.Load(key); ok {
		return p.(parsedCode).v, p.(parsedCode).err
	}
	v, err := read()
	ct.codes.Store(key, parsedCode{v, err})
	return v, err
}

var tableCache sync.Map // *CodeTables → *compiledTables

func compileTables(t *CodeTables) *compiledTables {
	if c, ok := tableCache.Load(t); ok {
		return c.(*compiledTables)
	}
	ct := &compiledTables{}
	var errs []error
	ct.ucum, errs = compileUCUM(t.UCUM)
	c, cerrs := compileCLDR(t.CLDR)
	ct.cldr, ct.errs = c, append(errs, cerrs...)
	ct.qudt = compileQUDT(t.QUDT)
	if len(t.UNECE) > 0 {
		ct.unece = make(map[string]bool, len(t.UNECE))
		for _, c := range t.UNECE {
			ct.unece[c] = true
		}
	}
	actual, _ := tableCache.LoadOrStore(t, ct)
	return actual.(*compiledTables)
}
