//go:build !linux

package hashworker

import "os/exec"

// Command returns the command that runs the helper: path with args.
func Command(path string, args ...string) *exec.Cmd { return exec.Command(path, args...) }
