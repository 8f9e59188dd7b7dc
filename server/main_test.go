package server

import (
	"os"
	"testing"

	"github.com/unitd/unitd/internal/bothways"
)

// TestMain runs every test of the package with the accelerator of batch
// decoding on and off (decode.go), so that each contract, fuzz seed and
// hostile input checks both ways of reading a body.
func TestMain(m *testing.M) {
	os.Exit(bothways.Run(m, &optimize, "server"))
}
