// Package format lays catalog YAML files out in one canonical form,
// keeping every comment, as gofmt does for Go. It rewrites layout only:
// what catalog.Load reads from a formatted file is what it read before.
//
// The canonical form is what the shipped catalog mostly does:
//
//   - top-level keys in the order category, units, ambiguous, with a blank
//     line between them, and a blank line between units;
//   - the keys of a category in the order id, name, description,
//     dimension, base, minimum, and those of a unit in the order symbol,
//     name, plural, aliases, symbols, system, definition, exact,
//     description, source, codes, prefixes, examples; definition keys in the order
//     factor, offset, unit, to, from;
//   - dimension, definition, prefixes, aliases, symbols and ambiguous
//     entries in flow style ({…} and […]), everything else in block style,
//     two spaces of indentation, sequences indented under their key;
//   - a comment at the end of a line two spaces after the value;
//   - scalars plain where plain YAML reads back the same value and type,
//     double-quoted otherwise; the items of symbols (mostly Unicode
//     spellings) are always double-quoted.
//
// A collection that holds a comment is written in block style, so that the
// comment keeps its place. Keys the format does not know keep their order
// after the known ones.
package format

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"reflect"
	"strconv"
	"strings"

	"github.com/unitd/unitd/catalog"
	"github.com/unitd/unitd/engine"
	"go.yaml.in/yaml/v3"
)

// shape is the canonical layout of a node of a catalog file.
type shape struct {
	order []string          // key order of a mapping
	keys  map[string]*shape // shapes of a mapping's values
	item  *shape            // shape of a sequence's items
	flow  bool              // flow style
	gap   bool              // a blank line between entries or items
	quote bool              // scalars double-quoted
}

var catalogShape = func() *shape {
	flowList := &shape{flow: true}
	unit := &shape{
		order: []string{"symbol", "name", "plural", "aliases", "symbols", "system", "definition", "exact", "description", "source", "codes", "prefixes", "examples"},
		keys: map[string]*shape{
			"aliases":    flowList,
			"symbols":    {flow: true, item: &shape{quote: true}},
			"definition": {flow: true, order: []string{"factor", "offset", "unit", "to", "from"}},
			"codes":      {flow: true, order: []string{"ucum", "cldr", "unece", "qudt"}},
			"prefixes":   {flow: true, order: []string{"set", "only", "except", "codes"}, keys: map[string]*shape{"only": flowList, "except": flowList, "codes": {flow: true, order: []string{"ucum", "cldr", "unece", "qudt"}}}},
			"examples":   {},
		},
	}
	return &shape{
		order: []string{"category", "units", "ambiguous"},
		gap:   true,
		keys: map[string]*shape{
			"category": {
				order: []string{"id", "name", "description", "dimension", "base", "minimum"},
				keys:  map[string]*shape{"dimension": {flow: true}},
			},
			"units": {gap: true, item: unit},
			"ambiguous": {item: &shape{
				flow:  true,
				order: []string{"name", "candidates", "note"},
				keys:  map[string]*shape{"candidates": flowList},
			}},
		},
	}
}()

// Source returns src in the canonical layout. It fails on YAML that does
// not parse or holds more than one document.
func Source(src []byte) ([]byte, error) {
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("file is empty")
		}
		return nil, err
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, errors.New("more than one YAML document")
	} else if !errors.Is(err, io.EOF) {
		return nil, err
	}
	p := &printer{}
	p.comment(doc.HeadComment, 0)
	if doc.HeadComment != "" {
		p.buf.WriteString("\n")
	}
	if len(doc.Content) == 1 {
		root := doc.Content[0]
		if isBlock(root, catalogShape) {
			p.block(root, catalogShape, 0)
		} else {
			p.buf.WriteString(p.inline(root, catalogShape, false))
			p.lineComment(root)
			p.buf.WriteString("\n")
		}
	}
	if doc.FootComment != "" {
		p.buf.WriteString("\n")
		p.comment(doc.FootComment, 0)
	}
	return p.buf.Bytes(), nil
}

type printer struct {
	buf bytes.Buffer
}

// comment writes a comment block, one line per line, at indent.
func (p *printer) comment(text string, indent int) {
	if text == "" {
		return
	}
	for _, line := range strings.Split(text, "\n") {
		if line = strings.TrimSpace(line); line == "" {
			p.buf.WriteString("\n")
			continue
		}
		p.buf.WriteString(strings.Repeat(" ", indent) + line + "\n")
	}
}

// lineComment ends a line with the line comments of nodes, two spaces
// after the value as the shipped files write them.
func (p *printer) lineComment(nodes ...*yaml.Node) {
	for _, n := range nodes {
		if n != nil && n.LineComment != "" {
			p.buf.WriteString("  " + strings.TrimSpace(n.LineComment))
		}
	}
}

func (s *shape) key(k string) *shape {
	if s == nil {
		return nil
	}
	return s.keys[k]
}

func (s *shape) items() *shape {
	if s == nil {
		return nil
	}
	return s.item
}

// isBlock reports whether a collection is written in block style: when its
// shape says so, or it holds comments a flow collection could not keep.
func isBlock(n *yaml.Node, s *shape) bool {
	if n.Kind != yaml.MappingNode && n.Kind != yaml.SequenceNode {
		return false
	}
	if len(n.Content) == 0 {
		return false // [] or {}
	}
	if s == nil {
		if n.Style&yaml.FlowStyle == 0 {
			return true
		}
	} else if !s.flow {
		return true
	}
	return hasComments(n.Content)
}

func hasComments(nodes []*yaml.Node) bool {
	for _, n := range nodes {
		if n.HeadComment != "" || n.LineComment != "" || n.FootComment != "" || hasComments(n.Content) {
			return true
		}
	}
	return false
}

// pairs returns a mapping's key/value pairs in canonical order: the
// shape's keys first, in its order, then the others as they came.
func pairs(n *yaml.Node, s *shape) [][2]*yaml.Node {
	var ps [][2]*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		ps = append(ps, [2]*yaml.Node{n.Content[i], n.Content[i+1]})
	}
	if s == nil || len(s.order) == 0 {
		return ps
	}
	rank := func(k *yaml.Node) int {
		for i, o := range s.order {
			if k.Value == o {
				return i
			}
		}
		return len(s.order)
	}
	// A stable insertion sort: catalogs are small, and repeated keys (an
	// error the loader reports) keep their relative order.
	for i := 1; i < len(ps); i++ {
		for j := i; j > 0 && rank(ps[j][0]) < rank(ps[j-1][0]); j-- {
			ps[j], ps[j-1] = ps[j-1], ps[j]
		}
	}
	return ps
}

// block writes a block collection at indent. The first line of a mapping
// that is a sequence item continues the "- " already written: first tells.
func (p *printer) block(n *yaml.Node, s *shape, indent int) {
	p.blockAt(n, s, indent, false)
}

func (p *printer) blockAt(n *yaml.Node, s *shape, indent int, first bool) {
	pad := strings.Repeat(" ", indent)
	gap := s != nil && s.gap
	switch n.Kind {
	case yaml.MappingNode:
		for i, kv := range pairs(n, s) {
			k, v := kv[0], kv[1]
			if i > 0 && gap {
				p.buf.WriteString("\n")
			}
			if !(first && i == 0) {
				p.comment(k.HeadComment, indent)
				p.buf.WriteString(pad)
			}
			p.buf.WriteString(p.inline(k, nil, false) + ":")
			vs := s.key(k.Value)
			switch {
			case isBlock(v, vs):
				p.lineComment(k, v)
				p.buf.WriteString("\n")
				p.comment(v.HeadComment, indent+2)
				p.blockAt(v, vs, indent+2, false)
			default:
				p.buf.WriteString(" " + p.inline(v, vs, false))
				p.lineComment(k, v)
				p.buf.WriteString("\n")
				p.comment(v.HeadComment, indent+2)
			}
			p.comment(v.FootComment, indent)
			p.comment(k.FootComment, indent)
		}
	case yaml.SequenceNode:
		is := s.items()
		for i, item := range n.Content {
			if i > 0 && gap {
				p.buf.WriteString("\n")
			}
			p.comment(item.HeadComment, indent)
			if isBlock(item, is) {
				if item.Kind == yaml.MappingNode && item.Anchor == "" {
					// The first key's comment goes above the "- " line.
					p.comment(item.Content[0].HeadComment, indent)
					p.buf.WriteString(pad + "- ")
					p.lineComment(item)
					p.blockAt(item, is, indent+2, true)
				} else {
					p.buf.WriteString(pad + "-" + strings.TrimSuffix(" "+anchor(item), " "))
					p.lineComment(item)
					p.buf.WriteString("\n")
					p.blockAt(item, is, indent+2, false)
				}
			} else {
				p.buf.WriteString(pad + "- " + p.inline(item, is, false))
				p.lineComment(item)
				p.buf.WriteString("\n")
			}
			p.comment(item.FootComment, indent)
		}
	}
}

func anchor(n *yaml.Node) string {
	if n.Anchor == "" {
		return ""
	}
	return "&" + n.Anchor + " "
}

// inline writes a node on one line: a scalar, an alias or a flow
// collection. inFlow says it is inside a flow collection.
func (p *printer) inline(n *yaml.Node, s *shape, inFlow bool) string {
	switch n.Kind {
	case yaml.AliasNode:
		return "*" + n.Value
	case yaml.ScalarNode:
		return anchor(n) + scalar(n, s != nil && s.quote, inFlow)
	case yaml.MappingNode:
		var parts []string
		for _, kv := range pairs(n, s) {
			parts = append(parts, p.inline(kv[0], nil, true)+": "+p.inline(kv[1], s.key(kv[0].Value), true))
		}
		return anchor(n) + "{" + strings.Join(parts, ", ") + "}"
	case yaml.SequenceNode:
		var parts []string
		for _, item := range n.Content {
			parts = append(parts, p.inline(item, s.items(), true))
		}
		return anchor(n) + "[" + strings.Join(parts, ", ") + "]"
	}
	return ""
}

// scalar writes a scalar plain when plain YAML reads back the same value
// with the same type, else double-quoted.
func scalar(n *yaml.Node, quote, inFlow bool) string {
	tag := n.ShortTag()
	if n.Style&yaml.TaggedStyle != 0 && tag != "!!str" {
		// An explicit tag the loader may rely on: keep it, with the text
		// plain when it reads back as itself and quoted otherwise (an
		// empty text, say), so that a second pass writes the same.
		v := n.Value
		if !quote && readsBackPlain(v, (&yaml.Node{Kind: yaml.ScalarNode, Value: v}).ShortTag(), inFlow) {
			return n.Tag + " " + v
		}
		return n.Tag + " " + strconv.Quote(v)
	}
	if !quote && readsBackPlain(n.Value, tag, inFlow) {
		return n.Value
	}
	if tag == "!!null" && !quote {
		return "null" // a key with nothing after it ("0:") is null
	}
	if tag != "!!str" {
		// A quoted non-string (rare: "1" is a string); keep its tag.
		return n.Tag + " " + strconv.Quote(n.Value)
	}
	return strconv.Quote(n.Value)
}

var yaml11Bool = map[string]bool{"y": true, "yes": true, "n": true, "no": true, "on": true, "off": true}

// readsBackPlain reports whether value written plain, in block or flow
// context, parses as the same value with the same tag.
func readsBackPlain(value, tag string, inFlow bool) bool {
	if value == "" || strings.ContainsAny(value, "\n\r\t") || strings.TrimSpace(value) != value {
		return false
	}
	if yaml11Bool[strings.ToLower(value)] {
		return false // a boolean to YAML 1.1 readers
	}
	src := "k: " + value
	if inFlow {
		src = "k: [" + value + "]"
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil || len(doc.Content) != 1 {
		return false
	}
	m := doc.Content[0]
	if m.Kind != yaml.MappingNode || len(m.Content) != 2 {
		return false
	}
	v := m.Content[1]
	if inFlow {
		if v.Kind != yaml.SequenceNode || len(v.Content) != 1 {
			return false
		}
		v = v.Content[0]
	}
	return v.Kind == yaml.ScalarNode && v.Style == 0 && v.Value == value && v.ShortTag() == tag &&
		v.LineComment == "" && v.HeadComment == ""
}

// File formats one catalog file and checks that the loader reads the
// same category from the result as from src (positions aside), so that a
// layout bug can never change a catalog. name is used in errors. The unit
// preferences (catalog.PreferencesFile) are generated, and left as the
// generator lays them out.
func File(name string, src []byte) ([]byte, error) {
	if path.Base(name) == catalog.PreferencesFile {
		// Generated by tools/cldrprefs, in the generator's layout.
		return src, nil
	}
	out, err := Source(src)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	before, errsBefore := catalog.ParseFile(name, src)
	after, errsAfter := catalog.ParseFile(name, out)
	if len(errsBefore) != len(errsAfter) || !reflect.DeepEqual(withoutOrigins(before), withoutOrigins(after)) {
		return nil, fmt.Errorf("%s: formatting would change what the file means; file left as is (please report this)", name)
	}
	return out, nil
}

// withoutOrigins returns a copy of cs with every position cleared.
func withoutOrigins(cs *engine.CategorySpec) *engine.CategorySpec {
	if cs == nil {
		return nil
	}
	c := *cs
	c.Origin = engine.Origin{}
	c.Units = append([]engine.UnitSpec(nil), cs.Units...)
	for i := range c.Units {
		u := &c.Units[i]
		u.Origin, u.Definition.Origin = engine.Origin{}, engine.Origin{}
		if u.Prefixes != nil {
			ps := *u.Prefixes
			ps.Origin = engine.Origin{}
			u.Prefixes = &ps
		}
		u.Examples = append([]engine.ExampleSpec(nil), u.Examples...)
		for j := range u.Examples {
			u.Examples[j].Origin = engine.Origin{}
		}
	}
	c.Ambiguous = append([]engine.AmbiguousSpec(nil), cs.Ambiguous...)
	for i := range c.Ambiguous {
		c.Ambiguous[i].Origin = engine.Origin{}
	}
	return &c
}
