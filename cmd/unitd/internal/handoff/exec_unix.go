//go:build unix

package handoff

import (
	"fmt"
	"os"
	"syscall"
)

// RunInstead runs the program at path with argv (argv[0] is how it is
// named) in place of this process: the same process, standard streams and
// signals. It returns only when it cannot.
func RunInstead(path string, argv []string) error {
	err := syscall.Exec(path, argv, os.Environ())
	return fmt.Errorf("running %s: %w", path, err)
}
