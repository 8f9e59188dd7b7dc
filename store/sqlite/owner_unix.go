//go:build unix

package sqlite

import (
	"io/fs"
	"syscall"
)

// fileOwner returns the user and group owning a file.
func fileOwner(fi fs.FileInfo) (uid, gid uint32, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	return st.Uid, st.Gid, true
}
