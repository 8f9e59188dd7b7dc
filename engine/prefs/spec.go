package prefs

import "github.com/unitd/unitd/engine/fault"

// Spec is the unit preference data of Unicode CLDR (UTS #35
// Part 6, "Unit Preferences"): for a quantity, a usage and a set of
// regions, the units people use, largest first, each with the threshold
// from which it applies. It comes with what the algorithm needs around it:
// the CLDR units of a substance, which regions contain
// which (for the fall-back to 001), and the likely region of a language
// (for a locale without one).
type Spec struct {
	// Source names the data and its licence, shown with every answer it
	// decided ("Unicode CLDR 48, unitPreferenceData").
	Source  string
	Version string // CLDR's version ("48")
	Licence string
	Units   []UnitSpec
	Lists   []ListSpec
	// Contains maps a region to the regions it contains, without CLDR's
	// groupings (EU, UN): a tree rooted at 001.
	Contains map[string][]string
	// Aliases maps a deprecated region code to its replacement (UK → GB).
	Aliases map[string]string
	// Likely maps "lang", "lang-Script" and "und-Script" to the region
	// CLDR's likely subtags give them.
	Likely map[string]string
	Origin fault.Origin
}

// UnitSpec says what no claim of the catalog says of a CLDR unit
// identifier: for CLDR's "milligram-ofglucose-per-deciliter", the catalog
// unit (or expression) and the substance it is of. Every other identifier
// the preferences name is what cldr:<id> names in the catalog, the unit
// that claims it (Resolver.CLDR).
type UnitSpec struct {
	ID        string
	Unit      string
	Substance string
	Origin    fault.Origin
}

// ListSpec is one list of preferences: the units used for
// Quantity and Usage in Regions, in order, largest first.
type ListSpec struct {
	Quantity string
	Usage    string
	Regions  []string
	Entries  []EntrySpec
	Origin   fault.Origin
}

// EntrySpec is one preference: a CLDR unit identifier and the
// threshold (geq, in that unit, or its largest part) from which it is
// used; an empty Geq is CLDR's implicit 1.
type EntrySpec struct {
	Unit string
	Geq  string
}
