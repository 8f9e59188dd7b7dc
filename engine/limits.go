package engine

import "github.com/unitd/unitd/engine/internal/build"

// MaxUnits bounds the units one Build compiles, the ones prefixes
// generate included (build.MaxUnits says why).
const MaxUnits = build.MaxUnits

// MaxSpellings bounds the symbols, names, plurals and aliases of the
// units one Build indexes, prefixed ones included (build.MaxSpellings).
const MaxSpellings = build.MaxSpellings
