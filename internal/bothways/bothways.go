// Package bothways runs a package's tests twice: with its accelerators on,
// as in production, and off, so that every table and property checks the
// plain path and the accelerators give the same answers (as strconv's
// tests do with SetOptimize(false)). Fuzz targets run their seeds in the
// first pass only: they check properties of the whole (a round trip, a
// parser), not one path against the other, and doubling them only doubled
// the time.
package bothways

import (
	"flag"
	"fmt"
	"testing"
)

// Run runs m with *gate true, then, when that passed and neither a
// benchmark (benchmarks measure production) nor fuzzing was asked for,
// again with *gate false and the fuzz targets skipped. It returns the exit
// code for os.Exit.
func Run(m *testing.M, gate *bool, pkg string) int {
	*gate = true
	code := m.Run()
	if code != 0 || flagValue("test.bench") != "" || flagValue("test.fuzz") != "" {
		return code
	}
	skip := "^Fuzz"
	if s := flagValue("test.skip"); s != "" {
		skip = s + "|" + skip
	}
	if err := flag.Set("test.skip", skip); err != nil {
		fmt.Println(pkg+": cannot skip the fuzz targets in the second pass:", err)
		return 1
	}
	*gate = false
	defer func() { *gate = true }()
	fmt.Println(pkg + ": again with the accelerators off (fuzz targets ran once, above)")
	return m.Run()
}

func flagValue(name string) string {
	if f := flag.Lookup(name); f != nil {
		return f.Value.String()
	}
	return ""
}
