package codes

import (
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/unitd/unitd/engine/dimension"
	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/internal/suggest"
)

// CLDR unit identifiers
//
// A cldr: code is read with the grammar of UTS #35 Part 6: CLDR's simple
// units, optionally prefixed (kilo, mebi), with square-, cubic- or powN-,
// joined by - into products, with one -per-. Each simple unit converts to
// CLDR's base units by the factor and offset of CLDR's units.json.
//
// CLDR's conventions, made explicit:
//   - CLDR's base of angle is the revolution: unitd reads it as 2π rad,
//     so a CLDR angle or angular velocity (degree-per-second) is an angle
//     or angular velocity to unitd, never a frequency;
//   - CLDR writes hertz as revolution-per-second, one cycle per second:
//     unitd reads hertz as the frequency 1/s, the catalog's Hz, which the
//     catalog relates to angular velocity through its bridge (1 Hz = 2π
//     rad/s), not as an angular velocity;
//   - CLDR writes lumen as candela-square-meter-per-square-meter and lux
//     as candela-per-square-meter, a steradian of m²/m²: unitd reads them
//     as candela-steradian and candela-steradian per square metre, the
//     catalog's lm and lx;
//   - CLDR's year is a calendar year that CLDR relates to no number of
//     seconds (the quantity year-duration): unitd reads it as the mean
//     Gregorian year, 365.2425 days, the year CLDR's unit preferences and
//     mixed units (year-person-and-month-person) count in, the catalog's
//     yr_greg;
//   - CLDR's person units (year-person, month-person, week-person,
//     day-person) are its year, month, week and day, named apart so that
//     a person's age can be worded apart: a code of one names the catalog
//     unit that claims the plain unit (Set.SameUnit);
//   - CLDR counts the mole in items: an item is 1/N_A mol;
//   - CLDR's pixel, em and night are relative to no SI unit: arbitrary
//     units of their own, as UCUM's [IU] is.

// CLDREntry is one row of the CLDR table: a simple unit (ID, the base unit
// it converts to, Factor and Offset as exact expressions), or a prefix
// (ID the prefix's name, Base its symbol, Factor its value).
type CLDREntry struct {
	Type    string // "unit", "prefix", "constant" or "alias"
	ID      string
	Base    string
	Factor  string
	Offset  string
	Systems string
	Special string
}

// cldrTable is the compiled CLDR table of simple units.
type cldrTable struct {
	units    map[string]*cldrUnit
	aliases  map[string]string // deprecated identifier → replacement
	persons  map[string]string // person unit → its plain unit
	prefixes []cldrPrefix      // longest name first
	ids      []string
	suggest  suggest.Index
}

type cldrUnit struct {
	id      string
	val     value    // onto unitd's coherent SI units
	offset  *big.Rat // in coherent SI units, or nil
	ok      bool     // has a unitd dimension
	special string
	digits  int    // significant digits of the least precise number in its factor
	note    string // the convention it was read by, if any
}

type cldrPrefix struct {
	name string
	f    *big.Rat
}

// cldrBase is what each of CLDR's base units is in unitd's coherent SI
// units (see the conventions above).
var cldrBase = map[string]struct{ dim, factor string }{
	"meter": {"L", "1"}, "kilogram": {"M", "1"}, "second": {"T", "1"}, "ampere": {"I", "1"},
	"kelvin": {"Θ", "1"}, "candela": {"J", "1"}, "revolution": {"A", "2*pi"},
	"item": {"N", "1/6.02214076e23"}, "part": {"", "1"}, "bit": {"D", "1"},
	"year": {"T", "31556952"},
}

// cldrReadings are the simple units that unitd reads by another
// definition than CLDR writes, in CLDR's own grammar, and why.
var cldrReadings = map[string]struct{ base, why string }{
	"hertz": {"per-second", "CLDR writes hertz as revolution-per-second, one cycle per second: unitd reads it as the frequency 1/s"},
	"lumen": {"candela-steradian", "CLDR writes lumen as candela-square-meter-per-square-meter, a steradian of m²/m²: unitd reads it as candela-steradian"},
	"lux":   {"candela-steradian-per-square-meter", "CLDR writes lux as candela-per-square-meter, without its steradian: unitd reads it as candela-steradian per square metre"},
}

// yearNote says how units counted in CLDR's year are read.
const yearNote = "CLDR's year is a calendar year of no fixed length: unitd reads it as the mean Gregorian year, 365.2425 days, the year of CLDR's unit preferences"

func compileCLDR(entries []CLDREntry) (*cldrTable, []error) {
	t := &cldrTable{units: map[string]*cldrUnit{}, aliases: map[string]string{}, persons: map[string]string{}}
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
		base.units[id] = &cldrUnit{id: id, val: value{f: f, dim: dimension.Product(b.dim)}, ok: true}
	}
	base.units["steradian"] = &cldrUnit{id: "steradian", val: value{f: exact.One(), dim: dimension.Product("A A")}, ok: true}
	// CLDR's base units that it relates to no SI unit (pixel, em, night)
	// are arbitrary units of their own: a dot is a pixel and a megapixel a
	// million, but a pixel converts to nothing else.
	for _, e := range entries {
		if _, ok := cldrBase[e.ID]; e.Type == "unit" && e.Base == e.ID && !ok && e.Special == "" {
			base.units[e.ID] = &cldrUnit{id: e.ID, val: value{f: exact.One(), arb: []arbPower{{e.ID, 1}}}, ok: true}
		}
	}
	for _, e := range entries {
		if e.Type != "unit" {
			continue
		}
		u := &cldrUnit{id: e.ID, special: e.Special, digits: leastDigits(e.Factor)}
		t.units[e.ID] = u
		t.ids = append(t.ids, e.ID)
		t.suggest.Add(e.ID, SystemCLDR+":"+e.ID)
		baseID := e.Base
		if baseID == "year" {
			u.note = yearNote
		}
		if r, ok := cldrReadings[e.ID]; ok {
			baseID, u.note = r.base, r.why
		}
		bv, err := base.parse(baseID)
		if err != nil {
			continue // a base the table cannot read: the unit stays unread
		}
		f, err := exact.ParseFactor(e.Factor)
		if err != nil {
			errs = append(errs, fmt.Errorf("CLDR table: unit %s: factor: %v", e.ID, err))
			continue
		}
		u.val = value{f: bv.f.Mul(f), dim: bv.dim, arb: bv.arb}
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
	// A person unit is its plain unit when CLDR gives both the same base
	// and factor.
	byID := map[string]CLDREntry{}
	for _, e := range entries {
		if e.Type == "unit" {
			byID[e.ID] = e
		}
	}
	for id, e := range byID {
		plain, ok := strings.CutSuffix(id, "-person")
		if p, found := byID[plain]; ok && found && p.Base == e.Base && p.Factor == e.Factor && p.Offset == e.Offset {
			t.persons[id] = plain
		}
	}
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

// read reads a CLDR identifier that no catalog unit claims; claims name
// the catalog units that claim its parts, whose symbols write it
// (centimeter-per-hour is cm/h).
func (t *cldrTable) read(id string, claims Claims) (Meaning, error) {
	if u := t.units[id]; u != nil && u.offset != nil {
		return Meaning{}, fault.Errorf(fault.UnknownUnit, "CLDR unit %q is a scale with an offset that no catalog unit claims", id)
	}
	m, err := t.meaning(id)
	if err == nil && claims != nil {
		m.Symbol = t.symbol(id, claims)
	}
	return m, err
}

// symbol writes an identifier with the symbols of the catalog units that
// claim its parts (a power with the claimant of the whole power,
// cubic-meter as m3, else of its unit raised: m^3), or "" when a part has
// none, or is a number.
func (t *cldrTable) symbol(id string, claims Claims) string {
	var num, den []string
	per := false
	toks := strings.Split(id, "-")
	for i := 0; i < len(toks); {
		tok := toks[i]
		if tok == "per" {
			per = true
			i++
			continue
		}
		power, word := 1, ""
		switch {
		case tok == "square":
			power, word = 2, tok
		case tok == "cubic":
			power, word = 3, tok
		case strings.HasPrefix(tok, "pow"):
			n, err := strconv.Atoi(tok[3:])
			if err != nil {
				return ""
			}
			power, word = n, tok
		}
		if word != "" {
			i++
		}
		sym := ""
		for j := min(len(toks), i+6); j > i && sym == ""; j-- {
			cand := strings.Join(toks[i:j], "-")
			if u, _ := t.lookup(cand); u == nil {
				continue
			}
			if c, ok := claims.Claim(SystemCLDR, cand); ok {
				sym = c.Symbol
				if strings.ContainsAny(sym, "*/^") {
					sym = "(" + sym + ")"
				}
				if word != "" {
					if w, ok := claims.Claim(SystemCLDR, word+"-"+cand); ok && !strings.ContainsAny(w.Symbol, "*/^") {
						sym = w.Symbol
					} else {
						sym += "^" + strconv.Itoa(power)
					}
				}
			}
			i = j
		}
		if sym == "" {
			return ""
		}
		if per {
			den = append(den, sym)
		} else {
			num = append(num, sym)
		}
	}
	out := strings.Join(num, "*")
	if out == "" {
		out = "1"
	}
	for _, d := range den {
		out += "/" + d
	}
	return out
}

// table is read, with the scales of CLDR's table too, for checking a
// catalog unit's claim.
func (t *cldrTable) table(id string) (Meaning, error) {
	if u := t.units[id]; u != nil && u.offset != nil {
		return Meaning{Factor: u.val.f, Dim: u.val.dim, Offset: u.offset, Exact: true, Digits: u.digits, Note: u.note}, nil
	}
	return t.meaning(id)
}

func (t *cldrTable) meaning(id string) (Meaning, error) {
	v, digits, note, err := t.parseNoted(id)
	if err != nil {
		return Meaning{}, err
	}
	return Meaning{Factor: v.f, Dim: v.dim, Exact: true, Digits: digits, Arbitrary: arbKey(v.arb), Note: note}, nil
}

func (t *cldrTable) parse(id string) (value, error) {
	v, _, _, err := t.parseNoted(id)
	return v, err
}

// parseNoted reads a CLDR unit identifier (UTS #35 Part 6): simple units,
// optionally prefixed (kilo, mebi), with square-, cubic- or powN-, joined
// by - into products, with one -per-. It returns the value, the least
// precision of the factors used, and the conventions applied.
func (t *cldrTable) parseNoted(id string) (value, int, string, error) {
	if r, ok := t.aliases[id]; ok {
		id = r
	}
	fail := func(format string, args ...any) (value, int, string, error) {
		e := fault.Errorf(fault.InvalidUnitExpression, format, args...)
		e.Message = "invalid CLDR unit identifier " + strconv.Quote(fault.Truncate(id, 64)) + ": " + e.Message
		return value{}, 0, "", e
	}
	if id == "" {
		return fail("empty")
	}
	toks := strings.Split(id, "-")
	if len(toks) > 64 {
		return fail("more than 64 parts")
	}
	v := one()
	digits := 0
	var notes []string
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
			v = v.mul(value{f: exact.Factor{R: r}}, sign)
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
					v = v.mul(value{f: exact.Factor{R: r}}, sign)
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
			if u.offset != nil && len(toks) > 1 {
				return fail("%s is a scale with an offset and cannot be part of a compound unit", cand)
			}
			w := u.val
			if pf != nil {
				w = value{f: w.f.Mul(exact.Factor{R: pf}), dim: w.dim, arb: w.arb}
			}
			v = v.mul(w.pow(power), sign)
			if u.digits > 0 && (digits == 0 || u.digits < digits) {
				digits = u.digits
			}
			if u.note != "" {
				notes = append(notes, u.note)
			}
			if terms++; terms > maxTerms {
				return fail("more than %d units", maxTerms)
			}
			i, found = j, true
			break
		}
		if !found {
			e := fault.Errorf(fault.UnknownUnit, "unknown CLDR unit %q in %q", fault.Truncate(tok, 64), fault.Truncate(id, 64))
			e.Suggestions = t.suggest.Suggest(tok, 5)
			return value{}, 0, "", e
		}
	}
	if err := exact.CheckSize(v.f.R); err != nil {
		return fail("its factor is %v", err)
	}
	return v, digits, strings.Join(notes, "; "), nil
}

// cldrConstant reads a numeric part of an identifier ("100" in
// liter-per-100-kilometer, "1e9").
func cldrConstant(tok string) (*big.Rat, bool) {
	if tok == "" || tok[0] < '0' || tok[0] > '9' || len(tok) > 20 {
		return nil, false
	}
	if strings.Trim(tok, "0123456789") != "" {
		i := strings.IndexByte(tok, 'e')
		if i <= 0 || strings.Trim(tok[:i], "0123456789") != "" || i+1 == len(tok) || strings.Trim(tok[i+1:], "0123456789") != "" {
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

func sortStrings(s []string) { sort.Strings(s) }
