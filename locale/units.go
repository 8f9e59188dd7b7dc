package locale

import (
	"sort"
	"strings"
	"unicode"
)

// Units are written by their CLDR unit identifiers (UTS #35 Part 6), which
// the catalog's claims give (claims.go). A unit with an entry of its own
// in CLDR ("liter-per-kilometer", "kilometer-per-hour") is written with
// it; any other identifier is composed as UTS #35 Part 6 says of compound
// units: a prefix pattern ("kilo{0}") on a unit without an entry of its
// own, a power pattern ("square {0}", "{0}²"), the times pattern between
// the units of a product, and for a quotient the denominator's per-unit
// pattern ("{0} per hour") when it is one unit that has one, else the
// per pattern ("{0} per {1}") with the denominator in its singular form
// (CLDR's "one") without its number. The number goes where the first
// unit's pattern puts it, and the last unit of the numerator takes the
// number's plural form.

// element is one unit of a product: the key of a CLDR unit entry, with a
// prefix (the key of its pattern, "10p3") and a power (1, 2 or 3).
type element struct {
	key, prefix string
	power       int
}

// powers are CLDR's power prefixes of identifiers with patterns.
var powers = map[string]int{"square": 2, "cubic": 3, "pow2": 2, "pow3": 3}

// product reads one side of an identifier ("square-kilometer",
// "newton-meter", "kilonewton") into its units, false when a part names
// no CLDR unit or a power CLDR has no pattern for.
func (s *store) product(side string) ([]element, bool) {
	toks := strings.Split(side, "-")
	var out []element
	for i := 0; i < len(toks); {
		// The longest run with an entry of its own, power words included
		// ("square-foot", "pound-force").
		found := false
		for j := len(toks); j > i; j-- {
			if key, ok := s.keyOf[strings.Join(toks[i:j], "-")]; ok {
				out, i, found = append(out, element{key: key, power: 1}), j, true
				break
			}
		}
		if found {
			continue
		}
		e := element{power: 1}
		if p, ok := powers[toks[i]]; ok {
			e.power, i = p, i+1
		}
		for j := len(toks); j > i && !found; j-- {
			name := strings.Join(toks[i:j], "-")
			if key, ok := s.keyOf[name]; ok {
				e.key, i, found = key, j, true
				break
			}
			for prefix, pk := range s.Prefixes {
				rest, ok := strings.CutPrefix(name, prefix)
				if key, known := s.keyOf[rest]; ok && known && rest != "" {
					e.key, e.prefix, i, found = key, pk, j, true
					break
				}
			}
		}
		if !found {
			return nil, false
		}
		out = append(out, e)
	}
	return out, len(out) > 0
}

// core is a pattern's text without its number: "{0} meters" → "meters".
func core(pattern string) string {
	return strings.TrimFunc(strings.Replace(pattern, "{0}", "", 1), unicode.IsSpace)
}

// elementPattern is the pattern of one unit of a product in a plural
// category: the entry's pattern with the prefix and power patterns
// applied to its text, the number left where the entry puts it.
func (l *Locale) elementPattern(e element, w Width, category string) string {
	p := l.pattern(e.key, w, category)
	if p == "" {
		return ""
	}
	name := core(p)
	if e.prefix != "" {
		pp := l.field(e.prefix, w, "pattern")
		if pp == "" {
			return ""
		}
		p = strings.Replace(p, name, strings.Replace(pp, "{0}", name, 1), 1)
		name = core(p)
	}
	if e.power > 1 {
		pw := l.powerPattern(e.power, w, category)
		if pw == "" {
			return ""
		}
		p = strings.Replace(p, name, strings.Replace(pw, "{0}", name, 1), 1)
	}
	return p
}

// powerPattern is the power2 or power3 pattern for a plural category, else
// the pattern for every count.
func (l *Locale) powerPattern(power int, w Width, category string) string {
	key := "power2"
	if power == 3 {
		key = "power3"
	}
	for ok := true; ok; w, ok = wider(w) {
		if p := l.fieldAt(key, w, category); p != "" {
			return p
		}
		if p := l.fieldAt(key, w, "pattern"); p != "" {
			return p
		}
	}
	return ""
}

// productPattern joins the units of a product with the times pattern, as
// CLDR's own products are written ("pound-force-feet", "kilowatt-hours"):
// the last unit in the number's plural form, those before it in the
// singular (CLDR's "one"); the number stays where the first unit's
// pattern puts it.
func (l *Locale) productPattern(units []element, w Width, category string) string {
	last := len(units) - 1
	form := func(i int) string {
		if i < last {
			return One
		}
		return category
	}
	p := l.elementPattern(units[0], w, form(0))
	if p == "" {
		return ""
	}
	for i, e := range units[1:] {
		q := l.elementPattern(e, w, form(i+1))
		times := l.field("times", w, "pattern")
		if q == "" || times == "" {
			return ""
		}
		name := core(p)
		joined := strings.Replace(strings.Replace(times, "{1}", core(q), 1), "{0}", name, 1)
		p = strings.Replace(p, name, joined, 1)
	}
	return p
}

// unitPattern is the pattern of the CLDR unit id at width w for a plural
// category ("{0} kilometers per hour"), its own entry's or composed; ""
// when the identifier cannot be written from CLDR's data.
func (l *Locale) unitPattern(id string, w Width, category string) string {
	if key, ok := l.s.keyOf[id]; ok {
		return l.pattern(key, w, category)
	}
	num, den, per := strings.Cut(id, "-per-")
	nu, ok := l.s.product(num)
	if !ok {
		return ""
	}
	p := l.productPattern(nu, w, category)
	if !per || p == "" {
		return p
	}
	de, ok := l.s.product(den)
	if !ok {
		return ""
	}
	if len(de) == 1 && de[0].prefix == "" && de[0].power == 1 {
		if pp := l.field(de[0].key, w, "per"); pp != "" {
			return strings.Replace(pp, "{0}", p, 1)
		}
	}
	dp := l.productPattern(de, w, One)
	compound := l.field("per", w, "pattern")
	if dp == "" || compound == "" {
		return ""
	}
	return strings.Replace(strings.Replace(compound, "{1}", core(dp), 1), "{0}", p, 1)
}

// Part is one part of a mixed quantity ("5" "ft").
type Part struct {
	Value, Unit string
}

// FormatUnit writes a number of a catalog unit (its canonical symbol, or
// a quotient of two such symbols) with CLDR's pattern for the unit the
// catalog claims, at width w, in the plural form the number takes: "2
// feet", "1 foot", "96,56064 km/h", "5 километров". Percent and permille
// at the short and narrow widths follow the locale's percent format ("5
// %" in de, "%5" in tr), as ICU writes them. A unit CLDR does not name
// is written as the number and the symbol.
func (l *Locale) FormatUnit(v, symbol string, w Width) string {
	return string(l.AppendUnit(make([]byte, 0, len(v)*2+32), v, symbol, w))
}

// AppendUnit is FormatUnit appending to dst.
func (l *Locale) AppendUnit(dst []byte, v, symbol string, w Width) []byte {
	id := unitID(l.catalog(), symbol)
	if id == "" {
		return l.appendPlain(dst, v, symbol)
	}
	if (id == "percent" || id == "permille") && w != Long {
		if out, ok := l.appendPercent(dst, v, id == "permille"); ok {
			return out
		}
	}
	p := l.unitPattern(id, w, l.Plural(v))
	if p == "" {
		return l.appendPlain(dst, v, symbol)
	}
	return l.fill(dst, p, v)
}

// appendPlain writes a unit CLDR does not name: the number, a space and
// the symbol.
func (l *Locale) appendPlain(dst []byte, v, symbol string) []byte {
	dst = l.AppendNumber(dst, v)
	dst = append(dst, ' ')
	return append(dst, symbol...)
}

// appendPercent writes v with the locale's percent pattern ("#,##0 %"):
// its prefix and suffix around the number, the percent sign (or the
// permille sign) in place of "%", the minus sign before all of it as
// ICU puts it when the pattern has no negative form.
func (l *Locale) appendPercent(dst []byte, v string, permille bool) ([]byte, bool) {
	n := &l.num
	pattern, _, _ := strings.Cut(n.Percent, ";")
	start := strings.IndexAny(pattern, "#0")
	end := strings.LastIndexAny(pattern, "#0")
	if start < 0 || n.PercentSign == "" {
		return dst, false
	}
	sign := n.PercentSign
	if permille {
		if sign = n.PerMille; sign == "" {
			return dst, false
		}
	}
	affix := func(s string) string {
		s = strings.ReplaceAll(s, "'", "")
		return strings.NewReplacer("%", sign, "‰", sign).Replace(s)
	}
	if v != "" && v[0] == '-' {
		dst = append(dst, n.Minus...)
		v = v[1:]
	}
	dst = append(dst, affix(pattern[:start])...)
	dst = l.AppendNumber(dst, v)
	return append(dst, affix(pattern[end+1:])...), true
}

// fill appends pattern with {0} replaced by the localised number.
func (l *Locale) fill(dst []byte, pattern, v string) []byte {
	before, after, ok := strings.Cut(pattern, "{0}")
	dst = append(dst, before...)
	if ok {
		dst = l.AppendNumber(dst, v)
	}
	return append(dst, after...)
}

// FormatMixed writes the parts of a mixed quantity, each as FormatUnit
// writes it, separated by spaces: "5 ft 3.5 in", "5 Fuß 3,5 Zoll".
func (l *Locale) FormatMixed(parts []Part, w Width) string {
	var dst []byte
	for i, p := range parts {
		if i > 0 {
			dst = append(dst, ' ')
		}
		dst = l.AppendUnit(dst, p.Value, p.Unit, w)
	}
	return string(dst)
}

// DisplayName is the name of a catalog unit at width w ("Kilometer pro
// Stunde", "km/h"): CLDR's display name of the unit the catalog claims,
// or the composed unit's text without a number; false when CLDR does not
// name it.
func (l *Locale) DisplayName(symbol string, w Width) (string, bool) {
	id := unitID(l.catalog(), symbol)
	if id == "" {
		return "", false
	}
	if key, ok := l.s.keyOf[id]; ok {
		if dn := l.field(key, w, "dn"); dn != "" {
			return dn, true
		}
	}
	p := l.unitPattern(id, w, Other)
	if p == "" {
		return "", false
	}
	return core(p), true
}

// buildNames indexes every name the locale gives a CLDR unit: display
// names and unit patterns without the number, at every width and in
// every plural form, folded; a name ending in a period is also indexed
// without it ("дюйм." and "дюйм").
func (l *Locale) buildNames() {
	names := map[string][]string{}
	add := func(name, id string) {
		if name == "" {
			return
		}
		for _, k := range []string{name, strings.TrimSuffix(name, ".")} {
			if k == "" {
				continue
			}
			list := names[k]
			dup := false
			for _, s := range list {
				if s == id {
					dup = true
				}
			}
			if !dup {
				names[k] = append(list, id)
			}
		}
	}
	for id, key := range l.s.keyOf {
		for _, w := range widthNames {
			for _, f := range []string{"dn", Zero, One, Two, Few, Many, Other} {
				t, ok := l.units[w+"/"+key+"/"+f]
				if !ok {
					continue
				}
				t = strings.Replace(t, "{0}", "", 1)
				add(clean(t, false), id)
				add(foldPrefix+Fold(t), id)
			}
		}
	}
	for _, list := range names {
		sort.Strings(list)
	}
	l.names = names
}

// foldPrefix marks the folded names in the index, beside the names as
// written.
const foldPrefix = "\x00"

// Lookup finds the catalog units a name means in this locale ("Zoll" →
// in, "kilomètres" → km): the units claiming the CLDR units the locale
// names so, as written (spaces and normal form aside) when the locale has
// the name so, else folded as Fold does ("po" is the inch in French, "Po"
// the petabyte, "PO" both). More than one symbol means the name is
// ambiguous in the locale; none, that it names no unit of the catalog.
func (l *Locale) Lookup(name string) []string {
	l.namesOnce.Do(l.buildNames)
	ids, ok := l.names[clean(name, false)]
	if !ok {
		ids = l.names[foldPrefix+Fold(name)]
	}
	if len(ids) == 0 {
		return nil
	}
	c := l.catalog()
	var out []string
	for _, id := range ids {
		if sym := claimant(c, id); sym != "" && !contains(out, sym) {
			out = append(out, sym)
		}
	}
	sort.Strings(out)
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Names lists every name the locale gives the catalog unit symbol, for
// search: its display names and the texts of its patterns.
func (l *Locale) Names(symbol string) []string {
	var out []string
	for _, w := range Widths() {
		if dn, ok := l.DisplayName(symbol, w); ok {
			out = append(out, dn)
		}
	}
	if key, ok := l.s.keyOf[unitID(l.catalog(), symbol)]; ok {
		for _, w := range widthNames {
			for _, f := range []string{Zero, One, Two, Few, Many, Other} {
				if t, ok := l.units[w+"/"+key+"/"+f]; ok {
					out = append(out, core(t))
				}
			}
		}
	}
	return out
}

// Named reports whether CLDR names the catalog unit symbol in an entry of
// its own (kilometer, petabyte) rather than composing its name from a
// prefix and another unit's (exaliter): CLDR's list of units in use.
func (l *Locale) Named(symbol string) bool {
	id := unitID(l.catalog(), symbol)
	if id == "" {
		return false
	}
	_, ok := l.s.keyOf[id]
	return ok
}
