package hashworker

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// lowestPriority is the nice value of the helper: the lowest there is.
const lowestPriority = 19

// lowerPriority sets every thread of this process to nice 19. On Linux the
// nice value belongs to a thread, and threads inherit the value of the
// thread that creates them; so once every thread present is lowered, every
// thread the Go runtime starts later is too. The list is read again until
// no new thread shows up.
func lowerPriority() error {
	done := map[int]bool{}
	for range 10 {
		ents, err := os.ReadDir("/proc/self/task")
		if err != nil {
			return err
		}
		fresh := false
		for _, e := range ents {
			tid, err := strconv.Atoi(e.Name())
			if err != nil || done[tid] {
				continue
			}
			fresh = true
			if err := syscall.Setpriority(syscall.PRIO_PROCESS, tid, lowestPriority); err != nil {
				return err
			}
			done[tid] = true
		}
		if !fresh {
			return nil
		}
	}
	return nil
}

// Command returns the command that runs the helper: path with args, killed
// when the process that started it dies.
func Command(path string, args ...string) *exec.Cmd {
	cmd := exec.Command(path, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	return cmd
}
