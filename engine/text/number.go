package text

import (
	"math/big"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Numbers as people write them: integers with the locale's digit groups,
// decimals (also ".5" and "5."), exponents (1.2e3, 1.5×10^3, 3 × 10⁸,
// 10^3, 10⁻³), vulgar fractions (½, 1½, 1 ½), fractions with a slash
// (1/2, 1 1/2, 1-1/2, 1⁄2: a fraction, never a unit quotient), digits of
// any numbering system (١٢٫٥, with the Arabic decimal separator), and
// the spelled numbers of the language (one, a dozen, one and a half,
// half a). Every number is read exactly, as a rational.

// maxNumberDigits bounds the digits of one number, and of a fraction's
// parts together.
const maxNumberDigits = 100

// maxExponent bounds an exponent's magnitude, as the engine's value
// syntax does.
const maxExponent = 1000

func (p *parser) setSeparators() {
	dec, grp := p.opt.Decimal, p.opt.Group
	if dec == "" {
		dec = "."
		if grp == "" {
			grp = ","
		}
	}
	p.seps[0] = dec
	n := 1
	// A full stop is a decimal point wherever it is not the locale's
	// group separator (French readers write 1.5 too); the Arabic decimal
	// separator is one everywhere.
	if dec != "." && grp != "." {
		p.seps[n] = "."
		n++
	}
	if dec != "٫" {
		p.seps[n] = "٫"
		n++
	}
	p.decimal = p.seps[:n]
	g := n
	if grp != "" {
		p.seps[n] = grp
		n++
		switch r, _ := utf8.DecodeRuneInString(grp); {
		case isSpace(r):
			p.seps[n], p.seps[n+1], p.seps[n+2] = " ", "\u00a0", "\u202f"
			n += 3
		case r == '’' || r == '\'':
			// Swiss groups: the apostrophe as typed and as printed.
			p.seps[n] = "'"
			if r == '\'' {
				p.seps[n] = "’"
			}
			n++
		}
	}
	if grp != "٬" && dec == "٫" {
		p.seps[n] = "٬"
		n++
	}
	p.group = p.seps[g:n]
	p.primary, p.sec = p.opt.Primary, p.opt.Secondary
	if p.primary == 0 {
		p.primary, p.sec = 3, 3
	}
}

func (p *parser) locale() string {
	if p.opt.Locale == "" {
		return "en"
	}
	return p.opt.Locale
}

// digit returns the value of a decimal digit of any numbering system.
func digit(r rune) (int, bool) {
	if r >= '0' && r <= '9' {
		return int(r - '0'), true
	}
	if r < 0x80 || !unicode.Is(unicode.Nd, r) {
		return 0, false
	}
	// Unicode lays out every decimal digit in runs of ten from zero.
	for _, rg := range unicode.Nd.R16 {
		if r >= rune(rg.Lo) && r <= rune(rg.Hi) {
			return int(r-rune(rg.Lo)) % 10, true
		}
	}
	for _, rg := range unicode.Nd.R32 {
		if r >= rune(rg.Lo) && r <= rune(rg.Hi) {
			return int(r-rune(rg.Lo)) % 10, true
		}
	}
	return 0, false
}

func isDigit(r rune) bool {
	_, ok := digit(r)
	return ok
}

// vulgar fractions by code point.
var vulgar = map[rune][2]int64{
	'½': {1, 2}, '⅓': {1, 3}, '⅔': {2, 3}, '¼': {1, 4}, '¾': {3, 4}, '⅕': {1, 5}, '⅖': {2, 5},
	'⅗': {3, 5}, '⅘': {4, 5}, '⅙': {1, 6}, '⅚': {5, 6}, '⅐': {1, 7}, '⅛': {1, 8}, '⅜': {3, 8},
	'⅝': {5, 8}, '⅞': {7, 8}, '⅑': {1, 9}, '⅒': {1, 10}, '↉': {0, 3},
}

func isVulgar(r rune) bool {
	_, ok := vulgar[r]
	return ok
}

// superscript digits and signs, for 10⁸ and 10⁻³.
var superscript = map[rune]byte{'⁰': '0', '¹': '1', '²': '2', '³': '3', '⁴': '4', '⁵': '5', '⁶': '6', '⁷': '7', '⁸': '8', '⁹': '9'}

// digits reads a run of decimal digits of any numbering system as ASCII.
func (r *reader) digits(i int) (string, int) {
	var b []byte
	for {
		c, n := r.peek(i)
		d, ok := digit(c)
		if n == 0 || !ok {
			return string(b), i
		}
		b = append(b, byte('0'+d))
		i += n
	}
}

// hasAt reports which of seps stands at i.
func (r *reader) hasAt(i int, seps []string) string {
	s := r.p.text[i:r.end]
	for _, sep := range seps {
		if sep != "" && strings.HasPrefix(s, sep) {
			return sep
		}
	}
	return ""
}

// number reads a number at i and returns it and the offset after it.
func (r *reader) number(i int) (*big.Rat, int, error) {
	p := r.p
	start := i
	c, n := r.peek(i)
	if v, ok := vulgar[c]; ok {
		return big.NewRat(v[0], v[1]), i + n, nil
	}
	if c == '.' || c == '٫' {
		// A bare decimal point: .5
		if fp, j := r.digits(i + n); fp != "" {
			return r.finishDecimal(start, "0", fp, j)
		}
	}
	if !isDigit(c) {
		if v, j, ok := r.spelled(i); ok {
			return v, j, nil
		}
		if n == 0 {
			return nil, i, fail(p.text, i, "no number: write a number and a unit, such as 3 in")
		}
		word := p.text[i:r.end]
		if k := strings.IndexFunc(word, isSpace); k > 0 {
			word = word[:k]
		}
		return nil, i, fail(p.text, i, "no number before “"+short(word)+"”: write a number and a unit, such as 3 in")
	}
	ip, i := r.digits(i)
	// Groups: each group separator must be followed by a whole group.
	grouped := false
	for {
		sep := r.hasAt(i, p.group)
		if sep == "" {
			break
		}
		g, j := r.digits(i + len(sep))
		next, _ := r.peek(j)
		if len(g) != p.primary && len(g) != p.sec || isDigit(next) || next == '/' || next == '⁄' {
			// Not a group. A separator that no digit follows, or a
			// space ("1 1/2", "5 000" against "5 3"), simply ends the
			// number; digits after a comma or point that cannot be a
			// group are refused ("1,5" in English).
			if c, _ := utf8.DecodeRuneInString(sep); isSpace(c) || g == "" || c == '\'' || c == '’' {
				break
			}
			return nil, i, r.misplacedGroup(start, i, sep)
		}
		grouped = true
		ip += g
		i = j
	}
	if grouped && !r.validGroups(start, i) {
		return nil, i, fail(p.text, start, "the digit groups of “"+p.text[start:i]+"” are not where "+p.locale()+" puts them")
	}
	if len(ip) > maxNumberDigits {
		return nil, i, fail(p.text, start, "the number has more than "+strconv.Itoa(maxNumberDigits)+" digits")
	}
	var fp string
	if sep := r.hasAt(i, p.decimal); sep != "" {
		if f, j := r.digits(i + len(sep)); f != "" {
			fp, i = f, j
		} else if r.trailingPoint(i + len(sep)) {
			// "5. km": a decimal point with no digits after it.
			i += len(sep)
		}
	} else if !grouped {
		// A separator that is neither ("1.5" in German) is refused.
		for _, other := range []string{".", ","} {
			if strings.HasPrefix(p.text[i:r.end], other) && i+1 < r.end {
				c, _ := utf8.DecodeRuneInString(p.text[i+1:])
				if isDigit(c) && !contains(p.group, other) && !contains(p.decimal, other) {
					return nil, i, fail(p.text, i, "“"+other+"” is not a decimal separator in "+p.locale()+"; write "+p.decimalHint())
				}
			}
		}
	}
	if len(ip)+len(fp) > maxNumberDigits {
		return nil, i, fail(p.text, start, "the number has more than "+strconv.Itoa(maxNumberDigits)+" digits")
	}
	mant, ok := new(big.Rat).SetString(ip + "." + fp + "0")
	if !ok {
		return nil, i, fail(p.text, start, "“"+p.text[start:i]+"” is not a number")
	}
	// An exponent: e3, ×10^3, x 10⁸.
	if e, j, ok, err := r.exponent(start, i, ip, fp); err != nil {
		return nil, i, err
	} else if ok {
		return scale(mant, e), j, nil
	}
	// A fraction: 1/2, 1⁄2, or after a whole number: 1 1/2, 1-1/2, 1½.
	if fp == "" {
		if sep := r.hasAt(i, []string{"/", "⁄"}); sep != "" {
			if den, j := r.digits(i + len(sep)); den != "" {
				return r.fraction(start, j, "0", ip, den)
			}
		}
		j := r.skipSpace(i)
		spaced := j > i
		if c, n := r.peek(j); isVulgar(c) {
			v := vulgar[c]
			w, _ := new(big.Int).SetString(ip, 10)
			return new(big.Rat).Add(new(big.Rat).SetInt(w), big.NewRat(v[0], v[1])), j + n, nil
		}
		if c, n := r.peek(i); c == '-' && !spaced {
			j, spaced = i+n, true
		}
		if spaced {
			num, k := r.digits(j)
			if sep := r.hasAt(k, []string{"/", "⁄"}); num != "" && sep != "" {
				if den, k2 := r.digits(k + len(sep)); den != "" {
					return r.fraction(start, k2, ip, num, den)
				}
			}
		}
		// "one and a half" in digits: 1 and a half.
		if v, k, ok := r.andFraction(i); ok {
			w, _ := new(big.Int).SetString(ip, 10)
			return v.Add(v, new(big.Rat).SetInt(w)), k, nil
		}
	}
	return mant, i, nil
}

// trailingPoint reports whether a decimal point that ends a number stands
// before white space or the end, and not before another number.
func (r *reader) trailingPoint(i int) bool {
	c, n := r.peek(i)
	return n == 0 || isSpace(c)
}

// finishDecimal reads the rest of a number that began with a bare point.
func (r *reader) finishDecimal(start int, ip, fp string, i int) (*big.Rat, int, error) {
	if len(fp) > maxNumberDigits {
		return nil, i, fail(r.p.text, start, "the number has more than "+strconv.Itoa(maxNumberDigits)+" digits")
	}
	mant, _ := new(big.Rat).SetString(ip + "." + fp)
	if e, j, ok, err := r.exponent(start, i, ip, fp); err != nil {
		return nil, i, err
	} else if ok {
		return scale(mant, e), j, nil
	}
	return mant, i, nil
}

// exponent reads an exponent after a mantissa at i: e3, E-3, ×10^3,
// x10^3, *10^3, ·10³, " × 10⁸", and 10^3 (10⁻³) read as a power of ten
// when the mantissa is 10 itself.
func (r *reader) exponent(start, i int, ip, fp string) (int, int, bool, error) {
	p := r.p
	if c, _ := r.peek(i); c == 'e' || c == 'E' {
		j := i + 1
		sign := 1
		if c, n := r.peek(j); c == '-' || c == '+' || c == '−' {
			if c != '+' {
				sign = -1
			}
			j += n
		}
		if d, k := r.digits(j); d != "" {
			return r.expValue(start, k, d, sign)
		}
		return 0, i, false, nil
	}
	if ip == "10" && fp == "" {
		// 10^3, 10⁸: the mantissa 1.
		if e, k, ok := r.power(i); ok {
			n, j, _, err := r.expValue(start, k, e, 1)
			return n - 1, j, err == nil, err
		}
	}
	j := r.skipSpace(i)
	c, n := r.peek(j)
	if c != '×' && c != 'x' && c != 'X' && c != '*' && c != '·' && c != '⋅' {
		return 0, i, false, nil
	}
	j = r.skipSpace(j + n)
	if !strings.HasPrefix(p.text[j:r.end], "10") {
		return 0, i, false, nil
	}
	if e, k, ok := r.power(j + 2); ok {
		return r.expValue(start, k, e, 1)
	}
	return 0, i, false, nil
}

// power reads ^3, ^-3, **3 or superscript digits ⁸ ⁻³ at i, as a signed
// decimal string.
func (r *reader) power(i int) (string, int, bool) {
	p := r.p
	s := p.text[i:r.end]
	switch {
	case strings.HasPrefix(s, "^"), strings.HasPrefix(s, "**"):
		j := i + 1
		if s[0] == '*' {
			j++
		}
		sign := ""
		if c, n := r.peek(j); c == '-' || c == '−' || c == '+' {
			if c != '+' {
				sign = "-"
			}
			j += n
		}
		if d, k := r.digits(j); d != "" {
			return sign + d, k, true
		}
	default:
		sign, j := "", i
		if strings.HasPrefix(s, "⁻") {
			sign, j = "-", i+len("⁻")
		}
		var b []byte
		for j < r.end {
			c, n := utf8.DecodeRuneInString(p.text[j:])
			d, ok := superscript[c]
			if !ok {
				break
			}
			b = append(b, d)
			j += n
		}
		if len(b) > 0 {
			return sign + string(b), j, true
		}
	}
	return "", i, false
}

// expValue checks an exponent's digits.
func (r *reader) expValue(start, end int, d string, sign int) (int, int, bool, error) {
	neg := strings.HasPrefix(d, "-")
	d = strings.TrimPrefix(d, "-")
	if len(d) > 4 {
		return 0, end, false, fail(r.p.text, start, "the exponent of “"+r.p.text[start:end]+"” is out of range")
	}
	n, _ := strconv.Atoi(d)
	if neg {
		n = -n
	}
	n *= sign
	if n > maxExponent || n < -maxExponent {
		return 0, end, false, fail(r.p.text, start, "the exponent of “"+r.p.text[start:end]+"” is out of range (at most "+strconv.Itoa(maxExponent)+")")
	}
	return n, end, true, nil
}

// scale returns m·10^e.
func scale(m *big.Rat, e int) *big.Rat {
	t := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(max(e, -e))), nil))
	if e >= 0 {
		return m.Mul(m, t)
	}
	return m.Quo(m, t)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (p *parser) decimalHint() string {
	d := p.opt.Decimal
	if d == "" {
		d = "."
	}
	return "“" + d + "” for the decimal separator"
}

// misplacedGroup explains a group separator not followed by a group.
func (r *reader) misplacedGroup(start, at int, sep string) error {
	p := r.p
	return fail(p.text, at, "“"+sep+"” separates groups of digits in "+p.locale()+", so “"+
		strings.TrimSpace(p.text[start:min(r.end, at+len(sep)+4)])+"” cannot be read; write "+p.decimalHint())
}

// validGroups checks the grouping of text[start:end] against the
// locale's sizes: the last group primary, the others secondary, the
// first at most secondary.
func (r *reader) validGroups(start, end int) bool {
	p := r.p
	var groups []int
	n := 0
	for _, c := range p.text[start:end] {
		if isDigit(c) {
			n++
			continue
		}
		if n > 0 {
			groups = append(groups, n)
		}
		n = 0
	}
	groups = append(groups, n)
	if len(groups) < 2 || groups[len(groups)-1] != p.primary || groups[0] < 1 || groups[0] > p.sec {
		return false
	}
	for _, g := range groups[1 : len(groups)-1] {
		if g != p.sec {
			return false
		}
	}
	return true
}

// fraction finishes whole + num/den, which end at end.
func (r *reader) fraction(start, end int, whole, num, den string) (*big.Rat, int, error) {
	p := r.p
	d, _ := new(big.Int).SetString(den, 10)
	if d.Sign() == 0 {
		return nil, end, fail(p.text, start, "“"+p.text[start:end]+"” divides by zero")
	}
	if len(num)+len(den)+len(whole) > maxNumberDigits {
		return nil, end, fail(p.text, start, "the fraction is too long")
	}
	w, _ := new(big.Int).SetString(whole, 10)
	n, _ := new(big.Int).SetString(num, 10)
	v := new(big.Rat).SetFrac(n, d)
	return v.Add(v, new(big.Rat).SetInt(w)), end, nil
}

// decimalText writes r as a decimal when its decimal terminates.
func decimalText(r *big.Rat) (string, bool) {
	d := new(big.Int).Set(r.Denom())
	a, b := 0, 0
	two, five := big.NewInt(2), big.NewInt(5)
	m := new(big.Int)
	for d.Cmp(big.NewInt(1)) > 0 {
		if m.Mod(d, two).Sign() == 0 {
			d.Quo(d, two)
			a++
		} else if m.Mod(d, five).Sign() == 0 {
			d.Quo(d, five)
			b++
		} else {
			return "", false
		}
	}
	s := r.FloatString(max(a, b))
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		s = "0"
	}
	return s, true
}
