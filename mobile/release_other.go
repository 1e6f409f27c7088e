//go:build !unix

package mobile

// releasePages is a no-op where madvise(2) is not available.
func releasePages([]byte) {}
