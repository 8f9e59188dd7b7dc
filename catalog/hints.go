package catalog

import (
	"github.com/unitd/unitd/engine"
	"go.yaml.in/yaml/v3"
)

// hintsFile is the catalog file that holds the table of hints: guesses at
// what a failed conversion meant, each attached to the error as its hint
// (engine.HintSpec). It declares no category.
const hintsFile = "hints.yaml"

// parseHints decodes the hints file: a list under "hints" of
// {code, from, to, hint, source}, where from and to are each a mapping of
// one of unit (a symbol), category (an id) or pattern (a regular
// expression over the name written), or absent for any.
func parseHints(name string, src []byte) ([]engine.HintSpec, []error) {
	d, top, errs := parseYAML(name, src)
	if top == nil {
		return nil, errs
	}
	defer d.done()
	var out []engine.HintSpec
	d.mapping(top, "", fields{
		"hints": func(v *yaml.Node) {
			d.list(v, "", "hints", func(item *yaml.Node) {
				hs := engine.HintSpec{Origin: d.origin(item)}
				const s = "hint"
				side := func(dst *engine.HintSide) func(*yaml.Node) {
					return func(v *yaml.Node) {
						d.mapping(v, s, fields{
							"unit":     func(v *yaml.Node) { d.str(v, s, "unit", &dst.Unit) },
							"category": func(v *yaml.Node) { d.str(v, s, "category", &dst.Category) },
							"pattern":  func(v *yaml.Node) { d.str(v, s, "pattern", &dst.Pattern) },
						})
					}
				}
				var code string
				d.mapping(item, s, fields{
					"code":   func(v *yaml.Node) { d.str(v, s, "code", &code) },
					"from":   side(&hs.From),
					"to":     side(&hs.To),
					"hint":   func(v *yaml.Node) { d.str(v, s, "hint", &hs.Hint) },
					"source": func(v *yaml.Node) { d.str(v, s, "source", &hs.Source) },
				})
				hs.Code = engine.Code(code)
				out = append(out, hs)
			})
		},
	})
	return out, d.errs
}
