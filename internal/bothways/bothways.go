// Package bothways runs a package's tests twice: with its accelerators on,
// as in production, and off, so that every table, property and fuzz seed
// checks the plain path and the accelerators give the same answers (as
// strconv's tests do with SetOptimize(false)).
package bothways

import (
	"flag"
	"fmt"
	"testing"
)

// Run runs m with *gate true, then, when that passed and no benchmark was
// asked for (benchmarks measure production), again with *gate false. It
// returns the exit code for os.Exit.
func Run(m *testing.M, gate *bool, pkg string) int {
	*gate = true
	code := m.Run()
	if code != 0 || flag.Lookup("test.bench").Value.String() != "" {
		return code
	}
	*gate = false
	defer func() { *gate = true }()
	fmt.Println(pkg + ": again with the accelerators off")
	return m.Run()
}
