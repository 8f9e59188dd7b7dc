package catalog

import (
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/unitd/unitd/engine"
)

// TestBuildLeavesSpecCodes builds twice a spec whose ft claims a code of
// m: a build drops a refused claim from the unit it compiles, never from
// the spec, which a reload reuses (decodeCache), so that both builds
// refuse it.
func TestBuildLeavesSpecCodes(t *testing.T) {
	spec, errs, _ := loadSpec(Embedded(), nil)
	if errs != nil {
		t.Fatal(errs)
	}
	set, err := codeSet()
	if err != nil {
		t.Fatal(err)
	}
	spec.Codes = set
	var codes map[string]string
	for i := range spec.Categories {
		for j := range spec.Categories[i].Units {
			if us := &spec.Categories[i].Units[j]; us.Symbol == "ft" {
				codes = maps.Clone(us.Codes)
				codes["qudt"] = "M" // m's
				us.Codes = codes
			}
		}
	}
	if codes == nil {
		t.Fatal("no unit ft")
	}
	want := maps.Clone(codes)
	var reports [2]string
	for i := range reports {
		_, errs := engine.Build(spec)
		reports[i] = fmt.Sprint(errs)
		if !strings.Contains(reports[i], "code qudt:M means 1 m") {
			t.Fatalf("build %d: errors %s, want qudt:M refused", i+1, reports[i])
		}
		if !maps.Equal(codes, want) {
			t.Fatalf("build %d changed the spec's codes of ft to %v, from %v", i+1, codes, want)
		}
	}
	if reports[0] != reports[1] {
		t.Errorf("the builds report\n  %s\nand\n  %s", reports[0], reports[1])
	}
}
