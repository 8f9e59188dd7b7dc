package catalog

import (
	_ "embed"
	"errors"
	"fmt"

	"github.com/unitd/unitd/engine"
)

// The embedded catalog's snapshot
//
// A process that serves or converts with the catalog built into the
// binary does not compile it from its YAML: graph.snap holds the
// compiled core of that catalog (engine.Graph.Snapshot: categories,
// units and their exact maps, names, bridges, claims), written by
// `go run ./tools/catalogsnap` from data/. LoadEmbedded reads it back and
// decodes from the YAML only the parts a snapshot does not hold (hints,
// unit preferences, substances). TestSnapshotIsCurrent fails when
// graph.snap is not what the loader builds from data/ today, so the
// snapshot is a derived cache of the YAML, never a second source; hot
// reload and `unitd validate` always compile the YAML.

//go:embed graph.snap
var snapshot string

// Snapshot compiles the embedded catalog from its YAML and writes its
// snapshot: what graph.snap must hold.
func Snapshot() ([]byte, error) {
	g, errs := Load(Embedded())
	if len(errs) > 0 {
		return nil, fmt.Errorf("the embedded catalog does not compile: %w", errors.Join(errs...))
	}
	return g.Snapshot(), nil
}

// LoadEmbedded compiles the catalog built into the binary, from its
// snapshot. The code tables are compiled when first used.
func LoadEmbedded() (*engine.Graph, []error) {
	return engine.Restore(snapshot, engine.Deferred{Codes: codeSet, Spec: embeddedExtras})
}

// embeddedExtras decodes what the embedded catalog adds to its units:
// hints, unit preferences, substances, gases and measurands.
func embeddedExtras() (engine.Spec, []error) {
	spec, errs, _ := loadSpecOf(Embedded(), nil, func(name string) bool {
		return name == PreferencesFile || name == hintsFile || IsSubstanceFile(name)
	})
	return spec, errs
}
