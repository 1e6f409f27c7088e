package binarize

import (
	"errors"
	"fmt"
	"strings"
)

// ErrMalformed is wrapped by every error that reports a problem with the
// input's content (as opposed to an I/O failure of the underlying reader).
// The more specific sentinels below all wrap it, so
// errors.Is(err, ErrMalformed) is true for any of them.
var ErrMalformed = errors.New("malformed embeddings")

// Specific input problems. Each wraps ErrMalformed.
var (
	// ErrFieldCount: a line or JSON array has the wrong number of values.
	ErrFieldCount = fmt.Errorf("%w: wrong number of fields", ErrMalformed)
	// ErrBadFloat: a value is not a decimal number or overflows float32.
	ErrBadFloat = fmt.Errorf("%w: bad number", ErrMalformed)
	// ErrNonFinite: a value is NaN or ±Inf.
	ErrNonFinite = fmt.Errorf("%w: non-finite value", ErrMalformed)
	// ErrDimension: vectors disagree on their dimension, or the dimension is
	// out of range.
	ErrDimension = fmt.Errorf("%w: inconsistent dimension", ErrMalformed)
	// ErrDuplicateWord: the same word appears twice.
	ErrDuplicateWord = fmt.Errorf("%w: duplicate word", ErrMalformed)
	// ErrHeader: a header (fastText's "N Dim" line, the wink JSON's counts)
	// is unreadable or disagrees with the data.
	ErrHeader = fmt.Errorf("%w: header mismatch", ErrMalformed)
	// ErrTruncated: the input ends before the data it announces.
	ErrTruncated = fmt.Errorf("%w: truncated input", ErrMalformed)
	// ErrEmpty: the input holds no vectors at all.
	ErrEmpty = fmt.Errorf("%w: no vectors", ErrMalformed)
	// ErrSyntax: the input is not in the expected syntax (bad JSON, an
	// unexpected field type, an empty line, a missing tar member).
	ErrSyntax = fmt.Errorf("%w: syntax error", ErrMalformed)
)

// ParseError locates a problem in an embeddings file. It unwraps to one of
// the sentinels above, so callers test the kind with errors.Is and the
// position with errors.As.
type ParseError struct {
	Format string // "glove", "fasttext" or "wink"
	Line   int    // 1-based line number for text formats, 0 if not applicable
	Offset int64  // byte offset for JSON input, -1 if not applicable
	Field  string // JSON field path such as vectors["cat"][3], "" if not applicable
	Msg    string // what is wrong, in words
	Err    error  // a sentinel wrapping ErrMalformed
}

func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString("binarize: ")
	b.WriteString(e.Format)
	if e.Line > 0 {
		fmt.Fprintf(&b, " line %d", e.Line)
	}
	if e.Field != "" {
		fmt.Fprintf(&b, " field %s", e.Field)
	}
	if e.Offset >= 0 {
		fmt.Fprintf(&b, " at byte %d", e.Offset)
	}
	if e.Msg != "" {
		b.WriteString(": ")
		b.WriteString(e.Msg)
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the sentinel, so errors.Is(err, ErrMalformed) holds.
func (e *ParseError) Unwrap() error { return e.Err }
