//go:build unitd_plain

package catalog

// Built with the tag unitd_plain, the catalog starts with its accelerator
// off, so that every package that loads a catalog runs its tests on
// yaml.v3 alone:
//
//	go test -tags unitd_plain ./...
//
// The catalog's own tests run both ways in every run (TestMain), whatever
// the tag.
func init() { fastYAML = false }
