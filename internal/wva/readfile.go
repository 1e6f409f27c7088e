package wva

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// MaxFileSize is the largest asset file ReadFile (and so Load) reads:
// 256 MiB. The research asset with float vectors is about 23 MB for 50k
// words and 4 bytes × dims more per added word, so a 200k-word research
// build still fits; the shipped asset is 3.4 MB. The size is checked on the
// open file before any byte is read or any buffer allocated, so a larger
// file, a sparse one or a device costs nothing. Decoding then allocates at
// most DecodeOptions.MaxMemory more, whatever the file declares.
const MaxFileSize = 256 << 20

var (
	// ErrNotRegular: the path names a directory, device, named pipe,
	// socket or other non-regular file, which could be endless (/dev/zero)
	// or block forever (a pipe nobody writes).
	ErrNotRegular = errors.New("wva: not a regular file")
	// ErrFileTooLarge: the file is larger than MaxFileSize, or grew while
	// it was being read.
	ErrFileTooLarge = errors.New("wva: file too large")
)

// ReadFile returns the contents of the regular file at path, refusing
// (before reading anything) a non-regular file with ErrNotRegular and one
// larger than MaxFileSize with ErrFileTooLarge. It reads exactly the size
// the open file reports: a file that grows meanwhile is refused with
// ErrFileTooLarge and one that shrinks with ErrTruncated, so memory is
// bounded by MaxFileSize whatever happens to the file.
func ReadFile(path string) ([]byte, error) {
	// O_NONBLOCK: opening a named pipe for reading would otherwise block
	// until a writer appears, before the mode could be checked. It has no
	// effect on reads from a regular file.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("wva: read file: %w", err)
	}
	defer f.Close()
	// Stat the open descriptor, not the path: the path could be replaced
	// between a Stat and the Open.
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("wva: read file: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%w: %s is a %s", ErrNotRegular, path, kindOf(fi.Mode()))
	}
	size := fi.Size()
	if size > MaxFileSize {
		return nil, fmt.Errorf("%w: %s is %d bytes, limit %d", ErrFileTooLarge, path, size, MaxFileSize)
	}
	// One byte more than the stat'ed size may be read, to detect growth.
	r := io.LimitReader(f, size+1)
	b := make([]byte, size)
	if n, err := io.ReadFull(r, b); err != nil {
		if err == io.ErrUnexpectedEOF || err == io.EOF {
			return nil, truncatedf("file", "%s shrank from %d to %d bytes while being read", path, size, n)
		}
		return nil, fmt.Errorf("wva: read file %s: %w", path, err)
	}
	var one [1]byte
	if n, _ := io.ReadFull(r, one[:]); n > 0 {
		return nil, fmt.Errorf("%w: %s grew beyond %d bytes while being read", ErrFileTooLarge, path, size)
	}
	return b, nil
}

// kindOf names the kind of a non-regular file for an error message.
func kindOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "directory"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	}
	return "special file"
}
