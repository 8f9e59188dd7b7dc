package catalog

import (
	"go.yaml.in/yaml/v3"

	"github.com/unitd/unitd/engine"
)

// unclaimedFile is the catalog file that lists the codes of the standard
// code systems that no catalog unit claims although one has their
// dimension and factor, each group with the reason
// (engine.UnclaimedCodeSpec). It declares no category.
const unclaimedFile = "unclaimed.yaml"

// parseUnclaimed decodes the unclaimed-codes file: a list under
// "unclaimed" of {codes, reason}, codes namespaced ("qudt:PER-HR").
func parseUnclaimed(name string, src []byte) ([]engine.UnclaimedCodeSpec, []error) {
	d, top, errs := parseYAML(name, src)
	if top == nil {
		return nil, errs
	}
	defer d.done()
	var out []engine.UnclaimedCodeSpec
	d.mapping(top, "", fields{
		"unclaimed": func(v *yaml.Node) {
			d.list(v, "", "unclaimed", func(item *yaml.Node) {
				us := engine.UnclaimedCodeSpec{Origin: d.origin(item)}
				const s = "unclaimed codes"
				d.mapping(item, s, fields{
					"codes":  func(v *yaml.Node) { d.strs(v, s, "codes", &us.Codes) },
					"reason": func(v *yaml.Node) { d.str(v, s, "reason", &us.Reason) },
				})
				out = append(out, us)
			})
		},
	})
	return out, d.errs
}
