package build

// MaxUnits bounds the units one Build compiles, the ones prefixes generate
// included: about a second and 100 MB of compiling and checking at the
// most, where 20,000 declared units with SI prefixes would be half a
// million units.
const MaxUnits = 20_000

// MaxSpellings bounds the symbols, names, plurals and aliases of the
// units one Build indexes, prefixed ones included: each costs a few
// hundred bytes of index, and a catalog giving many aliases to prefixed
// units would otherwise index millions.
const MaxSpellings = 100_000
