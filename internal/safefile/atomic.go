// Package safefile keeps the files WordVeil writes on the device safe
// against crashes and against a second process (an app and its keyboard
// extension may open the same state at once).
//
// Atomic replacement: WriteFile (and WriteChecked, which adds a CRC-32C
// trailer that ParseChecked verifies) write a temporary file in the same
// directory, fsync it, rename it over the target and fsync the directory,
// so that a crash at any moment leaves either the old content or the new,
// never a mix.
//
// Locks: Lock takes an exclusive advisory lock shared between processes
// (flock(2) on Unix). On Unix it returns only when this process holds the
// lock, and the lock is released by the returned function or when the
// process exits (so a killed process never leaves a stale lock). Where
// flock(2) is not available, Lock only succeeds: callers are then safe
// between the goroutines of one process only, and must say so.
package safefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile atomically replaces path with data, with permission perm.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err := f.Chmod(perm); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if _, err := f.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("commit %s: %w", path, err)
	}
	ok = true
	syncDir(dir)
	return nil
}

// CreateExclusive atomically creates path holding data, with permission
// perm, only if path does not exist: a temporary file is written and
// fsync'd, then hard-linked to path (link(2) fails if path exists), so
// that two processes creating the same file at once never both succeed
// and no reader ever sees a partial file. created is false (and err nil)
// when path already existed.
func CreateExclusive(path string, data []byte, perm os.FileMode) (created bool, err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*")
	if err != nil {
		return false, fmt.Errorf("create %s: %w", path, err)
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	_, werr := f.Write(data)
	cerr := f.Chmod(perm)
	serr := f.Sync()
	if err := errors.Join(werr, cerr, serr, f.Close()); err != nil {
		return false, fmt.Errorf("create %s: %w", path, err)
	}
	if err := os.Link(tmp, path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return false, nil
		}
		return false, fmt.Errorf("create %s: %w", path, err)
	}
	syncDir(dir)
	return true, nil
}

// syncDir makes a rename or link in dir durable; not every system
// supports it.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
