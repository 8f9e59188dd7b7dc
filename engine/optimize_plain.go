//go:build unitd_plain

package engine

// Built with the tag unitd_plain, the engine starts with its accelerators
// off, so that every package that converts (engine/answer, server,
// cmd/unitd, web, …) runs its tests on the plain paths:
//
//	go test -tags unitd_plain ./...
//
// The engine's own tests run both ways in every run (TestMain), whatever
// the tag.
func init() { optimize = false }
