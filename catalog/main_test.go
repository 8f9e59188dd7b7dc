package catalog

import (
	"os"
	"testing"

	"github.com/unitd/unitd/internal/bothways"
)

// TestMain runs every test of the package with the fast YAML parser on
// and off (fastyaml.go).
func TestMain(m *testing.M) {
	os.Exit(bothways.Run(m, &fastYAML, "catalog"))
}
