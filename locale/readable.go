package locale

import (
	"strconv"
	"strings"
)

// Readable digits: text for people (result.text, the pages, the CLI's
// --locale text) keeps what ICU's number format keeps by default, at most
// 3 fraction digits, or the input's significant figures where those are
// more ("0.0004" from an input of one figure stays "0.0004", not ICU's
// "0"), rounded half to even, trailing fraction zeros dropped.
//
// A result is rounded once: Readable rounds the digits it is given, so
// they must be the exact value, or the value at more digits than the
// readable form keeps whose rounding cannot have made a tie. A value
// rounded to 34 digits (the API's default) can: 1.0014999…(40 nines)
// becomes 1.0015 at 34 digits, which would round again to 1.002, where
// the exact value rounds to 1.001. So Readable says, for an inexact value
// whose dropped digits are exactly a half (a 5 and zeros), that it cannot
// round it; the caller then asks the engine for the value at
// ReadablePrecision significant digits, which the engine rounds once from
// the exact value, and writes that (Readable leaves it as it is). Any
// other dropped digits decide the rounding as the exact value's would: a
// value rounded to 34 digits differs from the exact one only beyond them.

// ReadablePrecision is the number of significant digits the readable form
// of v keeps: down to the thousandths, or sig significant digits (the
// input's figures) when that is more; at least 1.
func ReadablePrecision(v string, sig int) int {
	d, ok := parseDecimal(v)
	if !ok || d.digits == "" {
		return max(sig, 1)
	}
	return max(d.lead()+4, sig, 1)
}

// Readable rounds v ("1234.56789", "-0.5", "1.602176634e-19", as the
// engine writes numbers) to its readable form: ReadablePrecision(v, sig)
// significant digits, half to even, trailing fraction zeros dropped, in
// the notation v has. exact says v holds the exact value; when it does
// not and the digits dropped are exactly a half, Readable returns v and
// false: round the exact value instead (see above). Text that is not a
// number is returned as it is.
func Readable(v string, sig int, exact bool) (string, bool) {
	d, ok := parseDecimal(v)
	if !ok {
		return v, true
	}
	if d.digits == "" {
		return "0", true
	}
	k := max(d.lead()+4, sig)
	if k >= len(d.digits) {
		return d.String(), true
	}
	// The digits dropped decide: below a half down, above it up, a half
	// to the even neighbour when it is exact.
	var up bool
	if k < 0 {
		up = false
	} else {
		rest := d.digits[k:]
		switch {
		case rest[0] > '5':
			up = true
		case rest[0] < '5':
			up = false
		case strings.TrimRight(rest[1:], "0") != "":
			up = true
		case !exact:
			return v, false
		case k == 0:
			up = false // half of the unit above the leading digit: 0 is even
		default:
			up = (d.digits[k-1]-'0')%2 == 1
		}
	}
	// The kept digits, with the last one at 10^(lead-k+1).
	last := d.lead() - k + 1
	kept := ""
	if k > 0 {
		kept = d.digits[:k]
	}
	if up {
		kept = increment(kept)
	}
	t := strings.TrimRight(kept, "0")
	r := decimal{neg: d.neg, digits: t, exp: last + len(kept) - len(t), sci: d.sci}
	if r.digits == "" {
		return "0", true
	}
	return r.String(), true
}

// increment adds one to a string of decimal digits ("199" → "200", "99"
// → "100", "" → "1").
func increment(s string) string {
	b := []byte(s)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < '9' {
			b[i]++
			return string(b)
		}
		b[i] = '0'
	}
	return "1" + string(b)
}

// decimal is a number as digits without leading zeros, times 10^exp:
// 1234.5 is "12345" and -1; sci says it was written with an exponent.
type decimal struct {
	neg    bool
	digits string
	exp    int
	sci    bool
}

// lead is the power of ten of the leading digit (3 for 1234.5).
func (d decimal) lead() int { return len(d.digits) - 1 + d.exp }

// parseDecimal reads a decimal number: an optional sign, digits, an
// optional fraction, an optional exponent.
func parseDecimal(v string) (decimal, bool) {
	var d decimal
	if v != "" && (v[0] == '-' || v[0] == '+') {
		d.neg = v[0] == '-'
		v = v[1:]
	}
	mant := v
	if k := strings.IndexAny(v, "eE"); k >= 0 {
		e, err := strconv.Atoi(v[k+1:])
		if err != nil || e > 1_000_000 || e < -1_000_000 {
			return d, false
		}
		mant, d.exp, d.sci = v[:k], e, true
	}
	ip, fp, _ := strings.Cut(mant, ".")
	if ip == "" && fp == "" {
		return d, false
	}
	for _, part := range [...]string{ip, fp} {
		for i := 0; i < len(part); i++ {
			if part[i] < '0' || part[i] > '9' {
				return d, false
			}
		}
	}
	d.digits = strings.TrimLeft(ip+fp, "0")
	d.exp -= len(fp)
	// Trailing zeros only shift the exponent.
	t := strings.TrimRight(d.digits, "0")
	d.exp += len(d.digits) - len(t)
	d.digits = t
	return d, true
}

// String writes d plainly ("1234.5", "0.0004", "1500"), or with an
// exponent after one leading digit when it was so written ("1.6e-19").
func (d decimal) String() string {
	var b strings.Builder
	if d.neg {
		b.WriteByte('-')
	}
	if d.sci {
		b.WriteByte(d.digits[0])
		if len(d.digits) > 1 {
			b.WriteByte('.')
			b.WriteString(d.digits[1:])
		}
		b.WriteByte('e')
		b.WriteString(strconv.Itoa(d.lead()))
		return b.String()
	}
	switch {
	case d.exp >= 0:
		b.WriteString(d.digits)
		b.WriteString(strings.Repeat("0", d.exp))
	case -d.exp >= len(d.digits):
		b.WriteString("0.")
		b.WriteString(strings.Repeat("0", -d.exp-len(d.digits)))
		b.WriteString(d.digits)
	default:
		n := len(d.digits) + d.exp
		b.WriteString(d.digits[:n])
		b.WriteByte('.')
		b.WriteString(d.digits[n:])
	}
	return b.String()
}
