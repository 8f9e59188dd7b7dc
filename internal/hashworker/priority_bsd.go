//go:build unix && !linux

package hashworker

import "syscall"

// lowerPriority sets the helper to nice 19, the lowest priority (the nice
// value of the whole process on these systems).
func lowerPriority() error { return syscall.Setpriority(syscall.PRIO_PROCESS, 0, 19) }
