// Package formula compiles and runs the catalog's formula definitions:
// expr-lang expressions in x such as "10 * log10(x)" (dBm) or "100 / x"
// (L/100km), in exact decimals.
//
// A pair of formulas (to the reference unit and back) made only of + - *
// / on x and literals, where it reads as x ↦ (a·x + b)/(c·x + d), compiles
// into two exact maps (Pair.ToMap, Pair.FromMap) and runs no program: the
// engine composes them with the unit's other maps. Any other pair runs as
// programs on apd decimals at a working precision well above the one
// asked for (Work), with the functions ln, log10, exp, pow, sqrt, abs,
// tan and atan, each correctly rounded; the engine then rounds the result
// once. Literals are read by their written digits, never through a float.
//
// The slow paths of the correctly rounded functions are charged to a
// request's Budget. Whether the accelerators (package lnexp's fixed-point
// logarithms, the shift of a decimal by a power of ten) may run is the
// caller's to say, in Env.Fast: this package never reads the engine's
// gate.
package formula
