package engine

import "github.com/unitd/unitd/engine/internal/graph"

// The compiled catalog's values are defined in engine/internal/graph,
// which the engine's jobs share; these are their names for callers.
type (
	Unit       = graph.Unit
	Category   = graph.Category
	Definition = graph.Definition
	Example    = graph.Example
	Ambiguity  = graph.Ambiguity
	Bridge     = graph.Bridge
)

// AccountPrefix starts the name of an account's own unit or category.
const AccountPrefix = graph.AccountPrefix
