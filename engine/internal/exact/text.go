package exact

import (
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/internal/digits"
)

// Limits on submitted values.
const (
	MaxValueLength   = 100
	MaxValueExponent = 1000
	DefaultPrecision = 34
	MaxPrecision     = 50
)

// ParseValue reads a decimal value into d: an optional sign, digits with
// an optional fraction, and an optional exponent. Anything else (empty
// text, white space, NaN, Infinity, hex, separators, over 100 characters,
// an exponent beyond ±1000) is an INVALID_VALUE error.
//
// It reads the digits and the point in one pass into a word, which holds
// any 19 of them; anything else (a syntax error, for its message, or an
// exponent) goes through CheckSyntax, and a value of more significant
// digits becomes a big integer.
func ParseValue(d *apd.Decimal, s string) error {
	if len(s) == 0 || len(s) > MaxValueLength {
		return CheckSyntax(s)
	}
	start, neg := 0, false
	if s[0] == '-' || s[0] == '+' {
		neg, start = s[0] == '-', 1
	}
	var coeff uint64
	point, i := -1, start
	for ; i < len(s); i++ {
		if c := s[i] - '0'; c <= 9 {
			coeff = coeff*10 + uint64(c)
		} else if s[i] == '.' && point < 0 {
			point = i
		} else {
			break
		}
	}
	ds, frac := i-start, 0 // digits, and those after the point
	if point >= 0 {
		ds, frac = ds-1, i-point-1
	}
	if ds == 0 {
		return CheckSyntax(s)
	}
	exp := 0
	if i < len(s) {
		if err := CheckSyntax(s); err != nil {
			return err
		}
		// Syntax checked: what is left is the exponent ("e", a sign, digits).
		exp, _ = strconv.Atoi(strings.TrimPrefix(s[i+1:], "+"))
	}
	if ds > 19 && significantDigits(s[start:i]) > 19 {
		return parseLong(d, neg, s[start:])
	}
	d.Coeff.SetUint64(coeff)
	d.Exponent = int32(exp - frac)
	d.Negative = neg && coeff != 0
	d.Form = apd.Finite
	return nil
}

// significantDigits counts the digits of s (digits and a point) from its
// first that is not zero.
func significantDigits(s string) int {
	n, seen := 0, false
	for _, c := range []byte(s) {
		seen = seen || c > '0' && c <= '9'
		if seen && c != '.' {
			n++
		}
	}
	return n
}

// parseLong reads the unsigned part s of a value already checked by
// CheckSyntax whose significant digits do not fit a word.
func parseLong(d *apd.Decimal, neg bool, s string) error {
	mant, expText, _ := strings.Cut(strings.ToLower(s), "e")
	intPart, fracPart, _ := strings.Cut(mant, ".")
	exp := 0
	if expText != "" {
		exp, _ = strconv.Atoi(expText)
	}
	if _, ok := d.Coeff.SetString(intPart+fracPart, 10); !ok {
		return fault.Errorf(fault.InvalidValue, "value %q is not a decimal number", s)
	}
	d.Exponent = int32(exp - len(fracPart))
	d.Negative = neg && d.Coeff.Sign() != 0
	d.Form = apd.Finite
	return nil
}

// CheckSyntax returns the INVALID_VALUE error of a value that is not a
// decimal number, or nil.
func CheckSyntax(s string) error {
	bad := func(why string) error {
		shown := s
		if len(shown) > 40 {
			shown = shown[:40] + "…"
		}
		return &fault.Error{Code: fault.InvalidValue, Message: "value " + strconv.Quote(shown) + " " + why}
	}
	switch {
	case s == "":
		return &fault.Error{Code: fault.InvalidValue, Message: "value is empty"}
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
	return string(AppendDecimal(buf[:0], d))
}

// AppendDecimal appends d formatted as FormatDecimal does.
func AppendDecimal(dst []byte, d *apd.Decimal) []byte {
	if d.IsZero() {
		return append(dst, '0')
	}
	var buf [64]byte
	var ds []byte
	if d.Coeff.IsUint64() {
		ds = digits.AppendUint(buf[:0], d.Coeff.Uint64())
	} else {
		ds = d.Coeff.Append(buf[:0], 10)
	}
	return digits.Format(dst, d.Negative, ds, int(d.Exponent))
}
