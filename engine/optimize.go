package engine

// The gate
//
// optimize is the one gate of the engine's accelerators, and accelerated,
// in this file, is the one function that reads it: every accelerator asks
// it, and the packages the engine hands work to (exact, formula, mixed,
// prefs, claim) take its answer as a fast flag and never read a gate of
// their own. Each accelerator returns exactly what the plain path returns, or
// declines. The package's tests run once with the gate open and once
// closed (TestMain), and TestAcceleratorsMatchPlain compares the two ways
// directly, on the shipped catalog too.

// optimize gates every accelerator of the engine.
var optimize = true

// accelerated reports whether work starting now may use the accelerators,
// each of which gives what its plain path gives:
//
//   - the word path of the kernel: a map evaluated and rounded in 64-,
//     128- and 256-bit words instead of math/big, π through a table of
//     brackets in words (exact.Map.Round and RoundWordsTo, exact.RoundWords,
//     exact.RoundDecimal, exact.Map.EvalAt; plan.Plan.Run, roundValue);
//   - the fixed-point logarithms and exponentials of package lnexp, and
//     the shift of a decimal by a power of ten, in formulas
//     (formula.Env.Fast; plan.stepwise, Build's check of formulas);
//   - the pair cache: a pair of names resolved and planned once
//     (cachedPair; engine/internal/paircache);
//   - mixed units: a conversion to a mixed unit resolved once and kept by
//     its two names, with the factor of its map in words (cachedMixed,
//     mixedPairs in mixed.go), the split of a value as written in machine
//     words (mixed.Unit.SplitWords on exact.Radix.SplitWords), and the
//     rounding of the rest in words (mixed.Unit.Split);
//   - the map of a catalog unit defined without an offset, made linear
//     from its factor in lowest terms rather than normalised as an
//     affine map (ownMap, in package build), and composed with a linear
//     map of the unit it refers to in machine words (exact.LinearThen;
//     TestBuildMatchesPlain);
//   - the programs of a catalog's formulas remembered by their text from
//     one build to the next (formula.CompileRemembering, in Build);
//   - the inverse of each map the worked examples convert to, computed
//     once while Build checks them (plan.Compiler.ShareInverses, in
//     package build);
//   - the size of a compiled pair, for the cache's budget, read from a
//     linear map's factor in words rather than from copies of its
//     coefficients (plan.Compiled.Size);
//   - the check of a catalog unit's claim on a code, the factors compared
//     in machine words (exact.AgreeWords; claim.Claimant.Words, set in
//     package build's compileCodes, claim.ByDimension);
//   - a restore's blocks of units decoded side by side, each on a
//     goroutine of its own (snapshot.Read, in Restore);
//   - unit preferences: decisions kept by the names of a request, parsed
//     locales kept, and thresholds written as decimals in the source unit,
//     so that a value clear of them is compared as it was written
//     (prefs.Data.Decide, prefs.Decision.Pick on exact.Bound).
func accelerated() bool { return optimize }

// cachedPair returns the cached resolution of the pair, or nil.
func (g *Graph) cachedPair(from, to string) *pairEntry {
	if !accelerated() || g.pairs == nil {
		return nil
	}
	return g.pairs.Get(from, to, nil, 0)
}

// cachedPairWith is cachedPair for a pair planned with a catalog
// substance's own properties p.
func (g *Graph) cachedPairWith(from, to string, p *Properties) *pairEntry {
	if !accelerated() || g.pairs == nil {
		return nil
	}
	return g.pairs.Get(from, to, p, p.hashSeed())
}
