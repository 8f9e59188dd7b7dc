//go:build !unix

package apikey

import (
	"errors"
	"io/fs"
	"os"
)

// lockFile is not implemented off Unix: refusing to edit the store is safer
// than editing it without a lock.
func lockFile(path string) (unlock func(), err error) {
	return nil, errors.ErrUnsupported
}

func syncDir(dir string) error { return nil }

func inode(fi fs.FileInfo) uint64 { return 0 }

func keepOwner(f *os.File, fi fs.FileInfo) error { return nil }
