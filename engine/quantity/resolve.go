package quantity

import (
	"errors"
	"strings"
	"sync"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine"
)

// marks are the typed spellings of feet and inches that the catalog
// does not hold: the apostrophe and quotation mark, straight and curly.
var marks = map[string]string{"'": "ft", "’": "ft", "′": "ft", `"`: "in", "”": "in", "″": "in", "''": "in", "′′": "in"}

// freeTextAmbiguous are names that the catalog reads one way and people
// often mean another way in free text: F is the farad and C the coulomb
// to the catalog, and Fahrenheit and Celsius in "72 F" or "20 C".
var freeTextAmbiguous = map[string][]string{"F": {"degF", "F"}, "C": {"degC", "C"}}

// degree normalises the spellings of degrees: "° F", "ºF" (the ordinal
// indicator), "deg F" → "°F".
func degree(s string) string {
	s = strings.ReplaceAll(s, "º", "°")
	if rest, ok := strings.CutPrefix(s, "°"); ok {
		return "°" + strings.TrimLeft(rest, " \u00a0")
	}
	return s
}

// resolve finds the unit of c.unitText: a mark, the catalog (symbols,
// aliases, expressions), then the locale's names.
func (p *parser) resolve(c *component) error {
	if p.resolveQuiet(c, true) {
		return nil
	}
	return p.resolveLoud(c)
}

// resolveQuiet tries the cheap readings of c.unitText: marks, catalog
// names, the locale's names, and, when expr is set, expressions (which
// hold an operator or a digit); it reports success and never builds an
// error.
func (p *parser) resolveQuiet(c *component, expr bool) bool {
	t := c.unitText
	if sym, ok := marks[t]; ok {
		if u, _ := p.g.Find(sym); u != nil {
			c.unit, c.symbol = u, u.Symbol
			return true
		}
		return false
	}
	if _, ok := freeTextAmbiguous[t]; ok {
		return false
	}
	t = degree(t)
	if u, a := p.g.Find(t); u != nil {
		c.unit, c.symbol = u, u.Symbol
		return true
	} else if a != nil {
		return false
	}
	if p.opt.Names != nil {
		if syms := p.opt.Names(t); len(syms) == 1 {
			if u, _ := p.g.Find(syms[0]); u != nil {
				c.unit, c.symbol = u, u.Symbol
				return true
			}
		} else if len(syms) > 1 {
			return false
		}
	}
	if expr && strings.ContainsAny(t, "*/^·⋅()0123456789⁰¹²³⁴⁵⁶⁷⁸⁹⁻") {
		if u, x, err := p.g.Resolve(t); err == nil {
			c.unit, c.expr = u, x
			if u != nil {
				c.symbol = u.Symbol
			} else {
				c.symbol = x.Symbol
			}
			return true
		}
	}
	return false
}

// resolveLoud explains why c.unitText names no unit.
func (p *parser) resolveLoud(c *component) error {
	t := c.unitText
	if sym, ok := marks[t]; ok {
		u, err := p.g.Lookup(sym)
		if err != nil {
			return p.unitError(c, err)
		}
		c.unit, c.symbol = u, u.Symbol
		return nil
	}
	if cands, ok := freeTextAmbiguous[t]; ok && p.allExist(cands) {
		e := fail(p.text, c.unitOff, "“"+t+"” is ambiguous in free text: "+strings.Join(cands, " or ")+"; write the symbol you mean")
		e.Candidates = append([]string(nil), cands...)
		return e
	}
	t = degree(t)
	u, x, err := p.g.Resolve(t)
	if err == nil {
		c.unit, c.expr = u, x
		if u != nil {
			c.symbol = u.Symbol
		} else {
			c.symbol = x.Symbol
		}
		return nil
	}
	var ee *engine.Error
	if errors.As(err, &ee) && ee.Code == engine.CodeAmbiguousUnit {
		return p.unitError(c, err)
	}
	if p.opt.Names != nil {
		if syms := p.opt.Names(t); len(syms) == 1 {
			if u, err := p.g.Lookup(syms[0]); err == nil {
				c.unit, c.symbol = u, u.Symbol
				return nil
			}
		} else if len(syms) > 1 {
			e := fail(p.text, c.unitOff, "“"+t+"” means more than one unit in "+p.locale()+": "+strings.Join(syms, ", "))
			e.Candidates = append([]string(nil), syms...)
			return e
		}
	}
	return p.unitError(c, err)
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
	var ee *engine.Error
	if !errors.As(err, &ee) {
		return err
	}
	var msg string
	switch ee.Code {
	case engine.CodeAmbiguousUnit:
		msg = "“" + c.unitText + "” is ambiguous: " + strings.Join(ee.Candidates, ", ")
	case engine.CodeUnknownUnit:
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
// smallest. In a mixed time, "m" read as the metre is the minute.
func (p *parser) checkMixed(comps []component) error {
	time := false
	for _, c := range comps {
		if c.unit != nil && c.unit.Category != nil && c.unit.Category.ID == "time" {
			time = true
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
		if k := c.unit.Definition.Kind; k == "affine" || k == "formula" {
			return fail(p.text, c.unitOff, "“"+c.unitText+"” cannot be part of a mixed quantity ("+c.unit.Symbol+" is not a plain multiple of its category's base)")
		}
		if c.unit.Category != first.unit.Category {
			return fail(p.text, c.unitOff, "“"+c.unitText+"” ("+c.unit.Category.ID+") does not belong with “"+first.unitText+"” ("+first.unit.Category.ID+") in one quantity")
		}
		if i == 0 {
			continue
		}
		prev := comps[i-1]
		larger, err := p.larger(prev.unit, c.unit)
		if err != nil {
			return fail(p.text, c.unitOff, "“"+c.unitText+"”: "+err.Error())
		}
		if !larger {
			return fail(p.text, c.unitOff, "the parts of a mixed quantity go from the largest unit to the smallest, each once: “"+
				c.unitText+"” is not smaller than “"+prev.unitText+"”")
		}
	}
	return nil
}

// order remembers, for the graph of the last call, which of two units is
// the larger; it holds at most maxOrder pairs.
var order struct {
	mu    sync.Mutex
	graph Graph
	m     map[[2]*engine.Unit]bool // guarded by mu
}

const maxOrder = 4096

// larger reports whether one a is more than one b (units of one
// category), through the engine and remembered.
func (p *parser) larger(a, b *engine.Unit) (bool, error) {
	key := [2]*engine.Unit{a, b}
	order.mu.Lock()
	if order.graph == p.g {
		if v, ok := order.m[key]; ok {
			order.mu.Unlock()
			return v, nil
		}
	}
	order.mu.Unlock()
	res, err := p.g.Convert(engine.Request{Value: "1", From: a.Symbol, To: b.Symbol, Precision: 10})
	if err != nil {
		return false, err
	}
	var d apd.Decimal
	if _, _, err := d.SetString(res.Value); err != nil {
		return false, err
	}
	v := d.Cmp(apd.New(1, 0)) > 0
	order.mu.Lock()
	if order.graph != p.g || len(order.m) >= maxOrder {
		order.graph, order.m = p.g, map[[2]*engine.Unit]bool{}
	}
	order.m[key] = v
	order.mu.Unlock()
	return v, nil
}
