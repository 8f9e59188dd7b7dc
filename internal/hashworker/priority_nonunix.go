//go:build !unix

package hashworker

// lowerPriority does nothing here: the helper keeps its priority (still a
// process apart, with memory of its own).
func lowerPriority() error { return nil }
