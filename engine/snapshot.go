package engine

import (
	"fmt"

	"github.com/unitd/unitd/engine/claim"
	"github.com/unitd/unitd/engine/internal/build"
	"github.com/unitd/unitd/engine/internal/graph"
	"github.com/unitd/unitd/engine/internal/snapshot"
)

// Snapshot writes the compiled core of the graph (package snapshot).
func (g *Graph) Snapshot() []byte {
	return snapshot.Write(&graph.Tables{
		Version:     g.t.Version,
		Categories:  g.t.Categories,
		Units:       g.t.Units,
		BySymbol:    g.t.BySymbol,
		ByWord:      g.t.ByWord,
		MaxName:     g.t.MaxName,
		Spellings:   g.spellingList,
		Ambiguous:   g.t.Ambiguous,
		ByDimension: g.t.ByDimension,
		Bridges:     g.t.Bridges,
		Bridged:     g.t.Bridged,
		Claims: func() (map[string]map[string]*Unit, map[string]map[string]string) {
			return g.t.Codes.Claimed(), g.t.Codes.Unclaimed()
		},
	})
}

// Deferred are the parts of a catalog that a snapshot does not hold,
// given to Restore as functions it calls when the parts are first used:
// a process that converts metres to feet never compiles the code tables,
// the unit preferences or the substances.
type Deferred struct {
	// Codes compiles the standard code tables; nil for none.
	Codes func() (*CodeTables, error)
	// Spec decodes the catalog's hints, unit preferences, substances,
	// gases and measurands; its categories and bridges are not read.
	Spec func() (Spec, []error)
}

// Restore reads a snapshot back into a graph, with the parts a snapshot
// does not hold compiled from d as Build compiles them, each when first
// used. Errors are those of a snapshot that does not read; a deferred
// part that fails to compile is missing from the graph, and Warm reports
// why.
func Restore(data string, d Deferred) (*Graph, []error) {
	var g *Graph
	var compileCodes func() *CodeTables
	if d.Codes != nil {
		compileCodes = func() *CodeTables {
			set, err := d.Codes()
			if err != nil {
				g.addDeferredErrs([]error{fmt.Errorf("code tables: %w", err)})
				return nil
			}
			return set
		}
	}
	g, err := restore(data, compileCodes)
	if err != nil {
		return nil, []error{fmt.Errorf("catalog snapshot: %w", err)}
	}
	g.xCompile = func() (*extras, []error) {
		var spec Spec
		if d.Spec != nil {
			var errs []error
			if spec, errs = d.Spec(); len(errs) > 0 {
				return new(extras), errs
			}
		}
		b := &extrasBuilder{g: g, x: new(extras)}
		b.extras(&spec)
		if len(b.errs) > 0 {
			return new(extras), b.errs
		}
		return b.x, nil
	}
	return g, nil
}

// Warm compiles the deferred parts of a restored graph now (and decodes
// its units' documentation) and returns the errors of those that failed;
// it returns nil for a built graph. A server warms its graph once it
// listens, and tests check that every part compiles.
func (g *Graph) Warm() []error {
	g.t.Codes.Tables()
	g.t.Codes.Claimed()
	g.spellingList()
	g.extras()
	if len(g.t.Units) > 0 {
		g.t.Units[0].Doc() // every unit's documentation, decoded at once
	}
	if errs := g.deferredErrs.Load(); errs != nil {
		return *errs
	}
	return nil
}

// restore assembles a graph from a snapshot's tables.
func restore(data string, compileCodes func() *CodeTables) (*Graph, error) {
	t, err := snapshot.Read(data, accelerated())
	if err != nil {
		return nil, err
	}
	g := &Graph{
		t: build.Core{
			Version:     t.Version,
			Categories:  t.Categories,
			ByID:        make(map[string]*Category, len(t.Categories)),
			Units:       t.Units,
			BySymbol:    t.BySymbol,
			ByWord:      t.ByWord,
			MaxName:     t.MaxName,
			Ambiguous:   t.Ambiguous,
			ByDimension: t.ByDimension,
			Bridges:     t.Bridges,
			Bridged:     t.Bridged,
			Codes:       claim.Restored(t.Claims, compileCodes),
		},
		decodeSpellings: t.Spellings,
	}
	g.newCaches()
	for _, c := range t.Categories {
		g.t.ByID[c.ID] = c
	}
	return g, nil
}
