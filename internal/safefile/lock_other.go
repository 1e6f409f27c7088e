//go:build !unix

package safefile

import "os"

// Lock is a no-op where flock(2) is not available (see the package doc).
func Lock(string) (func(), error) { return func() {}, nil }

// LockFile is a no-op where flock(2) is not available (see the package doc).
func LockFile(*os.File) (func(), error) { return func() {}, nil }
