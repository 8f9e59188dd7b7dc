// Package catalog reads unit catalogs written in YAML and compiles them
// with the engine.
//
// A catalog is a directory of YAML files, one per category (see
// README.md in this directory for the format). Load reads every *.yaml
// file of a file system, decodes it strictly — unknown or repeated keys are
// errors — keeping the line and column of every item, and hands the result
// to engine.Build. All problems are reported at once, each as
// "file:line:col: message". The YAML is parsed by yaml.v3, or, for the
// subset catalog files are written in, by internal/yamlfast into the very
// tree yaml.v3 would give (the package's one accelerator: fastyaml.go).
//
// The catalog shipped with unitd lives in data/ and is embedded in the
// binary (Embedded). A Watcher reloads a catalog directory when it changes
// and publishes only catalogs that compiled without error.
//
// CheckWellKnown compares a compiled catalog's names with what other unit
// systems (GNU units, pint, UCUM, UnitsNet) make them mean
// (wellknown.tsv) and warns about every clash that README.md's table of
// symbol decisions does not settle.
package catalog
