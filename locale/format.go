package locale

import (
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
var fields = [...]string{"dn", "per", "pattern", Zero, One, Two, Few, Many, Other}

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

// Fold is how names are compared: NFC, lower case, spaces of every kind
// as one ASCII space, trimmed, bidirectional marks dropped.
func Fold(s string) string { return clean(s, true) }

// Fold is the package's Fold, as a method: with Names, it makes a
// locale the reader's words of a unit search (engine.UnitWords).
func (l *Locale) Fold(s string) string { return Fold(s) }

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
