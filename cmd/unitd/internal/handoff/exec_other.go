//go:build !unix

package handoff

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
)

// RunInstead runs the program at path with argv[1:] on this process's
// standard streams, and exits with its exit code. It returns only when
// it cannot run it.
func RunInstead(path string, argv []string) error {
	cmd := exec.Command(path, argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	var exit *exec.ExitError
	switch err := cmd.Run(); {
	case errors.As(err, &exit):
		os.Exit(exit.ExitCode())
	case err != nil:
		return fmt.Errorf("running %s: %w", path, err)
	}
	os.Exit(0)
	return nil
}
