//go:build unix

package apikey

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// lockFile takes an exclusive flock(2) on path, creating it if needed, and
// returns the function that releases it. flock locks belong to the open file
// description, so two opens in one process exclude each other too. The lock
// file is never removed: removing it would let two processes lock different
// inodes.
func lockFile(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open lock file: %w", err)
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return func() {
		// Closing the descriptor releases the lock.
		f.Close()
	}, nil
}

// syncDir fsyncs a directory so that a rename in it is durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// inode returns the inode number of fi, or 0.
func inode(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}

// keepOwner gives the new file f the owner and group of the file it
// replaces (fi), so that a server running as that user can still read it.
// Only root may give a file away: anyone else gets an error saying so,
// rather than a file the server cannot read.
func keepOwner(f *os.File, fi fs.FileInfo) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	if int(st.Uid) == os.Geteuid() && int(st.Gid) == os.Getegid() {
		return nil
	}
	if err := f.Chown(int(st.Uid), int(st.Gid)); err != nil {
		return fmt.Errorf("the key file belongs to uid %d gid %d; rewriting it as uid %d would leave a file its owner may not read (run as that user): %w",
			st.Uid, st.Gid, os.Geteuid(), err)
	}
	return nil
}
