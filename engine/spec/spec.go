// Package spec is a catalog in plain form, as a loader hands it to the
// engine's Build: categories and their units, bridges, and the parts of a
// catalog other packages compile (substances, measurands, hints, unit
// preferences, code tables), each item with the Origin (file:line:col) it
// was read from; what two specs have in common (SameUnit, SameCategory,
// CountUnits); and the rules an account's units and categories meet
// beyond a catalog's that need nothing but the spec (CheckAccountUnit,
// CheckAccountCategory, the limits).
package spec

import (
	"github.com/unitd/unitd/engine/codes"
	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/hint"
	"github.com/unitd/unitd/engine/prefs"
	"github.com/unitd/unitd/engine/substance"
)

// Origin is where an item of a catalog was written, for error messages.
type Origin = fault.Origin

// Catalog is a whole catalog in plain form, as a loader hands it to Build.
type Catalog struct {
	// Version identifies the sources (for example a hash of the files).
	Version    string
	Categories []Category
	// Bridges relate the units of two categories of different kinds.
	Bridges []Bridge
	// Elements, Substances, Conditions and Gas are the substance catalog
	// (package substance).
	Elements   []substance.ElementSpec
	Substances []substance.SubstanceSpec
	Conditions []substance.ConditionsSpec
	Gas        substance.GasSpec
	// Measurands relate their units by published equations (package substance).
	Measurands []substance.MeasurandSpec
	// Hints guess what a failed conversion meant (package hint).
	Hints []hint.Spec
	// Preferences, when set, are the unit preferences a conversion to
	// Auto chooses its unit from.
	Preferences *prefs.Spec
	// Codes are the standard code systems' tables, or nil.
	Codes *codes.Set
	// UnclaimedCodes are codes of those tables that have the dimension
	// and factor of a catalog unit but that no unit claims, with the
	// reason.
	UnclaimedCodes []UnclaimedCode
}

// UnclaimedCode keeps codes of the standard code systems unclaimed
// although a catalog unit has their dimension and factor: they name
// another kind of quantity of that dimension (QUDT's BAR-L-PER-SEC is a
// gas throughput, not the power hW), or the owner's factor is wrong where
// it meets a catalog unit (QUDT's LA, the lambert, has the apostilb's).
// Codes are namespaced ("qudt:BAR-L-PER-SEC"). Build refuses a code that
// a unit claims, or that no unit could claim (the entry is stale).
type UnclaimedCode struct {
	Codes  []string
	Reason string
	Origin Origin
}

// Bridge declares that one unit of a category equals Factor units of
// another category, a relation of two kinds of quantity that no dimension
// shows: a revolution per second is one cycle per second (Hz) and 2π
// radians per second (rad/s). Conversions between the two categories then
// go through it.
type Bridge struct {
	From, To string // unit symbols
	Factor   string // exact: 1 From = Factor To
	Exact    bool
	Source   string
	Note     string
	Origin   Origin
}

// Category declares one category and its units.
type Category struct {
	ID          string
	Name        string
	Description string
	// Dimension maps base dimensions (L, M, T, I, Θ, N, J, A for angle,
	// D for information) to their exponents.
	Dimension map[string]int
	// Base is the symbol of the category's reference unit.
	Base string
	// Minimum, when set, is the smallest value (in the base unit) a quantity
	// of this category may take, such as absolute zero.
	Minimum string
	// SIFactor, when set, is the exact factor from the base unit to the
	// coherent SI unit of the dimension ("1/1000" for a base of litres).
	// By default it is 1, or what the base symbol says when it reads as an
	// expression of other categories' units (km/L); a declared factor
	// must then agree.
	SIFactor string
	// Preferred marks this category as the one unit expressions of its
	// dimension belong to, when several categories share the dimension
	// (energy rather than torque).
	Preferred bool
	// Logarithmic marks a category of levels on a logarithmic scale (the
	// neper, the bel, the decibel). Its units convert only among
	// themselves: a unit expression, such as the ratio V/V, is not a
	// level, and no level is part of a unit expression.
	Logarithmic bool
	Units       []Unit
	Ambiguous   []Ambiguous
	Origin      Origin
}

// Unit declares one unit.
type Unit struct {
	Symbol string
	Name   string
	Plural string
	// Aliases are word spellings, matched case-insensitively.
	Aliases []string
	// Symbols are further case-sensitive spellings, often Unicode (°C, Ω).
	Symbols     []string
	System      string
	Description string
	Definition  Definition
	// Exact says whether the definition is exact by its source.
	Exact    bool
	Source   string
	Prefixes *Prefix
	Examples []Example
	// Codes are the unit's codes in the standard code systems, by system
	// (ucum, cldr, unece, qudt).
	Codes  map[string]string
	Origin Origin
}

// Definition defines a unit relative to another unit of its category.
// Exactly one form is used: Factor (linear), Factor and Offset (affine:
// ref = x*Factor + Offset), or To and From (formulas in x, to and from the
// reference unit). The category's base unit has an empty definition.
type Definition struct {
	Unit   string
	Factor string
	Offset string
	To     string
	From   string
	Origin Origin
}

// Prefix applies a prefix set ("si" or "binary") to a unit, optionally
// restricted to Only these prefix symbols or to all Except these.
type Prefix struct {
	Set    string
	Only   []string
	Except []string
	// Codes give generated units codes their unit's codes do not imply,
	// by system and prefix symbol: {unece: {k: KMT, c: CMT}}.
	Codes  map[string]map[string]string
	Origin Origin
}

// Example is a worked example that Build checks: Value in the unit
// converts to Result in To. When Approx is false the result must be exact
// and equal; when true, Result is the exact value rounded to its own number
// of significant digits.
type Example struct {
	Value  string
	From   string
	To     string
	Result string
	Approx bool
	Origin Origin
}

// Ambiguous declares a name that means different units in different
// systems; looking it up yields AMBIGUOUS_UNIT listing the candidates.
type Ambiguous struct {
	Name       string
	Candidates []string
	Note       string
	Origin     Origin
}
