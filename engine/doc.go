// Package engine converts quantities between units over a compiled graph.
//
// A catalog of categories and units arrives as a Spec: plain structs, each
// item carrying the Origin (file:line:col) it was read from. Build checks the
// spec as a whole and compiles it into an immutable Graph, reporting every
// problem it finds at once, each with its origin.
//
// # Exactness
//
// Linear and affine definitions are exact rationals ("0.3048", "1/3",
// "459.67*5/9"). Build reduces every unit, once, to an exact affine map onto
// its category's base unit, so a conversion is a fixed handful of exact
// decimal operations followed by a single correctly rounded (half-even)
// division or rounding to the requested number of significant digits. No
// value ever passes through float64. The Exact flag of a Result is true only
// when no rounding happened anywhere.
//
// When the value and the factors fit in machine words (most conversions),
// the arithmetic runs in 128-bit integers with a digit-by-digit division
// that yields exactly the digits apd's division would; otherwise it runs in
// apd. Either way the result is rounded once.
//
// Formula definitions are expr-lang expressions in x. A formula made only of
// + - * / (reciprocal fuel economy) runs on exact fractions, so conversions
// through it stay exact and are rounded once. Any other formula (logarithmic
// levels) runs in apd decimals at a working precision well above the
// requested one (functions ln, log10, exp, pow, sqrt, abs), and its result
// is rounded once more at the end. Literals are read by their written
// digits.
//
// # Concurrency
//
// A Graph is never modified after Build and is safe for concurrent use.
package engine
