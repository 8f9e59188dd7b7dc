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
// Formula definitions (reciprocal fuel economy, logarithmic levels) are
// expr-lang expressions over decimals: literals are read by their text,
// operators and functions (ln, log10, exp, pow, sqrt) run in apd at a working
// precision well above the requested one, and the result is rounded once.
//
// # Concurrency
//
// A Graph is never modified after Build and is safe for concurrent use.
package engine
