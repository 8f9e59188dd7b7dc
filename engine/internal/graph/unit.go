// Package graph holds the data of a compiled catalog: its categories and
// units, each unit's exact map onto its category's base (a Conversion),
// bridges between categories, and the index of names that finds a unit.
// The engine builds, restores and reads these values; they are read-only
// once built, and shared by every caller.
package graph

import (
	"fmt"
	"math/big"
	"strings"
	"sync"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine/codes"
	"github.com/unitd/unitd/engine/dimension"
	"github.com/unitd/unitd/engine/formula"
	"github.com/unitd/unitd/engine/internal/exact"
)

// CodeOf returns the unit's code in a standard code system (ucum, cldr,
// unece, qudt), as checked against its table, or "".
func (u *Unit) CodeOf(system string) string { return u.Codes.Get(system) }

// UnitCodes are a unit's codes in the standard code systems, in the order
// of CodeSystems, "" where it has none: four strings in the unit rather
// than a map of its own, which two thousand units of a restored catalog
// each made.
type UnitCodes [4]string

// codeSlot is the index of a system in UnitCodes, or -1.
func codeSlot(system string) int {
	switch system {
	case codes.SystemUCUM:
		return 0
	case codes.SystemCLDR:
		return 1
	case codes.SystemUNECE:
		return 2
	case codes.SystemQUDT:
		return 3
	}
	return -1
}

func (c *UnitCodes) Get(system string) string {
	if i := codeSlot(system); i >= 0 {
		return c[i]
	}
	return ""
}

// Set sets the code of a standard system and reports whether system is
// one.
func (c *UnitCodes) Set(system, code string) bool {
	i := codeSlot(system)
	if i < 0 {
		return false
	}
	c[i] = code
	return true
}

// CodesOf keeps the codes of m in the standard systems.
func CodesOf(m map[string]string) UnitCodes {
	var c UnitCodes
	for system, code := range m {
		if i := codeSlot(system); i >= 0 {
			c[i] = code
		}
	}
	return c
}

// Conversion maps a unit's values onto a reference unit (its category's
// base, or the coherent SI unit of its dimension). Every unit but one
// defined through a transcendental formula has one exact map, Map; such a
// formula unit maps as ref = Post(f(Pre(x))), f its Formula in decimals.
type Conversion struct {
	Map       *exact.Map
	Pre, Post *exact.Map
	Formula   *formula.Pair
	// FormulaUnit marks a unit defined by a formula, or relative to one:
	// it is no operand of an expression, no interval, no bridge.
	FormulaUnit bool
	// Exact is false when a definition the map was built from is not
	// Exact (a measured constant): a result through it is never Exact.
	Exact bool
	// Bound bounds the values of a unit of a category with a Bound
	// (absolute zero), or is nil.
	Bound *Bound
	// AnySign marks a map with a pole that takes values of either sign
	// (an inversion, 1/x): only the pole is refused, where a reciprocal
	// unit of the catalog (L/100km) takes only positive values.
	AnySign bool
}

// Transcendental reports whether the unit maps through a formula in
// decimals rather than one exact map.
func (c *Conversion) Transcendental() bool { return c.Map == nil }

// Bound is the domain a category minimum sets on a unit whose map is
// (a·x + b)/d with d > 0: x is in range when a·x + b >= min·d.
type Bound struct {
	A, B, Min apd.Decimal
}

// NewBound is the bound a category's minimum sets on a unit whose map is
// m, (x·a + b)/d with d > 0: x is in range when x·a + b >= minimum·d. It
// is nil, with no error, when there is nothing to bound (no minimum, no
// map, or a map with a pole). A map through π cannot be bounded exactly
// (exact.ErrPiInside), nor one for which minimum·d is no terminating
// decimal.
func NewBound(minimum *big.Rat, m *exact.Map) (*Bound, error) {
	if minimum == nil || m == nil || m.HasPole() {
		return nil, nil
	}
	if m.K() != 0 {
		return nil, exact.ErrPiInside
	}
	a, b, _, d := m.Coefficients()
	min := new(big.Rat).Mul(minimum, new(big.Rat).SetInt(d))
	md, ok := exact.ToDecimal(min)
	if !ok {
		return nil, fmt.Errorf("%s is not a terminating decimal", min.RatString())
	}
	bd := &Bound{Min: md}
	exact.SetInt(&bd.A, a)
	exact.SetInt(&bd.B, b)
	return bd, nil
}

// CategoryPair is an ordered pair of categories.
type CategoryPair struct{ From, To *Category }

// UnitBridge is a unit crossing a bridge.
type UnitBridge struct {
	Unit   *Unit
	Bridge *Bridge
}

// Bridge is a declared relation between two categories' units.
type Bridge struct {
	From, To *Unit
	// Factor is the exact factor as declared: 1 From = Factor To.
	Factor string
	Exact  bool
	Source string
	Note   string
	// SI is the factor from the coherent SI unit of From's dimension to
	// that of To's.
	SI exact.Factor
}

// MapFactor returns the factor and offset of a unit's map without a pole
// (x·f + o, f with its power of π), or ok=false for a formula unit.
func MapFactor(c *Conversion) (f exact.Factor, o *big.Rat, ok bool) {
	if c.FormulaUnit || c.Map == nil {
		return exact.Factor{}, nil, false
	}
	r, off, ok := c.Map.Affine()
	if !ok {
		return exact.Factor{}, nil, false
	}
	return exact.Factor{R: r, K: c.Map.K()}, off, true
}

// Category is a compiled category. Its fields are read-only: the graph
// shares them with every caller. Those from MinimumRat on are the
// engine's compiled form, exported for its packages; callers of the engine
// read the category through the fields before them and its methods.
type Category struct {
	ID          string
	Name        string
	Description string
	Base        *Unit
	Units       []*Unit
	// Minimum is the smallest value allowed, in the base unit, or "".
	Minimum string
	// Preferred marks the category that unit expressions of its dimension
	// belong to when several categories share the dimension.
	Preferred bool
	// Logarithmic marks a category of levels, whose units convert only
	// among themselves (see CategorySpec.Logarithmic).
	Logarithmic bool
	MinimumRat  *big.Rat
	Dim         dimension.Vector
	// Dimensionless is Dim.IsZero(), which every conversion asks (the
	// engine's successHint); whoever sets Dim sets it.
	Dimensionless bool
	// Coherent is the factor from the base unit to the Coherent SI unit
	// of the dimension (1 but for bases such as km/L).
	Coherent exact.Factor
	SIFactor *exact.Factor // as declared, or nil
	// Interval is the category that differences of this category's
	// points belong to (temperature_interval for temperature), or nil.
	Interval *Category
	// MixingRatio marks a dimensionless category that holds a gas's
	// mixing ratios (ppm, µmol/mol), which convert across kinds
	// (the engine's crosskind.go).
	MixingRatio bool
}

// Unit is a compiled unit. Its fields are read-only. Codes and those from
// Conv on are the engine's compiled form, exported for its packages;
// callers of the engine read a unit through the other fields and its
// methods (Doc, CodeOf, BaseMap).
type Unit struct {
	Symbol   string
	Name     string
	Plural   string
	Aliases  []string
	Symbols  []string
	Category *Category
	System   string
	Exact    bool
	// Prefixed is the unit this one was generated from by a prefix, or nil.
	Prefixed *Unit
	// Codes are the unit's codes in the standard code systems, as
	// checked against their tables (CodeOf).
	Codes UnitCodes
	// doc is what Doc returns, unless docs holds it (a restored graph's
	// unit, at docIndex).
	doc      Doc
	docs     *Docs
	docIndex int32

	// Conv maps the unit onto its category's base unit.
	Conv Conversion
	// SI maps the unit onto the coherent SI unit of its dimension, and
	// Coherent is that map's factor without any offset (the unit as an
	// interval, or an operand of an expression).
	SI       *Conversion
	Coherent exact.Factor
	// AsInterval is SI without the category minimum, for a unit of a
	// scale without offset (K) read as an interval; nil otherwise.
	AsInterval *Conversion
}

// Doc is what documents a unit and no conversion reads: its description,
// its definition as declared, where that comes from, and its worked
// examples.
type Doc struct {
	Description string
	Definition  Definition
	Source      string
	Examples    []Example
}

// Doc returns u's documentation. Only the graph's builder modifies it.
func (u *Unit) Doc() *Doc {
	if u.docs != nil {
		return u.docs.get(int(u.docIndex))
	}
	return &u.doc
}

// SetDoc sets u's documentation, in place of any it was to decode.
func (u *Unit) SetDoc(d Doc) { u.doc, u.docs, u.docIndex = d, nil, 0 }

// Docs are the documentation of a restored graph's units, decoded on
// their first use: a process that only converts never reads them, and
// decoding them was a tenth of a command-line conversion.
type Docs struct {
	once   sync.Once
	decode func() []Doc
	all    []Doc
}

// NewDocs returns documentation that decode yields on first use, one Doc
// per unit in the order of the units given it (SetDocs).
func NewDocs(decode func() []Doc) *Docs { return &Docs{decode: decode} }

// SetDocs makes u's documentation the i-th of docs.
func (u *Unit) SetDocs(docs *Docs, i int) { u.docs, u.docIndex = docs, int32(i) }

func (d *Docs) get(i int) *Doc {
	d.once.Do(func() { d.all = d.decode() })
	if i >= len(d.all) {
		return &Doc{} // a snapshot whose documentation did not decode
	}
	return &d.all[i]
}

// Definition is a unit's definition as declared (or, for a prefixed unit,
// as generated): relative to another unit of the same category.
type Definition struct {
	Kind   string // "base", "linear", "affine" or "formula"
	Unit   string // symbol of the reference unit; "" for the base unit
	Factor string
	Offset string
	To     string
	From   string
}

// Example is a worked example of a unit, checked by the engine's Build.
type Example struct {
	Value  string
	From   string
	To     string
	Result string
	Approx bool
}

func (e Example) String() string {
	sign := "="
	if e.Approx {
		sign = "≈"
	}
	return e.Value + " " + e.From + " " + sign + " " + e.Result + " " + e.To
}

// Ambiguity is a name that means different units in different systems.
type Ambiguity struct {
	Name       string
	Candidates []*Unit
	Note       string
}

// CandidateList names the candidates as a message does: "m (metre), M
// (molar)".
func (a *Ambiguity) CandidateList() string {
	parts := make([]string, len(a.Candidates))
	for i, u := range a.Candidates {
		parts[i] = u.Symbol + " (" + u.Name + ")"
	}
	return strings.Join(parts, ", ")
}

type Spelling struct {
	Text string
	Unit *Unit
}

// BaseMap returns the exact map of the unit onto its category's base unit,
// base = x·factor + offset, as fresh copies; ok is false for a unit whose
// conversion goes through a formula. A factor through π is given without
// it: the rational that multiplies π^k.
func (u *Unit) BaseMap() (factor, offset *big.Rat, ok bool) {
	f, o, ok := MapFactor(&u.Conv)
	if !ok {
		return nil, nil, false
	}
	return f.R, o, true
}

// DimensionText prints the dimension as "L T^-1", or "1" when dimensionless.
func (c *Category) DimensionText() string { return c.Dim.String() }

// AccountPrefix names an account's unit whatever the catalog holds:
// "my:smoot". It is not a code system: it is read before codes are.
const AccountPrefix = "my:"

// HasAccountPrefix reports whether name starts with "my:", in either
// case, as system prefixes are read.
func HasAccountPrefix(name string) bool {
	return len(name) > 3 && name[0]|0x20 == 'm' && name[1]|0x20 == 'y' && name[2] == ':'
}

// Account reports whether u is an account's unit.
func (u *Unit) Account() bool { return u != nil && strings.HasPrefix(u.Symbol, AccountPrefix) }

// Account reports whether c is an account's own category.
func (c *Category) Account() bool { return c != nil && strings.HasPrefix(c.ID, AccountPrefix) }

// UnitsIfAny returns the units of a category, nil for none.
func (c *Category) UnitsIfAny() []*Unit {
	if c == nil {
		return nil
	}
	return c.Units
}
