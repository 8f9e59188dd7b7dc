package engine

import (
	byteorder "encoding/binary"
	"math/bits"
	"strconv"
)

// Decimal digits of machine words
//
// Every result is printed from its coefficient, often of 20 to 34 digits.
// strconv produces digits two at a time in one dependent chain of
// divisions; appendUint cuts the word into groups of eight digits first
// and prints each group four and two digits at a time, so that the groups
// proceed in parallel. It is an accelerator (behind optimize) of
// strconv.AppendUint and prints the same digits.

// digitPairs holds "00", "01", … "99".
const digitPairs = "00010203040506070809" +
	"10111213141516171819" +
	"20212223242526272829" +
	"30313233343536373839" +
	"40414243444546474849" +
	"50515253545556575859" +
	"60616263646566676869" +
	"70717273747576777879" +
	"80818283848586878889" +
	"90919293949596979899"

// put2 writes x < 100 as two digits.
func put2(b []byte, x uint32) {
	_ = b[1]
	b[0], b[1] = digitPairs[2*x], digitPairs[2*x+1]
}

// pairWords holds the two digits of 0 … 99 as little-endian 16-bit words.
var pairWords = func() (t [100]uint16) {
	for i := range t {
		t[i] = uint16(digitPairs[2*i]) | uint16(digitPairs[2*i+1])<<8
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

// appendUint appends the decimal digits of x, as strconv.AppendUint(b, x, 10).
func appendUint(b []byte, x uint64) []byte {
	if !optimize {
		return strconv.AppendUint(b, x, 10)
	}
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
	if !optimize {
		var t [19]byte
		s := strconv.AppendUint(t[:0], x, 10)
		for range 19 - len(s) {
			b = append(b, '0')
		}
		return append(b, s...)
	}
	var t [19]byte
	a := x / 1e16 // < 1000
	r := x - a*1e16
	m := r / 1e8
	t[0] = '0' + byte(a/100)
	put2(t[1:3], uint32(a%100))
	put8(t[3:11], uint32(m))
	put8(t[11:19], uint32(r-m*1e8))
	return append(b, t[:]...)
}

// appendDigits appends the coefficient's decimal digits; it is below 10^38.
func (q *quotient) appendDigits(buf []byte) []byte {
	if q.hi == 0 {
		return appendUint(buf, q.lo)
	}
	// hi < 10^19 since the coefficient is below 10^38.
	high, low := bits.Div64(q.hi, q.lo, 1e19)
	return append19(appendUint(buf, high), low)
}
