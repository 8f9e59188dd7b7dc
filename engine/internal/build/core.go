package build

import (
	"github.com/unitd/unitd/engine/claim"
	"github.com/unitd/unitd/engine/dimension"
	"github.com/unitd/unitd/engine/internal/graph"
)

// Core is a compiled catalog's core, what the engine's graph holds and
// converts with: the categories and units with their exact maps, the
// indexes of their names, the bridges between categories and the claims
// on code tables. Compiling writes it in place, so that what compiling
// asks of the graph (a worked example converted, a bridge's expression
// read) sees what it has compiled so far.
type Core struct {
	Version    string
	Categories []*graph.Category
	ByID       map[string]*graph.Category
	Units      []*graph.Unit
	// BySymbol holds the case-sensitive symbols and spellings, ByWord the
	// lower-cased words (aliases, names, plurals).
	BySymbol, ByWord graph.Names
	// Ambiguous holds the declared ambiguous names by their folded key.
	Ambiguous map[string]*graph.Ambiguity
	// Spellings are every name, for suggestions (a restored graph decodes
	// them on first use); MaxName is the length in bytes of the longest.
	Spellings []graph.Spelling
	MaxName   int
	// ByDimension is the category of each dimension that several
	// categories may share: the one marked preferred, or the only one.
	ByDimension map[dimension.Vector]*graph.Category
	// Bridges maps an ordered pair of categories to the exact factor from
	// the coherent SI unit of the first to that of the second; Bridged
	// holds, for each unit of a bridged category, its map onto the
	// coherent SI unit of the other category.
	Bridges map[graph.CategoryPair]*graph.Bridge
	Bridged map[graph.UnitBridge]*graph.Conversion
	// Codes are the standard code tables and the catalog's claims on them.
	Codes *claim.Index
}
