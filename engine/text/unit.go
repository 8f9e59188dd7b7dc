package text

import (
	"errors"
	"strings"

	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/engine/fault"
)

// Units in free text are read in this order, the first that reads wins:
//
//  1. the feet and inch marks (' ′ ’ and " ″ ”);
//  2. a catalog unit that is no generated prefixed unit (symbols, names,
//     plurals, Unicode spellings), the degree spellings normalised (° F,
//     ºF, degrees C);
//  3. the locale's words (CLDR's unit names: "EL" is the tablespoon in
//     German, "c. à s." in French);
//  4. a prefixed unit (km, mL), when it is customary: QUDT or UN/ECE Rec
//     20 list it, CLDR names it in an entry of its own (kilometre), or it
//     is a unit of data (petabyte); exalitre and teralitre are in none,
//     and free text does not read EL and TL as them;
//  5. the spellings people add: a trailing full stop ("ft.", "lbs."), an
//     s of the plural after a symbol ("kms", "yds"), "X per Y" and "X an
//     hour" for X/Y;
//  6. a unit expression (m/s2, kg·m²).
//
// A unit read as a family member whose meaning depends on the region
// (regional.go) is then settled by the region or refused.

// marks are the typed spellings of feet and inches that the catalog
// does not hold: the apostrophe and quotation mark, straight and curly.
var marks = map[string]string{"'": "ft", "’": "ft", "′": "ft", `"`: "in", "”": "in", "″": "in", "''": "in", "′′": "in"}

// freeTextAmbiguous are names that the catalog reads one way and people
// often mean another way in free text: F is the farad and C the coulomb
// to the catalog, and Fahrenheit and Celsius in "72 F" or "20 C".
var freeTextAmbiguous = map[string][]string{"F": {"degF", "F"}, "C": {"degC", "C"}}

// degreeWords are the words of "37 degrees C" before the scale.
var degreeWords = []string{"degrees ", "degree ", "deg ", "deg. ", "Grad ", "grados ", "degrés ", "degré "}

// degree normalises the spellings of degrees: "° F", "ºF" (the ordinal
// indicator), "deg F", "degrees C" → "°F", "°C".
func degree(s string) string {
	s = strings.ReplaceAll(s, "º", "°")
	if rest, ok := strings.CutPrefix(s, "°"); ok {
		return "°" + strings.TrimLeft(rest, " \u00a0")
	}
	for _, w := range degreeWords {
		if len(s) > len(w) && strings.EqualFold(s[:len(w)], w) {
			rest := strings.TrimSpace(s[len(w):])
			switch {
			case rest == "K" || rest == "k":
				return "K"
			case len(rest) == 1 && strings.ContainsAny(rest, "CFRcfr"):
				return "°" + strings.ToUpper(rest)
			}
		}
	}
	return s
}

// reading is what one spelling of a unit text resolved to.
type reading struct {
	unit *engine.Unit
	expr *engine.Expression
	amb  *engine.Ambiguity
	// names are the locale's symbols for the text, when it was read as
	// the locale's word and means several.
	names []string
	// prefix is a prefixed unit refused as not customary.
	prefix *engine.Unit
}

// resolveQuiet reads c.unitText and reports success; it builds no error.
func (p *parser) resolveQuiet(c *component, expr bool) bool {
	t := c.unitText
	if !p.charge(len(t) + lookupCost) {
		return false
	}
	if sym, ok := marks[t]; ok {
		u, _ := p.g.Find(sym)
		return u != nil && p.accept(c, u, nil, t)
	}
	if _, ok := freeTextAmbiguous[t]; ok {
		return false
	}
	rd := p.lookup(t, expr)
	if rd.unit != nil || rd.expr != nil {
		if rd.expr != nil {
			c.unit, c.expr, c.symbol = nil, rd.expr, rd.expr.Symbol
			return true
		}
		return p.accept(c, rd.unit, nil, t)
	}
	if rd.amb != nil {
		if f := familyOf(nil, rd.amb, t); f != nil {
			if u, _ := p.settle(f); u != nil {
				c.unit, c.expr, c.symbol, c.assumed = u, nil, u.Symbol, p.assumedText(u)
				return true
			}
		}
	}
	return false
}

// accept sets c to u, settling a unit whose meaning depends on the
// region; it reports false when the region does not settle it.
func (p *parser) accept(c *component, u *engine.Unit, a *engine.Ambiguity, t string) bool {
	if f := familyOf(u, a, t); f != nil {
		s, _ := p.settle(f)
		if s == nil {
			return false
		}
		c.unit, c.expr, c.symbol, c.assumed = s, nil, s.Symbol, p.assumedText(s)
		return true
	}
	c.unit, c.expr, c.symbol = u, nil, u.Symbol
	return true
}

// lookup tries the spellings of t in the order above.
func (p *parser) lookup(t string, expr bool) reading {
	if rd := p.lookupOne(t); rd.unit != nil || rd.amb != nil || rd.names != nil {
		return rd
	}
	var rd reading
	for _, v := range variants(t) {
		if !p.charge(len(v.text) + lookupCost) {
			return reading{}
		}
		r := p.lookupOne(v.text)
		if v.plural && r.unit != nil && !isSymbolOf(r.unit, v.text) {
			// The s of a plural follows a symbol only: "kms", not "feets".
			continue
		}
		if r.unit != nil || r.amb != nil || r.names != nil {
			return r
		} else if r.prefix != nil && rd.prefix == nil {
			rd.prefix = r.prefix
		}
	}
	if r := p.phrase(t); r.expr != nil || r.unit != nil {
		return r
	}
	if expr && strings.ContainsAny(t, "*/^·⋅()0123456789⁰¹²³⁴⁵⁶⁷⁸⁹⁻") && !rejectsExpression(t) {
		if !p.charge(4*len(t) + exprCost) {
			return reading{}
		}
		if u, x, err := p.g.Resolve(t); err == nil {
			if u != nil && u.Prefixed != nil && !p.customary(u) {
				rd.prefix = u
				return rd
			}
			return reading{unit: u, expr: x}
		}
	}
	if r := p.lookupOne(t); r.prefix != nil {
		return r
	}
	return rd
}

// rejectsExpression is a text that the expression parser should not
// see: the marks and degree signs.
func rejectsExpression(t string) bool { return strings.ContainsAny(t, "'\"’”″′°") }

// lookupOne reads one spelling: the catalog's unprefixed units, the
// locale's words, then the customary prefixed units.
func (p *parser) lookupOne(t string) reading {
	t = degree(t)
	u, a := p.g.Find(t)
	if a != nil {
		return reading{amb: a}
	}
	if u != nil && (u.Prefixed == nil || isSymbolOf(u, t) && p.customary(u)) {
		return reading{unit: u}
	}
	if p.opt.Names != nil {
		switch syms := p.opt.Names(t); {
		case len(syms) == 1:
			if v, _ := p.g.Find(syms[0]); v != nil {
				return reading{unit: v}
			}
		case len(syms) > 1:
			return reading{names: syms}
		}
	}
	if u != nil && p.customary(u) {
		return reading{unit: u}
	}
	if u != nil {
		return reading{prefix: u}
	}
	return reading{}
}

func isSymbolOf(u *engine.Unit, t string) bool {
	if u.Symbol == t {
		return true
	}
	for _, s := range u.Symbols {
		if s == t {
			return true
		}
	}
	return false
}

// customary reports whether free text reads a prefixed unit: QUDT or
// UN/ECE Rec 20 (tables of units in use) list it, or CLDR names it in an
// entry of its own.
func (p *parser) customary(u *engine.Unit) bool {
	if u.Prefixed == nil {
		return true
	}
	if u.CodeOf("qudt") != "" || u.CodeOf("unece") != "" {
		return true
	}
	if u.Category != nil && u.Category.ID == "data" {
		return true // bytes and bits take every SI and IEC prefix in use
	}
	return p.opt.Named != nil && p.opt.Named(u.Symbol)
}

// variant is a spelling people add to a unit.
type variant struct {
	text   string
	plural bool
}

// variants are the spellings people add to a unit: a trailing full stop
// ("ft.", "lbs."), the s of a plural after a symbol ("kms", "yds").
func variants(t string) []variant {
	var out []variant
	base := t
	if s, ok := strings.CutSuffix(t, "."); ok && s != "" {
		out = append(out, variant{text: s})
		base = s
	}
	if s, ok := strings.CutSuffix(base, "s"); ok && len(s) >= 2 && !strings.ContainsAny(s, " ") {
		out = append(out, variant{text: s, plural: true})
	}
	return out
}

// perWords join a unit and the unit it is per: "kilometers per hour",
// "miles an hour", "Kilometer pro Stunde".
var perWords = []string{" per ", " an ", " a ", " pro ", " par ", " por ", " in the "}

// phrase reads "X per Y" and "X an hour" as the expression X/Y.
func (p *parser) phrase(t string) reading {
	for _, w := range perWords {
		i := strings.Index(strings.ToLower(t), w)
		if i <= 0 {
			continue
		}
		x, y := strings.TrimSpace(t[:i]), strings.TrimSpace(t[i+len(w):])
		if x == "" || y == "" {
			continue
		}
		var cx, cy component
		cx.unitText, cy.unitText = x, y
		if !p.resolveQuiet(&cx, false) || !p.resolveQuiet(&cy, false) || cx.unit == nil || cy.unit == nil {
			continue
		}
		if !p.charge(exprCost) {
			return reading{}
		}
		if u, e, err := p.g.Resolve(cx.unit.Symbol + "/" + cy.unit.Symbol); err == nil {
			return reading{unit: u, expr: e}
		}
	}
	return reading{}
}

// resolveLoud explains why c.unitText names no unit, or reads it when
// only the loud path can (an expression the quiet path left).
func (p *parser) resolveLoud(c *component) error {
	t := c.unitText
	if cands, ok := freeTextAmbiguous[t]; ok && p.allExist(cands) {
		e := fail(p.text, c.unitOff, "“"+t+"” is ambiguous in free text: "+strings.Join(cands, " or ")+"; write the symbol you mean")
		e.Candidates = append([]string(nil), cands...)
		return e
	}
	if sym, ok := marks[t]; ok {
		u, _ := p.g.Find(sym)
		if f := familyOf(u, nil, t); u != nil && f != nil {
			return p.familyError(c, f)
		}
		return fail(p.text, c.unitOff, "“"+t+"” names no unit of this catalog")
	}
	rd := p.lookup(t, true)
	switch {
	case rd.unit != nil:
		if f := familyOf(rd.unit, nil, t); f != nil {
			return p.familyError(c, f)
		}
		c.unit, c.expr, c.symbol = rd.unit, rd.expr, rd.unit.Symbol
		return nil
	case rd.expr != nil:
		c.unit, c.expr, c.symbol = nil, rd.expr, rd.expr.Symbol
		return nil
	case rd.amb != nil:
		if f := familyOf(nil, rd.amb, t); f != nil {
			return p.familyError(c, f)
		}
		e := fail(p.text, c.unitOff, "“"+t+"” is ambiguous: "+candidates(rd.amb))
		for _, u := range rd.amb.Candidates {
			e.Candidates = append(e.Candidates, u.Symbol)
		}
		return e
	case rd.names != nil:
		e := fail(p.text, c.unitOff, "“"+t+"” means more than one unit in "+p.locale()+": "+strings.Join(rd.names, ", "))
		e.Candidates = append([]string(nil), rd.names...)
		return e
	}
	if p.work > p.budget {
		return errBudget(p.text, c.unitOff)
	}
	foreign := p.foreign(t)
	if rd.prefix != nil {
		u := rd.prefix
		e := fail(p.text, c.unitOff, "“"+t+"” would be "+u.Name+" ("+u.Symbol+"), a prefix on "+u.Prefixed.Symbol+" that no table of units in use lists, so free text does not read it; write it in a unit field to mean it")
		e.Candidates = foreign
		if len(foreign) > 0 {
			e.Message = fail(p.text, c.unitOff, "“"+t+"” would be "+u.Name+" ("+u.Symbol+"), which free text does not read; in another language it is "+strings.Join(foreign, ", ")+": pass that locale").Message
		}
		return e
	}
	if len(foreign) > 0 {
		e := fail(p.text, c.unitOff, "“"+t+"” is no unit name in "+p.locale()+"; in another language it is "+strings.Join(foreign, ", ")+": pass that locale (locale=…)")
		e.Candidates = foreign
		return e
	}
	_, _, err := p.g.Resolve(degree(t))
	if err == nil {
		err = fault.Errorf(fault.UnknownUnit, "unknown unit %q", t)
	}
	return p.unitError(c, err)
}

// foreign lists the catalog symbols t names in other languages.
func (p *parser) foreign(t string) []string {
	if p.opt.Foreign == nil {
		return nil
	}
	if syms := p.opt.Foreign(t); len(syms) > 0 {
		return syms
	}
	for _, v := range variants(t) {
		if syms := p.opt.Foreign(v.text); len(syms) > 0 {
			return syms
		}
	}
	return nil
}

func candidates(a *engine.Ambiguity) string {
	parts := make([]string, len(a.Candidates))
	for i, u := range a.Candidates {
		parts[i] = u.Symbol + " (" + u.Name + ")"
	}
	return strings.Join(parts, ", ")
}

func (p *parser) allExist(syms []string) bool {
	for _, s := range syms {
		if u, err := p.g.Lookup(s); err != nil || u.Symbol != s {
			return false
		}
	}
	return true
}

// unitError turns a lookup error into INVALID_QUANTITY at the unit,
// keeping its suggestions or candidates.
func (p *parser) unitError(c *component, err error) error {
	var ee *fault.Error
	if !errors.As(err, &ee) {
		return fail(p.text, c.unitOff, "“"+c.unitText+"”: "+err.Error())
	}
	var msg string
	switch ee.Code {
	case fault.AmbiguousUnit:
		msg = "“" + c.unitText + "” is ambiguous: " + strings.Join(ee.Candidates, ", ")
	case fault.UnknownUnit:
		msg = "unknown unit “" + c.unitText + "”"
		if len(ee.Suggestions) > 0 {
			msg += "; did you mean " + strings.Join(ee.Suggestions, ", ") + "?"
		}
	default:
		msg = "“" + c.unitText + "”: " + ee.Message
	}
	e := fail(p.text, c.unitOff, msg)
	e.Suggestions, e.Candidates = ee.Suggestions, ee.Candidates
	return e
}

// checkMixed checks the components of a mixed quantity: catalog units of
// one category, not affine or formula units, from the largest to the
// smallest, each compared exactly by the engine. In a mixed time, "m"
// read as the metre is the minute.
func (p *parser) checkMixed(comps []component) error {
	time := false
	for _, c := range comps {
		if c.unit != nil && c.unit.Category != nil && c.unit.Category.ID == "time" {
			time = true
		}
		if c.ingredient != nil || c.portion != nil {
			return fail(p.text, c.unitOff, "an ingredient follows the last part of a quantity only")
		}
	}
	if time {
		for i := range comps {
			c := &comps[i]
			if (c.unitText == "m" || c.unitText == "M") && c.unit != nil && c.unit.Category != nil && c.unit.Category.ID != "time" {
				if u, err := p.g.Lookup("min"); err == nil {
					c.unit, c.symbol = u, u.Symbol
				}
			}
		}
	}
	first := comps[0]
	for i, c := range comps {
		if c.unit == nil {
			return fail(p.text, c.unitOff, "“"+c.unitText+"” is a unit expression; the parts of a mixed quantity are catalog units")
		}
		if k := c.unit.Doc().Definition.Kind; k == "affine" || k == "formula" {
			return fail(p.text, c.unitOff, "“"+c.unitText+"” cannot be part of a mixed quantity ("+c.unit.Symbol+" is not a plain multiple of its category's base)")
		}
		if c.unit.Category != first.unit.Category {
			return fail(p.text, c.unitOff, "“"+c.unitText+"” ("+c.unit.Category.ID+") does not belong with “"+first.unitText+"” ("+first.unit.Category.ID+") in one quantity")
		}
		if i == 0 {
			continue
		}
		prev := comps[i-1]
		if !p.charge(lookupCost) {
			return errBudget(p.text, c.unitOff)
		}
		cmp, err := p.g.CompareUnits(prev.unit, c.unit)
		if err != nil {
			return fail(p.text, c.unitOff, "“"+c.unitText+"”: "+err.Error())
		}
		if cmp <= 0 {
			return fail(p.text, c.unitOff, "the parts of a mixed quantity go from the largest unit to the smallest, each once: “"+
				c.unitText+"” is not smaller than “"+prev.unitText+"”")
		}
	}
	return nil
}
