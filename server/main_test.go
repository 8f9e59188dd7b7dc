package server

import (
	"flag"
	"fmt"
	"os"
	"testing"
)

// TestMain runs every test of the package twice: with the accelerator of
// batch decoding on (as in production) and off, so that each contract,
// fuzz seed and hostile input checks both ways of reading a body.
func TestMain(m *testing.M) {
	code := m.Run()
	// Benchmarks measure the production configuration only.
	benchmarking := flag.Lookup("test.bench").Value.String() != ""
	if code == 0 && !benchmarking {
		optimize = false
		fmt.Println("server: again with the accelerator off")
		code = m.Run()
		optimize = true
	}
	os.Exit(code)
}
