package yamlfast

import (
	"fmt"

	"go.yaml.in/yaml/v3"
)

// plain parses src with yaml.v3 as the catalog's loader does.
func plain(src []byte) (*yaml.Node, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(src, &root); err != nil {
		return nil, err
	}
	return &root, nil
}

// differ describes the first difference between two trees in a field a
// reader of the tree can see, comments aside, or returns "".
func differ(fast, want *yaml.Node) string {
	return differAt("document", fast, want)
}

func differAt(path string, fast, want *yaml.Node) string {
	switch {
	case fast == nil && want == nil:
		return ""
	case fast == nil || want == nil:
		return fmt.Sprintf("%s: fast %v, yaml.v3 %v", path, fast, want)
	}
	type fields struct {
		Kind         yaml.Kind
		Style        yaml.Style
		Tag, Value   string
		Anchor       string
		Line, Column int
		Content      int
		Alias        bool
	}
	f := fields{fast.Kind, fast.Style, fast.Tag, fast.Value, fast.Anchor, fast.Line, fast.Column, len(fast.Content), fast.Alias != nil}
	w := fields{want.Kind, want.Style, want.Tag, want.Value, want.Anchor, want.Line, want.Column, len(want.Content), want.Alias != nil}
	if f != w {
		return fmt.Sprintf("%s: fast %+v, yaml.v3 %+v", path, f, w)
	}
	for i := range fast.Content {
		if d := differAt(fmt.Sprintf("%s/%d(%q)", path, i, want.Content[i].Value), fast.Content[i], want.Content[i]); d != "" {
			return d
		}
	}
	return ""
}
