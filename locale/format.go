package locale

import (
	"sort"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Width is how much of a unit's name a text spells out: CLDR's long
// ("5 kilometers"), short ("5 km") or narrow ("5km").
type Width uint8

const (
	Short Width = iota
	Long
	Narrow
)

var widthNames = [...]string{Short: "short", Long: "long", Narrow: "narrow"}

func (w Width) String() string { return widthNames[w] }

// ParseWidth reads "long", "short" or "narrow".
func ParseWidth(s string) (Width, bool) {
	for w, n := range widthNames {
		if n == s {
			return Width(w), true
		}
	}
	return Short, false
}

// Widths lists the three widths, long first.
func Widths() []Width { return []Width{Long, Short, Narrow} }

// FormatNumber writes a decimal number as the engine prints it (an
// optional minus sign, digits, an optional fraction, an optional
// exponent: "-1234.5", "1.602176634e-19") with the locale's symbols,
// grouping and digits, keeping every digit.
func (l *Locale) FormatNumber(v string) string {
	return string(l.AppendNumber(make([]byte, 0, len(v)*2+8), v))
}

// AppendNumber is FormatNumber appending to dst.
func (l *Locale) AppendNumber(dst []byte, v string) []byte {
	n := &l.num
	if v != "" && (v[0] == '-' || v[0] == '+') {
		if v[0] == '-' {
			dst = append(dst, n.Minus...)
		}
		v = v[1:]
	}
	mant, exp := v, ""
	if k := strings.IndexAny(v, "eE"); k >= 0 {
		mant, exp = v[:k], v[k+1:]
	}
	ip, fp, hasPoint := strings.Cut(mant, ".")
	// Grouping: the primary group at the right, secondary groups to its
	// left, and none at all below primary+minimumGroupingDigits digits.
	if n.Primary > 0 && len(ip) >= n.Primary+n.MinGrouping && exp == "" {
		first := len(ip) - n.Primary
		// The leading digits before the first separator.
		lead := first % n.Secondary
		if lead == 0 {
			lead = n.Secondary
		}
		dst = l.appendDigits(dst, ip[:lead])
		for i := lead; i < first; i += n.Secondary {
			dst = append(dst, n.Group...)
			dst = l.appendDigits(dst, ip[i:i+n.Secondary])
		}
		dst = append(dst, n.Group...)
		dst = l.appendDigits(dst, ip[first:])
	} else {
		dst = l.appendDigits(dst, ip)
	}
	if hasPoint {
		dst = append(dst, n.Decimal...)
		dst = l.appendDigits(dst, fp)
	}
	if exp != "" {
		dst = append(dst, n.Exponent...)
		switch exp[0] {
		case '-':
			dst = append(dst, n.Minus...)
			exp = exp[1:]
		case '+':
			exp = exp[1:]
		}
		dst = l.appendDigits(dst, exp)
	}
	return dst
}

func (l *Locale) appendDigits(dst []byte, s string) []byte {
	if l.num.Digits[0] == '0' {
		return append(dst, s...)
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= '0' && c <= '9' {
			dst = appendRune(dst, l.num.Digits[c-'0'])
		} else {
			dst = append(dst, c)
		}
	}
	return dst
}

func appendRune(dst []byte, r rune) []byte {
	return append(dst, string(r)...)
}

// fieldAt returns the text of a unit key's field at width w exactly, or "".
func (l *Locale) fieldAt(key string, w Width, f string) string {
	if tab := l.table[key]; tab != nil {
		if fi := fieldIndex(f); fi >= 0 {
			return tab[w][fi]
		}
		return ""
	}
	return l.units[widthNames[w]+"/"+key+"/"+f]
}

// field returns the text of a unit key's field at width w, falling back
// as CLDR's root does: narrow to short, short to long.
func (l *Locale) field(key string, w Width, f string) string {
	for ok := true; ok; w, ok = wider(w) {
		if t := l.fieldAt(key, w, f); t != "" {
			return t
		}
	}
	return ""
}

// wider is the width a missing field falls back to: narrow to short,
// short to long; long has none.
func wider(w Width) (Width, bool) {
	switch w {
	case Narrow:
		return Short, true
	case Short:
		return Long, true
	}
	return w, false
}

// fields are the fields of a unit entry, as the table holds them.
var fields = [...]string{"dn", "per", Zero, One, Two, Few, Many, Other}

func fieldIndex(f string) int {
	for i, x := range fields {
		if x == f {
			return i
		}
	}
	return -1
}

// unitTable holds one unit key's fields by width and field index.
type unitTable [3][len(fields)]string

// buildTable indexes the units map by key, width and field, so that
// formatting does no string building to find a pattern.
func buildTable(units map[string]string) map[string]*unitTable {
	t := map[string]*unitTable{}
	for k, v := range units {
		w, rest, _ := strings.Cut(k, "/")
		key, f, _ := strings.Cut(rest, "/")
		wi, ok := ParseWidth(w)
		fi := fieldIndex(f)
		if !ok || fi < 0 {
			continue
		}
		e := t[key]
		if e == nil {
			e = new(unitTable)
			t[key] = e
		}
		e[wi][fi] = v
	}
	return t
}

// pattern returns a unit's pattern for a plural category, or its
// "other" pattern when the locale has none for the category at that
// width; only a width with neither falls back to the next wider one (de
// short has "{0} m" for every count, not long's "{0} Meter" for one).
func (l *Locale) pattern(key string, w Width, category string) string {
	for ok := true; ok; w, ok = wider(w) {
		if p := l.fieldAt(key, w, category); p != "" {
			return p
		}
		if p := l.fieldAt(key, w, Other); p != "" {
			return p
		}
	}
	return ""
}

// cldrID is the CLDR unit identifier of a catalog symbol, or of a
// quotient of two catalog symbols that have one each ("mi/h").
func (s *store) cldrID(symbol string) string {
	if id := s.Symbols[symbol]; id != "" {
		return id
	}
	num, den, ok := strings.Cut(symbol, "/")
	if !ok {
		return ""
	}
	a, b := s.Symbols[num], s.Symbols[den]
	if a == "" || b == "" || strings.Contains(a, "-per-") || strings.Contains(b, "-per-") {
		return ""
	}
	return a + "-per-" + b
}

// FormatUnit writes a number of a catalog unit (its canonical symbol, or
// a quotient of two such symbols) with CLDR's pattern for the unit at
// width w, in the plural form the number takes: "2 feet", "1 foot",
// "96,56064 km/h", "5 километров". A compound CLDR has no pattern of its
// own is composed from its parts (UTS #35 Part 6: the denominator's
// per-unit pattern, else the locale's "per" pattern). A unit CLDR does not
// name is written as the number and the symbol.
func (l *Locale) FormatUnit(v, symbol string, w Width) string {
	return string(l.AppendUnit(make([]byte, 0, len(v)*2+32), v, symbol, w))
}

// AppendUnit is FormatUnit appending to dst.
func (l *Locale) AppendUnit(dst []byte, v, symbol string, w Width) []byte {
	id := l.s.cldrID(symbol)
	if id == "" {
		dst = l.AppendNumber(dst, v)
		dst = append(dst, ' ')
		return append(dst, symbol...)
	}
	category := l.Plural(v)
	if key, ok := l.s.keyOf[id]; ok {
		if p := l.pattern(key, w, category); p != "" {
			return l.fill(dst, p, v)
		}
	}
	a, b, _ := strings.Cut(id, "-per-")
	ka, kb := l.s.keyOf[a], l.s.keyOf[b]
	pa := l.pattern(ka, w, category)
	if ka == "" || kb == "" || pa == "" {
		dst = l.AppendNumber(dst, v)
		dst = append(dst, ' ')
		return append(dst, symbol...)
	}
	num := string(l.fill(nil, pa, v))
	if per := l.field(kb, w, "per"); per != "" {
		return append(dst, strings.Replace(per, "{0}", num, 1)...)
	}
	compound := l.field("per", w, "pattern")
	if compound == "" {
		compound = "{0}/{1}"
	}
	den := strings.TrimSpace(strings.Replace(l.pattern(kb, w, One), "{0}", "", 1))
	out := strings.Replace(strings.Replace(compound, "{0}", num, 1), "{1}", den, 1)
	return append(dst, out...)
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

// Part is one part of a mixed quantity ("5" "ft").
type Part struct {
	Value, Unit string
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
// Stunde", "km/h"), and false when CLDR does not name it.
func (l *Locale) DisplayName(symbol string, w Width) (string, bool) {
	id := l.s.cldrID(symbol)
	if id == "" {
		return "", false
	}
	if key, ok := l.s.keyOf[id]; ok {
		if dn := l.field(key, w, "dn"); dn != "" {
			return dn, true
		}
	}
	a, b, ok := strings.Cut(id, "-per-")
	ka, kb := l.s.keyOf[a], l.s.keyOf[b]
	if !ok || ka == "" || kb == "" {
		return "", false
	}
	num := l.field(ka, w, "dn")
	if num == "" {
		return "", false
	}
	if per := l.field(kb, w, "per"); per != "" {
		return strings.Replace(per, "{0}", num, 1), true
	}
	compound := l.field("per", w, "pattern")
	if compound == "" {
		compound = "{0}/{1}"
	}
	den := strings.TrimSpace(strings.Replace(l.pattern(kb, w, One), "{0}", "", 1))
	return strings.Replace(strings.Replace(compound, "{0}", num, 1), "{1}", den, 1), true
}

// Fold is how names are compared: NFC, lower case, spaces of every kind
// as one ASCII space, trimmed, bidirectional marks dropped.
func Fold(s string) string { return clean(s, true) }

// clean is Fold without lower-casing when lower is false.
func clean(s string, lower bool) string {
	s = norm.NFC.String(s)
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) || r == '\u202f' || r == '\u00a0' {
			space = b.Len() > 0
			continue
		}
		if unicode.Is(unicode.Bidi_Control, r) || r == '\u200e' || r == '\u200f' || r == '\u061c' {
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		if lower {
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// buildNames indexes every name the locale gives a catalog unit: display
// names and unit patterns without the number, at every width and in
// every plural form, folded; a name ending in a period is also indexed
// without it ("дюйм." and "дюйм").
func (l *Locale) buildNames() {
	names := map[string][]string{}
	add := func(name, sym string) {
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
				if s == sym {
					dup = true
				}
			}
			if !dup {
				names[k] = append(list, sym)
			}
		}
	}
	for id, key := range l.s.keyOf {
		sym := l.s.symbol[id]
		if sym == "" {
			continue
		}
		for _, w := range widthNames {
			for _, f := range []string{"dn", Zero, One, Two, Few, Many, Other} {
				t, ok := l.units[w+"/"+key+"/"+f]
				if !ok {
					continue
				}
				t = strings.Replace(t, "{0}", "", 1)
				add(clean(t, false), sym)
				add(foldPrefix+Fold(t), sym)
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
// in, "kilomètres" → km): as written (spaces and normal form aside) when
// the locale has the name so, else folded as Fold does ("po" is the
// inch in French, "Po" the petabyte, "PO" both). More than one symbol
// means the name is ambiguous in the locale; none, that it names nothing.
func (l *Locale) Lookup(name string) []string {
	l.namesOnce.Do(l.buildNames)
	if syms, ok := l.names[clean(name, false)]; ok {
		return syms
	}
	return l.names[foldPrefix+Fold(name)]
}

// Names lists every name the locale gives the catalog unit symbol
// (folded), for search.
func (l *Locale) Names(symbol string) []string {
	var out []string
	for _, w := range Widths() {
		if dn, ok := l.DisplayName(symbol, w); ok {
			out = append(out, dn)
		}
	}
	if key, ok := l.s.keyOf[l.s.cldrID(symbol)]; ok {
		for _, w := range widthNames {
			for _, f := range []string{Zero, One, Two, Few, Many, Other} {
				if t, ok := l.units[w+"/"+key+"/"+f]; ok {
					out = append(out, strings.TrimSpace(strings.Replace(t, "{0}", "", 1)))
				}
			}
		}
	}
	return out
}
