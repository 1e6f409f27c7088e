//go:build !unix

package safefile

// Lock is a no-op where flock(2) is not available (see the package doc).
func Lock(string) (func(), error) { return func() {}, nil }
