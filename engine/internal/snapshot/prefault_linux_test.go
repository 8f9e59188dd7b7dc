package snapshot

import (
	"os"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// TestPrefault: the pages prefault covers whole are resident afterwards
// (as mincore reports them) and their contents unchanged, in memory
// mapped fresh for the test, when the kernel takes the advice at all.
func TestPrefault(t *testing.T) {
	page := os.Getpagesize()
	mmap := func(pages int) []byte {
		mem, err := unix.Mmap(-1, 0, pages*page, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { unix.Munmap(mem) })
		return mem
	}
	supported := unix.Madvise(mmap(1), unix.MADV_POPULATE_WRITE) == nil
	mem := mmap(64)
	mem[5*page] = 7 // one page already written
	resident := func() int {
		vec := make([]byte, 64)
		_, _, errno := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&mem[0])), uintptr(len(mem)), uintptr(unsafe.Pointer(&vec[0])))
		if errno != 0 {
			t.Fatal(errno)
		}
		n := 0
		for _, v := range vec {
			n += int(v & 1)
		}
		return n
	}
	if n := resident(); n >= 64 {
		t.Fatalf("%d of 64 fresh pages resident before prefault", n)
	}
	// From the middle of the first page to the middle of the last: the
	// 62 pages between are covered whole.
	if took := prefault(mem[page/2 : len(mem)-page/2]); took != supported {
		t.Fatalf("prefault took effect: %v; the kernel takes MADV_POPULATE_WRITE: %v", took, supported)
	}
	if n := resident(); supported && n < 62 {
		t.Errorf("%d of 64 pages resident after prefault, want the 62 it covers whole", n)
	}
	for i, v := range mem {
		if i == 5*page && v != 7 || i != 5*page && v != 0 {
			t.Fatalf("byte %d is %d after prefault", i, v)
		}
	}
}
