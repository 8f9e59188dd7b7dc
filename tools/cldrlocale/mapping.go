package main

import (
	"errors"
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/tools/cldr"
)

// cldrConversion is one entry of cldr-core's convertUnits: 1 unit =
// factor base + offset.
type cldrConversion struct {
	base           string
	factor, offset *big.Rat
	approx         bool
}

// cldrData is what cldr-core says about converting units.
type cldrData struct {
	units    map[string]cldrConversion
	prefixes map[string]*big.Rat // "kilo" → 1000, "kibi" → 1024
}

func readConversions(m cldr.Modules) (*cldrData, error) {
	var f struct {
		Supplemental struct {
			UnitPrefixes map[string]struct {
				Power10 string `json:"_power10"`
				Power2  string `json:"_power2"`
			} `json:"unitPrefixes"`
			UnitConstants map[string]struct {
				Value  string `json:"_value"`
				Status string `json:"_status"`
			} `json:"unitConstants"`
			ConvertUnits map[string]struct {
				BaseUnit string `json:"_baseUnit"`
				Factor   string `json:"_factor"`
				Offset   string `json:"_offset"`
			} `json:"convertUnits"`
		} `json:"supplemental"`
	}
	if err := m.ReadJSON(core, "supplemental/units.json", &f); err != nil {
		return nil, err
	}
	s := f.Supplemental
	d := &cldrData{units: map[string]cldrConversion{}, prefixes: map[string]*big.Rat{}}
	for name, p := range s.UnitPrefixes {
		base, exp := int64(10), p.Power10
		if p.Power2 != "" {
			base, exp = 2, p.Power2
		}
		e, err := strconv.Atoi(exp)
		if err != nil {
			return nil, fmt.Errorf("unit prefix %s: %v", name, err)
		}
		r := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(base), big.NewInt(int64(abs(e))), nil))
		if e < 0 {
			r.Inv(r)
		}
		d.prefixes[name] = r
	}
	// Constants refer to each other; evaluate on demand.
	consts := map[string]*big.Rat{}
	approx := map[string]bool{}
	var eval func(expr string, depth int) (*big.Rat, bool, error)
	constant := func(name string, depth int) (*big.Rat, bool, error) {
		if v, ok := consts[name]; ok {
			return v, approx[name], nil
		}
		c, ok := s.UnitConstants[name]
		if !ok {
			return nil, false, fmt.Errorf("unknown constant %q", name)
		}
		v, a, err := eval(c.Value, depth+1)
		if err != nil {
			return nil, false, fmt.Errorf("constant %s: %w", name, err)
		}
		a = a || c.Status == "approximate"
		consts[name], approx[name] = v, a
		return v, a, nil
	}
	// eval reads CLDR's factor syntax: a product, optionally "/" and a
	// product that divides all of it ("1/360*60" is 1/21600).
	eval = func(expr string, depth int) (*big.Rat, bool, error) {
		if depth > 20 {
			return nil, false, fmt.Errorf("constants nest too deeply")
		}
		num, den, _ := strings.Cut(expr, "/")
		r := big.NewRat(1, 1)
		inexact := false
		for i, side := range []string{num, den} {
			if i == 1 && strings.TrimSpace(side) == "" {
				break
			}
			for _, t := range strings.Split(side, "*") {
				t = strings.TrimSpace(t)
				v, ok := new(big.Rat).SetString(t)
				if !ok {
					var a bool
					var err error
					if v, a, err = constant(t, depth); err != nil {
						return nil, false, err
					}
					inexact = inexact || a
				}
				if i == 0 {
					r.Mul(r, v)
				} else {
					r.Quo(r, v)
				}
			}
		}
		return r, inexact, nil
	}
	for name, u := range s.ConvertUnits {
		c := cldrConversion{base: u.BaseUnit, factor: big.NewRat(1, 1), offset: new(big.Rat)}
		var err error
		var a bool
		if u.Factor != "" {
			if c.factor, a, err = eval(u.Factor, 0); err != nil {
				return nil, fmt.Errorf("convertUnits %s: %w", name, err)
			}
			c.approx = a
		}
		if u.Offset != "" {
			if c.offset, a, err = eval(u.Offset, 0); err != nil {
				return nil, fmt.Errorf("convertUnits %s: %w", name, err)
			}
			c.approx = c.approx || a
		}
		d.units[name] = c
	}
	return d, nil
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// baseSymbols are the catalog symbols of CLDR's base units.
var baseSymbols = map[string]string{
	"meter": "m", "kilogram": "kg", "second": "s", "ampere": "A", "kelvin": "K",
	"mole": "mol", "candela": "cd", "revolution": "rev", "bit": "bit",
}

// reduce reads a CLDR unit identifier (UTS #35 Part 6: prefixes,
// square-/cubic-/powN-, products joined by "-", one "-per-", numbers)
// into its factor to CLDR's base units and their exponents.
func (d *cldrData) reduce(id string) (factor *big.Rat, dims map[string]int, approx bool, err error) {
	factor, dims = big.NewRat(1, 1), map[string]int{}
	num, den, _ := strings.Cut(id, "-per-")
	if strings.HasPrefix(id, "per-") {
		num, den = "", strings.TrimPrefix(id, "per-")
	}
	for sign, side := range map[int]string{1: num, -1: den} {
		if side == "" {
			continue
		}
		toks := strings.Split(side, "-")
		for i := 0; i < len(toks); {
			pow := 1
			switch t := toks[i]; {
			case t == "square":
				pow, i = 2, i+1
			case t == "cubic":
				pow, i = 3, i+1
			case strings.HasPrefix(t, "pow") && len(t) == 4:
				pow, i = int(t[3]-'0'), i+1
			}
			if i >= len(toks) {
				return nil, nil, false, fmt.Errorf("%s: a power without a unit", id)
			}
			if n, ok := new(big.Rat).SetString(toks[i]); ok && toks[i][0] >= '0' && toks[i][0] <= '9' {
				for k := 0; k < pow; k++ {
					mulPow(factor, n, sign)
				}
				i++
				continue
			}
			// The longest simple unit, possibly prefixed, at i.
			j, f, simple := len(toks), (*big.Rat)(nil), ""
			for ; j > i; j-- {
				name := strings.Join(toks[i:j], "-")
				if _, ok := d.units[name]; ok {
					f, simple = big.NewRat(1, 1), name
					break
				}
				if p, rest, ok := d.prefixed(name); ok {
					f, simple = p, rest
					break
				}
			}
			if simple == "" {
				return nil, nil, false, fmt.Errorf("%s: no CLDR unit at %q", id, strings.Join(toks[i:], "-"))
			}
			i = j
			// An offset unit inside a compound is its interval (°F per
			// foot), as in the catalog; the offset applies only to a
			// simple unit, which agrees reads from d.units itself.
			c := d.units[simple]
			approx = approx || c.approx
			f.Mul(f, c.factor)
			for k := 0; k < pow; k++ {
				mulPow(factor, f, sign)
			}
			if c.base == simple {
				dims[simple] += sign * pow
				continue
			}
			bf, bd, ba, err := d.reduce(c.base)
			if err != nil {
				return nil, nil, false, err
			}
			approx = approx || ba
			for k := 0; k < pow; k++ {
				mulPow(factor, bf, sign)
			}
			for b, e := range bd {
				dims[b] += sign * pow * e
			}
		}
	}
	for b, e := range dims {
		if e == 0 {
			delete(dims, b)
		}
	}
	return factor, dims, approx, nil
}

func mulPow(r, f *big.Rat, sign int) {
	if sign > 0 {
		r.Mul(r, f)
	} else {
		r.Quo(r, f)
	}
}

// prefixed splits name into an SI or binary prefix and a CLDR unit.
func (d *cldrData) prefixed(name string) (*big.Rat, string, bool) {
	for p, f := range d.prefixes {
		if rest, ok := strings.CutPrefix(name, p); ok {
			if _, ok := d.units[rest]; ok {
				return new(big.Rat).Set(f), rest, true
			}
		}
	}
	return nil, "", false
}

// expression writes CLDR base-unit exponents as a catalog unit
// expression ("kg*m^-1*s^-2"), or false when a base unit has no catalog
// symbol.
func expression(dims map[string]int) (string, bool) {
	var names []string
	for b := range dims {
		names = append(names, b)
	}
	sort.Strings(names)
	var parts []string
	for _, b := range names {
		sym, ok := baseSymbols[b]
		if !ok {
			return "", false
		}
		if e := dims[b]; e == 1 {
			parts = append(parts, sym)
		} else {
			parts = append(parts, sym+"^"+strconv.Itoa(e))
		}
	}
	if len(parts) == 0 {
		return "", false
	}
	return strings.Join(parts, "*"), true
}

// agrees checks a catalog unit against CLDR's conversion data for id: 1
// and 0 of the unit convert to CLDR's base units as CLDR says.
func (d *cldrData) agrees(g *engine.Graph, sym, id string) (bool, string) {
	factor, dims, _, err := d.reduce(id)
	if err != nil {
		return false, err.Error()
	}
	offset := new(big.Rat)
	if c, ok := d.units[id]; ok {
		offset = c.offset
	}
	to, ok := expression(dims)
	if !ok {
		// Names only: CLDR's base (item, portion, year) has no catalog
		// unit to compare through.
		return true, "names only: CLDR's base units of " + id + " have no catalog symbol"
	}
	// CLDR rounds a few factors (the troy ounce to 0.03110348 kg) without
	// marking them approximate; 5e-7 still tells apart every pair of
	// units that share a name (US survey and international feet differ
	// by 2e-6, the IT and thermochemical BTU by 7e-4).
	tol := big.NewRat(5, 10_000_000)
	check := func(x string, want *big.Rat) (bool, string) {
		res, err := g.Convert(engine.Request{Value: x, From: sym, To: to, Precision: 40})
		if err != nil {
			// CLDR, like the SI, counts the radian and steradian as 1;
			// the catalog's angle dimension keeps them.
			for _, a := range []string{"*sr", "*rad", "/sr", "/rad"} {
				if r, e := g.Convert(engine.Request{Value: x, From: sym, To: to + a, Precision: 40}); e == nil {
					res, err = r, nil
					break
				}
			}
		}
		if err != nil {
			var e *engine.Error
			if errors.As(err, &e) && e.Code == engine.CodeIncompatibleUnits {
				if u, _ := g.Lookup(sym); u != nil && u.Doc().Definition.Kind == "formula" {
					return true, "names only: the catalog unit is a formula unit"
				}
			}
			return false, err.Error()
		}
		got, ok := new(big.Rat).SetString(res.Value)
		if !ok {
			return false, "unreadable result " + res.Value
		}
		diff := new(big.Rat).Sub(got, want)
		diff.Abs(diff)
		scale := new(big.Rat).Abs(want)
		if scale.Sign() == 0 {
			scale.SetInt64(1)
		}
		if diff.Cmp(new(big.Rat).Mul(tol, scale)) > 0 {
			w, _ := want.Float64()
			return false, fmt.Sprintf("%s %s = %s %s, CLDR says %g", x, sym, res.Value, to, w)
		}
		if diff.Cmp(new(big.Rat).Mul(big.NewRat(1, 1e15), new(big.Rat).Mul(big.NewRat(1, 1e15), scale))) > 0 {
			w, _ := want.Float64()
			return true, fmt.Sprintf("agrees to 5e-7: %s %s = %s %s, CLDR says %g", x, sym, res.Value, to, w)
		}
		return true, ""
	}
	ok, why := check("1", new(big.Rat).Add(factor, offset))
	if ok && offset.Sign() != 0 {
		return check("0", offset)
	}
	return ok, why
}

// checkClaims compares the catalog's claims (its units' codes' cldr, the
// one mapping of catalog units to CLDR units, which package locale reads
// at run time) with what CLDR's English names say: a CLDR unit names the
// catalog unit that its English names (the identifier with spaces, the
// long and short patterns without the number) resolve to, and to no
// other, when CLDR's conversion factor agrees. It returns a note for each
// such unit that claims another identifier or none, and for each CLDR
// unit whose names mean several catalog units: claims for a person to
// review, never written by the tool. A unit whose symbol is a quotient of
// two claiming units (km/h) needs no claim: package locale composes its
// identifier.
func checkClaims(g *engine.Graph, en map[string]map[string]map[string]string, d *cldrData) (notes []string) {
	var all []string
	for key := range en["long"] {
		if strings.Contains(key, "-") && !strings.HasPrefix(key, "10p") && !strings.HasPrefix(key, "1024p") {
			all = append(all, key)
		}
	}
	sort.Strings(all)
	for _, key := range all {
		_, id, _ := strings.Cut(key, "-")
		names := []string{strings.ReplaceAll(id, "-", " ")}
		for _, w := range []string{"long", "short"} {
			f := en[w][key]
			for _, c := range []string{"one", "other"} {
				if p := f["unitPattern-count-"+c]; p != "" {
					names = append(names, strings.TrimSpace(strings.ReplaceAll(p, "{0}", "")))
				}
			}
		}
		found := map[*engine.Unit]bool{}
		for _, n := range names {
			if u, err := g.Lookup(n); err == nil {
				found[u] = true
			}
		}
		if len(found) > 1 {
			var syms []string
			for u := range found {
				syms = append(syms, u.Symbol)
			}
			sort.Strings(syms)
			notes = append(notes, fmt.Sprintf("%s: its English names mean several catalog units (%s)", key, strings.Join(syms, ", ")))
			continue
		}
		for u := range found {
			claim := u.CodeOf(engine.SystemCLDR)
			if claim == id || composes(g, u.Symbol) == id {
				continue
			}
			if ok, why := d.agrees(g, u.Symbol, id); !ok {
				if claim == "" {
					notes = append(notes, fmt.Sprintf("%s: CLDR's English names mean %s, which claims no CLDR unit; not %s: %s", key, u.Symbol, id, why))
				}
				continue
			}
			if claim == "" {
				notes = append(notes, fmt.Sprintf("%s: CLDR's English names and factor mean %s, which claims no CLDR unit: a claim to review", key, u.Symbol))
			} else {
				notes = append(notes, fmt.Sprintf("%s: CLDR's English names and factor mean %s, which claims %s", key, u.Symbol, claim))
			}
		}
	}
	return notes
}

// composes is the identifier package locale composes for a catalog
// symbol that is a quotient of two claiming units ("km/h" of kilometer
// and hour), or "".
func composes(g *engine.Graph, symbol string) string {
	num, den, ok := strings.Cut(symbol, "/")
	if !ok {
		return ""
	}
	a, _ := g.Lookup(num)
	b, _ := g.Lookup(den)
	if a == nil || b == nil || a.Symbol != num || b.Symbol != den {
		return ""
	}
	x, y := a.CodeOf(engine.SystemCLDR), b.CodeOf(engine.SystemCLDR)
	if x == "" || y == "" || strings.Contains(x, "-per-") || strings.Contains(y, "-per-") {
		return ""
	}
	return x + "-per-" + y
}
