//go:build unix

package core

import (
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// releasePages tells the kernel that b's whole pages are not needed for
// now. b must be read-only, file-backed data (the embedded asset in the
// library's rodata): the pages are dropped from this process's resident set
// and, if b is read again, faulted back in from the library file, so
// nothing can change but memory use.
func releasePages(b []byte) {
	if len(b) == 0 {
		return
	}
	page := uintptr(os.Getpagesize())
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	end := start + uintptr(len(b))
	first := (start + page - 1) &^ (page - 1)
	last := end &^ (page - 1)
	if last <= first {
		return
	}
	// Re-slice b to its whole pages (no pointer is made from an integer).
	region := b[first-start : last-start]
	_ = unix.Madvise(region, unix.MADV_DONTNEED) // advice only: ignore failure
}
