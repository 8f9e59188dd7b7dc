// Package engine converts quantities between units over a compiled graph.
//
// A catalog of categories and units arrives as a Spec: plain structs, each
// item carrying the Origin (file:line:col) it was read from. Build checks the
// spec as a whole and compiles it into a Graph, reporting every
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
// # One compiled form, one kernel
//
// Linear and affine definitions are exact: rationals times an integer
// power of π ("0.3048", "1/3", "459.67*5/9", "pi/180"). Build compiles
// every unit that is not defined through a transcendental function into
// one exact map onto its reference unit, x ↦ (a·x + b)/(c·x + d) · π^k
// with integer coefficients (package engine/internal/exact): linear units
// have b = c = 0, affine ones c = 0, and a formula made of + - * / that is
// such a map (L/100km is 100/x, degDe 100 - x*2/3) compiles into one too.
// When a pair of units is planned, its two maps compose into one map from
// source to target, once per pair and graph (engine/internal/plan); a formula with
// logarithms or exponentials (dBm) keeps its decimal evaluator, reached
// through the same plan, with the exact maps on either side composed into
// one.
//
// A conversion evaluates the pair's map at the value exactly and rounds
// once, half-even, to the requested digits, with one division (exact.Round).
// π is kept as an exponent, so it cancels exactly where it can (rpm to
// deg/s is 6); where it remains, the result is rounded correctly by
// bracketing π^k between two decimals and widening them until both ends
// round alike, and Exact is false. No value ever passes through float64.
// The Exact flag of a Result is true only when no rounding happened
// anywhere and every definition used (each unit's, each operand's, a
// bridge's) is exact; Explanation.Inexact names those that are not.
//
// A category minimum (absolute zero) that no exact decimal can state in a
// unit's terms is a Build error, as is a minimum or an offset combined
// with π, and a category that mixes units with π and units with offsets
// or formulas. A reciprocal unit (a map with a pole, L/100km) takes only
// positive values, on either side of a conversion.
//
// # Accelerators
//
// Every accelerator sits behind one gate, the variable optimize, read by
// one function in one file (accelerated, optimize.go, whose doc lists
// them): the word path of the kernel (a map evaluated and rounded in 64-,
// 128- and 256-bit integers instead of math/big, π through a table of
// brackets in words), the fixed-point logarithms and exponentials of
// engine/internal/lnexp (and the shift of a decimal by a power of ten in
// formulas, which rides with them), the pair cache of names
// (engine/internal/paircache), and those of readable answers (mixed splits in words,
// thresholds in the source unit, decisions kept by name). The packages the
// engine hands work to take the gate's answer as a fast flag. Each returns
// exactly what the plain path returns or declines; the package's tests run
// once with the gate open and once closed (TestMain), and
// TestAcceleratorsMatchPlain compares the two ways directly on the
// shipped catalog. The number machinery lives in packages of its own:
// engine/internal/exact (maps, the rounding, comparisons and mixed
// radixes), engine/internal/pi (π and its brackets), engine/internal/lnexp
// (logarithms and exponentials) and engine/internal/digits (printing).
//
// # Seams
//
// What the engine's own features build on (engine/internal/plan and the
// engine's roundValue):
//
//   - Plan.WithFactor(r *big.Rat, k int) (Plan, error): the planned pair
//     with an exact factor r·π^k between source and target (a substance's
//     molar mass or density, gas conditions); the result is then marked
//     inexact when the factor's definition is, by the caller.
//   - Plan.ValueAt(x *apd.Decimal) (exact.Value, error): the pair's map at
//     a decimal, exactly: a rational when Value.K is 0, r·π^k otherwise
//     (a mixed unit splits it; the unit preferences compare its magnitude
//     in the base unit with their thresholds).
//   - roundValue(v *exact.Value, p int) (exact.Decimal, bool): the one
//     rounding, half-even to p significant digits, with its inexact flag;
//     exact.Decimal.Append prints it as the API does.
//
// # Readable answers
//
// The target Auto chooses the unit from CLDR's unit preferences (package
// engine/prefs, which has the algorithm of UTS #35 Part 6): the source
// unit's quantity, Request.Usage with its fall-back, the region of
// Request.Region or Request.Locale with its fall-back through the regions
// containing it, and the first threshold the magnitude of the value
// reaches, compared exactly. Result.Preference says what was chosen. A
// mixed unit ("ft+in", "h+min+s", CLDR's "foot-and-inch", package
// engine/mixed) is split exactly as a target (Result.Parts: whole numbers
// and a last part rounded once, with exact carries) and summed exactly as
// a source (a value per part, "5 3.5"). Neither package imports the
// engine: it resolves names for prefs (prefs.Resolver) and the parts of
// mixed units, and readable.go orchestrates them.
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
// per graph, at most 4096 of them. Package engine/unitexpr reads them
// against the graph's names.
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
// # Substances
//
// The catalog may also name substances (molar mass, density, charge
// number, each with its source), the standard atomic weights that give a
// formula its molar mass, and named reference conditions for gases
// (package engine/substance). A Request's Properties (ResolveProperties:
// a substance by name, alias, CAS number or formula, or explicit values)
// let two units convert across kinds when their dimensions differ by a
// molar mass, a density, a charge number or a gas's molar volume R·T/p
// (crosskind.go): the plan maps both sides onto their coherent SI units
// and takes that exact factor through Plan.WithFactor, the kernel's seam,
// so the conversion stays one exact map and one rounding; the answer is
// not exact, and Explain lists every value used. Without the values it
// needs, such a conversion is INCOMPATIBLE_UNITS with Error.Needs saying
// which. A catalog substance's pairs, and those of a query resolved once
// and kept (its explicit values or formula), live in the pair cache beside
// plain pairs.
//
// Some substances are measurands whose units a published equation relates
// rather than a factor (HbA1c in NGSP % and IFCC mmol/mol, and the
// estimated average glucose it predicts): with one named, a pair of units
// of its scales follows the route of equations, composed with the units'
// factors into one exact affine map and rounded once, and Result.Equations
// and Explain cite each equation; without it, % → mmol/mol is the plain
// ratio and Result.Hint names the measurand (measurand.go).
//
// # Standard unit codes
//
// "<system>:<code>" names a unit of a standard code system: ucum:, cldr:,
// qudt: (and QUDT IRIs) read with their own tables (CodeTables, handed to
// Build in Spec.Codes) and grammars; unece: reads the codes catalog units
// claim. A code a unit claims (UnitSpec.Codes, checked by Build against
// the tables) is that unit; any other becomes an expression of the code's
// own definition. UCUM special units convert through their functions
// (tan and atan correctly rounded for [p'diop] and %[slope]); arbitrary
// units (UCUM's [IU], and CLDR's pixel, em and night, which CLDR relates
// to no SI unit) only among themselves. Resolutions are cached per graph,
// at most 4096 of them (codes.go; packages codes, codeunit and claim).
//
// Graph.Explain says where the digits of a conversion come from: the exact
// factor and offset (or the formulas) and every catalog definition used.
//
// Formula definitions are expr-lang expressions in x (package formula). A formula made only of
// + - * / on x and literals, where it reads as x ↦ (a·x + b)/(c·x + d),
// compiles into that exact map, with every intermediate coefficient
// bounded; Build checks that its two formulas compose to the identity.
// Any other formula (logarithmic levels) runs in apd decimals at a working
// precision well above the requested one (functions ln, log10, exp, pow,
// sqrt, abs), and its result is rounded once more at the end. Literals are
// read by their written digits.
//
// # Packages
//
// The engine resolves, plans and converts, and hands what needs no plan
// to packages of their own, reading the accelerators' gate for them
// (optimize.go). A catalog arrives in the types of engine/spec, which
// also holds the rules an account's units meet beyond a catalog's; the
// compiled values a graph is made of (Unit, Category, their exact maps and
// the index of names) are defined in engine/internal/graph, which every
// job shares, and engine/internal/snapshot writes and reads them.
// engine/internal/build compiles a spec's categories and units into a
// graph's core (build.Core: units, names, bridges, claims), and an
// account's own units over it (build.Overlay), reading worked examples
// through the graph as it fills in; Build then compiles the catalog's
// hints, preferences, substances and measurands, which convert. What
// the engine resolves a name into, how a pair is planned, and the
// conversion along a plan are engine/internal/plan's (Side, Planner, Plan,
// Plan.Run).
// engine/unitexpr reads unit expressions, engine/unitsearch ranks units
// for a search, engine/explain writes where a conversion's digits come
// from, engine/hint keeps the catalog's hints, engine/prefix the
// SI and binary prefixes, engine/claim checks and keeps the catalog's
// claims on codes, and engine/codeunit makes the units of the codes no
// unit claims. The lookups of an account's own units (overlay.go),
// conversions across kinds and measurands (crosskind.go, measurand.go) and
// readable and mixed results (readable.go, mixed.go) live here, because
// they resolve names and plan conversions. docs/development.md lists every package with its job.
//
// # Concurrency
//
// What a Graph says is fixed at Build; it keeps bounded caches of work
// done since (parsed expressions, pairs of names, compiled pairs of maps)
// and is safe for concurrent use. BuildContext stops compiling when its
// context is done.
package engine
