package engine

// The gate
//
// Two accelerators serve every conversion, and one serves repeated
// ones:
//
//   - the word path of the kernel (package exact): a map evaluated and
//     rounded in machine words when its coefficients, the value and the
//     precision allow, instead of big integers;
//   - the fixed-point logarithms and exponentials of package lnexp, tried
//     before the widening evaluation in apd;
//   - the pair cache (paircache.go): a pair of names resolved and planned
//     once.
//
// Each returns exactly what the plain path returns, or declines. optimize
// is their one gate and this file holds every place that reads it: a
// conversion asks accelerated once, and the pair cache asks cachedPair.
// The package's tests run once with the gate open and once closed
// (TestMain), and TestAcceleratorsMatchPlain compares the two ways
// directly, on the shipped catalog too.

// optimize gates every accelerator of the engine.
var optimize = true

// accelerated reports whether a conversion starting now may use the word
// path of the kernel and the fixed-point logarithms and exponentials.
func accelerated() bool { return optimize }

// cachedPair returns the cached resolution of the pair, planned with a
// catalog substance's own properties p (nil for none), or nil.
func (g *Graph) cachedPair(from, to string, p *Properties) *pairEntry {
	if !optimize || g.pairs == nil {
		return nil
	}
	return g.pairs.getWith(from, to, p)
}
