//go:build !unix

package ledger

// lockFile is a no-op where flock(2) is not available: the ledger is then
// safe between goroutines of one process only (documented in the package).
func lockFile(string) (func(), error) { return func() {}, nil }
