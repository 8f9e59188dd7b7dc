package engine

import "github.com/unitd/unitd/engine/hint"

// The catalog's table of hints for failed conversions (package hint).
type (
	HintSpec = hint.Spec
	HintSide = hint.Side
)

// hints compiles the hint table into the graph, checking that every unit
// and category it names exists and every pattern compiles.
func (b *extrasBuilder) hints(specs []HintSpec) {
	b.x.hints = hint.Compile(specs, hintNames{b.g}, func(o Origin, msg string) { b.errorf(o, "hint", "%s", msg) })
}

// hintNames is a graph as hints find units, categories and names in it.
type hintNames struct{ g *Graph }

func (n hintNames) Unit(symbol string) *Unit {
	u, _ := n.g.t.BySymbol.Get(symbol)
	return u
}

func (n hintNames) Category(id string) *Category { return n.g.t.ByID[id] }

func (n hintNames) UnitNamed(name string) *Unit {
	if u, err, found := n.g.lookupName(name); found && err == nil {
		return u
	}
	return nil
}

func (n hintNames) CategoryNamed(name string) *Category {
	if s, err := n.g.resolve(name); err == nil {
		return s.Category()
	}
	return nil
}

// withHint returns err with the Hint of the first entry of the hint table
// that fits it and req, or err itself. It runs only when a conversion
// failed, and copies the error rather than changing one that may be
// shared.
func (g *Graph) withHint(err error, req *Request) error {
	e, ok := err.(*Error)
	if !ok || e.Hint != "" {
		return err
	}
	hints := g.extras().hints
	if len(hints) == 0 {
		return err
	}
	if text, ok := hints.Find(e.Code, req.From, req.To, hintNames{g}); ok {
		c := *e
		c.Hint = text
		return &c
	}
	return err
}
