package engine

import (
	"flag"
	"fmt"
	"os"
	"testing"
)

// TestMain runs every test of the package twice: with the accelerators on
// (as in production) and off, so that each table, property and fuzz seed
// checks the plain path and its accelerators give the same answers.
func TestMain(m *testing.M) {
	code := m.Run()
	// Benchmarks measure the production configuration only.
	benchmarking := flag.Lookup("test.bench").Value.String() != ""
	if code == 0 && !benchmarking {
		optimize = false
		fmt.Println("engine: again with the accelerators off")
		code = m.Run()
		optimize = true
	}
	os.Exit(code)
}
