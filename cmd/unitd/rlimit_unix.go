//go:build unix && !unitd_lite

package main

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// raiseFileLimit raises this process's limit on open files as far as it
// may: the hard limit up to the system's ceiling (fs.nr_open, which only a
// privileged process may do) and the soft limit to the hard one. It
// returns the soft limit in effect, and whether it could be read at all.
func raiseFileLimit() (uint64, bool) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0, false
	}
	ceiling := lim.Max
	if b, err := os.ReadFile("/proc/sys/fs/nr_open"); err == nil {
		if n, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64); err == nil && n > ceiling {
			ceiling = n
		}
	}
	if ceiling > lim.Max {
		up := syscall.Rlimit{Cur: ceiling, Max: ceiling}
		if syscall.Setrlimit(syscall.RLIMIT_NOFILE, &up) == nil {
			return ceiling, true
		}
	}
	if lim.Cur < lim.Max {
		up := syscall.Rlimit{Cur: lim.Max, Max: lim.Max}
		if syscall.Setrlimit(syscall.RLIMIT_NOFILE, &up) == nil {
			return lim.Max, true
		}
	}
	return lim.Cur, true
}
