package catalog

// The gate
//
// fastYAML is the one gate of the catalog's accelerator, and parseYAML
// (load.go) is the one function that reads it: with it open, a file is
// parsed by yamlfast, which gives the very tree yaml.v3 gives for the
// subset of YAML catalog files are written in, or declines, and the file
// is parsed by yaml.v3 as with the gate closed. Errors, and their
// positions, are always yaml.v3's. The package's tests run once with the
// gate open and once closed (TestMain); the build tag unitd_plain closes
// it for every other package's tests (fastyaml_plain.go).
var fastYAML = true
