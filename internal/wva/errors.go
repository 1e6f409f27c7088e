package wva

import (
	"errors"
	"fmt"
)

// Sentinel errors. Every error returned by Decode and Inspect wraps
// exactly one of the first five, with context naming the part of the file
// and the problem; test with errors.Is. Load and ReadFile can also return
// ErrNotRegular, ErrFileTooLarge (readfile.go) or a file-system error.
var (
	// ErrBadMagic: the input does not start with the WordVeil asset magic.
	ErrBadMagic = errors.New("not a WordVeil asset (bad magic)")
	// ErrVersion: the file's major format version is not one this reader
	// understands.
	ErrVersion = errors.New("unsupported format version")
	// ErrChecksum: a stored CRC-32C does not match the bytes it covers.
	ErrChecksum = errors.New("checksum mismatch")
	// ErrTruncated: the input ends before the data it declares.
	ErrTruncated = errors.New("truncated")
	// ErrCorrupt: the bytes are intact (checksums match) but their content
	// breaks a rule of the format; a writer bug or a tampered file.
	ErrCorrupt = errors.New("corrupt")

	// ErrInvalid is returned by Marshal, Validate and the constructors when
	// an in-memory Asset, permutation or TEM list set breaks a rule of the
	// format, so that no file is ever written that Decode would refuse.
	ErrInvalid = errors.New("invalid asset")
)

// corruptf returns an ErrCorrupt error located in part (a section name or
// "header", "table", ...).
func corruptf(part, format string, args ...any) error {
	return fmt.Errorf("wva: %s: %w: %s", part, ErrCorrupt, fmt.Sprintf(format, args...))
}

// truncatedf returns an ErrTruncated error located in part.
func truncatedf(part, format string, args ...any) error {
	return fmt.Errorf("wva: %s: %w: %s", part, ErrTruncated, fmt.Sprintf(format, args...))
}

// invalidf returns an ErrInvalid error located in part.
func invalidf(part, format string, args ...any) error {
	return fmt.Errorf("wva: %s: %w: %s", part, ErrInvalid, fmt.Sprintf(format, args...))
}
