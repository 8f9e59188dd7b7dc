package exact

import "math/big"

// Offset returns the offset o of an affine map, x ↦ (x·f + o)·π^k, as
// Affine does, without its factor; ok is false for a map with a pole.
func (m *Map) Offset() (o *big.Rat, ok bool) {
	if m.HasPole() {
		return nil, false
	}
	return new(big.Rat).SetFrac(m.b, m.d), true
}
