package catalog

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/unitd/unitd/engine"
	"go.yaml.in/yaml/v3"
)

// AccountDocument is one unit of an account as stored: its symbol and its
// document (YAML or JSON) in the schema of ParseAccountUnit.
type AccountDocument struct {
	Symbol   string
	Document string
}

// ExportAccount writes the catalog in fsys with an account's units in
// it, as the *.yaml files of a catalog directory, by name: every file of
// fsys, a unit that joins a catalog category appended to the units of
// the file that declares it, and a file of its own (<id>.yaml) for each
// category the account declares. The account's names lose "my:": in a
// catalog of its own, an account's unit is a unit like any other. The
// result is what unitd validate, diff and fmt read (unitd units export
// lays it out with fmt's rules). Problems are positioned by the unit's
// symbol.
func ExportAccount(fsys fs.FS, docs []AccountDocument) (map[string][]byte, []error) {
	names, err := fs.Glob(fsys, "*.yaml")
	if err != nil {
		return nil, []error{err}
	}
	out := map[string][]byte{}
	files := map[string]*yaml.Node{}  // name → document node, for the files that change
	fileOf := map[string]string{}     // catalog category id → file name
	parsed := map[string]*yaml.Node{} // name → parsed document of every file
	for _, name := range names {
		src, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, []error{err}
		}
		out[name] = src
		var doc yaml.Node
		if err := yaml.Unmarshal(src, &doc); err != nil || len(doc.Content) == 0 {
			continue // the loader reports it
		}
		parsed[name] = &doc
		if cat := yamlValue(doc.Content[0], "category"); cat != nil {
			if id := yamlValue(cat, "id"); id != nil && id.Kind == yaml.ScalarNode {
				fileOf[id.Value] = name
			}
		}
	}
	var errs []error
	bad := func(sym, format string, args ...any) {
		errs = append(errs, &engine.SpecError{Origin: engine.Origin{File: sym, Line: 1, Column: 1}, Message: fmt.Sprintf(format, args...)})
	}
	own := map[string]*yaml.Node{} // the account's category id → its file's document
	type joining struct {
		category string
		unit     *yaml.Node
		sym      string
	}
	var joins []joining
	for _, d := range docs {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(d.Document), &doc); err != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
			bad(d.Symbol, "the document does not read as a mapping of the unit's keys")
			continue
		}
		unit := doc.Content[0]
		unit.Style = 0
		cat := removeKey(unit, "category")
		stripAccountPrefix(unit)
		switch {
		case cat == nil:
			bad(d.Symbol, "the document names no category")
		case cat.Kind == yaml.ScalarNode:
			joins = append(joins, joining{cat.Value, unit, d.Symbol})
		case cat.Kind == yaml.MappingNode:
			cat.Style = 0
			id := yamlValue(cat, "id")
			if id == nil || id.Kind != yaml.ScalarNode {
				bad(d.Symbol, "the category it declares has no id")
				continue
			}
			if yamlValue(cat, "base") == nil {
				cat.Content = append(cat.Content, scalar("base"), scalar(strings.TrimPrefix(d.Symbol, engine.AccountPrefix)))
			}
			file := &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode, Content: []*yaml.Node{
				scalar("category"), cat,
				scalar("units"), {Kind: yaml.SequenceNode, Content: []*yaml.Node{unit}},
			}}}}
			own[id.Value] = file
		default:
			bad(d.Symbol, "category: expected a category's id or a mapping that declares one")
		}
	}
	for _, j := range joins {
		id := strings.TrimPrefix(j.category, engine.AccountPrefix)
		var file *yaml.Node
		var name string
		if f, ok := own[id]; ok {
			file, name = f, id+".yaml"
		} else if n, ok := fileOf[j.category]; ok {
			file, name = parsed[n], n
		} else {
			bad(j.sym, "category %q is neither the catalog's nor one the account declares", j.category)
			continue
		}
		units := yamlValue(file.Content[0], "units")
		if units == nil {
			units = &yaml.Node{Kind: yaml.SequenceNode}
			file.Content[0].Content = append(file.Content[0].Content, scalar("units"), units)
		}
		units.Content = append(units.Content, j.unit)
		files[name] = file
	}
	for id, file := range own {
		name := id + ".yaml"
		if _, clash := out[name]; clash {
			bad(id, "the account's category %q would be written over the catalog's file %s", id, name)
			continue
		}
		files[name] = file
	}
	if len(errs) > 0 {
		return nil, errs
	}
	for name, file := range files {
		var b bytes.Buffer
		enc := yaml.NewEncoder(&b)
		enc.SetIndent(2)
		if err := enc.Encode(file); err != nil {
			return nil, []error{fmt.Errorf("%s: %w", name, err)}
		}
		enc.Close()
		out[path.Base(name)] = b.Bytes()
	}
	return out, nil
}

func scalar(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v} }

// yamlValue returns the value of key in the mapping m, or nil.
func yamlValue(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// removeKey removes key from the mapping m and returns its value.
func removeKey(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			v := m.Content[i+1]
			m.Content = slices.Delete(m.Content, i, i+2)
			return v
		}
	}
	return nil
}

// stripAccountPrefix drops "my:" from the names a unit's definition and
// examples use: in a catalog, the account's units are catalog units.
func stripAccountPrefix(unit *yaml.Node) {
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind == yaml.ScalarNode {
			n.Value = strings.ReplaceAll(n.Value, engine.AccountPrefix, "")
			return
		}
		n.Style &^= yaml.FlowStyle
		for _, c := range n.Content {
			walk(c)
		}
	}
	for _, key := range []string{"definition", "examples"} {
		if v := yamlValue(unit, key); v != nil {
			walk(v)
		}
	}
}
