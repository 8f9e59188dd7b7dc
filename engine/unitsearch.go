package engine

import (
	"github.com/unitd/unitd/engine/internal/fold"
	"github.com/unitd/unitd/engine/unitsearch"
)

// A unit search's ranks and matches (package unitsearch).
type (
	UnitRank  = unitsearch.Rank
	UnitMatch = unitsearch.Match
	UnitWords = unitsearch.Words
)

const (
	UnitSymbol     = unitsearch.Symbol
	UnitSymbolCase = unitsearch.SymbolCase
	UnitWord       = unitsearch.Word
	UnitPrefix     = unitsearch.Prefix
	UnitContains   = unitsearch.Contains
)

// SearchUnits returns the units q names, best first (see UnitRank), with
// the one ranking that GET /v1/units?q=, the catalog page and the
// converter's unit field share (package unitsearch). words, when not
// nil, adds the reader's names of the units.
func (g *Graph) SearchUnits(q string, words UnitWords) []UnitMatch {
	return g.unitSearchIndex().Search(q, g.t.Ambiguous[fold.Key(q)], words)
}

// unitSearchIndex returns the graph's index of unit spellings, building
// it on the first search.
func (g *Graph) unitSearchIndex() *unitsearch.Index {
	g.unitIndexOnce.Do(func() { g.unitIndex = unitsearch.New(g.t.Units) })
	return g.unitIndex
}
