//go:build !unix

package core

// releasePages is a no-op where madvise(2) is not available.
func releasePages([]byte) {}
