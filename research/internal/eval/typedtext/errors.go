package typedtext

import "errors"

var (
	// ErrMissing reports a pinned file that is not in the cache directory.
	ErrMissing = errors.New("typedtext: pinned file missing (run scripts/fetch-typed-text.sh)")
	// ErrFormat reports content that does not match the pinned format.
	ErrFormat = errors.New("typedtext: bad format")
	// ErrArgument reports a nil function or another unusable argument.
	ErrArgument = errors.New("typedtext: bad argument")
)
