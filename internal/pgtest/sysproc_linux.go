package pgtest

import "syscall"

// sysProcAttr runs a child with cred (if any) and kills it if the test
// binary dies first, so no server outlives its tests.
func sysProcAttr(cred *syscall.Credential) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGKILL}
}
