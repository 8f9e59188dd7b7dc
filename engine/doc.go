// Package engine converts quantities between units over a compiled graph.
//
// A catalog of categories and units arrives as a Spec: plain structs, each
// item carrying the Origin (file:line:col) it was read from. Build checks the
// spec as a whole and compiles it into an immutable Graph, reporting every
// problem it finds at once, each with its origin.
//
// # One conversion pipeline
//
// Every conversion takes the same four steps (Graph.AppendConvert):
//
//  1. resolve both units: a catalog name (Lookup), or else a unit
//     expression (see below), and map both onto one reference unit: the
//     category base for two units of one category, else the coherent SI
//     unit of the dimension;
//  2. check the value against the source unit's domain (a category
//     minimum such as absolute zero), once;
//  3. evaluate the result exactly;
//  4. round it once, half-even, to the requested significant digits.
//
// # Exactness
//
// Linear and affine definitions are exact: rationals times an integer power
// of π ("0.3048", "1/3", "459.67*5/9", "pi/180"). Build reduces every unit,
// once, to an exact affine map onto its reference unit, so a conversion is
// a fixed handful of exact decimal operations and one rounding. π is kept
// as an exponent, so it cancels exactly where it can (rpm to deg/s is 6);
// where it remains, the result is rounded correctly by bracketing π between
// two decimals and widening them until both ends round alike, and Exact is
// false. No value ever passes through float64. The Exact flag of a Result
// is true only when no rounding happened anywhere.
//
// A category minimum that no exact decimal can state in a unit's terms (a
// minimum of 1/3 in a unit whose map divides by 7) is a Build error, as is
// a minimum or an offset combined with π.
//
// # Accelerators
//
// When the value and the factors fit in machine words (most conversions),
// steps 3 and 4 run in 128-bit integers with a digit-by-digit division that
// yields exactly the digits apd's division would (quo.go, optimize.go).
// Others: step 1's outcome for a pair of names is cached per graph
// (paircache.go); a plain value is parsed in one pass (value.go); factors
// through π bracket π^k in four-word integers, or math/big beyond that,
// from a table (piwords.go, pifast.go); rational formulas that are Möbius
// maps run as four exact products instead of their programs (mobius.go),
// and a cached pair through one of them as a single Möbius map in words
// (ratwords.go); logarithms and exponentials have a fixed-point
// accelerator (lnexp.go); the final rounding of a formula conversion and
// powers of ten in formulas work on machine words; coefficients are
// printed eight digits at a time (digits.go). All of them sit behind one
// gate, the variable optimize in optimize.go: each returns exactly what
// the plain path returns or declines, and the package's tests run once
// with the gate open and once closed (TestMain); TestAcceleratorsMatchPlain
// compares the two ways directly.
//
// # Readable answers
//
// The target Auto chooses the unit from CLDR's unit preferences
// (PreferencesSpec; preference.go has the algorithm of UTS #35 Part 6):
// the source unit's quantity, Request.Usage with its fall-back, the region
// of Request.Region or Request.Locale with its fall-back through the
// regions containing it, and the first threshold the magnitude of the value
// reaches, compared exactly. Result.Preference says what was chosen. A
// mixed unit ("ft+in", "h+min+s", CLDR's "foot-and-inch") is split exactly
// as a target (Result.Parts: whole numbers and a last part rounded once,
// with exact carries) and summed exactly as a source (a value per part,
// "5 3.5"). Two accelerators serve them: a list's thresholds are kept as
// decimals in each source unit they were compared in, so that a value
// clear of them is compared as it was written; and parsed locales are
// cached.
//
// # Unit expressions
//
// Where a unit is accepted, an expression of catalog units may stand:
// products (* · ⋅), quotients (/), integer powers from -9 to 9 (^N, **N,
// superscripts), parentheses and the number 1 ("kg*m/s^2", "W/(m2*K)",
// "m/s²", "1/s"). Operators have equal precedence and associate to the
// left; each operand is the longest catalog name where it starts, except
// that a name holding an operator does not swallow an exponent meant for
// its last unit. An affine operand stands for the interval of its size; a
// formula unit is refused (INVALID_UNIT_EXPRESSION, with the position). mpg
// is linear in the catalog (miles per US gallon, a length over a volume), so
// it may be an operand; L/100km, a reciprocal, may not. Expressions are
// limited in length (256 bytes), operands (32) and nesting (8), and cached
// per graph, at most 4096 of them.
//
// Two units convert when their dimensions match, except that two catalog
// units of different categories do not (J and N*m, Hz and Bq): a category
// is a kind of quantity. The catalog relates kinds through bridges (one
// cycle per second is 2π rad/s) and through the intervals of a scale (K and
// degR, which have no offset, also name temperature intervals; degC does
// not). An expression's category is that of the catalog unit on the other
// side, else the catalog's preferred category of its dimension, else its
// dimension. INCOMPATIBLE_UNITS names both dimensions and, where one base
// dimension separates them, what is missing.
//
// Graph.Explain says where the digits of a conversion come from: the exact
// factor and offset (or the formulas) and every catalog definition used.
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
