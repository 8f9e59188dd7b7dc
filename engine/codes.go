package engine

import (
	"context"
	"fmt"
	"github.com/unitd/unitd/engine/dimension"
	"github.com/unitd/unitd/engine/internal/suggest"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/unitd/unitd/engine/internal/exact"
)

// Standard unit codes
//
// Wherever a unit is accepted, "<system>:<code>" names a unit of one of
// four code systems: ucum: (the Unified Code for Units of Measure), cldr:
// (Unicode CLDR unit identifiers), unece: (UN/ECE Recommendation 20
// common codes) and qudt: (QUDT unit local names, also written as the IRI
// http://qudt.org/vocab/unit/<name>). The system prefix is matched
// without regard to case; the code keeps its system's rules.
//
// A code that a catalog unit claims (UnitSpec.Codes) is that unit, with
// its category. Any other code is read with its system's own table
// (CodeTables, shipped with the catalog) and grammar and becomes a unit
// expression of its dimension: ucum:kg.m/s2 converts to N like kg*m/s^2.
// Build checks every claim against the system's table: the code exists,
// means the same factor within the table's precision, and no two units
// claim it. unece: has no table of its own here: it reads the codes the
// catalog claims.

// The code systems, as written before the colon.
const (
	SystemUCUM  = "ucum"
	SystemCLDR  = "cldr"
	SystemUNECE = "unece"
	SystemQUDT  = "qudt"
)

// CodeSystems lists the code systems in the order unit records print them.
var CodeSystems = []string{SystemUCUM, SystemCLDR, SystemUNECE, SystemQUDT}

// QUDTNamespace is the IRI prefix of QUDT units.
const QUDTNamespace = "http://qudt.org/vocab/unit/"

// CodeTables are the code systems' own tables, as the catalog loader reads
// them. Build compiles them with the catalog.
type CodeTables struct {
	UCUM []UCUMEntry
	CLDR []CLDREntry
	QUDT []QUDTEntry
	// UNECE lists the UN/ECE Recommendation 20 (and 21) common codes that
	// exist; what one means is the claim of the catalog unit that has it.
	UNECE []string
	// Sources says where each system's table comes from (upstream package
	// and version), by system.
	Sources map[string]string
}

// CLDREntry is one row of the CLDR table: a simple unit (ID, the base unit
// it converts to, Factor and Offset as exact expressions), or a prefix
// (ID the prefix's name, Base its symbol, Factor its value).
type CLDREntry struct {
	Type    string // "unit", "prefix" or "constant"
	ID      string
	Base    string
	Factor  string
	Offset  string
	Systems string
	Special string
}

// QUDTEntry is one QUDT unit: its local name, dimension vector
// (A0E0L1I0M0H0T0D0), and multiplier and offset onto the coherent SI unit
// of that dimension.
type QUDTEntry struct {
	Name       string
	Dimension  string
	Multiplier string
	Offset     string
	Symbol     string
	Label      string
	Deprecated bool
	Generated  bool
}

// SplitCode splits a namespaced unit name into its system (in lower case)
// and code: "UCUM:mg/dL" is ("ucum", "mg/dL"), a QUDT IRI is ("qudt",
// its local name). ok is false for a name that names no system; a name
// with an unknown system ("foo:bar") gives that system in lower case.
func SplitCode(name string) (system, code string, ok bool) {
	for _, iri := range [...]string{QUDTNamespace, "https://qudt.org/vocab/unit/"} {
		if len(name) > len(iri) && strings.EqualFold(name[:len(iri)], iri) {
			return SystemQUDT, name[len(iri):], true
		}
	}
	i := strings.IndexByte(name, ':')
	if i <= 0 || i > 16 {
		return "", "", false
	}
	for j := 0; j < i; j++ {
		c := name[j]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return "", "", false
		}
	}
	if strings.HasPrefix(name[i:], "://") {
		return strings.ToLower(name[:i]), name, true // an IRI of no known system
	}
	return strings.ToLower(name[:i]), name[i+1:], true
}

// codeIndex is the compiled code tables of a graph and the catalog's
// claims on them.
type codeIndex struct {
	ucum    *ucumTable
	cldr    *cldrTable
	qudt    map[string]*qudtUnit
	unece   map[string]bool // the Rec 20/21 codes that exist
	sources map[string]string
	// claimed maps a system and a code to the catalog unit claiming it.
	claimed map[string]map[string]*Unit
	// resolved caches resolutions of namespaced names (bounded like the
	// expression cache).
	resolved sync.Map // string → side
	n        atomic.Int64
}

func (c *codeIndex) cached(name string) (side, bool) {
	v, ok := c.resolved.Load(name)
	if !ok {
		return side{}, false
	}
	return v.(side), true
}

func (c *codeIndex) remember(name string, s side) {
	if c.n.Add(1) > maxCachedExpressions {
		c.resolved.Clear()
		c.n.Store(1)
	}
	c.resolved.Store(strings.Clone(name), s)
}

// CodeOf returns the unit's code in a standard code system, or "".
func (u *Unit) CodeOf(system string) string { return u.Codes[system] }

// CodeSource says where the graph's table of a code system comes from,
// or "" when it has none.
func (g *Graph) CodeSource(system string) string {
	if g.codes == nil {
		return ""
	}
	return g.codes.sources[system]
}

// resolveCode resolves a namespaced name; ok is false when name names no
// code system at all.
func (g *Graph) resolveCode(name string) (s side, err error, ok bool) {
	system, code, ok := SplitCode(name)
	if !ok {
		return side{}, nil, false
	}
	if g.codes == nil {
		return side{}, errorf(CodeUnknownUnit, "unknown unit %q: this catalog has no code tables", shorten(name)), true
	}
	if s, hit := g.codes.cached(name); hit {
		return s, nil, true
	}
	if len(code) > maxUCUMLength {
		return side{}, errorf(CodeInvalidUnitExpression, "%s code is longer than %d bytes", system, maxUCUMLength), true
	}
	if u := g.codes.claimed[system][code]; u != nil {
		s = side{unit: u}
	} else {
		switch system {
		case SystemUCUM:
			s, err = g.resolveUCUM(code)
		case SystemCLDR:
			s, err = g.resolveCLDR(code)
		case SystemQUDT:
			s, err = g.resolveQUDT(code)
		case SystemUNECE:
			e := g.unknownCode(system, code)
			if g.codes.unece[code] {
				e.Message = "UN/ECE Recommendation 20 code " + code + " names no unit of the catalog" + strings.TrimPrefix(e.Message, "unknown unece code "+strconvQuote(code))
			}
			err = e
		default:
			e := errorf(CodeUnknownUnit, "unknown unit system %q in %q: the systems are %s", shorten(system), shorten(name), strings.Join(CodeSystems, ", "))
			for _, sys := range CodeSystems {
				e.Suggestions = append(e.Suggestions, sys+":"+shorten(code))
			}
			if strings.Contains(code, "://") {
				e.Suggestions = nil
			}
			err = e
		}
	}
	if err != nil {
		return side{}, err, true
	}
	g.codes.remember(name, s)
	return s, nil, true
}

// unknownCode is UNKNOWN_UNIT for a code of a known system, with up to
// five suggestions among the codes the catalog claims in that system.
func (g *Graph) unknownCode(system, code string) *Error {
	e := errorf(CodeUnknownUnit, "unknown %s code %s", system, strconvQuote(code))
	type scored struct {
		code string
		d    int
	}
	var best []scored
	if len(code) <= 64 {
		lower := strings.ToLower(code)
		for c := range g.codes.claimed[system] {
			if len(c) > len(code)+3 || len(c)+3 < len(code) {
				continue
			}
			if d := suggest.Distance(lower, strings.ToLower(c)); d <= 2 {
				best = append(best, scored{c, d})
			}
		}
	}
	sort.Slice(best, func(i, j int) bool {
		if best[i].d != best[j].d {
			return best[i].d < best[j].d
		}
		return best[i].code < best[j].code
	})
	for _, s := range best {
		if len(e.Suggestions) == 5 {
			break
		}
		e.Suggestions = append(e.Suggestions, system+":"+s.code)
	}
	if len(e.Suggestions) > 0 {
		e.Message += "; did you mean " + strings.Join(e.Suggestions, ", ") + "?"
	}
	return e
}

// resolveUCUM reads a UCUM code that no catalog unit claims.
func (g *Graph) resolveUCUM(code string) (side, error) {
	p := &ucumParser{t: g.codes.ucum, src: code, claimed: g.codes.claimed[SystemUCUM]}
	v, err := p.parse()
	if err != nil {
		return side{}, err
	}
	if v.special != nil {
		u, err := g.specialUnit(code, v)
		if err != nil {
			return side{}, err
		}
		return side{unit: u}, nil
	}
	symbol := string(p.canon)
	if !p.mapped {
		symbol = SystemUCUM + ":" + code
	}
	e, err := g.codeExpression(symbol, SystemUCUM+":"+code, v)
	return side{expr: e}, err
}

// codeExpression makes a unit expression of the value of a code
// (system:code).
func (g *Graph) codeExpression(symbol, code string, v ucumVal) (*Expression, error) {
	if v.f.R.Sign() <= 0 {
		// ucum:0 (a factor of zero) is no unit: nothing converts to it.
		return nil, errorf(CodeInvalidUnitExpression, "%s is not a unit: its factor is %s", shorten(code), v.f.R.RatString())
	}
	e := &Expression{Symbol: symbol, dim: v.dim, factor: v.f, arbitrary: arbKey(v.arb), code: code}
	if c := g.byDimension[e.dim]; c != nil && e.arbitrary == "" {
		e.Category = c
	}
	e.conv = conversion{m: exact.Linear(e.factor.R, e.factor.K), exact: true}
	return e, nil
}

// ucumFunctions are the functions of UCUM's special units (UCUM §21–§23):
// to turns a value of the special unit into its reference unit, from the
// reverse, as unitd formulas. The Fahrenheit and Réaumur functions carry
// their factor (5/9, 5/4) themselves, onto the kelvin. The tangent
// functions of [p'diop] and %[slope] read radians: UCUM's table gives
// %[slope] the reference 1 deg, but 100 % of slope is 45°, which only
// atan(x/100) in radians gives (read literally, 10 %[slope] would be
// 0.0997°).
var ucumFunctions = map[string]struct {
	to, from string
	kelvin   bool // the reference is the kelvin, not the table's value
	radian   bool // the reference is the radian: tan reads radians
}{
	"Cel":         {"x + 273.15", "x - 273.15", true, false},
	"degF":        {"(x + 459.67) * 5 / 9", "x * 9 / 5 - 459.67", true, false},
	"degRe":       {"x * 5 / 4 + 273.15", "(x - 273.15) * 4 / 5", true, false},
	"pH":          {"10 ** -x", "-log10(x)", false, false},
	"ln":          {"exp(x)", "ln(x)", false, false},
	"lg":          {"10 ** x", "log10(x)", false, false},
	"lgTimes2":    {"10 ** (x / 2)", "2 * log10(x)", false, false},
	"ld":          {"exp(x * ln(2))", "ln(x) / ln(2)", false, false},
	"tanTimes100": {"atan(x / 100)", "100 * tan(x)", false, true},
	"100tan":      {"atan(x / 100)", "100 * tan(x)", false, true},
	"sqrt":        {"x * x", "sqrt(x)", false, false},
	"hpX":         {"10 ** -x", "-log10(x)", false, false},
	"hpC":         {"exp(-x * ln(100))", "-ln(x) / ln(100)", false, false},
	"hpM":         {"exp(-x * ln(1000))", "-ln(x) / ln(1000)", false, false},
	"hpQ":         {"exp(-x * ln(50000))", "-ln(x) / ln(50000)", false, false},
}

// specialUnit is the unit of a lone UCUM special unit: the catalog unit
// claiming its atom, under the code's prefix, or else a unit made of its
// UCUM function over its reference.
func (g *Graph) specialUnit(code string, v ucumVal) (*Unit, error) {
	a := v.special
	if u := g.codes.claimed[SystemUCUM][a.entry.Code]; u != nil && v.specialScale.Cmp(exact.One().R) != 0 {
		return scaledUnit(u, SystemUCUM+":"+code, v.specialScale)
	}
	fn, ok := ucumFunctions[a.entry.Function]
	if !ok {
		return nil, errorf(CodeInvalidUnitExpression, "UCUM special unit %s uses the function %q, which unitd does not implement", a.entry.Code, a.entry.Function)
	}
	ref := a.val
	switch {
	case fn.kelvin:
		ref = ucumVal{f: exact.One(), dim: dimension.Product("Θ")}
	case fn.radian:
		ref = ucumVal{f: exact.One(), dim: dimension.Product("A")}
	}
	c := g.byDimension[ref.dim]
	if c == nil {
		return nil, errorf(CodeIncompatibleUnits, "UCUM special unit %s refers to dimension %s, of which unitd has no category", a.entry.Code, ref.dim)
	}
	f, err := ucumFormula(a.entry.Function)
	if err != nil {
		return nil, err
	}
	// The prefix scales the value the function reads (pre); the function
	// lands on the reference, which maps onto the category's base (conv)
	// and onto the coherent SI unit (si).
	pre := exact.Linear(v.specialScale, 0)
	base := exact.Linear(new(big.Rat).Quo(ref.f.R, c.coherent.R), ref.f.K-c.coherent.K)
	si := exact.Linear(ref.f.R, ref.f.K)
	conv, err := formulaConversion(pre, f, base)
	if err != nil {
		return nil, fmt.Errorf("UCUM special unit %s: %w", a.entry.Code, err)
	}
	siConv, err := formulaConversion(pre, f, si)
	if err != nil {
		return nil, fmt.Errorf("UCUM special unit %s: %w", a.entry.Code, err)
	}
	u := &Unit{
		Symbol: SystemUCUM + ":" + code, Name: a.entry.Name, Plural: a.entry.Name,
		Category: c, System: "UCUM", Exact: true,
		Source:     "UCUM, special unit " + a.entry.Code + " (function " + a.entry.Function + "); " + g.codes.sources[SystemUCUM],
		Definition: Definition{Kind: "formula", Unit: c.dim.SIText(), To: fn.to, From: fn.from},
		Codes:      map[string]string{SystemUCUM: code},
	}
	u.conv, u.si, u.coherent = conv, &siConv, ref.f
	return u, nil
}

// ucumFormulas holds the compiled formula pair of each UCUM function, so
// that a special unit under each of its prefixes compiles its function
// once per process.
var ucumFormulas sync.Map // function name → *formula

// ucumFormula is the compiled pair of a UCUM function (ucumFunctions).
func ucumFormula(name string) (*formula, error) {
	if f, ok := ucumFormulas.Load(name); ok {
		return f.(*formula), nil
	}
	fn := ucumFunctions[name]
	f, errTo, errFrom := compileFormulas(context.Background(), fn.to, fn.from)
	if errTo != nil || errFrom != nil {
		return nil, fmt.Errorf("UCUM function %s: %v %v", name, errTo, errFrom)
	}
	v, _ := ucumFormulas.LoadOrStore(name, f)
	return v.(*formula), nil
}

// formulaConversion is the conversion of a unit defined by a formula pair
// f: pre, then f, then post onto the reference. A pair of Möbius maps
// (Cel's x + 273.15) joins pre and post into one exact map, as a catalog
// formula does (defineFormula); any other runs stepwise in decimals.
func formulaConversion(pre *exact.Map, f *formula, post *exact.Map) (conversion, error) {
	c := conversion{formulaUnit: true, exact: true}
	if f.toMap == nil {
		c.pre, c.formula, c.post = pre, f, post
		return c, nil
	}
	m, err := pre.Then(f.toMap)
	if err == nil {
		m, err = m.Then(post)
	}
	c.m = m
	return c, err
}

// scaledUnit is u under a prefix: scale times u, for a unit without
// offset or one defined by a formula (where the prefix scales the value
// the formula reads).
func scaledUnit(u *Unit, symbol string, scale *big.Rat) (*Unit, error) {
	if !u.conv.formulaUnit && (u.conv.m == nil || !u.conv.m.IsLinear()) {
		return nil, errorf(CodeInvalidUnitExpression, "%s: a prefix on the scale %s is not defined", symbol, u.Symbol)
	}
	nu := *u
	nu.Symbol, nu.Prefixed, nu.Aliases, nu.Symbols, nu.Examples = symbol, u, nil, nil, nil
	m := exact.Linear(scale, 0)
	// The prefix scales the value the unit's map (or formula) reads.
	scaleConv := func(c conversion) (conversion, error) {
		var err error
		if c.transcendental() {
			c.pre, err = m.Then(c.pre)
		} else {
			c.m, err = m.Then(c.m)
		}
		if c.minimum != nil && err == nil {
			c.minimum = minimumOf(u.Category, c.m)
		}
		return c, err
	}
	var err error
	if nu.conv, err = scaleConv(u.conv); err != nil {
		return nil, errorf(CodeInvalidUnitExpression, "%s: %v", symbol, err)
	}
	if u.si != nil {
		s, err := scaleConv(*u.si)
		if err != nil {
			return nil, errorf(CodeInvalidUnitExpression, "%s: %v", symbol, err)
		}
		nu.si = &s
	}
	nu.coherent = u.coherent.Mul(exact.Factor{R: scale})
	nu.asInterval = nil
	return &nu, nil
}

// minimumOf is the bound that the category minimum sets on a unit whose
// map is m, (x·a + b)/d with d > 0: x is in range when x·a + b >=
// minimum·d. It is nil when there is nothing to bound or the bound is no
// exact decimal (Build refuses such catalog units).
func minimumOf(c *Category, m *exact.Map) *bound {
	if c.minimum == nil || m == nil || m.HasPole() || m.K() != 0 {
		return nil
	}
	a, bo, _, d := m.Coefficients()
	md, ok := exact.ToDecimal(new(big.Rat).Mul(c.minimum, new(big.Rat).SetInt(d)))
	if !ok {
		return nil
	}
	bd := &bound{min: md}
	setInt(&bd.a, a)
	setInt(&bd.b, bo)
	return bd
}

// checkArbitrary refuses a conversion between arbitrary units that are
// not the same unit (under another prefix), and between an arbitrary unit
// and anything else.
func checkArbitrary(from, to side) *Error {
	fa, ta := "", ""
	if from.expr != nil {
		fa = from.expr.arbitrary
	}
	if to.expr != nil {
		ta = to.expr.arbitrary
	}
	if fa == ta {
		return nil
	}
	arb := fa
	if arb == "" {
		arb = ta
	}
	e := errorf(CodeIncompatibleUnits, "cannot convert %s to %s: %s is an arbitrary unit (%s), which converts only to the same unit under another prefix",
		from.symbol(), to.symbol(), map[bool]string{true: from.symbol(), false: to.symbol()}[fa != ""], arb)
	e.Details = dimensionDetails(from.dim(), to.dim())
	return e
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
}

// CodeCoverage reports, per code system, how many of its table's units
// the graph reads and how many the catalog claims. unece's table says
// only which codes exist, so it reads those the catalog claims.
func (g *Graph) CodeCoverage() []Coverage {
	if g.codes == nil {
		return nil
	}
	var out []Coverage
	measure := func(system string, codes []string) {
		c := Coverage{System: system, Source: g.codes.sources[system], Units: len(codes)}
		for _, code := range codes {
			if _, err, _ := g.resolveCode(system + ":" + code); err == nil {
				c.Read++
			} else {
				c.Unread = append(c.Unread, code)
			}
			if g.codes.claimed[system][code] != nil {
				c.Claimed++
			} else {
				c.Unclaimed = append(c.Unclaimed, code)
			}
		}
		out = append(out, c)
	}
	if t := g.codes.ucum; t != nil {
		measure(SystemUCUM, t.codes)
	}
	if t := g.codes.cldr; t != nil {
		measure(SystemCLDR, t.ids)
	}
	var qudt []string
	for name, u := range g.codes.qudt {
		if !u.entry.Deprecated {
			qudt = append(qudt, name)
		}
	}
	sort.Strings(qudt)
	measure(SystemQUDT, qudt)
	unece := make([]string, 0, len(g.codes.unece))
	for code := range g.codes.unece {
		unece = append(unece, code)
	}
	sort.Strings(unece)
	measure(SystemUNECE, unece)
	return out
}

// codeStep says what a code that no catalog unit claims means: its
// factor in its system's table and where the table comes from, and, when
// a catalog unit has the code's spelling but another factor, that the two
// differ (UCUM's eV goes through an older value of the elementary charge).
func (g *Graph) codeStep(e *Expression) Step {
	system, code, _ := SplitCode(e.code)
	f, exact := factorText(e.factor)
	s := Step{Unit: e.code, Exact: exact, Source: g.codes.sources[system],
		Definition: "1 " + e.code + " = " + f + " " + e.dim.SIText() + " (as the " + strings.ToUpper(system) + " table defines it)"}
	if u, ok := g.bySymbol[code]; ok && u.Category.dim == e.dim && u.coherent.R.Cmp(e.factor.R) != 0 {
		uf, _ := factorText(u.coherent)
		s.Definition += "; the catalog's " + u.Symbol + " is " + uf + " " + e.dim.SIText() + ", another value"
	}
	return s
}

func strconvQuote(s string) string { return strconv.Quote(shorten(s)) }
