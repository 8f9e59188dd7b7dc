// Package varint reads the variable-length integers of encoding/binary
// from a string, without copying it to a byte slice.
package varint

import "encoding/binary"

// Unsigned is binary.Uvarint of a string.
func Unsigned(s string) (uint64, int) {
	var x uint64
	var shift uint
	for i := 0; i < len(s) && i < binary.MaxVarintLen64; i++ {
		b := s[i]
		if b < 0x80 {
			return x | uint64(b)<<shift, i + 1
		}
		x |= uint64(b&0x7f) << shift
		shift += 7
	}
	return 0, 0
}

// Signed is binary.Varint of a string.
func Signed(s string) (int64, int) {
	ux, n := Unsigned(s)
	x := int64(ux >> 1)
	if ux&1 != 0 {
		x = ^x
	}
	return x, n
}
