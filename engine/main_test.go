package engine

import (
	"os"
	"testing"

	"github.com/unitd/unitd/internal/bothways"
)

// TestMain runs every test of the package with the accelerators on and
// off (optimize.go).
func TestMain(m *testing.M) {
	os.Exit(bothways.Run(m, &optimize, "engine"))
}
