package pipeline

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
)

// The launcher's file operations, on any Beam file system (local paths,
// gs://, ...): the output directory's commit and the state's files.
// Local paths are written with fsync before they are renamed into place,
// so that a committed file survives a power cut as well as a crash; a
// remote file system's durability is its own.

func isLocal(path string) bool { return !strings.Contains(path, "://") }

// withFS calls f with the file system of path.
func withFS(ctx context.Context, path string, f func(filesystem.Interface) error) error {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return fmt.Errorf("wordveil-beam: %s: %w", path, err)
	}
	defer fs.Close()
	return f(fs)
}

// listFiles returns the files matching glob (none for a missing directory).
func listFiles(ctx context.Context, glob string) ([]string, error) {
	var out []string
	err := withFS(ctx, glob, func(fs filesystem.Interface) error {
		var err error
		out, err = fs.List(ctx, glob)
		return err
	})
	return out, err
}

// readSmall reads a small file (a seal, an anchor, a manifest). A missing
// file is os.ErrNotExist (wrapped) on every file system that says so.
func readSmall(ctx context.Context, path string) ([]byte, error) {
	if isLocal(path) {
		return os.ReadFile(path)
	}
	var b []byte
	err := withFS(ctx, path, func(fs filesystem.Interface) error {
		rc, err := fs.OpenRead(ctx, path)
		if err != nil {
			return err
		}
		defer rc.Close()
		b, err = io.ReadAll(io.LimitReader(rc, 64<<20))
		return err
	})
	return b, err
}

// writeAtomic writes data to path under a temporary name and renames it
// into place: path is either absent, or its old content, or all of data.
func writeAtomic(ctx context.Context, path string, data []byte) error {
	var suffix [8]byte
	if _, err := rand.Read(suffix[:]); err != nil {
		return err
	}
	tmp := path + ".tmp-" + hex.EncodeToString(suffix[:])
	if isLocal(path) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return err
		}
		_, err = f.Write(data)
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(tmp, path)
		}
		if err != nil {
			os.Remove(tmp)
			return fmt.Errorf("wordveil-beam: writing %s: %w", path, err)
		}
		return syncDir(filepath.Dir(path))
	}
	return withFS(ctx, path, func(fs filesystem.Interface) error {
		rn, ok := fs.(filesystem.Renamer)
		if !ok {
			return fmt.Errorf("wordveil-beam: %s: the file system cannot rename, so it cannot commit", path)
		}
		if err := writeBytes(ctx, fs, tmp, data); err != nil {
			return err
		}
		return rn.Rename(ctx, tmp, path)
	})
}

func writeBytes(ctx context.Context, fs filesystem.Interface, path string, data []byte) error {
	wc, err := fs.OpenWrite(ctx, path)
	if err != nil {
		return err
	}
	if _, err := wc.Write(data); err != nil {
		wc.Close()
		return err
	}
	return wc.Close()
}

// syncDir makes a rename in dir durable (local file systems).
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	d.Sync() // not supported everywhere (some file systems refuse it): best effort
	return nil
}

// rename moves a file within one file system.
func rename(ctx context.Context, from, to string) error {
	if isLocal(from) {
		return os.Rename(from, to)
	}
	return withFS(ctx, from, func(fs filesystem.Interface) error {
		rn, ok := fs.(filesystem.Renamer)
		if !ok {
			return fmt.Errorf("wordveil-beam: %s: the file system cannot rename, so it cannot commit", from)
		}
		return rn.Rename(ctx, from, to)
	})
}

// remove deletes files, in order; a missing one is not an error.
func remove(ctx context.Context, paths ...string) error {
	for _, p := range paths {
		if err := removeOne(ctx, p); err != nil {
			return err
		}
	}
	return nil
}

// removeOne deletes the file p; a missing one is not an error.
func removeOne(ctx context.Context, p string) error {
	if isLocal(p) {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		return nil
	}
	return withFS(ctx, p, func(fs filesystem.Interface) error {
		rm, ok := fs.(filesystem.Remover)
		if !ok {
			return fmt.Errorf("wordveil-beam: %s: the file system cannot remove files", p)
		}
		return rm.Remove(ctx, p)
	})
}

// fileEntry names a file with its size and SHA-256: a manifest's shard or
// a state generation's.
type fileEntry struct {
	Name   string `json:"name"` // relative to the directory it is listed for
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// hashFile returns path's size and SHA-256, reading it once.
func hashFile(ctx context.Context, path string) (int64, string, error) {
	var n int64
	h := sha256.New()
	err := withFS(ctx, path, func(fs filesystem.Interface) error {
		rc, err := fs.OpenRead(ctx, path)
		if err != nil {
			return err
		}
		defer rc.Close()
		n, err = io.Copy(h, rc)
		return err
	})
	if err != nil {
		return 0, "", fmt.Errorf("wordveil-beam: reading %s: %w", path, err)
	}
	return n, hex.EncodeToString(h.Sum(nil)), nil
}

// entriesOf lists the files matching dir/glob with their sizes and
// checksums, named relative to dir, in name order (List sorts on the
// local file system; the sort here makes it so everywhere).
func entriesOf(ctx context.Context, dir, glob string, rename func(string) string) ([]fileEntry, error) {
	paths, err := listFiles(ctx, joinPath(dir, glob))
	if err != nil {
		return nil, err
	}
	out := make([]fileEntry, len(paths))
	err = forEach(len(paths), func(i int) error {
		n, sum, err := hashFile(ctx, paths[i])
		out[i] = fileEntry{Name: rename(baseName(paths[i])), Size: n, SHA256: sum}
		return err
	})
	if err != nil {
		return nil, err
	}
	sortEntries(out)
	return out, nil
}

// commitWorkers is how many files the launcher hashes, renames or removes
// at once. A run writes a records file per MiB of input with a record to
// write, and on a remote file system each operation on a file is a round
// trip or more (a rename on GCS is a copy and a delete): one at a time,
// 100,000 files would take hours.
const commitWorkers = 16

// forEach calls f(i) for every i in [0, n), commitWorkers at a time, and
// returns the error of the lowest i that failed (nil if none did). Once
// one has failed, the calls not yet started are not made.
func forEach(n int, f func(i int) error) error {
	errs := make([]error, n)
	var next atomic.Int64
	var failed atomic.Bool
	var wg sync.WaitGroup
	for range min(commitWorkers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !failed.Load() {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if errs[i] = f(i); errs[i] != nil {
					failed.Store(true)
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// baseName is the last element of a local path or a URL.
func baseName(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}
