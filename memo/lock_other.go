//go:build !unix

package memo

// lockFile is a no-op where flock(2) is not available: the memo is then
// safe between goroutines of one process only (documented in the package).
func lockFile(string) (func(), error) { return func() {}, nil }
