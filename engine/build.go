package engine

import (
	"context"
	"fmt"

	"github.com/unitd/unitd/engine/internal/build"
	"github.com/unitd/unitd/engine/internal/graph"
	"github.com/unitd/unitd/engine/internal/plan"
	"github.com/unitd/unitd/engine/unitexpr"
)

// Build checks spec as a whole and compiles it into a Graph. It reports
// every problem it finds, each a *SpecError located at its origin; the
// Graph is nil when there is any.
func Build(spec Spec) (*Graph, []error) {
	return BuildContext(context.Background(), spec)
}

// BuildContext is Build that stops when ctx is done, returning ctx's
// error (with whatever problems it found until then).
//
// Package build compiles the categories and units into the graph's core,
// reading worked examples through the graph as it fills in; what the
// catalog adds to its units (hints, preferences, substances, measurands)
// is the engine's to compile, after.
func BuildContext(ctx context.Context, spec Spec) (*Graph, []error) {
	g := new(Graph)
	g.newCaches()
	errs, ok := build.Catalog(ctx, &g.t, &spec, g.buildOptions())
	if !ok {
		return nil, errs
	}
	b := &extrasBuilder{g: g, x: new(extras), errs: errs}
	// The extras fill in as they compile, before the graph is shared.
	g.x.Store(b.x)
	gasErrs := b.gas(spec.Gas)
	b.extras(&spec)
	b.errs = append(b.errs, gasErrs...)
	if len(b.errs) > 0 {
		return nil, b.errs
	}
	return g, nil
}

// buildOptions are what package build needs of g while it compiles g's
// core: g's reading of names, its compiled pairs, the gate.
func (g *Graph) buildOptions() build.Options {
	return build.Options{Names: buildNames{g}, Compiler: g.compiledPairs, Fast: accelerated()}
}

// buildNames is a graph as package build reads names in it.
type buildNames struct{ g *Graph }

func (n buildNames) Lookup(name string) (*graph.Unit, error) { return n.g.Lookup(name) }
func (n buildNames) Resolve(name string) (plan.Side, error)  { return n.g.resolve(name) }
func (n buildNames) ParseExpressionExcluding(s string, exclude *graph.Unit) (*unitexpr.Expression, error) {
	return n.g.parseExpressionExcluding(s, exclude)
}

// extrasBuilder compiles what a catalog adds to its units (extras): its
// hints, unit preferences, substances and measurands. It reads the
// graph's units and never the graph's extras (Graph.extras), so that a
// restored graph can compile them on first use. It goes on from the
// problems compiling the units found (errs), and compiles what needs
// sound units only when there are none.
type extrasBuilder struct {
	g    *Graph
	x    *extras
	errs []error
}

func (b *extrasBuilder) errorf(o Origin, subject, format string, args ...any) {
	b.errs = append(b.errs, &SpecError{Origin: o, Subject: subject, Message: fmt.Sprintf(format, args...)})
}

// extras compiles the hints, unit preferences, substances and
// measurands of spec into b.x.
func (b *extrasBuilder) extras(spec *Spec) {
	b.hints(spec.Hints)
	if len(b.errs) == 0 && spec.Preferences != nil {
		b.preferences(spec.Preferences)
	}
	if len(b.errs) == 0 {
		b.substances(spec)
	}
}
