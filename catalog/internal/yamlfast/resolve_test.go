package yamlfast

import (
	"regexp"
	"testing"

	"github.com/unitd/unitd/internal/race"
	"go.yaml.in/yaml/v3"
)

// TestResolveNumbers checks the tag of every plain scalar of up to five
// characters (four under the race detector) made of what numbers are
// written with against the tag yaml.v3 gives it, and floatSyntax against
// yaml.v3's pattern of a float.
func TestResolveNumbers(t *testing.T) {
	pattern := regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)
	alphabet := []byte("0.9eE-+_xb")
	tags := map[string]int{}
	var walk func(v []byte, depth int)
	walk = func(v []byte, depth int) {
		if len(v) > 0 {
			s := string(v)
			if got, want := floatSyntax(s), pattern.MatchString(s); got != want {
				t.Fatalf("floatSyntax(%q) = %v, want %v", s, got, want)
			}
			var doc yaml.Node
			if err := yaml.Unmarshal([]byte("a: "+s+"\n"), &doc); err == nil &&
				len(doc.Content) == 1 && len(doc.Content[0].Content) == 2 {
				n := doc.Content[0].Content[1]
				if n.Kind == yaml.ScalarNode && n.Style == 0 && n.Value == s {
					if got := resolve(s); got != n.Tag {
						t.Fatalf("resolve(%q) = %s, yaml.v3 tags it %s", s, got, n.Tag)
					}
					tags[n.Tag]++
				}
			}
		}
		if depth == 0 {
			return
		}
		for _, c := range alphabet {
			walk(append(v, c), depth-1)
		}
	}
	depth := 5
	if race.Enabled {
		depth = 4
	}
	walk(nil, depth)
	for _, tag := range []string{"!!int", "!!float", "!!str"} {
		if tags[tag] < 100 {
			t.Errorf("only %d scalars tagged %s: the check checks little (%v)", tags[tag], tag, tags)
		}
	}
}
