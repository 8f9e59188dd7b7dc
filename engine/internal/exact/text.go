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
// an exponent beyond ±1000) is an INVALID_VALUE error. It reads a value of up to 19 significant digits in one pass, checking
// its syntax as it goes, into a word; anything else (a syntax error, for
// its message, or more digits) goes through CheckSyntax, and longer
// values become big integers.
func ParseValue(d *apd.Decimal, s string) error {
	if len(s) == 0 || len(s) > MaxValueLength {
		return CheckSyntax(s)
	}
	i, neg := 0, false
	if s[0] == '-' || s[0] == '+' {
		neg, i = s[0] == '-', 1
	}
	body := s[i:]
	var coeff uint64
	digits, seen, frac, exp := 0, 0, -1, 0 // frac < 0: no point yet
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			if digits == 19 {
				if err := CheckSyntax(s); err != nil {
					return err
				}
				return parseLong(d, neg, body)
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
		case (c == 'e' || c == 'E') && seen > 0:
			if err := CheckSyntax(s); err != nil {
				return err
			}
			exp, _ = strconv.Atoi(strings.TrimPrefix(s[i+1:], "+"))
			i = len(s)
		default:
			return CheckSyntax(s)
		}
	}
	if seen == 0 {
		return CheckSyntax(s)
	}
	d.Coeff.SetUint64(coeff)
	d.Exponent = int32(exp - max(frac, 0))
	d.Negative = neg && coeff != 0
	d.Form = apd.Finite
	return nil
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
