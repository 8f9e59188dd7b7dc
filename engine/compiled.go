package engine

import "github.com/unitd/unitd/engine/internal/exact"

// roundValue is the one rounding of the engine: v half-even to p
// significant digits, and whether that changed it. Print the result with
// exact.Decimal.Append, as conversions do.
func roundValue(v *exact.Value, p int) (exact.Decimal, bool) {
	return exact.RoundWith(v, p, accelerated())
}
