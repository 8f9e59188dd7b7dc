//go:build race

package race

// Enabled is true: the race detector is compiled in.
const Enabled = true
