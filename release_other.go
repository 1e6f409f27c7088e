//go:build !unix

package wordveil

// releasePages is a no-op where madvise(2) is not available.
func releasePages([]byte) {}
