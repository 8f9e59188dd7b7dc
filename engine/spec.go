package engine

import "github.com/unitd/unitd/engine/spec"

// A catalog in plain form, as a loader hands it to Build (package spec).
type (
	Spec              = spec.Catalog
	Origin            = spec.Origin
	CategorySpec      = spec.Category
	UnitSpec          = spec.Unit
	DefinitionSpec    = spec.Definition
	PrefixSpec        = spec.Prefix
	ExampleSpec       = spec.Example
	AmbiguousSpec     = spec.Ambiguous
	BridgeSpec        = spec.Bridge
	UnclaimedCodeSpec = spec.UnclaimedCode
)
