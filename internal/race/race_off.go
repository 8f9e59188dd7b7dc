//go:build !race

package race

// Enabled is false: the race detector is not compiled in.
const Enabled = false
