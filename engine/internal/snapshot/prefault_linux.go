package snapshot

import (
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// prefault asks the kernel to map the pages that b covers whole, in one
// call (MADV_POPULATE_WRITE, Linux 5.14), where a fresh page is otherwise
// mapped by a fault the first time it is written: a restore writes its
// units (about 240 pages) one after another, and a fault costs a
// short-lived process more on a virtual machine than the writing does.
// The contents of b are unchanged. It reports whether the kernel took the
// advice; an older one refuses it, and the pages then fault one by one.
func prefault(b []byte) bool {
	page := uintptr(os.Getpagesize())
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	first := (start + page - 1) &^ (page - 1)
	last := (start + uintptr(len(b))) &^ (page - 1)
	if last <= first {
		return false
	}
	whole := b[first-start : last-start]
	return unix.Madvise(whole, unix.MADV_POPULATE_WRITE) == nil
}
