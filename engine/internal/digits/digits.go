// Package digits prints decimal numbers as unitd's API writes them.
//
// A result is a sign, a run of decimal digits and a power of ten. Format
// writes it with trailing zeros removed, −0 as 0, in plain notation when
// the decimal exponent is in [-7, 21) and otherwise in scientific notation
// with a lower-case e and a signed exponent (1.602176634e-19, 1e+21).
//
// The digits of a machine word come from AppendUint, which cuts the word
// into groups of eight digits and writes each group in one store (four
// pairs of digits from a table), so that the groups proceed in parallel
// where strconv's digit pairs form one dependent chain; AppendUint128 does
// the same for a coefficient of two words below 10^38. Their tests compare
// them with strconv and math/big.
package digits

import (
	byteorder "encoding/binary"
	"math/bits"
	"strconv"
)

// pairs holds "00", "01", … "99".
const pairs = "00010203040506070809" +
	"10111213141516171819" +
	"20212223242526272829" +
	"30313233343536373839" +
	"40414243444546474849" +
	"50515253545556575859" +
	"60616263646566676869" +
	"70717273747576777879" +
	"80818283848586878889" +
	"90919293949596979899"

// pairWords holds the two digits of 0 … 99 as little-endian 16-bit words.
var pairWords = func() (t [100]uint16) {
	for i := range t {
		t[i] = uint16(pairs[2*i]) | uint16(pairs[2*i+1])<<8
	}
	return t
}()

// put8 writes x < 10^8 as exactly eight digits, in one store, and returns
// the word it stored.
func put8(b []byte, x uint32) uint64 {
	hi, lo := x/10000, x%10000
	w := uint64(pairWords[hi/100]) | uint64(pairWords[hi%100])<<16 |
		uint64(pairWords[lo/100])<<32 | uint64(pairWords[lo%100])<<48
	byteorder.LittleEndian.PutUint64(b, w)
	return w
}

// leadingZeros counts the '0' digits that open the eight of w (as put8
// stored them), leaving at least one digit.
func leadingZeros(w uint64) int {
	if v := w ^ 0x3030303030303030; v != 0 {
		return bits.TrailingZeros64(v) / 8
	}
	return 7
}

// AppendUint appends the decimal digits of x, as strconv.AppendUint(b, x,
// 10) does.
func AppendUint(b []byte, x uint64) []byte {
	var t [24]byte
	i := len(t)
	for x >= 1e8 {
		q := x / 1e8
		put8(t[i-8:i], uint32(x-q*1e8))
		x, i = q, i-8
	}
	w := put8(t[i-8:i], uint32(x))
	return append(b, t[i-8+leadingZeros(w):]...)
}

// append19 appends x < 10^19 as exactly 19 digits, with leading zeros.
func append19(b []byte, x uint64) []byte {
	var t [19]byte
	a := x / 1e16 // < 1000
	r := x - a*1e16
	m := r / 1e8
	t[0] = '0' + byte(a/100)
	t[1], t[2] = pairs[2*(a%100)], pairs[2*(a%100)+1]
	put8(t[3:11], uint32(m))
	put8(t[11:19], uint32(r-m*1e8))
	return append(b, t[:]...)
}

// AppendUint128 appends the decimal digits of hi·2^64 + lo, which must be
// below 10^38.
func AppendUint128(b []byte, hi, lo uint64) []byte {
	if hi == 0 {
		return AppendUint(b, lo)
	}
	high, low := bits.Div64(hi, lo, 1e19) // high < 10^19: the value is below 10^38
	return append19(AppendUint(b, high), low)
}

// Format appends the number whose decimal digits (without leading zeros,
// or the single digit 0) are digits, times 10^exp, negated when neg, in
// the API's notation.
func Format(out []byte, neg bool, digits []byte, exp int) []byte {
	for len(digits) > 1 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
		exp++
	}
	if len(digits) == 0 || len(digits) == 1 && digits[0] == '0' {
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
