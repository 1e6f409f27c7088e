//go:build unix

package safefile

import (
	"os"

	"golang.org/x/sys/unix"
)

// Lock takes an exclusive flock on path (created 0600 if missing) and
// returns the function that releases it.
func Lock(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	for {
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		unix.Flock(int(f.Fd()), unix.LOCK_UN)
		f.Close()
	}, nil
}

// LockFile takes an exclusive flock on the open file f itself and returns
// the function that releases it (f stays open). Locking the data file,
// rather than a separate lock file, means no cleaner can remove the lock
// while the file is in use. A caller that may see the file renamed over
// (a compaction) must, once locked, check that the path still names f.
func LockFile(f *os.File) (unlock func(), err error) {
	fd := int(f.Fd())
	for {
		err = unix.Flock(fd, unix.LOCK_EX)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		return nil, err
	}
	return func() { unix.Flock(fd, unix.LOCK_UN) }, nil
}
