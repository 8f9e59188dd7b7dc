package engine

import (
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"
)

// Limits on submitted values.
const (
	MaxValueLength   = 100
	MaxValueExponent = 1000
	DefaultPrecision = 34
	MaxPrecision     = 50
)

// ParseValue reads a decimal value: an optional sign, digits with an
// optional fraction, and an optional exponent. Anything else (empty text,
// white space, NaN, Infinity, hex, separators, over 100 characters, an
// exponent beyond ±1000) is an INVALID_VALUE error.
func ParseValue(s string) (apd.Decimal, error) {
	var d apd.Decimal
	err := parseValue(&d, s)
	return d, err
}

// parseValue is ParseValue into d, which a conversion keeps on its stack.
func parseValue(d *apd.Decimal, s string) error {
	if optimize && parsePlain(d, s) {
		return nil
	}
	if err := checkValueSyntax(s); err != nil {
		return err
	}
	if parseSmall(d, s) {
		return nil
	}
	if _, _, err := d.SetString(s); err != nil {
		return errorf(CodeInvalidValue, "value %q is not a decimal number", s)
	}
	return nil
}

func checkValueSyntax(s string) *Error {
	bad := func(why string) *Error {
		shown := s
		if len(shown) > 40 {
			shown = shown[:40] + "…"
		}
		return &Error{Code: CodeInvalidValue, Message: "value " + strconv.Quote(shown) + " " + why}
	}
	switch {
	case s == "":
		return &Error{Code: CodeInvalidValue, Message: "value is empty"}
	case len(s) > MaxValueLength:
		return bad("is longer than " + strconv.Itoa(MaxValueLength) + " characters")
	}
	i := 0
	if s[i] == '+' || s[i] == '-' {
		i++
	}
	intDigits := countDigits(s[i:])
	i += intDigits
	fracDigits := 0
	if i < len(s) && s[i] == '.' {
		i++
		fracDigits = countDigits(s[i:])
		i += fracDigits
	}
	if intDigits+fracDigits == 0 {
		return bad("is not a decimal number (expected digits, optional fraction and exponent, e.g. 12.5 or 1.5e3)")
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		n := countDigits(s[i:])
		if n == 0 {
			return bad("has an exponent without digits")
		}
		exp := strings.TrimLeft(s[i:i+n], "0")
		if len(exp) > 4 || (exp != "" && mustAtoi(exp) > MaxValueExponent) {
			return bad("has an exponent beyond ±" + strconv.Itoa(MaxValueExponent))
		}
		i += n
	}
	if i != len(s) {
		return bad("is not a decimal number (expected digits, optional fraction and exponent, e.g. 12.5 or 1.5e3)")
	}
	return nil
}

// parseSmall reads a value already checked by checkValueSyntax whose
// digits fit in a machine word, without apd's general parser.
func parseSmall(d *apd.Decimal, s string) bool {
	neg := false
	if s[0] == '+' || s[0] == '-' {
		neg = s[0] == '-'
		s = s[1:]
	}
	var coeff uint64
	digits, exp := 0, 0
	i := 0
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			if digits == 19 {
				return false
			}
			if coeff != 0 || c != '0' {
				digits++
			}
			coeff = coeff*10 + uint64(c-'0')
		case c == '.':
			frac := 0
			for j := i + 1; j < len(s) && s[j] >= '0' && s[j] <= '9'; j++ {
				frac++
			}
			exp = -frac
		default: // 'e' or 'E'
			e, err := strconv.Atoi(s[i+1:])
			if err != nil {
				return false
			}
			exp += e
			i = len(s)
		}
	}
	d.Coeff.SetUint64(coeff)
	d.Exponent = int32(exp)
	d.Negative = neg && coeff != 0
	d.Form = apd.Finite
	return true
}

// parsePlain reads, in one pass, a value of the plain form
// [+-]digits[.digits] (either run of digits may be empty, not both) whose
// significant digits fit a word: what checkValueSyntax accepts without an
// exponent and parseSmall reads. It is the accelerator of those two for
// the common case; anything else it declines.
func parsePlain(d *apd.Decimal, s string) bool {
	if len(s) == 0 || len(s) > MaxValueLength {
		return false
	}
	i, neg := 0, false
	if s[0] == '-' || s[0] == '+' {
		neg, i = s[0] == '-', 1
	}
	var coeff uint64
	digits, seen, frac := 0, 0, -1 // frac < 0: no point yet
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			if digits == 19 {
				return false
			}
			if coeff != 0 || c != '0' {
				digits++
			}
			coeff = coeff*10 + uint64(c-'0')
			seen++
			if frac >= 0 {
				frac++
			}
		case c == '.' && frac < 0:
			frac = 0
		default:
			return false
		}
	}
	if seen == 0 {
		return false
	}
	d.Coeff.SetUint64(coeff)
	d.Exponent = -int32(max(frac, 0))
	d.Negative = neg && coeff != 0
	d.Form = apd.Finite
	return true
}

func countDigits(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

func mustAtoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// FormatDecimal prints d as the API does: trailing zeros removed, -0 as 0,
// plain notation when the decimal exponent is in [-7, 21), otherwise
// scientific with a lower-case e and an explicit exponent sign
// (1.602176634e-19, 1e+21).
func FormatDecimal(d *apd.Decimal) string {
	var buf [96]byte
	return string(appendDecimal(buf[:0], d))
}

// appendDecimal appends d formatted as FormatDecimal does.
func appendDecimal(dst []byte, d *apd.Decimal) []byte {
	if d.IsZero() {
		return append(dst, '0')
	}
	var buf [64]byte
	var digits []byte
	if d.Coeff.IsUint64() {
		digits = strconv.AppendUint(buf[:0], d.Coeff.Uint64(), 10)
	} else if q, ok := coeff128(&d.Coeff); ok {
		// Two words, as most results at the default precision are:
		// formatted without math/big's general conversion.
		digits = q.appendDigits(buf[:0])
	} else {
		digits = d.Coeff.Append(buf[:0], 10)
	}
	return appendFormatted(dst, d.Negative, digits, int(d.Exponent))
}

// low64 is 2^64 - 1, the mask of a coefficient's low word.
var low64 = new(apd.BigInt).SetUint64(^uint64(0))

// coeff128 returns a non-negative coefficient below 10^38 as a quotient's
// two words, or ok=false.
func coeff128(c *apd.BigInt) (q quotient, ok bool) {
	if c.Sign() < 0 || c.BitLen() > 128 {
		return q, false
	}
	var hi, lo apd.BigInt
	hi.Rsh(c, 64)
	lo.And(c, low64)
	q.hi, q.lo = hi.Uint64(), lo.Uint64()
	if q.hi >= 1e19 {
		return q, false // appendDigits needs the coefficient below 10^38
	}
	return q, true
}

// appendFormatted appends the decimal digits × 10^exp as FormatDecimal
// prints them.
func appendFormatted(out []byte, neg bool, digits []byte, exp int) []byte {
	// Strip trailing zeros of the coefficient.
	for len(digits) > 1 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
		exp++
	}
	if len(digits) == 1 && digits[0] == '0' {
		return append(out, '0')
	}
	adjusted := exp + len(digits) - 1
	if neg {
		out = append(out, '-')
	}
	switch {
	case adjusted < -7 || adjusted >= 21:
		out = append(out, digits[0])
		if len(digits) > 1 {
			out = append(out, '.')
			out = append(out, digits[1:]...)
		}
		out = append(out, 'e')
		if adjusted >= 0 {
			out = append(out, '+')
		}
		out = strconv.AppendInt(out, int64(adjusted), 10)
	case exp >= 0:
		out = append(out, digits...)
		for range exp {
			out = append(out, '0')
		}
	case adjusted >= 0:
		point := len(digits) + exp
		out = append(out, digits[:point]...)
		out = append(out, '.')
		out = append(out, digits[point:]...)
	default:
		out = append(out, '0', '.')
		for range -adjusted - 1 {
			out = append(out, '0')
		}
		out = append(out, digits...)
	}
	return out
}
