// Package race says whether the race detector is compiled in, for the
// tests that size a sample by it. A test that checks thousands of cases in
// one goroutine (a property test against big.Rat or apd, a stream of a
// million lines) finds no race the detector could report and runs five to
// ten times slower under it: under the race detector it checks a smaller
// sample of the same cases, and `make test` runs it again in full without
// the race detector (the Makefile's FULLSIZE_PKGS and FULLSIZE_RUN, which
// this package's test keeps in step with the tests that read Enabled).
package race
