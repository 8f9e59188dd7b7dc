// Package build compiles a catalog's categories and units into the core
// of a graph (Core): every unit's exact map onto its category's base,
// the indexes of names, the bridges and intervals between categories,
// the claims on code tables, each worked example checked. Overlay
// compiles an account's own units and categories over a graph's core the
// same way, keeping what did not change since its last compilation.
//
// It reports every problem of a spec, each a *fault.SpecError at its
// origin. It reads names as requests do through the engine (Names), over
// the core it is filling in, and takes the engine's gate as Options.Fast.
// What a catalog adds to its units (hints, preferences, substances,
// measurands) is the engine's to compile, after.
package build
