package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"slices"
	"strings"
)

// reference is the API reference of /docs, read from the server's OpenAPI
// document and rendered on the server, so that the page is whole at once:
// no script has to fetch and lay out the document first.
type reference struct {
	Title, Version string
	Summary        template.HTML
	Groups         []refGroup
	Paths          int
}

// refGroup is the operations of one tag of the document.
type refGroup struct {
	ID, Name    string
	Description template.HTML
	Ops         []refOp
}

type refOp struct {
	ID, Method, Path string
	Summary          string
	Description      template.HTML
	NeedsKey         bool
	Params           []refParam
	Body             *refBody
	Responses        []refResponse
}

type refParam struct {
	Name, In, Type, Example string
	Required                bool
	Description             template.HTML
}

type refBody struct {
	Type, Schema, Example string
}

type refResponse struct {
	Status      string
	Description template.HTML
	Schema      string
}

// The parts of an OpenAPI 3.1 document the reference shows.
type apiDoc struct {
	Info struct {
		Title, Version, Summary, Description string
	}
	Tags []struct {
		Name, Description string
	}
	Paths      map[string]map[string]apiOp
	Components struct {
		Parameters map[string]apiParam
		Responses  map[string]apiResponse
	}
}

type apiOp struct {
	OperationID string `json:"operationId"`
	Summary     string
	Description string
	Tags        []string
	Parameters  []apiParam
	RequestBody *struct {
		Content map[string]apiMedia
	} `json:"requestBody"`
	Responses map[string]apiResponse
	Security  []map[string][]string
}

type apiParam struct {
	Ref         string `json:"$ref"`
	Name, In    string
	Required    bool
	Description string
	Schema      apiSchema
	Example     any
}

type apiSchema struct {
	Ref  string `json:"$ref"`
	Type any
	Enum []any
}

type apiResponse struct {
	Ref         string `json:"$ref"`
	Description string
	Content     map[string]apiMedia
}

type apiMedia struct {
	Schema  apiSchema
	Example any
}

// methodOrder is the order of a path's operations.
var methodOrder = []string{"get", "head", "post", "put", "patch", "delete"}

// newReference reads an OpenAPI document.
func newReference(doc []byte) (*reference, error) {
	var d apiDoc
	if err := json.Unmarshal(doc, &d); err != nil {
		return nil, fmt.Errorf("reading the OpenAPI document: %w", err)
	}
	ref := &reference{Title: d.Info.Title, Version: d.Info.Version, Summary: codeSpans(d.Info.Summary), Paths: len(d.Paths)}
	groups := map[string]*refGroup{}
	var order []string
	group := func(name string) *refGroup {
		if g, ok := groups[name]; ok {
			return g
		}
		g := &refGroup{ID: "tag-" + slug(name), Name: name}
		for _, t := range d.Tags {
			if t.Name == name {
				g.Description = codeSpans(t.Description)
			}
		}
		groups[name] = g
		order = append(order, name)
		return g
	}
	for _, t := range d.Tags { // the document's order of tags first
		group(t.Name)
	}
	paths := make([]string, 0, len(d.Paths))
	for p := range d.Paths {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, path := range paths {
		for _, method := range methodOrder {
			op, ok := d.Paths[path][method]
			if !ok {
				continue
			}
			tag := "other"
			if len(op.Tags) > 0 {
				tag = op.Tags[0]
			}
			o := refOp{ID: op.OperationID, Method: strings.ToUpper(method), Path: path, Summary: op.Summary,
				Description: codeSpans(op.Description), NeedsKey: len(op.Security) > 0}
			if o.ID == "" {
				o.ID = slug(method + " " + path)
			}
			for _, p := range op.Parameters {
				if p.Ref != "" {
					p = d.Components.Parameters[strings.TrimPrefix(p.Ref, "#/components/parameters/")]
				}
				rp := refParam{Name: p.Name, In: p.In, Required: p.Required, Description: codeSpans(p.Description), Type: schemaName(p.Schema)}
				if p.Example != nil {
					rp.Example = exampleText(p.Example, false)
				}
				o.Params = append(o.Params, rp)
			}
			if op.RequestBody != nil {
				for _, ct := range sortedKeys(op.RequestBody.Content) {
					m := op.RequestBody.Content[ct]
					b := &refBody{Type: ct, Schema: schemaName(m.Schema)}
					if m.Example != nil {
						b.Example = exampleText(m.Example, true)
					}
					o.Body = b
					break
				}
			}
			for _, status := range sortedKeys(op.Responses) {
				r := op.Responses[status]
				if r.Ref != "" {
					r = d.Components.Responses[strings.TrimPrefix(r.Ref, "#/components/responses/")]
				}
				rr := refResponse{Status: status, Description: codeSpans(r.Description)}
				for _, ct := range sortedKeys(r.Content) {
					rr.Schema = schemaName(r.Content[ct].Schema)
					break
				}
				o.Responses = append(o.Responses, rr)
			}
			group(tag).Ops = append(group(tag).Ops, o)
		}
	}
	for _, name := range order {
		if g := groups[name]; len(g.Ops) > 0 {
			ref.Groups = append(ref.Groups, *g)
		}
	}
	return ref, nil
}

// schemaName names a schema: its component's name, or its type.
func schemaName(s apiSchema) string {
	if s.Ref != "" {
		return s.Ref[strings.LastIndex(s.Ref, "/")+1:]
	}
	switch t := s.Type.(type) {
	case string:
		return t
	case []any:
		var names []string
		for _, n := range t {
			names = append(names, fmt.Sprint(n))
		}
		return strings.Join(names, " or ")
	}
	return ""
}

// exampleText prints an example: strings as they are, anything else as
// JSON, indented when indent is set.
func exampleText(v any, indent bool) string {
	if s, ok := v.(string); ok && !indent {
		return s
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if indent {
		enc.SetIndent("", "  ")
	}
	if enc.Encode(v) != nil {
		return ""
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// codeSpans escapes s and sets its `code spans` as <code>.
func codeSpans(s string) template.HTML {
	parts := strings.Split(s, "`")
	var b strings.Builder
	for i, part := range parts {
		text := template.HTMLEscapeString(part)
		if i%2 == 1 && i < len(parts)-1 {
			b.WriteString("<code>" + text + "</code>")
		} else {
			if i%2 == 1 { // an unpaired backquote
				b.WriteString("`")
			}
			b.WriteString(text)
		}
	}
	return template.HTML(b.String())
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
