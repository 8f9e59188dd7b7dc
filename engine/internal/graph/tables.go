package graph

import "github.com/unitd/unitd/engine/dimension"

// Tables are the compiled core of a catalog, what a snapshot holds: the
// categories and units with their exact maps, the indexes of their
// names, the bridges between categories and the claims on code tables.
// The engine gives them to a snapshot's writer and assembles a graph
// from those a reader returns.
type Tables struct {
	Version    string
	Categories []*Category
	Units      []*Unit
	// BySymbol holds the case-sensitive symbols and spellings, ByWord the
	// lower-cased words (aliases, names, plurals); MaxName is the length
	// in bytes of the longest spelling.
	BySymbol, ByWord Names
	MaxName          int
	// Spellings gives every spelling, for suggestions. A reader returns a
	// function that decodes them when first called.
	Spellings func() []Spelling
	// Ambiguous holds the declared ambiguous names by their folded key.
	Ambiguous map[string]*Ambiguity
	// ByDimension is the category of each dimension that several
	// categories may share.
	ByDimension map[dimension.Vector]*Category
	// Bridges maps an ordered pair of categories to their bridge, Bridged
	// a unit crossing a bridge to its map onto the other side's coherent
	// SI unit.
	Bridges map[CategoryPair]*Bridge
	Bridged map[UnitBridge]*Conversion
	// Claims gives the claims on the code tables (by system and code) and
	// the codes kept unclaimed with their reasons. A reader returns a
	// function that decodes them when first called.
	Claims func() (claimed map[string]map[string]*Unit, unclaimed map[string]map[string]string)
}
