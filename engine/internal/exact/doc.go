// Package exact is the engine's arithmetic: exact maps between units and
// their correctly rounded evaluation.
//
// Every unit that is not defined through a transcendental function is
// compiled into one Map onto its reference unit, x ↦ (A·x + B)/(C·x + D)
// · π^K with integer coefficients: linear units have B = C = 0, affine
// ones C = 0, and reciprocal ones such as L/100km (100/x) C ≠ 0. A pair of
// units composes into one Map (Pair), and a factor between them (Scale)
// keeps it one Map. π stays an exponent so that it cancels exactly where
// it can (revolutions to degrees is exactly 360).
//
// A Map evaluated at a decimal is an exact Value, a rational times π^K
// (At). Round is the one rounding: half-even to p significant digits,
// reporting whether anything was dropped. It divides once in big
// integers; through π it brackets π^K between two decimals (package pi)
// and widens them until both ends round alike, so the digits are those of
// the exact value. Map.Round, RoundWords and RoundDecimal first try the
// same division in machine words (numerators of up to 256 bits, divisors
// below 2^59, precisions up to 38) and give the same digits and flag
// whichever way they go; the caller chooses whether to try words, so that
// the word path can be switched off and both ways tested against each
// other and against big.Rat.
//
// Every coefficient is bounded by MaxBits, and a value that a map with an
// offset or a pole must write out in full by an exponent of ±4000, so
// that no map or value takes noticeable time or memory to build.
package exact
